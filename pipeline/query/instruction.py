"""A query built from a task instruction alone: no knowledge of the page or of the target.

This is the baseline a model has to beat, the retrieval benchmark's "instruction-only" query, and
a starting point for teachers. It guesses the operation from the verb, separates what is to be
typed or selected (the value) from what names the element, and turns the naming words into
``query_elements`` arguments::

    plan = query_from_instruction('Enter "Kelly" into the username field')
    plan = query_for_step('Enter "Kelly" and the password "x" and press Submit', history)
    plan.op, plan.value            # "TYPE", "Kelly"
    plan.arguments                 # {"keyword_weights": {"usernam": ..}, "role": "textbox"} ...
    query_elements(page, **plan.arguments)

Quoted phrases that name the element weigh most, then the other content words; words that only
say *how* to act ("click", "button", "the") are dropped, or become a role filter when the
operation needs one (typing needs a textbox, selecting a dropdown) and the instruction is a
single action: a task of several ("enter X and press Submit") gets no role filter, which would
hide the elements of its later steps. A date picked from a calendar is searched as the day the
calendar shows, and at a lower weight as its month and the calendar's prev/next (``dates``); an
ordinal ("the 3rd result") names a position, so its number is only a weak word.
``query_for_step`` uses what a model also knows at a step — the actions it has taken, as the
history lines name them — to plan only the task's next clause ("press Submit" after the text was
typed; the item "Select a, b, c" skipped, after a and c).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from pipeline.query.affixes import affix
from pipeline.query.alike import similar_words
from pipeline.query.dates import DATE, date_terms, month_terms, picked_date
from pipeline.query.extremes import superlative
from pipeline.query.figures import figure_question
from pipeline.query.listed_values import listed_numbers
from pipeline.query.number_rules import number_rule
from pipeline.query.spinners import spin_value
from pipeline.query.text import (
    HISTORY_LINE,
    SENDING_WORDS,
    STOP_WORDS,
    handles,
    stem,
    words,
)
from pipeline.query.turned import turned_numbers

Op = Literal["CLICK", "TYPE", "SELECT"]

_QUOTED = re.compile(r"[\"“”‘’]([^\"“”‘’]+)[\"“”‘’]|(?<!\w)'([^']+)'(?!\w)")
_TYPE_VERBS = frozenset({"type", "enter", "fill", "write", "input", "search", "paste"})
_SELECT_VERBS = frozenset({"select", "choose", "pick"})
_CLICK_VERBS = frozenset(
    {"click", "tap", "press", "push", "open", "go", "check", "uncheck", "toggle"})
_ACTION_WORDS = frozenset(
    ["click", "tap", "press", "hit", "push", "open", "go", "navigate", "find", "locate", "then", "also", "please", "want", "would", "like", "need", "some", "just", "now", "button", "link", "field", "box", "input", "textbox", "text", "area", "element", "item", "option", "dropdown", "list", "menu", "put", "show", "get", "take", "make", "let"]
)
# "Choose 2 with the slider": a number set with a named control (a slider, a spinner)
_INSTRUMENT = re.compile(r"^\s*\w+\s+(-?\d+(?:\.\d+)?)\s+(?:with|using)\s+(.+?)[\s.]*$",
                         re.IGNORECASE)
# "find and click on the item with the [icon] icon": the icon shown, not named
_SHOWN_ICON = re.compile(r"\bthe\s+icon\b", re.IGNORECASE)
# words that introduce the element after a typed/selected value
_MARKER = re.compile(r"\b(?:into|in|as|for|under|from|on)\b(.*)$", re.IGNORECASE | re.DOTALL)
_OPERATION_VERBS = _TYPE_VERBS | _SELECT_VERBS | _CLICK_VERBS | {"submit", "hit"}
_NOT_NAMING = STOP_WORDS | _ACTION_WORDS | _TYPE_VERBS | _SELECT_VERBS
_KEYWORD_WEIGHT = 1.0
_CONTEXT_WEIGHT = 0.5  # the next clause's naming words, at this share of their weight
_FAR_CONTEXT_WEIGHT = 0.25  # any other clause's
_QUOTED_WEIGHT = 3.0
_MONTH_WEIGHT = 0.5  # a date's month name and a calendar's prev/next: maybe on the way
# "the 3rd result": a position, which an element may also carry as its label (tab "3", "input 3")
_ORDINAL_TEXT = r"\b(\d+)(?:st|nd|rd|th)\b"
_ORDINAL = re.compile(_ORDINAL_TEXT, re.IGNORECASE)
_ORDINAL_WEIGHT = 0.25  # a weak cue: below any word that names the element
# "to the 2nd position": where something goes, not which of several to act on
_DESTINATION = re.compile(rf"\b(?:to|into|onto)\s+(?:the\s+)?{_ORDINAL_TEXT}", re.IGNORECASE)


# a goal the page shows reached or not: a widget's (see ``dates``, ``spinners``), a number's
_STEPPED_GOALS = ("calendar_date", "spin_value", "number_rule", "listed_values")
# query_elements arguments only the planner passes: no tool schema has them
PLANNER_ONLY = frozenset({"prefer_role", "prefer_pending", "calendar_date", "spin_value",
                          "ordinal", "extreme", "qualifier", "reveal_hidden", "affix",
                          "pair_fields", "similar", "figure", "number_rule", "shown_icon",
                          "listed_values", "turned"})
# "forward the email to Kim", "give Kim Lee the message": a recipient, typed into the To field
_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*"  # capitalised words: "Kim", "Kim Lee"
# ("... wants the message to be sent to Kim", "Send Kim Lee's email", "Kim is waiting for ...",
# "Kim wants the email Bo sent to you")
_RECIPIENT = re.compile(rf"\b(?i:forward|send|sent|e-?mail)\b.*?\bto\s+({_NAME})"
                        rf"|\b(?i:give|send|forward)\s+({_NAME})\s+(?:(?i:the|this|that)\b"
                        rf"|[A-Z][\w-]*'s\b)|^\s*({_NAME})\s+(?i:is\s+waiting\s+for)\b"
                        rf"|^\s*({_NAME})\s+(?i:wants|needs|would\s+like|asked\s+for)\s+"
                        r"(?i:the|that|this)\s+(?i:e-?mail|message|mail)\b")
DRAG_VERB = r"^\s*(?:drag|move|put|place)\b"  # a task that moves an element by a drag
# "drag all circles into the black box": what is dragged, then where it goes (named, not acted on)
_DRAGGING = re.compile(DRAG_VERB + r"(?P<dragged>.*?)"
                       r"\b(?:into|onto|to|over|inside)\b(?P<destination>.*)$", re.IGNORECASE)
# 'Email Kim the message, "X"', 'Write Kim Lee a note: "X"': a message to someone
_ADDRESSED = re.compile(rf"\b(?i:e-?mail|message|write|text)\s+{_NAME}\s+(?i:the|a|an)\b")
# "all posts by @vel", "every email from Kim Lee": the name that says which of them
_QUALIFIER = re.compile(rf"\b(?:by|from)\s+(@[\w.-]+|{_NAME})")


@dataclass(slots=True)
class InstructionQuery:
    op: Op
    value: str  # the text to type or the option to select ("" for a click)
    arguments: dict[str, Any] = field(default_factory=dict)  # for query_elements


def query_from_instruction(
    instruction: str, max_results: int = 20, single: bool = True
) -> InstructionQuery:
    """Guess the operation, the value and the query from the instruction's words; ``single``
    False says the instruction is one step of a longer task (no role filter then)."""
    quoted = [a or b for a, b in _QUOTED.findall(instruction)]
    lowered = words(instruction)
    op = _operation(lowered)
    typed = [q for q in quoted if _is_typed_text(instruction, q)]
    recipient = _RECIPIENT.search(instruction) if op == "CLICK" else None
    instrument = _INSTRUMENT.search(instruction) if op == "SELECT" and not quoted else None
    if typed:  # 'reply ... with the text "X"': X is typed, it names nothing
        op = "TYPE" if op == "CLICK" else op
        value, naming = typed[0], [q for q in quoted if q not in typed]
    elif recipient:  # "forward it to Kim": Kim is typed into the To field
        op, value, naming = "TYPE", next(name for name in recipient.groups() if name), quoted
    elif instrument:  # "Choose 2 with the slider": the number is set, the slider is named
        value, naming = instrument.group(1), []
    else:
        value, naming = _split_value(instruction, quoted, op)
    weights: dict[str, float] = {}
    for phrase in naming:
        weight = _QUOTED_WEIGHT if op == "CLICK" or _names_element(instruction, phrase) else (
            _KEYWORD_WEIGHT)  # another value ("... and the password "x""): a word, not the name
        for word in words(phrase):
            weights[word] = max(weights.get(word, 0.0), weight)
    # a custom dropdown lists the option as an item, a native one as text (not a set number)
    if op == "SELECT" and not instrument:
        for word in words(DATE.sub(" ", value)):  # (a date: the calendar's day, below)
            if word not in STOP_WORDS:
                weights.setdefault(word, _KEYWORD_WEIGHT)
    for word in date_terms(instruction):  # a calendar shows the day of "12/09/2016" as "9"
        weights.setdefault(word, _KEYWORD_WEIGHT)
    date = picked_date(instruction) if op != "TYPE" else None
    if date:  # a date picked, not typed: the calendar may have to change month first
        for word in month_terms(instruction):
            weights.setdefault(word, _MONTH_WEIGHT)
    if _verb(lowered) == "search":  # "search for X": X is the value, the element a search box
        describing = "search"
    elif instrument:
        describing = instrument.group(2)
    else:
        unquoted = DATE.sub(" ", _QUOTED.sub(" ", instruction))  # a date's parts name nothing
        describing = _after_marker(unquoted) if op != "CLICK" and not recipient else unquoted
        describing = describing.replace(value, " ") if recipient else describing
    named = handles(describing)
    every = bool(_EVERY_WORDS.intersection(lowered))  # "on all posts by @vel"
    for word in words(_ORDINAL.sub(" ", describing)):
        if every and word in _EVERY_WORDS:
            continue
        if word == "search" or word not in _NOT_NAMING or word in named:
            weights.setdefault(word, _KEYWORD_WEIGHT)
            for icon in _ICON_NAMES.get(stem(word), ()):  # "Delete X's email": the trash icon
                weights.setdefault(icon, _KEYWORD_WEIGHT)
    # the button that opens the message's editor: what is passed on to someone is forwarded
    # ("Give Kim the message ..."), 'Email Kim the message, "X"' answers Kim's email in a reply
    opener = "forward" if recipient else (
        "reply" if typed and _ADDRESSED.search(instruction) else None)
    if opener:
        weights.setdefault(opener, _KEYWORD_WEIGHT)
    _weaken_destination(weights, instruction)
    for number in _ORDINAL.findall(describing):
        weights.setdefault(number, _ORDINAL_WEIGHT)
    position = _ORDINAL.search(_DESTINATION.sub(" ", describing))
    arguments: dict[str, Any] = {"max_results": max_results}
    if date:
        arguments["calendar_date"] = date
    if position and int(position.group(1)) > 0:  # "the 3rd search result": of several alike
        arguments["ordinal"] = int(position.group(1))
    qualifier = _qualifier(instruction)
    if qualifier:  # whose elements "all" means: the Like buttons of @vel's posts, no others
        arguments["qualifier"] = qualifier
    extreme = superlative(instruction)
    if extreme:  # "the cheapest flight": which of several alike, read on the page
        arguments["extreme"] = extreme
    question = figure_question(instruction)
    if question:  # "How many red circles are there?": answered from what the page draws
        arguments["figure"] = question
    if _SHOWN_ICON.search(instruction):  # the task shows the icon, its words do not name it
        arguments["shown_icon"] = True
    rule = number_rule(instruction)
    if rule:  # "a number less than 5", "odd or even": judged on the numbers the page shows
        arguments["number_rule"] = rule
    listed = listed_numbers(instruction)
    if listed:  # "the combination [2,3,11]": a value per slider, judged on what each shows
        arguments["listed_values"] = list(listed)
    ends = affix(instruction)
    if ends:  # "an item that starts with "An"": the suggestion that shows "Antarctica"
        arguments["affix"] = ends
    if not quoted:  # values said in words ("movies directed by Bowen"): the field paired first
        arguments["pair_fields"] = instruction
    number = spin_value(instruction) if op != "TYPE" else None  # (never a date's part)
    if number:  # set with a spinner's arrows, if the page shows one
        arguments["spin_value"] = number
    if weights:
        arguments["keyword_weights"] = weights
    else:  # nothing word-like ("♥♥♥"): search the quoted phrase, else the whole instruction
        arguments["text"] = " ".join(naming) or instruction.strip() or "*"
    role = _role_for(op, lowered)
    # one step of a longer task (open the message, forward or reply, type, send), or what
    # scrolls (the page scrolls too): a preference only
    if role and (not single or opener or role == _SCROLLED):
        arguments["prefer_role"] = role
    elif role and _single_action(lowered):  # a filter would hide the later steps' elements
        arguments["role"] = role
    return InstructionQuery(op=op, value=value, arguments=arguments)


def _weaken_destination(weights: dict[str, float], instruction: str) -> None:
    """In a drag ("Move all circles into the black box"), the words naming only where the
    dragged element goes weigh as a far clause's: the box is not what is dragged."""
    dragged = _DRAGGING.match(instruction)
    if dragged is None:
        return
    naming = set(words(dragged["dragged"]))
    for word in set(words(dragged["destination"])).intersection(weights).difference(naming):
        weights[word] = min(weights[word], _FAR_CONTEXT_WEIGHT)


