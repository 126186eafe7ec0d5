"""Warcry through the emulator: battleplans, warband and battle-group checks, packs, and whole battles
from /warcry battle to a stored result, including a restart mid-battle."""

from __future__ import annotations

import re

from sqlalchemy import select

from bot import custom_ids
from bot.db.models import GameResult
from bot.questions import MAX_BUTTONS
from rules.session import Question
from rules.warcry.battle import WarcryState
from rules.warcry.questions import questions
from tests.e2e.conftest import Muster
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message, User

MATCHED = ["Treasure Hunters", "The Cursed Relic", "No Quarter", "Reaper", "Ley Lines", "The Hidden Vault"]


def _with_component(muster: Muster, custom_id: str) -> Message:
    """The latest channel message holding a component whose custom_id is (or starts with) `custom_id`."""
    for message in reversed(muster.emu.messages(muster.world.channel)):
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


async def form(muster: Muster, user: User, custom_id: str, values: dict[str, str]) -> InteractionResponse:
    """Open a button's form and fill its fields in order (`values` keys name them for the reader)."""
    opened = await press(muster, user, custom_id)
    assert opened.modal is not None, opened.text()
    fields = [f.custom_id for f in opened.modal.fields]
    assert len(fields) == len(values)
    filled = dict(zip(fields, values.values(), strict=True))
    record = await muster.emu.submit_modal(user, opened.modal, filled, channel=muster.world.channel)
    response = await record.response()
    await muster.settle()
    return response


async def slash(muster: Muster, user: User, command: str, **options: object) -> InteractionResponse:
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
    return next(o.value for o in question.options if o.label == label)


def channel_text(muster: Muster) -> str:
    return "\n".join(m.text() for m in muster.emu.messages(muster.world.channel))


def asked(state: WarcryState, topic: str, player: int | None = None) -> Question:
    """The question on `topic` the battle asks now (about `player`, for a per-player one)."""
    for question in questions(state):
        if question.topic == topic and (player is None or question.params.get("player") == player):
            return question
    raise LookupError(f"the battle asks nothing on {topic} now")


class Battle:
    """Two emulated players driving one battle by the buttons of its questions in the channel."""

    def __init__(self, muster: Muster, sid: str) -> None:
        self.muster = muster
        self.sid = sid
        w = muster.world
        self.users = {w.alice.id: w.alice, w.bob.id: w.bob}

    def cid(self, step: str, value: str) -> str:
        """The button answering question `step` with `value`."""
        return custom_ids.button(self.sid, step, value)

    def fid(self, step: str, value: str = custom_ids.NUMBER_VALUE) -> str:
        """A button that opens a form first (an option's fields, or a number)."""
        return custom_ids.button(self.sid, step, value, opens_form=True)

    async def state(self) -> WarcryState:
        return await battle_state(self.muster, self.sid)

    async def set_up(self) -> WarcryState:
        state = await self.state()
        for player in (state.loser_of_priority, state.winner_of_priority):
            split = asked(await self.state(), "warcry.split")
            assert split.players == [player]
            answer = await form(
                self.muster,
                self.users[player],
                self.fid(split.step, "split"),
                {"dagger": "3", "shield": "4", "hammer": "3"},
            )
            assert answer.ephemeral and "Dagger 3, Shield 4, Hammer 3" in answer.content
        state = await self.state()
        assert state.battleplan is not None
        colours = asked(state, "warcry.colour")
        await press(self.muster, self.users[state.winner_of_priority], self.cid(colours.step, "red"))
        state = await self.state()
        while state.phase == "deployment":
            deploy = asked(state, "warcry.deploy")
            current = next(s for s in state.deployment if not s.done)
            await press(self.muster, self.users[current.player], self.cid(deploy.step, current.group))
            state = await self.state()
        await press(self.muster, self.users[state.players[0]], self.cid("objectives.begin", "begin"))
        state = await self.state()
        assert state.phase == "battle" and state.round == 1
        return state

    async def number(self, kind: str, player: int, value: int) -> InteractionResponse:
        """Record a tally about `player`: a button per number for a short range, else a form."""
        question = asked(await self.state(), f"warcry.{kind}", player)
        assert question.number is not None
        if question.number.maximum - question.number.minimum < MAX_BUTTONS:
            return await press(self.muster, self.users[player], self.cid(question.step, str(value)))
        return await form(self.muster, self.users[player], self.fid(question.step), {"number": str(value)})

    async def end_round(self, by: int) -> WarcryState:
        state = await self.state()
        await press(self.muster, self.users[by], self.cid(f"r{state.round}.end", "end"))
        return await self.state()


