"""Warmaster's words for what the rules name by id, in the language in force: decks, kinds of
target, unit types and roles, who may carry a card, a card's cost, and a target as each reader
sees it.

The rules speak ids and a few fixed English phrases (a carrier's `describe()`, a card's effect);
those phrases are marked here (who may carry a card in `CARRIERS`, the printed deck's effects in
`EFFECTS`), so the catalogue holds them by their English, and translated where they are shown. A
server's own pack prints its effects in its own words: those are shown as written. A word a player
types in a form (a unit type) is read back to the rules' English here too.
"""

from __future__ import annotations

import unicodedata

from bot.chat.limits import CONTENT
from bot.lang.i18n import Domain
from rules.text import ELLIPSIS
from rules.warmaster.cards import DeckKind
from rules.warmaster.events import CardView
from rules.warmaster.new_targets import NewTarget
from rules.warmaster.targets import SHOOTING_TYPES, CharacterRole, Side, Target, TargetKind, UnitType

_ = Domain("warmaster")

CARRIERS = (
    _.mark("the General only"),
    _.mark("a Wizard only"),
    _.mark("a Wizard or a Dwarf Runesmith only"),
    _.mark("a Wizard or the General only"),
    _.mark("a character"),
    _.mark("a unit"),
    _.mark("a character or a unit"),
    _.mark("an infantry unit"),
    _.mark("an infantry, cavalry or chariot unit"),
    _.mark("an infantry or artillery unit"),
    _.mark("a unit or character that shoots"),
    _.mark("a machine"),
    _.mark("a terrain feature"),
    _.mark("a player"),
    _.mark("an army"),
    _.mark("the table"),
    _.mark("any target"),
    _.mark("not laid: traded"),
)
"""Who may carry a card, as the rules describe it (rules/warmaster/targets.py RESTRICTION_TEXT)."""

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
    return _(english)


def deck_label(deck: DeckKind) -> str:
    """'magic item' or 'tactics', as in a card's details."""
    return _.p("deck", "magic item") if deck is DeckKind.MAGIC else _.p("deck", "tactics")


def deck_card(deck: DeckKind) -> str:
    """'magic item card' or 'tactics card', in a sentence."""
    return _("magic item card") if deck is DeckKind.MAGIC else _("tactics card")


def deck_name(deck: str) -> str:
    """A deck by its id, as in 'already holds a card from the magic deck'."""
    return {"magic": _.p("slot", "magic"), "tactics": _.p("slot", "tactics")}.get(deck, deck)


def type_word(word: str) -> str:
    """A unit type or a character role by its id, as a player types it in a form."""
    words: dict[str, str] = {
        UnitType.INFANTRY: _.p("type", "infantry"),
        UnitType.CAVALRY: _.p("type", "cavalry"),
        UnitType.CHARIOT: _.p("type", "chariot"),
        UnitType.MONSTER: _.p("type", "monster"),
        UnitType.ARTILLERY: _.p("type", "artillery"),
        UnitType.MACHINE: _.p("type", "machine"),
        CharacterRole.GENERAL: _.p("type", "general"),
        CharacterRole.WIZARD: _.p("type", "wizard"),
        CharacterRole.RUNESMITH: _.p("type", "runesmith"),
        CharacterRole.HERO: _.p("type", "hero"),
    }
    return words.get(word, word)


def type_list(words: list[str], limit: int = CONTENT) -> str:
    """Unit types and roles as a list ('infantry, cavalry'), as many as fit in `limit` characters."""
    shown = ", ".join(type_word(w) for w in words)
    if len(shown) <= limit:
        return shown
    return shown[: limit - 1].rsplit(",", 1)[0] + ELLIPSIS


def _folded(text: str) -> str:
    """Typed text compared without case or accents ('Général' is 'general')."""
    bare = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in bare if not unicodedata.combining(c))


def read_type(typed: str, words: list[str]) -> str:
    """A unit type or role typed in the language in force (or in English) as the rules' id; what
    is not one of `words` is returned as typed, for the rules to refuse."""
    wanted = _folded(typed)
    for word in words:
        if wanted in (_folded(word), _folded(type_word(word))):
            return word
    return typed


