"""Warcry through the emulator: battleplans, warband and battle-group checks, packs, and whole battles
from /warcry battle to a stored result, played in the battle's thread (a board edited in place, a few
question messages), including a restart mid-battle, the confirmations of steps one player presses
alone, and what the players see counted against the table's budgets."""

from __future__ import annotations

import json
import re
from typing import Any

from sqlalchemy import select

from bot.chat import custom_ids
from bot.db.models import GameResult
from bot.play.questions import MAX_BUTTONS
from rules.session import Question
from rules.warcry.models import WarcryState
from rules.warcry.questions import questions
from tests.e2e.conftest import Muster
from tests.e2e.table_counts import actions_marked, count_table, latest_lines, thread_edits_per_action
from tests.emulator.interactions import UPDATE_MESSAGE, InteractionRecord, InteractionResponse
from tests.emulator.model import Channel, Message, User

THREAD_BUDGET = 20
MATCHED = ["Treasure Hunters", "The Cursed Relic", "No Quarter", "Reaper", "Ley Lines", "The Hidden Vault"]


def table_messages(muster: Muster) -> list[Message]:
    """Every message in the channel and in the game threads opened from it, oldest first."""
    emu, channel = muster.emu, muster.world.channel
    every = [m for c in (channel, *emu.threads(channel)) for m in emu.messages(c)]
    return sorted(every, key=lambda m: m.id)


def _with_component(muster: Muster, custom_id: str) -> Message:
    """The latest message (channel or game thread) holding a component whose custom_id is (or starts
    with) `custom_id`."""
    for message in reversed(table_messages(muster)):
        ids = [b.get("custom_id", "") for b in message.buttons()]
        ids += [s.get("custom_id", "") for s in message.selects()]
        if any(i == custom_id or (custom_id.endswith(":") and i.startswith(custom_id)) for i in ids):
            return message
    raise LookupError(f"no message with component {custom_id!r}")


async def press(muster: Muster, user: User, custom_id: str) -> InteractionResponse:
    message = _with_component(muster, custom_id)
    response = await (await muster.emu.click(user, message, custom_id=custom_id)).response()
    await muster.settle()
    return response


async def pick(muster: Muster, user: User, custom_id: str, value: str) -> InteractionResponse:
    """Choose `value` in the select menu `custom_id`."""
    message = _with_component(muster, custom_id)
    response = await (await muster.emu.select(user, message, custom_id, [value])).response()
    await muster.settle()
    return response


async def form(muster: Muster, user: User, custom_id: str, values: dict[str, str]) -> InteractionResponse:
    """Open a button's form and fill its fields in order (`values` keys name them for the reader)."""
    channel = _with_component(muster, custom_id).channel
    opened = await press(muster, user, custom_id)
    assert opened.modal is not None, opened.text()
    fields = [f.custom_id for f in opened.modal.fields]
    assert len(fields) == len(values)
    filled = dict(zip(fields, values.values(), strict=True))
    record = await muster.emu.submit_modal(user, opened.modal, filled, channel=channel)
    response = await record.response()
    await muster.settle()
    return response


async def slash(muster: Muster, user: User, command: str, **options: Any) -> InteractionResponse:
    response = await (await muster.emu.slash(user, muster.world.channel, command, **options)).response()
    await muster.settle()
    return response


async def battle_state(muster: Muster, sid: str) -> WarcryState:
    assert muster.bot is not None
    _info, state = await muster.bot.sessions.load(sid)
    assert isinstance(state, WarcryState)
    return state


def option(question: Question, label: str) -> str:
    """The value of the option a player sees as `label`."""
    return next(o.value for o in question.options if str(o.label) == label)


def channel_text(muster: Muster) -> str:
    """Everything the channel and its game threads ever showed: every version of every message (the
    board's latest lines are replaced as the battle goes on)."""
    return "\n".join(
        f"{v.content}\n{json.dumps(v.embeds, ensure_ascii=False)}"
        for m in table_messages(muster)
        for v in [*m.history, m.snapshot()]
    )


def redrawn(answer: InteractionResponse) -> Message:
    """The board a click was answered with: redrawn by the answer itself (UPDATE_MESSAGE, not an
    ephemeral answer), so what the click did is read there, where both players see it."""
    assert answer.type == UPDATE_MESSAGE and not answer.ephemeral, answer
    assert answer.message is not None
    return answer.message


