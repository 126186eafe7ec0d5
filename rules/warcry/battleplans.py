"""Deciding a battleplan: a roll on a preset table, or one card dealt from each generator deck.

Every die thrown is returned with the result so the bot can show it. Drawing works from a
`DrawOptions` snapshot rather than a whole pack, so a battle can store what it may still draw from
and draw later (after the battle groups are split) without reading anything but its own state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from rules.dice import Roller
from rules.errors import RuleError
from rules.rolloff import roll_off
from rules.session import Model
from rules.warcry.pack import (
    Ability,
    Battleplan,
    Card,
    DeckName,
    DeploymentCard,
    DeploymentMap,
    Scoring,
    VictoryCard,
    WarcryPack,
)
from rules.words import Marker

N_ = Marker("warcry")

Kind = Literal["matched", "champions", "generator", "generator-matched"]
KINDS: tuple[Kind, ...] = ("matched", "champions", "generator", "generator-matched")

NO_TWIST = "No twist."
PACK_HINT = "A server can load its own cards with `/warcry pack load`."
TERRAIN_CARD = "Terrain card: "  # before the dealt terrain card of a preset battleplan

Wanted = Literal["card", "matched_card", "matched_terrain_card"]
WANTED: dict[Wanted, str] = {
    "card": "cards",
    "matched_card": "cards with the Matched Play runemark",
    "matched_terrain_card": "Matched Play terrain cards",
}

C = TypeVar("C", bound=Card)


class DieShown(Model):
    label: str
    sides: int
    result: int
    deck: DeckName | None = None  # a card dealt from this deck (one side per card)

    def describe(self) -> str:
        return f"{self.label}: rolled {self.result} on a D{self.sides}"


class RollOffShown(Model):
    """A roll-off as shown to players: each round's pair of dice (in `players` order) and the winner."""

    players: list[int]
    rounds: list[tuple[int, int]]
    winner: int

    @property
    def loser(self) -> int:
        return self.players[1] if self.winner == self.players[0] else self.players[0]


def shown_roll_off(roller: Roller, players: Sequence[int], reason: str) -> RollOffShown:
    result = roll_off(roller, reason=reason)
    return RollOffShown(
        players=list(players), rounds=[r.rolls for r in result.rounds], winner=players[result.winner]
    )


def blocked_objective(roller: Roller, players: Sequence[int]) -> RollOffShown:
    """Step 4 of a matched set-up: the roll-off winner places a blocked objective or treasure within 1"."""
    return shown_roll_off(roller, players, "blocked objective roll-off")


class DrawOptions(Model):
    """What a battleplan may still be drawn from: a preset table, or the (filtered) decks."""

    kind: Kind
    battleplans: list[Battleplan] = []
    terrain: list[Card] = []
    deployment: list[DeploymentCard] = []
    victory: list[VictoryCard] = []
    twist: list[Card] = []


class MissingCard(Model):
    """A deck that had no card of the kind wanted, so none was dealt (`notes` says it in English)."""

    deck: DeckName
    wanted: Wanted


class BattleplanInPlay(Model):
    """The battleplan of one battle, self-contained so a stored battle never depends on a pack again."""

    kind: Kind | Literal["given"]
    name: str
    table: str = ""
    victory: str
    scoring: Scoring
    rounds: int = 4
    otherwise_draw: bool = False
    objectives: int = 0
    treasure: int = 0
    objective_labels: list[str] = []
    abilities: list[Ability] = []
    terrain: str
    deployment: str
    deployment_map: DeploymentMap | None = None
    twist: str
    cards: dict[str, str] = {}  # deck name -> card dealt
    dice: list[DieShown] = []
    notes: list[str] = []
    missing: list[MissingCard] = []


def options_for(kind: Kind, pack: WarcryPack) -> DrawOptions:
    """The candidates for a kind of battleplan: matched play keeps only runemarked cards and no twists."""
    matched_terrain = [c for c in pack.decks.terrain if c.matched_play]
    if kind == "matched":
        return DrawOptions(kind=kind, battleplans=pack.table("matched"), terrain=matched_terrain)
    if kind == "champions":
        return DrawOptions(kind=kind, battleplans=pack.table("champions"), terrain=matched_terrain)
    if kind == "generator":
        decks = pack.decks
        return DrawOptions(
            kind=kind,
            terrain=decks.terrain,
            deployment=decks.deployment,
            victory=decks.victory,
            twist=decks.twist,
        )
    return DrawOptions(
        kind=kind,
        terrain=matched_terrain,
        deployment=[c for c in pack.decks.deployment if c.matched_play],
        victory=[c for c in pack.decks.victory if c.matched_play],
        twist=[],
    )


def roll_battleplan(kind: Kind, pack: WarcryPack, roller: Roller) -> BattleplanInPlay:
    return draw(options_for(kind, pack), roller)


def draw(options: DrawOptions, roller: Roller) -> BattleplanInPlay:
    if options.kind in ("matched", "champions"):
        return _roll_on_table(options, roller)
    return _deal_cards(options, roller)


def given(plan: Battleplan, options: DrawOptions, roller: Roller) -> BattleplanInPlay:
    """A preset battleplan chosen by the players; only the terrain card (if any) is dealt."""
    dice: list[DieShown] = []
    missing: list[MissingCard] = []
    terrain, cards = _terrain_step(plan, options.terrain, roller, dice, missing)
    return _in_play(plan, "given", terrain, cards, dice, missing)


