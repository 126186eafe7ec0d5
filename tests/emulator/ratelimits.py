"""Discord's rate limits, enforced and reported the way Discord reports them.

A bot that passes its tests against an emulator without limits can still flood a channel, hammer
one message or sleep for an hour on a 429 in production. So every response of a limited route
carries the `X-RateLimit-*` headers discord.py plans by, and a request over a limit gets the 429
Discord would send (with `Via`, or discord.py takes it for a Cloudflare ban and raises).

Time is `Clock` time: it runs with the wall clock, a test may jump it (`advance`), and the short
windows (seconds, minutes) are multiplied by `scale` so a suite pays almost nothing for them. The
hour that makes a message "old" and the hour of its edit budget (error 30046) are not scaled: a
message is as old as it really is plus what `Emulator.age` added, so a long run does not age its
messages faster than Discord would, and the 30046 `retry_after` stays about an hour on purpose.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .emulator import Emulator, RecordedRequest
    from .model import JSON, Message


@dataclass(frozen=True)
class Limit:
    """`count` requests per `window` seconds (Discord seconds, before scaling)."""

    count: int
    window: float


# --- the numbers ------------------------------------------------------------------------------
# Discord publishes no table of per-route limits: each response reports its bucket in the
# X-RateLimit-* headers (https://discord.com/developers/docs/topics/rate-limits). These are the
# values those headers and Discord's documentation show for a bot.

# "All bots can make up to 50 requests per second to our API" (rate-limits page, Global Rate
# Limit); "Interaction endpoints are not bound to the bot's Global Rate Limit" (same page).
GLOBAL = Limit(50, 1.0)
# POST /channels/{id}/messages: headers report Limit 5, Reset-After 5, per channel.
MESSAGE_CREATES = Limit(5, 5.0)
# PATCH /channels/{id}/messages/{id}: a bucket of its own, also 5 per 5 s per channel.
MESSAGE_EDITS = Limit(5, 5.0)
# DELETE /channels/{id}/messages/{id}: its own bucket again (Discord slows bulk clean-ups apart).
MESSAGE_DELETES = Limit(5, 5.0)
# PUT/DELETE .../reactions/{emoji}/@me: headers report Limit 1, Reset-After 0.25, per channel.
REACTIONS = Limit(1, 0.25)
# PATCH /channels/{id} with a name or topic: "2 per 10 minutes" per channel, scope "shared"
# (discord-api-docs issue #1900 and Discord's developer support answers).
CHANNEL_RENAMES = Limit(2, 600.0)
# Interaction webhooks (followups, @original edits): headers report Limit 5, Reset-After 2, per
# webhook id and token, as for any webhook.
WEBHOOK_MESSAGES = Limit(5, 2.0)
# Error 30046, "Maximum number of edits to messages older than 1 hour reached": a message over an
# hour old takes 5 edits per hour (observed; Discord documents only the error code).
OLD_MESSAGE_AGE = 3600.0
OLD_MESSAGE_EDITS = Limit(5, 3600.0)
OLD_MESSAGE_CODE = 30046
OLD_MESSAGE_TEXT = "Maximum number of edits to messages older than 1 hour reached. Try again later"
# "IP addresses that make too many invalid HTTP requests are automatically and temporarily
# restricted from accessing the Discord API. Currently, this limit is 10,000 per 10 minutes. An
# invalid request is one that results in 401, 403, or 429 statuses", a 429 of scope "shared" aside
# (rate-limits page, Invalid Request Limit). The restriction is Cloudflare's: a 429 without `Via`,
# whose body is not Discord's JSON (discord.py raises it as a ban); it lasts a window here.
INVALID_REQUESTS = Limit(10_000, 600.0)
INVALID_STATUSES = (401, 403, 429)
BANNED_TEXT = "error code: 1015"
# Windows in tests run 100 times faster: a 5 s bucket lasts 50 ms, the global second 10 ms.
DEFAULT_SCALE = 0.01

RATE_LIMITED = "You are being rate limited."
# The rate limit layer's signature: discord.py retries a 429 only when it is present.
VIA = "1.1 google"
# Routes not counted against the global limit: interaction callbacks and interaction webhooks
# (Discord's docs), and the unauthenticated gateway lookup.
GLOBAL_EXEMPT = re.compile(r"/interactions/.*|/webhooks/\d+/[^/]+(/.*)?|/gateway")


class Clock:
    """Discord's time for the emulator: wall time, plus whatever a test skipped with `advance`.

    `scale` shortens the rate-limit windows measured on it (not message ages)."""

    def __init__(self, scale: float = DEFAULT_SCALE) -> None:
        if scale <= 0:
            raise ValueError("rate_limit_scale must be positive")
        self.scale = scale
        self._start_wall = time.time()
        self._start = time.monotonic()
        self._skipped = 0.0

    def now(self) -> float:
        """Seconds since the epoch, Discord's reckoning (monotonic, so windows never run back)."""
        return self._start_wall + (time.monotonic() - self._start) + self._skipped

    def advance(self, seconds: float) -> None:
        """Jump ahead: windows and budgets expire, messages grow older, no one waits."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._skipped += seconds

    def window(self, limit: Limit) -> float:
        """How long `limit`'s window lasts on this clock (scaled)."""
        return limit.window * self.scale


