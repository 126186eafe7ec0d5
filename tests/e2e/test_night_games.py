"""A game night's pairings opening their games, through the emulator: each game of a system Muster
runs gets its start card (pinging both players once), its thread, board and first questions, all
inside the caller's transaction (rolled back: nothing at all); opened again for the same night,
nothing new; killed mid-delivery, every message still posted once; finished, its result carries
the night, and `night_games` reports who played whom, how it ended and the rating changes."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from sqlalchemy import func, select

from bot.app import MusterBot
from bot.db.models import GameResult, GameSession, OutboxMessage
from bot.migrate import upgrade
from bot.nights.games import night_games, open_pairing_games
from bot.play.table import waited_for
from bot.scores.layout import format_change
from tests.e2e.conftest import PROCESS_ENV, Muster
from tests.e2e.night_driver import create, sign_up, the_night
from tests.e2e.table_counts import count_table
from tests.e2e.test_delivery import all_delivered, outbox
from tests.emulator import (
    Channel,
    DefaultWorld,
    Emulator,
    Message,
    User,
    discord_globals_restored,
    start_bot_process,
)

ROOT = Path(__file__).resolve().parents[2]
ARGV = [sys.executable, "-m", "bot.cli", "run"]


class Pairing(BaseModel):
    """A stand-in for `rules.night.models.Pairing`: what opening a game reads of one."""

    system: str
    players: list[int]
    table_id: str | None = None


def players(emu: Emulator, world: DefaultWorld, count: int) -> list[User]:
    made = [emu.add_user(f"player{n}", global_name=f"Player {n}") for n in range(count)]
    for user in made:
        emu.add_member(world.guild, user)
    return made


async def publish(muster: Muster, night_id: str, pairings: list[Pairing], **extra: Any) -> dict[int, str]:
    """What publishing a night does with its games: open them in its own transaction."""
    bot = muster.bot
    assert bot is not None
    w = muster.world
    async with bot.store.write() as db:
        return await open_pairing_games(
            bot,
            db,
            guild_id=w.guild.id,
            channel_id=w.channel.id,
            night_id=night_id,
            pairings=pairings,
            **extra,
        )


def cards(emu: Emulator, channel: Channel) -> list[Message]:
    return [m for m in emu.messages(channel) if m.author.bot and m.interaction_id is None and m.embeds]


async def outbox_count(muster: Muster) -> int:
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        return int(await db.scalar(select(func.count()).select_from(OutboxMessage)) or 0)


# ---------------------------------------------------------------- opening


async def test_each_pairing_of_a_muster_system_opens_its_game_in_its_thread(muster: Muster) -> None:
    emu, w, bot = muster.emu, muster.world, muster.bot
    assert bot is not None
    p = players(emu, w, 10)
    pairings = [
        Pairing(system="killteam", players=[p[0].id, p[1].id], table_id="kz-1"),
        Pairing(system="warcry", players=[p[2].id, p[3].id], table_id="board-2"),
        Pairing(system="chess", players=[p[4].id, p[5].id], table_id="side"),  # not a game Muster runs
        Pairing(system="warmaster", players=[p[6].id, p[7].id]),
        Pairing(system="40k", players=[p[8].id, p[9].id]),  # a registered alias of the 40K game
        Pairing(system="warcry", players=[p[4].id, p[4].id]),  # not two players
    ]
    opened = await publish(muster, "night-1", pairings, names={p[2].id: "Ada", p[3].id: "Brin"})
    assert sorted(opened) == [0, 1, 3, 4]
    await muster.settle()

    shown = cards(emu, w.channel)
    assert len(shown) == 4 and len(emu.threads(w.channel)) == 4
    for index in sorted(opened):  # the games' lanes go out side by side: cards in any order
        first, second = pairings[index].players
        [card] = [c for c in shown if c.content == f"<@{first}> <@{second}>"]
        info, state = await bot.sessions.load(opened[index], fresh=True)
        assert card.thread is not None
        assert info.night_id == "night-1" and info.thread_id == card.thread.id
        assert set(card.thread.member_ids) >= {first, second}
        assert card.content == f"<@{first}> <@{second}>"  # the one ping of the opening
        thread_posts = emu.messages(card.thread)
        assert thread_posts and thread_posts[0].embeds  # the board
        adapter = bot.games.get(info.system)
        asked = waited_for(adapter.procedure, state)
        assert asked  # the game waits on its first question, asked where it belongs
        for player, question in asked:  # in the thread, or a prompt (the game's own words) in DMs
            if question.private:
                assert any(list(m.walk_components()) for m in emu.dms(emu.users[player]))
            else:
                assert any(
                    str(question.title) in m.all_text() and list(m.walk_components()) for m in thread_posts
                )
        counts = count_table(emu, w.channel, card.thread, [emu.users[first], emu.users[second]])
        assert counts.pings == {first: 1, second: 1}, counts.line()
    assert "Warcry · Ada vs Brin" in [t.name for t in emu.threads(w.channel)]

    # Each game has the defaults a club uses when nobody typed options.
    killteam = (await bot.sessions.load(opened[0]))[1]
    assert (killteam.mission_method, killteam.tacops_method) == ("random", "free")
    warcry = (await bot.sessions.load(opened[1]))[1]
    assert warcry.kind == "matched" and warcry.label_of(p[2].id) == "Ada"
    warmaster = (await bot.sessions.load(opened[3]))[1]
    assert [side.hand_size.points for side in warmaster.sides] == [2000, 2000]
    fortyk = (await bot.sessions.load(opened[4]))[1]
    assert fortyk.mission.key == "marked-for-death"
    async with bot.store.read() as db:
        systems = set(await db.scalars(select(GameSession.system).where(GameSession.night_id == "night-1")))
    assert systems == {"killteam", "warcry", "warmaster", "fortyk"}  # nothing for chess


async def test_publishing_a_night_names_each_game_after_its_players(muster: Muster) -> None:
    """As `/warcry battle` does: the board and each thread carry the players' display names."""
    emu, w, bot = muster.emu, muster.world, muster.bot
    assert bot is not None
    named = [emu.add_user(name.lower(), global_name=name) for name in ("Ada", "Brin", "Cid", "Dee")]
    for user in named:
        emu.add_member(w.guild, user)
    await create(muster, systems="Warcry, Kill Team", title="Club night")
    for user, system in zip(named, ("Warcry", "Warcry", "Kill Team", "Kill Team"), strict=True):
        await sign_up(muster, user, system)
    await (await emu.slash(w.carol, w.channel, "night pair")).settled()
    bot = await muster.restart()  # no names remembered from the sign-ups: they are fetched
    await (await emu.slash(w.carol, w.channel, "night publish")).settled()
    await muster.settle()
    _info, state = await the_night(muster)
    assert state.status == "published" and state.result is not None
    assert sorted(t.name for t in emu.threads(w.channel)) == [
        "Kill Team · Cid vs Dee",
        "Warcry · Ada vs Brin",
    ]
    [warcry] = [pr for pr in state.result.pairings if pr.system == "warcry"]
    assert warcry.session_id is not None
    _sinfo, battle = await bot.sessions.load(warcry.session_id, fresh=True)
    first, second = battle.players
    assert {battle.label_of(first), battle.label_of(second)} == {"Ada", "Brin"}
    [thread] = [t for t in emu.threads(w.channel) if t.name.startswith("Warcry")]
    assert any(
        e.get("title") in ("Warcry: Ada vs Brin", "Warcry: Brin vs Ada")
        for e in emu.messages(thread)[0].embeds
    )


