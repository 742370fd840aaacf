"""Tasks that are another task's page with a different timing or wording, played by that task's
policy (kept apart so the original families' modules keep only their own tasks)."""

from __future__ import annotations

from datagen.miniwob.policies import widgets

POLICIES = {
    "use-autocomplete-nodelay": widgets.use_autocomplete,
}
