"""Copied values: a typed text or a selected option that is no whole-word span of the
conversation is decoded again, each id keeping it a copy (the real SmolLM2 tokenizer and model);
a value that is a copy is left as the model wrote it."""

from __future__ import annotations

import asyncio

import pytest

from pipeline.agent.copied_values import (
    asked_case,
    cased,
    close_copy,
    copy_source,
    uncopied_value,
    value_prefix,
)
from pipeline.agent.model_policy import GenerationSettings, load_model_policy
from pipeline.agent.policy import Situation, turn_from_text
from pipeline.model.copy_span import CopySpan, is_span, span_as_written
from pipeline.tools.parse import parse_calls

SOURCE = "Task: Search for action movies directed by Beck from year 2011.\n[1] Director: (empty)"


@pytest.fixture(scope="module")
def tokenizer(base_folder):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(base_folder)


def test_a_span_starts_and_ends_at_word_bounds_case_aside():
    assert is_span("beck", SOURCE) and is_span("Directed by Beck", SOURCE)
    assert is_span("2011.", SOURCE) and is_span("(empty)", SOURCE)
    assert not is_span("Bec", SOURCE)  # cut inside "Beck"
    assert not is_span("eck", SOURCE) and not is_span("Terry", SOURCE) and not is_span("", SOURCE)
    assert is_span("movies ", SOURCE)  # a copy may carry the space after a word (copy-paste)


def test_the_copy_goes_on_only_as_the_source_does(tokenizer):
    choose = CopySpan(tokenizer, SOURCE)
    pieces = {tokenizer.decode([i]) for i in choose.allowed("Bec")}
    assert pieces == {"k", "K"}  # "Beck" is the only way on, and it may not close yet
    closing = {tokenizer.decode([i]) for i in choose.allowed("Beck")}
    assert '"' in closing and '"}' in closing and " from" in closing
    starts = {tokenizer.decode([i]) for i in choose.allowed("")}
    assert {"B", "Be", "2", "directed"} <= starts
    assert not any(p.startswith((" ", '"')) for p in starts)  # a copy starts on a word
    assert choose.allowed("Terry") == []  # nothing to go on from: the model's own choice


def test_the_value_of_a_call_and_where_it_opens():
    turn = turn_from_text('<bu_type>{"index": 2, "text": "Bec"}<bu_end>')
    assert uncopied_value(turn, SOURCE) == ("type", "text", "Bec")
    assert uncopied_value(turn_from_text('<bu_type>{"index": 2, "text": "Beck"}<bu_end>'),
                          SOURCE) is None
    assert uncopied_value(turn_from_text('<bu_click>{"index": 2}<bu_end>'), SOURCE) is None
    # a number may be worked out ("10" for 4 + 6): never taken for a garbled copy
    assert uncopied_value(turn_from_text('<bu_type>{"index": 2, "text": "10"}<bu_end>'),
                          SOURCE) is None
    assert value_prefix('Typing.<bu_type>{"index": 2, "text": "Bec"}<bu_end>', "type", "text") \
        == 'Typing.<bu_type>{"index": 2, "text": "'
    assert value_prefix('{"name": "select", "arguments": {"index": 4, "option": "Re"}}',
                        "select", "option") == '{"name": "select", "arguments": {"index": 4, ' \
                                               '"option": "'
    assert value_prefix('<bu_click>{"index": 2}<bu_end>', "type", "text") is None
    messages = [{"role": "system", "content": "Type what you are told."},
                {"role": "user", "content": "Task: x"}, {"role": "assistant", "content": "Sid"},
                {"role": "tool", "content": "[3] Sidoney"}]
    assert copy_source(messages) == "Task: x\n[3] Sidoney"


def test_a_copy_replaces_only_a_value_spelt_much_like_it():
    assert close_copy("terrel", "terry") and close_copy("Bec", "Beck")
    assert close_copy("11/20/20", "11/20/2013") and close_copy("Bowvet Island", "Bouvet Island")
    assert not close_copy("wPs", "w")  # text the page drew, which no message shows
    assert not close_copy("neque", "SCROLL: down:end")  # another value, not this one garbled


def test_the_letter_case_the_task_asks_for():
    assert asked_case('Type "TULA" in all lower case letters in the text input') == "lower"
    assert asked_case('Enter "juan" in all upper case letters') == "upper"
    assert asked_case("Write it in UPPERCASE") == "upper"
    assert asked_case("Enter the code in capital letters") == "upper"
    assert asked_case("Search for movies directed by Beck") is None
    assert asked_case("Open the showcase of lower prices") is None


