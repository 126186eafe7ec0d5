"""Shared helpers for the Warmaster rules tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import strategies as st

from rules.confirmation import ConfirmPending
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Answer, Event, Question
from rules.warmaster import (
    PROCEDURE,
    CardDef,
    DeckKind,
    Restriction,
    TargetRef,
    WarmasterState,
    builtin_magic_deck,
    start,
    step,
)
from rules.warmaster.actions import BeginBattle, FinishGame, PlayCard, RecordLoss
from rules.warmaster.events import ConfirmAnswered, ConfirmAsked, LossRecorded
from rules.warmaster.models import HeldCard
from rules.warmaster.new_targets import NewTarget
from rules.warmaster.targets import CharacterRole, Side, TargetKind, UnitType
from rules.words import Words

ALICE = 1001
BOB = 2002


def roller(seed: int = 0) -> Roller:
    return Roller(random.Random(seed))


def card(name: str, carrier: str = "unit", cost: int | None = 10, copies: int = 1, **extra: Any) -> CardDef:
    return CardDef(
        name=name,
        cost=cost,
        carrier=Restriction(carrier),
        copies=copies,
        effect=f"{name} does a thing.",
        **extra,
    )


SWORD = card("Test Sword", copies=30)
TACTIC = card("Test Drill", cost=5, copies=30)


def new_game(
    magic: list[CardDef] | None = None,
    tactics: list[CardDef] | None = None,
    points: tuple[int, int] = (2000, 2000),
    first: int | None = ALICE,
    seed: int = 0,
) -> tuple[WarmasterState, list[Event]]:
    return start(
        "game-1",
        [ALICE, BOB],
        list(points),
        roller(seed),
        first=first,
        magic=magic if magic is not None else [SWORD],
        tactics=tactics,
    )


def give(state: WarmasterState, player: int, *cards: CardDef | tuple[CardDef, DeckKind]) -> WarmasterState:
    """Replace a player's hand with these cards (ids H1, H2 ... in order)."""
    hand = []
    for number, item in enumerate(cards, start=1):
        definition, deck = item if isinstance(item, tuple) else (item, DeckKind.MAGIC)
        hand.append(HeldCard(id=f"H{player}-{number}", deck=deck, card=definition))
    sides = [s.model_copy(update={"hand": hand}) if s.player == player else s for s in state.sides]
    return state.model_copy(update={"sides": sides})


def act(state: WarmasterState, action: Any) -> tuple[WarmasterState, list[Event]]:
    """Step through the procedure, checking the input is untouched and the result survives JSON."""
    before = state.model_dump_json()
    new_state, events = PROCEDURE.step(state, action, roller(99))
    assert state.model_dump_json() == before, "step mutated its input"
    assert PROCEDURE.load(PROCEDURE.dump(new_state)) == new_state
    return new_state, events


def confirmed(
    state: WarmasterState, action: BeginBattle | FinishGame, by: int | None = None
) -> tuple[WarmasterState, list[Event]]:
    """Press begin or finish, then have `by` (the other player unless named) confirm it: the state
    after, and what the step itself did."""
    state, asked = act(state, action)
    assert state.pending is not None and [type(e) for e in asked] == [ConfirmAsked], asked
    confirmer = state.opponent(action.actor) if by is None else by
    state, done = act(state, ConfirmPending(actor=confirmer, serial=state.pending.serial, confirm=True))
    assert state.pending is None and isinstance(done[0], ConfirmAnswered) and done[0].confirmed
    return state, done[1:]


def unit(
    name: str, side: str = "mine", unit_type: str = "infantry", shooting: bool | None = None
) -> TargetRef:
    return TargetRef(
        name=name, kind=TargetKind.UNIT, side=Side(side), unit_type=UnitType(unit_type), shooting=shooting
    )


def character(name: str, side: str = "mine", role: str = "general") -> TargetRef:
    return TargetRef(name=name, kind=TargetKind.CHARACTER, side=Side(side), role=CharacterRole(role))


def terrain(name: str) -> TargetRef:
    return TargetRef(name=name, kind=TargetKind.TERRAIN)


def named(name: str, side: str | None = None) -> TargetRef:
    return TargetRef(name=name, side=Side(side) if side else None)


def play(
    state: WarmasterState, actor: int, card_ref: str, target: TargetRef
) -> tuple[WarmasterState, list[Event]]:
    return act(state, PlayCard(actor=actor, card=card_ref, target=target))


def first_card(state: WarmasterState, player: int) -> str:
    return next(h.id for h in state.side(player).hand if not h.card.is_traded)


