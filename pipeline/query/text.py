"""Words for matching: regex tokenisation, identifier splitting, stop-words and Porter stems.

    terms("Add to Cart")        -> ("add", "cart")           stems, stop-words dropped
    terms("signInButton")       -> ("sign", "button")        camelCase split ("in" is a stop-word)
    terms("rowItem3 V8WJY")     -> ("row", "item", "3", "v8wjy")  an index split off, a code whole
    joined("Sign in")           -> ("signin",)               glued pairs: "signin" ~ "Sign in"
    terms("posts by @at")       -> ("post", "at")            a handle is a name, never a stop-word

No NLTK data is downloaded: words come from a regex, stems from ``nltk.stem.PorterStemmer``
(cached per word, so a page's vocabulary is stemmed once per process).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from nltk.stem import PorterStemmer

# The commands that send a form (a task that ends by typing or choosing without naming one).
SENDING_WORDS = ("submit", "send", "search", "go", "ok")
# a history line as Mind2Web writes it: "[textbox]  Username -> TYPE: kenda", "[div]  0 -> CLICK"
HISTORY_LINE = re.compile(r"^\[[^\]]*\]\s+(?P<name>.*?) -> (?P<op>[A-Z_]+)(?:: (?P<value>.*))?$",
                          re.DOTALL)
_BARE_NUMBER = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s*")


def bare_number(text: str) -> float | None:
    """The number a text is, and nothing else ("12", " -3.5 "), or None."""
    found = _BARE_NUMBER.fullmatch(text)
    return float(found.group(1)) if found else None


def whole_number(text: str) -> int | None:
    """The whole number a text is, and nothing else ("-5"), or None ("3.5", "5 cats")."""
    number = bare_number(text)
    return int(number) if number is not None and number.is_integer() else None


def sends_form(label: str) -> bool:
    """Whether an element's label is a command that sends the form ("Submit")."""
    return bool(set(words(label)) & set(SENDING_WORDS))


STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "so",
        "that",
        "the",
        "their",
        "this",
        "to",
        "us",
        "was",
        "we",
        "were",
        "will",
        "with",
        "you",
        "your",
    ]
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
# a run of letters and digits between separators (a number keeps its decimal point)
_RUN = re.compile(r"\d+(?:[.,]\d+)+|[^\W_]+")
# a camelCase identifier with an index ("signInButton2", "rowItem3"): its words and its number are
# words of their own; any other mix of letters and digits is a code ("V8WJY", "Rj4R4sY", "ky7",
# "ch4", "12px"), kept whole so that its digits match no "4" elsewhere on the page
_INDEXED = re.compile(r"[a-z]+(?:[A-Z][a-z]+)+\d+")
# "3rd", "21st": the number, as "the 3rd input" and "input 3" say the same position
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)", re.IGNORECASE)
# an id or class with an index ("tt3", "ch4", "item12"): its word and its number, for attributes
_WORD_INDEX = re.compile(r"([^\W\d_]+)(\d+)")
_HANDLE = re.compile(r"(?<!\w)@(\w+)")
_STEMMER = PorterStemmer()


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """Porter stem of a lower-case word (numbers and codes pass through)."""
    return word if any(c.isdigit() for c in word) else _STEMMER.stem(word)


def words(text: str) -> list[str]:
    """Lower-case words, numbers and codes; camelCase, snake_case and kebab-case split apart,
    a code of letters and digits kept whole."""
    found = []
    for run in _RUN.findall(text):
        if ordinal := _ORDINAL.fullmatch(run):
            found.append(ordinal[1])
        elif is_code(run) and not _INDEXED.fullmatch(run):
            found.append(run)
        else:
            found += _WORD.findall(_CAMEL.sub(" ", run))
    return [w.lower() for w in found]


def handles(text: str) -> frozenset[str]:
    """The lower-case names written as handles ("@at"): names, even when a stop-word's letters."""
    return frozenset(h.lower() for h in _HANDLE.findall(text)) if "@" in text else frozenset()


def is_code(word: str) -> bool:
    """Letters and digits mixed in one word: "V8WJY", "ky7", "2nd" (not "87.19", not "cart")."""
    return not word.isalpha() and any(c.isalpha() for c in word)


@lru_cache(maxsize=1 << 16)
def analyse(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``(terms(text), joined(text))`` in one pass, cached: pages repeat their texts a lot."""
    raw = words(text)
    kept = [w for w in raw if w not in STOP_WORDS or w in handles(text)] or raw
    alpha = [w for w in raw if not w[0].isdigit()]
    return tuple(stem(w) for w in kept), tuple(a + b for a, b in pairwise(alpha))


def index_parts(text: str) -> tuple[str, ...]:
    """The word and the number of each code that is a word with an index (an attribute's "tt3":
    "tt", "3"), so that "the 3rd input" reaches ``id=tt3`` while the code stays one word."""
    return tuple(part for word in words(text) if (found := _WORD_INDEX.fullmatch(word))
                 for part in (stem(found[1]), found[2]))


def terms(text: str) -> tuple[str, ...]:
    """Stems of the content words; all words' stems when the text holds only stop-words."""
    return analyse(text)[0]


def joined(text: str) -> tuple[str, ...]:
    """Adjacent words glued together, unstemmed (``sign in`` -> ``signin``), so that a spaced
    phrase and a one-word identifier meet in the same token."""
    return analyse(text)[1]


def compact(text: str) -> str:
    """Letters and digits only, lower-case: ``"Sign in"`` -> ``"signin"``."""
    return "".join(words(text))