async def open_battle(muster: Muster, **options: object) -> Battle:
    w = muster.world
    answer = await slash(muster, w.alice, "warcry battle", opponent=w.bob, **options)
    assert answer.ephemeral, answer.text()
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="warcry")
    return Battle(muster, info.id)


async def stored_result(muster: Muster, sid: str) -> GameResult:
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        row = await db.scalar(select(GameResult).where(GameResult.session_id == sid))
    assert row is not None
    return row


# ---------------------------------------------------------------- whole battles


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
    assert (await battle.number("blood", alice, 120)).ephemeral
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
    state = await battle.end_round(bob)
    assert state.finished and state.outcome is not None
    assert state.vp == {alice: 2, bob: 1} and state.outcome.winner == alice

    row = await stored_result(muster, battle.sid)
    assert row.system == "warcry" and row.mission == "Reaper" and row.winner_id == alice
    assert {row.player_a: row.score_a, row.player_b: row.score_b} == {alice: 2, bob: 1}
    assert "wins: Reaper after 4 battle rounds" in channel_text(muster)
    assert not _scoreboard(muster).buttons()  # each question is its own message, not the scoreboard's

    # The last round's buttons are still in the channel, but the finished battle takes nothing more.
    finished = state.model_dump()
    await muster.announced()  # the result's announcement is out before the posts are counted
    posts = len(muster.emu.messages(w.channel))
    late = await press(muster, w.alice, battle.cid("r4.end", "end"))
    assert late.ephemeral and "already finished" in late.content
    assert (await battle.state()).model_dump() == finished
    assert len(muster.emu.messages(w.channel)) == posts