def _role_for(op: Op, lowered: list[str]) -> str | None:
    """Typing needs a textbox; selecting from a "dropdown", "list" or "menu" a combobox;
    "Scroll the text area ..." an element that scrolls (a preference only: the page itself
    scrolls too)."""
    if lowered[:1] == ["scroll"]:
        return _SCROLLED
    if op == "TYPE":
        return "textbox"
    if op == "SELECT" and _mentions(lowered, ("dropdown", "list", "menu")):
        return "combobox"
    return None


def _is_typed_text(instruction: str, phrase: str) -> bool:
    """A quoted phrase introduced as text to write ('with the text "X"', 'the message "X"'), or
    set off by a comma or colon after a verb of writing ('reply to Kim, "X"', 'comment: "X"')."""
    intro = (r"(?:\b(?:with|the)\s+(?:the\s+)?(?:text|message|reply|comment)\s*[:,]?\s*"
             r"|\b(?:reply|respond|answer|comment|write|say)\b[^\"“”‘’]*[,:]\s*)[\"“”‘’']")
    return re.search(intro + re.escape(phrase), instruction, flags=re.IGNORECASE) is not None


def _names_element(instruction: str, phrase: str) -> bool:
    """A quoted phrase after "into"/"in"/"as"/... names the element ('into the "Name" field')."""
    marker = r"\b(?:into|in|as|for|under|from|on)\s+(?:the\s+)?[\"“”‘’']"
    return re.search(marker + re.escape(phrase), instruction, flags=re.IGNORECASE) is not None


