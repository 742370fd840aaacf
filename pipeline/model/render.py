"""A trajectory -> ``input_ids``, ``labels`` and ``loss_weights``: the one rendering training and
inference share.

The conversation goes through the model's own chat template (SmolLM2's ChatML:
``<|im_start|>{role}\\n{content}<|im_end|>\\n``). Two decisions make it a tool conversation:

- an assistant turn's content is its rationale, a newline, then its call in functional-token form
  (``assistant_text``): ``Searching for the button.\\n<bu_query>{"text": "ok"}<bu_end>``; the
  template's end-of-turn (EOS, ``<|im_end|>``) follows;
- a tool result is a ``tool`` turn (``<|im_start|>tool\\n{result}<|im_end|>``): ChatML has no tool
  role, and a template that knows one (Qwen2.5) renders its own.

The tools are NOT described in the prompt: as in Octopus v2, what each tool does is learnt into
the functional tokens. The ``tools`` column is not rendered, and the tool list that query_only and
hybrid observations end with (``Tools:`` and one ``- signature: description`` line per tool, for
teachers that read it) is cut from the user turn -- ~200 of a query_only step's ~600 prompt
tokens. The system prompt is cut the same way: a ``system_prompt(mode)`` text becomes its
``brief_system_prompt`` (the mode in one sentence, ~130 fewer tokens per conversation).

Completion-only: only assistant tokens (content and the EOS that ends the turn) carry labels;
system, user and tool tokens are -100. ``loss_weights`` is W on functional-token labels (the
tool token and ``<bu_end>``), ``first_token_weight`` on the first token of each answer (with a
rationale before the call that word is where the turn's tool is chosen: "Searching ..." for a
query of a thing to click, "I need every textbox ..." for one of fields to type in, "Typing ..."),
1 on other labels, 0 where there is no label. Labels are aligned
with ``input_ids`` (the loss shifts them). A conversation longer than ``max_length`` is cut in
its observation (the page part of the user turn) and tool results, longest first, each cut marked
with ``TRUNCATED``; assistant turns are never cut (``RenderError`` if they alone do not fit).
``render_prompt`` renders a conversation up to the next assistant turn with the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.agent.observe import without_tool_list
from pipeline.agent.prompts import brief_system_prompt, user_turn
from pipeline.errors import FormatError
from pipeline.tools import ToolCall, from_openai, render_calls

IGNORE = -100
TRUNCATED = "\n[... truncated]"
OBSERVATION_HEADER = user_turn("", (), "").rsplit("\n\n", 1)[-1]  # "Current page:\n"
MAX_FIT_ROUNDS = 4


class RenderError(FormatError):
    """A conversation that cannot be rendered (bad message, answers longer than max_length)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    input_ids: list[int]
    labels: list[int]
    loss_weights: list[float]
    truncated_tokens: int = 0  # observation/tool tokens cut to fit max_length


@dataclass(frozen=True, slots=True)
class _Segment:
    text: str
    trainable: bool


def assistant_calls(message: Mapping[str, Any]) -> list[ToolCall]:
    """The validated calls of an assistant message's ``tool_calls``."""
    calls = []
    for entry in message.get("tool_calls") or []:
        call = from_openai(entry)
        if not isinstance(call, ToolCall):
            raise RenderError(f"assistant tool call {entry!r} is invalid: {call}")
        calls.append(call)
    return calls


def assistant_text(message: Mapping[str, Any]) -> str:
    """Rationale, newline, calls in functional-token form (what the model learns to write)."""
    rationale = (message.get("content") or "").strip()
    calls = render_calls(assistant_calls(message))
    return f"{rationale}\n{calls}" if rationale and calls else rationale or calls