def _scoreboard(muster: Muster) -> Message:
    boards = [
        m
        for m in muster.emu.messages(muster.world.channel)
        if m.embeds and str(m.embeds[0].get("title", "")).startswith("Warcry:")
    ]
    assert len(boards) == 1, "the scoreboard is one message, edited in place"
    return boards[0]


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
    assert [o.label for o in removal.options] == ["Objective A", "Objective B", "Objective C"]
    not_yours = battle.cid(removal.step, option(removal, "Objective A"))
    refused = await press(muster, battle.users[second], not_yours)
    assert refused.ephemeral and "isn't asking you anything" in refused.content
    await press(muster, battle.users[first], battle.cid(removal.step, option(removal, "Objective B")))
    state = await battle.state()
    assert state.objectives == ["A", "C"] and state.round == 2

    state = await battle.end_round(first)
    assert state.removal_by == second
    removal = asked(state, "warcry.remove")
    await press(muster, battle.users[second], battle.cid(removal.step, option(removal, "Objective A")))
    state = await battle.state()
    assert state.objectives == ["C"] and state.round == 3

    # The Hidden Vault has no blood tally, so no question asks for one.
    ids = [c.get("custom_id", "") for m in muster.emu.messages(w.channel) for c in m.buttons() + m.selects()]
    assert any(i.startswith(f"q:{battle.sid}:r3.control.") for i in ids)
    assert not any(re.match(rf"qf?:{battle.sid}:r\d+\.blood\.", i) for i in ids)
    control = asked(state, "warcry.control")
    held = next(o for o in control.options if o.group == "Objective C" and o.value.endswith(f".{bob}"))
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
    # The scoreboard posted before the restart still works.
    await battle.number("blood", alice, 30)
    await battle.end_round(alice)
    await battle.number("blood", bob, 30)
    state = await battle.end_round(alice)
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
    assert "Battle round 5 (an extra round: the battle is tied)" in _scoreboard(muster).embed_text()

    # The extra round is level too: the battle goes on to round 6, judged no more.
    state = await battle.end_round(bob)
    assert state.round == 6 and not state.finished and state.vp == {alice: 1, bob: 1}
    text = channel_text(muster)
    assert "Still nobody has won after the extra round" in text
    assert "Battle round 6 begins (the last warband standing decides)." in text
    board = _scoreboard(muster).embed_text()
    assert "Reaper — battle round 6 (the last warband standing decides)" in board
    assert (
        "Battle round 6 (the last warband standing decides): the victory card is no longer checked" in board
    )
    ids = [c.get("custom_id", "") for m in muster.emu.messages(w.channel) for c in m.buttons() + m.selects()]
    assert not any(re.match(rf"qf?:{battle.sid}:r6\.blood\.", i) for i in ids), (
        "no tally past the extra round"
    )
    assert battle.cid("r6.end", "end") in ids
    # An old round's blood button is stale, not a way to score a victory point now.
    stale = await press(muster, w.alice, battle.fid("r5.blood.p1"))
    assert stale.ephemeral and "already answered" in stale.content

    # Round 6 ends with nobody winning on victory points; in round 7 Bob's last fighter falls.
    state = await battle.end_round(alice)
    assert state.round == 7 and not state.finished
    claim = asked(state, "warcry.last_warband")
    await press(muster, w.alice, battle.cid(claim.step, option(claim, "Only Alice's warband is left")))
    state = await battle.state()
    assert state.last_warband_claim == alice and not state.finished
    await press(muster, w.bob, battle.cid("r7.claim", "yes"))
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
    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="Reaper")
    await battle.set_up()
    await battle.number("blood", alice, 50)
    state = await battle.end_round(alice)
    assert state.round == 2 and state.vp == {alice: 1, bob: 0}
    assert muster.bot is not None
    _info, stored = await muster.bot.sessions.load(battle.sid, fresh=True)
    before = stored.model_dump()
    posts = len(muster.emu.messages(w.channel))

    # "End battle round 1" is still on its message, one per question, but that question is answered.
    old_end = battle.cid("r1.end", "end")
    assert _with_component(muster, old_end).content == "End battle round 1"
    stale = await press(muster, w.bob, old_end)
    assert stale.ephemeral and "That question was already answered: the game is now at" in stale.content
    # An old form button is refused the same way, without opening its form.
    old_tally = await press(muster, w.alice, battle.fid("r1.blood.p1"))
    assert old_tally.modal is None and old_tally.ephemeral and "already answered" in old_tally.content

    _info, stored = await muster.bot.sessions.load(battle.sid, fresh=True)
    assert stored.model_dump() == before
    assert len(muster.emu.messages(w.channel)) == posts
    # This round's own button still ends this round.
    state = await battle.end_round(bob)
    assert state.round == 3 and state.vp == {alice: 1, bob: 0}


async def test_a_doubled_minus_in_a_tally_is_refused_politely(muster: Muster) -> None:
    battle = await open_battle(muster, battleplan="Reaper")
    await battle.set_up()
    odd = await form(muster, muster.world.bob, battle.fid("r1.blood.p2"), {"number": "--5"})
    assert odd.ephemeral and "whole number from 0 to 1000" in odd.content, odd.content


async def test_a_second_battle_between_the_same_players_here_is_refused(muster: Muster) -> None:
    w = muster.world
    await open_battle(muster)
    again = await slash(muster, w.bob, "warcry battle", opponent=w.alice)
    assert again.ephemeral and "already have a Warcry game" in again.content
    generated = await slash(muster, w.carol, "warcry battle", opponent=w.alice, kind="generator")
    assert generated.ephemeral and "victory deck has no cards" in generated.content


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