def asked(state: WarcryState, topic: str, player: int | None = None) -> Question:
    """The question on `topic` the battle asks now (about `player`, for a per-player one)."""
    for question in questions(state):
        if question.topic == topic and (player is None or question.params.get("player") == player):
            return question
    raise LookupError(f"the battle asks nothing on {topic} now")


class Battle:
    """Two emulated players driving one battle by the buttons of its questions in the game's thread."""

    def __init__(self, muster: Muster, sid: str, table: Channel) -> None:
        self.muster = muster
        self.sid = sid
        self.table = table  # the thread the battle is played in
        w = muster.world
        self.users = {w.alice.id: w.alice, w.bob.id: w.bob}
        self.acts = {w.alice.id: 0, w.bob.id: 0}  # answers to what the battle waited on, per player

    def cid(self, step: str, value: str) -> str:
        """The button answering question `step` with `value`."""
        return custom_ids.button(self.sid, step, value)

    def fid(self, step: str, value: str = custom_ids.NUMBER_VALUE) -> str:
        """A button that opens a form first (an option's fields, or a number)."""
        return custom_ids.button(self.sid, step, value, opens_form=True)

    async def state(self) -> WarcryState:
        return await battle_state(self.muster, self.sid)

    async def act(self, player: int, custom_id: str) -> InteractionResponse:
        """`player` answers something the battle waits on, by its button."""
        self.acts[player] += 1
        return await press(self.muster, self.users[player], custom_id)

    async def set_up(self) -> WarcryState:
        state = await self.state()
        for player in (state.loser_of_priority, state.winner_of_priority):
            split = asked(await self.state(), "warcry.split")
            assert split.players == [player]
            self.acts[player] += 1
            answer = await form(
                self.muster,
                self.users[player],
                self.fid(split.step, "split"),
                {"dagger": "3", "shield": "4", "hammer": "3"},
            )
            assert "Dagger 3, Shield 4, Hammer 3" in latest_lines(redrawn(answer))
        state = await self.state()
        assert state.battleplan is not None
        colours = asked(state, "warcry.colour")
        await self.act(state.winner_of_priority, self.cid(colours.step, "red"))
        state = await self.state()
        while state.phase == "deployment":
            deploy = asked(state, "warcry.deploy")
            current = next(s for s in state.deployment if not s.done)
            await self.act(current.player, self.cid(deploy.step, current.group))
            state = await self.state()
        await self.act(state.players[0], self.cid("objectives.begin", "begin"))
        state = await self.state()
        assert state.phase == "battle" and state.round == 1
        return state

    async def number(self, kind: str, player: int, value: int, by: int | None = None) -> InteractionResponse:
        """`by` (else `player`) records a tally about `player` on the board: a button or a menu per
        count where they can be listed, else a form."""
        user = self.users[player if by is None else by]
        question = asked(await self.state(), f"warcry.{kind}", player)
        if question.kind == "choose":
            if len(question.options) <= MAX_BUTTONS:
                return await press(self.muster, user, self.cid(question.step, str(value)))
            return await pick(self.muster, user, custom_ids.select(self.sid, question.step), str(value))
        assert question.number is not None
        if question.number.maximum - question.number.minimum < MAX_BUTTONS:
            return await press(self.muster, user, self.cid(question.step, str(value)))
        return await form(self.muster, user, self.fid(question.step), {"number": str(value)})

    async def confirm(self, by: int, value: str = "confirm") -> InteractionResponse:
        """`by` answers the confirmation waiting now: `confirm` or `not_yet`."""
        question = asked(await self.state(), "warcry.confirm")
        return await self.act(by, self.cid(question.step, value))

    async def end_round(self, by: int, confirm_by: int | None = None) -> WarcryState:
        """`by` presses "End battle round N"; `confirm_by` (the other player unless named) confirms."""
        state = await self.state()
        pressed = await self.act(by, self.cid(f"r{state.round}.end", "end"))
        board = redrawn(pressed)
        assert f"end battle round {state.round}" in latest_lines(board), board.embed_text()
        await self.confirm(state.opponent(by) if confirm_by is None else confirm_by)
        return await self.state()


