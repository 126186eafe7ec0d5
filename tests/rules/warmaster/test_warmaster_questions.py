"""What Warmaster asks each player, and its answers: the options are exactly the legal moves.

Unit tests walk the main questions; the property test plays random games by answering random
questions, mixing in illegal answers (values not offered, disabled options, wrong counts, stale step
ids, strangers, bad typed fields) that must be refused by code and change nothing.
"""

from __future__ import annotations

import json
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warmaster_helpers import (
    ALICE,
    BOB,
    SWORD,
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

from rules.confirmation import ConfirmPending
from rules.errors import RuleError
from rules.session import Answer, Option, Question
from rules.warmaster import PROCEDURE, builtin_magic_deck, start
from rules.warmaster.actions import BeginBattle, FinishGame, PassTurn, RecordLoss, TargetRef
from rules.warmaster.events import ConfirmAnswered, GameFinished
from rules.warmaster.models import Phase, WarmasterState
from rules.warmaster.questions import (
    BEGIN,
    CONFIRM,
    FINISH,
    LAY,
    LOST,
    PASS,
    PROMPT,
    REVEAL,
    TRADE,
    new_target_words,
    to_action,
)
from rules.warmaster.targeting import all_targets
from rules.warmaster.targets import Restriction, TargetKind, UnitType
from rules.warmaster.turns import legal_plays

BY_NAME = {c.name: c for c in builtin_magic_deck()}
STRANGER = 4242


def lay_question(state: WarmasterState, player: int, card_id: str) -> Question:
    return next(q for q in asked(state, player, LAY) if q.params["card"] == card_id)


def option_for(question: Question, label_part: str) -> Option:
    return next(o for o in question.options if label_part in str(o.label))


def press(state: WarmasterState, player: int, topic: str, confirm_by: int | None = None) -> WarmasterState:
    """`player` presses Begin or Finish, and `confirm_by` (the other player unless named) confirms it."""
    state = answer(state, Answer(actor=player, step=only(state, player, topic).step))
    confirmer = state.opponent(player) if confirm_by is None else confirm_by
    return answer(
        state, Answer(actor=confirmer, step=only(state, confirmer, CONFIRM).step, values=["confirm"])
    )


# ------------------------------------------------------------------ the card phase


def test_the_player_whose_turn_it_is_gets_a_private_question_per_card() -> None:
    state, _ = new_game()
    questions = PROCEDURE.ask(state, ALICE)
    lays = [q for q in questions if q.topic == LAY]
    assert {q.params["card"] for q in lays} == {h.id for h in state.side(ALICE).hand}
    assert all(q.private and q.players == [ALICE] and q.step.startswith("c0.lay.") for q in lays)
    # A sword goes on units: the known targets (players, armies, table) don't take it, new units do.
    assert [o.value for o in lays[0].options] == ["new.mine", "new.enemy"]
    assert [f.key for f in lays[0].options[0].form] == ["name", "type"]
    # Passing is shown but refused while the sword can still go on a unit.
    passing = only(state, ALICE, PASS)
    assert passing.options[0].disabled and passing.params["refusal"] == "warmaster.must_lay_on_a_unit"
    # Bob is asked nothing yet: it isn't his turn and he has no face-down card.
    assert PROCEDURE.ask(state, BOB) == []
    assert PROCEDURE.ask(state, STRANGER) == []


def test_laying_on_a_new_target_by_answer_and_the_old_button_is_stale() -> None:
    state, _ = new_game()
    card_id = state.side(ALICE).hand[0].id
    question = lay_question(state, ALICE, card_id)
    reply = Answer(
        actor=ALICE, step=question.step, values=["new.mine"], fields={"name": "Knights", "type": "Cavalry"}
    )
    state = answer(state, reply)
    [laid] = state.laid
    knights = next(t for t in state.targets if t.name == "Knights")
    assert laid.held.id == card_id and laid.target_key == knights.key
    assert (knights.owner, knights.unit_type) == (ALICE, UnitType.CAVALRY)
    # The same click again: the game has moved on (Alice now only turns her card up).
    with refused("answer.stale", now="Turn a card face up"):
        answer(state, reply)
    # Bob's question offers Alice's Knights by its place among the known targets.
    bob_card = state.side(BOB).hand[0].id
    question = lay_question(state, BOB, bob_card)
    index = [t.key for t in all_targets(state)].index(knights.key)
    knights_option = question.option(f"t{index}")
    assert knights_option is not None and knights_option.disabled  # it holds a magic item card
    assert str(knights_option.label) == "Knights — enemy cavalry unit"
    with refused("answer.disabled", label="Knights — enemy cavalry unit"):
        answer(state, Answer(actor=BOB, step=question.step, values=[f"t{index}"]))


def test_a_typed_type_the_card_does_not_allow_is_refused_by_code() -> None:
    state, _ = new_game()
    question = lay_question(state, ALICE, state.side(ALICE).hand[0].id)
    reply = Answer(
        actor=ALICE, step=question.step, values=["new.enemy"], fields={"name": "Wolves", "type": "dragon"}
    )
    with refused("warmaster.type_unknown", typed="dragon"):
        answer(state, reply)
    missing = Answer(actor=ALICE, step=question.step, values=["new.enemy"], fields={"type": "infantry"})
    with refused("answer.field_missing"):
        answer(state, missing)
    marked = replace(reply, fields={"name": "<@1>", "type": "infantry"})
    with refused("warmaster.name_markup"):
        answer(state, marked)


def test_a_card_for_one_kind_of_character_needs_only_a_name_and_one_general_per_army() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Crown of Command"], BY_NAME["Sword of Might"])
    state = give(state, BOB, BY_NAME["Orb of Majesty"], BY_NAME["Sword of Might"])
    question = lay_question(state, ALICE, f"H{ALICE}-1")
    mine = option_for(question, "Your General")
    assert [f.key for f in mine.form] == ["name"] and not mine.disabled
    state = answer(
        state, Answer(actor=ALICE, step=question.step, values=["new.mine"], fields={"name": "Karl"})
    )
    karl = next(t for t in state.targets if t.name == "Karl")
    assert karl.role is not None and karl.role.value == "general"
    # Bob's Orb of Majesty may go on his own General (not named yet), not on a second one of Alice's.
    question = lay_question(state, BOB, f"H{BOB}-1")
    assert not option_for(question, "Your General").disabled
    enemy = option_for(question, "The enemy General")
    assert enemy.disabled and "already named" in str(enemy.description)
    index = [t.key for t in all_targets(state)].index(karl.key)
    karl_option = question.option(f"t{index}")
    assert karl_option is not None and karl_option.disabled  # he holds the Crown already


def test_a_card_for_shooters_makes_the_new_target_a_shooter() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Bow of Power"])
    question = lay_question(state, ALICE, f"H{ALICE}-1")
    assert new_target_words(Restriction.SHOOTER) == [t.value for t in UnitType] + [
        "general",
        "wizard",
        "runesmith",
        "hero",
    ]
    state = answer(
        state,
        Answer(
            actor=ALICE,
            step=question.step,
            values=["new.mine"],
            fields={"name": "Archers", "type": "infantry"},
        ),
    )
    archers = next(t for t in state.targets if t.name == "Archers")
    assert archers.shooting and archers.unit_type is UnitType.INFANTRY


def test_terrain_cards_offer_a_new_terrain_feature() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Place of Power"])
    question = lay_question(state, ALICE, f"H{ALICE}-1")
    assert [o.value for o in question.options] == ["new.neutral"]
    state = answer(
        state,
        Answer(actor=ALICE, step=question.step, values=["new.neutral"], fields={"name": "Stone Circle"}),
    )
    assert state.targets[0].kind is TargetKind.TERRAIN and not state.laid[0].face_up


def test_at_the_table_only_the_turn_is_awaited_and_a_player_has_one_prompt() -> None:
    """The turn is what the game waits for (its title names no card: the board shows it to both);
    each card's question and the player's tools are optional, all of one series, so the table
    keeps one DM prompt per player from turn to turn; begin and finish share one message."""
    state, _ = new_game()
    lucky = give(state, BOB, BY_NAME["Lucky Find!"], SWORD)
    assert [(q.topic, q.optional, q.series) for q in PROCEDURE.ask(lucky, BOB)] == [(TRADE, True, PROMPT)]
    questions = PROCEDURE.ask(state, ALICE)
    [turn] = [q for q in questions if not q.optional]
    assert turn.topic == PASS and str(turn.title) == "Lay a card" and turn.private
    lays = [q for q in questions if q.topic == LAY]
    assert lays and all(q.optional and q.series == PROMPT for q in lays) and turn.series == PROMPT
    kept = lays[1]
    state, _ = play(state, ALICE, str(lays[0].params["card"]), unit("Knights"))
    reveal = only(state, ALICE, REVEAL)
    assert reveal.optional and reveal.series == PROMPT
    state, _ = play(state, BOB, first_card(state, BOB), unit("Orcs"))
    again = lay_question(state, ALICE, str(kept.params["card"]))
    assert again.series == kept.series and again.step != kept.step  # one message, a fresh question
    assert only(state, ALICE, REVEAL).step == reveal.step  # Bob's card changed nothing of hers
    while state.turn is not None:
        state, _ = play(state, state.turn, first_card(state, state.turn), unit(f"U{len(state.laid)}"))
    begin = only(state, ALICE, BEGIN)
    state = press(state, ALICE, BEGIN)
    finish = only(state, ALICE, FINISH)
    lost = only(state, ALICE, LOST)
    assert begin.series == finish.series == "battle" and not (begin.optional or finish.optional)
    assert lost.optional and lost.series == PROMPT


def test_a_lucky_find_is_traded_by_answer_even_out_of_turn() -> None:
    state, _ = new_game()
    state = give(state, BOB, BY_NAME["Lucky Find!"], SWORD)
    trade = only(state, BOB, TRADE)
    assert trade.private and [o.value for o in trade.options] == [f"H{BOB}-1"]
    assert not asked(state, BOB, LAY)  # not Bob's turn to lay
    state = answer(state, Answer(actor=BOB, step=trade.step, values=[f"H{BOB}-1"]))
    assert len(state.side(BOB).hand) == 3 and not asked(state, BOB, TRADE)
    with refused("answer.not_asked"):
        answer(state, Answer(actor=BOB, step=trade.step, values=[f"H{BOB}-1"]))
    # The pass question tells Alice to trade first when she holds one.
    state = give(state, ALICE, BY_NAME["Lucky Find!"])
    assert only(state, ALICE, PASS).params["refusal"] == "warmaster.trade_first"
    empty = state.model_copy(update={"draw_pile": []})
    assert not asked(empty, ALICE, TRADE)


def test_reveal_and_begin_by_answer() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Sword of Might"])
    state, _ = play(state, ALICE, "Sword of Might", unit("Spears"))
    reveal = only(state, ALICE, REVEAL)
    assert [(o.value, str(o.label)) for o in reveal.options] == [
        ("p1", "#1 Sword of Might on Spears — your infantry unit")
    ]
    assert not asked(state, BOB, REVEAL)
    state = answer(state, Answer(actor=ALICE, step=reveal.step, values=["p1"]))
    assert state.laid[0].face_up and not asked(state, ALICE, REVEAL)
    assert not asked(state, ALICE, BEGIN)
    while state.turn is not None:
        state, _ = play(state, state.turn, state.side(state.turn).hand[0].id, unit(f"U{len(state.laid)}"))
    begin = only(state, BOB, BEGIN)
    assert begin.kind == "done" and not begin.private and begin.players == [ALICE, BOB]
    assert only(state, ALICE, BEGIN).step == begin.step
    state = press(state, BOB, BEGIN)
    assert state.phase is Phase.BATTLE
    with refused("answer.stale"):
        answer(state, Answer(actor=BOB, step=begin.step))


# ------------------------------------------------------------------ the battle


def battle() -> WarmasterState:
    state, _ = new_game()
    while state.turn is not None:
        state, _ = play(state, state.turn, state.side(state.turn).hand[0].id, unit(f"U{len(state.laid)}"))
    return press(state, ALICE, BEGIN)


def test_losses_are_recorded_by_answer_with_typed_points() -> None:
    state = battle()
    lost = only(state, BOB, LOST)
    u0 = next(t for t in state.targets if t.name == "U0")
    index = [t.key for t in all_targets(state)].index(u0.key)
    assert (
        option_for(lost, "U0").value == f"t{index}"
        and str(option_for(lost, "U0").label) == "U0 — enemy infantry unit"
    )
    for typed, code in [
        ("0", "answer.field_range"),
        ("lots", "answer.field_number"),
        ("", "answer.field_missing"),
    ]:
        with refused(code):
            answer(state, Answer(actor=BOB, step=lost.step, values=[f"t{index}"], fields={"points": typed}))
    state = answer(state, Answer(actor=BOB, step=lost.step, values=[f"t{index}"], fields={"points": "110"}))
    [loss] = state.losses
    assert (loss.target_key, loss.base_points, loss.to_player) == (u0.key, 110, BOB)
    lost = only(state, BOB, LOST)
    assert lost.step == "b1.lost" and not any(str(o.label).startswith("U0 ") for o in lost.options)
    new_one = Answer(
        actor=ALICE, step=lost.step, values=["new.enemy.character"], fields={"name": "Grom", "points": "80"}
    )
    state = answer(state, new_one)
    grom = next(t for t in state.targets if t.name == "Grom")
    assert (grom.kind, grom.owner, state.losses[-1].to_player) == (TargetKind.CHARACTER, BOB, ALICE)
    assert only(state, ALICE, FINISH).step == only(state, BOB, FINISH).step
    state = press(state, BOB, FINISH)
    assert state.finished and PROCEDURE.ask(state, ALICE) == []


# ------------------------------------------------------------------ confirmations


def test_finish_is_scored_once_the_other_player_confirms() -> None:
    state = press(cards_laid(), ALICE, BEGIN)
    u0 = next(t for t in state.targets if t.name == "U0")
    state, _ = PROCEDURE.step(
        state, RecordLoss(actor=BOB, target=TargetRef(key=u0.key), base_points=100), roller(1)
    )
    state = answer(state, Answer(actor=BOB, step=only(state, BOB, FINISH).step))
    confirm = only(state, ALICE, CONFIRM)
    assert str(confirm.title) == "Finish and score?" and not state.finished
    lost = only(state, ALICE, LOST)
    assert all(o.disabled for o in lost.options)
    with refused("confirm.pending", by=BOB):
        PROCEDURE.step(state, RecordLoss(actor=ALICE, target=unit("Late"), base_points=10), roller(1))
    # Not yet from the player who asked takes it back too.
    withdrawn = answer(state, Answer(actor=BOB, step=confirm.step, values=["not_yet"]))
    assert withdrawn.pending is None and not withdrawn.finished and only(withdrawn, ALICE, FINISH)
    state, events = PROCEDURE.answer(
        state, Answer(actor=ALICE, step=confirm.step, values=["confirm"]), roller(1)
    )
    assert state.finished and state.outcome is not None and state.outcome.winner == BOB
    # U0 was Alice's, 100 points with the Test Sword on it (+10): Bob scores 110.
    assert [(s.player, s.score) for s in state.outcome.sides] == [(ALICE, 0), (BOB, 110)]
    assert isinstance(events[0], ConfirmAnswered) and isinstance(events[-1], GameFinished)


def test_a_step_the_game_would_refuse_is_refused_at_once_not_offered() -> None:
    state, _ = new_game()
    with refused("warmaster.cards_still_laid", player=ALICE):
        PROCEDURE.step(state, BeginBattle(actor=BOB), roller(1))
    with refused("warmaster.battle_not_begun"):
        PROCEDURE.step(state, FinishGame(actor=BOB), roller(1))
    with refused("confirm.nothing_pending"):
        PROCEDURE.step(state, ConfirmPending(actor=BOB, serial=0, confirm=True), roller(1))
    state = press(cards_laid(), BOB, BEGIN)
    with refused("warmaster.already_begun"):
        PROCEDURE.step(state, BeginBattle(actor=ALICE), roller(1))
    assert state.pending is None and state.confirmation.asked == 1


def test_a_game_saved_before_confirmations_loads_and_plays_on() -> None:
    state = cards_laid()
    saved = state.model_dump(mode="json")
    del saved["confirmation"]
    loaded = PROCEDURE.load(json.dumps(saved))
    assert loaded == state and loaded.pending is None and loaded.confirmation.asked == 0
    assert press(loaded, ALICE, BEGIN).phase is Phase.BATTLE


# ------------------------------------------------------------------ the words for every code


# ------------------------------------------------------------------ random play by answers

NAMES = ["Spears", "Knights", "Karl", "Magnus", "Old Wood", "Grom", "Wolves"]
TACTICS = [
    card("Drilled", "unit", 10, copies=6),
    card("Ambush", "table", 0, copies=3),
    card("Fog", "terrain", 0, copies=3),
    card("Rivalry", "player", -5, copies=3),
    card("Inspired", "character", 15, copies=3),
]
MAGIC = [SWORD.model_copy(update={"copies": 8}), BY_NAME["Lucky Find!"].model_copy(update={"copies": 6})]
MAGIC += [BY_NAME[n] for n in ("Crown of Command", "Orb of Majesty", "Wand of Power", "Bow of Power")]
MAGIC += [
    BY_NAME[n] for n in ("Place of Power", "Scrying Glass", "Bad Luck! It's the Blank!", "Ring of Power")
]


def fill(data: st.DataObject, option: Option) -> dict[str, str]:
    """Typed fields a careful player would give (a name may still clash with a known target)."""
    fields: dict[str, str] = {}
    for field in option.form:
        if field.key == "name":
            fields["name"] = data.draw(st.sampled_from(NAMES)) + data.draw(st.sampled_from(["", " 2"]))
        elif field.key == "type":
            assert field.placeholder is not None
            fields["type"] = data.draw(st.sampled_from(str(field.placeholder).split(", ")))
        else:
            assert field.kind == "number" and field.minimum is not None
            fields[field.key] = str(data.draw(st.integers(field.minimum, 300)))
    return fields


def legal_answer(data: st.DataObject, player: int, question: Question) -> tuple[Answer, bool]:
    """An answer `check_answer` takes; True when it must also step (nothing typed could clash)."""
    if question.kind == "done":
        return Answer(actor=player, step=question.step), True
    option = data.draw(st.sampled_from([o for o in question.options if not o.disabled]))
    typed_target = any(f.key == "name" for f in option.form)
    return Answer(
        actor=player, step=question.step, values=[option.value], fields=fill(data, option)
    ), not typed_target


def illegal_answer(
    data: st.DataObject, state: WarmasterState, earlier: list[Answer]
) -> tuple[Answer, set[str]]:
    """An answer the game must refuse, with the codes it may be refused with."""
    player = data.draw(st.sampled_from(state.players))
    questions = PROCEDURE.ask(state, player)
    steps = {q.step for q in questions}
    stale = [a for a in earlier if a.step not in {q.step for q in PROCEDURE.ask(state, a.actor)}]
    kind = data.draw(
        st.sampled_from(["stale", "stranger", "offered", "disabled", "count", "field", "unasked"])
    )
    if kind == "stale" and stale:
        return data.draw(st.sampled_from(stale)), {"answer.stale", "answer.not_asked"}
    if kind == "stranger":
        step = data.draw(st.sampled_from(sorted(steps) or ["begin"]))
        return Answer(actor=STRANGER, step=step), {"game.not_player"}
    choosing = [q for q in questions if q.kind == "choose"]
    if kind in ("offered", "disabled", "count", "field") and choosing:
        question = data.draw(st.sampled_from(choosing))
        disabled = [o for o in question.options if o.disabled]
        enabled = [o for o in question.options if not o.disabled]
        if kind == "disabled" and disabled:
            option = data.draw(st.sampled_from(disabled))
            return Answer(
                actor=player, step=question.step, values=[option.value], fields=fill(data, option)
            ), {"answer.disabled"}
        if kind == "count":
            values = [o.value for o in question.options[:2]] if len(question.options) > 1 else []
            return Answer(actor=player, step=question.step, values=values), {"answer.count"}
        formed = [o for o in enabled if o.form]
        if kind == "field" and formed:
            option = data.draw(st.sampled_from(formed))
            fields = fill(data, option)
            key = data.draw(st.sampled_from(sorted(fields)))
            if key == "points":
                fields[key] = data.draw(st.sampled_from(["0", "-3", "10001", "many", " "]))
                codes = {"answer.field_range", "answer.field_number", "answer.field_missing"}
            elif key == "type":
                fields[key] = data.draw(st.sampled_from(["dragon", "", "Wizards"]))
                codes = {"warmaster.type_unknown", "answer.field_missing"}
            else:
                fields[key] = data.draw(st.sampled_from(["", "x" * 61, "<@1>", "a*b"]))
                codes = {"answer.field_missing", "answer.field_long", "warmaster.name_markup"}
            return Answer(actor=player, step=question.step, values=[option.value], fields=fields), codes
        value = data.draw(st.sampled_from(["t99", "p99", "new.table", "M999", "pass2"]))
        return Answer(actor=player, step=question.step, values=[value]), {"answer.not_offered"}
    step = data.draw(st.sampled_from(["c99.lay.M1", "b99.lost", "r0.0.reveal", "zz"]))
    return Answer(actor=player, step=step), {"answer.stale", "answer.not_asked"}


def check_questions_match_the_rules(state: WarmasterState) -> None:
    """Every legal lay is an enabled option; a disabled option's action is refused by the rules."""
    targets = [t.key for t in all_targets(state)]
    for player in state.players:
        questions = PROCEDURE.ask(state, player)
        assert len({q.step for q in questions}) == len(questions)
        for question in questions:
            for option in question.options:
                if option.disabled and not option.form:
                    action = to_action(
                        state, question, Answer(actor=player, step=question.step, values=[option.value])
                    )
                    try:
                        PROCEDURE.step(state, action, roller(1))
                    except RuleError as error:
                        assert error.code.startswith(("warmaster.", "confirm.")), error.code
                    else:
                        raise AssertionError(f"disabled {option} steps")
    if state.phase is Phase.CARDS and state.turn is not None:
        for held, target in legal_plays(state, state.turn):
            question = lay_question(state, state.turn, held.id)
            option = question.option(f"t{targets.index(target.key)}")
            assert option is not None and not option.disabled
        passing = only(state, state.turn, PASS)
        try:
            PROCEDURE.step(state, PassTurn(actor=state.turn), roller(1))
            assert not passing.options[0].disabled
        except RuleError as error:
            assert passing.options[0].disabled and passing.params["refusal"] == error.code


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seed=st.integers(0, 10_000),
    points=st.sampled_from([(2000, 2000), (4000, 3000), (1000, 5200)]),
    with_tactics=st.booleans(),
)
def test_random_answers_step_only_when_legal(
    data: st.DataObject, seed: int, points: tuple[int, int], with_tactics: bool
) -> None:
    state, _ = start(
        "prop",
        [ALICE, BOB],
        list(points),
        roller(seed),
        magic=MAGIC,
        tactics=TACTICS if with_tactics else None,
    )
    earlier: list[Answer] = []
    for _ in range(40):
        if state.finished:
            break
        check_questions_match_the_rules(state)
        before = state.model_dump()
        if data.draw(st.integers(0, 9)) < 3:
            reply, codes = illegal_answer(data, state, earlier)
            try:
                PROCEDURE.answer(state, reply, roller(2))
            except RuleError as error:
                assert error.code in codes, (error.code, error.params, reply)
                assert error.code.startswith(("warmaster.", "answer.", "confirm.", "game.")), error.code
            else:
                raise AssertionError(f"illegal answer stepped: {reply}")
            assert state.model_dump() == before
            continue
        finish_now = data.draw(st.integers(0, 4)) == 0  # else the battle would seldom last
        waiting = [
            (p, q)
            for p in state.players
            for q in PROCEDURE.ask(state, p)
            if (q.kind == "done" or any(not o.disabled for o in q.options))
            and (q.topic != FINISH or finish_now)
        ]
        assert waiting, "a game that isn't over always asks someone something"
        player, question = data.draw(st.sampled_from(waiting))
        reply, must_step = legal_answer(data, player, question)
        try:
            new_state, _ = PROCEDURE.answer(state, reply, roller(2))
        except RuleError as error:
            assert not must_step, (error.code, error.params, reply)
            assert error.code.startswith(("warmaster.", "confirm.")), error.code
            assert state.model_dump() == before
            continue
        assert state.model_dump() == before
        earlier.append(reply)
        state = new_state


def test_a_game_saved_with_its_own_confirmation_waiting_loads_and_confirms() -> None:
    """Saved when Warmaster kept its own confirmation (`pending`, `confirmations` on the state): it
    loads as the shared one, its posted Confirm still answers it, and the battle begins."""
    state = answer(cards_laid(), Answer(actor=BOB, step="begin"))
    posted = only(state, ALICE, CONFIRM)
    saved = state.model_dump(mode="json")
    shared = saved.pop("confirmation")
    saved.update(pending=shared["pending"], confirmations=shared["asked"])
    loaded = PROCEDURE.load(json.dumps(saved))
    assert loaded == state and loaded.pending is not None and loaded.pending.action == BeginBattle(actor=BOB)
    assert only(loaded, ALICE, CONFIRM) == posted
    begun = answer(loaded, Answer(actor=ALICE, step=posted.step, values=["confirm"]))
    assert begun.phase is Phase.BATTLE and begun.pending is None and begun.confirmation.asked == 1
