"""40K "Marked for Death" through the emulator: a whole game from /40k start to a stored result in
its own thread (counted: posts, edits, pings), a restart mid-game, and refusals answered
ephemerally with nothing changed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select

from bot.chat import custom_ids
from bot.db.models import GameResult
from rules.fortyk import FortyKState, Phase
from tests.e2e.conftest import Muster
from tests.e2e.table_counts import actions_marked, count_table, latest_lines, thread_edits_per_action
from tests.emulator import Emulator
from tests.emulator.interactions import UPDATE_MESSAGE, InteractionResponse
from tests.emulator.model import Channel, Message, User


@dataclass
class Game:
    """A game and the thread it is played in (its table)."""

    sid: str
    table: Channel


def _latest_with(emu: Emulator, where: Channel, label: str) -> Message:
    for message in reversed(emu.messages(where)):
        if any(b.get("label") == label for b in message.buttons()):
            return message
    raise LookupError(f"no message with a {label!r} button")


async def click(muster: Muster, game: Game, user: User, label: str) -> InteractionResponse:
    message = _latest_with(muster.emu, game.table, label)
    response = await (await muster.emu.click(user, message, label=label)).response()
    await muster.settle()
    return response


async def slash(
    muster: Muster, where: Channel, user: User, command: str, **options: Any
) -> InteractionResponse:
    response = await (await muster.emu.slash(user, where, command, **options)).response()
    await muster.settle()
    return response


async def modal(
    muster: Muster, game: Game, user: User, label: str, values: dict[str, str]
) -> InteractionResponse:
    """Press a button that opens a form and submit it; `values` are keyed by each field label's start."""
    opened = await click(muster, game, user, label)
    assert opened.modal is not None, opened.text()
    by_id = {}
    for start, value in values.items():
        [field] = [f for f in opened.modal.fields if (f.label or "").startswith(start)]
        by_id[field.custom_id] = value
    record = await muster.emu.submit_modal(user, opened.modal, by_id, channel=game.table)
    response = await record.response()
    await muster.settle()
    return response


def redrawn(answer: InteractionResponse) -> Message:
    """The board a click (or a form sent from it) was answered with: redrawn by the answer itself
    (UPDATE_MESSAGE, not an ephemeral answer), so what it did is read there, where both players see it."""
    assert answer.type == UPDATE_MESSAGE and not answer.ephemeral, answer
    assert answer.message is not None
    return answer.message


async def game_state(muster: Muster, sid: str) -> FortyKState:
    assert muster.bot is not None
    _info, state = await muster.bot.sessions.load(sid)
    assert isinstance(state, FortyKState)
    return state


def table_text(muster: Muster) -> str:
    """Everything the channel and its game threads ever showed: every version of every message, with
    its buttons (the board's latest lines and the battle's one message are replaced as the game goes
    on)."""
    emu, channel = muster.emu, muster.world.channel
    return "\n".join(m.all_text() for c in (channel, *emu.threads(channel)) for m in emu.messages(c))


def board_of(muster: Muster, game: Game) -> Message:
    """The game's living board: the first message in its thread."""
    board = muster.emu.messages(game.table)[0]
    assert board.embeds and "Search and Destroy" in board.embed_text()
    return board


async def start_game(muster: Muster) -> Game:
    w = muster.world
    response = await slash(muster, w.channel, w.alice, "40k start", opponent=w.bob)
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="fortyk")
    assert await muster.game_of_card(response) == info.id  # the answer is the game's start card
    table = await muster.table(info.id)
    assert table.is_thread and table.parent_id == w.channel.id
    assert "Marked for Death" in muster.emu.messages(table)[0].embed_text()
    return Game(info.id, table)