async def open_battle(muster: Muster, **options: object) -> Battle:
    w = muster.world
    answer = await slash(muster, w.alice, "warcry battle", opponent=w.bob, **options)
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="warcry")
    assert await muster.game_of_card(answer) == info.id  # the answer is the game's start card
    table = await muster.table(info.id)
    assert table.id != w.channel.id, "the battle is played in a thread of its own"
    return Battle(muster, info.id, table)


async def stored_result(muster: Muster, sid: str) -> GameResult:
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        row = await db.scalar(select(GameResult).where(GameResult.session_id == sid))
    assert row is not None
    return row


def _scoreboard(muster: Muster) -> Message:
    boards = [
        m
        for m in table_messages(muster)
        if m.embeds and str(m.embeds[0].get("title", "")).startswith("Warcry:")
    ]
    assert len(boards) == 1, "the board is one message, edited in place"
    return boards[0]


def _battle_message(battle: Battle) -> Message:
    """The one message asking "End battle round N" and its confirmations: the board."""
    found = [
        m
        for m in battle.muster.emu.messages(battle.table)
        if any(
            re.match(rf"q:{battle.sid}:r\d+\.(end|confirm)", str(c.get("custom_id", "")))
            for c in m.walk_components()
        )
    ]
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------- whole battles


async def held_answer(battle: Battle, user: User, message: Message, custom_id: str) -> InteractionRecord:
    """Press a button on `message` and hold back its answer (the message redrawn): returns once the
    press is stored and its answer is on its way, while `message` still shows its old buttons."""
    emu = battle.muster.emu
    slow = emu.inject("POST", r"/interactions/\d+/[^/]+/callback", status=None, delay=1.5)
    record = await emu.click(user, message, custom_id=custom_id)
    await emu.wait_until(lambda: slow.hits, 3.0, "the press's answer to be on its way")
    return record


async def click(battle: Battle, user: User, message: Message, custom_id: str) -> InteractionResponse:
    """Press a button on `message` as it is shown now, without waiting for what the press sends."""
    return await (await battle.muster.emu.click(user, message, custom_id=custom_id)).response()


async def test_a_reaper_battle_from_the_command_to_a_stored_result(muster: Muster) -> None:
    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="Reaper")
    text = channel_text(muster)
    assert "wins the priority roll" in text and "Battleplan: Reaper" in text and "🎲" in text
    await battle.set_up()
    text = channel_text(muster)
    assert "takes the red deployment points" in text and "has set up their Hammer" in text

    # Round 1: Alice takes down 120 points, Bob 80 -> Alice scores.
    tallied = redrawn(await battle.number("blood", alice, 120))
    assert f"<@{alice}>'s blood tally for battle round 1: 120." in latest_lines(tallied)
    await battle.number("blood", bob, 80)
    state = await battle.end_round(bob)
    assert state.vp == {alice: 1, bob: 0} and state.round == 2
    assert "scores 1 victory point" in channel_text(muster)

    # A stranger's click and a bad entry are refused ephemerally; nothing changes.
    refused = await press(muster, w.carol, battle.cid("r2.end", "end"))
    assert refused.ephemeral and "only they can play it" in refused.content
    # Bob took down 80 points in round 1, so at most 920 of a 1000-point warband are left for him.
    bad = await battle.number("blood", bob, 921)
    assert bad.ephemeral and "921 is not allowed here" in bad.content and "from 0 to 920" in bad.content
    for typo in ("²", "5.5", "-"):
        odd = await form(muster, w.bob, battle.fid("r2.blood.p2"), {"number": typo})
        assert odd.ephemeral and "whole number from 0 to 920" in odd.content, odd.content
    assert (await battle.state()) == state

    await battle.number("blood", bob, 200)
    await battle.end_round(alice)
    await battle.end_round(alice)  # round 3: nobody takes anyone down
    await battle.number("blood", alice, 10)
    # The last confirmation's answer (the board redrawn) is slow: a late press lands on its old buttons.
    await battle.act(bob, battle.cid("r4.end", "end"))
    message = _battle_message(battle)
    confirm = battle.cid(asked(await battle.state(), "warcry.confirm").step, "confirm")
    pressed = await held_answer(battle, w.alice, message, confirm)
    state = await battle.state()
    assert state.finished and state.outcome is not None
    assert state.vp == {alice: 2, bob: 1} and state.outcome.winner == alice

    # The old buttons are still shown, but the finished battle takes nothing more.
    finished = state.model_dump()
    assert message.buttons()
    late = await click(battle, w.alice, message, confirm)
    assert late.ephemeral and "already finished" in late.content
    done = redrawn(await pressed.response())
    assert "wins: Reaper after 4 battle rounds" in latest_lines(done), done.embed_text()
    await muster.announced()  # the result's announcement is out before the posts are counted
    posts = len(table_messages(muster))
    assert (await battle.state()).model_dump() == finished

    row = await stored_result(muster, battle.sid)
    assert row.system == "warcry" and row.mission == "Reaper" and row.winner_id == alice
    assert {row.player_a: row.score_a, row.player_b: row.score_b} == {alice: 2, bob: 1}
    assert "wins: Reaper after 4 battle rounds" in channel_text(muster)
    # Once the edits land, nothing is left to click: not on the board, not on the battle's message.
    assert not _scoreboard(muster).buttons() and not message.buttons() and not message.selects()
    assert len(table_messages(muster)) == posts


