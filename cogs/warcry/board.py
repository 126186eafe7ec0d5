"""What the table shows of a Warcry battle, in the language in force: the board (battleplan and round,
colours, the battleplan's tallies, priority, what decides the battle now, what it waits for), the
public line for each event, and the battleplan card and a pack's decks in words.

The rules word the scoreboard, the prompt and every notice once (rules/warcry: `views.scoreboard`,
`views.prompt`, `Notice.text`); this shows them in the reader's language, naming players by mention.
A battleplan's sentences come from its pack: the shipped pack's (rules/warcry/data/core.yaml) are
marked here, so they are translated by their English (tests/cogs/warcry/test_warcry_words.py checks
every one is); a server's own cards are shown as the server wrote them. Battleplan, card and ability
names are the game's proper names and stay as written.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat.messages import Embed
from bot.lang.i18n import Domain, say
from cogs.warcry.questions import prompt
from cogs.warcry.vocabulary import COSTS, NameOf, deck, group, mention, objective, roll_off
from rules.session import Event
from rules.warcry.battlegroups import GROUP_TITLES
from rules.warcry.battleplans import TERRAIN_CARD, BattleplanInPlay, DieShown, MissingCard, RollOffShown
from rules.warcry.events import Notice
from rules.warcry.models import WarcryState
from rules.warcry.pack import DECK_NAMES, WarcryPack, empty_decks
from rules.warcry.views import scoreboard

_ = Domain("warcry")

COLOUR = 0x7A1F1F
DICE = "🎲"

CORE: tuple[str, ...] = (
    # the fixed words of a battleplan in play (rules/warcry/battleplans.py)
    _.mark("Matched battleplan"),
    _.mark("Test of Champions"),
    _.mark("Battleplan generator"),
    _.mark("Battleplan generator (Matched Play cards)"),
    _.mark("Matched battleplan table"),
    _.mark("Test of Champions table"),
    _.mark("No twist."),
    _.mark("No twist card dealt."),
    _.mark("No victory card."),
    _.mark("As written on the victory card."),
    _.mark("Use the alternative terrain rules."),
    _.mark("No deployment card: agree the deployment points yourselves."),
    # the shipped battleplans (rules/warcry/data/core.yaml)
    _.mark(
        "Five treasure tokens start on the battlefield floor at the spots on the map. After four battle "
        "rounds, "
        "the player with more fighters carrying treasure wins."
    ),
    _.mark("Deal one Matched Play terrain card, or lay out terrain by the alternative terrain rules."),
    _.mark("Fixed deployment map; the treasure tokens go where the map marks them."),
    _.mark(
        "One treasure token starts on the battlefield floor at the spot on the map. A fighter still "
        "carrying it "
        "at the end of their activation takes D6 damage. After four battle rounds, the player whose fighter "
        'carries it wins; if nobody carries it, the player with more fighters within 3" of it wins.'
    ),
    _.mark("Fixed deployment map; the treasure token goes where the map marks it."),
    _.mark(
        "The battlefield is split into four quarters. After four battle rounds, a player captures a quarter "
        "when they have fighters wholly inside it and the enemy has none wholly inside it. Most quarters "
        "captured wins."
    ),
    _.mark("Fixed deployment map, divided into quarters as the map shows."),
    _.mark(
        "At the end of each battle round, each player adds up the points values of the enemy fighters they "
        "took down that round: their blood tally. The higher blood tally scores 1 victory point. After four "
        "battle rounds, most victory points wins."
    ),
    _.mark("Fixed deployment map."),
    _.mark(
        "Five objectives start on the battlefield floor. Only the central one begins awakened; the others "
        "are "
        "dormant. Whenever a combat phase starts, the player who lacks the initiative may wake one dormant "
        "objective. At the end of each battle round, each player scores 1 victory point for each awakened "
        "objective they control. After four battle rounds, most victory points wins."
    ),
    _.mark("Fixed deployment map; the objectives go where the map marks them (Centre is the middle one)."),
    _.mark(
        "Three objectives start on the battlefield floor. At the end of the first battle round the players "
        "roll off and the winner removes one objective; at the end of the second, the other player removes "
        "one. After four battle rounds, the player who controls the remaining objective wins."
    ),
    _.mark("Fixed deployment map; the objectives go where the map marks them."),
    _.mark(
        "A treasure token starts as near the middle of the battlefield as it can go, on the floor or a "
        "platform. After four battle rounds, the player whose fighter carries it wins. Any other result is a "
        "draw."
    ),
    _.mark("Fixed deployment map; the treasure token goes as near the centre as possible."),
    _.mark(
        "The treasure, or the fighter carrying it, can deal curse damage: half the target's remaining wounds "
        "(Wounds minus damage already allocated), rounded down. A fighter who drops the treasure is cursed "
        "by "
        'it. At the start of each battle round the token curses every fighter within 3"; if it is carried, '
        'the carrier curses themself and then deals that much to each fighter within 3".'
    ),
    _.mark(
        'The carrier picks a visible enemy fighter within 8" and curses them, then removes from themself '
        "half "
        "the damage that curse allocated, rounded down."
    ),
    _.mark(
        "The altar is the platform above the centre of the battlefield. After four battle rounds, if one "
        "player alone has fighters on the altar, that player wins. Any other result is a draw."
    ),
    _.mark(
        "Use the alternative terrain rules, except that the first terrain feature placed must have a "
        "platform "
        "over the middle of the battlefield, and it becomes the altar."
    ),
    _.mark(
        'A fighter no more than 1" from a visible enemy standing on the altar picks that enemy and rolls as '
        "many dice as their best melee Strength. If the total reaches the enemy's Wounds, move the enemy "
        "down "
        'to the floor, up to 3" away horizontally from this fighter; the enemy then suffers impact damage.'
    ),
    _.mark(
        "When your fighter's attack action takes an enemy down and you have no great champion on the "
        "battlefield, you may name that fighter your great champion. Keep a tally of the damage your great "
        "champion allocates to enemies, counting the blow that made them champion. When each battle round "
        "ends "
        "(the player with the initiative resolves first), a great champion on the battlefield takes down "
        "every "
        'enemy fighter within 4" of a battlefield edge (enemy great champions excepted) and adds their '
        "Wounds "
        "to the tally. After four battle rounds, the player whose great champion on the battlefield has the "
        "highest tally wins. Any other result is a draw."
    ),
    _.mark(
        "For the rest of the activation, whenever this great champion's attack action takes down an enemy, "
        "they may make a bonus move action and then a bonus attack action."
    ),
)
"""Every sentence a battleplan card may show that Muster ships, so each is in the catalogue."""


def words(text: str) -> str:
    """A battleplan's sentence: translated if Muster ships it, else as its pack wrote it."""
    return _(text) if text in CORE else text