async def to_battle(muster: Muster, game: Game) -> FortyKState:
    """Deployment and first turn by buttons; Bob finishes deploying first (+1 on the first-turn roll)."""
    w = muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    await click(muster, game, w.bob, "Roll off for deployment")
    state = await game_state(muster, game.sid)
    assert state.deployment_roll is not None and state.phase is Phase.CHOOSE_ZONE
    await click(muster, game, users[state.deployment_roll.winner], "North-west quarter")
    await click(muster, game, w.bob, "My army is deployed")
    await click(muster, game, w.alice, "My army is deployed")
    await click(muster, game, w.alice, "Roll off for the first turn")
    state = await game_state(muster, game.sid)
    assert state.first_turn_roll is not None and state.first_turn_roll.bonuses == (0, 1)
    chooser = users[state.first_turn_roll.winner]
    other = w.bob if chooser is w.alice else w.alice
    await click(muster, game, chooser, "Go first")
    await click(muster, game, other, "Try to seize")
    state = await game_state(muster, game.sid)
    assert state.phase is Phase.BATTLE and state.seize is not None and state.seize.die is not None
    return state


async def test_a_whole_game_from_start_to_a_stored_result(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    game = await start_game(muster)
    here = game.table
    assert "Search and Destroy" in table_text(muster)

    state = await to_battle(muster, game)
    text = table_text(muster)
    assert "Deployment roll-off" in text and "First-turn roll-off" in text and "🎲" in text
    assert "(+1 = " in text  # Bob's bonus for finishing set-up first is shown with his die
    assert "tries to seize the initiative" in text
    assert state.first_player is not None
    first, second = users[state.first_player], users[state.opponent(state.first_player)]

    # The first player marks the Terminators by command and destroys them the same turn: 2 KP.
    answer = await slash(muster, here, first, "40k mark", unit="Terminators")
    assert answer.ephemeral and "marks Terminators" in answer.content
    choices = await (
        await emu.autocomplete(first, here, "40k destroyed", focused="unit", unit="term")
    ).response()
    assert [c["value"] for c in choices.choices] == ["Terminators"]
    await slash(muster, here, first, "40k destroyed", unit="Terminators")
    await click(muster, game, first, "End turn")

    # The second player marks the Dreadnought through the button's form and takes the relic.
    answer = await modal(muster, game, second, "Mark a unit", {"Unit": "Dreadnought"})
    assert "marks Dreadnought" in latest_lines(redrawn(answer))
    await slash(muster, here, second, "40k relic", unit="Scout Bikers")
    await click(muster, game, second, "End turn")
    state = await game_state(muster, game.sid)
    assert state.round == 2 and [k.kill_points for k in state.kills] == [2]
    assert "survived its mark" in table_text(muster)

    # Restart mid-game: nothing is lost and the buttons posted before the restart still work.
    saved = state.model_dump_json()
    await muster.restart()
    assert (await game_state(muster, game.sid)).model_dump_json() == saved
    while (state := await game_state(muster, game.sid)).phase is Phase.BATTLE:
        assert state.active_player is not None
        await click(muster, game, users[state.active_player], "End turn")
    assert state.phase is Phase.SCORING and state.ended_after_round in (5, 6, 7)
    text = table_text(muster)
    assert "End of round 5:" in text and "(needs 3+)" in text
    assert f"The battle ends after round {state.ended_after_round}" in text

    # The end: Alice by command, Bob through the form (leaving his marked units to be worked out).
    offered = await muster.emu.autocomplete(w.alice, here, "40k quarters", focused="quarters", quarters="")
    assert [c["value"] for c in (await offered.response()).choices] == [0, 1, 2, 3, 4]  # the table's 4
    too_many = await slash(muster, here, w.alice, "40k quarters", quarters=6)
    assert too_many.ephemeral and "0 to 4" in too_many.content, too_many.content
    await slash(muster, here, w.alice, "40k quarters", quarters=2)
    await modal(muster, game, w.bob, "Report quarters", {"Table quarters": "1", "Your marked units": ""})
    state = await game_state(muster, game.sid)
    assert state.finished and state.outcome is not None
    alice_quarters = 5
    expected = {first.id: 15 + 1, second.id: 10}  # most KP; the relic; the Dreadnought marked and alive
    expected[w.alice.id] += alice_quarters
    assert {s.player: s.score for s in state.outcome.sides} == expected
    assert state.outcome.winner == max(expected, key=lambda p: expected[p])

    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult).where(GameResult.session_id == game.sid))).all()
    assert row.system == "fortyk" and row.mission == "Marked for Death"
    assert {row.player_a: row.score_a, row.player_b: row.score_b} == expected
    assert row.winner_id == state.outcome.winner
    assert "Primary — Marked for Death" in row.summary and "Defiance" in row.summary
    final = table_text(muster)
    assert "Final score" in final and "Result: Marked for Death" in final
    board = board_of(muster, game).embed_text()
    assert "Result: Marked for Death" in board and "Primary — Marked for Death" in board