def _single_action(lowered: list[str]) -> bool:
    """One operation verb: "Enter X into the name field" (not "... and press Submit"), and not
    a goal of several steps ("reply to Kim, "X"": open the email, click Reply, type, send)."""
    opens_goal = bool(lowered) and lowered[0] in _LEADING_VERBS
    return not opens_goal and sum(1 for word in lowered if word in _OPERATION_VERBS) <= 1


def _verb(lowered: list[str]) -> str | None:
    """The first operation verb of the instruction."""
    return next((w for w in lowered if w in _TYPE_VERBS | _SELECT_VERBS | _CLICK_VERBS), None)


def _operation(lowered: list[str]) -> Op:
    verb = _verb(lowered)
    if verb in _SELECT_VERBS:
        return "SELECT"
    return "TYPE" if verb in _TYPE_VERBS else "CLICK"


def _split_value(instruction: str, quoted: list[str], op: Op) -> tuple[str, list[str]]:
    """``(value, phrases naming the element)``: for TYPE/SELECT the first quoted phrase is the
    value and any later ones name the element; for CLICK every quoted phrase names it."""
    if op == "CLICK":
        return "", quoted
    if quoted:
        return quoted[0], quoted[1:]
    match = re.search(
        r"\b(?:type|enter|fill in|write|input|select|choose|pick)\s+(.+?)"
        r"\s+(?:into|in|as|for|from|on)\s+|\bsearch\s+(?:for\s+)?(.+)$",
        instruction,
        flags=re.IGNORECASE,
    )
    if match:
        return (match.group(1) or match.group(2)).strip(" ."), []
    return "", []


