"""Scripted oracle policies for MiniWoB++ tasks, one module per family of tasks.

``policy_for(task)`` returns the task's policy (see ``base`` for the contract); ``POLICIES`` maps
every covered task name to its policy.
"""

from __future__ import annotations

from datagen.miniwob.policies import (
    answers,
    calendar,
    click,
    dates,
    dragging,
    editor,
    email,
    enter,
    figures,
    forms,
    games,
    listings,
    mail,
    menus,
    posts,
    reading,
    sliders,
    sorting,
    travel,
    variants,
    wheel,
    widgets,
)
from datagen.miniwob.policies.base import Act, Policy, PolicyError

POLICIES: dict[str, Policy] = {
    **click.POLICIES, **enter.POLICIES, **widgets.POLICIES, **email.POLICIES,
    **menus.POLICIES, **forms.POLICIES, **dates.POLICIES, **listings.POLICIES,
    **posts.POLICIES, **reading.POLICIES, **mail.POLICIES, **games.POLICIES,
    **answers.POLICIES, **sliders.POLICIES, **sorting.POLICIES, **dragging.POLICIES,
    **travel.POLICIES, **variants.POLICIES, **figures.POLICIES, **wheel.POLICIES,
    **editor.POLICIES, **calendar.POLICIES,
}


def policy_for(task: str) -> Policy:
    """The oracle policy of ``task``; raises PolicyError listing the covered tasks."""
    if task not in POLICIES:
        raise PolicyError(f"no oracle policy for MiniWoB++ task {task!r}; covered: "
                          f"{', '.join(sorted(POLICIES))}")
    return POLICIES[task]


__all__ = ["POLICIES", "Act", "Policy", "PolicyError", "policy_for"]
