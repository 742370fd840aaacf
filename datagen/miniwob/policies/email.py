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
    sender = after(episode.utterance, r"^Find the email by (.+?) and ").group(1)
    text = episode.utterance
    wanted_form = "reply" if "reply to them" in text else (
        "forward" if "forward that email to" in text else None)
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
    if "trash icon" in text:
        yield click(css("#email .email-actions .trash"))
    elif "star icon" in text:
        yield click(css("#email .email-actions .star"))
    elif wanted_form == "reply":
        if form is None:
            yield click(css("#email .email-reply"))
        yield type_(css("#reply-text"), quoted(text)[0])
        yield click(css("#send-reply"))
    elif wanted_form == "forward":
        if form is None:
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
