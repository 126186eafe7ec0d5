"""A Warcry battle in words, in the language in force: its notices, the board's lines, what it waits for.

The rules keep their own English (rules/warcry: `Notice.text`, `views.prompt`, `views.scoreboard`);
this module says the same from the codes, ids and values the rules carry, through the warcry
catalogue, so a board or a reply reads in its reader's language. In English it says exactly what the
rules say (tests/platform/test_warcry_words.py holds the two together over random battles).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.lang.i18n import Domain
from rules.warcry import actions as act
from rules.warcry.battle import WarcryState
from rules.warcry.battleplans import RollOffShown
from rules.warcry.events import Notice, Verdict
from rules.warcry.models import Scoring
from rules.warcry.views import dormant_objectives

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


# ---------------------------------------------------------------- what happened


def notice(state: WarcryState, event: Notice, name_of: NameOf = mention) -> str | None:
    """One public line for a notice (None for a prompt, which the questions already say)."""
    if event.code == "prompt":
        return None
    say = _NOTICES.get(event.code)
    if say is None:
        return event.render(name_of)  # a notice this module doesn't know: the rules' English
    names = {key: name_of(player) for key, player in event.who.items()}
    return say(state, event, names)


Words = Callable[[WarcryState, Notice, dict[str, str]], str]


def _what(state: WarcryState, event: Notice) -> str:
    if event.action is None:
        return str(event.values.get("what", ""))
    number = event.values.get("round")
    return pending_what(state, event.action, number if isinstance(number, int) else None)


def _thing(event: Notice, relic: str, prize: str) -> str:
    return relic if event.values.get("thing") == "relic" else prize


def _count(event: Notice) -> int:
    count = event.values.get("count", 0)
    return count if isinstance(count, int) else 0


def _round_start(state: WarcryState, event: Notice, names: dict[str, str]) -> str:
    number, rounds = event.values.get("round", 0), event.values.get("rounds", 0)
    if not isinstance(number, int) or not isinstance(rounds, int) or number <= rounds:
        return _("Battle round {round} begins.", round=number)
    if number == rounds + 1:
        return _("Battle round {round} begins (an extra round: the battle is tied).", round=number)
    return _("Battle round {round} begins (the last warband standing decides).", round=number)


def _finished(state: WarcryState, event: Notice, names: dict[str, str]) -> str:
    if "winner" in names:
        return _("{winner} wins: {summary}", winner=names["winner"], summary=summary(state))
    return _("The battle is a draw: {summary}", summary=summary(state))


def _verdict(event: Notice) -> str:
    return reason(event.verdict) if event.verdict is not None else ""


_NOTICES: dict[str, Words] = {
    "priority": lambda s, e, n: _(
        "{winner} wins the priority roll. {loser} splits their warband first.", **n
    ),
    "split": lambda s, e, n: _(
        "{player} splits {fighters} fighters: Dagger {dagger}, Shield {shield}, Hammer {hammer}.",
        **n,
        **e.values,
    ),
    "colours": lambda s, e, n: _("{red} takes the red deployment points, {blue} the blue.", **n),
    "reserve": lambda s, e, n: _(
        "{player}'s {group} waits in reserve and arrives in battle round {round} ({arrival}).",
        **n,
        group=group(e.values.get("group")),
        round=e.values.get("round"),
        arrival=e.values.get("arrival"),
    ),
    "deployed": lambda s, e, n: _(
        "{player} has set up their {group}.", **n, group=group(e.values.get("group"))
    ),
    "blocked_objective": lambda s, e, n: _(
        '{winner} wins the roll-off and places the blocked objective or treasure within 1" horizontally of '
        "its "
        "spot, on the floor or a platform.",
        **n,
    ),
    "battle": lambda s, e, n: _("The battle begins: {battleplan}.", battleplan=e.values.get("battleplan")),
    "awakened_centre": lambda s, e, n: _(
        "Objective {objective} (the central one) is awakened; the others are dormant.",
        objective=objective(e.values.get("objective")),
    ),
    "initiative": lambda s, e, n: _(
        "{player} has the initiative in battle round {round}.", **n, round=e.values.get("round")
    ),
    "treasure": lambda s, e, n: _.n(
        "{player} has {count} fighter carrying treasure.",
        "{player} has {count} fighters carrying treasure.",
        _count(e),
        **n,
    ),
    "carrier_none": lambda s, e, n: _thing(
        e, _("Nobody carries the relic now."), _("Nobody carries the prize now.")
    ),
    "carrier": lambda s, e, n: _thing(
        e, _("{player}'s fighter carries the relic.", **n), _("{player}'s fighter carries the prize.", **n)
    ),
    "near": lambda s, e, n: _.n(
        '{player} has {count} fighter within 3" of the relic.',
        '{player} has {count} fighters within 3" of the relic.',
        _count(e),
        **n,
    ),
    "carrier_damage": lambda s, e, n: _(
        "The relic burns {player}'s carrier: {damage} damage points (D6).", **n, damage=e.values.get("damage")
    ),
    "quarters": lambda s, e, n: _.n(
        "{player} holds {count} quarter.", "{player} holds {count} quarters.", _count(e), **n
    ),
    "blood": lambda s, e, n: _(
        "{player}'s blood tally for battle round {round}: {points}.",
        **n,
        round=e.values.get("round"),
        points=e.values.get("points"),
    ),
    "awakened": lambda s, e, n: _(
        "{player} awakens objective {objective}.", **n, objective=objective(e.values.get("objective"))
    ),
    "control_none": lambda s, e, n: _(
        "Nobody controls objective {objective}.", objective=objective(e.values.get("objective"))
    ),
    "control": lambda s, e, n: _(
        "{player} controls objective {objective}.", **n, objective=objective(e.values.get("objective"))
    ),
    "removed": lambda s, e, n: _(
        "{player} removes objective {objective} from play.",
        **n,
        objective=objective(e.values.get("objective")),
    ),
    "altar": lambda s, e, n: _.n(
        "{player} has {count} fighter on the altar.",
        "{player} has {count} fighters on the altar.",
        _count(e),
        **n,
    ),
    "champion": lambda s, e, n: _(
        "{player} names {champion} their great champion. Add the damage of the attack that made them "
        "champion "
        "to their tally.",
        **n,
        champion=e.values.get("champion"),
    ),
    "champion_tally": lambda s, e, n: _(
        "{player}'s great champion {champion}: tally {tally} (+{amount}).",
        **n,
        champion=e.values.get("champion"),
        tally=e.values.get("tally"),
        amount=e.values.get("amount"),
    ),
    "champion_down": lambda s, e, n: _(
        "{player}'s great champion {champion} is taken down.", **n, champion=e.values.get("champion")
    ),
    "condition_none": lambda s, e, n: _("Nobody has achieved the victory condition now."),
    "condition": lambda s, e, n: _("{player} has achieved the victory condition on the card.", **n),
    "blood_scored": lambda s, e, n: _(
        "Blood tallies {first} – {second}: {player} scores 1 victory point.",
        **n,
        first=e.values.get("first"),
        second=e.values.get("second"),
    ),
    "blood_level": lambda s, e, n: _(
        "Blood tallies level at {tally}: nobody scores.", tally=e.values.get("tally")
    ),
    "ley_scored": lambda s, e, n: _.n(
        "{player} scores {count} victory point (awakened objectives {objectives}).",
        "{player} scores {count} victory points (awakened objectives {objectives}).",
        _count(e),
        **n,
        objectives=objectives(e.values.get("objectives")),
    ),
    "ley_none": lambda s, e, n: _("Nobody controls an awakened objective: no points."),
    "round_end": lambda s, e, n: _("Battle round {round} ends.", round=e.values.get("round")),
    "vault_roll": lambda s, e, n: _("{player} wins the roll-off and removes one objective from play.", **n),
    "vault_turn": lambda s, e, n: _("{player}, remove one objective from play.", **n),
    "last_warband_declared": lambda s, e, n: _(
        "{actor} declares that only {player}'s fighters are left on the battlefield.", **n
    ),
    "last_warband_claim": lambda s, e, n: _(
        "{player} says only their fighters are left on the battlefield. {other}, confirm or reject.", **n
    ),
    "last_warband_rejected": lambda s, e, n: _("{player} rejects the claim; the battle goes on.", **n),
    "last_warband_confirmed": lambda s, e, n: _(
        "{actor} confirms that only {player}'s fighters are left.", **n
    ),
    "confirm_asked": lambda s, e, n: _(
        "{player} pressed: **{what}**. It waits for {other} to confirm (or {player} confirms their own).",
        **n,
        what=_what(s, e),
    ),
    "confirmed": lambda s, e, n: _("{player} confirms: {what}.", **n, what=_what(s, e)),
    "confirm_declined": lambda s, e, n: _(
        "{player} says not yet to: {what}. Nothing changes.", **n, what=_what(s, e)
    ),
    "round_start": _round_start,
    "reserve_arrives": lambda s, e, n: _(
        "{player}'s {group} arrives from reserve this round ({arrival}).",
        **n,
        group=group(e.values.get("group")),
        arrival=e.values.get("arrival"),
    ),
    "last_warband_decides": lambda s, e, n: _(
        "Still nobody has won after the extra round ({reason}): the battle goes on, round after round, until "
        "only one player's fighters are left on the battlefield; that player wins.",
        reason=_verdict(e),
    ),
    "tied": lambda s, e, n: _(
        "Nobody has won yet ({reason}): the battle goes on for another battle round.", reason=_verdict(e)
    ),
    "finished": _finished,
    "battleplan": lambda s, e, n: _("The battleplan is {battleplan}.", battleplan=e.values.get("battleplan")),
}


# ---------------------------------------------------------------- what the battle waits for


def _round_heading(state: WarcryState, hint: str) -> str:
    plan = state.plan()
    if state.round == plan.rounds + 1:
        return _(
            "Battle round {round} (an extra round: the battle is tied): {hint}", round=state.round, hint=hint
        )
    if state.round > plan.rounds + 1:
        return _(
            "Battle round {round} (the last warband standing decides): {hint}", round=state.round, hint=hint
        )
    return _("Battle round {round}: {hint}", round=state.round, hint=hint)


ROUND_HINTS: dict[Scoring, str] = {
    "treasure_hunters": _.mark(
        "keep the count of fighters carrying treasure up to date, then end the round."
    ),
    "cursed_relic": _.mark(
        "record who carries the relic (roll its D6 damage after the carrier's activation) "
        'and the fighters within 3", then end the round.'
    ),
    "no_quarter": _.mark("keep the count of quarters each player holds up to date, then end the round."),
    "reaper": _.mark("enter each player's blood tally for this round, then end the round."),
    "hidden_vault": _.mark("record who controls each objective, then end the round."),
    "cursed_prize": _.mark("record who carries the prize, then end the round."),
    "altar_of_ascendancy": _.mark("keep the count of fighters on the altar up to date, then end the round."),
    "brutal_conquest": _.mark("name great champions and add to their tallies, then end the round."),
    "manual": _.mark("record who has achieved the victory card's condition, then end the round."),
}


def _hint(state: WarcryState, name_of: NameOf) -> str:
    plan = state.plan()
    if state.last_warband_decides:
        return _(
            "the victory card is no longer checked. Fight on, ending each round, and declare the last "
            "warband "
            "standing once only one player's fighters are left on the battlefield."
        )
    if plan.scoring != "ley_lines":
        return _(ROUND_HINTS[plan.scoring])
    if state.initiative is None:
        return _("record who has the initiative; the other player may then awaken a dormant objective.")
    if state.awakened_this_round is None and dormant_objectives(state):
        return _(
            "{other} may awaken a dormant objective; record who controls the awakened ones, then end the "
            "round.",
            other=name_of(state.opponent(state.initiative)),
        )
    return _("record who controls the awakened objectives, then end the round.")


def prompt(state: WarcryState, name_of: NameOf = mention) -> str:
    """One line: what the battle waits for now."""
    if state.finished:
        return summary(state)
    if state.phase == "battle_groups":
        turn = (
            state.loser_of_priority
            if state.loser_of_priority not in state.splits
            else state.winner_of_priority
        )
        return _("{player}, split your warband into Dagger, Shield and Hammer.", player=name_of(turn))
    if state.phase == "colours":
        return _("{player}, choose red or blue deployment points.", player=name_of(state.winner_of_priority))
    if state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        return _("{player}, set up your {group}.", player=name_of(current.player), group=group(current.group))
    if state.phase == "objectives":
        return _("Place the objectives and treasure, then press Begin battle.")
    if state.pending is not None:
        by = state.pending.by
        return _(
            "{title} {other} confirms, or {by} confirms their own.",
            title=pending_title(state),
            other=name_of(state.opponent(by)),
            by=name_of(by),
        )
    if state.removal_by is not None:
        return _("{player}, remove one objective from play.", player=name_of(state.removal_by))
    if state.last_warband_claim is not None:
        claimant = state.last_warband_claim
        return _(
            "{player}, confirm or reject the claim that only {claimant}'s fighters are left.",
            player=name_of(state.opponent(claimant)),
            claimant=name_of(claimant),
        )
    return _round_heading(state, _hint(state, name_of))


# ---------------------------------------------------------------- the board's lines


def scoreboard(state: WarcryState, name_of: NameOf = mention) -> list[str]:
    """The board's lines for this battleplan's tallies (the first is the battleplan and round)."""
    plan = state.battleplan
    if plan is None:
        return [_("Battleplan: drawn once both warbands are split.")]
    lines = [_heading(state)]
    names = {p: name_of(p) for p in state.players}
    if state.red is not None:
        lines.append(
            _("Red: {red} · Blue: {blue}", red=names[state.red], blue=names[state.opponent(state.red)])
        )
    scoring = plan.scoring

    def per_player(label: str, values: dict[int, int]) -> str:
        scores = " · ".join(f"{names[p]} {values.get(p, 0)}" for p in state.players)
        return _("{label}: {scores}", label=label, scores=scores)

    def nobody_or(player: int | None, named: str, nobody: str) -> str:
        return _(named, player=names[player]) if player is not None else _(nobody)

    if scoring == "treasure_hunters":
        lines.append(per_player(_("Fighters carrying treasure"), state.carrying))
    elif scoring in ("cursed_relic", "cursed_prize"):
        lines.append(nobody_or(state.carrier, _.mark("Carried by: {player}"), _.mark("Carried by: nobody")))
        if scoring == "cursed_relic":
            lines.append(per_player(_('Fighters within 3"'), state.near))
    elif scoring == "no_quarter":
        lines.append(per_player(_("Quarters held"), state.quarters))
    elif scoring == "reaper":
        lines.append(per_player(_("Victory points"), state.vp))
        if not state.last_warband_decides:
            lines.append(per_player(_("Blood tally, round {round}", round=state.round), state.blood))
    elif scoring == "ley_lines":
        lines.append(per_player(_("Victory points"), state.vp))
        awake, dormant = (
            objectives(", ".join(state.awakened)),
            objectives(", ".join(dormant_objectives(state))),
        )
        lines.append(
            _(
                "Awakened: {awakened} · Dormant: {dormant}",
                awakened=awake or _("none"),
                dormant=dormant or _("none"),
            )
        )
    elif scoring == "altar_of_ascendancy":
        lines.append(per_player(_("Fighters on the altar"), state.on_altar))
    elif scoring == "brutal_conquest":
        for p in state.players:
            champion = state.champions.get(p)
            if champion is None:
                lines.append(_("{player}: no great champion yet", player=names[p]))
            elif champion.on_battlefield:
                lines.append(
                    _(
                        "{player}: {champion}, tally {tally} (on the battlefield)",
                        player=names[p],
                        champion=champion.name,
                        tally=champion.tally,
                    )
                )
            else:
                lines.append(
                    _(
                        "{player}: {champion}, tally {tally} (taken down)",
                        player=names[p],
                        champion=champion.name,
                        tally=champion.tally,
                    )
                )
    elif scoring == "manual":
        lines.append(
            nobody_or(
                state.condition_met_by,
                _.mark("Victory condition achieved by: {player}"),
                _.mark("Victory condition achieved by: nobody"),
            )
        )
    if scoring in ("ley_lines", "hidden_vault") and state.objectives:
        held = [
            _("{objective}: {player}", objective=objective(o), player=names[state.control[o]])
            if o in state.control
            else _("{objective}: nobody", objective=objective(o))
            for o in state.objectives
        ]
        lines.append(_("Objectives in play — {held}", held=", ".join(held)))
    if state.initiative is not None:
        lines.append(_("Initiative this round: {player}", player=names[state.initiative]))
    return lines


def _heading(state: WarcryState) -> str:
    plan = state.plan()
    if not state.round:
        return plan.name
    if state.round == plan.rounds + 1:
        return _(
            "{battleplan} — battle round {round} (an extra round: the battle is tied)",
            battleplan=plan.name,
            round=state.round,
        )
    if state.round > plan.rounds + 1:
        return _(
            "{battleplan} — battle round {round} (the last warband standing decides)",
            battleplan=plan.name,
            round=state.round,
        )
    return _("{battleplan} — battle round {round}", battleplan=plan.name, round=state.round)
