"""Read-only views for the bot: who acts now and the buttons to draw, the scoreboard, and the unit names
to autocomplete. Nothing here changes a state, and nothing here is worded for a channel: players are
ids and the dice are records, which the bot turns into words."""

from __future__ import annotations

from typing import Literal

from rules.errors import RuleError
from rules.fortyk.models import (
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    ConditionResult,
    ContinueRollRecord,
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
    RollOffRecord,
    SeizeInitiative,
    SeizeRecord,
)
from rules.fortyk.questions import UNIT_NAME_LIMIT, turn_step
from rules.fortyk.scoring import kill_points
from rules.fortyk.units import alive_units, holder_of_relic, known_units, markable_units, marked_survivors
from rules.session import Model

__all__ = [
    "Button",
    "Prompt",
    "Purpose",
    "Scoreboard",
    "SideBoard",
    "action_for_button",
    "known_units",
    "markable_units",
    "prompt",
    "scoreboard",
    "unit_suggestions",
]


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
    buttons: list[Button]


def prompt(state: FortyKState) -> Prompt:
    """Who the game waits for now, and with which buttons."""
    both = list(state.players)
    mission = state.mission
    match state.phase:
        case Phase.DEPLOYMENT_ROLL:
            return Prompt(
                phase=state.phase,
                acting=both,
                buttons=[
                    Button(
                        key="roll_deployment", label="Roll off for deployment", players=both, style="primary"
                    )
                ],
            )
        case Phase.CHOOSE_ZONE:
            assert state.deployment_roll is not None
            chooser = state.deployment_roll.winner
            return Prompt(
                phase=state.phase,
                acting=[chooser],
                buttons=[
                    Button(key=f"zone:{i}", label=z.name, players=[chooser])
                    for i, z in enumerate(mission.deployment.zones)
                ],
            )
        case Phase.DEPLOYING:
            waiting = [p for p in both if p not in state.setup_done]
            return Prompt(
                phase=state.phase,
                acting=waiting,
                buttons=[
                    Button(
                        key="deployment_done", label="My army is deployed", players=waiting, style="success"
                    )
                ],
            )
        case Phase.FIRST_TURN_ROLL:
            return Prompt(
                phase=state.phase,
                acting=both,
                buttons=[
                    Button(
                        key="roll_first_turn",
                        label="Roll off for the first turn",
                        players=both,
                        style="primary",
                    )
                ],
            )
        case Phase.CHOOSE_ORDER:
            assert state.first_turn_roll is not None
            chooser = state.first_turn_roll.winner
            return Prompt(
                phase=state.phase,
                acting=[chooser],
                buttons=[
                    Button(key="order:first", label="Go first", players=[chooser], style="primary"),
                    Button(key="order:second", label="Go second", players=[chooser]),
                ],
            )
        case Phase.SEIZE:
            assert state.first_turn_roll is not None
            seizer = state.opponent(state.first_turn_roll.winner)
            return Prompt(
                phase=state.phase,
                acting=[seizer],
                buttons=[
                    Button(key="seize:yes", label="Try to seize", players=[seizer], style="primary"),
                    Button(key="seize:no", label="Let them go first", players=[seizer]),
                ],
            )
        case Phase.BATTLE:
            return _battle_prompt(state)
        case Phase.SCORING:
            waiting = [p for p in both if p not in {r.player for r in state.reports}]
            return Prompt(
                phase=state.phase,
                acting=waiting,
                buttons=[
                    Button(
                        key="report_end",
                        label="Report quarters",
                        players=waiting,
                        style="primary",
                        needs="report",
                    )
                ],
            )
        case Phase.FINISHED:
            return Prompt(phase=state.phase, acting=[], buttons=[])
    raise AssertionError(state.phase)  # pragma: no cover


