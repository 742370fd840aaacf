"""Oracle policies for the feed tasks: press one control on every (or some) post of a user, then
Submit. The controls are empty spans styled by class; the task names them by their title. A click
toggles a control, so the policies read which are active (a student's presses, under DAgger)."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import PolicyError, click, css, field

CONTROLS = {"Reply": "reply", "Retweet": "retweet", "Like": "like", "Share": "share"}


async def social_media_all(page, episode):
    async for act in _press_on_posts(page, episode, None):
        yield act


async def social_media_some(page, episode):
    async for act in _press_on_posts(page, episode, int(field(episode, "amount"))):
        yield act


# every control of the feed: its post, its kind, whether the post is the user's, whether active
_CONTROLS_JS = """(user) => Array.from(document.querySelectorAll('#area .media'), (m) =>
  Array.from(m.querySelectorAll('.reply, .retweet, .like, .share'), (c) => ({
    post: m.dataset.result, kind: ['reply', 'retweet', 'like', 'share'].find(
      (k) => c.classList.contains(k)),
    mine: m.querySelector('.username').textContent === user,
    active: c.classList.contains('active')}))).flat()"""


async def _press_on_posts(page, episode, amount: int | None):
    """Read from the page: a control pressed on the wrong post (or of the wrong kind) is pressed
    again (a click toggles it, and Submit fails on any stray one); then the user's posts are
    pressed until all (or ``amount``) of them show the control active."""
    control = CONTROLS.get(field(episode, "button"))
    if control is None:
        raise PolicyError(f"{episode.task}: unknown control {field(episode, 'button')!r}")
    controls = await page.evaluate(_CONTROLS_JS, field(episode, "user"))
    wanted = [c for c in controls if c["mine"] and c["kind"] == control]
    if amount is not None and len(wanted) < amount:
        raise PolicyError(f"{episode.task}: {field(episode, 'user')} has {len(wanted)} posts, "
                          f"not {amount}")
    active = [c for c in wanted if c["active"]]
    idle = [c for c in wanted if not c["active"]]
    presses = [c for c in controls if c["active"] and c not in wanted]
    if amount is None:
        presses += idle
    elif len(active) > amount:
        presses += active[amount:]
    else:
        presses += idle[:amount - len(active)]
    for c in presses:
        yield click(css(f"#area .media[data-result={json.dumps(c['post'])}] .{c['kind']}"))
    yield click(css("#submitRow button", field(episode, "submit")))


POLICIES = {
    "social-media-all": social_media_all,
    "social-media-some": social_media_some,
}
