"""An event's rounds opening real games: a round of a system Muster runs opens each pairing's game
in its thread (start card pinging both players once), in the publishing transaction; played to its
end, each game's confirmed result comes back into the event by itself, and the standings follow.
Pick (the worked example game) is played through; Kill Team games are opened in their threads."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import GameResult, GameSession
from bot.nights.games import game_cog
from bot.play.games import SessionInfo
from bot.scores.rows import UNRATED_EVENT
from rules.errors import RuleError
from tests.e2e.conftest import Muster
from tests.e2e.event_driver import command, create, enter, posts, the_event
from tests.emulator.model import Message, User


def players(muster: Muster, count: int) -> list[User]:
    made = [muster.emu.add_user(f"gamer{n}", global_name=f"Gamer {n}") for n in range(count)]
    for user in made:
        muster.emu.add_member(muster.world.guild, user)
    return made


@pytest.fixture
async def pick(muster: Muster) -> Muster:
    muster.extra_cogs.append("cogs.pick")
    await muster.restart()
    return muster


async def round_sessions(muster: Muster, tag: str) -> list[SessionInfo]:
    """The games a round opened (tagged with the round, as a night's games carry their night)."""
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        ids = list(await db.scalars(select(GameSession.id).where(GameSession.night_id == tag)))
    return [(await muster.bot.sessions.load(sid, fresh=True))[0] for sid in ids]


def prompt_of(muster: Muster, user: User) -> Message:
    return next(m for m in reversed(muster.emu.dms(user)) if m.buttons())


@pytest.mark.parametrize("rated", [True, False], ids=["rated", "unrated"])
async def test_a_round_of_pick_games_is_played_in_muster_and_scored(pick: Muster, rated: bool) -> None:
    """Rated, the games' results count in the scores; unrated, they are filed void (out of every
    rating and leaderboard) and still come back into the event."""
    emu, w, bot = pick.emu, pick.world, pick.bot
    assert bot is not None
    field = players(pick, 4)
    assert "is made" in await create(pick, system="pick", rounds=1, unrated=not rated)
    for user in field:
        await enter(pick, user)
    await command(pick, w.carol, "close-lists")
    assert "Round 1" in await command(pick, w.carol, "publish")
    state = await the_event(pick)
    games = state.round_games()
    sessions = await round_sessions(pick, f"event:{state.event_id}:1")
    assert len(games) == 2 and len(sessions) == 2 and len(emu.threads(w.channel)) == 2
    assert {frozenset(s.players) for s in sessions} == {frozenset(g.players) for g in games}
    assert all(s.thread_id is not None for s in sessions)
    assert "without a result" in await command(pick, w.carol, "publish")  # nothing opened twice
    assert len(emu.threads(w.channel)) == 2

    for game in games:
        assert game.second is not None
        await (
            await emu.click(emu.users[game.first], prompt_of(pick, emu.users[game.first]), label="3")
        ).response()
        await (
            await emu.click(emu.users[game.second], prompt_of(pick, emu.users[game.second]), label="1")
        ).response()
    await pick.announced()
    cog = bot.get_cog("Event")
    await cog.sweep()  # type: ignore[union-attr]
    await pick.settle()
    state = await the_event(pick)
    assert all(g.reported for g in state.round_games())
    assert [(g.first_vp, g.second_vp) for g in state.round_games()] == [(3, 1), (3, 1)]
    [standings] = posts(pick, "standings after round 1")
    text = str(standings.embeds[0].get("description"))
    for game in games:
        assert f"<@{game.first}> · 1-0-0 · **3**" in text and f"<@{game.second}> · 0-0-1 · **0**" in text
    async with bot.store.read() as db:
        filed = list(
            await db.scalars(select(GameResult).where(GameResult.night_id == f"event:{state.event_id}:1"))
        )
    assert len(filed) == 2
    if rated:
        assert all(r.status == "confirmed" and r.note is None for r in filed)
    else:
        assert all(r.status == "void" and r.note == UNRATED_EVENT for r in filed)
    _book, counted = await bot.scores.results.book(w.guild.id)  # what the ratings are made of
    assert len(counted) == (2 if rated else 0)


async def test_a_kill_team_round_opens_its_games_in_threads(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu, w, bot = muster.emu, muster.world, muster.bot
    assert bot is not None
    field = players(muster, 4)
    assert "is made" in await create(muster, system="Kill Team", rounds=2)
    for user in field:
        await enter(muster, user)
    await command(muster, w.carol, "close-lists")

    # The publish fails after its first game opened: the whole transaction goes, nothing is left.
    cog = game_cog(bot, "killteam")
    assert cog is not None
    opened = cog.open_between
    calls = 0

    async def second_fails(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuleError(code="event.busy")
        return await opened(*args, **kwargs)

    monkeypatch.setattr(cog, "open_between", second_fails)
    assert "very busy" in await command(muster, w.carol, "publish")
    monkeypatch.undo()
    assert (await the_event(muster)).round_number == 0 and emu.threads(w.channel) == []
    assert await round_sessions(muster, f"event:{(await the_event(muster)).event_id}:1") == []

    assert "Round 1" in await command(muster, w.carol, "publish")
    state = await the_event(muster)
    threads = emu.threads(w.channel)
    assert len(threads) == 2
    sessions = {frozenset(s.players): s for s in await round_sessions(muster, f"event:{state.event_id}:1")}
    for game in state.round_games():
        info = sessions[frozenset(game.players)]
        assert info.system == "killteam" and info.thread_id is not None
        starts = [m for m in emu.messages(w.channel) if m.content == f"<@{game.first}> <@{game.second}>"]
        assert len(starts) == 1 and starts[0].thread is not None  # one ping each, its thread opened
