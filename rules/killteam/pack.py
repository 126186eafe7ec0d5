"""Kill Team rules data: the card pack a game is played with.

The shipped pack (data/default.yaml) holds only public facts; a server uploads its own pack of the
same shape to add the rest. `parse_pack` checks an upload completely and reports every problem with
its line, so an organiser can fix the file in one go.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from rules.packs import MAX_PACK_BYTES as MAX_PACK_BYTES
from rules.packs import PackError as PackError
from rules.packs import Problem, read_pack, repeated
from rules.session import VALUE_PATTERN, Model

# Discord shows at most 25 options in one menu; the limits keep every question answerable in one.
MAX_MISSIONS = 25
MAX_MAPS = 25
MAX_ARCHETYPES = 8
MAX_ARCHETYPE_TAC_OPS = 15
MAX_FACTIONS = 24
MAX_FACTION_TAC_OPS = 10

MapGroup = Literal["1-3", "4-6", "7-9"]
MAP_GROUPS: tuple[MapGroup, ...] = ("1-3", "4-6", "7-9")
InitiativeResult = Literal["attacker", "defender", "roll-off"]

_ID = r"^[A-Za-z0-9][A-Za-z0-9_-]*$"


def slug(text: str) -> str:
    """A stable id from a name: 'Seek & Destroy' -> 'seek-destroy'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _group_of(map_id: str) -> MapGroup | None:
    match = re.search(r"([1-9])$", map_id)
    if not match:
        return None
    return MAP_GROUPS[(int(match.group(1)) - 1) // 3]


class Mission(Model):
    id: str = Field(default="", max_length=40)
    name: str = Field(min_length=1, max_length=60)
    summary: str = Field(default="", max_length=300)

    @model_validator(mode="after")
    def _fill_id(self) -> Mission:
        if not self.id:
            self.id = slug(self.name)
        return self


class MapCard(Model):
    """A map card; its type (1-3, 4-6, 7-9) comes from the number in its id unless given."""

    id: str = Field(min_length=1, max_length=12, pattern=_ID)
    name: str | None = Field(default=None, min_length=1, max_length=60)
    group: MapGroup | None = None

    @model_validator(mode="after")
    def _fill_group(self) -> MapCard:
        if self.group is None:
            self.group = _group_of(self.id)
            if self.group is None:
                raise ValueError(
                    "its id does not end in a number 1-9, so give its type: `group: 1-3`, `4-6` or `7-9`"
                )
        return self

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})" if self.name else f"Map {self.id}"


class TacOpCard(Model):
    id: str = Field(default="", max_length=40)
    name: str = Field(min_length=1, max_length=60)
    summary: str = Field(default="", max_length=300)

    @model_validator(mode="after")
    def _fill_id(self) -> TacOpCard:
        if not self.id:
            self.id = slug(self.name)
        return self


class Archetype(Model):
    name: str = Field(min_length=1, max_length=40)
    tac_ops: list[TacOpCard] = Field(default_factory=list, max_length=MAX_ARCHETYPE_TAC_OPS)


class Faction(Model):
    name: str = Field(min_length=1, max_length=60)
    archetypes: list[str] = Field(default_factory=list, max_length=MAX_ARCHETYPES)
    tac_ops: list[TacOpCard] = Field(default_factory=list, max_length=MAX_FACTION_TAC_OPS)


class ScoutingOption(Model):
    id: str = Field(min_length=1, max_length=20, pattern=_ID)
    name: str = Field(min_length=1, max_length=40)
    effect: str = Field(default="", max_length=300)


class InitiativeRow(Model):
    attacker: str
    defender: str
    initiative: InitiativeResult


class InitiativeRule(Model):
    """Who has the first initiative, from the attacker's and defender's scouting picks."""

    default: InitiativeResult = "roll-off"
    table: list[InitiativeRow] = Field(default_factory=list, max_length=100)

    def result(self, attacker_pick: str, defender_pick: str) -> InitiativeResult:
        for row in self.table:
            if row.attacker == attacker_pick and row.defender == defender_pick:
                return row.initiative
        return self.default


class TacOp(Model):
    """One Tac Op card with where it comes from: an archetype, or a faction."""

    id: str
    name: str
    archetype: str | None = None
    faction: str | None = None
    summary: str = ""

    @property
    def label(self) -> str:
        return f"{self.name} ({self.archetype or self.faction})"


