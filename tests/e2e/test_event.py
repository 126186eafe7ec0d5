"""A whole event through the emulator: 13 players (so byes happen), 3 Swiss rounds of a system
Muster doesn't run (results by `/event result`), sealed lists with one rejected and sent again,
a drop after round 1, a late result entered by the organiser, a restart while round 2 is being
published; the standings posted after each round equal a hand computation, every revealed list's
commitment verifies. Then the refusals: a list too long, a list after the deadline, a result for a
game not in the round, a player's organiser command, each changing nothing."""

from __future__ import annotations

import hashlib
import re

from sqlalchemy import select

from bot.db.models import GameResult
from rules.event.state import EventState
from rules.sealed import verify
from tests.e2e.conftest import Muster
from tests.e2e.event_driver import PROOF, command, create, enter, hand_standings, posts, the_event
from tests.emulator.model import User


def players(muster: Muster, count: int) -> list[User]:
    made = [muster.emu.add_user(f"gamer{n}", global_name=f"Gamer {n}") for n in range(count)]
    for user in made:
        muster.emu.add_member(muster.world.guild, user)
    return made


def vps(first: int, second: int, round_number: int) -> tuple[int, int]:
    """The score of a game, fixed by who played (so a draw happens now and then)."""
    a = (first * 7 + round_number * 3) % 11
    b = (second * 5 + round_number) % 11
    return a, b


async def filed_results(muster: Muster, tag: str) -> list[tuple[int, int, int, int]]:
    """The confirmed results the scores hold for a round (players and scores, in table order)."""
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        rows = await db.scalars(
            select(GameResult).where(GameResult.night_id == tag, GameResult.status == "confirmed")
        )
        return [(r.player_a, r.player_b, r.score_a, r.score_b) for r in rows]


def standings_post(muster: Muster, title: str) -> list[str]:
    [post] = posts(muster, title)
    text = str(post.embeds[0].get("description", ""))
    return text.split("\n")[1:]  # below the heading


async def play_round(
    muster: Muster, state: EventState, by_id: dict[int, User], late: bool = False
) -> list[tuple[int, int | None, int, int]]:
    """Report every game of the round (each player, in turn); with `late`, one game's second report
    never comes and the organiser enters it. The results as played."""
    results: list[tuple[int, int | None, int, int]] = []
    games = state.round_games()
    for index, game in enumerate(games):
        if game.second is None:
            results.append((game.first, None, 0, 0))
            continue
        a, b = vps(game.first, game.second, game.round)
        first, second = by_id[game.first], by_id[game.second]
        said = await command(muster, first, "result", opponent=second, your_vp=a, their_vp=b)
        assert "Reported" in said, said
        if late and index == 0:
            said = await command(
                muster, muster.world.carol, "result", opponent=second, your_vp=a, their_vp=b, player=first
            )
        else:
            said = await command(muster, second, "result", opponent=first, your_vp=b, their_vp=a)
        assert "recorded" in said, said
        results.append((game.first, game.second, a, b))
    return results


