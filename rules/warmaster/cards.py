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
from typing import Any

import yaml
from pydantic import Field, ValidationError, model_validator

from rules.packs import MAX_PACK_BYTES as MAX_PACK_BYTES
from rules.packs import PackError as PackError
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

    name: str | None = Field(default=None, max_length=100)
    magic: list[CardDef] | None = None
    tactics: list[CardDef] | None = None


def deck_size(cards: list[CardDef] | tuple[CardDef, ...]) -> int:
    return sum(card.copies for card in cards)


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _field_node(mapping: yaml.Node, field: str) -> yaml.Node | None:
    if isinstance(mapping, yaml.MappingNode):
        for key, value in mapping.value:
            if isinstance(key, yaml.ScalarNode) and key.value == field:
                found: yaml.Node = value
                return found
    return None


def _check_deck(deck: str, node: yaml.Node, items: Any, errors: list[tuple[int, str]]) -> list[CardDef]:
    if not isinstance(items, list) or not isinstance(node, yaml.SequenceNode):
        errors.append((_line(node), f"`{deck}` must be a list of cards."))
        return []
    cards: list[CardDef] = []
    seen: dict[str, int] = {}
    for index, (item, item_node) in enumerate(zip(items, node.value, strict=True)):
        where = f"{deck}[{index + 1}]"
        raw_name = item.get("name") if isinstance(item, dict) else None
        if isinstance(raw_name, str):
            where += f" ({raw_name})"
            folded = raw_name.strip().casefold()
            if folded in seen:
                errors.append(
                    (
                        _line(item_node),
                        f"{where}: `{raw_name}` is already listed on line "
                        f"{seen[folded]}; raise its `copies` instead.",
                    )
                )
                continue
            seen[folded] = _line(item_node)
        try:
            cards.append(CardDef.model_validate(item))
        except ValidationError as exc:
            for problem in exc.errors():
                loc = [str(part) for part in problem["loc"]]
                field_node = _field_node(item_node, loc[0]) if loc else None
                line = _line(field_node or item_node)
                label = f" `{'.'.join(loc)}`" if loc else ""
                message = problem["msg"].removeprefix("Value error, ")
                errors.append((line, f"{where}{label}: {message}"))
    total = deck_size(cards)
    if total > MAX_DECK_CARDS:
        errors.append((_line(node), f"`{deck}` holds {total} cards; at most {MAX_DECK_CARDS} are allowed."))
    if not items:
        errors.append((_line(node), f"`{deck}` is empty; leave it out to keep the current deck."))
    return cards


def parse_pack(text: str) -> Pack:
    """Validate a YAML pack (`name`, `magic`, `tactics`); raise PackError listing every problem."""
    size = len(text.encode("utf-8"))
    if size > MAX_PACK_BYTES:
        raise PackError([f"The file is {size:,} bytes; a pack may be at most {MAX_PACK_BYTES:,} bytes."])
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent):
                mark = event.start_mark
                raise PackError(
                    [
                        f"line {mark.line + 1 if mark else '?'}: YAML aliases (`*name`) are not "
                        "allowed in a pack; write each card out."
                    ]
                )
        loader = yaml.SafeLoader(text)
        try:
            root = loader.get_single_node()
            data = loader.construct_document(root) if root is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}" if mark else "the file"
        raise PackError([f"{where}: this is not valid YAML ({exc.problem or exc.context})."]) from None
    except yaml.YAMLError as exc:
        raise PackError([f"The file is not valid YAML ({exc})."]) from None
    if root is None or not isinstance(data, dict) or not isinstance(root, yaml.MappingNode):
        raise PackError(["A pack is a YAML mapping with `name`, `magic` and/or `tactics` keys."])

    errors: list[tuple[int, str]] = []
    decks: dict[str, list[CardDef]] = {}
    name: str | None = None
    seen_keys: set[str] = set()
    for key_node, _ in root.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key is not None and key in seen_keys:
            errors.append((_line(key_node), f"`{key}` appears twice; give each key once."))
        if key is not None:
            seen_keys.add(key)
    if errors:
        raise PackError([f"line {line}: {message}" for line, message in errors])
    for key_node, value_node in root.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key in ("magic", "tactics"):
            decks[key] = _check_deck(key, value_node, data[key], errors)
        elif key == "name":
            value = data["name"]
            if not isinstance(value, str) or not 0 < len(value) <= 100:
                errors.append((_line(value_node), "`name` must be text of at most 100 characters."))
            else:
                name = value
        else:
            errors.append(
                (_line(key_node), f"unknown key `{key}`; a pack has `name`, `magic` and `tactics`.")
            )
    if not decks and not errors:
        errors.append((_line(root), "the pack has no `magic` or `tactics` cards."))
    if errors:
        raise PackError([f"line {line}: {message}" for line, message in sorted(errors, key=lambda e: e[0])])
    return Pack(name=name, magic=decks.get("magic"), tactics=decks.get("tactics"))


@cache
def builtin_pack() -> Pack:
    text = resources.files("rules.warmaster").joinpath("data/magic_items.yaml").read_text(encoding="utf-8")
    return parse_pack(text)


def builtin_magic_deck() -> tuple[CardDef, ...]:
    """The printed magic item deck (50 cards with copies)."""
    magic = builtin_pack().magic
    assert magic is not None
    return tuple(magic)