async def test_a_whole_game_in_its_thread_in_few_messages_and_pings(muster: Muster) -> None:
    """A whole Marked for Death game, start to announced result, counted as its players see it.

    Measured (dice seed 20261122: Bob wins both roll-offs and goes first, Alice fails to seize, the
    battle ends after round 5): parent channel 2 posts (the start card, the result), thread 7 posts
    (the board, the deployment roll-off, the deployment run, go first or second, the seize, the
    battle's one message, the report), 41 edits, pings Alice 3, Bob 5 (acts: Alice 10, Bob 12).
    Before (main at 08bf47f, the same game and dice, all in the channel): 52 posts, 27 edits, pings
    Alice 11, Bob 11, and 51 question buttons still clickable at the end.
    Since the questions ride on the board (the battle's turns too; a post with nothing to click
    announces each question): thread 7 posts, 21 edits, the same pings, at most one thread edit per
    action.
    Since a click (or a form sent from the board) is answered by redrawing the board (UPDATE_MESSAGE):
    the same 21 edits are all the clicks' own answers, and no edit is sent apart (21 calls fewer, no
    ephemeral answer).
    """
    emu, w = muster.emu, muster.world
    players = [w.alice, w.bob]
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    acts = {w.alice.id: 0, w.bob.id: 0}
    marks: list[int] = []
    with actions_marked(emu, marks):
        game = await start_game(muster)
        here = game.table
        acts[w.alice.id] += 1

        state = await to_battle(muster, game)
        assert state.deployment_roll and state.first_turn_roll and state.seize and state.first_player
        acts[w.bob.id] += 2  # the deployment roll-off, his army deployed
        acts[w.alice.id] += 2  # her army deployed, the first-turn roll-off
        acts[state.deployment_roll.winner] += 1  # the zone
        acts[state.first_turn_roll.winner] += 1  # go first
        acts[state.seize.player] += 1  # the seize
        first, second = users[state.first_player], users[state.opponent(state.first_player)]

        # The battle's turns are one message, edited from turn to turn; kills are recorded on the board.
        battle = _latest_with(emu, here, "End turn")
        await modal(muster, game, first, "Mark a unit", {"Unit": "Terminators"})
        await modal(muster, game, first, "Record a kill", {"Unit": "Terminators"})
        acts[first.id] += 2
        assert "Record a kill" in [b.get("label") for b in board_of(muster, game).buttons()]
        while (state := await game_state(muster, game.sid)).phase is Phase.BATTLE:
            assert state.active_player is not None
            assert _latest_with(emu, here, "End turn").id == battle.id
            await click(muster, game, users[state.active_player], "End turn")
            acts[state.active_player] += 1
        # The last turn's end is said on the board, whose buttons the battle's turns rode on.
        assert battle.id == board_of(muster, game).id
        assert "The battle ends after round" in latest_lines(battle)
        await modal(muster, game, second, "Report quarters", {"Table quarters": "1", "Your marked units": ""})
        await modal(muster, game, first, "Report quarters", {"Table quarters": "2", "Your marked units": ""})
        acts[first.id] += 1
        acts[second.id] += 1
    await muster.announced()
    state = await game_state(muster, game.sid)
    assert state.finished and state.outcome is not None

    assert state.deployment_roll and state.first_turn_roll and state.seize and state.ended_after_round
    counts = count_table(emu, w.channel, here, players)
    print(f"40K whole game: {counts.line()}; acts per player {list(acts.values())}")
    assert counts.parent_posts <= 3, counts.line()  # the start card and the result (no notice)
    assert counts.thread_posts <= 24, counts.line()
    assert not counts.live_questions, counts.live_questions
    assert counts.repeated_edits == 0, counts  # no edit re-sends what a message shows
    # Pinged at the start, for the roll-off winners' choices and the seize, when the battle begins
    # (the first player) and when both report: never for a turn.
    assert state.deployment_roll and state.first_turn_roll and state.seize and state.ended_after_round
    decisions = {
        p: 1
        + (p == state.deployment_roll.winner)
        + (p == state.first_turn_roll.winner)
        + (p == state.seize.player)
        + (p == state.first_player)
        + 1
        for p in users
    }
    assert counts.pings == decisions, (counts.pings, decisions)
    for player in users:
        assert counts.pings[player] <= acts[player], (counts.pings, acts)
    # The board followed every turn and ends with no button left, its thread edits one per action.
    turns = 2 * state.ended_after_round
    assert len(battle.history) >= turns and not battle.buttons()
    per_action = thread_edits_per_action(emu, marks)
    assert len(per_action) >= sum(acts.values()) and max(per_action) <= 1, per_action
    redraws = sum(r.response_type == UPDATE_MESSAGE for r in emu.interactions.values())
    sent = len([r for r in emu.requests if r.method == "PATCH" and f"/channels/{game.table.id}/" in r.path])
    print(f"40K whole game: {sent} thread edits sent apart, {redraws} answers redrew the board")
    # each click redrew the board itself: no edit sent apart, and every edit of the thread an answer's
    assert sent == 0 and redraws == counts.edits == sum(per_action), (per_action, redraws)