def public(events: list[Event]) -> list[Event]:
    return [e for e in events if e.private_to is None]


def visible_to(events: list[Event], player: int) -> list[Event]:
    return [e for e in events if e.private_to in (None, player)]


@contextmanager
def refused(code: str, **params: str | int | None) -> Iterator[None]:
    """Expect a refusal with this code and (at least) these values (`Words` as their English)."""
    with pytest.raises(RuleError) as caught:
        yield
    error = caught.value
    assert error.code == code, (error.code, error.params)
    for key, value in params.items():
        found = error.params.get(key)
        assert (str(found) if isinstance(found, Words) else found) == value, (key, error.params)


def shapes() -> st.SearchStrategy[NewTarget]:
    """Every kind, side and detail a new target can have, with any name at all."""
    names = st.text()
    units = st.builds(
        NewTarget,
        name=names,
        kind=st.just(TargetKind.UNIT),
        side=st.sampled_from([Side.MINE, Side.ENEMY]),
        unit_type=st.none() | st.sampled_from(list(UnitType)),
        shooting=st.booleans(),
    )
    characters = st.builds(
        NewTarget,
        name=names,
        kind=st.just(TargetKind.CHARACTER),
        side=st.sampled_from([Side.MINE, Side.ENEMY]),
        role=st.none() | st.sampled_from(list(CharacterRole)),
        shooting=st.booleans(),
    )
    terrain = st.builds(NewTarget, name=names, kind=st.just(TargetKind.TERRAIN), side=st.just(Side.NEUTRAL))
    return units | characters | terrain


ORCS = NewTarget(name="Orcs", kind=TargetKind.UNIT, side=Side.MINE, unit_type=UnitType.INFANTRY)


def asked(state: WarmasterState, player: int, topic: str) -> list[Question]:
    return [q for q in PROCEDURE.ask(state, player) if q.topic == topic]


def only(state: WarmasterState, player: int, topic: str) -> Question:
    [question] = asked(state, player, topic)
    return question


def answer(state: WarmasterState, reply: Answer) -> WarmasterState:
    """Answer through the procedure, checking the input state is untouched."""
    before = state.model_dump()
    new_state, _ = PROCEDURE.answer(state, reply, roller(3))
    assert state.model_dump() == before
    return new_state


def cards_laid() -> WarmasterState:
    """Every card laid, each face down on a unit of the player who laid it (U0 is Alice's)."""
    state: WarmasterState = new_game()[0]
    while state.turn is not None:
        state, _ = play(state, state.turn, state.side(state.turn).hand[0].id, unit(f"U{len(state.laid)}"))
    return state


def laid_game() -> WarmasterState:
    """Alice has the first turn; seven cards are laid (see the table in the test below)."""
    state, _ = new_game()
    state = give(
        state,
        ALICE,
        BY_NAME["Sword of Might"],
        BY_NAME["Treasure of Sotek"],
        BY_NAME["Banner of Hoohaa!"],
        BY_NAME["Crown of Command"],
    )
    state = give(
        state, BOB, BY_NAME["Sword of Weakness"], BY_NAME["Treasure of Sotek"], BY_NAME["Shield of Heroes"]
    )
    state, _ = play(state, ALICE, "Sword of Might", unit("Knights", unit_type="cavalry"))
    state, _ = play(state, BOB, "Sword of Weakness", unit("Spears", side="enemy"))
    state, _ = play(state, ALICE, "Treasure of Sotek", unit("Archers", shooting=True))
    state, _ = play(state, BOB, "Treasure of Sotek", unit("Wolves", side="mine", unit_type="cavalry"))
    state, _ = play(state, ALICE, "Banner of Hoohaa!", unit("Goblins", side="enemy"))
    state, _ = play(state, BOB, "Shield of Heroes", unit("Troll", side="mine", unit_type="monster"))
    state, _ = play(state, ALICE, "Crown of Command", character("Karl", role="general"))
    assert state.turn is None
    state, _ = confirmed(state, BeginBattle(actor=ALICE))
    return state


def lose(
    state: WarmasterState, actor: int, name: str, points: int, side: str | None = None
) -> tuple[WarmasterState, LossRecorded]:
    ref = TargetRef(name=name, side=Side(side) if side else None, kind=TargetKind.UNIT if side else None)
    state, events = act(state, RecordLoss(actor=actor, target=ref, base_points=points))
    loss = events[-1]
    assert isinstance(loss, LossRecorded)
    return state, loss


BY_NAME = {c.name: c for c in builtin_magic_deck()}

__all__ = ["step"]