def _battle_prompt(state: FortyKState) -> Prompt:
    active = state.active_player
    assert active is not None
    both = list(state.players)
    mission = state.mission
    buttons: list[Button] = []
    if mission.marks is not None and state.marking_open:
        buttons.append(
            Button(key="mark", label="Mark a unit", players=[active], style="danger", needs="unit")
        )
    buttons.append(Button(key="destroyed", label="Record a kill", players=both, needs="unit"))
    if mission.relics is not None:
        if holder_of_relic(state, state.opponent(active)) is None:
            buttons.append(
                Button(key="capture_relic", label="Take the enemy relic", players=[active], needs="unit")
            )
        carrying = [p for p in both if holder_of_relic(state, state.opponent(p)) is not None]
        if carrying:
            buttons.append(Button(key="drop_relic", label="Drop the relic", players=carrying))
    # The turn's step id rides on the button, so an "End turn" pressed on an earlier turn's message is
    # refused rather than ending the turn in play now.
    buttons.append(
        Button(key=f"end_turn:{turn_step(state)}", label="End turn", players=[active], style="success")
    )
    return Prompt(phase=state.phase, acting=[active], buttons=buttons)


def action_for_button(state: FortyKState, key: str, actor: int, unit: str | None = None) -> FortyKAction:
    """The action a pressed button (or a command standing for one) stands for; units come from the
    cog's follow-up input. `end_turn:<step>` ends the turn only while that turn is in play."""
    if key.startswith("end_turn:"):
        if state.phase is Phase.BATTLE and key.removeprefix("end_turn:") != turn_step(state):
            raise RuleError(code="fortyk.stale_button")
        key = "end_turn"
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
        "mark": MarkUnit,
        "destroyed": RecordDestroyed,
        "capture_relic": CaptureRelic,
    }
    if key in unit_actions:
        if unit is None or not unit.strip():
            raise RuleError(code="fortyk.unit_missing")
        if len(unit.strip()) > UNIT_NAME_LIMIT:
            raise RuleError(code="fortyk.unit_long", limit=UNIT_NAME_LIMIT)
        return unit_actions[key](actor=actor, unit=unit)
    raise RuleError(code="fortyk.stale_button")


Purpose = Literal["mark", "destroyed", "relic", "report"]


def unit_suggestions(
    state: FortyKState, actor: int, purpose: Purpose, typed: str = "", limit: int = 25
) -> list[str]:
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
    # the set-up and battle-length dice so far
    deployment_roll: RollOffRecord | None
    first_turn_roll: RollOffRecord | None
    seize: SeizeRecord | None
    continue_rolls: list[ContinueRollRecord]


def _zone_of(state: FortyKState, player: int) -> str | None:
    if state.zone is None:
        return None
    return state.zone.zone if state.zone.chooser == player else state.zone.opponent_zone


def scoreboard(state: FortyKState) -> Scoreboard:
    reports = {r.player: r for r in state.reports}
    totals = {p: sum(r.points_for(p) for r in state.results) for p in state.players} if state.results else {}
    sides = []
    for player in state.players:
        carried = holder_of_relic(state, state.opponent(player))
        report = reports.get(player)
        sides.append(
            SideBoard(
                player=player,
                zone=_zone_of(state, player),
                kill_points=kill_points(state, player),
                kills=[k for k in state.kills if k.by == player],
                marks_made=[m.unit for m in state.marks if m.by == player],
                marked_alive=report.marked_alive if report else marked_survivors(state, player),
                carries_enemy_relic=carried.unit if carried else None,
                quarters=report.quarters if report else None,
                total=totals.get(player),
            )
        )
    return Scoreboard(
        mission=state.mission.title,
        deployment_map=state.mission.deployment.map,
        phase=state.phase,
        round=state.round,
        max_rounds=state.mission.battle_length.max_rounds,
        active=state.active_player,
        first_player=state.first_player,
        sides=sides,
        results=state.results,
        winner=state.outcome.winner if state.outcome else None,
        deployment_roll=state.deployment_roll,
        first_turn_roll=state.first_turn_roll,
        seize=state.seize,
        continue_rolls=state.continue_rolls,
    )
