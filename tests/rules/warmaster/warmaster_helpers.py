"""Shared helpers for the Warmaster rules tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from rules.confirmation import ConfirmPending
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event
from rules.warmaster import PROCEDURE, CardDef, DeckKind, Restriction, TargetRef, WarmasterState, start, step
from rules.warmaster.actions import BeginBattle, FinishGame, PlayCard
from rules.warmaster.events import ConfirmAnswered, ConfirmAsked
from rules.warmaster.models import HeldCard
from rules.warmaster.targets import CharacterRole, Side, TargetKind, UnitType

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
    """Expect a refusal with this code and (at least) these values."""
    with pytest.raises(RuleError) as caught:
        yield
    error = caught.value
    assert error.code == code, (error.code, error.params)
    for key, value in params.items():
        assert error.params.get(key) == value, (key, error.params)


__all__ = ["step"]
