"""Roll-offs: each side rolls a D6 plus a bonus; ties are rolled again until one side is higher."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Roller

MAX_ROUNDS = 100


@dataclass(frozen=True)
class RollOffRound:
    rolls: tuple[int, int]
    totals: tuple[int, int]


@dataclass(frozen=True)
class RollOff:
    rounds: tuple[RollOffRound, ...]
    winner: int  # 0 or 1: the index of the side that won

    @property
    def rerolls(self) -> int:
        return len(self.rounds) - 1


def roll_off(roller: Roller, bonuses: tuple[int, int] = (0, 0), reason: str = "roll-off") -> RollOff:
    """Roll off; a tie re-rolls both dice (bonuses stay) until someone is ahead."""
    rounds: list[RollOffRound] = []
    for _ in range(MAX_ROUNDS):
        a, b = roller.roll(6, 2, reason)
        totals = (a + bonuses[0], b + bonuses[1])
        rounds.append(RollOffRound((a, b), totals))
        if totals[0] != totals[1]:
            return RollOff(tuple(rounds), 0 if totals[0] > totals[1] else 1)
    raise RuntimeError("roll-off did not resolve")  # pragma: no cover - 6^-200 chance
