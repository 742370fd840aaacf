"""Rewordings of the MiniWoB++ utterance shapes: each shape with the same instruction said
other ways, its fields (``{x}``) carried over unchanged.

    reword('Click on the "Ok" button.')  # ['Click the "Ok" button.', 'Press the "Ok" button.', ...]
    reword("Drag Gerda to the 3rd position.")  # ['Move Gerda to the 3rd position.'] (PHRASES)

A shape is matched against the whole utterance, a phrase (``PHRASES``) anywhere outside quotes.
The first shape that matches is used, so the specific shapes come before the general ones
(``Select {x} from the list ...`` before ``Select {x} and click Submit.``). The words of the
shapes, the phrases and their rewordings are the instruction vocabulary (``VOCABULARY``): every other word of a task text is a value
(``datagen.paraphrase.values``).
"""

from __future__ import annotations

import re
from functools import cache

SHAPES: dict[str, tuple[str, ...]] = {
    'Click on the "{x}" button.': (
        'Click the "{x}" button.', 'Press the "{x}" button.', 'Click the button labeled "{x}".',
        'Find the "{x}" button and click it.'),
    'Click on the link "{x}".': (
        'Click the link "{x}".', 'Follow the link "{x}".', 'Click the "{x}" link.'),
    'Click on a "{x}" widget.': (
        'Click a "{x}" widget.', 'Find a "{x}" widget and click it.'),
    "Click on Tab #{n}.": ("Click Tab #{n}.", "Open Tab #{n}.", "Switch to Tab #{n}."),
    "Click button {a}, then click button {b}.": (
        "Click button {a} and then button {b}.", "First click button {a}, then button {b}.",
        "Press button {a}, then press button {b}."),
    "Click button {a}.": ("Press button {a}.", "Click the button {a}."),
    'Click the button in the dialog box labeled "{x}".': (
        'In the dialog box, click the button labeled "{x}".',
        'Click the "{x}" button of the dialog box.'),
    'Enter "{x}" into the text field and press Submit.': (
        'Type "{x}" into the text field and press Submit.',
        'Enter "{x}" in the text field, then press Submit.',
        'Fill the text field with "{x}" and click Submit.'),
    'Enter the password "{x}" into both text fields and press submit.': (
        'Type the password "{x}" into both text fields and press submit.',
        'Enter the password "{x}" in both text fields, then press submit.',
        'Fill both text fields with the password "{x}" and click submit.'),
    'Enter the username "{u}" and the password "{p}" into the text fields and press login.': (
        'Type the username "{u}" and the password "{p}" into the text fields and press login.',
        'Fill in the username "{u}" and the password "{p}", then press login.',
        'Enter "{u}" as the username and "{p}" as the password, then press login.'),
    "Enter {x} as the {what} and {hit} submit.": (
        "Type {x} as the {what} and {hit} submit.", "Enter {x} as the {what}, then click submit.",
        "Set the {what} to {x} and {hit} submit."),
    "Select {x} as the date and hit submit.": (
        "Choose {x} as the date and hit submit.", "Pick {x} as the date, then click submit.",
        "Set the date to {x} and hit submit."),
    "Select {x} from the list and click Submit.": (
        "Choose {x} from the list and click Submit.", "Pick {x} in the list, then click Submit.",
        "From the list, select {x} and press Submit."),
    "Select {x} with the spinner and hit Submit.": (
        "Set the spinner to {x} and hit Submit.",
        "With the spinner, select {x}, then click Submit."),
    "Select {x} and click Submit.": (
        "Choose {x} and click Submit.", "Select {x}, then click Submit.",
        "Pick {x} and press Submit."),
    "Find the email by {x} and {rest}": (
        "Locate the email by {x} and {rest}", "Look for the email by {x} and {rest}",
        "Open the email by {x} and {rest}"),
    'For the user {u}, click on the "{b}" button.': (
        'For the user {u}, click the "{b}" button.', 'Click the "{b}" button for the user {u}.',
        'Find the user {u} and click their "{b}" button.'),
    'Navigate through the file tree. Find and click on the folder or file named "{x}".': (
        'Browse the file tree. Find and click the folder or file named "{x}".',
        'Look through the file tree and click on the folder or file named "{x}".'),
    '{lead} to find and click on the link "{x}".': (
        '{lead} to find the link "{x}" and click it.',
        '{lead} until you find the link "{x}", then click it.'),
    'Type "{x}" in all {case} case letters in the text input and press Submit.': (
        'Enter "{x}" in all {case} case letters in the text input and press Submit.',
        'Type "{x}" in {case} case into the text input, then press Submit.'),
    "Focus into the {n} input textbox.": (
        "Click into the {n} input textbox.", "Put the focus on the {n} input textbox."),
    'Use the textbox to enter "{x}" and press "Search", then find and click the {n} search '
    "result.": (
        'Enter "{x}" in the textbox and press "Search", then click the {n} search result.',
        'Type "{x}" into the textbox, press "Search" and click the {n} search result.'),
    'Find the {n} word in the paragraph, type that into the textbox and press "Submit".': (
        'Type the {n} word of the paragraph into the textbox and press "Submit".',
        'Find the {n} word in the paragraph, enter it in the textbox and press "Submit".'),
    "Enter the value of {x} into the text field and press Submit.": (
        "Type the value of {x} into the text field and press Submit.",
        "Find the value of {x}, enter it in the text field and press Submit."),
    'Enter an item that starts with "{a}" and ends with "{b}".': (
        'Type an item that starts with "{a}" and ends with "{b}".',
        'Enter an item beginning with "{a}" and ending with "{b}".'),
    "Search for {x} movies directed by {d} from year {y}.": (
        "Look for {x} movies directed by {d} from year {y}.",
        "Find {x} movies directed by {d} from year {y}."),
    "Type the text below into the text field and press Submit.": (
        "Enter the text below into the text field and press Submit.",
        "Copy the text below into the text field, then press Submit."),
    'Check the {a} radio button and enter the number "{x}" into the {b} textbox.': (
        'Select the {a} radio button and type the number "{x}" into the {b} textbox.',
        'Check the {a} radio button, then enter the number "{x}" in the {b} textbox.'),
    "Solve the math problem and type your answer into the textbox. Press submit when done.": (
        "Solve the math problem and enter your answer in the textbox. Press submit when done.",
        "Type the answer to the math problem into the textbox, then press submit."),
}

