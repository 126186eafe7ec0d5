"""Steps 2-4 and 6-10: killzone, sides, drop zone, kill team and CP, the table-top set-up prompts,
secret scouting and the first initiative."""

from __future__ import annotations

from typing import Any

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam.actions import Choose, Done, SealScouting
from rules.killteam.common import ask, complete, expect, fresh_nonce, roll_off_players
from rules.killteam.events import (
    CommandPointsAdded,
    DropZoneChosen,
    FactionChosen,
    InitiativeDecided,
    KillzoneReady,
    Notice,
    PlayerDone,
    ScoutingRevealed,
    SecretAsked,
)
from rules.killteam.labels import SCOUTING_PICK, map_label, mission_name
from rules.killteam.models import COMMAND_POINTS, KillTeamState
from rules.killteam.options import NO_FACTION, faction_values
from rules.killteam.prompts import prompt
from rules.sealed import SealedRound, seal
from rules.session import Event

Step = tuple[KillTeamState, list[Event]]
SCOUTING_STEP = "scouting"
DONE_WHAT = {
    "equipment": "equipment",
    "barricades": "their barricades",
    "operatives": "their operatives",
    "scouting_resolve": "their scouting",
}


def _sides(state: KillTeamState) -> tuple[int, int]:
    assert state.attacker is not None
    return state.attacker, state.opponent(state.attacker)


def enter_killzone(state: KillTeamState, roller: Roller) -> Step:
    card = state.pack.map(state.map or "")
    assert card is not None and card.group is not None
    event = KillzoneReady(
        mission=mission_name(state) or "", map=map_label(state) or card.id, group=card.group
    )
    return complete(state), [event]


def enter_attacker(state: KillTeamState, roller: Roller) -> Step:
    if state.attacker is not None:
        return complete(state), []
    winner, rolled = roll_off_players(list(state.players), roller, "attacker and defender")
    return ask(state, "side", decider=winner), [rolled]


def enter_drop_zone(state: KillTeamState, roller: Roller) -> Step:
    _, defender = _sides(state)
    return ask(state, "drop_zone", decider=defender), []


def drop_zone(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = expect(state, action, Choose)
    zone = choice.values[0]
    return complete(state, drop_zone=zone), [DropZoneChosen(defender=choice.actor, zone=zone)]


def enter_kill_team(state: KillTeamState, roller: Roller) -> Step:
    return ask(state, "faction", queue=list(state.players)), []


def faction(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = expect(state, action, Choose)
    chosen = None if choice.values[0] == NO_FACTION else faction_values(state)[choice.values[0]]
    factions = {**state.factions, choice.actor: chosen}
    queue = [p for p in state.queue if p != choice.actor]
    events: list[Event] = [FactionChosen(player=choice.actor, faction=chosen)]
    if queue:
        return state.model_copy(update={"factions": factions, "queue": queue}), events
    cp = {p: state.cp.get(p, 0) + COMMAND_POINTS for p in state.players}
    events.append(CommandPointsAdded(amount=COMMAND_POINTS, totals=cp))
    return complete(state, factions=factions, cp=cp), events


def enter_equipment(state: KillTeamState, roller: Roller) -> Step:
    return ask(state, "equipment", queue=list(state.players)), []


def enter_barricades(state: KillTeamState, roller: Roller) -> Step:
    """The players take turns at the table, barricade by barricade; the game asks each of them once,
    together, and goes on when both have set up all of theirs."""
    attacker, defender = _sides(state)
    return ask(state, "barricades", queue=[defender, attacker]), []


def enter_operatives(state: KillTeamState, roller: Roller) -> Step:
    """As barricades: groups of operatives in turns at the table, one Done per player."""
    attacker, defender = _sides(state)
    return ask(state, "operatives", queue=[defender, attacker]), []


def done(state: KillTeamState, action: Any, roller: Roller) -> Step:
    pressed = expect(state, action, Done)
    event = PlayerDone(player=pressed.actor, what=DONE_WHAT.get(state.stage, state.stage))
    if state.ordered:
        queue = state.queue[1:]
        if queue:
            return ask(state, state.stage, queue=queue, ordered=True), [event]
    else:
        queue = [p for p in state.queue if p != pressed.actor]
        if queue:
            return state.model_copy(update={"queue": queue}), [event]
    return complete(state), [event]


def enter_scouting(state: KillTeamState, roller: Roller) -> Step:
    sealed = SealedRound(step=SCOUTING_STEP, label=str(SCOUTING_PICK), players=list(state.players))
    asked: list[Event] = [SecretAsked(step=SCOUTING_STEP, private_to=p) for p in state.players]
    return ask(state, "scouting", scouting=sealed), asked


def scouting(state: KillTeamState, action: Any, roller: Roller) -> Step:
    pick = expect(state, action, SealScouting)
    assert state.scouting is not None
    if pick.step != state.scouting.step:
        raise RuleError(code="answer.stale", now=prompt(state).title)
    if pick.actor in state.scouting.entries:
        raise RuleError(code="killteam.already_sealed")
    option = state.pack.scouting_option(pick.option)
    if option is None:
        raise RuleError(
            code="killteam.scouting_option", options=", ".join(s.name for s in state.pack.scouting)
        )
    nonce = pick.nonce or fresh_nonce(roller)
    sealed, events = seal(state.scouting, state.session_id, pick.actor, option.id, nonce)
    if not sealed.revealed:
        return state.model_copy(update={"scouting": sealed}), events
    picks = sealed.choices()
    attacker, defender = _sides(state)
    events.append(ScoutingRevealed(picks=picks, order=[attacker, defender]))
    return ask(
        state,
        "scouting_resolve",
        queue=[attacker, defender],
        ordered=True,
        scouting=sealed,
        scouting_picks=picks,
    ), events


def enter_initiative(state: KillTeamState, roller: Roller) -> Step:
    if state.first_initiative is not None:
        return complete(state), [InitiativeDecided(player=state.first_initiative, how="bid")]
    attacker, defender = _sides(state)
    result = state.pack.initiative.result(state.scouting_picks[attacker], state.scouting_picks[defender])
    if result != "roll-off":
        first = attacker if result == "attacker" else defender
        return complete(state, first_initiative=first), [InitiativeDecided(player=first, how="scouting")]
    winner, rolled = roll_off_players(list(state.players), roller, "the first initiative")
    notice = Notice(text="The scouting picks don't settle the first initiative, so the players roll off.")
    return ask(state, "initiative_choice", decider=winner), [notice, rolled]


def initiative_choice(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = expect(state, action, Choose)
    first = choice.actor if choice.values[0] == "take" else state.opponent(choice.actor)
    return complete(state, first_initiative=first), [InitiativeDecided(player=first, how="roll-off")]
