"""Discord's rate limits kept by the bot before Discord has to refuse anything: discord.py's buckets,
with the bucket's refill waited in the background, and a pace for the bot's global limit.

The refill: the request that spends a bucket's last request returns as soon as Discord has
answered it, and the bucket refills in the background.

discord.py (2.7, `discord.http.Ratelimit.__aexit__`) makes that request sleep until its bucket
refills before it hands back Discord's answer, although the request has already taken effect. The
outbox sends a game's messages one after another (bot/chat/delivery.py), so that sleep held back
every later message of the game, those of other buckets too: with players a second apart, the
fifth board edit in a thread's 5 s window made the post behind it wait up to 5 s for nothing.

Nothing is sent earlier than before: the bucket still reads 0 requests left until it refills, so
the next request of the same bucket waits in discord.py's `acquire` for the refill, as it did, and
Discord sends no 429. Only the request that emptied the bucket no longer waits for it.

The global limit: Discord allows a bot 50 requests a second over every route (interaction
responses aside), and discord.py only learns of it from a 429, after which it stops every request
of the process for the `retry_after`. A burst (twenty games stepping at once, each with a board
edit, a post and a few DMs) would get those 429s, and enough 429s get the bot's address banned
for a while. So each process paces its own REST requests (`GlobalPace`) to its share of the limit:
the shards it runs out of all of them, from a little under 50 a second in all, so that requests
that arrive at Discord a moment closer together than they were sent still fit. A request takes its
turn once its bucket lets it go, right before it is sent: requests held by a bucket and let go
together at its refill would otherwise all go in the same instant, on turns taken long before.

Forgetting buckets: discord.py keeps a bucket for every route and channel it has used until the
bucket has been idle for 5 minutes, and looks for idle ones only once it holds 256. A game's thread
has three or four (posts, edits, its members, its start), so a process that opens games quickly
held some 4,000 buckets, over 1 KB each, for every 1,000 games opened in those minutes. A bucket
at rest (nothing sent or waiting, its window over) tells nothing a new one would not: Discord's
window has refilled. So at rest buckets are dropped whenever the count has doubled since the last
look, and what the buckets hold follows how fast the bot sends, not how many games are open.
"""

from __future__ import annotations

import asyncio
from collections import deque
from types import TracebackType

import discord

_REFILLS: set[asyncio.Task[None]] = set()
"""Refills waiting in the background (kept here so none is collected while it sleeps)."""
FEWEST_TO_FORGET = 256
"""Buckets a client holds before it looks for those at rest (discord.py's own threshold)."""
REST_AFTER = 1.0
"""Seconds a bucket has not been asked for before it may be forgotten: a request fetches its bucket
a moment before it takes a turn in it (`HTTPClient.request`), and must find it still there."""


class GlobalPace:
    """At most `count` requests in any `window` seconds: a request waits for its turn (in the order
    they asked) until the oldest of the last `count` is `window` old."""

    def __init__(self, count: int, window: float = 1.0) -> None:
        if count < 1 or window <= 0:
            raise ValueError("a pace needs at least one request per window")
        self.count = count
        self.window = window
        self._sent: deque[float] = deque()
        self._turns = asyncio.Lock()

    async def turn(self) -> None:
        """Wait until one more request fits in the window, and count it."""
        async with self._turns:
            loop = asyncio.get_running_loop()
            while len(self._sent) >= self.count:
                wait = self._sent[0] + self.window - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                self._sent.popleft()
            self._sent.append(loop.time())


class RefillingBucket(discord.http.Ratelimit):
    """A bucket whose refill is waited for by the next request that needs it, not by the request
    that emptied it; with a `pace`, a request it lets go then waits its turn in the global pace."""

    __slots__ = ("_pace", "_refill")

    def __init__(self, max_ratelimit_timeout: float | None, pace: GlobalPace | None = None) -> None:
        super().__init__(max_ratelimit_timeout)
        self._refill: asyncio.Task[None] | None = None
        self._pace = pace

    async def acquire(self) -> None:
        await super().acquire()
        if self._pace is None:
            return
        try:
            await self._pace.turn()
        except BaseException:
            self.outgoing -= 1  # never sent: it no longer holds the bucket (its request stays spent)
            raise

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


def at_rest(bucket: discord.http.Ratelimit, now: float) -> bool:
    """Whether a new bucket would act as `bucket` does: nothing in flight, waiting or refilling, and
    Discord's window over (a new bucket learns the limit again from its first answer)."""
    refill = getattr(bucket, "_refill", None)
    return (
        bucket.outgoing == 0
        and not bucket._pending_requests
        and not bucket._sleeping.locked()
        and (refill is None or refill.done())
        and (bucket.expires is None or now > bucket.expires)
        and now - bucket._last_request >= REST_AFTER
    )


def keep_to_limits(http: discord.http.HTTPClient, pace: GlobalPace | None = None) -> None:
    """Make every bucket `http` creates from now on a `RefillingBucket` pacing by `pace` (discord.py
    makes a bucket the first time a route and its major parameters are used, in `get_ratelimit`;
    every request goes through one, interaction responses and followups in discord.py's webhook
    adapter aside, which Discord counts apart from the global limit)."""
    buckets: dict[str, discord.http.Ratelimit] = http._buckets  # no public hook for it
    made_by_discord = http.get_ratelimit
    look_at = FEWEST_TO_FORGET

    def get_ratelimit(key: str) -> discord.http.Ratelimit:
        nonlocal look_at
        if key not in buckets:
            if len(buckets) >= look_at:
                forget_at_rest(http)
                look_at = max(FEWEST_TO_FORGET, 2 * len(buckets))
            buckets[key] = RefillingBucket(http.max_ratelimit_timeout, pace)
        return made_by_discord(key)

    http.get_ratelimit = get_ratelimit  # type: ignore[method-assign]


def forget_at_rest(http: discord.http.HTTPClient) -> None:
    """Drop `http`'s buckets at rest (`at_rest`). Not while the global limit holds every request: one
    may have fetched its bucket and be waiting to take its turn in it."""
    if not http._global_over.is_set():
        return
    buckets: dict[str, discord.http.Ratelimit] = http._buckets
    now = asyncio.get_running_loop().time()
    for key in [key for key, bucket in buckets.items() if at_rest(bucket, now)]:
        del buckets[key]


def pace_share(per_second: float, shard_ids: list[int] | None, shard_count: int | None) -> GlobalPace:
    """This process's pace: its shards' share of the bot's requests a second (all of them when it
    runs every shard), counted over one second."""
    share = len(shard_ids) / shard_count if shard_ids and shard_count else 1.0
    return GlobalPace(max(1, int(per_second * share)))
