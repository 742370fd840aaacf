"""Which URLs a served browser may open: http(s) only, and public addresses unless allowed.

    await check_url("https://example.com/", allow_private=False)    # ApiError 400 when refused
    guard = RequestGuard(allow_private=False)
    await context.route("**/*", guard.route)     # every request, each redirect hop included

``file:``, ``chrome:``, ``javascript:``, ``data:`` ... are refused as session start URLs; a host
is resolved and every address it resolves to must be public (not loopback, private, link-local,
multicast, reserved or unspecified) unless ``allow_private``. The guard applies the same rule to
each request the page makes, so a redirect to ``http://127.0.0.1/`` or a metadata address is
aborted after DNS resolution too. Resolutions are cached on the guard (one per session).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from pipeline.serve.errors import ApiError

SCHEMES = ("http", "https")
PASS_THROUGH = ("data", "blob", "about")  # requests a page makes that reach no host


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def host_problem(host: str, allow_private: bool,
                       cache: dict[str, str | None] | None = None) -> str | None:
    """Why ``host`` may not be contacted, or None when it may."""
    if allow_private:
        return None
    if cache is not None and host in cache:
        return cache[host]
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
        addresses = sorted({info[4][0] for info in infos})
        private = [a for a in addresses if not is_public(a)]
        problem = (f"{host} resolves to a loopback/private address ({', '.join(private)}); "
                   "set sessions.allow_private=true to allow it") if private else None
    except (OSError, ValueError) as exc:
        problem = f"{host} does not resolve ({exc})"
    if cache is not None:
        cache[host] = problem
    return problem


async def check_url(url: str, allow_private: bool) -> None:
    """ApiError 400 unless ``url`` is an http(s) URL of an allowed host."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in SCHEMES:
        raise ApiError(400, f"url: {url[:100]!r} is not an http(s) URL (file:, chrome:, "
                       "javascript: and other schemes are refused)", "url_not_allowed", "url")
    if not parts.hostname:
        raise ApiError(400, f"url: {url[:100]!r} has no host", "url_not_allowed", "url")
    problem = await host_problem(parts.hostname, allow_private)
    if problem:
        raise ApiError(400, f"url: {problem}", "url_not_allowed", "url")


class RequestGuard:
    """A Playwright route handler that aborts requests to hosts ``check_url`` would refuse."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private
        self.cache: dict[str, str | None] = {}
        self.blocked: list[str] = []  # what was aborted, newest last

    async def route(self, route: Any) -> None:
        parts = urlsplit(route.request.url)
        scheme = parts.scheme.lower()
        if scheme in PASS_THROUGH:
            await route.continue_()
            return
        problem = "scheme not allowed" if scheme not in SCHEMES or not parts.hostname else \
            await host_problem(parts.hostname, self.allow_private, self.cache)
        if problem:
            self.blocked = [*self.blocked[-19:], f"{route.request.url[:200]}: {problem}"]
            await route.abort("blockedbyclient")
        else:
            await route.continue_()