def die(shown: DieShown) -> str:
    """`Matched battleplan table: rolled 4 on a D6`."""
    if shown.deck is not None:
        label = _.n(
            "{deck} deck ({count} card)", "{deck} deck ({count} cards)", shown.sides, deck=deck(shown.deck)
        )
        label = label[:1].upper() + label[1:]
    else:
        label = words(shown.label)
    return _("{label}: rolled {result} on a D{sides}", label=label, result=shown.result, sides=shown.sides)


def missing(card: MissingCard) -> str:
    """A deck with no card to deal, and how a server fills it."""
    name = deck(card.deck)
    if card.wanted == "matched_terrain_card":
        text = _("The {deck} deck has no Matched Play terrain cards loaded, so none was dealt.", deck=name)
    elif card.wanted == "matched_card":
        text = _(
            "The {deck} deck has no cards with the Matched Play runemark loaded, so none was dealt.",
            deck=name,
        )
    else:
        text = _("The {deck} deck has no cards loaded, so none was dealt.", deck=name)
    return text + " " + _("A server can load its own cards with `/warcry pack load`.")


def battleplan_embed(plan: BattleplanInPlay) -> Embed:
    """The battleplan as an embed, with every die the bot rolled to decide it."""
    card = Embed(
        title=_.p("title", "Battleplan: {name}", name=plan.name),
        colour=COLOUR,
        description=words(plan.table) or None,
    )
    if plan.dice:
        card.add(_.p("field", "Dice"), "\n".join(f"{DICE} {die(d)}" for d in plan.dice))
    card.add(_.p("field", "Victory condition"), words(plan.victory) or "—")
    placed = []
    if plan.objectives:
        labels = ", ".join(objective(o) for o in plan.objective_labels)
        placed.append(
            _.n(
                "{count} objective ({labels})",
                "{count} objectives ({labels})",
                plan.objectives,
                labels=labels,
            )
            if labels
            else _.n("{count} objective", "{count} objectives", plan.objectives)
        )
    if plan.treasure:
        placed.append(_.n("{count} treasure token", "{count} treasure tokens", plan.treasure))
    deployment = words(plan.deployment) or "—"
    if placed:
        things = (
            _("{first} and {second}", first=placed[0], second=placed[1]) if len(placed) > 1 else placed[0]
        )
        deployment += "\n" + _("Placed: {things}.", things=things)
    if plan.deployment_map and plan.deployment_map.has_reserves():
        reserves = [
            _("{colour} {group}: {arrival}", colour=colour, group=group(g), arrival=points.arrival(g))
            for colour, points in ((_("Red"), plan.deployment_map.red), (_("Blue"), plan.deployment_map.blue))
            for g in GROUP_TITLES
            if points.arrival(g) != "start"
        ]
        deployment += "\n" + _("In reserve: {reserves}.", reserves=", ".join(reserves))
    card.add(_.p("field", "Deployment"), deployment)
    card.add(_.p("field", "Terrain"), _terrain(plan) or "—")
    card.add(_.p("field", "Twist"), words(plan.twist))
    for ability in plan.abilities:
        cost = ability.cost
        shown = (
            f"{ability.name} ({_(COSTS[cost]) if cost in COSTS else cost})"
            if cost and cost != "rule"
            else ability.name
        )
        card.add(shown, words(ability.summary))
    notes = [missing(m) for m in plan.missing] if plan.missing else plan.notes
    if notes:
        card.footer = " ".join(notes)
    return card


