"""render_flat on hand-built pages: golden output, markers, new-element marks."""

from render_helpers import build_page, el, lines, tx

from pipeline.render import RenderOptions, render_flat
from pipeline.render.elements import format_attrs, trim_text


def shop_page(**kwargs):
    return build_page(
        el("nav", el("a", tx("Home"), attrs={"href": "/"}, ref=True),
           el("a", tx("Deals"), attrs={"href": "/deals"}, ref=True),
           attrs={"aria-label": "Primary"}),
        el("main",
           el("h1", tx("Kettles")),
           el("div", el("div",
                        el("a", el("div", tx("Red kettle"), el("span", tx("$29"))),
                           el("button", tx("Add to cart"), ref=True),
                           attrs={"href": "/p/1"}, ref=True))),
           el("p", tx("Free shipping on orders over"), el("b", tx("$50")), tx(".")),
           el("select", el("option", tx("Price")), el("option", tx("Name")),
              attrs={"name": "sort", "selected": "Price", "options": "2: Price|Name"}, ref=True),
           el("input", attrs={"type": "text", "placeholder": "Search", "required": ""}, ref=True),
           el("nav", el("a", tx("1"), attrs={"href": "?page=1"}, ref=True),
              el("a", tx("2"), attrs={"href": "?page=2"}, ref=True))),
        **kwargs,
    )


def test_flat_golden():
    assert render_flat(shop_page()) == lines(
        "[1]<a href=/>Home</a>",
        "[2]<a href=/deals>Deals</a>",
        "Kettles",
        "[3]<a href=/p/1>Red kettle $29</a>",
        "\t[4]<button>Add to cart</button>",
        "Free shipping on orders over $50.",
        "[5]<select name=sort selected=Price options=\"2: Price|Name\" />",
        "[6]<input type=text placeholder=Search required />",
        "[7]<a href=\"?page=1\">1</a>",
        "[8]<a href=\"?page=2\">2</a>",
    )


def test_scroll_and_shadow_and_iframe_markers():
    page = build_page(
        el("div", el("ul", el("li", el("a", tx("Item"), attrs={"href": "#i"}, ref=True))),
           box=(0, 0, 300, 200), scroll=(0, 200, 300, 1000)),
        el("div", el("button", tx("More"), ref=True), attrs={"role": "listbox"},
           box=(0, 300, 300, 100), scroll=(0, 0, 300, 100), ref=True),
        el("x-search", el("#shadow-root", el("input", attrs={"type": "search"}, ref=True),
                          attrs={"mode": "open"})),
        el("iframe", el("#document", el("button", tx("Pay"), ref=True),
                        frame_url="https://t.test/pay")),
    )
    assert render_flat(page) == lines(
        "|SCROLL|<div /> (1.0 pages above, 3.0 pages below)",
        "\t[1]<a href=#i>Item</a>",
        "|SCROLL+[2]|<div role=listbox />",
        "\t[3]<button>More</button>",
        "▼ shadow-root (open)",
        "\t[4]<input type=search />",
        "▼ iframe https://t.test/pay",
        "\t[5]<button>Pay</button>",
    )


def test_new_elements_marked_by_backend_id():
    before = build_page(el("button", tx("A"), ref=True, backend=11),
                        el("button", tx("B"), ref=True, backend=12))
    after = build_page(el("button", tx("A"), ref=True, backend=11),
                       el("button", tx("C"), ref=True, backend=13),
                       el("button", tx("B"), ref=True, backend=12))
    assert render_flat(after, previous=before) == (
        "[1]<button>A</button>\n*[2]<button>C</button>\n[3]<button>B</button>"
    )
    assert "*" not in render_flat(after)  # no previous step: nothing is new


def test_new_elements_marked_by_xpath_and_text_without_backend_ids():
    before = build_page(el("div", el("button", tx("Next"), ref=True)), backend_ids=False)
    same = build_page(el("div", el("button", tx("Next"), ref=True)), backend_ids=False)
    relabelled = build_page(el("div", el("button", tx("Done"), ref=True)), backend_ids=False)
    assert render_flat(same, previous=before) == "[1]<button>Next</button>"
    assert render_flat(relabelled, previous=before) == "*[1]<button>Done</button>"


def test_long_element_text_is_capped():
    page = build_page(el("a", tx("word " * 60), attrs={"href": "/x"}, ref=True))
    line = render_flat(page, RenderOptions(element_text=40))
    assert line.startswith("[1]<a href=/x>word word") and line.endswith("…</a>")
    assert len(line) < 70


def test_attribute_quoting():
    assert format_attrs({"type": "text", "aria-label": "Close dialog", "disabled": ""}) == (
        'type=text aria-label="Close dialog" disabled'
    )
    assert format_attrs({"title": 'say "hi"'}) == "title='say \"hi\"'"
    assert format_attrs({"title": "it's \"x\""}) == 'title="it\'s &quot;x&quot;"'


def test_trim_text_prefers_first_sentence():
    text = "Boils a litre in two minutes. Made of steel, with a soft handle and a lid that stays shut."
    assert trim_text(text, 80) == "Boils a litre in two minutes. …"
    assert trim_text("short", 80) == "short"
    assert trim_text("a" * 100, 20) == "a" * 19 + "…"


def test_a_terminal_shows_the_end_of_its_text_its_latest_command_and_output():
    said = ("Welcome! Type help for a list of available commands. Last login: Mon Dec 07 2026 "
            "user$ ls index.rb media.html window user$")
    terminal = build_page(el("div", tx(said), attrs={"id": "terminal"}, ref=True))
    line = render_flat(terminal, RenderOptions(element_text=60))
    shown = "… Mon Dec 07 2026 user$ ls index.rb media.html window user$"  # 59 characters
    assert line == f"[1]<div id=terminal>{shown}</div>"
    log = build_page(el("div", tx(said), attrs={"id": "log"}, ref=True))
    assert render_flat(log, RenderOptions(element_text=60)).startswith("[1]<div id=log>Welcome!")
