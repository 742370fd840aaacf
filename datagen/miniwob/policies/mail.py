"""Oracle policy for the email-inbox tasks whose instruction is free text (``-nl``, ``-nl-turk``,
``-star-reply``): the fields miniwob reads from the utterance say whose email to open and what to
do with it (a ``to`` without a ``task`` is a forward)."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import PolicyError, click, css, field, type_


async def email_by_fields(page, episode):
    fields = dict(episode.fields)
    task = fields.get("task", "forward" if "to" in fields else "")
    yield click("() => Array.from(document.querySelectorAll('#main .email-thread')).find((t) => "
                f"t.querySelector('.email-sender').textContent === "
                f"{json.dumps(field(episode, 'by'))})")
    if task == "delete":
        yield click(css("#email .email-actions .trash"))
    elif task == "star":
        yield click(css("#email .email-actions .star"))
    elif task == "reply":
        yield click(css("#email .email-reply"))
        yield type_(css("#reply-text"), field(episode, "message"))
        yield click(css("#send-reply"))
    elif task == "forward":
        yield click(css("#email .email-forward"))
        yield type_(css("#forward .forward-sender"), field(episode, "to"))
        yield click(css("#send-forward"))
    else:
        raise PolicyError(f"{episode.task}: no known email action in {episode.fields}")


POLICIES = {
    "email-inbox-star-reply": email_by_fields,
    "email-inbox-forward-nl": email_by_fields,
    "email-inbox-forward-nl-turk": email_by_fields,
    "email-inbox-nl-turk": email_by_fields,
}
