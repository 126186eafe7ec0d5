"""The rules' English for Kill Team, said in the language in force.

rules/killteam words its questions and a few event values in English and stays pure; this module
gives each of them its translation: a question by its topic and params (`localise`), a fixed
sentence by the rules' own English (marked here, so the catalogue holds it), and a sentence with
values by the English template it was made from (`reword`). The English comes out unchanged.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable

from bot.lang.i18n import Domain
from rules.killteam.state import (
    BATTLE_READY_VP,
    MISSION_VP_PER_TP,
    MISSION_VP_TOTAL,
    TAC_OP_VP_EACH,
    TAC_OP_VP_TOTAL,
    VP_TOTAL,
    KillTeamState,
)
from rules.killteam.views import (
    BATTLE_END,
    BATTLE_NOT_READY,
    BATTLE_READY,
    NO_FACTION,
    bid_contest,
)
from rules.session import Option, Question

_ = Domain("killteam")

# ---------------------------------------------------------------------- fixed words of the rules

QUESTION_WORDS = frozenset(
    {
        _.mark("Game over"),
        _.mark("The battle is over."),
        _.mark("Attacker or defender"),
        _.mark("The roll-off winner chooses to attack or to defend."),
        _.mark("Veto: put forward two missions"),
        _.mark("The attacker puts forward two mission cards; the defender will pick one."),
        _.mark("Veto: pick the mission"),
        _.mark("The defender picks one of the two missions put forward."),
        _.mark("Veto: put forward three maps"),
        _.mark("The defender puts forward three map cards."),
        _.mark("Veto: discard a map"),
        _.mark("The attacker discards one of the three maps put forward."),
        _.mark("Veto: pick the map"),
        _.mark("The defender picks the map from the two that are left."),
        _.mark("Control: pick the mission"),
        _.mark("The winner of your last game picks a mission that was not used in it."),
        _.mark("Control: pick the map type"),
        _.mark("The winner of your last game picks a map type that was not used in it."),
        _.mark("Control: pick the map"),
        _.mark("The loser of your last game picks a map card of the chosen type."),
        _.mark("Defender: choose your drop zone"),
        _.mark("The defender picks a drop zone; the attacker has the other."),
        _.mark("Select your kill team"),
        _.mark(
            "Pick your operatives from your roster and show them to your opponent, then say which "
            "faction you play (for its Tac Ops). Each player gains 3 CP."
        ),
        _.mark("Tac Ops: choose in private"),
        _.mark("Each player picks their Tac Ops in private."),
        _.mark("Acquired Tac Ops: take one from the row"),
        _.mark(
            "Take one Tac Op from the public row; a card from the deck refills it. The attacker picks "
            "first, then you alternate until each has three."
        ),
        _.mark("Equipment"),
        _.mark(
            "Pick up to 10 points of your faction's equipment, give it to your operatives and show it "
            "to your opponent, then press Done."
        ),
        _.mark("Scouting: pick in secret"),
        _.mark("Each player secretly picks a scouting option; both are revealed together."),
        _.mark("Scouting: resolve"),
        _.mark("Carry out your scouting pick (the attacker first), then press Done."),
        _.mark("First initiative"),
        _.mark("The roll-off winner decides who has the initiative in the first turning point."),
        _.mark(
            "Play the turning point and record your VP as you score them; each player presses End "
            "turning point when it is over."
        ),
        _.mark(
            "Each player secretly bids some of their remaining tokens (0 is fine). The higher bid "
            "decides; a tie is cancelled and bid again, unless both bid 0, when a roll-off decides. "
            "Both bids are spent."
        ),
        _.mark("Bid won: choose the mission"),
        _.mark("The bid winner picks any mission card."),
        _.mark("Bid won: choose the map"),
        _.mark("The bid winner picks any map card."),
        _.mark("Bid won: attacker or defender"),
        _.mark("The bid winner decides who attacks."),
        _.mark("Bid won: first initiative"),
        _.mark("The bid winner decides who has the initiative in the first turning point."),
        _.mark("Bid won: choose the archetype"),
        _.mark("The bid winner picks the one archetype both players take their Tac Ops from."),
        _.mark("Bid won: take a Tac Op from the pair"),
        _.mark("The bid winner takes one of the two; the other player gets the other."),
        _.mark("Your scouting pick"),
        _.mark("Pick in secret; both picks are revealed together."),
        _.mark("Tac Ops: choose your archetype"),
        _.mark("Pick the archetype your Tac Ops come from (only you see it)."),
        _.mark("Tac Ops: build your deck of six"),
        _.mark("Pick six Tac Ops: up to three of your faction's, the rest from your archetype."),
        _.mark("Tac Ops: pick your three"),
        _.mark("Pick three Tac Ops: at most one of your faction's, the rest from your archetype."),
        _.mark("You drew these; keep one and discard the other."),
        _.mark("End the game now?"),
        _.mark(
            "Ending the game can't be undone; the higher total wins. The other player confirms, or the "
            "player who asked may confirm their own. Not yet withdraws the request and play goes on."
        ),
    }
)
"""Question titles and texts the rules word the same way every time (translated by their English)."""

SHIPPED_PACK_WORDS = frozenset(
    {
        _.mark("Place one extra barricade wholly within your territory; this one may go on a Vantage Point."),
        _.mark(
            "Once in the first turning point, when you pick a ready operative to activate, you may switch "
            "its order."
        ),
        _.mark(
            "One of your operatives wholly within your drop zone makes a free Dash, moving as if it "
            "could FLY."
        ),
    }
)
"""The shipped pack's scouting effects (rules/killteam/data/default.yaml); a server's own pack is
shown as written."""


def _buttons() -> dict[str, str]:
    """Option labels the rules word the same way every time."""
    return {
        "Attack": _.p("button", "Attack"),
        "Defend": _.p("button", "Defend"),
        "Take the initiative": _.p("button", "Take the initiative"),
        "Give it to my opponent": _.p("button", "Give it to my opponent"),
        "Done": _.p("button", "Done"),
        "Confirm": _.p("button", "Confirm"),
        "Not yet": _.p("button", "Not yet"),
        "Other (no faction Tac Ops)": _.p("button", "Other (no faction Tac Ops)"),
    }


# ---------------------------------------------------------------------- sentences with values

SEALED_LABELS = frozenset(
    {
        _.mark("bid to choose the mission"),
        _.mark("bid to choose the map"),
        _.mark("bid to choose attacker and defender"),
        _.mark("bid to choose who has the first initiative"),
        _.mark("bid to choose the Tac Ops archetype"),
        _.mark("scouting pick"),
    }
)
"""What a sealed round chooses (rules: mission.BID_CATEGORIES, tacops, setup), a noun phrase
without its article: the sentences around it say "the"."""
PAIR_LABEL = _.mark("bid for Tac Op pair {number} ({cards})")

ROLL_OFF_PURPOSES = frozenset(
    {_.mark("Veto: attacker and defender"), _.mark("attacker and defender"), _.mark("the first initiative")}
)

CONTROL_PROBLEMS = (
    _.mark("There is no earlier Kill Team game between you two on record, so Control can't be used."),
    _.mark("Your last Kill Team game was a draw, so nobody takes Control."),
    _.mark("The last game on record has no winner among you two, so Control can't be used."),
)
NOTICES = (
    _.mark("{problem} Dealing a random mission and map instead."),
    _.mark("Your Tac Ops deck ran out, so the set-aside cards were reshuffled into it."),
    _.mark("No card in the row fits the next picker's Tac Ops, so cards were added from the deck."),
    _.mark("Neither player has tokens left for the {label}, so a roll-off decides."),
    _.mark("The scouting picks don't settle the first initiative, so the players roll off."),
    _.mark("Neither card fits the Tac Ops you hold, so both go aside and you draw again."),
)
"""Notices and reasons the rules give (events.Notice, TacOpsSetAside)."""

WHY_NOT = (
    _.mark("You already hold {count} Tac Ops."),
    _.mark("You already hold {name}."),
    _.mark("{name} is a {faction} Tac Op, not one of your faction's."),
    _.mark("You may hold only one faction Tac Op."),
    _.mark(
        "Your Tac Ops so far are {mine}; all your archetype Tac Ops must come from one archetype, and "
        "{name} is {archetype}."
    ),
)
"""Why a Tac Op can't be taken (rules: hand.fits), on a disabled option."""