@dataclass
class Window:
    """A fixed window, as Discord's buckets are: it opens at the first request and refills at once."""

    limit: int
    length: float
    used: int = 0
    resets_at: float = 0.0

    def take(self, now: float) -> float | None:
        """Count one request; None if admitted, else the seconds until the window refills."""
        if now >= self.resets_at:
            self.used = 0
            self.resets_at = now + self.length
        if self.used >= self.limit:
            return self.resets_at - now
        self.used += 1
        return None

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)


@dataclass(frozen=True)
class Rule:
    """A route's bucket: requests with the same major parameters share one window."""

    name: str
    methods: frozenset[str]
    pattern: re.Pattern[str]
    limit: Limit
    scope: str = "user"
    applies: Callable[[Mapping[str, Any]], bool] = lambda body: True

    @property
    def bucket_hash(self) -> str:
        """An opaque id shared by every major parameter of the route, as Discord's are."""
        return hashlib.sha1(self.name.encode()).hexdigest()[:32]


def _renames(body: Mapping[str, Any]) -> bool:
    return "name" in body or "topic" in body


def _rule(name: str, methods: str, pattern: str, limit: Limit, **kw: Any) -> Rule:
    return Rule(name, frozenset(methods.split()), re.compile(pattern), limit, **kw)


# Major parameters are the named groups: channel, or webhook id and token.
CHANNEL = r"/channels/(?P<channel>\d+)"
WEBHOOK = r"/webhooks/(?P<webhook>\d+)/(?P<token>[^/]+)"
RULES: tuple[Rule, ...] = (
    _rule("message-create", "POST", rf"{CHANNEL}/messages", MESSAGE_CREATES),
    _rule("message-edit", "PATCH", rf"{CHANNEL}/messages/(?P<message>\d+)", MESSAGE_EDITS),
    _rule("message-delete", "DELETE", rf"{CHANNEL}/messages/\d+", MESSAGE_DELETES),
    _rule("reaction", "PUT DELETE", rf"{CHANNEL}/messages/\d+/reactions/[^/]+/@me", REACTIONS),
    _rule("channel-rename", "PATCH", CHANNEL, CHANNEL_RENAMES, scope="shared", applies=_renames),
    _rule("webhook-create", "POST", WEBHOOK, WEBHOOK_MESSAGES),
    _rule(
        "webhook-message",
        "PATCH DELETE",
        rf"{WEBHOOK}/messages/(?P<message>@original|\d+)",
        WEBHOOK_MESSAGES,
    ),
)
EDITS = {("message-edit", "PATCH"), ("webhook-message", "PATCH")}

Answer = tuple[int, Any, dict[str, str]]


def _seconds(value: float) -> float:
    """Rounded up to the millisecond: a client that waits what it is told is never early."""
    return math.ceil(max(value, 0.0) * 1000) / 1000


