"""An event's top cut through the emulator: after the Swiss rounds, the best four are seeded 1v4 and
2v3, the winners meet in the final, a cut game can't be drawn, and the final standings name the
winner; the cut's games don't change the Swiss standings."""

from __future__ import annotations

from bot.events.rounds import table_of
from tests.e2e.conftest import Muster
from tests.e2e.event_driver import command, create, enter, posts, the_event
from tests.emulator.model import User


def players(muster: Muster, count: int) -> list[User]:
    made = [muster.emu.add_user(f"gamer{n}", global_name=f"Gamer {n}") for n in range(count)]
    for user in made:
        muster.emu.add_member(muster.world.guild, user)
    return made


async def enter_results(muster: Muster) -> None:
    """The organiser enters every game of the round: the first-listed player wins 5-2."""
    state = await the_event(muster)
    for game in state.round_games():
        if game.second is not None:
            first, second = muster.emu.users[game.first], muster.emu.users[game.second]
            said = await command(
                muster, muster.world.carol, "result", player=first, opponent=second, your_vp=5, their_vp=2
            )
            assert "recorded" in said, said


async def test_a_top_four_cut_after_two_swiss_rounds(muster: Muster) -> None:
    w = muster.world
    field = players(muster, 6)
    assert "is made" in await create(muster, rounds=2, top_cut=4)
    for user in field:
        await enter(muster, user)
    await command(muster, w.carol, "close-lists")
    for number in (1, 2):
        assert f"Round {number}" in await command(muster, w.carol, "publish")
        await enter_results(muster)
    assert "All 2 rounds" in await command(muster, w.carol, "publish")
    swiss = await the_event(muster)

    assert "Round 3" in await command(muster, w.carol, "top-cut")
    state = await the_event(muster)

    seeds = [s.player for s in table_of(swiss)][:4]
    assert [(g.first, g.second) for g in state.round_games()] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    game = state.round_games()[0]
    said = await command(
        muster,
        w.carol,
        "result",
        player=muster.emu.users[game.first],
        opponent=muster.emu.users[game.second or 0],
        your_vp=3,
        their_vp=3,
    )
    assert "can't end in a draw" in said
    await enter_results(muster)
    assert "Round 4" in await command(muster, w.carol, "publish")  # the bracket's next round
    final = (await the_event(muster)).round_games()
    assert [(g.first, g.second) for g in final] == [(seeds[0], seeds[1])]
    await enter_results(muster)
    assert "final has been played" in await command(muster, w.carol, "publish")
    assert "over" in await command(muster, w.carol, "finish")
    [post] = posts(muster, "final standings")
    text = str(post.embeds[0].get("description"))
    assert text.startswith(f"Top cut winner: <@{seeds[0]}>")
    assert table_of(await the_event(muster)) == table_of(swiss)  # the cut leaves the Swiss standings be