SUMMARY = _.mark("{where}, {when}: {first} VP to {second} VP{draw}.")
WHERE = _.mark("{mission} on {map}")
WHEN = (
    _.mark("ended before the battle began"),  # results stored before such games were cancelled
    _.mark("ended early in turning point {number}"),
    _.mark("after {number} turning points"),
)
DRAW = _.mark(", a draw")
MAP_LABEL = _.mark("Map {id}")


@functools.cache
def _pattern(template: str) -> re.Pattern[str]:
    """A regular expression that matches what `template` makes, each value a named group."""
    parts = []
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if name:
            parts.append(rf"(?P<{name}>\d+)" if name in ("count", "number") else rf"(?P<{name}>.*?)")
    return re.compile("".join(parts), re.DOTALL)


def reword(text: str, templates: Iterable[str], values: dict[str, Callable[[str], str]] | None = None) -> str:
    """`text`, made by the rules from one of `templates`, in the language in force: its values are
    kept (or said through `values`' functions by name). Text made from none of them is translated
    as a fixed sentence (or shown as it is)."""
    for template in templates:
        found = _pattern(template).fullmatch(text)
        if found is not None:
            said = {k: (values or {}).get(k, str)(v) for k, v in found.groupdict().items()}
            return _(template, **said)
    return _(text)


def sealed_label(label: str) -> str:
    """What a sealed round chooses ("bid to choose the mission"), in the language in force."""
    return reword(label, [PAIR_LABEL])


def purpose(text: str) -> str:
    """What a roll-off decides: a purpose of its own, or a bid's label."""
    return _(text) if text in ROLL_OFF_PURPOSES else sealed_label(text)