async def test_opening_a_nights_games_again_opens_nothing_new(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    p = players(emu, w, 4)
    pairings = [
        Pairing(system="killteam", players=[p[0].id, p[1].id]),
        Pairing(system="warcry", players=[p[2].id, p[3].id]),
    ]
    opened = await publish(muster, "night-2", pairings)
    await muster.settle()
    rows = await outbox_count(muster)

    again = await publish(muster, "night-2", [pairings[1], pairings[0]])  # a publish run once more
    await muster.settle()
    assert again == {0: opened[1], 1: opened[0]}
    assert await outbox_count(muster) == rows and len(cards(emu, w.channel)) == 2
    other_night = await publish(muster, "night-3", pairings[:1])  # another night: a game of its own
    assert other_night[0] not in opened.values()


async def test_a_publish_rolled_back_leaves_no_game_and_says_nothing(muster: Muster) -> None:
    emu, w, bot = muster.emu, muster.world, muster.bot
    assert bot is not None
    p = players(emu, w, 2)
    rows = await outbox_count(muster)
    with pytest.raises(RuntimeError, match="the night could not be published"):
        async with bot.store.write() as db:
            await open_pairing_games(
                bot,
                db,
                guild_id=w.guild.id,
                channel_id=w.channel.id,
                night_id="night-4",
                pairings=[Pairing(system="warcry", players=[p[0].id, p[1].id])],
            )
            raise RuntimeError("the night could not be published")
    await muster.settle()
    async with bot.store.read() as db:
        assert await db.scalar(select(func.count()).select_from(GameSession)) == 0
    assert await outbox_count(muster) == rows and not emu.messages(w.channel)


async def test_a_pack_that_no_longer_reads_is_told_once_in_the_publishing_transaction(
    muster: Muster,
) -> None:
    """The server's pack is read inside the publishing transaction: a broken one falls back to the
    shipped cards and the notice is queued in that transaction (no second writer waited on)."""
    emu, w, bot = muster.emu, muster.world, muster.bot
    assert bot is not None
    await bot.packs.save(w.guild.id, "warcry", "battleplans: [[[", w.carol.id)
    p = players(emu, w, 4)
    pairings = [
        Pairing(system="warcry", players=[p[0].id, p[1].id]),
        Pairing(system="warcry", players=[p[2].id, p[3].id]),
    ]
    opened = await asyncio.wait_for(publish(muster, "night-5", pairings), timeout=10)
    await muster.settle()
    assert len(opened) == 2 and len(emu.threads(w.channel)) == 2
    told = [m for m in emu.messages(w.channel) if "can't be read any more" in m.content]
    assert len(told) == 1


# ---------------------------------------------------------------- results and the summary


@pytest.fixture
async def pick(muster: Muster) -> Muster:
    muster.extra_cogs.append("cogs.pick")
    await muster.restart()
    return muster


def prompt_of(emu: Emulator, user: User) -> Message:
    return next(m for m in emu.dms(user) if m.buttons())


async def test_a_finished_night_game_carries_the_night_onto_its_result_and_the_summary(pick: Muster) -> None:
    emu, w, bot = pick.emu, pick.world, pick.bot
    assert bot is not None
    p = players(emu, w, 4)
    opened = await publish(
        pick,
        "night-6",
        [
            Pairing(system="pick", players=[w.alice.id, w.bob.id]),
            Pairing(system="pick", players=[p[0].id, p[1].id]),
            Pairing(system="pick", players=[p[2].id, p[3].id]),
        ],
        organiser_id=w.carol.id,
    )
    await pick.settle()
    await (await emu.click(w.alice, prompt_of(emu, w.alice), label="3")).response()
    await (await emu.click(w.bob, prompt_of(emu, w.bob), label="1")).response()
    await bot.sessions.cancel(opened[2], w.carol.id, may_manage=False)  # the night's organiser may
    await pick.announced()

    async with bot.store.read() as db:
        result = await db.scalar(select(GameResult).where(GameResult.session_id == opened[0]))
    assert result is not None and result.night_id == "night-6"

    scores = bot.get_cog("Scores")
    assert scores is not None
    summary = await night_games(bot.store, "night-6", results=scores.service.results)  # type: ignore[attr-defined]
    assert summary == await night_games(bot.store, "night-6")  # the same numbers from a fresh replay
    finished, unfinished, cancelled = summary
    assert [g.session_id for g in summary] == [opened[0], opened[1], opened[2]]
    assert (finished.status, finished.players, finished.winner) == (
        "finished",
        (w.alice.id, w.bob.id),
        w.alice.id,
    )
    assert finished.scores == {w.alice.id: 3, w.bob.id: 1} and finished.result_status == "confirmed"
    assert [c.player for c in finished.rating_changes] == [w.alice.id, w.bob.id]
    assert finished.rating_changes[0].delta > 0
    announced = [m for m in emu.messages(w.channel) if "Pick result" in m.embed_text()]
    assert len(announced) == 1
    for change in finished.rating_changes:
        assert f"<@{change.player}> {format_change(change)}" in announced[0].embed_text()
    assert (unfinished.status, unfinished.result_id, unfinished.scores) == ("open", None, {})
    assert (cancelled.status, cancelled.winner, cancelled.rating_changes) == ("cancelled", None, [])
    assert await night_games(bot.store, "no-such-night") == []


# ---------------------------------------------------------------- a crash while delivering


async def open_without_gateway(muster: Muster, pairings: list[Pairing]) -> dict[int, str]:
    """Open a night's games on the bot's database from a process with no gateway session (the
    publishing one, say): the bot process started afterwards delivers them."""
    with discord_globals_restored():
        bot = MusterBot(muster.settings(), cogs=("cogs.killteam", "cogs.warcry"))
        try:
            await upgrade(bot.store.engine)
            for name in bot.cog_names:
                await bot.load_extension(name)
            async with bot.store.write() as db:
                return await open_pairing_games(
                    bot,
                    db,
                    guild_id=muster.world.guild.id,
                    channel_id=muster.world.channel.id,
                    night_id="night-7",
                    pairings=pairings,
                )
        finally:
            await bot.store.close()


def made_by_rows(db_path: Path, emu: Emulator) -> Counter[int]:
    """How many messages the outbox's rows make, by channel: a keyed row makes one the first time
    its session uses the key (later ones edit it), an edit-only row none."""
    with sqlite3.connect(db_path) as db:
        tables = {
            sid: thread or channel
            for sid, thread, channel in db.execute("SELECT id, thread_id, channel_id FROM game_sessions")
        }
        sessions = dict(db.execute("SELECT id, session_id FROM outbox").fetchall())
    made: Counter[int] = Counter()
    keys: set[tuple[str | None, str]] = set()
    for rid, message, _done in outbox(db_path):
        if message.key is not None:
            if (sessions[rid], message.key) in keys or message.edit_only:
                continue
            keys.add((sessions[rid], message.key))
        if message.to == "dm" and message.user_id is not None:
            made[emu.dm_channel(emu.users[message.user_id]).id] += 1
        else:
            made[message.channel_id or tables[sessions[rid]]] += 1
    return made


async def test_killed_while_posting_a_nights_game_board_every_message_is_posted_once(
    emu: Emulator, world: DefaultWorld, tmp_path: Path
) -> None:
    db_path = tmp_path / "night.sqlite3"
    url = f"sqlite+aiosqlite:///{db_path}"
    p = players(emu, world, 4)
    pairings = [
        Pairing(system="killteam", players=[p[0].id, p[1].id]),
        Pairing(system="warcry", players=[p[2].id, p[3].id]),
    ]
    opened = await open_without_gateway(Muster(emu, world, url), pairings)
    assert sorted(opened) == [0, 1]

    env = {"DATABASE_URL": url, "LOG_FORMAT": "text", **PROCESS_ENV}
    # The first post in a game's thread (its board) is stored by Discord, but its answer never comes.
    in_threads = rf"/channels/(?!{world.channel.id}/)\d+/messages"
    held = emu.inject("POST", in_threads, status=None, delay_after=60)
    process = await start_bot_process(ARGV, emu, env=env, cwd=ROOT)
    try:

        def one_held_the_other_going() -> bool:
            """One game's board held (stored, unanswered), the other game going on in its thread."""
            posts = sorted(len(emu.messages(t)) for t in emu.threads(world.channel))
            return held.hits == 1 and len(posts) == 2 and posts[0] == 1 and posts[1] > 1

        await emu.wait_until(one_held_the_other_going, 20, "one game's board to be held")
        [board] = [emu.messages(t)[0] for t in emu.threads(world.channel) if len(emu.messages(t)) == 1]
        [nonce] = [r.json["nonce"] for r in emu.requests_to("POST", in_threads) if r.status == 0]
    finally:
        process.process.kill()  # dies between posting the board and recording it
        await process.process.wait()
    assert not all_delivered(db_path)

    again = await start_bot_process(ARGV, emu, env=env, cwd=ROOT)
    try:
        await emu.wait_until(lambda: all_delivered(db_path), 20, "the outbox after the restart")
    finally:
        assert await again.stop() == 0, again.output()
    resent = [r for r in emu.requests_to("POST", in_threads) if r.json["nonce"] == nonce]
    assert len(resent) == 2 and resent[1].response["id"] == str(board.id)  # the same board given back
    assert len(cards(emu, world.channel)) == 2 and len(emu.threads(world.channel)) == 2
    with sqlite3.connect(db_path) as db:  # remembered, so later steps edit it in place
        remembered = {m for (m,) in db.execute("SELECT message_id FROM session_messages WHERE key = 'board'")}
    assert board.id in remembered
    posted: Counter[int] = Counter()
    for channel in [world.channel, *emu.threads(world.channel), *(emu.dm_channel(u) for u in p)]:
        posted[channel.id] = sum(1 for m in emu.messages(channel) if m.interaction_id is None and m.type == 0)
    made = made_by_rows(db_path, emu)
    assert +posted == +made  # every row's message once, where it belongs, and nothing else
