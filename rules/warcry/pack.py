"""The Warcry rules data and its loading: battleplans, generator cards and a pack holding them,
validated on load; the packaged core pack, and a server's own pack of cards.

The deployment maps of the published battleplans are pictures, so only what a map decides for the
bot (which deployment points start in reserve) is modelled; a server's pack may supply it.

A server pack is YAML a club uploads; it is read by the shared pack reader (rules/packs.py), which
refuses what could harm the bot and reports every problem at once with its line, so one upload
fixes all. This module holds only the pack's shape and what merging it into the core pack needs.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import Field, model_validator

from rules.packs import MAX_PACK_BYTES as MAX_PACK_BYTES
from rules.packs import PackError as PackError
from rules.packs import Problem, read_pack, reading, repeated
from rules.session import Model

DeckName = Literal["terrain", "deployment", "victory", "twist"]
DECK_NAMES: tuple[DeckName, ...] = ("terrain", "deployment", "victory", "twist")

GroupName = Literal["dagger", "shield", "hammer"]
GROUPS: tuple[GroupName, ...] = ("dagger", "shield", "hammer")

Arrival = Literal["start", "RND2", "RND3"]
Colour = Literal["red", "blue"]
Table = Literal["matched", "champions"]

# How a battle's winner is decided; each has its own tallies in the battle tracker.
Scoring = Literal[
    "treasure_hunters",
    "cursed_relic",
    "no_quarter",
    "reaper",
    "ley_lines",
    "hidden_vault",
    "cursed_prize",
    "altar_of_ascendancy",
    "brutal_conquest",
    "manual",
]

Name = Field(min_length=1, max_length=80)
Text = Field(default="", max_length=1000)


class DeploymentPoints(Model):
    """One colour's Dagger, Shield and Hammer points: on the table at the start, or arriving later."""

    dagger: Arrival = "start"
    shield: Arrival = "start"
    hammer: Arrival = "start"

    def arrival(self, group: GroupName) -> Arrival:
        arrival: Arrival = getattr(self, group)
        return arrival


class DeploymentMap(Model):
    red: DeploymentPoints = DeploymentPoints()
    blue: DeploymentPoints = DeploymentPoints()

    def points(self, colour: Colour) -> DeploymentPoints:
        return self.red if colour == "red" else self.blue

    def has_reserves(self) -> bool:
        return any(p.arrival(g) != "start" for p in (self.red, self.blue) for g in GROUPS)


class Card(Model):
    """A terrain or twist card: its name, whether it bears the Matched Play runemark, an optional note."""

    name: str = Name
    matched_play: bool = False
    summary: str = Text


class DeploymentCard(Card):
    red: DeploymentPoints = DeploymentPoints()
    blue: DeploymentPoints = DeploymentPoints()

    def deployment_map(self) -> DeploymentMap:
        return DeploymentMap(red=self.red, blue=self.blue)


class VictoryCard(Card):
    """A victory card; `scoring` names a tracker the bot knows, else the players report the result."""

    scoring: Scoring = "manual"
    objectives: int = Field(default=0, ge=0, le=12)
    treasure: int = Field(default=0, ge=0, le=12)


class Ability(Model):
    name: str = Name
    cost: str = Field(default="triple", max_length=20)
    summary: str = Text


class Battleplan(Model):
    """A preset battleplan: the six matched battleplans and the three Test of Champions battleplans."""

    name: str = Name
    table: Table
    roll: int = Field(ge=1, le=6)
    victory: str = Text
    scoring: Scoring
    rounds: int = Field(default=4, ge=1, le=10)
    otherwise_draw: bool = False  # "any other result is a draw": no extra rounds for a tie
    objectives: int = Field(default=0, ge=0, le=12)
    treasure: int = Field(default=0, ge=0, le=12)
    objective_labels: list[str] = []
    terrain: str = Text
    deal_terrain: bool = True  # the terrain step deals a Matched Play terrain card (else `terrain` says how)
    deployment_note: str = Text
    abilities: list[Ability] = []
    deployment: DeploymentMap | None = None

    @model_validator(mode="after")
    def _labels_match_objectives(self) -> Battleplan:
        if self.objective_labels and len(self.objective_labels) != self.objectives:
            raise ValueError(f"{len(self.objective_labels)} labels for {self.objectives} objectives")
        if len(set(self.objective_labels)) != len(self.objective_labels):
            raise ValueError("objective labels must differ from each other")
        if self.table == "champions" and self.roll > 3:
            raise ValueError("the Test of Champions table is a D3: roll 1 to 3")
        return self

    def labels(self) -> list[str]:
        return self.objective_labels or [str(i + 1) for i in range(self.objectives)]


class Decks(Model):
    terrain: list[Card] = []
    deployment: list[DeploymentCard] = []
    victory: list[VictoryCard] = []
    twist: list[Card] = []

    def deck(self, name: DeckName) -> list[Card]:
        cards: list[Card] = list(getattr(self, name))
        return cards

    def counts(self) -> dict[DeckName, int]:
        return {name: len(self.deck(name)) for name in DECK_NAMES}