def notice(text: str) -> str:
    return reword(text, NOTICES, {"problem": _, "label": sealed_label})


def why_not(text: str) -> str:
    return reword(text, WHY_NOT)


def summary(text: str) -> str:
    """A finished game's summary (rules: battle.finish)."""
    return reword(
        text,
        [SUMMARY],
        {
            "where": lambda where: reword(where, [WHERE], {"map": map_label}),
            "when": lambda when: reword(when, WHEN),
            "draw": lambda draw: _(DRAW) if draw else draw,
        },
    )


def map_label(label: str) -> str:
    """A map card's label: an unnamed card is "Map A4"; a named one keeps its name and id."""
    return reword(label, [MAP_LABEL])


def map_group(group: str) -> str:
    return _("Maps {group}", group=group)


def caps() -> str:
    """The scoring caps, as the board's footer says them."""
    return _(
        "Caps: mission {per_turning_point} VP per turning point and {mission} in all; each Tac Op "
        "{each} VP ({tac_ops} in all); {painted} VP for a Battle Ready painted roster; {total} at most.",
        per_turning_point=MISSION_VP_PER_TP,
        mission=MISSION_VP_TOTAL,
        each=TAC_OP_VP_EACH,
        tac_ops=TAC_OP_VP_TOTAL,
        painted=BATTLE_READY_VP,
        total=VP_TOTAL,
    )


# ---------------------------------------------------------------------- questions


def _title_and_text(state: KillTeamState, asked: Question) -> tuple[str, str]:
    topic = asked.topic.removeprefix("killteam.")
    params = asked.params
    contest = bid_contest(state)
    if topic == "bid" and contest is not None:
        label = sealed_label(contest.label)
        left = params.get("tokens")
        if isinstance(left, int):  # a player's own prompt (the public question has no tokens)
            text = _.n(
                "You have {count} token. Bid 0 to {count}; only you see it until both have bid.",
                "You have {count} tokens. Bid 0 to {count}; only you see it until both have bid.",
                left,
            )
            return _("Your sealed bid: {label}", label=label), text
        return _("Sealed bid: {label}", label=label), _(asked.text)
    if topic == "barricades":
        return _("Barricades: {each} each", each=params.get("each")), _(
            "Set up your {each} barricades, taking turns with your opponent; the defender starts. Each "
            "goes near your drop zone. Press Done once all of yours are set up.",
            each=params.get("each"),
        )
    if topic == "operatives":
        return _("Operatives: {each} groups each", each=params.get("each")), _(
            "Set up your operatives in {each} groups, taking turns with your opponent; the defender "
            "starts. Each group goes wholly in your drop zone, each operative with an order. Press Done "
            "once all of yours are set up.",
            each=params.get("each"),
        )
    if topic == "battle":
        return _("Turning point {number}", number=params.get("turning_point")), _(asked.text)
    if topic == "tac_draft" and params.get("draft") == "draw":
        held = len(state.tac.held.get(asked.players[0], [])) if asked.players else 0
        return _("Tac Ops: keep one ({number} of 3)", number=held + 1), _(asked.text)
    return _(asked.title), _(asked.text)


def _option(state: KillTeamState, asked: Question, option: Option) -> Option:
    topic = asked.topic.removeprefix("killteam.")
    label, group, description = option.label, option.group, option.description
    tac_op = state.pack.tac_op(option.value)
    card = state.pack.map(option.value)
    if topic == "battle" and option.value == BATTLE_END:
        label = _.p("button", "End turning point {number}", number=asked.params.get("turning_point"))
    elif topic == "battle" and option.value == BATTLE_READY:
        label = _.p("button", "Battle Ready painted (+{vp})", vp=BATTLE_READY_VP)
    elif topic == "battle" and option.value == BATTLE_NOT_READY:
        label = _.p("button", "Not Battle Ready")
    elif topic == "drop_zone":
        label = _.p("button", "Drop zone {zone}", zone=option.value)
    elif topic == "control_map_type":
        label = map_group(option.value)
    elif topic == "faction" and option.value != NO_FACTION:
        ops = next((len(f.tac_ops) for f in state.pack.factions if f.name == option.label), 0)
        description = _.n("{count} faction Tac Op", "{count} faction Tac Ops", ops)
    elif tac_op is not None and (tac_op.id, tac_op.name) == (option.value, option.label):
        if tac_op.faction is not None:
            group = _("{faction} (faction)", faction=tac_op.faction)
        description = why_not(description) if description else description
    elif card is not None and (card.id, card.label) == (option.value, option.label):
        label, group = map_label(card.label), map_group(card.group or "")
    else:
        label = _buttons().get(label, label)
    if topic == "scouting" and description:
        description = _(description)
    return option.model_copy(update={"label": label, "group": group, "description": description})


def localise(state: KillTeamState, asked: Question) -> Question:
    """A question of the rules in the language in force: every step, value and key as asked."""
    title, text = _title_and_text(state, asked)
    options = [_option(state, asked, option) for option in asked.options]
    return asked.model_copy(update={"title": title, "text": text, "options": options})