async def test_a_hidden_vault_battle_from_the_command_to_a_stored_result(muster: Muster) -> None:
    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="The Hidden Vault")
    await battle.set_up()
    assert "Place 3 objectives" in channel_text(muster) or "objective" in channel_text(muster)

    state = await battle.end_round(alice)
    assert state.removal_by is not None and state.round == 1
    first = state.removal_by
    second = state.opponent(first)
    assert re.search(r"wins the roll-off and removes one objective", channel_text(muster))
    removal = asked(state, "warcry.remove")
    assert [str(o.label) for o in removal.options] == ["Objective A", "Objective B", "Objective C"]
    not_yours = battle.cid(removal.step, option(removal, "Objective A"))
    refused = await press(muster, battle.users[second], not_yours)
    assert refused.ephemeral and "isn't asking you anything" in refused.content
    await battle.act(first, battle.cid(removal.step, option(removal, "Objective B")))
    state = await battle.state()
    assert state.objectives == ["A", "C"] and state.round == 2

    state = await battle.end_round(first)
    assert state.removal_by == second
    removal = asked(state, "warcry.remove")
    await battle.act(second, battle.cid(removal.step, option(removal, "Objective A")))
    state = await battle.state()
    assert state.objectives == ["C"] and state.round == 3

    # The Hidden Vault has no blood tally, so no question asks for one.
    ids = [c.get("custom_id", "") for m in table_messages(muster) for c in m.buttons() + m.selects()]
    assert any(i.startswith(f"q:{battle.sid}:r3.control.") for i in ids)
    assert not any(re.match(rf"qf?:{battle.sid}:r\d+\.blood\.", i) for i in ids)
    control = asked(state, "warcry.control")
    held = next(o for o in control.options if str(o.group) == "Objective C" and o.value.endswith(f".{bob}"))
    await press(muster, w.bob, battle.cid(control.step, held.value))
    await battle.end_round(alice)
    state = await battle.end_round(alice)
    assert state.finished and state.outcome is not None and state.outcome.winner == bob
    row = await stored_result(muster, battle.sid)
    assert row.mission == "The Hidden Vault" and row.winner_id == bob
    assert {row.player_a: row.score_a, row.player_b: row.score_b} == {alice: 0, bob: 1}


async def test_a_restart_mid_battle_loses_nothing_and_a_tie_plays_a_fifth_round(muster: Muster) -> None:
    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="Reaper")
    await battle.set_up()
    await battle.number("blood", alice, 60)
    await battle.end_round(bob)
    await battle.number("blood", bob, 90)
    before = await battle.end_round(bob)
    assert before.round == 3 and before.vp == {alice: 1, bob: 1}

    await muster.restart()
    assert (await battle.state()) == before
    # The board and the battle's message posted before the restart still work.
    await battle.number("blood", alice, 30)
    await battle.end_round(alice)
    await battle.number("blood", bob, 30)
    # A restart while the end of a round waits for its confirmation keeps it waiting, and it is confirmed
    # on the message posted before the restart.
    await battle.act(alice, battle.cid("r4.end", "end"))
    waiting = await battle.state()
    assert waiting.pending is not None and waiting.round == 4
    await muster.restart()
    assert (await battle.state()) == waiting
    await battle.confirm(bob)
    state = await battle.state()
    assert state.round == 5 and not state.finished and state.vp == {alice: 2, bob: 2}
    assert "the battle goes on for another battle round" in channel_text(muster)
    assert "extra round" in channel_text(muster)
    await battle.number("blood", alice, 25)
    state = await battle.end_round(bob)
    assert state.finished and state.outcome is not None and state.outcome.winner == alice
    assert "after 5 battle rounds" in state.outcome.summary
    assert (await stored_result(muster, battle.sid)).winner_id == alice


