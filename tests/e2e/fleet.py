"""Several `muster run` processes sharing one database, each running its own shards, against one
emulator: what the scale-out tests and bench/scale.py start, watch, kill and count.

Each process is started with MUSTER_SHARD_IDS / MUSTER_SHARD_COUNT; the emulator sends a server's
events to the shard `(guild_id >> 22) % shard_count` and every DM to shard 0, so a game's channel
steps and its players' DM steps are handled by different processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from bot.db.models import GameResult, GameSession, OutboxMessage, RenderJob
from bot.db.store import Store
from rules.killteam import KillTeamState, prompt_for
from tests.e2e.conftest import PROCESS_ENV, Muster
from tests.e2e.killteam_driver import KillTeamTable, default_answer
from tests.emulator import BotProcess, DefaultWorld, Emulator, start_bot_process
from tests.emulator.model import Channel, Guild, Message, User

ROOT = Path(__file__).resolve().parents[2]
MUSTER_RUN = (sys.executable, "-m", "bot.cli", "run")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a server's events to."""
    return (guild_id >> 22) % shard_count


def split_shards(shard_count: int, processes: int) -> list[str]:
    """MUSTER_SHARD_IDS for each of `processes` processes sharing `shard_count` shards evenly."""
    if shard_count % processes:
        raise ValueError(f"{shard_count} shards do not split evenly over {processes} processes")
    size = shard_count // processes
    return [f"{i * size}-{(i + 1) * size - 1}" if size > 1 else str(i) for i in range(processes)]


def shard_list(ids: str) -> list[int]:
    low, _, high = ids.partition("-")
    return list(range(int(low), int(high or low) + 1))


def guilds_on_every_shard(emu: Emulator, shard_count: int, prefix: str = "Club") -> list[Guild]:
    """One new server per shard, the i-th on shard i (servers made one after another get ids in
    consecutive milliseconds, so they fall on consecutive shards)."""
    made: dict[int, Guild] = {}
    while len(made) < shard_count:
        guild = emu.add_guild(f"{prefix} {len(emu.guilds)}")
        made.setdefault(shard_of(guild.id, shard_count), guild)
    return [made[shard] for shard in range(shard_count)]


def world_in(emu: Emulator, guild: Guild, alice: User, bob: User, carol: User) -> DefaultWorld:
    """A #games channel in `guild` with the same three people (carol organises), as the default world."""
    channel = emu.add_channel(guild, "games")
    emu.add_member(guild, alice)
    emu.add_member(guild, bob)
    emu.add_member(guild, carol, manage_guild=True)
    return DefaultWorld(guild=guild, channel=channel, alice=alice, bob=bob, carol=carol)


@dataclass
class Fleet:
    """The processes of one deployment: process i runs `shard_ids[i]` of `shard_count` shards."""

    emu: Emulator
    database_url: str
    shard_ids: list[str]
    shard_count: int
    env: Mapping[str, str] = field(default_factory=dict)
    argv: Sequence[str] = MUSTER_RUN
    cwd: Path = ROOT
    processes: dict[int, BotProcess] = field(default_factory=dict)

    def process_env(self, index: int) -> dict[str, str]:
        return {
            "DATABASE_URL": self.database_url,
            "MUSTER_SHARD_IDS": self.shard_ids[index],
            "MUSTER_SHARD_COUNT": str(self.shard_count),
            "LOG_FORMAT": "text",
            **PROCESS_ENV,
            **self.env,
        }

    async def start(self, index: int, ready_timeout: float = 60.0) -> BotProcess:
        process = await start_bot_process(
            self.argv,
            self.emu,
            env=self.process_env(index),
            cwd=self.cwd,
            ready_timeout=ready_timeout,
            shards=shard_list(self.shard_ids[index]),
        )
        self.processes[index] = process
        return process

    async def start_all(self, ready_timeout: float = 60.0) -> list[BotProcess]:
        """Every process at the same moment (as a deployment starts them)."""
        started = await asyncio.gather(
            *(self.start(i, ready_timeout) for i in range(len(self.shard_ids))), return_exceptions=True
        )
        failed = [e for e in started if isinstance(e, BaseException)]
        if failed:
            await self.stop_all()
            raise failed[0]
        return [p for p in started if isinstance(p, BotProcess)]

    async def kill(self, index: int) -> None:
        """SIGKILL: no goodbye, nothing flushed, its leases left behind."""
        process = self.processes[index]
        process.process.kill()
        await process.process.wait()
        await process.stop()  # keeps its output, removes the log file

    def exited(self) -> dict[int, int]:
        """Processes that stopped by themselves: index -> exit code."""
        return {i: p.returncode for i, p in self.processes.items() if p.returncode is not None}

    async def stop_all(self) -> dict[int, int]:
        """SIGTERM every process at once; index -> exit code."""
        indexes = list(self.processes)
        codes = await asyncio.gather(*(self.processes[i].stop() for i in indexes))
        return dict(zip(indexes, codes, strict=True))

    def outputs(self) -> str:
        return "\n".join(f"--- process {i} ---\n{p.output()}" for i, p in self.processes.items())


# ------------------------------------------------------------------ what the database owes


