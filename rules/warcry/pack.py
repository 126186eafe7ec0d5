"""Loading Warcry rules data: the packaged core pack, and a server's own pack of cards.

A server pack is YAML a club uploads; it is read by the shared pack reader (rules/packs.py), which
refuses what could harm the bot and reports every problem at once with its line, so one upload
fixes all. This module holds only the pack's shape and what merging it into the core pack needs.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import Field

from rules.packs import MAX_PACK_BYTES as MAX_PACK_BYTES
from rules.packs import PackError as PackError
from rules.packs import Problem, read_pack, reading, repeated
from rules.session import Model
from rules.warcry.models import (
    DECK_NAMES,
    Card,
    DeckName,
    DeploymentCard,
    DeploymentMap,
    VictoryCard,
    WarcryPack,
)

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
