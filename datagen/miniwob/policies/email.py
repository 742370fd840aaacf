"""Oracle policy for the email-inbox tasks: open the sender's email, then delete, star, reply to
or forward it as the utterance asks (one policy for the single-action pages and the mixed one).
Restarted mid-episode it reads what is open: another sender's email is closed first, an email or
a reply/forward form already open is not opened again."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    is_visible,
    quoted,
    text_of,
    type_,
)


async def email_inbox(page, episode):
    sender = after(episode.utterance, r"^Find the email by (.+?) and ").group(1)
    opened = await is_visible(page, css("#email"))
    if opened and await text_of(page, "#email .email-sender") != sender:
        yield click(css("#close-email"))
        opened = False
    if not opened:
        yield click("() => Array.from(document.querySelectorAll('#main .email-thread')).find("
                    f"(t) => t.querySelector('.email-sender').textContent === {json.dumps(sender)})")
    async for act in _email_action(page, episode):
        yield act


async def _email_action(page, episode):
    """The act(s) on the open email the utterance asks for."""
    text = episode.utterance
    if "trash icon" in text:
        yield click(css("#email .email-actions .trash"))
    elif "star icon" in text:
        yield click(css("#email .email-actions .star"))
    elif "reply to them" in text:
        if not await is_visible(page, css("#reply-text")):
            yield click(css("#email .email-reply"))
        yield type_(css("#reply-text"), quoted(text)[0])
        yield click(css("#send-reply"))
    elif "forward that email to" in text:
        if not await is_visible(page, css("#forward .forward-sender")):
            yield click(css("#email .email-forward"))
        yield type_(css("#forward .forward-sender"),
                    after(text, r"forward that email to (.+)\.$").group(1))
        yield click(css("#send-forward"))
    else:
        raise PolicyError(f"{episode.task}: no known email action in {text!r}")


POLICIES = {
    "email-inbox": email_inbox,
    "email-inbox-delete": email_inbox,
    "email-inbox-important": email_inbox,
    "email-inbox-reply": email_inbox,
    "email-inbox-forward": email_inbox,
    "email-inbox-noscroll": email_inbox,
}
