"""Warmaster's words for what a card and the table show, in the language in force: a card's line
and cost, the printed deck's effects, a target as the table sees it, a new target offered by
autocomplete, and a word a player types in a form read back to the rules' id.

The rules word what they name by id (`rules/warmaster/labels.py`: a target's label, a kind of unit,
a unit type; `rules/warmaster/targets.py`: who may carry a card), and those words are shown here with
`say`. The printed deck's effects are data, marked here (`EFFECTS`) so the catalogue holds them by
their English; a server's own pack prints its effects in its own words: those are shown as written.
"""

from __future__ import annotations

import unicodedata

from bot.lang.i18n import Domain, say
from rules.warmaster import labels
from rules.warmaster.cards import DeckKind
from rules.warmaster.events import CardView
from rules.warmaster.labels import detail, role_detail, shooting, type_word, unit_detail
from rules.warmaster.new_targets import NewTarget
from rules.warmaster.targets import (
    SHOOTING_TYPES,
    Side,
    Target,
    TargetKind,
    carrier_words,
)
from rules.words import Words

_ = Domain("warmaster")

EFFECTS = (
    _.mark("Once per game, in the unit's first combat, one stand gets +1 Attack (one extra attack in all)."),
    _.mark("One enemy unit in contact must re-roll one successful armour save each combat round."),
    _.mark("Re-roll one missed attack die each combat round."),
    _.mark("One stand gets +1 Attack (one extra attack in all, not one per stand)."),
    _.mark(
        "The General may give his first order each turn on an unmodified Command of 10; it stops "
        "working after a failed first order (11 or 12)."
    ),
    _.mark("+1 Attack on every stand during the unit's first combat engagement."),
    _.mark("+1 Hits on every stand during the unit's first combat engagement."),
    _.mark("Ignore one shooting hit per turn after saves, until the unit loses a stand."),
    _.mark("Once per game, re-roll all of the unit's attack dice in shooting or combat."),
    _.mark("Armour one step better (never better than 3+) until the unit loses a stand."),
    _.mark("Once per game the General re-rolls one failed order as if his Command were 8."),
    _.mark("For one turn, declared at its start, the General gets +1 Command (up to 10)."),
    _.mark("Once per game a Wizard casts a spell without rolling."),
    _.mark("An enemy Wizard who fails a cast is spellbound on a 4+: -1 to every later cast."),
    _.mark("Once per battle the General may ignore a subordinate's blunder; the order then passes."),
    _.mark(
        "Once, make an enemy spell that was cast successfully fail (a Runesmith may use it after a "
        "failed anti-magic roll)."
    ),
    _.mark("Once per game, after a spell is cast successfully, the Wizard may cast a second spell."),
    _.mark("Once per game +1 to a casting roll, declared before rolling (a 1 still fails)."),
    _.mark("+1 shooting attack."),
    _.mark("The enemy re-rolls one successful armour save each combat round."),
    _.mark("For the whole game the unit gets no benefit from being defended or fortified."),
    _.mark("Once per game the opponent may make the unit re-roll all its attack dice."),
    _.mark("Nothing happens."),
    _.mark("Every unrevealed magic item card within 60cm of the bearer, yours too, leaves play."),
    _.mark("No -1 Command penalty for dense terrain."),
    _.mark("+1 Command for one whole turn (up to 10)."),
    _.mark("Each turn the enemy re-rolls one hit scored by shooting or in combat."),
    _.mark("+10cm when evading."),
    _.mark("+1 to casting rolls made within 20cm of the feature."),
    _.mark("Once, roll one extra die for a magic, combat or command roll and drop the worst."),
    _.mark("Once, cancel one hit on the unit at once."),
    _.mark("Never driven back by shooting or magic (confusion still tested), but must charge on initiative."),
    _.mark("Once, +2 to one casting roll (never better than 2+)."),
    _.mark("The enemy turns up every card already laid and lays the rest face up."),
    _.mark("If the unit survives, its side scores 50 VP; if it is destroyed, the other side scores 40 VP."),
    _.mark("-1 Attack on every stand all game (never below 1 before modifiers)."),
    _.mark("Re-roll one successful hit each combat round."),
    _.mark("Shooting range -10cm."),
    _.mark("Shooting range +10cm."),
    _.mark(
        "Played before the game and not counted as a laid card: swap it for two magic item cards "
        "from the deck."
    ),
    _.mark("A blank card: no item and no cost."),
)
"""Every effect the built-in deck (rules/warmaster/data/magic_items.yaml) prints, once (a test keeps
this in step with the deck). Card names are the printed proper names and stay English."""


