"""The page-side functions ``LiveActions`` runs on an element (``Runtime.callFunctionOn``, with
the element as ``this``): the checks a person makes before acting and the value setters."""

# Facts about the element the checks need, computed in its own frame.
STATE_JS = """function () {
  const el = this;
  const style = el.ownerDocument.defaultView.getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  const visible = el.isConnected && rect.width > 0 && rect.height > 0 &&
    (el.checkVisibility ? el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})
                        : style.visibility !== 'hidden');
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') || '').toLowerCase();
  const disabled = (el.matches && el.matches(':disabled')) ||
    el.getAttribute('aria-disabled') === 'true';
  const editable = el.isContentEditable || tag === 'textarea' ||
    (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file',
                          'hidden', 'range', 'color'].includes(type));
  return {connected: el.isConnected, visible, disabled, editable, tag, type,
          readonly: !!el.readOnly};
}"""
SCROLL_JS = "function () { this.scrollIntoView({block: 'center', inline: 'center'}); }"
CONTAINS_JS = """function (other) {
  for (let n = other; n; n = n.parentNode || n.host) { if (n === this) return true; }
  return false;
}"""
DESCRIBE_JS = """function () {
  const el = this, tag = el.tagName.toLowerCase();
  const id = el.id ? '#' + el.id : '';
  const text = (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40).trim();
  return `<${tag}${id}>${text}`;
}"""
# Whether the keyboard focus sits in an editable field the page hides (opacity 0, no size),
# inside this element or beside it: a terminal or code editor that draws its own text reads the
# keys through such a field, which its click focuses.
HIDDEN_FOCUS_JS = """function () {
  const field = this.ownerDocument.activeElement;
  if (!field || field === this || !this.parentElement || !this.parentElement.contains(field))
    return false;
  const tag = field.tagName.toLowerCase();
  const editable = field.isContentEditable || tag === 'textarea' || (tag === 'input' &&
    ['', 'text', 'search'].includes((field.getAttribute('type') || '').toLowerCase()));
  const rect = field.getBoundingClientRect();
  const shown = rect.width > 1 && rect.height > 1 &&
    field.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  return editable && !field.readOnly && !shown;
}"""
# Set a value the way a user's input would end (for inputs the keyboard cannot fill: date...).
# A colour input takes #rrggbb only: any opaque CSS colour ("red", "rgb(255,0,0)") is read by a
# canvas. A value the field would drop or replace (sanitised to empty, not a colour, a slider's
# non-number that would become its middle) is not set: null, and the field keeps what it held.
SET_VALUE_JS = """function (value) {
  this.focus();
  if (this.type === 'range' && value !== '' && isNaN(Number(value))) return null;
  if (this.type === 'color') {
    if (!CSS.supports('color', value)) return null;
    const paint = document.createElement('canvas').getContext('2d');
    paint.fillStyle = value;
    if (!paint.fillStyle.startsWith('#')) return null;  // translucent: no #rrggbb for it
    value = paint.fillStyle;
  }
  const proto = Object.getPrototypeOf(this);
  const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
  const before = this.value;
  setter.call(this, value);
  if (value !== '' && this.value === '') {
    setter.call(this, before);
    return null;
  }
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return this.value;
}"""
SELECT_JS = """function (wanted) {
  const norm = s => (s || '').trim().replace(/\\s+/g, ' ').toLowerCase();
  const options = Array.from(this.options || []);
  let match = options.find(o => o.text.trim() === wanted || o.value === wanted);
  if (!match) match = options.find(o => norm(o.text) === norm(wanted) || norm(o.value) === norm(wanted));
  if (!match) return {ok: false, options: options.slice(0, 30).map(o => o.text.trim())};
  if (!this.multiple) this.value = match.value;
  match.selected = true;  // a multiple select keeps the options chosen before
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {ok: true, text: match.text.trim()};
}"""
# Scroll the element's nearest scrollable box (itself or an ancestor; the page when ``this`` is
# the document) by most of its visible size; report where it was and where it is now.
SCROLL_BY_JS = """function (direction, toEnd) {
  const doc = this.ownerDocument || this;
  const page = doc.scrollingElement || doc.documentElement;
  const vertical = direction === 'up' || direction === 'down';
  const canScroll = (e) => {
    if (e === page) return true;
    const overflow = getComputedStyle(e)[vertical ? 'overflowY' : 'overflowX'];
    const room = vertical ? e.scrollHeight - e.clientHeight : e.scrollWidth - e.clientWidth;
    return room > 1 && /(auto|scroll|overlay)/.test(overflow);
  };
  let box = this.nodeType === 9 ? page : this;
  while (box !== page && !canScroll(box)) box = box.parentElement || page;
  const size = vertical ? box.clientHeight || innerHeight : box.clientWidth || innerWidth;
  const whole = vertical ? box.scrollHeight : box.scrollWidth;
  const step = (toEnd ? whole : Math.max(40, Math.round(size * 0.8))) *
    (direction === 'up' || direction === 'left' ? -1 : 1);
  const before = vertical ? box.scrollTop : box.scrollLeft;
  box.scrollBy({top: vertical ? step : 0, left: vertical ? 0 : step, behavior: 'instant'});
  const after = vertical ? box.scrollTop : box.scrollLeft;
  const end = vertical ? box.scrollHeight - box.clientHeight : box.scrollWidth - box.clientWidth;
  return {page: box === page, before: Math.round(before), after: Math.round(after),
          end: Math.max(0, Math.round(end))};
}"""
