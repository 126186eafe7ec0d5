"""Read-only views for the Discord layer: what is asked now, the buttons to draw, the scoreboard, and
the unit names to autocomplete. Nothing here changes a state."""

from __future__ import annotations

from typing import Literal

from rules.errors import RuleError
from rules.fortyk.models import (
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    ConditionResult,
    DropRelic,
    EndTurn,
    FinishDeployment,
    FortyKAction,
    FortyKState,
    Kill,
    MarkUnit,
    Phase,
    RecordDestroyed,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.procedure import first_turn_bonuses
from rules.fortyk.scoring import kill_points
from rules.fortyk.units import alive_units, holder_of_relic, known_units, markable_units, marked_survivors
from rules.session import Model

__all__ = ["Button", "Prompt", "Purpose", "Scoreboard", "SideBoard", "action_for_button", "known_units",
           "markable_units", "prompt", "scoreboard", "unit_suggestions"]


class Button(Model):
    """`key` goes into the component's custom_id; `needs` says the cog must first ask for input."""

    key: str
    label: str
    players: list[int]
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"
    needs: Literal["unit", "report"] | None = None


class Prompt(Model):
    phase: Phase
    acting: list[int]  # who is expected to act now
    text: str
    buttons: list[Button]


def _who(player: int | None) -> str:
    return f"<@{player}>" if player is not None else "nobody"


def prompt(state: FortyKState) -> Prompt:
    """What the game asks now, of whom, and with which buttons."""
    both = list(state.players)
    mission = state.mission
    match state.phase:
        case Phase.DEPLOYMENT_ROLL:
            return Prompt(phase=state.phase, acting=both,
                          text=f"{mission.title} on {mission.deployment.map}. Roll off: the winner picks the "
                               "deployment zone.",
                          buttons=[Button(key="roll_deployment", label="Roll off for deployment",
                                          players=both, style="primary")])
        case Phase.CHOOSE_ZONE:
            assert state.deployment_roll is not None
            chooser = state.deployment_roll.winner
            return Prompt(phase=state.phase, acting=[chooser],
                          text=f"{_who(chooser)} won the roll-off: choose your deployment zone.",
                          buttons=[Button(key=f"zone:{i}", label=z.name, players=[chooser])
                                   for i, z in enumerate(mission.deployment.zones)])
        case Phase.DEPLOYING:
            waiting = [p for p in both if p not in state.setup_done]
            text = (f"Deploy: {_who(state.deploys_first)} sets up a unit first, then take turns unit by "
                    "unit. Press the button when your whole army is on the table; the first to finish gets "
                    f"+{mission.first_turn.setup_first_bonus} to the first-turn roll.")
            if state.setup_done:
                text += f" {_who(state.setup_done[0])} has finished."
            return Prompt(phase=state.phase, acting=waiting, text=text,
                          buttons=[Button(key="deployment_done", label="My army is deployed", players=waiting,
                                          style="success")])
        case Phase.FIRST_TURN_ROLL:
            bonuses = first_turn_bonuses(state)
            bonus_text = ", ".join(f"{_who(p)} +{b}" for p, b in zip(both, bonuses, strict=True) if b)
            return Prompt(phase=state.phase, acting=both,
                          text="Roll off for the first turn" + (f" ({bonus_text} for finishing set-up first)."
                                                                if bonus_text else "."),
                          buttons=[Button(key="roll_first_turn", label="Roll off for the first turn",
                                          players=both, style="primary")])
        case Phase.CHOOSE_ORDER:
            assert state.first_turn_roll is not None
            chooser = state.first_turn_roll.winner
            return Prompt(phase=state.phase, acting=[chooser],
                          text=f"{_who(chooser)} won the roll-off: go first or second?",
                          buttons=[Button(key="order:first", label="Go first", players=[chooser],
                                          style="primary"),
                                   Button(key="order:second", label="Go second", players=[chooser])])
        case Phase.SEIZE:
            assert state.first_turn_roll is not None
            seizer = state.opponent(state.first_turn_roll.winner)
            return Prompt(phase=state.phase, acting=[seizer],
                          text=f"{_who(seizer)}, you may try to seize the initiative: the bot rolls a D6 and "
                               f"a {mission.first_turn.seize_on}+ gives you the first turn.",
                          buttons=[Button(key="seize:yes", label="Try to seize", players=[seizer],
                                          style="primary"),
                                   Button(key="seize:no", label="Let them go first", players=[seizer])])
        case Phase.BATTLE:
            return _battle_prompt(state)
        case Phase.SCORING:
            waiting = [p for p in both if p not in {r.player for r in state.reports}]
            return Prompt(phase=state.phase, acting=waiting,
                          text=f"The battle ended after round {state.ended_after_round}. Each player "
                               "reports the table quarters they claim (more units wholly inside than the "
                               f"enemy; flyers do not count; {mission.table_quarters} in all) and which of "
                               "their marked units are alive.",
                          buttons=[Button(key="report_end", label="Report quarters", players=waiting,
                                          style="primary", needs="report")])
        case Phase.FINISHED:
            return Prompt(phase=state.phase, acting=[], text="The game is over.", buttons=[])
    raise AssertionError(state.phase)  # pragma: no cover


def _battle_prompt(state: FortyKState) -> Prompt:
    active = state.active_player
    assert active is not None
    both = list(state.players)
    mission = state.mission
    buttons: list[Button] = []
    text = f"Battle round {state.round}: {_who(active)}'s turn."
    if mission.marks is not None and state.marking_open:
        text += " Before moving you may mark one enemy unit for death."
        buttons.append(Button(key="mark", label="Mark a unit", players=[active], style="danger",
                              needs="unit"))
    buttons.append(Button(key="destroyed", label="Record a kill", players=both, needs="unit"))
    if mission.relics is not None:
        if holder_of_relic(state, state.opponent(active)) is None:
            buttons.append(Button(key="capture_relic", label="Take the enemy relic", players=[active],
                                  needs="unit"))
        carrying = [p for p in both if holder_of_relic(state, state.opponent(p)) is not None]
        if carrying:
            buttons.append(Button(key="drop_relic", label="Drop the relic", players=carrying))
    buttons.append(Button(key="end_turn", label="End turn", players=[active], style="success"))
    text += " Record kills as they happen: a marked unit is worth its bonus only in the turn it was marked."
    return Prompt(phase=state.phase, acting=[active], text=text, buttons=buttons)


def action_for_button(state: FortyKState, key: str, actor: int, unit: str | None = None) -> FortyKAction:
    """The action a pressed button stands for; units come from the cog's follow-up input."""
    simple: dict[str, FortyKAction] = {
        "roll_deployment": RollForDeployment(actor=actor),
        "deployment_done": FinishDeployment(actor=actor),
        "roll_first_turn": RollForFirstTurn(actor=actor),
        "order:first": ChooseOrder(actor=actor, go_first=True),
        "order:second": ChooseOrder(actor=actor, go_first=False),
        "seize:yes": SeizeInitiative(actor=actor, attempt=True),
        "seize:no": SeizeInitiative(actor=actor, attempt=False),
        "drop_relic": DropRelic(actor=actor),
        "end_turn": EndTurn(actor=actor),
    }
    if key in simple:
        return simple[key]
    if key.startswith("zone:") and key[5:].isdigit():
        zones = state.mission.deployment.zones
        index = int(key[5:])
        if index < len(zones):
            return ChooseZone(actor=actor, zone=zones[index].name)
    unit_actions: dict[str, type[MarkUnit] | type[RecordDestroyed] | type[CaptureRelic]] = {
        "mark": MarkUnit, "destroyed": RecordDestroyed, "capture_relic": CaptureRelic}
    if key in unit_actions:
        if unit is None or not unit.strip():
            raise RuleError("Name the unit, please.")
        if len(unit.strip()) > 80:
            raise RuleError("Unit names can be at most 80 characters long.")
        return unit_actions[key](actor=actor, unit=unit)
    raise RuleError("That button belongs to an earlier step of the game; use the latest message.")


Purpose = Literal["mark", "destroyed", "relic", "report"]


def unit_suggestions(state: FortyKState, actor: int, purpose: Purpose, typed: str = "",
                     limit: int = 25) -> list[str]:
    """Names for autocomplete: enemy units to mark or kill, own units to take the relic or report alive."""
    enemy = state.opponent(actor) if actor in state.players else state.players[0]
    if purpose == "mark":
        names = markable_units(state, actor)
    elif purpose == "destroyed":
        names = alive_units(state, enemy)
    elif purpose == "relic":
        names = alive_units(state, actor)
    else:
        names = marked_survivors(state, actor)
    needle = typed.strip().casefold()
    return [n for n in names if needle in n.casefold()][:limit]


class SideBoard(Model):
    player: int
    zone: str | None
    kill_points: int
    kills: list[Kill]
    marks_made: list[str]  # enemy units this player has marked
    marked_alive: list[str]  # this player's units the enemy marked that are still alive
    carries_enemy_relic: str | None  # the unit carrying the enemy relic
    quarters: int | None
    total: int | None


class Scoreboard(Model):
    mission: str
    deployment_map: str
    phase: Phase
    round: int
    max_rounds: int
    active: int | None
    first_player: int | None
    sides: list[SideBoard]
    results: list[ConditionResult]
    winner: int | None
    dice: list[str]  # the set-up and battle-length dice so far, in words


def _zone_of(state: FortyKState, player: int) -> str | None:
    if state.zone is None:
        return None
    return state.zone.zone if state.zone.chooser == player else state.zone.opponent_zone


def _dice_lines(state: FortyKState) -> list[str]:
    lines: list[str] = []
    rolls = (("Deployment roll-off", state.deployment_roll), ("First-turn roll-off", state.first_turn_roll))
    for label, roll in rolls:
        if roll is None:
            continue
        rounds = "; then ".join(f"{_who(state.players[0])} {t[0]}, {_who(state.players[1])} {t[1]}"
                                for t in roll.totals)
        lines.append(f"{label}: {rounds} — {_who(roll.winner)} wins.")
    if state.seize is not None:
        if state.seize.die is None:
            lines.append(f"{_who(state.seize.player)} did not try to seize the initiative.")
        else:
            lines.append(f"Seize: {_who(state.seize.player)} rolled {state.seize.die} — "
                         + ("seized!" if state.seize.seized else "no."))
    for record in state.continue_rolls:
        verdict = "the battle goes on." if record.continues else "the battle ends."
        lines.append(f"After round {record.after_round}: {_who(record.player)} rolled {record.die} "
                     f"(needs {record.needs}+) — {verdict}")
    return lines


def scoreboard(state: FortyKState) -> Scoreboard:
    reports = {r.player: r for r in state.reports}
    totals = {p: sum(r.points_for(p) for r in state.results) for p in state.players} if state.results else {}
    sides = []
    for player in state.players:
        carried = holder_of_relic(state, state.opponent(player))
        report = reports.get(player)
        sides.append(SideBoard(
            player=player, zone=_zone_of(state, player), kill_points=kill_points(state, player),
            kills=[k for k in state.kills if k.by == player],
            marks_made=[m.unit for m in state.marks if m.by == player],
            marked_alive=report.marked_alive if report else marked_survivors(state, player),
            carries_enemy_relic=carried.unit if carried else None,
            quarters=report.quarters if report else None,
            total=totals.get(player)))
    return Scoreboard(
        mission=state.mission.title, deployment_map=state.mission.deployment.map, phase=state.phase,
        round=state.round, max_rounds=state.mission.battle_length.max_rounds, active=state.active_player,
        first_player=state.first_player, sides=sides, results=state.results,
        winner=state.outcome.winner if state.outcome else None, dice=_dice_lines(state))