def _terrain(plan: BattleplanInPlay) -> str:
    if "terrain" in plan.cards and plan.terrain.startswith(TERRAIN_CARD):
        return _("Terrain card: {card}", card=plan.terrain.removeprefix(TERRAIN_CARD))
    return words(plan.terrain)


def roll_off_text(roll: RollOffShown, name_of: Callable[[int], str] = mention) -> str:
    return f"{DICE} {roll_off(roll, name_of)}"


def pack_summary(pack: WarcryPack) -> str:
    counts = pack.decks.counts()
    decks = ", ".join(f"{deck(name)} {counts[name]}" for name in DECK_NAMES)
    lines = [f"**{pack.name}**", _("Decks: {decks}", decks=decks)]
    empty = empty_decks(pack)
    if empty:
        lines.append(
            _(
                "Empty: {decks}. No cards are invented: load a pack with `/warcry pack load` to deal from "
                "them.",
                decks=", ".join(deck(name) for name in empty),
            )
        )
    return "\n".join(lines)


# The board's "Victory" line in the rounds after the battleplan's last.
EXTRA_ROUND = _.mark(
    "The battle is tied: this extra round is played and the victory card is checked once more at its end. "
    "If nobody has won then, the last warband standing decides."
)
LAST_WARBAND_DECIDES = _.mark(
    "**The last warband standing decides.** The victory card is no longer checked and nothing scores: "
    "the battle ends when a player records that only one warband is left on the battlefield (or concedes "
    "by naming the opponent's warband)."
)


# ---------------------------------------------------------------- the board


def describe(event: Event) -> str | None:
    """One public line for an event (with the dice of a roll-off); None for an event of another game."""
    if not isinstance(event, Notice):
        return None
    text = notice(event)
    return f"{roll_off_text(event.roll_off)}\n{text}" if event.roll_off is not None else text


def board_embed(state: WarcryState) -> Embed:
    """The battle at a glance: battleplan and round, colours, the battleplan's tallies, priority, and
    what decides the battle now (past the extra round: the last warband standing)."""
    a, b = state.players
    card = Embed(
        title=_.p("title", "Warcry: {first} vs {second}", first=state.label_of(a), second=state.label_of(b)),
        colour=COLOUR,
    )
    lines = [say(line) for line in scoreboard(state, mention)]
    if state.battleplan is not None:
        lines[0] = f"**{lines[0]}**"  # the battleplan and round head the board
    priority = state.priority
    dice = f"{DICE} {roll_off(priority)}"
    lines.append(_("Priority: {player} ({dice})", player=mention(priority.winner), dice=dice))
    card.description = "\n".join(lines)
    if not state.finished and state.last_warband_decides:
        card.add(_.p("field", "Victory"), _(LAST_WARBAND_DECIDES))
    elif not state.finished and state.extra_rounds:
        card.add(_.p("field", "Victory"), _(EXTRA_ROUND))
    card.add(_.p("field", "Now"), prompt(state))
    return card


# ---------------------------------------------------------------- what happened


def notice(event: Notice, name_of: NameOf = mention) -> str:
    """One public line for a notice, players named by `name_of` (mentions)."""
    return say(event.named(name_of))