# phrases of any utterance (outside quotes), each said another way: a candidate per swap, for
# the shapes above and for utterances no shape fits
PHRASES: dict[str, tuple[str, ...]] = {
    "Click on the ": ("Click the ",),
    " click on the ": (" click the ",),
    "Click the ": ("Press the ",),
    " and hit submit": (", then press submit", " and press submit"),
    " hit submit": (" then press submit",),
    " and hit Submit": (", then press Submit", " and click Submit"),
    " and press Submit": (", then press Submit", " and click Submit"),
    " and click Submit": (", then click Submit", " and press Submit"),
    "Drag ": ("Move ",),
    "Expand ": ("Open ",),
    "Use the ": ("Employ the ",),
    " to the bottom ": (" down to the bottom ",),
    " to the top ": (" up to the top ",),
    "Select ": ("Choose ", "Pick "),
}

_FIELD = re.compile(r"\{(\w+)\}")
_QUOTED = re.compile(r'"[^"]*"')
# words a rewording may add or drop besides those of the shapes (articles and connectives)
_FUNCTION_WORDS = "a an the and then it its to of in on into with for by from or as all when"


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]:
    out = []
    for shape, rewordings in SHAPES.items():
        parts = _FIELD.split(shape)  # literal, field, literal, field, ...
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                        for i, p in enumerate(parts))
        out.append((re.compile(regex + r"\Z"), rewordings))
    return tuple(out)


def reword(text: str) -> list[str]:
    """The rewordings of ``text``'s shape with its fields filled in, then ``text`` with each
    phrase of ``PHRASES`` it holds (outside quotes) swapped for each of its alternatives."""
    out = []
    for pattern, rewordings in _compiled():
        match = pattern.match(text.strip())
        if match:
            out += [r.format(**match.groupdict()) for r in rewordings]
            break
    unquoted = _QUOTED.sub(lambda m: "\0" * len(m.group()), text)
    for phrase, alternatives in PHRASES.items():
        at = unquoted.find(phrase)
        if at >= 0:
            out += [text[:at] + alt + text[at + len(phrase):] for alt in alternatives]
    return out


def _vocabulary() -> frozenset[str]:
    words = set(_FUNCTION_WORDS.split())
    for shape, rewordings in [*SHAPES.items(), *PHRASES.items()]:
        for text in (shape, *rewordings):
            literal = _FIELD.sub(" ", re.sub(r'"\{\w+\}"', " ", text))
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", literal))
    return frozenset(words)


VOCABULARY = _vocabulary()
