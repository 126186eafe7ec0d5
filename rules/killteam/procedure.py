"""The Kill Team matched-play procedure: `start`, `step` and the order of the sequence.

Each step of the seed's sequence has an entry function (which does what needs no player, such as
dealing or rolling off, and then asks the first question) and handlers for its questions. A handler
marks its step complete; `advance` then enters the next step, so the order lives in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.confirmation import ConfirmPending, require_none_pending
from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam import battle, mission, setup, tacops
from rules.killteam.actions import (
    ACTION_ADAPTER,
    Choose,
    Done,
    EndGame,
    EndTurningPoint,
    RevealTacOp,
    Score,
    SetBattleReady,
)
from rules.killteam.events import GameStarted
from rules.killteam.hand import method_problem
from rules.killteam.models import (
    COMPLETE,
    ENTER,
    MISSION_METHODS,
    SEQUENCE,
    TACOPS_METHODS,
    KillTeamState,
    Macro,
    MissionMethod,
    PreviousGame,
    TacOpsMethod,
)
from rules.killteam.pack import KillTeamPack, load_default_pack
from rules.killteam.prompts import prompt
from rules.killteam.questions import ask, awaiting, checked, to_action, why_not_asked
from rules.session import Event, Procedure

Step = tuple[KillTeamState, list[Event]]
Enter = Callable[[KillTeamState, Roller], Step]
Handler = Callable[[KillTeamState, Any, Roller], Step]

ENTRIES: dict[Macro, Enter] = {
    "mission": mission.enter,
    "killzone": setup.enter_killzone,
    "attacker": setup.enter_attacker,
    "drop_zone": setup.enter_drop_zone,
    "kill_team": setup.enter_kill_team,
    "tac_ops": tacops.enter,
    "equipment": setup.enter_equipment,
    "barricades": setup.enter_barricades,
    "operatives": setup.enter_operatives,
    "scouting": setup.enter_scouting,
    "initiative": setup.enter_initiative,
    "battle": battle.enter,
}

HANDLERS: dict[str, Handler] = {
    "side": mission.choose_side,
    "veto_missions": mission.veto_missions,
    "veto_mission_pick": mission.veto_mission_pick,
    "veto_maps": mission.veto_maps,
    "veto_map_discard": mission.veto_map_discard,
    "veto_map_pick": mission.veto_map_pick,
    "control_mission": mission.control_mission,
    "control_map_type": mission.control_map_type,
    "control_map": mission.control_map,
    "bid": mission.bid,
    "bid_decide": mission.bid_decide,
    "drop_zone": setup.drop_zone,
    "faction": setup.faction,
    "tac_private": tacops.private_choice,
    "tac_row": tacops.take_from_row,
    "tac_bid": tacops.bid,
    "tac_bid_decide": tacops.bid_decide,
    "equipment": setup.done,
    "barricades": setup.done,
    "operatives": setup.done,
    "scouting": setup.scouting,
    "scouting_resolve": setup.done,
    "initiative_choice": setup.initiative_choice,
}


def advance(state: KillTeamState, roller: Roller) -> Step:
    """Enter steps until one asks a player something (or the game is over)."""
    events: list[Event] = []
    while not state.finished and state.stage in (ENTER, COMPLETE):
        if state.stage == COMPLETE:
            state = state.model_copy(
                update={"macro": SEQUENCE[SEQUENCE.index(state.macro) + 1], "stage": ENTER}
            )
            continue
        state, entered = ENTRIES[state.macro](state, roller)
        events += entered
    return state, events


def start(
    session_id: str,
    players: list[int],
    mission_method: str,
    tacops_method: str,
    roller: Roller,
    *,
    pack: KillTeamPack | None = None,
    mission: str | None = None,
    map: str | None = None,
    previous: PreviousGame | None = None,
) -> Step:
    """Open a game between `players` (organiser first) and run it to its first question."""
    if len(players) != 2 or players[0] == players[1]:
        raise RuleError(code="killteam.two_players")
    if mission_method not in MISSION_METHODS:
        raise RuleError(code="killteam.mission_method", methods=", ".join(MISSION_METHODS))
    if tacops_method not in TACOPS_METHODS:
        raise RuleError(code="killteam.tacops_method", methods=", ".join(TACOPS_METHODS))
    mission_method_: MissionMethod = mission_method
    tacops_method_: TacOpsMethod = tacops_method
    pack = pack or load_default_pack()
    problem = method_problem(pack, tacops_method_)
    if problem:
        raise problem
    mission_id: str | None = None
    map_id: str | None = None
    if mission_method_ == "organised":
        chosen_mission = pack.mission(mission) if mission else None
        chosen_map = pack.map(map) if map else None
        if chosen_mission is None or chosen_map is None:
            raise RuleError(
                code="killteam.organised_needs",
                missions=", ".join(m.name for m in pack.missions),
                example_map=pack.maps[0].id,
            )
        mission_id, map_id = chosen_mission.id, chosen_map.id
    if mission_method_ == "veto" and (len(pack.missions) < 2 or len(pack.maps) < 3):
        raise RuleError(code="killteam.veto_pack")
    state = KillTeamState(
        session_id=session_id,
        players=list(players),
        pack=pack,
        mission_method=mission_method_,
        tacops_method=tacops_method_,
        previous=previous,
        mission=mission_id,
        map=map_id,
    )
    started = GameStarted(mission_method=mission_method_, tacops_method=tacops_method_, pack=pack.name)
    state, events = advance(state, roller)
    return state, [started, *events]


def step(state: KillTeamState, action: Any, roller: Roller) -> Step:
    """Apply one player's action; a refusal raises RuleError and changes nothing."""
    if isinstance(action, dict):
        action = ACTION_ADAPTER.validate_python(action)
    state.require_open()
    state.require_player(action.actor)
    if isinstance(action, ConfirmPending):
        return battle.confirm_end(state, action)
    if isinstance(action, EndGame):
        return battle.ask_to_end(state, action)
    require_none_pending(state.confirmation)
    if isinstance(action, RevealTacOp):
        return tacops.reveal(state, action)
    if isinstance(action, Score):
        return battle.score(state, action)
    if isinstance(action, SetBattleReady):
        return battle.battle_ready(state, action)
    if isinstance(action, EndTurningPoint):
        return battle.end_turning_point(state, action)
    if isinstance(action, Choose | Done):
        checked(state, action)
    handler = HANDLERS.get(state.stage)
    if handler is None:
        raise RuleError(code="killteam.nothing_asked", now=prompt(state).title)
    state, events = handler(state, action, roller)
    state, more = advance(state, roller)
    return state, events + more


PROCEDURE: Procedure[KillTeamState] = Procedure(
    "killteam",
    KillTeamState,
    step,
    awaiting,
    ask=ask,
    to_action=to_action,
    why_idle=why_not_asked,
    fixed="pack",
)