def _after_marker(text: str) -> str:
    """The part of a TYPE/SELECT instruction that names the element ("... into the email field")."""
    match = _MARKER.search(text)
    return match.group(1) if match else text


def _mentions(lowered: list[str], options: tuple[str, ...]) -> bool:
    return any(word in options for word in lowered)


# What an icon's class or label calls the control a task names by its action.
_ICON_NAMES = {stem(word): icons for word, icons in (  # by stem: "deleted" finds it too
    ("delete", ("trash", "remove", "bin")), ("remove", ("trash", "delete", "bin")),
    ("discard", ("trash", "delete", "bin")), ("trash", ("delete", "remove")),
    # "mark it important": mail apps mark what matters with a star (or a flag)
    ("important", ("star", "flag")), ("favorite", ("star", "heart")),
    ("favourite", ("star", "heart")))}
# Imperatives that open a clause besides the operation verbs.
_LEADING_VERBS = frozenset(
    ["find", "use", "focus", "switch", "expand", "forward", "reply", "delete", "mark", "star",
     "solve", "guess", "navigate", "show", "add", "remove", "save", "open", "close", "book", "buy",
     "scroll"]
)
_BOTH_WORDS = frozenset({"both", "twice"})
_EVERY_WORDS = frozenset({"all", "every", "each"})
_EVERY_ACTIONS = 3  # unknown: a few
# what may stand between a clause's verb and its object ("Mark the numbers", "Click on all boxes")
_BEFORE_OBJECT = frozenset({"the", "these", "those", "all", "on"})
_SINGULAR_ENDINGS = ("ss", "us", "is", "ys")  # "address", "status", "this", "always"
# "on all posts by @vel": as many as the page shows -- the engine (``qualifier``) ranks the
# next clause's element first once every one of them is done
_QUALIFIED_EVERY_ACTIONS = 10
_SCROLLED = "scrollable"  # the role of what a "Scroll ..." clause acts on
# Verbs that act on what is already filled, ticked or chosen.
_UNDOING_VERBS = frozenset({"uncheck", "untick", "deselect", "unselect", "clear", "erase",
                            "empty", "reset", "unmark", "unstar"})