async def test_a_tie_after_the_extra_round_is_decided_by_the_last_warband_standing(muster: Muster) -> None:
    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="Reaper")
    await battle.set_up()
    await battle.number("blood", alice, 60)
    await battle.end_round(bob)
    await battle.number("blood", bob, 90)
    await battle.end_round(bob)
    await battle.end_round(alice)
    state = await battle.end_round(alice)
    assert state.round == 5 and state.vp == {alice: 1, bob: 1}
    board = _scoreboard(muster)
    assert "Battle round 5 (an extra round: the battle is tied)" in board.embed_text()
    assert "checked once more at its end" in board.embed_text()

    # An old round's blood button is stale, not a way to score a victory point: the answer to
    # "End battle round 5" (the board redrawn) is slow, and a press on its old blood button is refused.
    ended = await held_answer(battle, w.bob, _battle_message(battle), battle.cid("r5.end", "end"))
    stale = await click(battle, w.alice, board, battle.fid("r5.blood.p1"))
    assert stale.ephemeral and stale.modal is None and "already answered" in stale.content
    assert "Confirm: end battle round 5?" in redrawn(await ended.response()).embed_text()
    await muster.settle()
    # The extra round is level too: the battle goes on to round 6, judged no more.
    await battle.confirm(alice)
    state = await battle.state()
    assert state.round == 6 and not state.finished and state.vp == {alice: 1, bob: 1}
    text = channel_text(muster)
    assert "Still nobody has won after the extra round" in text
    assert "Battle round 6 begins (the last warband standing decides)." in text
    board_text = _scoreboard(muster).embed_text()
    assert "Reaper — battle round 6 (the last warband standing decides)" in board_text
    assert (
        "Battle round 6 (the last warband standing decides): the victory card is no longer checked"
        in board_text
    )
    assert "The last warband standing decides." in board_text and "only one warband is left" in board_text
    ids = [c.get("custom_id", "") for m in table_messages(muster) for c in m.buttons() + m.selects()]
    assert not any(re.match(rf"qf?:{battle.sid}:r6\.blood\.", i) for i in ids), (
        "no tally past the extra round"
    )
    assert battle.cid("r6.end", "end") in ids

    # Round 6 ends with nobody winning on victory points; in round 7 Bob's last fighter falls.
    state = await battle.end_round(alice)
    assert state.round == 7 and not state.finished
    assert "The last warband standing decides." in _scoreboard(muster).embed_text()
    claim = asked(state, "warcry.last_warband")
    await press(muster, w.alice, battle.cid(claim.step, option(claim, "Only Alice's warband is left")))
    state = await battle.state()
    assert state.last_warband_claim == alice and not state.finished
    await battle.act(bob, battle.cid("r7.claim", "yes"))
    state = await battle.state()
    assert state.finished and state.outcome is not None and state.outcome.winner == alice
    assert state.outcome.summary == (
        "Reaper after 7 battle rounds: won because only their warband is left on the battlefield."
    )
    text = channel_text(muster)
    assert "confirms that only" in text and "won because most victory points" not in text
    row = await stored_result(muster, battle.sid)
    assert row.winner_id == alice and row.mission == "Reaper"


