"""40K "Marked for Death" through the emulator: a whole game from /40k start to a stored result, a
restart mid-game, and refusals answered ephemerally with nothing changed."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot import custom_ids
from bot.db.models import GameResult
from rules.fortyk import FortyKState, Phase
from tests.e2e.conftest import Muster
from tests.emulator import Emulator
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message, User


def _latest_with(emu: Emulator, muster: Muster, label: str) -> Message:
    for message in reversed(emu.messages(muster.world.channel)):
        if any(b.get("label") == label for b in message.buttons()):
            return message
    raise LookupError(f"no message with a {label!r} button")


async def click(muster: Muster, user: User, label: str) -> InteractionResponse:
    message = _latest_with(muster.emu, muster, label)
    response = await (await muster.emu.click(user, message, label=label)).response()
    await muster.settle()
    return response


async def slash(muster: Muster, user: User, command: str, **options: Any) -> InteractionResponse:
    response = await (await muster.emu.slash(user, muster.world.channel, command, **options)).response()
    await muster.settle()
    return response


async def modal(muster: Muster, user: User, label: str, values: dict[str, str]) -> InteractionResponse:
    """Press a button that opens a form and submit it; `values` are keyed by each field label's start."""
    opened = await click(muster, user, label)
    assert opened.modal is not None, opened.text()
    by_id = {}
    for start, value in values.items():
        [field] = [f for f in opened.modal.fields if (f.label or "").startswith(start)]
        by_id[field.custom_id] = value
    record = await muster.emu.submit_modal(user, opened.modal, by_id, channel=muster.world.channel)
    response = await record.response()
    await muster.settle()
    return response


async def game_state(muster: Muster, sid: str) -> FortyKState:
    assert muster.bot is not None
    _info, state = await muster.bot.sessions.load(sid)
    assert isinstance(state, FortyKState)
    return state


def channel_text(muster: Muster) -> str:
    return "\n".join(m.text() for m in muster.emu.messages(muster.world.channel))


async def start_game(muster: Muster) -> str:
    w = muster.world
    response = await slash(muster, w.alice, "40k start", opponent=w.bob)
    assert response.ephemeral and "Marked for Death" in response.content
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="fortyk")
    return info.id


async def to_battle(muster: Muster, sid: str) -> FortyKState:
    """Deployment and first turn by buttons; Bob finishes deploying first (+1 on the first-turn roll)."""
    w = muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    await click(muster, w.bob, "Roll off for deployment")
    state = await game_state(muster, sid)
    assert state.deployment_roll is not None and state.phase is Phase.CHOOSE_ZONE
    await click(muster, users[state.deployment_roll.winner], "North-west quarter")
    await click(muster, w.bob, "My army is deployed")
    await click(muster, w.alice, "My army is deployed")
    await click(muster, w.alice, "Roll off for the first turn")
    state = await game_state(muster, sid)
    assert state.first_turn_roll is not None and state.first_turn_roll.bonuses == (0, 1)
    chooser = users[state.first_turn_roll.winner]
    other = w.bob if chooser is w.alice else w.alice
    await click(muster, chooser, "Go first")
    await click(muster, other, "Try to seize")
    state = await game_state(muster, sid)
    assert state.phase is Phase.BATTLE and state.seize is not None and state.seize.die is not None
    return state


