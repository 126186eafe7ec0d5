"""Warcry's names as players read them, in the language in force: a battle group, an objective, a deck,
an ability's cost, a player, the dice of a roll-off, why a victory card stands as it does, a step
waiting for a confirmation.

The rules keep ids and their own English titles (rules/warcry); this says each through the warcry
catalogue. Battleplan, card and ability names are the game's proper names and stay as written.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.lang.i18n import Domain
from rules.warcry import actions as act
from rules.warcry.battle import WarcryState
from rules.warcry.battleplans import RollOffShown
from rules.warcry.events import Verdict

_ = Domain("warcry")

NameOf = Callable[[int], str]

GROUPS: dict[str, str] = {"dagger": _.mark("Dagger"), "shield": _.mark("Shield"), "hammer": _.mark("Hammer")}
"""Battle groups by id; the rules' English titles are the same words."""
OBJECTIVES: tuple[str, ...] = (_.mark("Centre"),)
"""Objective labels of the shipped battleplans that are words (the others are letters or numbers)."""


def mention(player: int) -> str:
    return f"<@{player}>"


def group(name: object) -> str:
    """A battle group's name, from its id (`dagger`) or the rules' English title (`Dagger`)."""
    key = str(name).lower()
    return _(GROUPS[key]) if key in GROUPS else str(name)


def objective(label: object) -> str:
    """An objective's label as shown: a word of the shipped battleplans translated, a letter as it is."""
    text = str(label)
    return _(text) if text in OBJECTIVES else text


def objectives(labels: object) -> str:
    """A list of objective labels (`Centre, A, B`), each as shown."""
    return ", ".join(objective(o) for o in str(labels).split(", ")) if labels else ""


def roll_off(roll: RollOffShown, name_of: NameOf = mention) -> str:
    """`Alice 3 – Bob 3, re-rolled; Alice 5 – Bob 2`: every die of a roll-off, ties included."""
    first, second = (name_of(p) for p in roll.players)
    throws = [f"{first} {a} – {second} {b}" for a, b in roll.rounds]
    return _.p("roll-off", ", re-rolled; ").join(throws)


# ---------------------------------------------------------------- why a battle stands as it does


def reason(verdict: Verdict) -> str:
    """Why the victory card is met or not: `most victory points (2 to 1)`."""
    v = verdict.values
    code = verdict.code
    measure = v.get("measure")
    count, other, best = v.get("count"), v.get("other"), v.get("best")
    words: dict[str, Callable[[], str]] = {
        "level.treasure": lambda: _("level on fighters carrying treasure ({count} each)", count=count),
        "level.near": lambda: _('level on fighters within 3" of the relic ({count} each)', count=count),
        "level.quarters": lambda: _("level on quarters captured ({count} each)", count=count),
        "level.vp": lambda: _("level on victory points ({count} each)", count=count),
        "most.treasure": lambda: _(
            "most fighters carrying treasure ({count} to {other})", count=count, other=other
        ),
        "most.near": lambda: _(
            'most fighters within 3" of the relic ({count} to {other})', count=count, other=other
        ),
        "most.quarters": lambda: _("most quarters captured ({count} to {other})", count=count, other=other),
        "most.vp": lambda: _("most victory points ({count} to {other})", count=count, other=other),
        "relic_carried": lambda: _("their fighter carries the relic"),
        "vault_held": lambda: _("they control the last objective"),
        "vault_nobody": lambda: _("nobody controls the last objective"),
        "prize_carried": lambda: _("their fighter carries the prize"),
        "prize_nobody": lambda: _("nobody carries the prize"),
        "altar_alone": lambda: _("only they have fighters on the altar"),
        "altar_both": lambda: _("both players have fighters on the altar"),
        "altar_empty": lambda: _("the altar is empty"),
        "no_champion": lambda: _("no great champion is on the battlefield"),
        "champions_level": lambda: _("the great champions' tallies are level ({best})", best=best),
        "champion_highest": lambda: _("their great champion has the highest tally ({best})", best=best),
        "condition_met": lambda: _("they achieved the victory condition"),
        "condition_nobody": lambda: _("nobody achieved the victory condition"),
        "last_warband": lambda: _("only their warband is left on the battlefield"),
    }
    say = words.get(f"{code}.{measure}" if measure else code)
    text = say() if say else code
    return _("{reason}: any other result is a draw", reason=text) if verdict.draw_rule else text


# ---------------------------------------------------------------- a step waiting for a confirmation


def pending_what(state: WarcryState, action: act.Confirmable, round_number: int | None = None) -> str:
    """The step waiting for a confirmation, in a few words: `end battle round 2`."""
    if isinstance(action, act.EndRound):
        return _("end battle round {round}", round=action.round)
    name = state.label_of(action.player)
    if isinstance(action, act.SetTreasureCarriers):
        return _.n(
            "{name} has {count} fighter carrying treasure",
            "{name} has {count} fighters carrying treasure",
            action.count,
            name=name,
        )
    if isinstance(action, act.SetFightersNear):
        return _.n(
            '{name} has {count} fighter within 3" of the relic',
            '{name} has {count} fighters within 3" of the relic',
            action.count,
            name=name,
        )
    if isinstance(action, act.SetQuarters):
        return _.n("{name} holds {count} quarter", "{name} holds {count} quarters", action.count, name=name)
    if isinstance(action, act.SetBloodTally):
        number = state.round if round_number is None else round_number
        return _(
            "{name}'s blood tally for battle round {round} is {points}",
            name=name,
            round=number,
            points=action.points,
        )
    if isinstance(action, act.SetOnAltar):
        return _.n(
            "{name} has {count} fighter on the altar",
            "{name} has {count} fighters on the altar",
            action.count,
            name=name,
        )
    champion = state.champions.get(action.player)
    return _("add {amount} to {name}'s tally", amount=action.amount, name=champion.name if champion else name)


def pending_title(state: WarcryState) -> str:
    """What the confirmation waiting now asks: `Confirm: end battle round 2?`."""
    assert state.pending is not None
    return _("Confirm: {what}?", what=pending_what(state, state.pending.action))


# ---------------------------------------------------------------- a pack's decks and costs

DECKS: dict[str, str] = {
    "terrain": _.mark("terrain"),
    "deployment": _.mark("deployment"),
    "victory": _.mark("victory"),
    "twist": _.mark("twist"),
}
COSTS: dict[str, str] = {"double": _.mark("double"), "triple": _.mark("triple"), "quad": _.mark("quad")}


def deck(name: str) -> str:
    return _(DECKS[name]) if name in DECKS else name


# ---------------------------------------------------------------- a finished battle


def summary(state: WarcryState) -> str:
    """A finished battle in one line: `Reaper after 4 battle rounds: won because most victory points (2 to "
    "1).`"""
    outcome, verdict, plan = state.outcome, state.verdict, state.battleplan
    if outcome is None:
        return _("The battle is over.")
    if verdict is None or plan is None:
        return outcome.summary  # a battle finished before its verdict was kept: the rules' English
    why, name, rounds = reason(verdict), plan.name, state.round
    if outcome.winner is not None:
        return _.n(
            "{battleplan} after {count} battle round: won because {reason}.",
            "{battleplan} after {count} battle rounds: won because {reason}.",
            rounds,
            battleplan=name,
            reason=why,
        )
    return _.n(
        "{battleplan} after {count} battle round: a draw, {reason}.",
        "{battleplan} after {count} battle rounds: a draw, {reason}.",
        rounds,
        battleplan=name,
        reason=why,
    )
