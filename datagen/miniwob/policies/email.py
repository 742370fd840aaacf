"""Oracle policy for the email-inbox tasks: open the sender's email, then delete, star, reply to
or forward it as the utterance asks (one policy for the single-action pages and the mixed one).
Restarted mid-episode it reads what is open: a form that is not wanted and another sender's
email are closed first, an email or a reply/forward form already open is not opened again."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    quoted,
    type_,
)


async def email_inbox(page, episode):
    text = episode.utterance
    sender = after(text, r"^Find the email by (.+?) and ").group(1)
    if "trash icon" in text:
        acts = on_email(page, sender, "delete")
    elif "star icon" in text:
        acts = on_email(page, sender, "star")
    elif "reply to them" in text:
        acts = on_email(page, sender, "reply", quoted(text)[0])
    elif "forward that email to" in text:
        acts = on_email(page, sender, "forward",
                        after(text, r"forward that email to (.+)\.$").group(1))
    else:
        raise PolicyError(f"{episode.task}: no known email action in {text!r}")
    async for act in acts:
        yield act


async def on_email(page, sender: str, action: str, text: str = ""):
    """The acts that ``action`` ("delete", "star", "reply" with ``text``, "forward" to ``text``)
    ``sender``'s email from the page as it is: a form that is not wanted and another sender's
    email are closed first, an email or a reply/forward form already open is not opened again."""
    if action not in ("delete", "star", "reply", "forward"):
        raise PolicyError(f"no known email action {action!r}")
    wanted_form = action if action in ("reply", "forward") else None
    form = await page.evaluate(  # a reply or forward form open over the email
        "() => ['reply', 'forward'].find((f) => document.querySelector('#' + f)) || null")
    shown = await page.evaluate(
        "() => { const e = document.querySelector('#email .email-sender');"
        " return e ? e.textContent : null; }")
    if form is not None and (shown != sender or form != wanted_form):
        yield click(css(f"#close-{form}"))
        form = None
    if shown is not None and shown != sender:
        yield click(css("#close-email"))
    if shown != sender:
        yield click("() => Array.from(document.querySelectorAll('#main .email-thread')).find("
                    f"(t) => t.querySelector('.email-sender').textContent === {json.dumps(sender)})")
    if action == "delete":
        yield click(css("#email .email-actions .trash"))
    elif action == "star":
        yield click(css("#email .email-actions .star"))
    elif action == "reply":
        if form is None:
            yield click(css("#email .email-reply"))
        yield type_(css("#reply-text"), text)
        yield click(css("#send-reply"))
    else:
        if form is None:
            yield click(css("#email .email-forward"))
        yield type_(css("#forward .forward-sender"), text)
        yield click(css("#send-forward"))


POLICIES = {
    "email-inbox": email_inbox,
    "email-inbox-delete": email_inbox,
    "email-inbox-important": email_inbox,
    "email-inbox-reply": email_inbox,
    "email-inbox-forward": email_inbox,
    "email-inbox-noscroll": email_inbox,
}
