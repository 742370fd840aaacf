"""Distilled pages for the query tests: the bundled fixtures and a small hand-made store page."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from distill_helpers import page

from pipeline.distill import DistilledPage, distill
from pipeline.html.source import page_from_file, page_from_html

FIXTURES = Path(__file__).resolve().parents[2] / "pipeline" / "fixtures"

STORE = """<html><body>
<header><a href="/" id="logo">Acme</a>
  <nav aria-label="Primary"><a href="/deals">Deals</a><a href="/help">Help</a>
    <button id="signin" class="btn-signin">Account</button></nav>
  <nav aria-label="Pagination"><a href="?p=2">Next page</a></nav>
</header>
<main>
  <h1>Checkout</h1>
  <section aria-label="Basket"><h2>Your basket</h2>
    <div class="row"><span>Blue mug</span><button>Remove</button></div>
    <div class="row"><span>Red mug</span><button>Remove</button></div>
  </section>
  <form aria-label="Payment"><h2>Payment</h2>
    <label>Card number <input type="text" name="card"></label>
    <label>Email <input type="email" name="email"></label>
    <label>Phone <input type="tel" name="phone"></label>
    <input type="password" name="pin" placeholder="PIN">
    <input type="number" name="qty" value="1">
    <textarea name="note" placeholder="Delivery note"></textarea>
    <div contenteditable="true" aria-label="Gift message"></div>
    <select name="ship"><option>Standard</option><option selected>Express</option></select>
    <label><input type="checkbox" name="terms"> I accept the terms</label>
    <label><input type="radio" name="speed" value="slow"> Slow</label>
    <input type="submit" value="Purchase now">
    <input type="reset" value="Clear">
    <input type="image" alt="Pay with card" src="/pay.png">
    <input type="hidden" name="token" value="x">
  </form>
  <div role="tablist"><div role="tab" tabindex="0">Details</div></div>
  <ul role="menu"><li role="menuitem" tabindex="0">Share</li></ul>
  <ul role="listbox"><li role="option" tabindex="0">Gift wrap</li></ul>
</main>
<footer><a href="/terms">Terms</a></footer>
</body></html>"""


@cache
def fixture(name: str) -> DistilledPage:
    return distill(page_from_file(FIXTURES / name))


@cache
def store() -> DistilledPage:
    return distill(page(STORE))


def html_page(html: str) -> DistilledPage:
    """A page distilled from an HTML fragment (no layout, no listeners)."""
    return distill(page_from_html(f"<!DOCTYPE html><title>t</title>{html}", kind="html"))


def ref_by_id(page: DistilledPage, element_id: str) -> int:
    """The ref of the element whose id attribute is ``element_id``."""
    return next(ref for ref, dnode in page.refs.items()
                if page.state.nodes[dnode.node_id].attributes.get("id") == element_id)
