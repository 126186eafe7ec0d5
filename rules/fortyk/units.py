"""Units are only what the players name: a unit is (owner, name), matched without regard to case or
spacing, so "intercessors " and "Intercessors" are the same squad."""

from __future__ import annotations

from rules.errors import RuleError
from rules.fortyk.models import FortyKState, Kill, Mark, RelicHolder


def tidy(name: str) -> str:
    return " ".join(name.split())


def same_name(a: str, b: str) -> bool:
    return tidy(a).casefold() == tidy(b).casefold()


def find_unit(state: FortyKState, owner: int, name: str) -> str | None:
    """The name a unit was first given, or None if this side has no unit of that name yet."""
    return next((known for o, known in state.named_units if o == owner and same_name(known, name)), None)


def known_units(state: FortyKState, side: int) -> list[str]:
    """Every unit of `side` named so far, in the order first named (for autocomplete)."""
    return [name for owner, name in state.named_units if owner == side]


def kill_of(state: FortyKState, owner: int, name: str) -> Kill | None:
    return next((k for k in state.kills if k.owner == owner and same_name(k.unit, name)), None)


def mark_on(state: FortyKState, owner: int, name: str) -> Mark | None:
    return next((m for m in state.marks if m.owner == owner and same_name(m.unit, name)), None)


def relic_carried_by(state: FortyKState, owner: int, name: str) -> RelicHolder | None:
    """The relic `owner`'s unit carries (it is always the enemy's relic), if any."""
    return next((h for h in state.relic_holders if h.relic_owner != owner and same_name(h.unit, name)), None)


def holder_of_relic(state: FortyKState, relic_owner: int) -> RelicHolder | None:
    return next((h for h in state.relic_holders if h.relic_owner == relic_owner), None)


def alive_units(state: FortyKState, side: int) -> list[str]:
    return [name for name in known_units(state, side) if kill_of(state, side, name) is None]


def marked_survivors(state: FortyKState, side: int) -> list[str]:
    """Units of `side` the enemy marked that have not been recorded as destroyed."""
    return [m.unit for m in state.marks if m.owner == side and kill_of(state, side, m.unit) is None]


def markable_units(state: FortyKState, player: int) -> list[str]:
    """Enemy units `player` could mark now: alive, never marked, not carrying `player`'s relic."""
    enemy = state.opponent(player)
    return [
        name
        for name in alive_units(state, enemy)
        if mark_on(state, enemy, name) is None and relic_carried_by(state, enemy, name) is None
    ]


def with_unit(state: FortyKState, owner: int, name: str) -> tuple[list[tuple[int, str]], str]:
    """The named-unit list including this unit, and the unit's canonical name."""
    existing = find_unit(state, owner, name)
    if existing is not None:
        return state.named_units, existing
    canonical = tidy(name)
    return [*state.named_units, (owner, canonical)], canonical


def why_no_mark(state: FortyKState, actor: int) -> RuleError | None:
    """Why the active player can't mark any unit now, whatever its name (None: they may)."""
    this_turn = next(
        (m for m in state.marks if m.by == actor and m.round == state.round and m.turn == state.turn), None
    )
    if this_turn is not None:
        return RuleError(code="fortyk.marked_this_turn", unit=this_turn.unit)
    if not state.marking_open:
        return RuleError(code="fortyk.marking_closed")
    return None