async def test_a_round_1_button_pressed_in_round_2_is_refused_and_changes_nothing(muster: Muster) -> None:
    """Answered questions lose their buttons; presses that race the answer redrawing them are
    refused, changing nothing."""
    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="Reaper")
    await battle.set_up()
    await battle.number("blood", alice, 50)
    message, board = _battle_message(battle), _scoreboard(muster)
    assert "End battle round 1" in message.embed_text() and message.id == board.id  # it rides on the board

    # "End battle round 1" pressed twice (the answer to the first, the board redrawn, is slow): the
    # second press finds the round waiting for its confirmation, so it neither confirms it nor ends round 2.
    pressed = await held_answer(battle, w.alice, message, battle.cid("r1.end", "end"))
    again = await click(battle, w.bob, message, battle.cid("r1.end", "end"))
    assert again.ephemeral and "That question was already answered: the game is now at" in again.content
    assert "Confirm: end battle round 1?" in again.content
    # An old form button is refused the same way, without opening its form.
    old_tally = await click(battle, w.alice, board, battle.fid("r1.blood.p1"))
    assert old_tally.modal is None and old_tally.ephemeral and "already answered" in old_tally.content
    assert "end battle round 1" in latest_lines(redrawn(await pressed.response()))
    await muster.settle()
    # The board now asks only the confirmation: the round's tallies and its end are gone from it.
    assert "Confirm: end battle round 1?" in message.embed_text()
    assert [b.get("label") for b in board.buttons()] == ["Confirm", "Not yet"]

    confirm = battle.cid(asked(await battle.state(), "warcry.confirm").step, "confirm")
    confirmed = await held_answer(battle, w.bob, message, confirm)
    state = await battle.state()
    assert state.round == 2 and state.vp == {alice: 1, bob: 0}
    assert muster.bot is not None
    _info, stored = await muster.bot.sessions.load(battle.sid, fresh=True)
    before = stored.model_dump()
    posts = len(table_messages(muster))

    # Round 1's Confirm is still shown until the answer redrawing the board lands, but that question
    # is answered.
    stale = await click(battle, w.alice, message, confirm)
    assert stale.ephemeral and "That question was already answered: the game is now at" in stale.content

    await confirmed.response()
    await muster.settle()
    _info, stored = await muster.bot.sessions.load(battle.sid, fresh=True)
    assert stored.model_dump() == before
    assert len(table_messages(muster)) == posts
    assert "End battle round 2" in message.embed_text()
    # This round's own button still ends this round.
    state = await battle.end_round(bob)
    assert state.round == 3 and state.vp == {alice: 1, bob: 0}


async def test_a_tally_for_the_other_player_waits_for_their_confirmation(muster: Muster) -> None:
    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="Reaper")
    await battle.set_up()
    asked_for = redrawn(await battle.number("blood", bob, 80, by=alice))
    assert "Bob's blood tally for battle round 1 is 80" in latest_lines(asked_for), asked_for.embed_text()
    assert (await battle.state()).blood == {}
    message = _battle_message(battle)
    assert "Confirm: Bob's blood tally for battle round 1 is 80?" in message.embed_text()
    assert "Not yet" in [b.get("label") for b in message.buttons()]
    declined = redrawn(await battle.confirm(bob, "not_yet"))
    assert "says not yet" in latest_lines(declined), declined.embed_text()
    assert (await battle.state()).blood == {} and "End battle round 1" in message.embed_text()
    await battle.number("blood", bob, 70, by=alice)
    confirmed = redrawn(await battle.confirm(bob))
    assert "confirms" in latest_lines(confirmed), confirmed.embed_text()
    assert (await battle.state()).blood == {bob: 70}
    await battle.number("blood", alice, 90, by=alice)  # her own: recorded at once
    assert (await battle.state()).blood == {alice: 90, bob: 70}