def kind_whose(kind: str) -> str:
    """A kind of target in 'Say whose {kind} you mean'."""
    words: dict[str, str] = {
        TargetKind.UNIT: _.p("whose", "unit"),
        TargetKind.CHARACTER: _.p("whose", "character"),
        TargetKind.PLAYER: _.p("whose", "player"),
        TargetKind.ARMY: _.p("whose", "army"),
    }
    return words.get(kind, kind)


def fixed_name(kind: str, name: str) -> str:
    """The rules' name of a target every game has (the table, a player, an army), as a refusal
    names it in bold; any other target's name as the players gave it."""
    words: dict[str, str] = {
        TargetKind.TABLE: _.p("name", "the table"),
        TargetKind.PLAYER: _.p("name", "player"),
        TargetKind.ARMY: _.p("name", "army"),
    }
    return words.get(kind, name)


def unit_detail(unit_type: UnitType | None) -> str:
    """'cavalry unit', or 'unit' when its type was never given."""
    words = {
        UnitType.INFANTRY: _("infantry unit"),
        UnitType.CAVALRY: _("cavalry unit"),
        UnitType.CHARIOT: _("chariot unit"),
        UnitType.MONSTER: _("monster unit"),
        UnitType.ARTILLERY: _("artillery unit"),
        UnitType.MACHINE: _("machine unit"),
    }
    return words[unit_type] if unit_type is not None else _("unit")


def role_detail(role: CharacterRole | None) -> str:
    """'general', or 'character' when the role was never given."""
    words = {
        CharacterRole.GENERAL: _.p("role", "general"),
        CharacterRole.WIZARD: _.p("role", "wizard"),
        CharacterRole.RUNESMITH: _.p("role", "runesmith"),
        CharacterRole.HERO: _.p("role", "hero"),
    }
    return words[role] if role is not None else _("character")


def _detail(kind: TargetKind, unit_type: UnitType | None, role: CharacterRole | None, shooting: bool) -> str:
    """A unit's or character's kind in a few words: 'cavalry unit', 'shooting wizard'."""
    detail = unit_detail(unit_type) if kind is TargetKind.UNIT else role_detail(role)
    if shooting and unit_type not in SHOOTING_TYPES:
        detail = _("shooting {detail}", detail=detail)
    return detail


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
    detail = _detail(target.kind, target.unit_type, target.role, target.shooting)
    return _("{name} ({detail} of {player})", name=target.name, detail=detail, player=owner)


def target_label(target: Target, viewer: int) -> str:
    """A target seen from one player: 'Knights — your cavalry unit' (an option, a choice)."""
    own = target.owner == viewer
    if target.kind is TargetKind.TABLE:
        return _.p("option", "the table")
    if target.kind is TargetKind.PLAYER:
        return _.p("option", "you (player)") if own else _.p("option", "your opponent (player)")
    if target.kind is TargetKind.ARMY:
        return _.p("option", "your army") if own else _.p("option", "the enemy army")
    if target.kind is TargetKind.TERRAIN:
        return _.p("option", "{name} — terrain", name=target.name)
    detail = _detail(target.kind, target.unit_type, target.role, shooting=False)
    if own:
        return _.p("option", "{name} — your {detail}", name=target.name, detail=detail)
    return _.p("option", "{name} — enemy {detail}", name=target.name, detail=detail)


def new_target_label(new: NewTarget) -> str:
    """A new-target choice as the player reads it: 'New: Grom (my cavalry unit)'.

    A unit or character offered without its type or role names the option that still gives it
    ('New: Grom (my unit) + unit_type'); the longest English label, for a 60-character name, is 99
    characters.
    """
    if new.kind is TargetKind.TERRAIN:
        return _.p("option", "New: {name} (terrain)", name=new.name)
    if new.kind is TargetKind.UNIT:
        what, still = unit_detail(new.unit_type), "" if new.unit_type else " + unit_type"
    else:
        role = role_detail(new.role)
        what, still = (role[:1].upper() + role[1:], "") if new.role else (role, " + role")
    if new.shooting and new.unit_type not in SHOOTING_TYPES:
        what = _("shooting {detail}", detail=what)
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
