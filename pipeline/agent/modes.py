"""The agent modes: how much of the page the model sees before it queries.

    full        the flat rendering of the whole page (browser-use style): no query tools needed
    hybrid      the landmark outline plus the query tools
    query_only  URL, title, scroll, element counts, text fields and landmark names, plus the
                query tools
    planned     query_only plus the engine's best candidates for the step: what
                ``query_for_step`` plans from the task and the history, its top results

Defined once here; observations, prompts, datagen's records and configs and eval import it.
"""

from __future__ import annotations

from typing import Literal, get_args

Mode = Literal["full", "hybrid", "query_only", "planned"]
MODES: tuple[Mode, ...] = get_args(Mode)


def check_mode(mode: str) -> Mode:
    """``mode`` itself when it is an agent mode, else a ValueError naming the choices."""
    if mode not in MODES:
        raise ValueError(f"unknown agent mode {mode!r}; use one of {', '.join(MODES)}")
    return mode  # type: ignore[return-value]