def chat_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Template-ready messages: assistant content = ``assistant_text``, a user turn without its
    tool list, a system prompt in its brief form, others their text."""
    out = []
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ("system", "user", "assistant", "tool"):
            raise RenderError(f"message {i}: unknown role {role!r} (system/user/assistant/tool)")
        content = assistant_text(message) if role == "assistant" else message.get("content")
        if not isinstance(content, str):
            raise RenderError(f"message {i} ({role}): content must be text, got {content!r}")
        if role == "user":
            content = without_tool_list(content)
        elif role == "system":
            content = brief_system_prompt(content)
        out.append({"role": role, "content": content})
    return out


def render_trajectory(
    messages: Sequence[Mapping[str, Any]], tokenizer: Any, *, max_length: int,
    loss_weight: float = 1.0, functional_ids: Sequence[int] = (), first_token_weight: float = 1.0,
) -> Rendered:
    """``input_ids``, ``labels`` and ``loss_weights`` of a whole conversation (see module doc)."""
    chat, cut = fit(chat_messages(messages), tokenizer, max_length, generation=False)
    ids: list[int] = []
    labels: list[int] = []
    firsts: set[int] = set()  # positions of each answer's first token
    special = set(functional_ids)
    for segment in segments(chat, tokenizer):
        part = _encode(tokenizer, segment.text)
        if segment.trainable:
            firsts.add(len(ids))
        ids += part
        labels += _completion_labels(part, tokenizer.eos_token_id) if segment.trainable \
            else [IGNORE] * len(part)
    weights = [0.0 if y == IGNORE else loss_weight if y in special else
               first_token_weight if i in firsts else 1.0 for i, y in enumerate(labels)]
    return Rendered(ids, labels, weights, cut)


def render_prompt(
    messages: Sequence[Mapping[str, Any]], tokenizer: Any, *, max_length: int
) -> list[int]:
    """Ids of a conversation (no assistant turn at its end) plus the assistant header: the
    prompt to generate the next turn from, truncated the way training data is."""
    chat, _ = fit(chat_messages(messages), tokenizer, max_length, generation=True)
    return _encode(tokenizer, _template(tokenizer, chat, generation=True))


def segments(chat: list[dict[str, str]], tokenizer: Any) -> list[_Segment]:
    """The rendered conversation cut into turns by template prefixes; an assistant turn is its
    header (not trained) and its body (trained)."""
    out: list[_Segment] = []
    previous = ""
    for i, message in enumerate(chat):
        if message["role"] == "assistant":
            header = _template(tokenizer, chat[:i], generation=True)
            out.append(_Segment(_suffix(header, previous), False))
            previous = header
        full = _template(tokenizer, chat[: i + 1], generation=False)
        out.append(_Segment(_suffix(full, previous), message["role"] == "assistant"))
        previous = full
    return out


def fit(
    chat: list[dict[str, str]], tokenizer: Any, max_length: int, *, generation: bool
) -> tuple[list[dict[str, str]], int]:
    """The chat shortened (observation and tool results, longest first) to ``max_length``
    tokens, and how many tokens were cut."""
    length = _length(chat, tokenizer, generation)
    if length <= max_length:
        return chat, 0
    sizes = {i: len(_encode(tokenizer, _cuttable(chat[i])[1])) for i in _cuttable_turns(chat)}
    marker = len(_encode(tokenizer, TRUNCATED))
    excess = length - max_length
    for _ in range(MAX_FIT_ROUNDS):
        caps = _water_fill(sizes, excess + marker * len(sizes))
        if caps is None:
            break
        shorter = [_cut(m, caps.get(i), tokenizer) for i, m in enumerate(chat)]
        new_length = _length(shorter, tokenizer, generation)
        if new_length <= max_length:
            return shorter, length - new_length
        excess += new_length - max_length
    raise RenderError(f"conversation of {length} tokens does not fit max_length={max_length} "
                      "even with observation and tool results cut; raise max_length")


def _water_fill(sizes: dict[int, int], excess: int) -> dict[int, int] | None:
    """Caps so that cutting every size down to its cap removes at least ``excess`` tokens while
    keeping the largest cap possible (the longest texts are cut first)."""
    if sum(sizes.values()) < excess:
        return None
    low, high = 0, max(sizes.values(), default=0)
    while low < high:  # the largest cap that still removes enough
        mid = (low + high + 1) // 2
        if sum(max(0, n - mid) for n in sizes.values()) >= excess:
            low = mid
        else:
            high = mid - 1
    return {i: low for i, n in sizes.items() if n > low}


def _cuttable_turns(chat: list[dict[str, str]]) -> list[int]:
    return [i for i, m in enumerate(chat) if m["role"] in ("user", "tool") and _cuttable(m)[1]]


def _cuttable(message: dict[str, str]) -> tuple[str, str]:
    """(kept head, cuttable tail): a user turn's tail is its observation, a tool turn is all
    tail."""
    content = message["content"]
    if message["role"] == "user":
        at = content.find(OBSERVATION_HEADER)
        start = at + len(OBSERVATION_HEADER) if at >= 0 else 0
        return content[:start], content[start:]
    return "", content


def _cut(message: dict[str, str], cap: int | None, tokenizer: Any) -> dict[str, str]:
    if cap is None:
        return message
    head, tail = _cuttable(message)
    offsets = tokenizer(tail, add_special_tokens=False, return_offsets_mapping=True)
    spans = offsets["offset_mapping"]
    end = spans[cap - 1][1] if cap > 0 else 0
    return {**message, "content": head + tail[:end] + TRUNCATED}


def _length(chat: list[dict[str, str]], tokenizer: Any, generation: bool) -> int:
    return len(_encode(tokenizer, _template(tokenizer, chat, generation=generation)))


def _template(tokenizer: Any, chat: list[dict[str, str]], *, generation: bool) -> str:
    if not chat:
        return ""
    return tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=generation)


def _suffix(text: str, prefix: str) -> str:
    if not text.startswith(prefix):
        raise RenderError("the model's chat template does not render a conversation as a prefix "
                          "of its continuation; use a template that appends turns (ChatML)")
    return text[len(prefix):]


def _encode(tokenizer: Any, text: str) -> list[int]:
    return tokenizer.encode(text, add_special_tokens=False)


def _completion_labels(ids: list[int], eos_id: int | None) -> list[int]:
    """Labels of an assistant body: every id up to and including the first EOS."""
    end = ids.index(eos_id) + 1 if eos_id in ids else len(ids)
    return ids[:end] + [IGNORE] * (len(ids) - end)
