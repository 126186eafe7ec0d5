"""The buttons a 40K mission offers now and who may press them (`prompt`), and the action a pressed
button, or a slash command standing for one, is (`action_for_button`). The buttons are keys for the
bot, not words: the table draws the rules' questions (questions.py) in the reader's language."""

from __future__ import annotations

from typing import Literal

from rules.errors import RuleError
from rules.fortyk.actions import (
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    DropRelic,
    EndTurn,
    FinishDeployment,
    FortyKAction,
    MarkUnit,
    RecordDestroyed,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.models import FortyKState, Phase
from rules.fortyk.questions import UNIT_NAME_LIMIT, turn_step
from rules.fortyk.units import holder_of_relic
from rules.session import Model


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
    match state.phase:
        case Phase.BATTLE:
            return _battle_prompt(state)
        case Phase.SCORING:
            waiting = [p for p in both if p not in {r.player for r in state.reports}]
            report = Button(
                key="report_end", label="Report quarters", players=waiting, style="primary", needs="report"
            )
            return _waiting_for(state, waiting, report)
        case Phase.FINISHED:
            return _waiting_for(state, [])
    return _setup_prompt(state)


def _waiting_for(state: FortyKState, acting: list[int], *buttons: Button) -> Prompt:
    return Prompt(phase=state.phase, acting=acting, buttons=list(buttons))


def _setup_prompt(state: FortyKState) -> Prompt:
    """The set-up's buttons: the roll-offs, the zones, deploying, the order and the seize."""
    both = list(state.players)
    match state.phase:
        case Phase.DEPLOYMENT_ROLL:
            roll = Button(
                key="roll_deployment", label="Roll off for deployment", players=both, style="primary"
            )
            return _waiting_for(state, both, roll)
        case Phase.CHOOSE_ZONE:
            assert state.deployment_roll is not None
            chooser = state.deployment_roll.winner
            zones = state.mission.deployment.zones
            return _waiting_for(
                state,
                [chooser],
                *(Button(key=f"zone:{i}", label=z.name, players=[chooser]) for i, z in enumerate(zones)),
            )
        case Phase.DEPLOYING:
            waiting = [p for p in both if p not in state.setup_done]
            done = Button(
                key="deployment_done", label="My army is deployed", players=waiting, style="success"
            )
            return _waiting_for(state, waiting, done)
        case Phase.FIRST_TURN_ROLL:
            roll = Button(
                key="roll_first_turn", label="Roll off for the first turn", players=both, style="primary"
            )
            return _waiting_for(state, both, roll)
        case Phase.CHOOSE_ORDER:
            assert state.first_turn_roll is not None
            chooser = state.first_turn_roll.winner
            return _waiting_for(
                state,
                [chooser],
                Button(key="order:first", label="Go first", players=[chooser], style="primary"),
                Button(key="order:second", label="Go second", players=[chooser]),
            )
        case Phase.SEIZE:
            assert state.first_turn_roll is not None
            seizer = state.opponent(state.first_turn_roll.winner)
            return _waiting_for(
                state,
                [seizer],
                Button(key="seize:yes", label="Try to seize", players=[seizer], style="primary"),
                Button(key="seize:no", label="Let them go first", players=[seizer]),
            )
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
