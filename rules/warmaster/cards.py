"""Card definitions, the built-in magic item deck and server-supplied packs.

The tactics deck was never printed in the source text, so it is not invented here: a server
uploads a pack (YAML) with its own tactics cards, and may replace the magic item deck as well.
`parse_pack` checks the whole upload and lists every problem with its line, so an organiser can fix
a file in one go.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache
from importlib import resources

from pydantic import Field, model_validator

from rules.packs import MAX_PACK_BYTES as MAX_PACK_BYTES
from rules.packs import PackError as PackError
from rules.packs import Problem, read_pack, repeated
from rules.session import Model
from rules.warmaster.targets import Restriction

MAX_DECK_CARDS = 200  # copies included
LUCKY_FIND_DRAWS = 2


class DeckKind(StrEnum):
    MAGIC = "magic"
    TACTICS = "tactics"

    @property
    def label(self) -> str:
        return "magic item" if self is DeckKind.MAGIC else "tactics"


class Special(StrEnum):
    LUCKY_FIND = "lucky_find"  # traded for two magic item cards; not a laid card
    BLANK = "blank"  # a dud: no item, no cost, goes anywhere


class CarrierSource(StrEnum):
    """Where a card's carrier comes from (for the record; the rules treat them alike)."""

    LABEL = "label"
    PLAY_ON = "play_on"
    EFFECT = "effect"
    UNPRINTED = "unprinted"


class CardDef(Model):
    """One card as printed: `copies` says how many the deck holds."""

    name: str = Field(min_length=1, max_length=80)
    cost: int | None = Field(default=None, ge=-1000, le=1000)
    carrier: Restriction | None = None
    carrier_source: CarrierSource | None = None
    copies: int = Field(default=1, ge=1, le=50)
    effect: str = Field(min_length=1, max_length=300)
    special: Special | None = None
    vp_if_survives: int = Field(default=0, ge=0, le=1000)  # to the carrier's side at the end
    vp_if_lost: int = Field(default=0, ge=0, le=1000)  # to the other side when the carrier dies
    reveals_opponent_cards: bool = False

    @model_validator(mode="after")
    def _carrier_matches_kind(self) -> CardDef:
        if self.special is Special.LUCKY_FIND:
            if self.carrier is not None:
                raise ValueError("a Lucky Find is traded, not laid, so it has no carrier")
        elif self.carrier is None:
            raise ValueError("say who may carry the card (`carrier`)")
        return self

    @property
    def is_traded(self) -> bool:
        return self.special is Special.LUCKY_FIND

    @property
    def value(self) -> int:
        """What the card adds to its carrier's points (no printed cost counts as 0)."""
        return self.cost or 0

    def cost_text(self) -> str:
        if self.cost is None:
            return "no cost"
        return f"{self.cost:+d} pts" if self.cost else "0 pts"


class Pack(Model):
    """A deck file: the built-in one, or a server's own. A missing deck keeps the current one."""

    name: str | None = Field(default=None, min_length=1, max_length=100)
    magic: list[CardDef] | None = None
    tactics: list[CardDef] | None = None


def deck_size(cards: list[CardDef] | tuple[CardDef, ...]) -> int:
    return sum(card.copies for card in cards)


def _problems(pack: Pack) -> list[Problem]:
    """What a card's own shape cannot say: a deck's size, a card listed twice, no deck at all."""
    found: list[Problem] = []
    decks = [
        (kind, cards)
        for kind, cards in (("magic", pack.magic), ("tactics", pack.tactics))
        if cards is not None
    ]
    if not decks:
        found.append(((), "the pack has no `magic` or `tactics` cards"))
    for kind, cards in decks:
        if not cards:
            found.append(((kind,), "it is empty; leave it out to keep the current deck"))
        total = deck_size(cards)
        if total > MAX_DECK_CARDS:
            found.append(((kind,), f"it holds {total} cards; at most {MAX_DECK_CARDS} are allowed"))
        found += repeated(
            (((kind, i, "name"), card.name.strip()) for i, card in enumerate(cards)),
            "card",
            "; raise its `copies` instead",
        )
    return found


def parse_pack(text: str) -> Pack:
    """Validate a YAML pack (`name`, `magic`, `tactics`); raise PackError listing every problem."""
    return read_pack(text, Pack, check=_problems)


@cache
def builtin_pack() -> Pack:
    text = resources.files("rules.warmaster").joinpath("data/magic_items.yaml").read_text(encoding="utf-8")
    return parse_pack(text)


def builtin_magic_deck() -> tuple[CardDef, ...]:
    """The printed magic item deck (50 cards with copies)."""
    magic = builtin_pack().magic
    assert magic is not None
    return tuple(magic)
