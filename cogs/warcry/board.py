"""What the table shows of a Warcry battle, in the language in force: the board (battleplan and round,
colours, the battleplan's tallies, priority, what decides the battle now, what it waits for), the
public line for each event, and a finished battle in one line.

The rules keep their own English (rules/warcry: `Notice.text`, `views.prompt`, `views.scoreboard`);
this module says the same from the codes, ids and values the rules carry, through the warcry
catalogue, so a board or a reply reads in its reader's language. In English it says exactly what the
rules say (tests/rules/warcry/test_warcry_words.py holds the two together over random battles).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat.messages import Embed
from bot.lang.i18n import Domain
from cogs.warcry.cards import COLOUR, DICE, roll_off_text
from cogs.warcry.questions import prompt
from cogs.warcry.vocabulary import (
    NameOf,
    group,
    mention,
    objective,
    objectives,
    pending_what,
    reason,
    roll_off,
    summary,
)
from rules.session import Event
from rules.warcry.events import Notice
from rules.warcry.models import WarcryState
from rules.warcry.views import dormant_objectives

_ = Domain("warcry")

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


def describe(state: WarcryState, event: Event) -> str | None:
    """One public line for an event (with the dice of a roll-off); None for what the questions say."""
    if not isinstance(event, Notice):
        return None
    text = notice(state, event)
    if text is not None and event.roll_off is not None:
        text = f"{roll_off_text(event.roll_off)}\n{text}"
    return text


def board_embed(state: WarcryState) -> Embed:
    """The battle at a glance: battleplan and round, colours, the battleplan's tallies, priority, and
    what decides the battle now (past the extra round: the last warband standing)."""
    a, b = state.players
    card = Embed(
        title=_.p("title", "Warcry: {first} vs {second}", first=state.label_of(a), second=state.label_of(b)),
        colour=COLOUR,
    )
    lines = scoreboard(state)
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
        lines.extend(_champion_lines(state, names))
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


def _champion_lines(state: WarcryState, names: dict[int, str]) -> list[str]:
    """Brutal Conquest's lines: each player's great champion and tally."""
    lines = []
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