async def test_a_whole_game_from_start_to_a_stored_result(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    sid = await start_game(muster)
    assert "Search and Destroy" in channel_text(muster)

    state = await to_battle(muster, sid)
    text = channel_text(muster)
    assert "Deployment roll-off" in text and "First-turn roll-off" in text and "🎲" in text
    assert "(+1 = " in text  # Bob's bonus for finishing set-up first is shown with his die
    assert "tries to seize the initiative" in text
    assert state.first_player is not None
    first, second = users[state.first_player], users[state.opponent(state.first_player)]

    # The first player marks the Terminators by command and destroys them the same turn: 2 KP.
    answer = await slash(muster, first, "40k mark", unit="Terminators")
    assert answer.ephemeral and "marks Terminators" in answer.content
    choices = await (
        await emu.autocomplete(first, w.channel, "40k destroyed", focused="unit", unit="term")
    ).response()
    assert [c["value"] for c in choices.choices] == ["Terminators"]
    await slash(muster, first, "40k destroyed", unit="Terminators")
    await click(muster, first, "End turn")

    # The second player marks the Dreadnought through the button's form and takes the relic.
    answer = await modal(muster, second, "Mark a unit", {"Unit": "Dreadnought"})
    assert answer.ephemeral
    await slash(muster, second, "40k relic", unit="Scout Bikers")
    await click(muster, second, "End turn")
    state = await game_state(muster, sid)
    assert state.round == 2 and [k.kill_points for k in state.kills] == [2]
    assert "survived its mark" in channel_text(muster)

    # Restart mid-game: nothing is lost and the buttons posted before the restart still work.
    saved = state.model_dump_json()
    await muster.restart()
    assert (await game_state(muster, sid)).model_dump_json() == saved
    while (state := await game_state(muster, sid)).phase is Phase.BATTLE:
        assert state.active_player is not None
        await click(muster, users[state.active_player], "End turn")
    assert state.phase is Phase.SCORING and state.ended_after_round in (5, 6, 7)
    text = channel_text(muster)
    assert "End of round 5:" in text and "(needs 3+)" in text
    assert f"The battle ends after round {state.ended_after_round}" in text

    # The end: Alice by command, Bob through the form (leaving his marked units to be worked out).
    offered = await muster.emu.autocomplete(
        w.alice, w.channel, "40k quarters", focused="quarters", quarters=""
    )
    assert [c["value"] for c in (await offered.response()).choices] == [0, 1, 2, 3, 4]  # the table's 4
    too_many = await slash(muster, w.alice, "40k quarters", quarters=6)
    assert too_many.ephemeral and "0 to 4" in too_many.content, too_many.content
    await slash(muster, w.alice, "40k quarters", quarters=2)
    await modal(muster, w.bob, "Report quarters", {"Table quarters": "1", "Your marked units": ""})
    state = await game_state(muster, sid)
    assert state.finished and state.outcome is not None
    alice_quarters = 5
    expected = {first.id: 15 + 1, second.id: 10}  # most KP; the relic; the Dreadnought marked and alive
    expected[w.alice.id] += alice_quarters
    assert {s.player: s.score for s in state.outcome.sides} == expected
    assert state.outcome.winner == max(expected, key=lambda p: expected[p])

    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult).where(GameResult.session_id == sid))).all()
    assert row.system == "fortyk" and row.mission == "Marked for Death"
    assert {row.player_a: row.score_a, row.player_b: row.score_b} == expected
    assert row.winner_id == state.outcome.winner
    assert "Primary — Marked for Death" in row.summary and "Defiance" in row.summary
    final = channel_text(muster)
    assert "Final score" in final and "Result: Marked for Death" in final


async def test_refusals_are_ephemeral_and_change_nothing(muster: Muster) -> None:
    w = muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    sid = await start_game(muster)
    stranger = await click(muster, w.carol, "Roll off for deployment")
    assert stranger.ephemeral and "This is a game between" in stranger.content
    state = await to_battle(muster, sid)
    assert state.first_player is not None
    first, second = users[state.first_player], users[state.opponent(state.first_player)]
    await slash(muster, first, "40k mark", unit="Terminators")
    before = (await game_state(muster, sid)).model_dump_json()
    posted = len(muster.emu.messages(w.channel))

    refusals = [
        (first, "40k mark", {"unit": "Scouts"}, "already marked Terminators this turn"),
        (second, "40k mark", {"unit": "Scouts"}, "only in your own turn"),
        (second, "40k end-turn", {}, "only in your own turn"),
    ]
    for user, command, options, expected in refusals:
        answer = await slash(muster, user, command, **options)
        assert answer.ephemeral and expected in answer.content, answer.content
    assert (await game_state(muster, sid)).model_dump_json() == before

    await slash(muster, first, "40k destroyed", unit="Scouts")
    again = await slash(muster, first, "40k destroyed", unit="scouts")
    assert again.ephemeral and "already recorded as destroyed" in again.content
    await slash(muster, first, "40k end-turn")
    await slash(muster, second, "40k relic", unit="Bikers")
    await slash(muster, second, "40k end-turn")
    relic = await slash(muster, first, "40k mark", unit="Bikers")
    assert relic.ephemeral and "carries your relic" in relic.content
    await slash(muster, first, "40k end-turn")
    own = await slash(muster, second, "40k mark", unit="bikers")
    assert own.ephemeral and "one of your own units" in own.content
    early = await slash(muster, first, "40k quarters", quarters=1)
    assert early.ephemeral and "can't report table quarters now" in early.content
    assert len(muster.emu.messages(w.channel)) > posted  # the accepted actions were posted