# Verbs of a clause that may only say what to work out, not what to act on.
_EXPLORING_VERBS = frozenset(
    {"find", "solve", "navigate", "look", "read", "figure", "copy", "count"})
# ("... an item that starts with "An" and ends with "ica"": one clause, describing the item)
# ("... to the bottom of the text hit submit.": the sending command that ends a task, however
# it is joined to what comes before)
_CLAUSE_SPLIT = re.compile(r",?\s+(?:and\s+)?then\s+|\s+and\s+(?!(?:starts?|ends?|begins?"
                           r"|contains?|has|is|are)\b)|;\s*|\.\s+(?=[A-Z])"
                           r"|\s+(?=(?i:press|hit|click|push|tap)\s+(?:the\s+)?(?i:"
                           + "|".join(SENDING_WORDS) + r")\b[\s.!]*$)")
# "Scroll to the end of the text, enter ...": a comma before a verb, in a clause that opens with
# one ("For the user @kim, click ..." is one clause)
_VERB_AFTER_COMMA = re.compile(
    rf",\s+(?=(?i:{'|'.join(sorted(_OPERATION_VERBS | _LEADING_VERBS))})\b)")
_LEADING_VERB = re.compile(r"^\s*(\w+)\b")
_PLACE = re.compile(r"\b[A-Z][a-z]+, [A-Z]{2}(?= [a-z]|$)")  # "from San Jose, CA to Boston"
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")  # a quoted phrase hidden while the task is split
_NAME_WITH_AND = re.compile(r"\b([A-Z][\w'.-]*) and ([A-Z][\w'.-]*)")
_NAME_AND = "\x02"  # the "and" inside a name ("Bosnia and Herzegovina") while the task is split


def task_clauses(task: str) -> list[str]:
    """The task's action clauses in order; a clause without a verb borrows the previous one's
    ("Enter the username "a" and the password "b"" -> "Enter the username "a"", "Enter the
    password "b""), and a verb with a comma list gives one clause per item ("Select a, b, c")."""
    return [clause for clause, _ in _read_clauses(task)]


def _read_clauses(task: str) -> list[tuple[str, bool]]:
    """``task_clauses``, each with whether it is an item of a comma list."""
    clauses: list[tuple[str, bool]] = []
    verb = ""
    hidden, phrases = _protect_quotes(task)
    hidden = _NAME_WITH_AND.sub(_keep_name, hidden)
    parts = [piece for part in _CLAUSE_SPLIT.split(hidden) for piece in (
        _VERB_AFTER_COMMA.split(part) if _opens_with_verb(part) or _exploratory(part) else [part])]
    for part in (p.strip(" .,") for p in parts):
        if not part:
            continue
        if _opens_with_verb(part):
            verb = _LEADING_VERB.match(part).group(1)
        elif verb:
            part = f"{verb} {part}"
        items = _list_items(part)
        if len(items) > 1 and not any('"' in item for item in items):
            head = _LEADING_VERB.match(items[0])
            lead = head.group(1) if head else ""
            clauses += [(items[0], True)] + [
                (item if _opens_with_verb(item) else f"{lead} {item}", True) for item in items[1:]]
        else:
            clauses.append((part, False))
    return [(_restore_quotes(c, phrases), listed) for c, listed in clauses] or [(task, False)]