def require_victory_cards(options: DrawOptions) -> None:
    """A generated battle cannot start without a victory card to decide the winner."""
    if options.kind in ("generator", "generator-matched") and not options.victory:
        matched = options.kind == "generator-matched"
        raise RuleError(code="warcry.no_matched_victory_cards" if matched else "warcry.no_victory_cards")


# ---------------------------------------------------------------- internals


def _roll_on_table(options: DrawOptions, roller: Roller) -> BattleplanInPlay:
    table = sorted(options.battleplans, key=lambda b: b.roll)
    sides = 6 if options.kind == "matched" else 3
    if [b.roll for b in table] != list(range(1, sides + 1)):
        kind = N_.p("table", "matched") if options.kind == "matched" else N_.p("table", "champions")
        raise RuleError(code="warcry.table_incomplete", kind=kind)
    label = "Matched battleplan table" if options.kind == "matched" else "Test of Champions table"
    result = roller.roll(sides, 1, label)[0]
    plan = table[result - 1]
    dice = [DieShown(label=label, sides=sides, result=result)]
    missing: list[MissingCard] = []
    terrain, cards = _terrain_step(plan, options.terrain, roller, dice, missing)
    return _in_play(plan, options.kind, terrain, cards, dice, missing)


def _terrain_step(
    plan: Battleplan,
    terrain_cards: list[Card],
    roller: Roller,
    dice: list[DieShown],
    missing: list[MissingCard],
) -> tuple[str, dict[str, str]]:
    if not plan.deal_terrain:
        return plan.terrain, {}
    card = _deal("terrain", terrain_cards, roller, dice, missing, "matched_terrain_card")
    if card is None:
        return plan.terrain, {}
    return TERRAIN_CARD + _card_line(card, ""), {"terrain": card.name}


def _in_play(
    plan: Battleplan,
    kind: Kind | Literal["given"],
    terrain: str,
    cards: dict[str, str],
    dice: list[DieShown],
    missing: list[MissingCard],
) -> BattleplanInPlay:
    table = "Matched battleplan" if plan.table == "matched" else "Test of Champions"
    return BattleplanInPlay(
        kind=kind,
        name=plan.name,
        table=table,
        victory=plan.victory,
        scoring=plan.scoring,
        rounds=plan.rounds,
        otherwise_draw=plan.otherwise_draw,
        objectives=plan.objectives,
        treasure=plan.treasure,
        objective_labels=plan.labels(),
        abilities=plan.abilities,
        terrain=terrain,
        deployment=plan.deployment_note,
        deployment_map=plan.deployment,
        twist=NO_TWIST,
        cards=cards,
        dice=dice,
        notes=_notes(missing),
        missing=missing,
    )


def _notes(missing: list[MissingCard]) -> list[str]:
    return [
        f"The {m.deck} deck has no {WANTED[m.wanted]} loaded, so none was dealt. {PACK_HINT}" for m in missing
    ]


def _deal(
    deck: DeckName,
    cards: Sequence[C],
    roller: Roller,
    dice: list[DieShown],
    missing: list[MissingCard],
    wanted: Wanted,
) -> C | None:
    if not cards:
        missing.append(MissingCard(deck=deck, wanted=wanted))
        return None
    label = f"{deck.capitalize()} deck ({len(cards)} card{'' if len(cards) == 1 else 's'})"
    result = roller.roll(len(cards), 1, f"deal from the {deck} deck")[0]
    dice.append(DieShown(label=label, sides=len(cards), result=result, deck=deck))
    return cards[result - 1]


def _deal_cards(options: DrawOptions, roller: Roller) -> BattleplanInPlay:
    matched = options.kind == "generator-matched"
    wanted: Wanted = "matched_card" if matched else "card"
    dice: list[DieShown] = []
    missing: list[MissingCard] = []
    cards: dict[str, str] = {}
    terrain = _deal("terrain", options.terrain, roller, dice, missing, wanted)
    deployment = _deal("deployment", options.deployment, roller, dice, missing, wanted)
    victory = _deal("victory", options.victory, roller, dice, missing, wanted)
    twist = None if matched else _deal("twist", options.twist, roller, dice, missing, wanted)
    for deck, card in (
        ("terrain", terrain),
        ("deployment", deployment),
        ("victory", victory),
        ("twist", twist),
    ):
        if card is not None:
            cards[deck] = card.name
    return BattleplanInPlay(
        kind=options.kind,
        name=victory.name if victory else "No victory card",
        table="Battleplan generator (Matched Play cards)" if matched else "Battleplan generator",
        victory=(victory.summary or "As written on the victory card.") if victory else "No victory card.",
        scoring=victory.scoring if victory else "manual",
        objectives=victory.objectives if victory else 0,
        treasure=victory.treasure if victory else 0,
        objective_labels=[str(i + 1) for i in range(victory.objectives)] if victory else [],
        terrain=_card_line(terrain, "Use the alternative terrain rules."),
        deployment=_card_line(deployment, "No deployment card: agree the deployment points yourselves."),
        deployment_map=deployment.deployment_map() if deployment else None,
        twist=NO_TWIST if matched else _card_line(twist, "No twist card dealt."),
        cards=cards,
        dice=dice,
        notes=_notes(missing),
        missing=missing,
    )


def _card_line(card: Card | None, missing: str) -> str:
    if card is None:
        return missing
    return card.name + (f" — {card.summary}" if card.summary else "")
