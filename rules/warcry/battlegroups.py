"""Battle groups: splitting a warband into Dagger, Shield and Hammer, and every legal split."""

from __future__ import annotations

import math

from rules.session import Model
from rules.warcry.warband import MAX_FIGHTERS, MIN_FIGHTERS


class Split(Model):
    dagger: int
    shield: int
    hammer: int

    @property
    def fighters(self) -> int:
        return self.dagger + self.shield + self.hammer


def shield_minimum(fighters: int) -> int:
    return math.ceil(fighters / 3)


def split_violations(fighters: int, split: Split) -> list[str]:
    """Every battle-group rule a split breaks, for a warband of `fighters`."""
    violations: list[str] = []
    if not MIN_FIGHTERS <= fighters <= MAX_FIGHTERS:
        return [f"A warband has {MIN_FIGHTERS} to {MAX_FIGHTERS} fighters, so {fighters} cannot be split."]
    if split.fighters != fighters:
        violations.append(f"The groups hold {split.fighters} fighters but the warband has {fighters}.")
    half = fighters // 2
    for name, size in (("Dagger", split.dagger), ("Shield", split.shield), ("Hammer", split.hammer)):
        if size < 1:
            violations.append(f"The {name} needs at least 1 fighter.")
        elif size > half:
            violations.append(f"The {name} has {size}, more than half of {fighters} (at most {half}).")
    minimum = shield_minimum(fighters)
    if split.shield < minimum:
        violations.append(f"The Shield needs at least a third of the warband, rounded up: "
                          f"{minimum} of {fighters}.")
    return violations


def valid_splits(fighters: int) -> list[Split]:
    """Every legal (Dagger, Shield, Hammer) split of a warband, Dagger then Shield ascending."""
    if not MIN_FIGHTERS <= fighters <= MAX_FIGHTERS:
        return []
    half = fighters // 2
    return [Split(dagger=d, shield=s, hammer=fighters - d - s)
            for d in range(1, half + 1) for s in range(shield_minimum(fighters), half + 1)
            if 1 <= fighters - d - s <= half]