async def test_a_second_game_between_the_same_players_is_refused(muster: Muster) -> None:
    w = muster.world
    await start_game(muster)
    again = await slash(muster, w.bob, "40k start", opponent=w.alice)
    assert again.ephemeral and "already have a 40K game" in again.content
    unknown = await slash(muster, w.alice, "40k start", opponent=w.carol, mission="no-such-mission")
    assert unknown.ephemeral and "marked-for-death" in unknown.content


SHORT_WAR = """missions:
  - key: short-war
    name: Short War
    deployment:
      map: Dawn of War
      zones:
        - {name: North edge, opposite: South edge}
        - {name: South edge, opposite: North edge}
    battle_length:
      max_rounds: 3
    marks:
      bonus_kill_points: 1
    conditions:
      - {key: kp, tier: Primary, name: Kill points, kind: most_kill_points, points: 10}
"""


async def test_a_server_loads_its_own_mission_and_plays_it(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    good = emu.upload("missions.yaml", SHORT_WAR.encode())
    refused = await slash(muster, w.alice, "40k pack load", file=good)
    assert refused.ephemeral and "Manage Server" in refused.content

    bad = emu.upload(
        "bad.yaml",
        SHORT_WAR.replace("max_rounds: 3", "max_rounds: many").replace("points: 10", "points: 0").encode(),
    )
    problems = await slash(muster, w.carol, "40k pack load", file=bad)
    assert problems.ephemeral and "nothing was changed" in problems.content
    assert "line 10: missions[0].battle_length.max_rounds" in problems.content
    assert "line 14: missions[0].conditions[0].points" in problems.content

    loaded = await slash(muster, w.carol, "40k pack load", file=good)
    assert loaded.ephemeral and "`short-war` (Short War)" in loaded.content
    choices = await (
        await emu.autocomplete(
            w.alice, w.channel, "40k start", focused="mission", mission="short", opponent=w.bob
        )
    ).response()
    assert [c["value"] for c in choices.choices] == ["short-war"]

    await slash(muster, w.alice, "40k start", opponent=w.bob, mission="short-war")
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="fortyk")
    await click(muster, w.alice, "Roll off for deployment")
    assert "North edge" in channel_text(muster) and "Dawn of War" in channel_text(muster)
    state = await game_state(muster, info.id)
    assert state.mission.key == "short-war" and state.mission.battle_length.max_rounds == 3


async def test_an_end_turn_button_of_an_earlier_turn_is_refused_and_ends_nothing(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    sid = await start_game(muster)
    state = await to_battle(muster, sid)
    assert state.first_player is not None
    first, second = users[state.first_player], users[state.opponent(state.first_player)]
    first_turn = _latest_with(emu, muster, "End turn")
    ids = [str(b.get("custom_id")) for m in emu.messages(w.channel) for b in m.buttons()]
    assert ids and all(custom_ids.BUTTON.fullmatch(i) for i in ids), ids  # every button answers a question
    assert first_turn.button(label="End turn")["custom_id"] == f"q:{sid}:r1.t1.turn:end-turn"

    # A mark keeps the turn's one question message, edited: "Mark a unit" is greyed out there.
    await slash(muster, first, "40k mark", unit="Terminators")
    turn_messages = [
        m
        for m in emu.messages(w.channel)
        if any("r1.t1.turn" in str(b.get("custom_id")) for b in m.buttons())
    ]
    assert [m.id for m in turn_messages] == [first_turn.id] and first_turn.button(label="Mark a unit")[
        "disabled"
    ]

    await click(muster, first, "End turn")
    assert muster.bot is not None
    _info, moved_on = await muster.bot.sessions.load(sid)
    assert moved_on.active_player == second.id and moved_on.turn == 1
    before = moved_on.model_dump()
    posted = len(emu.messages(w.channel))

    # Pressed by the player whose turn it is now, and by the one whose turn it was.
    for user, now in ((second, "Your turn"), (first, "Record a kill")):
        refused = await (await emu.click(user, first_turn, label="End turn")).response()
        await muster.settle()
        assert refused.ephemeral, refused.content
        assert f"That question was already answered: the game is now at **{now}**." in refused.content
    assert (await muster.bot.sessions.load(sid))[1].model_dump() == before
    assert len(emu.messages(w.channel)) == posted

    # The button of the turn in play still ends it.
    current = _latest_with(emu, muster, "End turn")
    assert current.id != first_turn.id
    await click(muster, second, "End turn")
    assert (await game_state(muster, sid)).round == 2
