"""Muster as several processes on one PostgreSQL database, each running its own shards.

Start-up races (migrations, command sync), and Kill Team games whose channel steps and sealed DM
steps are handled by different processes while one of them is killed and started again.
These run on PostgreSQL only (skipped unless MUSTER_TEST_DATABASE_URL names a server), but for a
smoke test of two processes sharing one SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import time
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import select

from bot.db.models import GameResult
from bot.db.store import Store
from rules.killteam import KillTeamState, prompt_for
from rules.session import Question
from tests.databases import POSTGRES_URL, _dsn, fresh_postgres
from tests.e2e.fleet import (
    ROOT,
    Fleet,
    FleetKillTeamTable,
    FleetMuster,
    guilds_on_every_shard,
    posts,
    same_content_twice,
    settled,
    world_in,
)
from tests.emulator import DefaultWorld, Emulator
from tests.emulator.model import Channel, Message, User

needs_postgres = pytest.mark.skipif(POSTGRES_URL is None, reason="MUSTER_TEST_DATABASE_URL is not set")

START_ROUNDS = 10


async def _one_start_up(round_no: int, serving: asyncio.Event) -> float:
    """Three processes (shards 0, 1 and 2 of 3) started together on a fresh database; `serving` is
    set once they all serve, so the next round starts while this one shuts down."""
    async with fresh_postgres() as url, Emulator(shard_count=3) as emu:
        guilds_on_every_shard(emu, 3)
        fleet = Fleet(emu, url, ["0", "1", "2"], 3)
        began = time.perf_counter()
        try:
            await fleet.start_all()
            took = time.perf_counter() - began
            await emu.wait_commands_synced(["killteam", "scores"], timeout=20)
            await asyncio.sleep(0.2)  # a process that fails after connecting has done so by now
            assert not fleet.exited(), f"round {round_no}: exited {fleet.exited()}\n{fleet.outputs()}"
            assert emu.gateway.all_shards_live()
            assert len(emu.sync_requests()) == 1, f"round {round_no}: {emu.sync_requests()}"
        finally:
            serving.set()
            codes = await fleet.stop_all()
        assert set(codes.values()) == {0}, f"round {round_no}: {codes}\n{fleet.outputs()}"
        assert "Traceback" not in fleet.outputs(), fleet.outputs()
        return took


@needs_postgres
async def test_three_processes_started_at_once_on_a_fresh_database_all_serve_and_sync_once() -> None:
    rounds: list[asyncio.Task[float]] = []
    began = time.perf_counter()
    for i in range(START_ROUNDS):
        serving = asyncio.Event()
        rounds.append(asyncio.create_task(_one_start_up(i, serving)))
        await asyncio.wait({rounds[-1], asyncio.create_task(serving.wait())}, return_when="FIRST_COMPLETED")
        if rounds[-1].done() and rounds[-1].exception() is not None:
            break
    took = await asyncio.gather(*rounds)
    print(
        f"{START_ROUNDS} start-ups of three processes in {time.perf_counter() - began:.0f} s; "
        f"each {min(took):.1f} to {max(took):.1f} s until every shard served"
    )


@needs_postgres
async def test_three_migrations_at_once_on_a_fresh_database_all_succeed() -> None:
    async with fresh_postgres() as url:
        env = {"DATABASE_URL": url, "LOG_FORMAT": "text"}
        runs = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.cli",
                "migrate",
                env={**os.environ, **env},
                cwd=ROOT,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            for _ in range(3)
        ]
        outputs = await asyncio.gather(*(run.communicate() for run in runs))
        for run, (out, _err) in zip(runs, outputs, strict=True):
            assert run.returncode == 0, out.decode()
            assert b"up to date" in out
        connection = await asyncpg.connect(_dsn(url))
        try:
            versions = await connection.fetch("SELECT version_num FROM alembic_version")
        finally:
            await connection.close()
        assert len(versions) == 1


# ------------------------------------------------------------------ games across processes


def _reveals(emu: Emulator, channel: Channel) -> list[str]:
    """The reveals posted in full in a game's thread (with what /verify needs), as first posted."""
    found = []
    for message in emu.messages(channel):
        first = message.history[0] if message.history else message.snapshot()
        text = "\n".join([first.content, *(json.dumps(e) for e in first.embeds)])
        if "Revealed, the" in text and "/verify" in text:
            found.append(text)
    return found