async def test_a_whole_battle_in_its_thread_within_the_budgets(muster: Muster) -> None:
    """A Reaper battle from /warcry battle to its result, counted as the players see it.

    Budgets: parent channel ≤ 3 posts, thread ≤ 20 posts, pings to each player ≤ the times the
    battle waited on them and they answered, nothing left clickable at the end.
    Measured (seeded dice): parent 2 posts (start card, result); thread 7 posts (board, battleplan
    card, split, colours, set-up, Begin battle, the battle's round message), 47 edits; pings Alice 3,
    Bob 4 (she answered 11 times, he 10); no live component left.
    Before the shared table (commit 08bf47f, the same battle without the confirmations it did not yet
    ask): 43 posts in the channel, 30 edits, pings Alice 10 and Bob 9, 23 answered components still
    clickable. That same battle now: parent 2, thread 7, 40 edits, pings 3 and 4.
    Since the questions ride on the board (the split, colours, set-up and Begin battle posts announce
    them, nothing to click on them): thread 6 posts, 25 edits, pings 3 and 4, at most one thread edit
    per action.
    Since a click is answered by redrawing the board (UPDATE_MESSAGE): the same 25 edits are all the
    clicks' own answers, and no edit is sent apart (25 calls fewer, no ephemeral answer).
    """
    w, emu = muster.world, muster.emu
    alice, bob = w.alice.id, w.bob.id
    since = max((m.id for m in emu.messages(w.channel)), default=0)
    marks: list[int] = []
    with actions_marked(emu, marks):
        battle = await open_battle(muster, battleplan="Reaper")
        await battle.set_up()
        await battle.number("blood", alice, 120)
        await battle.number("blood", bob, 80, by=alice)  # for Bob: Bob confirms
        await battle.confirm(bob)
        await battle.end_round(bob)
        await battle.number("blood", bob, 200)
        await battle.end_round(alice, confirm_by=alice)  # Alice confirms her own
        await battle.act(alice, battle.cid("r3.end", "end"))
        await battle.confirm(bob, "not_yet")  # not yet: round 3 goes on
        await battle.end_round(alice)
        await battle.number("blood", alice, 10)
        state = await battle.end_round(bob)
        assert state.finished and state.outcome is not None and state.outcome.winner == alice
    await muster.announced()

    counts = count_table(emu, w.channel, battle.table, [w.alice, w.bob], since=since)
    print(f"warcry: {counts.line()}; must act: Alice {battle.acts[alice]}, Bob {battle.acts[bob]}")
    assert counts.parent_posts <= 3, counts.line()
    assert counts.thread_posts <= THREAD_BUDGET, counts.line()
    for player in (alice, bob):
        assert counts.pings[player] <= battle.acts[player], (player, counts.line(), battle.acts)
    assert counts.live_questions == [], counts.live_questions
    assert counts.repeated_edits == 0, counts  # no edit re-sends what a message shows
    per_action = thread_edits_per_action(emu, marks)
    assert len(per_action) >= battle.acts[alice] + battle.acts[bob] and max(per_action) <= 1, per_action
    redraws = sum(r.response_type == UPDATE_MESSAGE for r in emu.interactions.values())
    sent = len([r for r in emu.requests if r.method == "PATCH" and f"/channels/{battle.table.id}/" in r.path])
    print(f"warcry: {sent} thread edits sent apart, {redraws} answers redrew the board")
    # each click redrew the board itself: no edit sent apart, and every edit of the thread an answer's
    assert sent == 0 and redraws == counts.edits == sum(per_action), (per_action, redraws)
    # The result is announced in the channel; the board says it too.
    parent = "\n".join(m.all_text() for m in emu.messages(w.channel))
    assert "Warcry result" in parent and "Reaper" in parent
    assert "won because most victory points" in _scoreboard(muster).embed_text()


# ---------------------------------------------------------------- stand-alone commands


async def test_battleplan_shows_the_table_entry_for_the_die(muster: Muster) -> None:
    w = muster.world
    for _ in range(6):
        answer = await slash(muster, w.alice, "warcry battleplan", kind="matched")
        assert not answer.ephemeral
        shown = answer.message.embed_text() if answer.message else ""
        die = int(re.search(r"rolled (\d) on a D6", shown).group(1))  # type: ignore[union-attr]
        assert f"Battleplan: {MATCHED[die - 1]}" in shown and "No twist." in shown
    champions = await slash(muster, w.alice, "warcry battleplan", kind="champions")
    assert "on a D3" in champions.message.embed_text()  # type: ignore[union-attr]
    empty = await slash(muster, w.alice, "warcry battleplan", kind="generator")
    assert "deck has no cards loaded" in empty.message.embed_text()  # type: ignore[union-attr]


async def test_blocked_objective_roll_off(muster: Muster) -> None:
    w = muster.world
    answer = await slash(muster, w.alice, "warcry blocked-objective", opponent=w.bob)
    assert not answer.ephemeral and "wins** and places" in answer.content


