"""Oracle policies for the feed tasks: press one control on every (or some) post of a user, then
Submit. The controls are empty spans styled by class; the task names them by their title."""

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


async def _press_on_posts(page, episode, amount: int | None):
    control = CONTROLS.get(field(episode, "button"))
    if control is None:
        raise PolicyError(f"{episode.task}: unknown control {field(episode, 'button')!r}")
    user = field(episode, "user")
    posts = await page.eval_on_selector_all(
        "#area .media", "(ms, user) => ms.filter((m) => m.querySelector('.username')"
        ".textContent === user).map((m) => m.dataset.result)", user)
    if amount is not None and len(posts) < amount:
        raise PolicyError(f"{episode.task}: {user} has {len(posts)} posts, not {amount}")
    for post in posts[:amount]:
        yield click(css(f"#area .media[data-result={json.dumps(post)}] .{control}"))
    yield click(css("#submitRow button", field(episode, "submit")))


POLICIES = {
    "social-media-all": social_media_all,
    "social-media-some": social_media_some,
}