def _sealed_notes(emu: Emulator, channel: Channel) -> list[Message]:
    return [m for m in emu.messages(channel) if "has sealed" in m.all_text()]


def _mentions(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"<@(\d+)>", text)]


async def _leaderboard(emu: Emulator, world: DefaultWorld, who: User, system: str) -> str:
    """`/scores leaderboard` asked in the server's #games: answered by the process of its shard."""
    record = await emu.slash(who, world.channel, "scores leaderboard", system=system)
    return (await record.response(timeout=10)).text()


async def _records(store: Store, guild_id: int, system: str) -> dict[int, tuple[int, int, int]]:
    """Each player's confirmed wins, draws and losses in one server, as the database has them."""
    async with store.read() as db:
        rows = await db.scalars(
            select(GameResult).where(
                GameResult.guild_id == guild_id, GameResult.status == "confirmed", GameResult.system == system
            )
        )
        table: dict[int, list[int]] = {}
        for row in rows:
            for player in (row.player_a, row.player_b):
                tally = table.setdefault(player, [0, 0, 0])
                tally[1 if row.winner_id is None else 0 if row.winner_id == player else 2] += 1
    return {p: (w, d, lost) for p, (w, d, lost) in table.items()}


@needs_postgres
async def test_games_on_two_shards_survive_a_killed_process_and_post_everything_once() -> None:
    async with fresh_postgres() as url, Emulator(shard_count=3) as emu:
        alice, bob, carol = (emu.add_user(n, global_name=n.capitalize()) for n in ("alice", "bob", "carol"))
        guilds = guilds_on_every_shard(emu, 3)
        east, west = world_in(emu, guilds[1], alice, bob, carol), world_in(emu, guilds[2], alice, bob, carol)
        fleet = Fleet(
            emu, url, ["0", "1", "2"], 3, env={"SWEEP_SECONDS": "0.5", "MUSTER_OUTBOX_LEASE_SECONDS": "3"}
        )
        store = Store.from_url(url)
        try:
            await fleet.start_all()
            await emu.wait_commands_synced(["killteam", "scores"], timeout=20)
            hosts = {w.guild.id: FleetMuster(emu, w, url, store) for w in (east, west)}
            a = await FleetKillTeamTable.open(hosts[east.guild.id], "bid", "free")  # shard 1
            b = await FleetKillTeamTable.open(hosts[west.guild.id], "bid", "free")  # shard 2
            assert isinstance(a, FleetKillTeamTable) and isinstance(b, FleetKillTeamTable)
            assert a.channel.guild_id == east.guild.id and b.channel.guild_id == west.guild.id

            # Game B past its sealed mission bids (DMs: process 0), to the winner's pick in its thread.
            await b.answer(alice.id, "2")
            await b.answer(bob.id, "1")
            assert (await b.state()).stage != "bid_mission"

            # A result recorded in the east (process 1), the board asked there before and after the
            # opponent confirms it from a DM (process 0): the east's board must follow.
            before = await _leaderboard(emu, east, carol, "warcry")
            assert "No confirmed games yet" in before
            recorded = await emu.slash(
                alice,
                east.channel,
                "scores record",
                opponent=bob,
                system="warcry",
                my_score=20,
                their_score=15,
            )
            assert "pending" in (await recorded.response(timeout=10)).content
            await settled(emu, store)
            confirm = [m for m in emu.dms(bob) if any(b.get("label") == "Confirm" for b in m.buttons())][-1]
            done = await (await emu.click(bob, confirm, label="Confirm")).response(timeout=10)
            assert "Confirmed" in done.content
            await settled(emu, store)
            after = await _leaderboard(emu, east, carol, "warcry")
            assert _mentions(after) == [alice.id, bob.id], after

            # Game A: Alice seals by DM (process 0), whose post of it in the east's thread takes
            # effect but is answered late: the process dies meanwhile, never learning it was sent.
            emu.inject("*", rf"/channels/{a.channel.id}/messages(/\d+)?", status=None, delay_after=30.0)
            with a.muster.unsettled():
                sealed = await a.answer(alice.id, "3")
            # answered by her DM prompt redrawn, sealed (bot/play/in_place.py)
            assert sealed.type_name == "UPDATE_MESSAGE" and "You sealed" in sealed.message.all_text()
            await emu.wait_until(lambda: _sealed_notes(emu, a.channel), 10, "the seal's note in the thread")
            await fleet.kill(0)
            emu.clear_faults()
            # Its lease runs out and another process sends the edit it owed again (an edit carries no
            # nonce: sent twice, it changes nothing the second time).
            await settled(emu, store)
            assert len(_sealed_notes(emu, a.channel)) == 1
            (cut,) = [r for r in emu.requests if r.status == 0 and str(a.channel.id) in r.path]
            again = [
                r for r in emu.requests if (r.method, r.path, r.json) == (cut.method, cut.path, cut.json)
            ]
            assert len(again) == 2 and again[1].status in (200, 201), again  # sent again, by another process
            # Meanwhile the west's process goes on with game B's channel steps.
            state = await b.play(until=lambda s: any(q.sealed for q in _asked(s)))
            assert not state.finished
            await fleet.start(0)
            await a.answer(bob.id, "1")
            assert len(_reveals(emu, a.channel)) == 1

            # Both games to the end, their steps interleaved across the three processes.
            while await a.step() | await b.step():
                pass
            await settled(emu, store)

            assert not fleet.exited(), f"exited: {fleet.exited()}\n{fleet.outputs()}"
            assert len(emu.sync_requests()) == 1, emu.sync_requests()
            boards = []
            for table, world in ((a, east), (b, west)):
                assert (await table.state()).finished
                async with store.read() as db:
                    result = await db.scalar(select(GameResult).where(GameResult.session_id == table.sid))
                assert result is not None and result.status == "confirmed" and result.announced
                reveals = _reveals(emu, table.channel)
                assert len(reveals) == len(set(reveals)) == len(table.sealed_steps), (
                    table.sealed_steps,
                    reveals,
                )
                board = await _leaderboard(emu, world, carol, "killteam")
                records = await _records(store, world.guild.id, "killteam")
                assert sorted(_mentions(board)) == sorted(records), board
                for wins, draws, losses in records.values():
                    assert f"{wins}-{draws}-{losses}" in board, board
                boards.append(board)
            if await _records(store, east.guild.id, "killteam") == await _records(
                store, west.guild.id, "killteam"
            ):
                assert boards[0] == boards[1]  # the same games, the same board, whichever process asks
            sent = posts(emu)
            assert not sent.duplicated(), sent.duplicated()
            everything = [
                m
                for channel in emu.channels.values()
                for m in emu.messages(channel)
                if m.author.id == emu.bot_user.id
            ]
            assert not same_content_twice(everything), same_content_twice(everything)
            print(
                f"{len(everything)} messages posted; {sent.without_nonce} posts without a nonce; "
                f"sent again with the same nonce: {sent.resent()}"
            )
        finally:
            codes = await fleet.stop_all()
            await store.close()
        assert set(codes.values()) <= {0, -9}, codes
        assert "Traceback" not in fleet.outputs(), fleet.outputs()


