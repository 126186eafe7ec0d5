"""discord.py's rate-limit buckets, changed in one respect: the request that spends a bucket's last
request returns as soon as Discord has answered it, and the bucket refills in the background.

discord.py (2.7, `discord.http.Ratelimit.__aexit__`) makes that request sleep until its bucket
refills before it hands back Discord's answer, although the request has already taken effect. The
outbox sends a game's messages one after another (bot/chat/delivery.py), so that sleep held back
every later message of the game, those of other buckets too: with players a second apart, the
fifth board edit in a thread's 5 s window made the post behind it wait up to 5 s for nothing.

Nothing is sent earlier than before: the bucket still reads 0 requests left until it refills, so
the next request of the same bucket waits in discord.py's `acquire` for the refill, as it did, and
Discord sends no 429. Only the request that emptied the bucket no longer waits for it.
"""

from __future__ import annotations

import asyncio
from types import TracebackType

import discord

_REFILLS: set[asyncio.Task[None]] = set()
"""Refills waiting in the background (kept here so none is collected while it sleeps)."""


class RefillingBucket(discord.http.Ratelimit):
    """A bucket whose refill is waited for by the next request that needs it, not by the request
    that emptied it."""

    __slots__ = ("_refill",)

    def __init__(self, max_ratelimit_timeout: float | None) -> None:
        super().__init__(max_ratelimit_timeout)
        self._refill: asyncio.Task[None] | None = None

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        emptied = self.remaining - (self.outgoing - 1) <= 0
        refilling = self._sleeping.locked() or (self._refill is not None and not self._refill.done())
        if not emptied or refilling:
            await super().__aexit__(exc_type, exc, traceback)  # type: ignore[type-var,arg-type]
            return
        self.outgoing -= 1
        # discord.py's own refresh: it sleeps out the reset, then wakes the requests waiting for it.
        self._refill = asyncio.create_task(self._refresh(), name="rate limit refill")
        _REFILLS.add(self._refill)
        self._refill.add_done_callback(_REFILLS.discard)


def refill_in_background(http: discord.http.HTTPClient) -> None:
    """Make every bucket `http` creates from now on a `RefillingBucket` (discord.py makes a bucket
    the first time a route and its major parameters are used, in `get_ratelimit`)."""
    buckets: dict[str, discord.http.Ratelimit] = http._buckets  # no public hook for it
    made_by_discord = http.get_ratelimit

    def get_ratelimit(key: str) -> discord.http.Ratelimit:
        if key not in buckets:
            buckets[key] = RefillingBucket(http.max_ratelimit_timeout)
            http._try_clear_expired_ratelimits()  # as discord.py does for a new one
        return made_by_discord(key)

    http.get_ratelimit = get_ratelimit  # type: ignore[method-assign]