class KillTeamPack(Model):
    name: str = Field(min_length=1, max_length=80)
    missions: list[Mission] = Field(min_length=1, max_length=MAX_MISSIONS)
    maps: list[MapCard] = Field(min_length=1, max_length=MAX_MAPS)
    archetypes: list[Archetype] = Field(default_factory=list, max_length=MAX_ARCHETYPES)
    factions: list[Faction] = Field(default_factory=list, max_length=MAX_FACTIONS)
    scouting: list[ScoutingOption] = Field(min_length=1, max_length=6)
    initiative: InitiativeRule = Field(default_factory=InitiativeRule)

    # ------------------------------------------------------------------ look-ups

    def mission(self, key: str) -> Mission | None:
        wanted = key.strip().lower()
        return next((m for m in self.missions if wanted in (m.id.lower(), m.name.lower())), None)

    def map(self, key: str) -> MapCard | None:
        wanted = key.strip().lower()
        for card in self.maps:
            if wanted in (card.id.lower(), card.label.lower()) or (card.name and wanted == card.name.lower()):
                return card
        return None

    def faction(self, name: str | None) -> Faction | None:
        if name is None:
            return None
        wanted = name.strip().lower()
        return next((f for f in self.factions if f.name.lower() == wanted), None)

    def archetype_ops(self, archetype: str) -> list[TacOp]:
        for entry in self.archetypes:
            if entry.name == archetype:
                return [
                    TacOp(id=c.id, name=c.name, archetype=entry.name, summary=c.summary)
                    for c in entry.tac_ops
                ]
        return []

    def faction_ops(self, faction: str | None) -> list[TacOp]:
        entry = self.faction(faction)
        if entry is None:
            return []
        return [TacOp(id=c.id, name=c.name, faction=entry.name, summary=c.summary) for c in entry.tac_ops]

    def all_tac_ops(self) -> list[TacOp]:
        ops = [op for entry in self.archetypes for op in self.archetype_ops(entry.name)]
        return ops + [op for entry in self.factions for op in self.faction_ops(entry.name)]

    def tac_op(self, op_id: str) -> TacOp | None:
        return next((op for op in self.all_tac_ops() if op.id == op_id), None)

    def find_tac_op(self, key: str, among: Sequence[str]) -> TacOp | None:
        """The Tac Op among `among` (ids) whose id or name is `key`, ignoring case."""
        wanted = key.strip().lower()
        for op_id in among:
            op = self.tac_op(op_id)
            if op and wanted in (op.id.lower(), op.name.lower(), op.label.lower()):
                return op
        return None

    def archetypes_with(self, minimum: int) -> list[str]:
        """Archetypes holding at least `minimum` Tac Ops (enough to complete a hand from them)."""
        return [a.name for a in self.archetypes if len(a.tac_ops) >= minimum]

    def scouting_option(self, key: str) -> ScoutingOption | None:
        wanted = key.strip().lower()
        return next((s for s in self.scouting if wanted in (s.id.lower(), s.name.lower())), None)


# ---------------------------------------------------------------------- checking


def _unfit_ids(pack: KillTeamPack) -> list[Problem]:
    """Mission and Tac Op ids are what a player's answer carries, so they must fit an answer's value."""
    hint = "letters, digits, '-', '_' and '.' only, at most 40; give it an `id:` like that"
    found: list[Problem] = [
        (("missions", i, "id"), f"the mission id `{m.id}` can't be used: {hint}")
        for i, m in enumerate(pack.missions)
        if not re.fullmatch(VALUE_PATTERN, m.id)
    ]
    sections: tuple[tuple[str, Sequence[Archetype | Faction]], ...] = (
        ("archetypes", pack.archetypes),
        ("factions", pack.factions),
    )
    found += [
        ((section, index, "tac_ops", op_index, "id"), f"the Tac Op id `{card.id}` can't be used: {hint}")
        for section, entries in sections
        for index, entry in enumerate(entries)
        for op_index, card in enumerate(entry.tac_ops)
        if not re.fullmatch(VALUE_PATTERN, card.id)
    ]
    return found


def _problems(pack: KillTeamPack) -> list[Problem]:
    """Cross-references pydantic cannot see: duplicates and names that point nowhere."""
    found: list[Problem] = []
    found += repeated(((("missions", i, "id"), m.id) for i, m in enumerate(pack.missions)), "mission id")
    found += repeated(
        ((("missions", i, "name"), m.name) for i, m in enumerate(pack.missions)), "mission name"
    )
    found += repeated(((("maps", i, "id"), m.id) for i, m in enumerate(pack.maps)), "map id")
    found += repeated(
        ((("archetypes", i, "name"), a.name) for i, a in enumerate(pack.archetypes)), "archetype"
    )
    found += repeated(((("factions", i, "name"), f.name) for i, f in enumerate(pack.factions)), "faction")
    found += repeated(((("scouting", i, "id"), s.id) for i, s in enumerate(pack.scouting)), "scouting id")
    sections: tuple[tuple[str, Sequence[Archetype | Faction]], ...] = (
        ("archetypes", pack.archetypes),
        ("factions", pack.factions),
    )
    found += repeated(
        (
            ((section, index, "tac_ops", op_index, "name"), card.id)
            for section, entries in sections
            for index, entry in enumerate(entries)
            for op_index, card in enumerate(entry.tac_ops)
        ),
        "Tac Op id",
        " (give one an `id:`)",
    )
    found += _unfit_ids(pack)
    archetype_names = {a.name for a in pack.archetypes}
    for index, faction in enumerate(pack.factions):
        for a_index, name in enumerate(faction.archetypes):
            if name not in archetype_names:
                found.append(
                    (
                        ("factions", index, "archetypes", a_index),
                        f"`{name}` is not one of the pack's archetypes",
                    )
                )
    scouting_ids = {s.id for s in pack.scouting}
    pairs: set[tuple[str, str]] = set()
    for index, row in enumerate(pack.initiative.table):
        for field in ("attacker", "defender"):
            value = getattr(row, field)
            if value not in scouting_ids:
                found.append(
                    (
                        ("initiative", "table", index, field),
                        f"`{value}` is not a scouting id ({', '.join(sorted(scouting_ids))})",
                    )
                )
        if (row.attacker, row.defender) in pairs:
            found.append((("initiative", "table", index), "this pair of picks is listed twice"))
        pairs.add((row.attacker, row.defender))
    return found


def parse_pack(text: str) -> KillTeamPack:
    """Check a server's own pack; raise PackError listing every problem with its line.

    A pack without `scouting` keeps the shipped scouting options.
    """
    scouting = [option.model_dump() for option in load_default_pack().scouting]
    return read_pack(text, KillTeamPack, defaults={"scouting": scouting}, check=_problems)


@lru_cache(maxsize=1)
def load_default_pack() -> KillTeamPack:
    path = Path(__file__).with_name("data") / "default.yaml"
    return read_pack(path.read_text(encoding="utf-8"), KillTeamPack, check=_problems)