async def test_refusals_are_ephemeral_and_change_nothing(muster: Muster) -> None:
    w = muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    game = await start_game(muster)
    here = game.table
    stranger = await click(muster, game, w.carol, "Roll off for deployment")
    assert stranger.ephemeral and "This is a game between" in stranger.content, stranger.content
    assert f"<@{w.alice.id}>" in stranger.content and f"<@{w.bob.id}>" in stranger.content
    state = await to_battle(muster, game)
    assert state.first_player is not None
    first, second = users[state.first_player], users[state.opponent(state.first_player)]
    await slash(muster, here, first, "40k mark", unit="Terminators")
    before = (await game_state(muster, game.sid)).model_dump_json()
    posted = len(muster.emu.messages(here))
    edited = sum(len(m.history) for m in muster.emu.messages(here))

    refusals = [
        (first, "40k mark", {"unit": "Scouts"}, "already marked Terminators this turn"),
        (second, "40k mark", {"unit": "Scouts"}, "only in your own turn"),
        (second, "40k end-turn", {}, "only in your own turn"),
    ]
    for user, command, options, expected in refusals:
        answer = await slash(muster, here, user, command, **options)
        assert answer.ephemeral and expected in answer.content, answer.content
    assert (await game_state(muster, game.sid)).model_dump_json() == before
    assert len(muster.emu.messages(here)) == posted  # a refusal posts nothing and edits nothing
    assert sum(len(m.history) for m in muster.emu.messages(here)) == edited

    await slash(muster, here, first, "40k destroyed", unit="Scouts")
    again = await slash(muster, here, first, "40k destroyed", unit="scouts")
    assert again.ephemeral and "already recorded as destroyed" in again.content
    await slash(muster, here, first, "40k end-turn")
    await slash(muster, here, second, "40k relic", unit="Bikers")
    await slash(muster, here, second, "40k end-turn")
    relic = await slash(muster, here, first, "40k mark", unit="Bikers")
    assert relic.ephemeral and "carries your relic" in relic.content
    await slash(muster, here, first, "40k end-turn")
    own = await slash(muster, here, second, "40k mark", unit="bikers")
    assert own.ephemeral and "one of your own units" in own.content
    early = await slash(muster, here, first, "40k quarters", quarters=1)
    assert early.ephemeral and "can't report table quarters now" in early.content
    # The accepted actions were shown: the board was edited with each of them.
    assert sum(len(m.history) for m in muster.emu.messages(here)) > edited
    assert "Bikers takes" in table_text(muster)


