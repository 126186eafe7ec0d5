"""How long an action's effects take to show, with Discord's rate limits at their real windows.

Each game is the flow of its whole-game e2e test (Kill Team bid game, Warcry Reaper battle, 40K
Marked for Death, Warmaster cards, as bench/calls_per_game.py plays them), on a fresh bot in this
process and a fresh emulator with its rate limits on at scale 1.0 (Discord's own windows: 5 posts
and 5 edits per 5 s per channel, 50 requests a second in all). Before each action (a slash command,
a click, a select, a form sent) the player waits 0.3 to 1 s, at random (seeded): players a moment
apart, faster than any real table.

An action's effects are the messages it makes the bot post or edit in its thread, its channel and
the players' DMs: the outbox rows its step rendered (every row created after the action and before
the next one). A row's effect is visible once its send has been answered by the emulator; an edit
that a later edit of the same message made moot is visible when that later edit is. An action's
latency runs from just before its interaction is sent to its last effect visible (an edit that
would change nothing is not sent: it is visible at once). An action that caused no message (only
its own answer, such as a form opening) is not counted.

Usage: python bench/effects.py [--seed N] [--games killteam,warcry,fortyk,warmaster] [--scale 1.0]
Prints p50/p99 per game and the 429s the bot received; exits non-zero when a row was never
delivered, a delivery failed, or a 429 was received (the timing target is printed, not asserted).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import select
from sqlalchemy.orm import Session

from bench.calls_per_game import GAMES, muster_at_limits
from bench.common import percentile
from bot.chat.messages import Outgoing, from_json
from bot.chat.outbox import Sent
from bot.db.models import OutboxMessage
from tests.e2e.conftest import Muster
from tests.e2e.table_counts import before_each_action
from tests.emulator import Emulator

KEYS = {"killteam": "Kill Team (bid)", "warcry": "Warcry", "fortyk": "40K", "warmaster": "Warmaster"}
TARGET_P99 = 2.0
PAUSE = (0.3, 1.0)
SLOW = 1.0  # an action slower than this is shown in detail with --detail


@dataclass
class Row:
    id: int
    session_id: str | None
    key: str | None
    created: float
    error: str | None
    delivered: bool


@dataclass
class Played:
    name: str
    actions: list[float] = field(default_factory=list)  # when each action began (wall time)
    sent: dict[int, float] = field(default_factory=dict)  # outbox row id -> when its send was answered
    rows: list[Row] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    rate_limited: int = 0
    requests: int = 0
    timeline: list[tuple[float, str]] = field(default_factory=list)  # (when, "PATCH /channels/..")
    slow: list[str] = field(default_factory=list)
    undelivered: int = 0
    failed: list[str] = field(default_factory=list)
    seconds: float = 0.0


@contextmanager
def paced_actions(emu: Emulator, chance: random.Random, started: list[float]) -> Iterator[None]:
    """Each action waits a random 0.3-1 s first, then notes when it began."""

    async def pause() -> None:
        await asyncio.sleep(chance.uniform(*PAUSE))
        started.append(time.time())

    with before_each_action(emu, pause):
        yield


def patient(muster: Muster) -> None:
    """The e2e flows wait for the bot to be idle up to 10 s, plenty at the tests' scale of windows;
    at Discord's own, a backlog may take longer: wait up to two minutes, and measure it."""
    assert muster.bot is not None
    delivery = muster.bot.delivery
    idle = delivery.idle

    async def patient_idle(limit: float = 120.0) -> None:
        await idle(max(limit, 120.0))

    delivery.idle = patient_idle  # type: ignore[method-assign]


def row_id(nonce: str) -> int:
    """The outbox row a nonce was made from (bot/chat/outbox.py `nonce_of`: "o<id>.<time>")."""
    return int(nonce[1:].split(".", 1)[0])


def watch_sends(muster: Muster, sent: dict[int, float]) -> None:
    """Note when each outbox row's send comes back answered (its effect is visible from then)."""
    assert muster.bot is not None
    sender = muster.bot.delivery.sender
    real = sender.send

    async def send(session_id: str | None, message: Outgoing, nonce: str) -> Sent:
        try:
            return await real(session_id, message, nonce)
        finally:
            sent[row_id(nonce)] = time.time()

    sender.send = send  # type: ignore[method-assign]


def load_rows(db: Session) -> list[Row]:
    rows = []
    for row in db.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
        try:
            key = from_json(row.payload).key
        except ValueError:
            key = None
        rows.append(
            Row(
                row.id,
                row.session_id,
                key,
                row.created_at.timestamp(),
                row.last_error,
                row.delivered_at is not None,
            )
        )
    return rows


def visible_at(played: Played) -> dict[int, float]:
    """When each row's effect became visible: its own send, or that of the later edit of the same
    message that made it moot."""
    shown: dict[int, float] = {}
    for index, row in enumerate(played.rows):
        if row.id in played.sent:
            shown[row.id] = played.sent[row.id]
            continue
        if row.error != "superseded":
            continue
        for later in played.rows[index + 1 :]:
            if later.session_id == row.session_id and later.key == row.key and later.id in played.sent:
                shown[row.id] = played.sent[later.id]
                break
    return shown