async def test_warband_by_form_and_by_file(muster: Muster) -> None:
    w = muster.world
    opened = await (await muster.emu.slash(w.alice, w.channel, "warcry warband")).response()
    assert opened.modal is not None
    field = opened.modal.fields[0].custom_id
    roster = "Dominar, 400, Iron Golem, leader\nBreacher, 300, Iron Golem\nLegionary, 300, Iron Golem"
    done = await (await muster.emu.submit_modal(w.alice, opened.modal, {field: roster})).response()
    assert done.ephemeral and "can be mustered" in done.content and "1000 points" in done.content

    bad = "A, 600, Cult, leader\nB, 500, Other, leader\n"
    upload = muster.emu.upload("roster.txt", bad.encode())
    answer = await slash(muster, w.alice, "warcry warband", roster=upload)
    assert answer.ephemeral and "breaks 4 muster rules" in answer.content
    unreadable = muster.emu.upload("roster.txt", b"A, 100, Cult, leader\nB hundred Cult\n")
    answer = await slash(muster, w.alice, "warcry warband", roster=unreadable)
    assert answer.ephemeral and "line 2" in answer.content


async def test_battlegroups_checks_and_lists(muster: Muster) -> None:
    w = muster.world
    ok = await slash(muster, w.alice, "warcry battlegroups", fighters=15, dagger=5, shield=5, hammer=5)
    assert ok.ephemeral and "valid split" in ok.content
    bad = await slash(muster, w.alice, "warcry battlegroups", fighters=10, dagger=3, shield=3, hammer=4)
    assert bad.ephemeral and "at least a third" in bad.content and "4 of 10" in bad.content
    listed = await slash(muster, w.alice, "warcry battlegroups", fighters=3)
    assert "Dagger 1 · Shield 1 · Hammer 1" in listed.content
    fifteen = await slash(muster, w.alice, "warcry battlegroups", fighters=15)
    assert "Shield at least 5)" in fifteen.content and "Dagger 5 · Shield 5 · Hammer 5" in fifteen.content
    too_many = await slash(muster, w.alice, "warcry battlegroups", fighters=16)
    assert too_many.ephemeral and "3 to 15" in too_many.content


CLUB_PACK = """name: Club cards
decks:
  terrain:
    - {name: Club Ruins, matched_play: true}
  deployment:
    - {name: Club Lines, matched_play: true, red: {hammer: RND2}}
  victory:
    - {name: Club Hold, matched_play: true, summary: Hold the middle.}
  twist:
    - {name: Club Fog}
"""


async def test_pack_load_needs_manage_server_lists_every_error_and_feeds_the_generator(
    muster: Muster,
) -> None:
    w = muster.world
    upload = muster.emu.upload("pack.yaml", CLUB_PACK.encode())
    refused = await slash(muster, w.alice, "warcry pack load", file=upload)
    assert refused.ephemeral and "Manage Server" in refused.content
    broken = muster.emu.upload(
        "pack.yaml", b"name: X\ndecks:\n  twist:\n    - {colour: red}\n    - {name: Y, z: 1}\n"
    )
    answer = await slash(muster, w.carol, "warcry pack load", file=broken)
    assert answer.ephemeral and "line 4" in answer.content and "line 5" in answer.content
    loaded = await slash(muster, w.carol, "warcry pack load", file=upload)
    assert loaded.ephemeral and "terrain 1" in loaded.content
    dealt = await slash(muster, w.alice, "warcry battleplan", kind="generator-matched")
    shown = dealt.message.embed_text()  # type: ignore[union-attr]
    assert "Club Hold" in shown and "Club Ruins" in shown and "Club Fog" not in shown and "No twist." in shown


async def test_a_split_refused_by_its_form_names_every_rule_it_breaks_as_battlegroups_does(
    muster: Muster,
) -> None:
    """Dagger 7, Shield 2, Hammer 3 of 12 breaks two rules: the Dagger holds more than half and the
    Shield less than a third. The split form names both, in the words /warcry battlegroups uses."""
    w = muster.world
    battle = await open_battle(muster, battleplan="Reaper")
    state = await battle.state()
    first = state.loser_of_priority
    split = asked(state, "warcry.split")
    refused = await form(
        muster,
        battle.users[first],
        battle.fid(split.step, "split"),
        {"dagger": "7", "shield": "2", "hammer": "3"},
    )
    assert refused.ephemeral
    assert "The Dagger has 7, more than half of 12" in refused.content, refused.content
    assert "The Shield needs at least a third of the warband, rounded up: 4 of 12" in refused.content
    checked = await slash(muster, w.alice, "warcry battlegroups", fighters=12, dagger=7, shield=2, hammer=3)
    assert checked.ephemeral and checked.content == refused.content
    assert first not in (await battle.state()).splits  # nothing changed