def carrier_text(english: str) -> str:
    """Who may carry a card (the rules' English `describe()`), in the language in force."""
    return say(carrier_words(english))


def deck_label(deck: DeckKind) -> str:
    """'magic item' or 'tactics', as in a card's details."""
    return _.p("deck", "magic item") if deck is DeckKind.MAGIC else _.p("deck", "tactics")


def _folded(text: str) -> str:
    """Typed text compared without case or accents ('Général' is 'general')."""
    bare = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in bare if not unicodedata.combining(c))


def read_type(typed: str, words: list[str]) -> str:
    """A unit type or role typed in the language in force (or in English) as the rules' id; what
    is not one of `words` is returned as typed, for the rules to refuse."""
    wanted = _folded(typed)
    for word in words:
        if wanted in (_folded(word), _folded(say(type_word(word)))):
            return word
    return typed


def describe_target(target: Target) -> str:
    """A target as the table sees it: 'Knights (cavalry unit of @Alice)'."""
    owner = f"<@{target.owner}>"
    if target.kind is TargetKind.TABLE:
        return _.p("target", "the table")
    if target.kind is TargetKind.PLAYER:
        return owner
    if target.kind is TargetKind.ARMY:
        return _("{player}'s army", player=owner)
    if target.kind is TargetKind.TERRAIN:
        return _("{name} (terrain)", name=target.name)
    what = detail(target.kind, target.unit_type, target.role, target.shooting)
    return _("{name} ({detail} of {player})", name=target.name, detail=what, player=owner)


def target_label(target: Target, viewer: int) -> str:
    """A target seen from one player (the rules' label), in the language in force."""
    return say(labels.target_label(target, viewer))


def new_target_label(new: NewTarget) -> str:
    """A new-target choice as the player reads it: 'New: Grom (my cavalry unit)'.

    A unit or character offered without its type or role names the option that still gives it
    ('New: Grom (my unit) + unit_type'); the longest English label, for a 60-character name, is 99
    characters.
    """
    if new.kind is TargetKind.TERRAIN:
        return _.p("option", "New: {name} (terrain)", name=new.name)
    if new.kind is TargetKind.UNIT:
        what, still = say(unit_detail(new.unit_type)), "" if new.unit_type else " + unit_type"
    else:
        role = say(role_detail(new.role))
        what, still = (role[:1].upper() + role[1:], "") if new.role else (role, " + role")
    if new.shooting and new.unit_type not in SHOOTING_TYPES:
        what = say(shooting(Words.verbatim(what)))
    if new.side is Side.MINE:
        return _.p("option", "New: {name} (my {detail})", name=new.name, detail=what) + still
    return _.p("option", "New: {name} (enemy {detail})", name=new.name, detail=what) + still


def cost_text(cost: int | None) -> str:
    """A card's printed cost: '+10 pts', '0 pts' or 'no cost'."""
    if cost is None:
        return _("no cost")
    return _("{cost:+d} pts", cost=cost) if cost else _("0 pts")


def card_line(card: CardView) -> str:
    """A card in its holder's hand: its id, name, deck, cost, carrier and effect."""
    return _(
        "`{id}` **{name}** ({deck}, {cost}; {carrier}): {effect}",
        id=card.id,
        name=card.name,
        deck=deck_label(card.deck),
        cost=cost_text(card.cost),
        carrier=carrier_text(card.carrier),
        effect=_(card.effect),
    )


def card_choice(card: CardView) -> str:
    """A card as an autocomplete choice: 'Sword of Might (magic item, +10; a unit)'."""
    cost = _("no cost") if card.cost is None else f"{card.cost:+d}"
    return f"{card.name} ({deck_label(card.deck)}, {cost}; {carrier_text(card.carrier)})"
