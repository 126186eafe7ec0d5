"""Wargame dice: notation parsing and a roller that remembers every die it threw.

Randomness is injected (`random.Random`, or `random.SystemRandom` in production) so every procedure
is deterministic under test, and every roll is recorded so the bot can audit it.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from rules.errors import RuleError
from rules.text import echo

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_TERMS = 20

T = TypeVar("T")

NOTATION_EXAMPLES = "`3d6+2`, `d3`, `2d6kh1`, `2d6kl1`, `20d6>=4`, `2d6+d3`"


@dataclass(frozen=True)
class RollRecord:
    """One throw of one or more dice, kept for the audit log."""

    reason: str
    notation: str
    results: tuple[int, ...]


def _below(source: random.Random) -> Callable[[int], int] | None:
    """`random.Random`'s own draw of 0..n-1, when `source` keeps Random's `randint` (a scripted
    source in a test does not): `randint(1, n)` is `1 + _randbelow(n)` in CPython, the same draw
    from the same state, without the two Python calls `randint` and `randrange` wrap it in, on
    every die of every `/roll` (tests/rules/test_dice.py holds the two sequences equal)."""
    if type(source).randint is not _RANDINT:
        return None
    below: Callable[[int], int] | None = getattr(source, "_randbelow", None)
    return below


_RANDINT = random.Random.randint


@dataclass
class Roller:
    """Throws dice from an injected source and remembers each throw."""

    source: random.Random
    rolls: list[RollRecord] = field(default_factory=list)

    def roll(self, sides: int, count: int = 1, reason: str = "") -> list[int]:
        return list(self.throw(sides, count, reason))

    def throw(self, sides: int, count: int = 1, reason: str = "") -> tuple[int, ...]:
        """`roll`'s dice as the tuple that is recorded (no copy: what `roll_notation` keeps)."""
        below = _below(self.source)
        if below is not None:
            results = tuple([1 + below(sides) for _ in range(count)])
        else:
            randint = self.source.randint
            results = tuple([randint(1, sides) for _ in range(count)])
        notation = f"{count}d{sides}" if count != 1 else f"d{sides}"
        self.rolls.append(RollRecord(reason, notation, results))
        return results

    def d6(self, reason: str = "") -> int:
        return self.roll(6, 1, reason)[0]

    def shuffled(self, items: Sequence[T], reason: str = "") -> list[T]:
        """A shuffled copy. Only the fact of the shuffle is recorded, never its order: decks here are
        secret (hands, Tac Ops draws), and with a known card list the order would give them away in
        the public roll log."""
        order = list(range(len(items)))
        self.source.shuffle(order)
        self.rolls.append(RollRecord(reason, f"shuffle {len(items)} (hidden)", ()))
        return [items[i] for i in order]

    def pick(self, items: Sequence[T], reason: str = "") -> T:
        if not items:
            raise ValueError("cannot pick from nothing")
        index = self.roll(len(items), 1, reason)[0] - 1
        return items[index]


# ---------------------------------------------------------------- notation


