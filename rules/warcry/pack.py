"""Loading Warcry rules data: the packaged core pack, and a server's own pack of cards.

A server pack is YAML a club uploads; it is untrusted, so it is size-limited, anchors/aliases are
refused (no alias bombs), and every problem is reported at once with its line, so one upload fixes all.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError

from rules.packs import MAX_PACK_BYTES as MAX_PACK_BYTES
from rules.packs import PackError as PackError
from rules.packs import yaml_line
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
    return WarcryPack.model_validate(yaml.safe_load(text))


def parse_pack(text: str, base: WarcryPack | None = None) -> WarcryPack:
    """Validate a server's YAML pack and merge it into `base` (the core pack by default)."""
    base = base or core_pack()
    server = parse_server_pack(text)
    return merge_pack(base, server)


def parse_server_pack(text: str) -> ServerPack:
    if len(text.encode("utf-8")) > MAX_PACK_BYTES:
        raise PackError([f"The file is larger than {MAX_PACK_BYTES // 1024} KiB; split it or trim it."])
    if not text.strip():
        raise PackError(["The file is empty."])
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                line = event.start_mark.line + 1 if event.start_mark else 0
                raise PackError(
                    [f"line {line}: anchors and aliases (& and *) are not allowed; write each card out."]
                )
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise PackError([f"{where}this is not valid YAML ({problem})."]) from None
    if not isinstance(data, dict):
        raise PackError(["line 1: the pack must be a mapping with `name:` and `decks:`."])
    try:
        server = ServerPack.model_validate(data)
    except ValidationError as exc:
        raise PackError([_describe(error, node) for error in exc.errors()]) from None
    errors = _duplicate_errors(server, node)
    if errors:
        raise PackError(errors)
    return server


def merge_pack(base: WarcryPack, server: ServerPack) -> WarcryPack:
    """Apply a server pack to a base pack; names must stay unique within each deck."""
    errors: list[str] = []
    decks = base.decks.model_copy()
    for deck in DECK_NAMES:
        cards: list[Any] | None = getattr(server.decks, deck)
        if cards is None:
            continue
        merged = list(cards) if server.mode == "replace" else [*decks.deck(deck), *cards]
        existing = {c.name.casefold() for c in decks.deck(deck)}
        if server.mode == "add":
            errors += [
                f"decks.{deck}: the card `{c.name}` is already in the {deck} deck."
                for c in cards
                if c.name.casefold() in existing
            ]
        decks = decks.model_copy(update={deck: merged})
    battleplans = list(base.battleplans)
    for name, deployment in server.deployments.items():
        plan = base.battleplan(name)
        if plan is None:
            known = ", ".join(b.name for b in base.battleplans)
            errors.append(f"deployments: no battleplan is called `{name}` (known: {known}).")
            continue
        battleplans = [
            b.model_copy(update={"deployment": deployment}) if b.name == plan.name else b for b in battleplans
        ]
    if errors:
        raise PackError(errors)
    return WarcryPack(
        name=f"{base.name} + {server.name}", battleplans=battleplans, decks=decks, notes=base.notes
    )


def empty_decks(pack: WarcryPack) -> list[DeckName]:
    return [deck for deck in DECK_NAMES if not pack.decks.deck(deck)]


# ---------------------------------------------------------------- error reporting


def _describe(error: Any, root: yaml.Node | None) -> str:
    loc = tuple(error.get("loc", ()))
    path = ".".join(str(p) for p in loc) or "(top)"
    line = yaml_line(root, loc)
    where = f"line {line}: " if line else ""
    message = str(error.get("msg", "invalid value"))
    if error.get("type") == "extra_forbidden":
        message = "unknown field (check the spelling)"
    elif error.get("type") == "literal_error":
        message = message.replace("Input should be", "use")
    return f"{where}{path}: {message}"


def _duplicate_errors(server: ServerPack, root: yaml.Node | None) -> list[str]:
    errors: list[str] = []
    for deck in DECK_NAMES:
        cards: list[Card] | None = getattr(server.decks, deck)
        seen: set[str] = set()
        for index, card in enumerate(cards or []):
            key = card.name.casefold()
            if key in seen:
                line = yaml_line(root, ("decks", deck, index))
                errors.append(f"line {line}: decks.{deck}.{index}: the card `{card.name}` appears twice.")
            seen.add(key)
    return errors
