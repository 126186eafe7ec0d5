"""Lists revealed to each round's opponent only, and results the two players disagree on, through the
emulator: closing the lists posts none of them; publishing a round sends each player their opponent's
list by DM (which verifies), nobody else sees it; a second report with another score is refused and
the first still waits."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rules.sealed import verify
from tests.e2e.conftest import Muster
from tests.e2e.event_driver import PROOF, command, create, enter, posts, the_event
from tests.emulator.model import User


def players(muster: Muster, count: int) -> list[User]:
    made = [muster.emu.add_user(f"gamer{n}", global_name=f"Gamer {n}") for n in range(count)]
    for user in made:
        muster.emu.add_member(muster.world.guild, user)
    return made


async def test_lists_go_to_the_opponent_only_and_disagreeing_reports_wait(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    field = players(muster, 4)
    assert "is made" in await create(muster, rounds=1, reveal="opponent")
    for user in field:
        await enter(muster, user)
        said = await command(muster, user, "list", faction=f"F{user.id % 100}", text=f"- list of {user.name}")
        assert "sealed" in said
    assert "each is shown to its opponent" in await command(muster, w.carol, "close-lists")
    assert not posts(muster, "list of a player")
    assert "Round 1" in await command(muster, w.carol, "publish")
    assert not posts(muster, "list of a player")  # nothing public

    state = await the_event(muster)
    for game in state.round_games():
        assert game.second is not None
        for viewer, owner in ((game.first, game.second), (game.second, game.first)):
            shown = [m for m in emu.dms(emu.users[viewer]) if "list of a player" in m.all_text()]
            assert len(shown) == 1 and f"list of {emu.users[owner].name}" in shown[0].all_text()
            found = PROOF.search(shown[0].all_text())
            assert found is not None
            choice = f"{found['faction']}|{found['digest']}"
            assert verify(found["event"], "list", owner, choice, found["nonce"], found["commitment"])
            assert "✅" in await command(muster, emu.users[viewer], "verify", player=emu.users[owner])
    first_game = state.round_games()[0]
    third = next(e.player for e in state.entrants if e.player not in first_game.players)
    said = await command(muster, emu.users[third], "verify", player=emu.users[first_game.first])
    assert "not revealed yet" in said

    a, b = emu.users[first_game.first], emu.users[first_game.second or 0]
    assert "Reported" in await command(muster, a, "result", opponent=b, your_vp=10, their_vp=4)
    assert any("reported your game" in m.all_text() for m in emu.dms(b))
    before = await the_event(muster)
    said = await command(muster, b, "result", opponent=a, your_vp=10, their_vp=4)  # not what a said
    assert "Your opponent reported 10–4" in said, said
    assert await the_event(muster) == before
    assert "recorded" in await command(muster, b, "result", opponent=a, your_vp=4, their_vp=10)
    game = (await the_event(muster)).round_games()[0]
    assert (game.first_vp, game.second_vp) == (10, 4)


async def test_the_event_has_a_discord_scheduled_event_that_follows_it(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    assert "is made" in await create(muster, name="Spring GT", rounds=3)
    cog = muster.bot.get_cog("Event")  # type: ignore[union-attr]
    await cog.schedule.idle()  # type: ignore[union-attr]
    [made] = emu.events_of(w.guild)
    assert made.name == "Spring GT" and made.description.rstrip().endswith(
        "muster-event:" + (await the_event(muster)).event_id
    )
    assert "3 rounds" in made.description
    await enter(muster, players(muster, 1)[0])
    await cog.schedule.idle()  # type: ignore[union-attr]
    assert [e.id for e in emu.events_of(w.guild)] == [made.id]  # edited, never made twice
    assert "cancelled" in await command(muster, w.carol, "cancel")
    await cog.schedule.idle()  # type: ignore[union-attr]
    assert emu.events_of(w.guild) == []


async def test_players_are_reminded_once_before_the_start(muster: Muster) -> None:
    emu = muster.emu
    field = players(muster, 2)
    assert "is made" in await create(muster)  # three days ahead: reminded a day before
    for user in field:
        await enter(muster, user)
    await command(muster, field[0], "list", faction="Orlock", text="- Road boss")
    cog = muster.bot.get_cog("Event")  # type: ignore[union-attr]
    await cog.sweep()  # type: ignore[union-attr]
    await muster.settle()
    assert not any("starts" in m.all_text() for u in field for m in emu.dms(u))  # not yet
    later = datetime.now(UTC) + timedelta(days=2, hours=1)
    await cog.sweep(later)  # type: ignore[union-attr]
    await cog.sweep(later)  # type: ignore[union-attr]
    await muster.settle()
    for user in field:
        [reminder] = [m for m in emu.dms(user) if "starts" in m.all_text()]
        missing = "list is still missing" in reminder.all_text()
        assert missing == (user is field[1])


async def test_the_round_clock_warns_each_player_at_30_and_10_minutes_once(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    field = players(muster, 2)
    assert "is made" in await create(muster, round_minutes=60)
    for user in field:
        await enter(muster, user)
    await command(muster, w.carol, "close-lists")
    assert "Round 1" in await command(muster, w.carol, "publish")
    cog = muster.bot.get_cog("Event")  # type: ignore[union-attr]
    start = datetime.now(UTC)
    for minutes in (0, 31, 32, 51, 52):
        await cog.sweep(start + timedelta(minutes=minutes))  # type: ignore[union-attr]
    await muster.settle()
    for user in field:
        warned = [m.content for m in emu.dms(user) if "minutes left" in m.content]
        assert len(warned) == 2, warned
        assert "round 1: 29 minutes left" in warned[0] and "minutes left" in warned[1]


async def test_a_late_entry_is_the_organisers_until_round_1(muster: Muster) -> None:
    w = muster.world
    field = players(muster, 4)
    assert "is made" in await create(muster, capacity=3)
    for user in field[:3]:
        await enter(muster, user)
    assert "waitlist" in await enter(muster, field[3])
    assert "out of the event" in await command(
        muster, field[0], "drop"
    )  # before round 1: the first waiting moves up
    state = await the_event(muster)
    assert [e.player for e in state.entrants] == [
        field[1].id,
        field[2].id,
        field[3].id,
    ] and not state.waitlist

    await command(muster, w.carol, "close-lists")  # entries close for players, not for the organiser
    assert "only do that for yourself" in await command(muster, field[1], "enter", player=field[0])
    assert "is on the waitlist" in await command(muster, w.carol, "enter", player=w.alice)  # full
    await command(muster, field[2], "drop")
    state = await the_event(muster)
    assert w.alice.id in [e.player for e in state.entrants] and not state.waitlist
    assert "Round 1" in await command(muster, w.carol, "publish")
    assert "entries closed" in await command(muster, w.carol, "enter", player=w.bob)