async def test_a_second_game_between_the_same_players_is_refused(muster: Muster) -> None:
    w = muster.world
    await start_game(muster)
    again = await slash(muster, w.channel, w.bob, "40k start", opponent=w.alice)
    assert again.ephemeral and "already have a 40K game" in again.content
    unknown = await slash(
        muster, w.channel, w.alice, "40k start", opponent=w.carol, mission="no-such-mission"
    )
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
    refused = await slash(muster, w.channel, w.alice, "40k pack load", file=good)
    assert refused.ephemeral and "Manage Server" in refused.content

    bad = emu.upload(
        "bad.yaml",
        SHORT_WAR.replace("max_rounds: 3", "max_rounds: many").replace("points: 10", "points: 0").encode(),
    )
    problems = await slash(muster, w.channel, w.carol, "40k pack load", file=bad)
    assert problems.ephemeral and "nothing was changed" in problems.content
    assert "line 10: missions[0].battle_length.max_rounds" in problems.content
    assert "line 14: missions[0].conditions[0].points" in problems.content

    loaded = await slash(muster, w.channel, w.carol, "40k pack load", file=good)
    assert loaded.ephemeral and "`short-war` (Short War)" in loaded.content
    choices = await (
        await emu.autocomplete(
            w.alice, w.channel, "40k start", focused="mission", mission="short", opponent=w.bob
        )
    ).response()
    assert [c["value"] for c in choices.choices] == ["short-war"]

    await slash(muster, w.channel, w.alice, "40k start", opponent=w.bob, mission="short-war")
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="fortyk")
    game = Game(info.id, await muster.table(info.id))
    await click(muster, game, w.alice, "Roll off for deployment")
    assert "North edge" in table_text(muster) and "Dawn of War" in table_text(muster)
    state = await game_state(muster, info.id)
    assert state.mission.key == "short-war" and state.mission.battle_length.max_rounds == 3


async def test_an_end_turn_button_of_an_earlier_turn_is_refused_and_ends_nothing(muster: Muster) -> None:
    """The battle is one message edited from turn to turn: a client still showing an earlier turn's
    version of it (its "End turn" carries that turn's step) is refused, and nothing changes."""
    emu, w = muster.emu, muster.world
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    game = await start_game(muster)
    here = game.table
    state = await to_battle(muster, game)
    assert state.first_player is not None
    first, second = users[state.first_player], users[state.opponent(state.first_player)]
    battle = _latest_with(emu, here, "End turn")
    ids = [str(b.get("custom_id")) for m in emu.messages(here) for b in m.buttons()]
    assert ids and all(custom_ids.BUTTON.fullmatch(i) for i in ids), ids  # every button answers a question
    first_turn_id = f"q:{game.sid}:r1.t1.turn:end-turn"
    assert battle.button(label="End turn")["custom_id"] == first_turn_id

    # A mark keeps the turn's one question message, edited: "Mark a unit" is greyed out there.
    await slash(muster, here, first, "40k mark", unit="Terminators")
    turn_messages = [
        m for m in emu.messages(here) if any("r1.t1.turn" in str(b.get("custom_id")) for b in m.buttons())
    ]
    assert [m.id for m in turn_messages] == [battle.id] and battle.button(label="Mark a unit")["disabled"]
    seen_then = replace(battle, components=list(battle.components), history=[])  # a client not yet refreshed

    await click(muster, game, first, "End turn")
    assert muster.bot is not None
    _info, moved_on = await muster.bot.sessions.load(game.sid)
    assert moved_on.active_player == second.id and moved_on.turn == 1
    # The same message now asks the second player's turn (edited, pinging nobody).
    assert battle.button(label="End turn")["custom_id"] == f"q:{game.sid}:r1.t2.turn:end-turn"
    assert f"<@{second.id}>'s turn" in battle.embed_text() and battle.content == ""
    before = moved_on.model_dump()
    posted = len(emu.messages(here))

    # Pressed by the player whose turn it is now, and by the one whose turn it was.
    for user, now in ((second, "Your turn"), (first, "Record a kill")):
        refused = await (await emu.click(user, seen_then, custom_id=first_turn_id)).response()
        await muster.settle()
        assert refused.ephemeral, refused.content
        assert f"That question was already answered: the game is now at **{now}**." in refused.content
    assert (await muster.bot.sessions.load(game.sid))[1].model_dump() == before
    assert len(emu.messages(here)) == posted

    # The button of the turn in play still ends it.
    current = _latest_with(emu, here, "End turn")
    assert current.id == battle.id
    await click(muster, game, second, "End turn")
    assert (await game_state(muster, game.sid)).round == 2