def rate_limit_headers(
    *, limit: int, remaining: int, reset_after: float, bucket: str, scope: str | None = None
) -> dict[str, str]:
    """The X-RateLimit-* headers; with `scope` those of a 429 (Retry-After, Via too)."""
    headers = {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
    }
    if scope is not None:
        headers |= {
            "X-RateLimit-Scope": scope,
            "Retry-After": str(max(1, math.ceil(reset_after))),
            "Via": VIA,
        }
    return headers


def too_many(retry_after: float, headers: dict[str, str], *, is_global: bool = False) -> Answer:
    body = {"message": RATE_LIMITED, "retry_after": retry_after, "global": is_global}
    return 429, body, headers


@dataclass
class Admission:
    """The limiter's verdict on one request: a 429 to answer, or headers to add to the answer."""

    refusal: Answer | None = None
    headers: dict[str, str] = field(default_factory=dict)
    on_success: Callable[[], None] | None = None

    def settle(self, status: int) -> None:
        """The request was handled; a successful old-message edit spends its budget."""
        if self.on_success is not None and 200 <= status < 300:
            self.on_success()


class RateLimits:
    """The windows of one bot application (see the module docstring and README.md)."""

    def __init__(self, emulator: Emulator, clock: Clock, *, enabled: bool = True) -> None:
        self.emu = emulator
        self.clock = clock
        self.enabled = enabled
        self.windows: dict[tuple[str, ...], Window] = {}
        self.global_window = Window(GLOBAL.count, clock.window(GLOBAL))
        # message id -> when it was created, on the clock (Emulator.age moves it back)
        self.born: dict[int, float] = {}
        # message id -> when its edits while over an hour old were made
        self.old_edits: dict[int, deque[float]] = {}
        self.invalid_limit = INVALID_REQUESTS
        self.invalid: deque[float] = deque()  # when each counted invalid request was answered
        self.banned_until = 0.0

    # --- invalid requests -------------------------------------------------------------------------

    def note_answer(self, status: int, headers: Mapping[str, str] | None) -> None:
        """Count an answer with an invalid status; the request that reaches the limit bans the bot's
        address for a window."""
        if not self.enabled or status not in INVALID_STATUSES:
            return
        if status == 429 and (headers or {}).get("X-RateLimit-Scope") == "shared":
            return
        now, window = self.clock.now(), self.clock.window(self.invalid_limit)
        self.invalid.append(now)
        while self.invalid and now - self.invalid[0] >= window:
            self.invalid.popleft()
        if len(self.invalid) >= self.invalid_limit.count:
            self.banned_until = now + window
            self.invalid.clear()

    def banned(self) -> Answer | None:
        """Cloudflare's answer to every request while the address is banned, else None."""
        if not self.enabled or self.clock.now() >= self.banned_until:
            return None
        return 429, BANNED_TEXT, {}

    # --- messages -------------------------------------------------------------------------------

    def note_created(self, message: Message) -> None:
        self.born[message.id] = self.clock.now()

    def age(self, message_id: int, seconds: float) -> None:
        self.born[message_id] = self.born.get(message_id, self.clock.now()) - seconds

    def message_age(self, message_id: int) -> float:
        """Seconds since the message was made (0 for one the emulator did not post)."""
        born = self.born.get(message_id)
        return 0.0 if born is None else self.clock.now() - born

    # --- admission --------------------------------------------------------------------------------

    def admit(self, method: str, path: str, body: Any, record: RecordedRequest) -> Admission:
        """Count the request against the global limit, its route's bucket and, for an edit of an
        old message, that message's budget: the first one over answers 429."""
        if not self.enabled:
            return Admission()
        now = self.clock.now()
        refusal = self._check_global(path, now)
        if refusal is not None:
            record.rate_limit = "global"
            return Admission(refusal=refusal)
        found = self._rule(method, path, body if isinstance(body, dict) else {})
        if found is None:
            return Admission()
        rule, params = found
        window = self._window(rule, params)
        wait = window.take(now)
        reset_after = _seconds(window.resets_at - now)
        headers = rate_limit_headers(
            limit=window.limit, remaining=window.remaining, reset_after=reset_after, bucket=rule.bucket_hash
        )
        if wait is not None:
            record.rate_limit = rule.name
            scoped = headers | rate_limit_headers(
                limit=window.limit,
                remaining=0,
                reset_after=reset_after,
                bucket=rule.bucket_hash,
                scope=rule.scope,
            )
            return Admission(refusal=too_many(reset_after, scoped))
        if (rule.name, method) in EDITS:
            return self._old_message_edit(rule, params, now, headers, record)
        return Admission(headers=headers)

    def _check_global(self, path: str, now: float) -> Answer | None:
        if GLOBAL_EXEMPT.fullmatch(path):
            return None
        wait = self.global_window.take(now)
        if wait is None:
            return None
        retry_after = _seconds(wait)
        headers = {
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "Via": VIA,
        }
        return too_many(retry_after, headers, is_global=True)

    def _rule(self, method: str, path: str, body: Mapping[str, Any]) -> tuple[Rule, dict[str, str]] | None:
        for rule in RULES:
            if method not in rule.methods:
                continue
            match = rule.pattern.fullmatch(path)
            if match is not None and rule.applies(body):
                return rule, match.groupdict()
        return None

    def _window(self, rule: Rule, params: Mapping[str, str]) -> Window:
        major = tuple(v for k, v in params.items() if k != "message")
        key = (rule.name, *major)
        window = self.windows.get(key)
        if window is None:
            window = self.windows[key] = Window(rule.limit.count, self.clock.window(rule.limit))
        return window

    # --- error 30046 ------------------------------------------------------------------------------

    def _old_message_edit(
        self,
        rule: Rule,
        params: Mapping[str, str],
        now: float,
        headers: dict[str, str],
        record: RecordedRequest,
    ) -> Admission:
        """An edit of a message over an hour old spends one of its 5 edits per hour; the sixth
        is refused with 30046 and a `retry_after` of about an hour, never scaled: a bot must not
        wait on it (discord.py would sleep that long unless `max_ratelimit_timeout` is lower)."""
        message_id = self._edited_message(params)
        if message_id is None or self.message_age(message_id) < OLD_MESSAGE_AGE:
            return Admission(headers=headers)
        edits = self.old_edits.setdefault(message_id, deque())
        while edits and now - edits[0] >= OLD_MESSAGE_EDITS.window:
            edits.popleft()
        if len(edits) < OLD_MESSAGE_EDITS.count:
            return Admission(headers=headers, on_success=lambda: edits.append(self.clock.now()))
        retry_after = _seconds(edits[0] + OLD_MESSAGE_EDITS.window - now)
        record.rate_limit = "old-message-edits"
        return Admission(refusal=old_message_refusal(retry_after, rule.bucket_hash))

    def _edited_message(self, params: Mapping[str, str]) -> int | None:
        target = params["message"]
        if target != "@original":
            return int(target)
        interaction = self.emu.interactions_by_token.get(params["token"])
        original = interaction.original if interaction is not None else None
        return original.id if original is not None else None

    # --- injected faults --------------------------------------------------------------------------

    def fault_headers(
        self, method: str, path: str, retry_after: float, scope: str, is_global: bool
    ) -> dict[str, str]:
        """Headers for an injected 429: the route's own bucket id when it has one, so discord.py
        keeps one bucket for the route, and Via, so it retries."""
        found = self._rule(method, path, {"name": None})
        name = found[0].name if found is not None else f"{method} {path}"
        bucket = found[0].bucket_hash if found is not None else hashlib.sha1(name.encode()).hexdigest()[:32]
        limit = found[0].limit.count if found is not None else 5
        headers = rate_limit_headers(
            limit=limit,
            remaining=0,
            reset_after=retry_after,
            bucket=bucket,
            scope="global" if is_global else scope,
        )
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        return headers


def old_message_refusal(retry_after: float, bucket: str) -> Answer:
    """Discord's answer to one edit too many of a message over an hour old."""
    headers = rate_limit_headers(
        limit=OLD_MESSAGE_EDITS.count, remaining=0, reset_after=retry_after, bucket=bucket, scope="user"
    )
    body: JSON = {
        "message": OLD_MESSAGE_TEXT,
        "code": OLD_MESSAGE_CODE,
        "retry_after": retry_after,
        "global": False,
    }
    return 429, body, headers