class WarcryPack(Model):
    """Everything the Warcry commands draw from: the preset battleplans and the four generator decks."""

    name: str = Name
    battleplans: list[Battleplan]
    decks: Decks = Decks()
    notes: list[str] = []

    @model_validator(mode="after")
    def _tables_complete(self) -> WarcryPack:
        for table, sides in (("matched", 6), ("champions", 3)):
            rolls = sorted(b.roll for b in self.battleplans if b.table == table)
            if rolls != list(range(1, sides + 1)):
                raise ValueError(f"the {table} table needs exactly one battleplan for each roll 1 to {sides}")
        names = [b.name.casefold() for b in self.battleplans]
        if len(set(names)) != len(names):
            raise ValueError("two battleplans share a name")
        return self

    def table(self, table: Table) -> list[Battleplan]:
        """The battleplans of one table in die order."""
        return sorted((b for b in self.battleplans if b.table == table), key=lambda b: b.roll)

    def battleplan(self, name: str) -> Battleplan | None:
        wanted = name.strip().casefold()
        return next((b for b in self.battleplans if b.name.casefold() == wanted), None)


MAX_CARDS_PER_DECK = 200


class ServerDecks(Model):
    """Decks a server supplies; a deck left out keeps the cards it already had."""

    terrain: list[Card] | None = Field(default=None, max_length=MAX_CARDS_PER_DECK)
    deployment: list[DeploymentCard] | None = Field(default=None, max_length=MAX_CARDS_PER_DECK)
    victory: list[VictoryCard] | None = Field(default=None, max_length=MAX_CARDS_PER_DECK)
    twist: list[Card] | None = Field(default=None, max_length=MAX_CARDS_PER_DECK)


class ServerPack(Model):
    """The file a server uploads. `mode: add` appends to the decks, `mode: replace` swaps them."""

    name: str = Field(min_length=1, max_length=80)
    mode: Literal["add", "replace"] = "add"
    decks: ServerDecks = ServerDecks()
    # Which deployment points start in reserve, for the preset battleplans, by battleplan name.
    deployments: dict[str, DeploymentMap] = {}


@lru_cache(maxsize=1)
def core_pack() -> WarcryPack:
    """The pack shipped with Muster (read once from the package's own data)."""
    text = resources.files("rules.warcry").joinpath("data/core.yaml").read_text(encoding="utf-8")
    return read_pack(text, WarcryPack)


def parse_pack(text: str, base: WarcryPack | None = None) -> WarcryPack:
    """Validate a server's YAML pack and merge it into `base` (the core pack by default)."""
    base = base or core_pack()
    server = read_pack(text, ServerPack, check=lambda pack: _problems(base, pack))
    with reading():
        return _merge(base, server)


def _merge(base: WarcryPack, server: ServerPack) -> WarcryPack:
    """Apply a checked server pack to a base pack (`_problems` found nothing to refuse)."""
    decks = base.decks.model_copy()
    for deck in DECK_NAMES:
        cards: list[Any] | None = getattr(server.decks, deck)
        if cards is None:
            continue
        merged = list(cards) if server.mode == "replace" else [*decks.deck(deck), *cards]
        decks = decks.model_copy(update={deck: merged})
    battleplans = list(base.battleplans)
    for name, deployment in server.deployments.items():
        plan = base.battleplan(name)
        if plan is not None:
            battleplans = [
                b.model_copy(update={"deployment": deployment}) if b.name == plan.name else b
                for b in battleplans
            ]
    return WarcryPack(
        name=f"{base.name} + {server.name}", battleplans=battleplans, decks=decks, notes=base.notes
    )


def empty_decks(pack: WarcryPack) -> list[DeckName]:
    return [deck for deck in DECK_NAMES if not pack.decks.deck(deck)]


# ---------------------------------------------------------------- checking


def _problems(base: WarcryPack, server: ServerPack) -> list[Problem]:
    return [*_duplicates(server), *_merge_problems(base, server)]


def _duplicates(server: ServerPack) -> list[Problem]:
    found: list[Problem] = []
    for deck in DECK_NAMES:
        cards: list[Card] = getattr(server.decks, deck) or []
        found += repeated(((("decks", deck, i, "name"), c.name) for i, c in enumerate(cards)), "card")
    return found


def _merge_problems(base: WarcryPack, server: ServerPack) -> list[Problem]:
    """What merging would break: a card added twice to a deck, a battleplan that does not exist."""
    found: list[Problem] = []
    if server.mode == "add":
        for deck in DECK_NAMES:
            cards: list[Card] = getattr(server.decks, deck) or []
            existing = {c.name.casefold() for c in base.decks.deck(deck)}
            found += [
                (("decks", deck, i, "name"), f"the card `{c.name}` is already in the {deck} deck")
                for i, c in enumerate(cards)
                if c.name.casefold() in existing
            ]
    for name in server.deployments:
        if base.battleplan(name) is None:
            known = ", ".join(b.name for b in base.battleplans)
            found.append((("deployments", name), f"no battleplan is called `{name}` (known: {known})"))
    return found