def _list_items(part: str) -> list[str]:
    """The items of a comma list ("Select a, b, c"); a place's comma stays ("from San Jose, CA
    to ..."), unless it ends a longer list ("Select x, Wbxdr, MH": two items)."""
    places = _PLACE.findall(part)
    if part.count(", ") > len(places):
        places = [place for place in places if not part.endswith(place)]
    for place in places:
        part = part.replace(place, place.replace(", ", "\x01"))
    return [item.replace("\x01", ", ") for item in part.split(", ")]


def _opens_with_verb(clause: str) -> bool:
    first = _LEADING_VERB.match(clause)
    word = first.group(1).lower() if first else ""
    return word in _OPERATION_VERBS or word in _LEADING_VERBS


def query_for_step(task: str, history: list[str], max_results: int = 20) -> InstructionQuery:
    """The query for the next step: the first clause the history has not done (``_clause_at``:
    a history line shows its value or names its element, else it counts as the next action's),
    the last clause once they run out; in a one-clause task the words an action already served
    weigh less (``_weaken_served``). Which clause is next stays a guess (a datepicker takes three
    actions for one clause, "Find the 7th word" takes none), so in a task of several steps the
    other clauses' naming words are searched too at a lower weight (the next clause's at half,
    the rest at a quarter, never above an ordinary keyword: a quoted name elsewhere weighs as
    much as a word here) and the role the operation needs is a preference (``prefer_role``), not
    a filter. Before any action, a later clause that only sends the form ("press Submit") is
    not searched: its button outranked the first clause's element where that shares no word
    with the task (a shape to drag, a card to pick). Clauses that only say what to work out
    ("Solve the math problem") or select "nothing" take no step of their own while another
    clause can. What the page shows as done (a filled field, a ticked box, the open tab) ranks
    lower (``prefer_pending``) unless the task undoes things ("uncheck", "clear")."""
    read = _read_clauses(task)
    clauses = [clause for clause, _ in read]
    steps = [i for i, (clause, listed) in enumerate(read) if not _exploratory(clause)
             for _ in range(_actions_of(clause, listed))] or [0]
    # each clause read once: what marks it done in the history, and its words for the others
    parts = [query_from_instruction(clause, max_results, single=False)
             for clause in clauses] if len(clauses) > 1 else []
    at, finished = _clause_at(parts, steps, _acts(task, history))
    single = len(clauses) == 1 and not history
    plan = parts[at] if parts else query_from_instruction(clauses[at], max_results, single=single)
    if not _UNDOING_VERBS.intersection(words(task)) and plan.arguments.get(
            "prefer_role") != _SCROLLED:  # filled or ticked: most likely not next (a text area
        # to scroll holds text it did not get typed); a first step that clicks: a field's
        # value is the page's own (the textarea to click), so only ticks count
        plan.arguments["prefer_pending"] = "ticked" if plan.op == "CLICK" and not history \
            else True
    plan.arguments["reveal_hidden"] = True  # a name nowhere on the page: look behind a menu
    asked, said = similar_words(task), set(words(clauses[at]))
    if any(set(words(item)) <= said for item in asked):  # a word of the list: its choice
        plan.arguments["similar"] = list(asked)
    extreme = superlative(task)
    if extreme and extreme.startswith("number:"):  # cards turned one at a time, every clause
        plan.arguments["turned"] = {"extreme": extreme, "seen": turned_numbers(history)}
    if single:
        return plan
    last_op = plan.op  # the operation the task ends with (this clause's, unless one follows)
    weights = plan.arguments.setdefault("keyword_weights", {})
    if len(clauses) == 1:  # one clause of several parts ("from: X to: Y on 10/15/2016")
        _weaken_served(weights, clauses[0], history)
    if "text" in plan.arguments:  # no naming words of its own: search the other clauses' words
        del plan.arguments["text"]
    for index, (clause, other_plan) in enumerate(zip(clauses, parts, strict=False)):
        if index == at:
            continue
        if index == len(clauses) - 1:
            last_op = other_plan.op
        if index > at and not history and _sends(other_plan):  # nothing done yet: not sent
            continue
        share = _CONTEXT_WEIGHT if index == at + 1 else _FAR_CONTEXT_WEIGHT
        other = other_plan.arguments
        for goal in _STEPPED_GOALS if index < at else ():  # not reached yet: still to reach
            if goal in other:
                plan.arguments.setdefault(goal, other[goal])
        # a date typed in another clause names no element here; one picked from a calendar does
        values = set(date_terms(clause)) if other_plan.op == "TYPE" else set()
        for word, weight in other.get("keyword_weights", {}).items():
            if word not in weights and word not in values and (len(word) > 1 or word.isdigit()):
                weights[word] = round(min(weight * share, _KEYWORD_WEIGHT), 3)
    if last_op != "CLICK" or (len(clauses) == 1 and _filled(history)):
        for word in SENDING_WORDS:  # typed or chosen last, or one clause whose parts were
            # filled in ("from: X to: Y on <date>"): a form is still to be sent
            weights.setdefault(word, _FAR_CONTEXT_WEIGHT)
        if finished:  # every clause done: now it is sent
            _to_send(plan.arguments, weights)
    if not weights:
        del plan.arguments["keyword_weights"]
        plan.arguments["text"] = clauses[at]
    return plan