@dataclass(frozen=True)
class DiceTerm:
    count: int
    sides: int
    keep: tuple[str, int] | None = None  # ("h"|"l", n)
    target: int | None = None  # success counting: each die >= target is one success
    sign: int = 1

    def describe(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.keep:
            text += f"k{self.keep[0]}{self.keep[1]}"
        if self.target is not None:
            text += f">={self.target}"
        return text


@dataclass(frozen=True)
class Constant:
    value: int
    sign: int = 1


@dataclass(frozen=True)
class TermResult:
    term: DiceTerm
    dice: tuple[int, ...]
    kept: tuple[int, ...]
    value: int


@dataclass(frozen=True)
class RollResult:
    notation: str
    terms: tuple[TermResult, ...]
    modifier: int
    total: int
    successes: int | None  # set when the roll counts successes


_TOKEN = re.compile(r"([+-]?)(?:(\d*)d(\d+)(?:k([hl])(\d+))?(?:>=(\d+))?|(\d+))", re.IGNORECASE)


def parse(notation: str) -> tuple[list[DiceTerm], list[Constant]]:
    """Parse dice notation such as `3d6+2`, `2d6kh1`, `20d6>=4` or `2d6+d3`.

    Raises RuleError with examples when the text is not notation or exceeds the limits.
    """
    plan = _plan(notation)
    return list(plan.terms), list(plan.constants)


PARSED_KEPT = 512


@dataclass(frozen=True)
class _Plan:
    """A notation parsed once, with what every roll of it needs that does not depend on the dice."""

    notation: str  # as shown: without its spaces
    terms: tuple[DiceTerm, ...]
    constants: tuple[Constant, ...]
    modifier: int
    counting: bool  # some term counts successes


@functools.lru_cache(maxsize=PARSED_KEPT)
def _plan(notation: str) -> _Plan:
    """A club rolls the same few notations over and over (every `/roll` waits on this), so the
    last PARSED_KEPT parsed are kept (plans are immutable); what fails is parsed again each time."""
    terms, constants = _parse(notation)
    return _Plan(
        notation.replace(" ", ""),
        tuple(terms),
        tuple(constants),
        sum(c.sign * c.value for c in constants),
        any(t.target is not None for t in terms),
    )


def _parse(notation: str) -> tuple[list[DiceTerm], list[Constant]]:
    text = notation.replace(" ", "").lower()
    if not text:
        raise RuleError(f"Give some dice to roll, for example {NOTATION_EXAMPLES}.")
    terms: list[DiceTerm] = []
    constants: list[Constant] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos or (pos > 0 and not match.group(1)):
            raise RuleError(f"I can't read `{echo(notation)}` as dice. Try {NOTATION_EXAMPLES}.")
        sign = -1 if match.group(1) == "-" else 1
        if match.group(7) is not None:
            constants.append(Constant(int(match.group(7)), sign))
        else:
            count = int(match.group(2)) if match.group(2) else 1
            sides = int(match.group(3))
            keep = (match.group(4), int(match.group(5))) if match.group(4) else None
            target = int(match.group(6)) if match.group(6) else None
            if count < 1 or sides < 1:
                raise RuleError(f"Dice need at least one die of at least one side. Try {NOTATION_EXAMPLES}.")
            if sides > MAX_SIDES:
                raise RuleError(f"Dice can have at most {MAX_SIDES} sides. Try {NOTATION_EXAMPLES}.")
            if keep and not 1 <= keep[1] <= count:
                raise RuleError(
                    f"You can keep between 1 and {count} of {count} dice in `{echo(notation)}`. "
                    f"Try {NOTATION_EXAMPLES}."
                )
            if target is not None and keep:
                raise RuleError(
                    f"Count successes or keep dice, not both, in one term. Try {NOTATION_EXAMPLES}."
                )
            terms.append(DiceTerm(count, sides, keep, target, sign))
        pos = match.end()
    if not terms:
        raise RuleError(f"`{echo(notation)}` has no dice in it. Try {NOTATION_EXAMPLES}.")
    if len(terms) + len(constants) > MAX_TERMS:
        raise RuleError(f"At most {MAX_TERMS} terms in one roll. Try {NOTATION_EXAMPLES}.")
    if sum(t.count for t in terms) > MAX_DICE:
        raise RuleError(f"At most {MAX_DICE} dice in one roll. Try {NOTATION_EXAMPLES}.")
    if any(abs(c.value) > 1_000_000 for c in constants):
        raise RuleError(f"That modifier is too large. Try {NOTATION_EXAMPLES}.")
    return terms, constants


def roll_notation(notation: str, roller: Roller, reason: str = "roll") -> RollResult:
    """Roll a whole notation; success-counting terms add their successes to the total."""
    plan = _plan(notation)
    results: list[TermResult] = []
    successes = 0
    total = plan.modifier
    for term in plan.terms:
        dice = roller.throw(term.sides, term.count, reason)
        if term.keep:
            kept = tuple(sorted(dice, reverse=term.keep[0] == "h")[: term.keep[1]])
        else:
            kept = dice
        if term.target is not None:
            target = term.target
            value = sum([1 for d in dice if d >= target])
            successes += term.sign * value
        else:
            value = sum(kept)
        value *= term.sign
        total += value
        results.append(TermResult(term, dice, kept, value))
    return RollResult(
        plan.notation, tuple(results), plan.modifier, total, successes if plan.counting else None
    )
