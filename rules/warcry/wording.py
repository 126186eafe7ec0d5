"""How a Warcry battle names what players read, once, in English marked for the warcry catalogue:
a battle group, an objective, a step waiting for a confirmation, why a victory card stands as it
does, and a finished battle in one line.

Questions, notices, the board's prompt and scoreboard, and refusals carry these as `Words`, so the
bot says them in each reader's language from the msgid written here. Battleplan and champion names
are proper names (or typed by a player) and stay as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.text import clip
from rules.warcry import actions as act
from rules.warcry.events import Verdict
from rules.warcry.models import WarcryState
from rules.words import Marker, Words

N_ = Marker("warcry")

NAME_IN_BUTTON = 20  # of a player's name in a button label, so the words around it still fit
CHAMPION_IN_BUTTON = 40  # of a champion's name, the only words of its button besides a few

OBJECTIVE_WORDS: dict[str, Words] = {"Centre": N_("Centre")}
"""Objective labels of the shipped battleplans that are words (the others are letters or numbers)."""


def short(name: str, limit: int = NAME_IN_BUTTON) -> str:
    """A name cut to fit a button beside its words."""
    return clip(name, limit)


def objective(label: str) -> Words:
    """An objective's label as shown: a word of the shipped battleplans translated, a letter as it is."""
    return OBJECTIVE_WORDS.get(label) or Words.verbatim(label)


def listed(labels: Sequence[str]) -> Words:
    """Objective labels one after another (`Centre, A, B`), each as shown."""
    return joined([objective(o) for o in labels])


def joined(parts: Sequence[Words], between: str = ", ") -> Words:
    """Words one after another, each shown in the reader's language."""
    keys = [f"w{i}" for i in range(len(parts))]
    template = between.join("{" + k + "}" for k in keys)
    return Words(template, None, values=dict(zip(keys, parts, strict=True)))


# ---------------------------------------------------------------- a step waiting for a confirmation


def pending_what(state: WarcryState, action: act.Confirmable, round_number: int | None = None) -> Words:
    """The step waiting for a confirmation, in a few words: `end battle round 2`."""
    if isinstance(action, act.EndRound):
        return N_("end battle round {round}", round=action.round)
    name = state.label_of(action.player)
    if isinstance(action, act.SetTreasureCarriers):
        return N_.n(
            "{name} has {count} fighter carrying treasure",
            "{name} has {count} fighters carrying treasure",
            action.count,
            name=name,
        )
    if isinstance(action, act.SetFightersNear):
        return N_.n(
            '{name} has {count} fighter within 3" of the relic',
            '{name} has {count} fighters within 3" of the relic',
            action.count,
            name=name,
        )
    if isinstance(action, act.SetQuarters):
        return N_.n("{name} holds {count} quarter", "{name} holds {count} quarters", action.count, name=name)
    if isinstance(action, act.SetBloodTally):
        number = state.round if round_number is None else round_number
        return N_(
            "{name}'s blood tally for battle round {round} is {points}",
            name=name,
            round=number,
            points=action.points,
        )
    if isinstance(action, act.SetOnAltar):
        return N_.n(
            "{name} has {count} fighter on the altar",
            "{name} has {count} fighters on the altar",
            action.count,
            name=name,
        )
    champion = state.champions.get(action.player)
    return N_(
        "add {amount} to {name}'s tally", amount=action.amount, name=champion.name if champion else name
    )


def pending_title(state: WarcryState, action: act.Confirmable) -> Words:
    """What a confirmation asks, as its question's title: `Confirm: end battle round 2?`."""
    return N_("Confirm: {what}?", what=pending_what(state, action))


# ---------------------------------------------------------------- why a battle stands as it does


def reason(verdict: Verdict) -> Words:
    """Why the victory card is met or not: `most victory points (2 to 1)`."""
    v = verdict.values
    measure = v.get("measure")
    count, other, best = v.get("count"), v.get("other"), v.get("best")
    key = f"{verdict.code}.{measure}" if measure else verdict.code
    words = {
        "level.treasure": N_("level on fighters carrying treasure ({count} each)", count=count),
        "level.near": N_('level on fighters within 3" of the relic ({count} each)', count=count),
        "level.quarters": N_("level on quarters captured ({count} each)", count=count),
        "level.vp": N_("level on victory points ({count} each)", count=count),
        "most.treasure": N_("most fighters carrying treasure ({count} to {other})", count=count, other=other),
        "most.near": N_(
            'most fighters within 3" of the relic ({count} to {other})', count=count, other=other
        ),
        "most.quarters": N_("most quarters captured ({count} to {other})", count=count, other=other),
        "most.vp": N_("most victory points ({count} to {other})", count=count, other=other),
        "relic_carried": N_("their fighter carries the relic"),
        "vault_held": N_("they control the last objective"),
        "vault_nobody": N_("nobody controls the last objective"),
        "prize_carried": N_("their fighter carries the prize"),
        "prize_nobody": N_("nobody carries the prize"),
        "altar_alone": N_("only they have fighters on the altar"),
        "altar_both": N_("both players have fighters on the altar"),
        "altar_empty": N_("the altar is empty"),
        "no_champion": N_("no great champion is on the battlefield"),
        "champions_level": N_("the great champions' tallies are level ({best})", best=best),
        "champion_highest": N_("their great champion has the highest tally ({best})", best=best),
        "condition_met": N_("they achieved the victory condition"),
        "condition_nobody": N_("nobody achieved the victory condition"),
        "last_warband": N_("only their warband is left on the battlefield"),
    }
    text = words.get(key) or Words.verbatim(verdict.code)
    return N_("{reason}: any other result is a draw", reason=text) if verdict.draw_rule else text


def result(battleplan: str, rounds: int, won: bool, verdict: Verdict) -> Words:
    """A finished battle in one line: `Reaper after 4 battle rounds: won because most victory points
    (2 to 1).`"""
    why = reason(verdict)
    if won:
        return N_.n(
            "{battleplan} after {count} battle round: won because {reason}.",
            "{battleplan} after {count} battle rounds: won because {reason}.",
            rounds,
            battleplan=battleplan,
            reason=why,
        )
    return N_.n(
        "{battleplan} after {count} battle round: a draw, {reason}.",
        "{battleplan} after {count} battle rounds: a draw, {reason}.",
        rounds,
        battleplan=battleplan,
        reason=why,
    )


def summary(state: WarcryState) -> Words:
    """A battle's result as players read it (its outcome's own English if it kept no verdict)."""
    outcome, verdict, plan = state.outcome, state.verdict, state.battleplan
    if outcome is None:
        return N_("The battle is over.")
    if verdict is None or plan is None:
        return Words.verbatim(outcome.summary)  # a battle finished before its verdict was kept
    return result(plan.name, state.round, outcome.winner is not None, verdict)