async def test_two_processes_sharing_one_sqlite_file_play_a_game_between_them(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.sqlite3'}"
    async with Emulator(shard_count=2) as emu:
        alice, bob, carol = (emu.add_user(n, global_name=n.capitalize()) for n in ("alice", "bob", "carol"))
        world = world_in(emu, guilds_on_every_shard(emu, 2)[1], alice, bob, carol)
        fleet = Fleet(emu, url, ["0", "1"], 2, env={"SWEEP_SECONDS": "0.5"})
        store = Store.from_url(url)
        try:
            await fleet.start_all()
            await emu.wait_commands_synced(["killteam"], timeout=20)
            game = await FleetKillTeamTable.open(FleetMuster(emu, world, url, store), "bid", "free")
            assert isinstance(game, FleetKillTeamTable)
            while await game.step():  # sealed bids by DM on shard 0, the rest in the thread on shard 1
                pass
            await settled(emu, store)
            reveals = _reveals(emu, game.channel)
            assert len(reveals) == len(set(reveals)) == len(game.sealed_steps) > 0
            async with store.read() as db:
                result = await db.scalar(select(GameResult).where(GameResult.session_id == game.sid))
            assert result is not None and result.status == "confirmed" and result.announced
            assert not posts(emu).duplicated()
            assert len(emu.sync_requests()) == 1
            assert not fleet.exited(), fleet.outputs()
        finally:
            codes = await fleet.stop_all()
            await store.close()
        assert set(codes.values()) == {0}, fleet.outputs()
        assert "Traceback" not in fleet.outputs(), fleet.outputs()


def _asked(state: KillTeamState) -> list[Question]:
    return [q for p in state.players if (q := prompt_for(state, p)) is not None]