def describe(played: Played, begin: float, latency: float, mine: list[Row], shown: dict[int, float]) -> str:
    """A slow action: its rows, and the requests the bot made meanwhile (times from the action)."""
    lines = [f"action at {begin - played.actions[0]:.2f} s took {latency:.2f} s:"]
    lines += [
        f"    row {row.id} {row.key or '-'}: made +{row.created - begin:.2f}, "
        f"shown +{shown[row.id] - begin:.2f}{' (superseded)' if row.error == 'superseded' else ''}"
        for row in mine
    ]
    lines += [
        f"      +{at - begin:.2f} {what}" for at, what in played.timeline if begin <= at <= begin + latency
    ]
    return "\n".join(lines)


def attribute(played: Played) -> None:
    """Each action's latency: to the last visible effect of the rows made before the next action."""
    shown = visible_at(played)
    bounds = [*played.actions, float("inf")]
    for begin, end in itertools.pairwise(bounds):
        mine = [row for row in played.rows if begin <= row.created < end]
        if not mine:
            continue
        missing = [row.id for row in mine if row.id not in shown]
        if missing:
            played.failed.append(f"rows {missing} never shown")
            continue
        latency = max(shown[row.id] for row in mine) - begin
        played.latencies.append(latency)
        if latency > SLOW:
            played.slow.append(describe(played, begin, latency, mine, shown))
    played.undelivered = sum(not row.delivered for row in played.rows)
    played.failed += [
        f"row {row.id}: {row.error}"
        for row in played.rows
        if row.error and row.error != "superseded" and not row.error.startswith("rate limited")
    ]


async def drained(muster: Muster, limit: float = 120.0) -> None:
    """Wait until every outbox row has been delivered (rate-limited ones included)."""
    assert muster.bot is not None
    store = muster.bot.store

    def pending(db: Session) -> int:
        return len(list(db.scalars(select(OutboxMessage.id).where(OutboxMessage.delivered_at.is_(None)))))

    deadline = time.monotonic() + limit
    while await store.run(pending):
        if time.monotonic() > deadline:
            raise TimeoutError("outbox never drained")
        muster.bot.delivery.kick()
        await asyncio.sleep(0.2)


async def play(name: str, game: Callable[[Muster], Awaitable[None]], scale: float, seed: int) -> Played:
    played = Played(name)
    chance = random.Random(seed)
    async with muster_at_limits(scale) as (emu, muster):
        watch_sends(muster, played.sent)
        patient(muster)
        start = len(emu.requests)
        began = time.perf_counter()
        with paced_actions(emu, chance, played.actions):
            try:
                await game(muster)
            except TimeoutError:
                stuck(emu, start)
                raise
        await muster.announced()
        await drained(muster)
        played.seconds = time.perf_counter() - began
        assert muster.bot is not None
        played.rows = await muster.bot.store.run(load_rows)
    requests = emu.requests[start:]
    played.requests = len(requests)
    played.rate_limited = sum(r.status == 429 for r in requests)
    played.timeline = [(r.at, f"{r.method} {r.path} {r.status}") for r in requests]
    attribute(played)
    return played


def stuck(emu: Emulator, start: int) -> None:
    """What the bot was doing when the game's flow gave up waiting: its last requests."""
    now = time.time()
    print("the flow timed out; the bot's last requests (seconds ago):")
    for request in emu.requests[start:][-25:]:
        print(f"  -{now - request.at:.2f} {request.method} {request.path} {request.status}")


def report(played: Played) -> str:
    ms = [s * 1000 for s in played.latencies]
    return (
        f"| {played.name} | {len(played.actions)} | {len(ms)} | {percentile(ms, 50):.0f} | "
        f"{percentile(ms, 99):.0f} | {max(ms, default=0):.0f} | {played.requests} | "
        f"{played.rate_limited} | {played.seconds:.0f} |"
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(KEYS))
    parser.add_argument("--detail", action="store_true", help="show each action slower than 1 s")
    parser.add_argument("--scale", type=float, default=1.0, help="rate limit windows x this (1.0: Discord's)")
    args = parser.parse_args()
    flows = dict(GAMES)
    wanted = [KEYS[key] for key in args.games.split(",")]
    print(f"rate limits on, scale {args.scale}; {PAUSE[0]}-{PAUSE[1]} s between actions, seed {args.seed}")
    print("| game | actions | with effects | p50 ms | p99 ms | max ms | requests | 429s | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    broken = False
    for index, name in enumerate(wanted):
        played = await play(name, flows[name], args.scale, args.seed + index)
        print(report(played), flush=True)
        for slow in played.slow if args.detail else []:
            print(slow)
        for failure in played.failed[:10]:
            print(f"  failed: {failure}")
        p99 = percentile(played.latencies, 99)
        if p99 > TARGET_P99:
            print(f"  p99 {p99:.2f} s is over the {TARGET_P99:.0f} s target")
        broken = broken or bool(played.failed or played.undelivered or played.rate_limited)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
