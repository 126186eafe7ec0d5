"""What every response of the site carries, and what every request passes first.

- Headers: a strict Content-Security-Policy (no script at all, styles from the site's own file only,
  images only as inline `data:`), no sniffing, no referrer, no framing. No response sets a cookie.
- A per-address token bucket: a burst of `burst` requests, refilled at `rate` per second; beyond it a
  429 with Retry-After. `/health` is never limited (a load balancer asks it often).
- One 404 for everything not shown: unknown, never enabled and disabled servers get the same bytes.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

log = logging.getLogger("muster.web")

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}
NOT_FOUND = (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<title>Not found</title><link rel="stylesheet" href="/static/site.css"></head>'
    "<body><main><h1>Not found</h1><p>There is no page here.</p></main></body></html>\n"
)
"""The one body of every 404: it names nothing, so it tells nobody whether a server exists."""
BUCKETS_MAX = 20_000
UNLIMITED = ("/health", "/static/")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def not_found() -> web.Response:
    response = web.Response(status=404, text=NOT_FOUND, content_type="text/html", charset="utf-8")
    response.headers["Cache-Control"] = "no-store"
    return response


class RateLimiter:
    """Token buckets by address, kept in this process (a limit, not a truth: several site processes
    each allow the burst)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def wait(self, address: str) -> float:
        """0 if `address` may go on now (taking a token), else the seconds until it may."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        tokens, last = self._buckets.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return (1 - tokens) / self.rate
        self._buckets[address] = (tokens - 1, now)
        if len(self._buckets) > BUCKETS_MAX:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (those addresses start full again anyway); in a flood
        of addresses where none has, the least recently seen half (they get a fresh burst)."""
        for address, (tokens, last) in list(self._buckets.items()):
            if tokens + (now - last) * self.rate >= self.burst:
                del self._buckets[address]
        if len(self._buckets) > BUCKETS_MAX // 2:
            by_age = sorted(self._buckets, key=lambda address: self._buckets[address][1])
            for address in by_age[: len(by_age) - BUCKETS_MAX // 2]:
                del self._buckets[address]


def client_address(request: web.Request, forwarded: bool) -> str:
    """The address to limit: the peer, or (behind a trusted proxy) the last X-Forwarded-For hop."""
    if forwarded:
        hops = [hop.strip() for hop in request.headers.get("X-Forwarded-For", "").split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.remote or "unknown"


def guard(limiter: RateLimiter, forwarded: bool) -> Middleware:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        response: web.StreamResponse
        if not request.path.startswith(UNLIMITED) and (
            wait := limiter.wait(client_address(request, forwarded))
        ):
            response = web.Response(status=429, text="Too many requests; try again shortly.\n")
            response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        else:
            try:
                response = await handler(request)
            except web.HTTPNotFound:
                response = not_found()
            except web.HTTPException as error:
                response = web.Response(status=error.status, text=f"{error.reason}\n")
            except Exception:
                log.exception("the page %s failed", request.path)
                response = web.Response(status=500, text="Something went wrong; try again later.\n")
        response.headers.update(HEADERS)
        response.headers.popall("Set-Cookie", None)
        return response

    return middleware
