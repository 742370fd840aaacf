"""Selecting a passage of a live page's text with the mouse: where to press and where to let go.

``LiveActions.select_text`` runs ``LOCATE_JS`` on the document: it finds the first visible
occurrence of the passage among the document's text nodes in document order, matched as
``pipeline.query.passage`` matches it on a recorded page (whitespace does not count, case does),
scrolls it into view when it is not, and returns the points just inside the left edge of its
first character and the right edge of its last (``Range.getClientRects`` of one-character
ranges), with the element holding it. The action then drags the real mouse between them and
reads ``window.getSelection()`` back; ``outcome_problem`` and ``selected_message`` word what
the model reads.
"""

from __future__ import annotations

from typing import Any

from pipeline.query.passage import squeezed
from pipeline.render.elements import trim_text

QUOTE_CHARS = 60  # a passage quoted in a message is cut here

# this: the document. Returns {status, start, end, holder, what, nearest, cover}; status "ok",
# "missing" (nearest: the shown line sharing most words), "hidden" or "covered" (cover: what lies
# on top). On "ok" the selection is emptied, so the press does not land inside an old one (which
# would drag the selected text instead of selecting anew).
LOCATE_JS = """function (wanted) {
  const doc = this, win = doc.defaultView;
  const key = wanted.replace(/\\s+/g, '');
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'TITLE']);
  const walker = doc.createTreeWalker(doc.body || doc.documentElement, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => n.parentElement && !skip.has(n.parentElement.tagName)
      ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT});
  const pieces = [];  // {node, start}: where each text node's non-space characters begin
  let text = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const squeezed = n.data.replace(/\\s+/g, '');
    if (squeezed) { pieces.push({node: n, start: text.length}); text += squeezed; }
  }
  const charAt = (index) => {  // (text node, offset in its data) of a squeezed index
    let lo = 0, hi = pieces.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (pieces[mid].start <= index) lo = mid; else hi = mid - 1; }
    const {node, start} = pieces[lo];
    let seen = -1, offset = 0;
    for (; offset < node.data.length; offset++) {
      if (!/\\s/.test(node.data[offset]) && ++seen === index - start) break;
    }
    const code = node.data.charCodeAt(offset);
    if (code >= 0xDC00 && code <= 0xDFFF && offset > 0) offset -= 1;  // a pair's second half
    return {node, offset};
  };
  const rectOf = ({node, offset}) => {
    const range = doc.createRange();
    const code = node.data.charCodeAt(offset);
    range.setStart(node, offset);
    range.setEnd(node, Math.min(node.data.length, offset + (code >= 0xD800 && code <= 0xDBFF ? 2 : 1)));
    return Array.from(range.getClientRects()).find((r) => r.width > 0 && r.height > 0) || null;
  };
  const shown = (at) => at.node.parentElement.checkVisibility({checkOpacity: true,
    checkVisibilityCSS: true}) && rectOf(at) !== null;
  const inView = (r) => r.top >= 0 && r.left >= 0 && r.bottom <= win.innerHeight &&
    r.right <= win.innerWidth;
  const describe = (el) => {
    const words = (el.innerText || '').trim().replace(/\\s+/g, ' ');
    const text = words.length > 40 ? words.slice(0, 40).trim() + '…' : words;
    return `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}>${text}`;
  };
  let first = null, last = null, found = false;
  for (let at = key ? text.indexOf(key) : -1; at >= 0; at = text.indexOf(key, at + 1)) {
    found = true;
    const a = charAt(at), b = charAt(at + key.length - 1);
    if (shown(a) && shown(b)) { first = a; last = b; break; }
  }
  if (!first) {
    if (found) return {status: 'hidden'};
    const wantedWords = new Set(wanted.toLowerCase().match(/\\w+/g) || []);
    let nearest = '', best = 0;
    for (const line of (doc.body ? doc.body.innerText : '').split('\\n')) {
      const shared = new Set((line.toLowerCase().match(/\\w+/g) || []).filter((w) => wantedWords.has(w))).size;
      if (shared > best) { best = shared; nearest = line.trim(); }
    }
    return {status: 'missing', nearest};
  }
  const whole = doc.createRange();
  whole.setStart(first.node, first.offset);
  whole.setEnd(last.node, last.offset + 1);
  if (!inView(rectOf(first)) || !inView(rectOf(last))) {
    first.node.parentElement.scrollIntoView({block: 'center', inline: 'nearest'});
    const box = whole.getBoundingClientRect();
    if (!inView(box)) win.scrollBy(0, box.top + box.height / 2 - win.innerHeight / 2);
  }
  const r1 = rectOf(first), r2 = rectOf(last);
  if (!r1 || !r2 || !inView(r1) || !inView(r2)) return {status: 'hidden', tall: true};
  const start = [r1.left + r1.width / 4, r1.top + r1.height / 2];
  const end = [r2.right - r2.width / 4, r2.top + r2.height / 2];
  for (const [[x, y], at] of [[start, first], [end, last]]) {
    const hit = doc.elementFromPoint(x, y);
    if (hit && !hit.contains(at.node)) return {status: 'covered', cover: describe(hit)};
  }
  let holder = first.node.parentElement;
  while (!holder.contains(last.node)) holder = holder.parentElement;
  win.getSelection().removeAllRanges();
  return {status: 'ok', start, end, holder, what: describe(holder)};
}"""
# The located passage's facts by value, and its holding element as an object.
FACTS_JS = "function () { const {holder, ...facts} = this; return facts; }"
HOLDER_JS = "function () { return this.holder; }"
SELECTION_JS = "window.getSelection().toString()"


def outcome_problem(facts: dict[str, Any], text: str) -> tuple[str, str] | None:
    """(message, error) for a passage the mouse cannot select, or None when it can."""
    shown, status = quote(text), facts["status"]
    if status == "missing" and facts.get("nearest"):
        message = (f"the page shows no text {shown}; the closest text it shows is "
                   f"{quote(facts['nearest'])}. Quote the passage word for word")
    elif status == "missing":
        message = (f"the page shows no text {shown}; read the page's text and quote a passage "
                   "word for word")
    elif status == "hidden" and facts.get("tall"):
        message = f"the passage {shown} does not fit in the window; select a shorter part of it"
    elif status == "hidden":
        message = (f"the text {shown} is on the page but not visible now; it may sit in a "
                   "closed menu or tab, open that first")
    elif status == "covered":
        message = f"the text {shown} is covered by {facts['cover']}; close or answer that first"
    else:
        return None
    return message, {"missing": "no_text"}.get(status, status)


def selected_problem(selected: str, text: str) -> str | None:
    """Why the drag's selection is not the passage (None: it is, whitespace aside)."""
    if squeezed(selected) == squeezed(text):
        return None
    got = quote(" ".join(selected.split())) if selected.strip() else "nothing"
    return (f"dragging across {quote(text)} selected {got} instead; the text may not be "
            "selectable there")


def selected_message(text: str, what: str) -> str:
    return f"selected {quote(text)} in {what}"


def quote(text: str) -> str:
    return '"' + trim_text(" ".join(text.split()), QUOTE_CHARS) + '"'
