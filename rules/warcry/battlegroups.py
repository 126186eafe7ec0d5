"""Battle groups: splitting a warband into Dagger, Shield and Hammer, and every legal split."""

from __future__ import annotations

import math

from rules.errors import Refusals, RuleError
from rules.session import Model
from rules.warcry.pack import GROUPS, GroupName
from rules.warcry.warband import MAX_FIGHTERS, MIN_FIGHTERS
from rules.words import Marker, Words

N_ = Marker("warcry")

GROUP_TITLES: dict[GroupName, Words] = {
    "dagger": N_("Dagger"),
    "shield": N_("Shield"),
    "hammer": N_("Hammer"),
}
"""Battle groups by id, as players read them."""


class Split(Model):
    dagger: int
    shield: int
    hammer: int

    @property
    def fighters(self) -> int:
        return self.dagger + self.shield + self.hammer


class SplitProblem(Model):
    """One battle-group rule a split breaks, as a refusal code and its values (worded by the bot)."""

    code: str
    params: dict[str, str | int | Words | None] = {}

    def error(self) -> RuleError:
        return RuleError(code=self.code, **self.params)


def split_refusal(problems: list[SplitProblem]) -> RuleError:
    """The one refusal of a split that breaks `problems` (`split_problems`, not empty): the rule
    itself when it breaks one, else every rule it breaks, so the player can fix them all at once.
    The battle's split form and /warcry battlegroups both say this."""
    if len(problems) == 1:
        return problems[0].error()
    return Refusals([p.error() for p in problems], code="warcry.split_broken")


def shield_minimum(fighters: int) -> int:
    return math.ceil(fighters / 3)


def split_problems(fighters: int, split: Split) -> list[SplitProblem]:
    """Every battle-group rule a split breaks, for a warband of `fighters`."""
    if not MIN_FIGHTERS <= fighters <= MAX_FIGHTERS:
        return [
            SplitProblem(
                code="warcry.split_size",
                params={"minimum": MIN_FIGHTERS, "maximum": MAX_FIGHTERS, "fighters": fighters},
            )
        ]
    problems: list[SplitProblem] = []
    if split.fighters != fighters:
        problems.append(
            SplitProblem(code="warcry.split_total", params={"groups": split.fighters, "fighters": fighters})
        )
    half = fighters // 2
    for group, size in zip(GROUPS, (split.dagger, split.shield, split.hammer), strict=True):
        name = GROUP_TITLES[group]
        if size < 1:
            problems.append(SplitProblem(code="warcry.group_empty", params={"group": name}))
        elif size > half:
            problems.append(
                SplitProblem(
                    code="warcry.group_large",
                    params={"group": name, "size": size, "fighters": fighters, "half": half},
                )
            )
    minimum = shield_minimum(fighters)
    if split.shield < minimum:
        problems.append(
            SplitProblem(code="warcry.shield_small", params={"minimum": minimum, "fighters": fighters})
        )
    return problems


def valid_splits(fighters: int) -> list[Split]:
    """Every legal (Dagger, Shield, Hammer) split of a warband, Dagger then Shield ascending."""
    if not MIN_FIGHTERS <= fighters <= MAX_FIGHTERS:
        return []
    half = fighters // 2
    return [
        Split(dagger=d, shield=s, hammer=fighters - d - s)
        for d in range(1, half + 1)
        for s in range(shield_minimum(fighters), half + 1)
        if 1 <= fighters - d - s <= half
    ]