def test_a_value_is_cased_as_the_task_asks_or_as_the_source_writes_it():
    source = 'Task: Type "TULA" in lower case.\nMorbi. Morbi id nisl. [2] Colour: Light Blue'

    def value(text: str, case: str | None = None) -> tuple[str, str | None]:
        turn = cased(turn_from_text(text, 3), source, case, 3)
        return turn.call.arguments.get("text") or turn.call.arguments.get("option"), \
            turn.meta.get("cased")

    assert span_as_written("morbi id", source) == "Morbi id"
    assert span_as_written("bi", source) is None
    captcha = "Type the text below into the text field.\na O Y\nSubmit"
    assert span_as_written("aoy", captcha) == "aOY"  # letters drawn apart, read back spaced
    assert span_as_written("a oy", captcha) == "a OY"  # the spacing stays the value's
    assert span_as_written("extbelow", captcha) is None  # a run that starts inside a word
    assert span_as_written("aoysub", captcha) is None  # ... or ends inside a word
    assert span_as_written("newyork", "Fly to New York") is None  # words, not drawn letters
    assert uncopied_value(turn_from_text('<bu_type>{"index": 1, "text": "aoy"}<bu_end>', 0),
                          captcha) is None  # a copy: not decoded again (as "a" or "a O Y")
    assert value('<bu_type>{"index": 1, "text": "TULA"}<bu_end>', "lower") == ("tula", "TULA")
    assert value('<bu_type>{"index": 1, "text": "morbi"}<bu_end>') == ("Morbi", "morbi")
    assert value('<bu_type>{"index": 1, "text": "Morbi"}<bu_end>') == ("Morbi", None)
    assert value('<bu_type>{"index": 1, "text": "lorem"}<bu_end>') == ("lorem", None)  # no copy
    assert value('<bu_select>{"index": 2, "option": "light blue"}<bu_end>', "upper") == \
        ("Light Blue", "light blue")  # an option is the page's, whatever the task says
    turn = cased(turn_from_text('<bu_type>{"index": 1, "text": "morbi"}<bu_end>', 3), source,
                 None, 3)
    assert turn.message["tool_calls"][0]["function"]["arguments"] == {"index": 1,
                                                                      "text": "Morbi"}


@pytest.fixture(scope="module")
def base_policy():
    return load_model_policy("smollm2", GenerationSettings(max_new_tokens=40, bf16=False,
                                                           prefix_cache=0))


@pytest.mark.slow
def test_a_value_decoded_from_its_opening_quote_is_a_copy_of_the_source(base_policy):
    messages = [{"role": "system", "content": "You are a web agent."},
                {"role": "user", "content": SOURCE + "\nType the director's name into [1]."}]
    prefix = '{"name": "type", "arguments": {"index": 1, "text": "'
    ids = base_policy.prompt_ids(messages) + base_policy.tokenizer.encode(
        prefix, add_special_tokens=False)
    choose = CopySpan(base_policy.tokenizer, copy_source(messages))
    answer = base_policy.engine.submit(ids, 24, choose).result(timeout=120)
    text = prefix + base_policy.tokenizer.decode(answer.ids, skip_special_tokens=True)
    (call,) = parse_calls(text)
    assert call.name == "type" and is_span(call.arguments["text"], copy_source(messages))


@pytest.mark.slow
def test_the_policy_replaces_a_garbled_copy_and_keeps_a_true_one(base_policy):
    def turn(value: str):
        messages = [{"role": "system", "content": "You are a web agent."},
                    {"role": "user", "content": "Task: Search for movies directed by Terry."},
                    {"role": "assistant", "content": '{"name": "type", "arguments": '
                                                     f'{{"index": 1, "text": "{value}"}}}}'},
                    {"role": "user", "content": "Reply with exactly that JSON again and nothing "
                                                "else."}]
        situation = Situation("", [], "query_only", messages, None)
        return asyncio.run(base_policy.next_turn(situation))

    garbled = turn("Terrel")  # the model repeats its own turn, which no user or tool message has
    assert garbled.meta["copied"] == "Terrel"
    assert garbled.call.arguments == {"index": 1, "text": "Terry"}
    assert garbled.completion_tokens > 0
    true = turn("Terry")
    assert "copied" not in true.meta and true.call.arguments["text"] == "Terry"


@pytest.mark.slow
def test_the_policy_decodes_a_value_another_field_holds_again_without_it(base_policy):
    from dataclasses import replace

    from pipeline.distill import distill
    from pipeline.html.source import page_from_html

    task = "Search for thriller movies directed by Terry from year 1987."
    page = distill(page_from_html(
        f'<div id="query">{task}</div><label for="g">Genre</label>'
        '<input id="g" type="text" value="thriller"><label for="d">Director</label>'
        '<input id="d" type="text"><button>Search</button>'))
    messages = [{"role": "system", "content": "You are a web agent."},
                {"role": "user", "content": f"Task: {task}"},
                {"role": "assistant", "content": '{"name": "type", "arguments": '
                                                 '{"index": 2, "text": "thriller"}}'},
                {"role": "user", "content": "Reply with exactly that JSON again and nothing "
                                            "else."}]
    situation = Situation(task, [], "query_only", messages, page)
    turn = asyncio.run(base_policy.next_turn(situation))
    assert turn.meta["repeated"] == "thriller" and turn.completion_tokens > 0
    value = turn.call.arguments["text"]
    assert turn.call.arguments["index"] == 2 and value.strip()
    assert "thriller" not in value.lower() and is_span(value, copy_source(messages))
    settings = base_policy.settings
    base_policy.settings = replace(settings, distinct_values=False)
    try:
        kept = asyncio.run(base_policy.next_turn(situation))
    finally:
        base_policy.settings = settings
    assert "repeated" not in kept.meta and kept.call.arguments["text"] == "thriller"
