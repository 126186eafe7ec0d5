"""40K missions as data: what a mission's set-up, battle length and victory conditions are.

The procedure reads every number from a `Mission`, so a server can add missions by loading a pack
(`parse_pack`) instead of waiting for code. The built-in pack ships "Marked for Death".
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from rules.packs import MAX_PACK_BYTES as MAX_PACK_BYTES
from rules.packs import PackError as PackError
from rules.packs import read_pack
from rules.session import Model
from rules.words import Marker, Words

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Note = Annotated[str, StringConstraints(strip_whitespace=True, max_length=400)]
Key = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")]

N_ = Marker("fortyk")
# The built-in mission's zones and victory-condition tiers are plain words in the catalogue; a
# server's own pack names its zones and tiers as it likes, shown as written.
BUILTIN_ZONES = (
    N_("North-west quarter"),
    N_("South-east quarter"),
    N_("North-east quarter"),
    N_("South-west quarter"),
)
BUILTIN_TIERS = (N_("Primary"), N_("Secondary"), N_("Tertiary"), N_("Quaternary"))


def _named(name: str, builtin: tuple[Words, ...]) -> Words:
    return next((words for words in builtin if words.english == name), Words.verbatim(name))


def zone_words(name: str) -> Words:
    """A deployment zone as players read it: a built-in zone's catalogue words, a pack's as written."""
    return _named(name, BUILTIN_ZONES)


def tier_words(tier: str) -> Words:
    """A victory-condition tier as players read it: built-in tiers translated, a pack's as written."""
    return _named(tier, BUILTIN_TIERS)


class Zone(Model):
    """A deployment zone the roll-off winner may pick; the other player takes `opposite`."""

    name: Name
    opposite: Name


class Deployment(Model):
    map: Name
    reference: Note | None = None
    zones: list[Zone] = Field(min_length=2, max_length=20)

    @field_validator("zones")
    @classmethod
    def _zones_pair_up(cls, zones: list[Zone]) -> list[Zone]:
        names = [z.name.casefold() for z in zones]
        if len(set(names)) != len(names):
            raise ValueError("zone names must be unique")
        for zone in zones:
            if zone.opposite.casefold() not in names:
                raise ValueError(f"the opposite of {zone.name!r} ({zone.opposite!r}) is not a listed zone")
            if zone.opposite.casefold() == zone.name.casefold():
                raise ValueError(f"{zone.name!r} cannot be its own opposite")
        return zones

    def zone(self, name: str) -> Zone | None:
        wanted = name.strip().casefold()
        return next((z for z in self.zones if z.name.casefold() == wanted), None)


class FirstTurn(Model):
    setup_first_bonus: int = Field(default=0, ge=0, le=6)
    seize_on: int | None = Field(default=None, ge=2, le=6)  # None: the initiative cannot be seized


class ContinueRoll(Model):
    """After `after_round`, the bot rolls a D6 for one player; `needs`+ keeps the battle going."""

    after_round: int = Field(ge=1, le=20)
    roller: Literal["first", "second"]
    needs: int = Field(ge=2, le=6)


class BattleLength(Model):
    continue_rolls: list[ContinueRoll] = []
    max_rounds: int = Field(ge=1, le=20)

    @model_validator(mode="after")
    def _rolls_in_order(self) -> BattleLength:
        rounds = [r.after_round for r in self.continue_rolls]
        if rounds != sorted(set(rounds)):
            raise ValueError("continue_rolls must be in increasing order of after_round, one per round")
        if rounds and rounds[-1] >= self.max_rounds:
            raise ValueError("every continue roll must come before max_rounds")
        return self

    def roll_after(self, round_number: int) -> ContinueRoll | None:
        return next((r for r in self.continue_rolls if r.after_round == round_number), None)


class Marks(Model):
    """Marked for Death: a unit destroyed in the turn it was marked gives this many extra KP."""

    bonus_kill_points: int = Field(ge=0, le=10)


class Relics(Model):
    reference: Note | None = None
    placement: Note | None = None


class ConditionKind(StrEnum):
    MOST_KILL_POINTS = "most_kill_points"
    HOLDS_ENEMY_RELIC = "holds_enemy_relic"
    MORE_QUARTERS = "more_quarters"
    PER_MARKED_SURVIVOR = "per_marked_survivor"


class Condition(Model):
    key: Key
    tier: Name
    name: Name
    kind: ConditionKind
    points: int = Field(ge=1, le=100)
    split_ties: bool = True  # a tie, or nobody achieving it, splits the points rounding up

    @property
    def per_unit(self) -> bool:
        return self.kind is ConditionKind.PER_MARKED_SURVIVOR


class Mission(Model):
    key: Key
    name: Name
    version: Name | None = None
    blurb: Note = ""
    deployment: Deployment
    first_turn: FirstTurn = FirstTurn()
    battle_length: BattleLength
    marks: Marks | None = None
    relics: Relics | None = None
    table_quarters: int = Field(default=4, ge=0, le=8)
    conditions: list[Condition] = Field(min_length=1, max_length=10)

    @model_validator(mode="after")
    def _conditions_fit(self) -> Mission:
        keys = [c.key for c in self.conditions]
        if len(set(keys)) != len(keys):
            raise ValueError("condition keys must be unique")
        kinds = {c.kind for c in self.conditions}
        if ConditionKind.PER_MARKED_SURVIVOR in kinds and self.marks is None:
            raise ValueError("a per_marked_survivor condition needs the mission to have marks")
        if ConditionKind.HOLDS_ENEMY_RELIC in kinds and self.relics is None:
            raise ValueError("a holds_enemy_relic condition needs the mission to have relics")
        if ConditionKind.MORE_QUARTERS in kinds and self.table_quarters == 0:
            raise ValueError("a more_quarters condition needs table_quarters above 0")
        return self

    @property
    def title(self) -> str:
        return f"{self.name} v{self.version}" if self.version else self.name


class Pack(Model):
    missions: list[Mission] = Field(min_length=1, max_length=50)

    @field_validator("missions")
    @classmethod
    def _unique_keys(cls, missions: list[Mission]) -> list[Mission]:
        keys = [m.key for m in missions]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        if duplicates:
            raise ValueError(f"mission keys must be unique; repeated: {', '.join(duplicates)}")
        return missions

    def get(self, key: str) -> Mission | None:
        return next((m for m in self.missions if m.key == key), None)


def parse_pack(text: str) -> Pack:
    """Read and validate a mission pack; raise PackError naming every problem with line and field."""
    return read_pack(text, Pack)


@cache
def builtin_pack() -> Pack:
    text = resources.files("rules.fortyk").joinpath("data/missions.yaml").read_text(encoding="utf-8")
    return parse_pack(text)


def builtin_mission(key: str) -> Mission:
    mission = builtin_pack().get(key)
    if mission is None:
        raise KeyError(key)
    return mission