def _filled(history: list[str]) -> bool:
    """Whether a history line typed, chose or dragged something: a form is being filled."""
    return any(found is not None and found["op"] in ("TYPE", "SELECT", "DRAG")
               for found in map(HISTORY_LINE.match, history))


def _to_send(arguments: dict[str, Any], weights: dict[str, float]) -> None:
    """Every clause is done and none sends the form: its sending words lead, the clauses'
    words weigh as a far clause's, and what picked their elements (a role, a position, a
    superlative, a widget's goal, the fields' pairing) no longer applies."""
    for word, weight in weights.items():
        weights[word] = _KEYWORD_WEIGHT if word in SENDING_WORDS else min(
            weight, _FAR_CONTEXT_WEIGHT)
    for key in ("prefer_role", "ordinal", "extreme", "pair_fields", "similar", *_STEPPED_GOALS):
        arguments.pop(key, None)


def _weaken_served(weights: dict[str, float], clause: str, history: list[str]) -> None:
    """Weigh the words of a one-clause task that the history already served -- an element
    clicked by name, an option chosen -- as a far clause's: the parts still to do lead ("Book
    the flight from: X to: Y on <date>": the date once both places are picked). Typing serves
    none: the suggestion that carries the typed words is still to pick. A date's words stay: a
    calendar takes several clicks before its day, until the day itself was picked."""
    served: set[str] = set()
    date = picked_date(clause)
    day = str(int(date[-2:])) if date else None  # as a calendar shows it: "09" -> "9"
    date_done = False
    for line in history:
        found = HISTORY_LINE.match(line)
        if found is not None and found["op"] != "TYPE":
            served.update(words(found["name"]), words(found["value"] or ""))
            date_done = date_done or found["name"].strip() == day  # the day itself picked
    kept = set() if date_done else set(date_terms(clause)) | set(month_terms(clause))
    for word in served.intersection(weights).difference(kept):
        weights[word] = min(weights[word], _FAR_CONTEXT_WEIGHT)


@dataclass(frozen=True, slots=True)
class _ClauseKey:
    """What shows in a history line that a clause was done: its operation, its value (lower
    case) and the words naming its element."""

    op: Op
    value: str
    naming: frozenset[str]


def _clause_key(plan: InstructionQuery) -> _ClauseKey:
    weights = plan.arguments.get("keyword_weights", {})
    naming = frozenset(word for word, weight in weights.items() if weight >= _KEYWORD_WEIGHT)
    return _ClauseKey(plan.op, plan.value.strip().lower(), naming)


def _clause_at(parts: list[InstructionQuery], steps: list[int],
               history: list[str]) -> tuple[int, bool]:
    """The clause the next step serves, and whether every clause was done: each past action
    takes the slot (``steps``: one per action a clause likely takes) of the clause its history
    line visibly did -- its value typed, its element's naming words -- else the next free slot,
    as counting actions would; the first slot left is the step's (the last clause's when none is
    left). A skipped item ("Select a, b, c", b never ticked) or a step done out of order is
    still planned, where counting alone would move past it."""
    keys = [_clause_key(part) for part in parts] if len(set(steps)) > 1 else []
    free = list(steps)
    for line in history:
        served = _served_clause(line, keys, free)
        if served is None and len(free) > 1:
            free.pop(0)
        elif served in free:  # (a clause done again, a box ticked twice: no slot of another)
            free.remove(served)
    return (free[0], False) if free else (steps[-1], True)


def _acts(task: str, history: list[str]) -> list[str]:
    """The history lines that can do a clause: a scroll only shows more of the page, unless
    the task asks to scroll ("Scroll the text area to the bottom")."""
    if "scroll" in words(task):
        return history
    return [line for line in history
            if (found := HISTORY_LINE.match(line)) is None or found["op"] != "SCROLL"]