async def owed(store: Store) -> tuple[int, int]:
    """Messages not yet sent (outbox rows not delivered, and steps whose messages are still to be
    rendered into such rows), and confirmed results not yet announced."""
    async with store.read() as db:
        rows = await db.scalar(
            select(func.count()).select_from(OutboxMessage).where(OutboxMessage.delivered_at.is_(None))
        )
        rows = int(rows or 0) + int(await db.scalar(select(func.count()).select_from(RenderJob)) or 0)
        results = await db.scalar(
            select(func.count())
            .select_from(GameResult)
            .where(GameResult.status == "confirmed", GameResult.announced.is_(False))
        )
    return int(rows or 0), int(results or 0)


async def settled(emu: Emulator, store: Store, timeout: float = 30.0, quiet: float = 0.05) -> None:  # noqa: ASYNC109
    """Wait until every process has sent what the database says is owed (outbox rows and result
    announcements) and the bot has made no request for `quiet` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen, last_change = len(emu.requests), loop.time()
    while True:
        if len(emu.requests) != seen:
            seen, last_change = len(emu.requests), loop.time()
        if loop.time() - last_change >= quiet and await owed(store) == (0, 0):
            if len(emu.requests) == seen:
                return
        if loop.time() > deadline:
            raise TimeoutError(
                f"still owed after {timeout:.0f} s (outbox rows, announcements): {await owed(store)}"
            )
        await asyncio.sleep(quiet / 2)


async def table_of(store: Store, emu: Emulator, sid: str) -> Channel:
    """Where game `sid` is played: its thread once the start card made one, else its channel."""
    async with store.read() as db:
        row = await db.get(GameSession, sid)
    assert row is not None, f"no game {sid}"
    return emu.channels[row.thread_id or row.channel_id]


# ------------------------------------------------------------------ what Discord received


@dataclass(frozen=True)
class Posts:
    """The bot's message posts as Discord saw them, by the nonce each carried."""

    by_nonce: dict[str, list[int]]  # nonce -> ids of the messages the posts made (or were answered with)
    requests: Counter[str]  # nonce -> how many POSTs carried it
    without_nonce: int

    def duplicated(self) -> dict[str, list[int]]:
        """Nonces that made more than one message: posted twice."""
        return {n: ids for n, ids in self.by_nonce.items() if len(set(ids)) > 1}

    def resent(self) -> dict[str, int]:
        """Nonces sent more than once (a retry; Discord answers an enforced repeat with the first)."""
        return {n: c for n, c in self.requests.items() if c > 1}


def posts(emu: Emulator) -> Posts:
    by_nonce: dict[str, list[int]] = {}
    requests: Counter[str] = Counter()
    without = 0
    for request in emu.requests_to("POST", r"/channels/\d+/messages"):
        body = request.json if isinstance(request.json, dict) else {}
        nonce = body.get("nonce")
        if nonce is None:
            without += 1
            continue
        requests[str(nonce)] += 1
        if isinstance(request.response, dict) and "id" in request.response:
            by_nonce.setdefault(str(nonce), []).append(int(request.response["id"]))
    return Posts(by_nonce, requests, without)


def same_content_twice(messages: Sequence[Message]) -> list[str]:
    """Texts that two different messages of one channel carry (two posts of one thing)."""
    seen: Counter[tuple[int, str]] = Counter()
    for message in messages:
        first = message.history[0] if message.history else message.snapshot()
        seen[(message.channel.id, f"{first.content}\n{json.dumps(first.embeds, sort_keys=True)}")] += 1
    return [text for (_channel, text), count in seen.items() if count > 1]


# ------------------------------------------------------------------ the Kill Team driver, across processes


class FleetMuster(Muster):
    """The Kill Team driver's view of the bot when it runs as processes: what a game's state is,
    where it is played and when everything is sent are read from the shared database."""

    def __init__(self, emu: Emulator, world: DefaultWorld, database_url: str, store: Store) -> None:
        super().__init__(emu, world, database_url)
        self.store = store
        self.settling = True

    async def settle(self) -> None:
        if self.settling:
            await settled(self.emu, self.store)

    @contextlib.contextmanager
    def unsettled(self) -> Iterator[None]:
        """Answer without waiting for what the answer sends (to kill a process while it sends)."""
        self.settling = False
        try:
            yield
        finally:
            self.settling = True

    async def announced(self) -> None:
        await settled(self.emu, self.store)

    async def table(self, sid: str) -> Channel:
        return await table_of(self.store, self.emu, sid)

    def bots_store(self) -> Store:
        return self.store


class FleetKillTeamTable(KillTeamTable):
    """A Kill Team game driven through the emulator while processes share the work; it notes every
    sealed step answered, so the test can count their reveals."""

    muster: FleetMuster

    def __init__(self, muster: Muster, sid: str) -> None:
        super().__init__(muster, sid)
        self.sealed_steps: set[str] = set()

    async def state(self) -> KillTeamState:
        async with self.muster.store.read() as db:
            row = await db.get(GameSession, self.sid)
        assert row is not None, f"no game {self.sid}"
        return KillTeamState.model_validate_json(row.state)

    async def answer(self, player: int, value: str | list[str] | None = None) -> Any:
        _state, asked = await self.asked(player)
        if asked is not None and asked.sealed:
            self.sealed_steps.add(asked.step)
        return await super().answer(player, value)

    async def step(self) -> bool:
        """Answer one question as `play` would (False: the game is over), so games can take turns."""
        state = await self.state()
        if state.finished:
            return False
        for player in state.players:
            asked = prompt_for(state, player)
            if asked is not None:
                await self.answer(player, default_answer(asked))
                return True
        raise AssertionError(f"nobody is asked anything at {state.stage}")
