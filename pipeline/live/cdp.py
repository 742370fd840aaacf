"""One CDP command on a Playwright ``CDPSession``, its JSON result returned as the browser sent it.

    result = await cdp_send(cdp, "DOMSnapshot.captureSnapshot", params)

Playwright's public ``CDPSession.send`` passes its result through ``from_maybe_impl``, which
walks every dict and list of it to swap Playwright's internal objects for API objects. A CDP
result is plain JSON, so nothing is ever swapped, but the walk is done in Python, one call per
value: a DOM snapshot of a MiniWoB++ page is tens of thousands of values, and the walk took
~25 ms of a capture (18% of the Python time of the oracle's live episodes). ``cdp_send`` calls
the session's implementation object directly when it has one (Playwright's API objects wrap it
as ``_impl_obj``) and falls back to the public ``send`` otherwise.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any


async def cdp_send(cdp: Any, method: str, params: dict[str, Any] | None = None
                   ) -> dict[str, Any]:
    """The result of CDP ``method`` with ``params`` on session ``cdp`` (no timeout)."""
    params = params or {}
    impl = getattr(cdp, "_impl_obj", None)
    send = getattr(impl, "send", None)
    if send is None:
        return await cdp.send(method, params)
    if _takes_timeout(type(impl)):  # newer Playwrights take one, with no default
        return await send(method=method, params=params, timeout=None)
    return await send(method=method, params=params)


@cache
def _takes_timeout(impl_type: type) -> bool:
    return "timeout" in inspect.signature(impl_type.send).parameters
