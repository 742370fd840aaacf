"""Oracle policy for the email-inbox tasks whose instruction is free text (``-nl``, ``-nl-turk``,
``-star-reply``): the fields miniwob reads from the utterance say whose email to open and what to
do with it (a ``to`` without a ``task`` is a forward); ``email.on_email`` acts from the page as it
is, so a run restarted mid-episode (DAgger) does not open an email that is already open."""

from __future__ import annotations

from datagen.miniwob.policies.base import PolicyError, field
from datagen.miniwob.policies.email import on_email


async def email_by_fields(page, episode):
    fields = dict(episode.fields)
    task = fields.get("task", "forward" if "to" in fields else "")
    if task in ("reply", "forward"):
        text = field(episode, "message" if task == "reply" else "to")
    elif task in ("delete", "star"):
        text = ""
    else:
        raise PolicyError(f"{episode.task}: no known email action in {episode.fields}")
    async for act in on_email(page, field(episode, "by"), task, text):
        yield act


POLICIES = {
    "email-inbox-star-reply": email_by_fields,
    "email-inbox-forward-nl": email_by_fields,
    "email-inbox-forward-nl-turk": email_by_fields,
    "email-inbox-nl-turk": email_by_fields,
}
