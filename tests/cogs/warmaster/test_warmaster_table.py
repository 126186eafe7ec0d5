"""Warmaster's questions at the shared table: what the table answers for a player and what it waits for."""

from __future__ import annotations

from bot.lang.text import add_words
from bot.play.table import only_answer
from cogs.warmaster.refusals import ENGLISH
from rules.confirmation import ConfirmPending
from rules.session import Answer
from rules.warmaster import PROCEDURE, builtin_magic_deck
from rules.warmaster.actions import BeginBattle, RevealCard, TargetRef
from rules.warmaster.events import BattleBegun, ConfirmAnswered
from rules.warmaster.models import Phase
from rules.warmaster.questions import (
    BEGIN,
    CONFIRM,
    LAY,
    PASS,
    REVEAL,
)
from tests.rules.warmaster.warmaster_helpers import (
    ALICE,
    BOB,
    answer,
    asked,
    card,
    cards_laid,
    first_card,
    give,
    new_game,
    only,
    play,
    refused,
    roller,
    unit,
)

add_words(ENGLISH)
BY_NAME = {c.name: c for c in builtin_magic_deck()}
STRANGER = 4242


def test_pass_is_offered_when_no_card_fits_and_refused_otherwise() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Ring of Power"], BY_NAME["Wand of Power"])
    passing = only(state, ALICE, PASS)
    assert not passing.options[0].disabled and passing.params["refusal"] is None
    # She may still name a wizard for either card: passing is one choice among those, never made
    # for her.
    assert asked(state, ALICE, LAY) and passing.kind == "done" and only_answer(PROCEDURE, state) is None
    state = answer(state, Answer(actor=ALICE, step=passing.step, values=["pass"]))
    assert state.side(ALICE).done is not None and state.turn == BOB


def test_with_nothing_left_to_lay_passing_is_the_one_answer() -> None:
    state, _ = new_game()
    table_card = card("Table Cloth", carrier="table")
    state = give(state, ALICE, table_card, table_card)
    state, _ = play(state, ALICE, f"H{ALICE}-1", TargetRef(key="table"))
    state, _ = play(state, BOB, first_card(state, BOB), unit("Orcs"))
    # The table holds her magic item card already: her second cloth fits nowhere.
    assert state.turn == ALICE and not asked(state, ALICE, LAY)
    passing = only(state, ALICE, PASS)
    assert passing.kind == "choose" and not passing.options[0].disabled
    found = only_answer(PROCEDURE, state)
    assert found is not None and found[0].step == passing.step and found[0].actor == ALICE


def test_begin_waits_for_the_other_player_and_not_yet_changes_nothing() -> None:
    state = cards_laid()
    before = state
    state = answer(state, Answer(actor=BOB, step=only(state, BOB, BEGIN).step))
    assert state.phase is Phase.CARDS and state.pending is not None and state.pending.by == BOB
    # Both are asked the confirmation in the battle's message; Begin is no longer asked.
    confirm = only(state, ALICE, CONFIRM)
    assert only(state, BOB, CONFIRM) == confirm and not asked(state, ALICE, BEGIN)
    assert (str(confirm.title), confirm.series, confirm.step, confirm.players) == (
        "Begin the battle?",
        "battle",
        "confirm.0",
        [ALICE, BOB],
    )
    assert [(o.value, str(o.label), o.disabled) for o in confirm.options] == [
        ("confirm", "Confirm", False),
        ("not_yet", "Not yet", False),
    ]
    assert not confirm.optional and confirm.kind == "choose"  # waited for, never answered for anyone
    assert only_answer(PROCEDURE, state) is None
    # Meanwhile the game takes nothing else: a tool stays asked, its options disabled.
    reveal = only(state, ALICE, REVEAL)
    assert reveal.options and all(o.disabled for o in reveal.options)
    with refused("answer.disabled"):
        answer(state, Answer(actor=ALICE, step=reveal.step, values=[reveal.options[0].value]))
    with refused("confirm.pending", by=BOB):
        PROCEDURE.step(state, RevealCard(actor=ALICE, placement=1), roller(1))
    with refused("confirm.pending", by=BOB):
        PROCEDURE.step(state, BeginBattle(actor=ALICE), roller(1))
    # Not yet from the other player takes it back: nothing else changed, Begin is asked again.
    state = answer(state, Answer(actor=ALICE, step=confirm.step, values=["not_yet"]))
    assert state.pending is None and state.model_dump(exclude={"confirmation"}) == before.model_dump(
        exclude={"confirmation"}
    )
    assert PROCEDURE.ask(state, ALICE) == PROCEDURE.ask(before, ALICE)
    # Asked again, it is a new confirmation: a click on the old one is stale and confirms nothing.
    state = answer(state, Answer(actor=ALICE, step=only(state, ALICE, BEGIN).step))
    assert only(state, BOB, CONFIRM).step == "confirm.1"
    with refused("answer.stale"):
        answer(state, Answer(actor=BOB, step=confirm.step, values=["confirm"]))
    with refused("confirm.stale"):
        PROCEDURE.step(state, ConfirmPending(actor=BOB, serial=0, confirm=True), roller(1))
    # The player who asked may confirm their own.
    state, events = PROCEDURE.answer(
        state, Answer(actor=ALICE, step="confirm.1", values=["confirm"]), roller(1)
    )
    assert state.phase is Phase.BATTLE and state.pending is None
    assert [type(e) for e in events] == [ConfirmAnswered, BattleBegun]
    assert isinstance(events[0], ConfirmAnswered) and (events[0].player, events[0].by) == (ALICE, ALICE)
    with refused("confirm.nothing_pending"):
        PROCEDURE.step(state, ConfirmPending(actor=BOB, serial=1, confirm=True), roller(1))
