"""A whole 16-player, 4-round Kill Team event through the emulator, with two restarts: every game,
every standings post and the final post exactly once.

The bot runs as its own process (`muster run`, tests/e2e/fleet.py) on a fresh database; this
process is the emulated Discord, the organiser and the sixteen players. Each round is published
with `/event publish`, which opens its eight Kill Team games in their threads; every game is played
through to its result by the whole-game driver the end-to-end tests use (tests/e2e/killteam_driver.py:
it answers the question the stored state asks, on the component the bot posted). The results come
back into the event by themselves, the standings follow, and `/event finish` posts the final ones.

The bot is killed (SIGKILL: nothing flushed, its leases left) twice at awkward moments:
- while round 2 is being published: the first game's thread is made but its answer never reaches
  the bot, and the other games' cards are still owed;
- in the middle of round 3: right after a player's answer in a game half played, before what the
  answer sends has gone out.
Each time a new process takes over. Then it counts: each round's 8 games opened once (one session,
one thread, one result each), each round's post, standings post (with its picture) and the final
post once, and no message posted twice. Exits non-zero when any count is off; prints the time taken.

Usage: python bench/event_killteam.py   (on PostgreSQL: MUSTER_BENCH_DATABASE_URL=postgresql+asyncpg://...)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import func, select

from bench.common import bench_database, engine_name
from bot.db.models import ClubEvent, GameResult, GameSession, RenderJob
from bot.db.store import Store
from rules.event.state import EventState
from tests.e2e.event_driver import command, create, enter, posts
from tests.e2e.fleet import Fleet, FleetKillTeamTable, FleetMuster, owed
from tests.e2e.fleet import posts as posts_by_nonce
from tests.emulator import Emulator
from tests.emulator.model import User

PLAYERS = 16
ROUNDS = 4
GAMES = PLAYERS // 2
NAME = "Winter GT"
ENV = {"SWEEP_SECONDS": "0.5", "LOG_LEVEL": "WARNING"}


class EventHost(FleetMuster):
    """The bot as a process, seen from the database: settled once it has rendered every step's
    messages (bot/play/rendering.py) and sent everything the outbox owes."""

    async def settle(self) -> None:
        if not self.settling:
            return
        deadline = time.monotonic() + 30
        while await renders_owed(self.store):
            if time.monotonic() > deadline:
                raise TimeoutError("steps' messages never rendered")
            await asyncio.sleep(0.02)
        await super().settle()


class EventTable(FleetKillTeamTable):
    """A round's game between two of the event's players (the driver's own table plays alice and bob)."""

    def user(self, player: int) -> User:
        return self.muster.emu.users[player]


async def the_event(store: Store) -> EventState:
    async with store.read() as db:
        row = await db.scalar(select(ClubEvent))
    assert row is not None, "no event"
    return EventState.model_validate_json(row.state)


async def round_games(store: Store, event_id: str, number: int) -> list[str]:
    """The games a round opened (their sessions carry the round's tag as their night)."""
    async with store.read() as db:
        rows = await db.scalars(
            select(GameSession.id).where(GameSession.night_id == f"event:{event_id}:{number}")
        )
        return sorted(rows)


async def restart(fleet: Fleet, host: FleetMuster, store: Store, why: str) -> None:
    """Kill the bot, start a new process, and wait until it has sent what the old one owed: the
    steps it left to render (bot/play/rendering.py) as well as the outbox."""
    await fleet.kill(0)
    owed_rows, _results = await owed(store)  # outbox rows and steps still to render
    renders = await renders_owed(store)
    rows = owed_rows - renders
    print(f"  killed the bot {why} ({rows} messages and {renders} steps owed); a new process takes over")
    host.emu.clear_faults()
    await fleet.start(0)
    await host.settle()


async def renders_owed(store: Store) -> int:
    async with store.read() as db:
        return int(await db.scalar(select(func.count()).select_from(RenderJob)) or 0)


async def publish_while_killed(fleet: Fleet, host: FleetMuster, store: Store) -> None:
    """Publish a round and kill the bot while its games' cards and threads go out: the first
    thread is made on Discord, but the bot never hears so."""
    emu, w = host.emu, host.world
    held = emu.inject("POST", r"/channels/\d+/messages/\d+/threads", status=None, delay_after=60)
    with host.unsettled():
        record = await emu.slash(w.carol, w.channel, "event publish")
        await record.response(timeout=30)
    await emu.wait_until(lambda: held.hits >= 1, 30, "the round's first thread")
    await restart(fleet, host, store, "while a round was being published")


async def play(host: FleetMuster, store: Store, sid: str, *, kill_midway: Fleet | None = None) -> None:
    """Play a game through; with `kill_midway`, the bot is killed right after an answer halfway."""
    table = EventTable(host, sid)
    table.channel = await host.table(sid)
    steps = 0
    while True:
        if kill_midway is not None and steps == 12:
            with host.unsettled():
                await table.step()
            await restart(kill_midway, host, store, "right after an answer in a game half played")
            kill_midway = None
            table.channel = await host.table(sid)
        if not await table.step():
            return
        steps += 1


async def round_done(host: FleetMuster, store: Store, number: int) -> None:
    """Wait until the event has every result of the round (its clock reads them back) and has
    posted what follows."""

    async def complete() -> bool:
        state = await the_event(store)
        return all(g.reported for g in state.round_games(number))

    deadline = time.monotonic() + 60
    while not await complete():
        if time.monotonic() > deadline:
            raise TimeoutError(f"round {number}'s results never reached the event")
        await asyncio.sleep(0.2)
    await host.settle()


async def counts(host: FleetMuster, store: Store, event_id: str) -> list[str]:
    """What is not exactly once (empty: everything is)."""
    emu, w = host.emu, host.world
    wrong: list[str] = []
    sessions: list[str] = []
    for number in range(1, ROUNDS + 1):
        opened = await round_games(store, event_id, number)
        sessions += opened
        if len(opened) != GAMES:
            wrong.append(f"round {number} opened {len(opened)} games, not {GAMES}")
        for title in (f"{NAME} · round {number}", f"standings after round {number}"):
            if len(found := posts(host, title)) != 1:
                wrong.append(f"{len(found)} posts of {title!r}")
        for post in posts(host, f"standings after round {number}"):
            if [a.filename for a in post.attachments] != ["standings.png"]:
                wrong.append(f"round {number}'s standings carry {[a.filename for a in post.attachments]}")
    if len(final := posts(host, "final standings")) != 1:
        wrong.append(f"{len(final)} final standings posts")
    threads = emu.threads(w.channel)
    if len(threads) != ROUNDS * GAMES:
        wrong.append(f"{len(threads)} game threads, not {ROUNDS * GAMES}")
    async with store.read() as db:
        rows = (
            await db.execute(
                select(GameResult.session_id, func.count())
                .where(GameResult.session_id.in_(sessions))
                .group_by(GameResult.session_id)
            )
        ).all()
        filed = {str(sid): int(count) for sid, count in rows}
    if sorted(filed) != sorted(sessions) or set(filed.values()) != {1}:
        wrong.append(f"{len(filed)} of {len(sessions)} games have a result (counts {set(filed.values())})")
    if duplicated := posts_by_nonce(emu).duplicated():
        wrong.append(f"{len(duplicated)} messages posted twice")
    return wrong


async def run(emu: Emulator, url: str) -> int:
    world = emu.add_default_world()
    field = [emu.add_user(f"player{n}", global_name=f"Player {n}") for n in range(PLAYERS)]
    for user in field:
        emu.add_member(world.guild, user)
    fleet = Fleet(emu, url, ["0"], 1, env=ENV)
    store = Store.from_url(url)
    host = EventHost(emu, world, url, store)
    try:
        await fleet.start(0)
        await emu.wait_commands_synced(["event", "killteam"], timeout=60)
        said = await create(host, name=NAME, system="Kill Team", rounds=ROUNDS)
        assert "is made" in said, said
        for user in field:
            assert "entered" in (said := await enter(host, user)), said
        await command(host, world.carol, "close-lists")
        event_id = (await the_event(store)).event_id
        for number in range(1, ROUNDS + 1):
            started = time.perf_counter()
            if number == 2:
                await publish_while_killed(fleet, host, store)
            else:
                said = await command(host, world.carol, "publish")
                assert f"Round {number}" in said, said
            sids = await round_games(store, event_id, number)
            for index, sid in enumerate(sids):
                midway = fleet if number == 3 and index == GAMES // 2 else None
                await play(host, store, sid, kill_midway=midway)
            await round_done(host, store, number)
            print(f"  round {number}: {len(sids)} games played in {time.perf_counter() - started:.1f} s")
        said = await command(host, world.carol, "finish")
        assert "over" in said, said
        await host.settle()
        wrong = await counts(host, store, event_id)
        resent = posts_by_nonce(emu).resent()
        print(f"  posts sent again after a kill, answered with the message already made: {len(resent)}")
        if fleet.exited():
            wrong.append(f"the bot stopped by itself: {fleet.exited()}")
    finally:
        codes = await fleet.stop_all()
        await store.close()
    if set(codes.values()) - {0, -9}:
        wrong.append(f"the bot exited with {codes}")
    if "Traceback" in fleet.outputs():
        wrong.append("the bot logged a traceback:\n" + fleet.outputs()[-4000:])
    for line in wrong:
        print("NOT ONCE:", line)
    return 1 if wrong else 0


async def main() -> int:
    print(f"{PLAYERS} players, {ROUNDS} rounds of Kill Team, two restarts ({engine_name()})")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with Emulator(min_reaction_time=0.0) as emu, bench_database(tmp) as url:
            code = await run(emu, url)
    print(f"{'every game, standings and the final post exactly once' if code == 0 else 'FAILED'}")
    print(f"time: {time.perf_counter() - started:.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