def _served_clause(line: str, keys: list[_ClauseKey], free: list[int]) -> int | None:
    """The clause whose value a history line typed or chose, or whose naming words all name the
    line's element, with the same kind of operation; of several, the first with a free slot."""
    found = HISTORY_LINE.match(line) if keys else None
    if found is None:
        return None
    op, value = found["op"], (found["value"] or "").strip().lower()
    said = set(words(found["name"]))
    kinds = {"TYPE": ("TYPE",), "SELECT": ("SELECT",)}.get(op, ("CLICK", "SELECT"))
    fits = [index for index, key in enumerate(keys) if key.op in kinds and (
        (value and value == key.value) or (key.naming and key.naming <= said))]
    return next((index for index in fits if index in free), fits[0] if fits else None)


def _sends(plan: InstructionQuery) -> bool:
    """A clause that only sends the form ("press Submit", "click search")."""
    named = set(plan.arguments.get("keyword_weights", {}))
    return plan.op == "CLICK" and bool(named) and named <= set(SENDING_WORDS)


def _actions_of(clause: str, listed: bool) -> int:
    """How many actions a clause likely takes: none for "nothing" ("Select nothing"), two for
    "both" ("into both text fields"), a few for "all"/"every"/"each" and for a date picked from
    a calendar (open it, page to the month, pick the day) and for a plural object ("Mark the
    numbers below as odd or even": one action each; an item of a comma list -- ``listed`` --
    is one action, "Select words similar to a, b" names as many as it takes), as many as it
    takes for "all" with a qualifier ("on all posts by @vel"), else one."""
    said = set(words(clause))
    if "nothing" in said:
        return 0
    if _qualifier(clause):
        return _QUALIFIED_EVERY_ACTIONS
    if said & _EVERY_WORDS or (_plural_object(clause) and not listed) or (
            month_terms(clause) and _operation(words(clause)) != "TYPE"):
        return _EVERY_ACTIONS
    return 2 if said & _BOTH_WORDS else 1


def _plural_object(clause: str) -> bool:
    """Whether the clause's object -- the word after its verb, past "the", "all", "on" -- is a
    plural common noun ("Mark the numbers below", not "Press Submit", "Enter the address")."""
    rest = clause.split()[1:]
    while rest and rest[0].lower() in _BEFORE_OBJECT:
        rest = rest[1:]
    word = rest[0] if rest else ""
    return (len(word) > 3 and word.isalpha() and word.islower() and word.endswith("s")
            and not word.endswith(_SINGULAR_ENDINGS))


def _qualifier(text: str) -> str | None:
    """The name that says which of "all" the text means ("@vel" in "on all posts by @vel"),
    None without "all"/"every"/"each" or without such a name."""
    found = _QUALIFIER.search(text) if _EVERY_WORDS.intersection(words(text)) else None
    return found.group(1) if found else None


def _exploratory(clause: str) -> bool:
    """A clause that only says what to work out ("Solve the math problem", "Find the 7th word
    in the paragraph", "Copy the text in the textarea", whose pasting is the step): an exploring
    verb and no name (nothing quoted, no capitalised word after the first) -- "Find the email
    by Kim" is a step."""
    found = _LEADING_VERB.match(clause)
    if found is None or found.group(1).lower() not in _EXPLORING_VERBS or _QUOTED.search(clause):
        return False
    return not any(word[:1].isupper() for word in clause.split()[1:])


def _protect_quotes(text: str) -> tuple[str, list[str]]:
    """``text`` with the inside of each quoted phrase replaced by a numbered placeholder, so no
    separator inside quotes splits the task ("a, b", "x and y", "Leo. Tempus"), and the phrases."""
    phrases: list[str] = []

    def hide(match: re.Match[str]) -> str:
        whole = match.group(0)
        phrases.append(whole[1:-1])
        return f"{whole[0]}\x00{len(phrases) - 1}\x00{whole[-1]}"

    return _QUOTED.sub(hide, text), phrases


def _restore_quotes(text: str, phrases: list[str]) -> str:
    return _PLACEHOLDER.sub(lambda m: phrases[int(m.group(1))], text).replace(_NAME_AND, " and ")


def _keep_name(match: re.Match[str]) -> str:
    """"Trinidad and Tobago" is one name, not two clauses: capitalised words on both sides of
    the "and", the second no verb ("Select Kim and Press Submit" still splits)."""
    first, second = match.group(1), match.group(2)
    if second.lower() in _OPERATION_VERBS or second.lower() in _LEADING_VERBS:
        return match.group(0)
    return f"{first}{_NAME_AND}{second}"