async def test_a_thirteen_player_event_end_to_end(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    field = players(muster, 13)
    by_id = {u.id: u for u in field}
    ids = [u.id for u in field]
    assert "is made" in await create(muster, rounds=3)
    for user in field:
        assert "entered" in await enter(muster, user)

    # Sealed lists: each player's, answered only to them; the card shows who sealed.
    texts = {}
    for user in field:
        texts[user.id] = f"Gang of {user.name}\n- Leader\n- Champion\n- {user.id % 7} gangers"
        said = await command(muster, user, "list", faction=f"F{user.id % 100}", text=texts[user.id])
        assert "sealed" in said, said
    state = await the_event(muster)
    assert set(state.lists) == set(ids)
    channel_text = " ".join(m.all_text() for m in emu.messages(w.channel))
    assert "Gang of" not in channel_text  # nothing of a list shows before the reveal

    # The organiser rejects one; its player is told why by DM and sends it again.
    rejected = field[0]
    assert "rejected" in await command(muster, w.carol, "reject", player=rejected, reason="Too many leaders")
    assert any("Too many leaders" in m.all_text() for m in emu.dms(rejected))
    texts[rejected.id] = "Gang, fixed\n- Leader\n- 3 gangers"
    said = await command(muster, rejected, "list", faction=f"F{rejected.id % 100}", text=texts[rejected.id])
    assert "sealed" in said

    # Closing the lists reveals them together; every commitment verifies.
    assert "revealed" in await command(muster, w.carol, "close-lists")
    state = await the_event(muster)
    revealed = posts(muster, "list of a player")
    assert len(revealed) == 13
    for post in revealed:
        found = PROOF.search(post.all_text())
        assert found is not None, post.all_text()
        player = int(re.search(r"<@(\d+)>", post.all_text()).group(1))  # type: ignore[union-attr]
        assert found["digest"] == hashlib.sha256(texts[player].encode()).hexdigest()
        choice = f"{found['faction']}|{found['digest']}"
        assert verify(found["event"], found["step"], player, choice, found["nonce"], found["commitment"])
        assert found["commitment"] == state.lists[player].commitment
        assert "✅" in await command(muster, w.alice, "verify", player=by_id[player])

    # Round 1: six games and a bye; one result late, entered by the organiser.
    assert "Round 1" in await command(muster, w.carol, "publish")
    state = await the_event(muster)
    assert sum(1 for g in state.round_games() if g.second is None) == 1
    results = await play_round(muster, state, by_id, late=True)
    assert standings_post(muster, "standings after round 1") == hand_standings(ids, results, set())
    filed = await filed_results(muster, f"event:{state.event_id}:1")  # the scores count them
    assert sorted(filed) == sorted((a, b, va, vb) for a, b, va, vb in results if b is not None)

    # A drop after round 1, then round 2 published while the bot restarts.
    dropped = field[5]
    assert "out of the event" in await command(muster, dropped, "drop")
    record = await emu.slash(w.carol, w.channel, "event publish")
    await record.response()
    await muster.restart()
    await muster.settle()
    state = await the_event(muster)
    assert state.round_number == 2 and dropped.id not in {p for g in state.round_games() for p in g.players}
    assert len(posts(muster, "GT · round 2")) == 1
    assert "without a result" in await command(muster, w.carol, "publish")  # not published twice
    results += await play_round(muster, state, by_id)
    assert standings_post(muster, "standings after round 2") == hand_standings(ids, results, {dropped.id})

    assert "Round 3" in await command(muster, w.carol, "publish")
    results += await play_round(muster, await the_event(muster), by_id)
    assert standings_post(muster, "standings after round 3") == hand_standings(ids, results, {dropped.id})
    assert "over" in await command(muster, w.carol, "finish")
    assert standings_post(muster, "final standings") == hand_standings(ids, results, {dropped.id})
    assert len(posts(muster, "GT · round 1")) == len(posts(muster, "GT · round 3")) == 1


async def test_bad_input_is_refused_politely_and_changes_nothing(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    field = players(muster, 4)
    assert "is made" in await create(muster, rounds=2)
    for user in field:
        await enter(muster, user)
    before = await the_event(muster)

    # A list too long (a file of 10,001 characters) and a list without a faction.
    too_long = emu.upload("list.txt", b"x" * 10_001)
    said = await command(muster, field[0], "list", faction="Goliath", file=too_long)
    assert "at most 10000 characters" in said, said
    assert "Name your faction" in await command(muster, field[0], "list", faction=" ", text="a list")
    # A player's organiser commands.
    assert "Only the event's organiser" in await command(muster, field[1], "publish")
    assert "Only" in await command(muster, field[1], "reject", player=field[0], reason="no")
    assert "Only" in await command(muster, field[1], "close-lists")
    assert await the_event(muster) == before
    assert all(m.ephemeral for m in emu.messages(w.channel, include_ephemeral=True) if "Only" in m.all_text())

    # A result for a game not in the round.
    await command(muster, w.carol, "close-lists")
    await command(muster, w.carol, "publish")
    state = await the_event(muster)
    game = state.round_games()[0]
    assert game.second is not None
    other = next(e.player for e in state.entrants if e.player not in game.players)
    said = await command(
        muster, emu.users[game.first], "result", opponent=emu.users[other], your_vp=3, their_vp=1
    )
    assert "no game together in round 1" in said, said
    assert await the_event(muster) == state


async def test_a_list_after_the_deadline_is_refused(muster: Muster) -> None:
    field = players(muster, 2)
    assert "is made" in await create(muster, lists_hours=24 * 4)  # the start is 3 days away: lists were due
    await enter(muster, field[0])
    before = await the_event(muster)
    said = await command(muster, field[0], "list", faction="Escher", text="- Queen")
    assert "deadline" in said and "has passed" in said, said
    assert await the_event(muster) == before
