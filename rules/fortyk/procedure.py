"""The mission as a state machine: set-up roll-offs, seizing the initiative, player turns with marks,
kills and relics, the variable battle length, and scoring.

`step` never changes the state it is given; every refusal is a RuleError with a `fortyk.*` code and
leaves nothing changed. Players appear in refusals as ids (`player=`), never as words.
"""

from __future__ import annotations

from typing import Any, Literal

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk.actions import (
    ACTION_ADAPTER,
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    DropRelic,
    EndTurn,
    FinishDeployment,
    FortyKAction,
    MarkUnit,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.events import (
    BattleEnded,
    BattleLengthRolled,
    BattleStarted,
    DeploymentFinished,
    DeploymentRolled,
    EndReported,
    FirstTurnRolled,
    GameOpened,
    GameScored,
    MarkSurvived,
    OrderChosen,
    RelicCaptured,
    RelicDropped,
    SeizeRolled,
    TurnEnded,
    TurnStarted,
    UnitDestroyed,
    UnitMarked,
    ZoneChosen,
)
from rules.fortyk.mission import Mission, builtin_mission
from rules.fortyk.models import (
    ContinueRollRecord,
    EndReport,
    FortyKState,
    Kill,
    KillReason,
    Mark,
    Phase,
    RelicHolder,
    RollOffRecord,
    SeizeRecord,
    ZoneChoice,
)
from rules.fortyk.questions import ask, to_action
from rules.fortyk.scoring import kill_points, outcome
from rules.fortyk.units import (
    find_unit,
    holder_of_relic,
    kill_of,
    mark_on,
    marked_survivors,
    relic_carried_by,
    same_name,
    why_no_mark,
    with_unit,
)
from rules.rolloff import roll_off
from rules.session import Event, Procedure

DEFAULT_MISSION = "marked-for-death"

Result = tuple[FortyKState, list[Event]]


def start(session_id: str, players: list[int], mission: Mission | str = DEFAULT_MISSION) -> Result:
    """A new mission between two players, waiting for the deployment roll-off."""
    if len(players) != 2 or players[0] == players[1]:
        raise RuleError(code="fortyk.two_players")
    chosen = builtin_mission(mission) if isinstance(mission, str) else mission
    state = FortyKState(session_id=session_id, players=list(players), mission=chosen)
    return state, [GameOpened(mission=chosen.title, players=list(players))]


PHASE_ORDER = list(Phase)


def _require_phase(state: FortyKState, phase: Phase, doing: str) -> None:
    """Refuse an action outside its phase: `fortyk.not_yet.<doing>` before it, `fortyk.no_longer.<doing>`
    after it (`doing` is the action's kind), with the phase the game is in and its battle round."""
    if state.phase is not phase:
        when = "not_yet" if PHASE_ORDER.index(state.phase) < PHASE_ORDER.index(phase) else "no_longer"
        raise RuleError(code=f"fortyk.{when}.{doing}", phase=state.phase.value, round=state.round)


def _record(roll: Any, players: list[int], bonuses: tuple[int, int]) -> RollOffRecord:
    return RollOffRecord(
        rolls=[r.rolls for r in roll.rounds],
        totals=[r.totals for r in roll.rounds],
        bonuses=bonuses,
        winner=players[roll.winner],
    )


# ---------------------------------------------------------------- set-up


def _roll_deployment(state: FortyKState, roller: Roller) -> Result:
    _require_phase(state, Phase.DEPLOYMENT_ROLL, doing="roll_deployment")
    record = _record(roll_off(roller, (0, 0), "deployment roll-off"), state.players, (0, 0))
    new = state.model_copy(update={"deployment_roll": record, "phase": Phase.CHOOSE_ZONE})
    return new, [DeploymentRolled(roll=record)]


def _choose_zone(state: FortyKState, action: ChooseZone) -> Result:
    _require_phase(state, Phase.CHOOSE_ZONE, doing="choose_zone")
    assert state.deployment_roll is not None
    chooser = state.deployment_roll.winner
    if action.actor != chooser:
        raise RuleError(code="fortyk.zone_chooser", player=chooser)
    zone = state.mission.deployment.zone(action.zone)
    if zone is None:
        names = ", ".join(z.name for z in state.mission.deployment.zones)
        raise RuleError(
            code="fortyk.unknown_zone", zone=action.zone, map=state.mission.deployment.map, zones=names
        )
    choice = ZoneChoice(chooser=chooser, zone=zone.name, opponent_zone=zone.opposite)
    first = state.opponent(chooser)
    new = state.model_copy(update={"zone": choice, "deploys_first": first, "phase": Phase.DEPLOYING})
    return new, [ZoneChosen(choice=choice, deploys_first=first)]


def _finish_deployment(state: FortyKState, action: FinishDeployment) -> Result:
    _require_phase(state, Phase.DEPLOYING, doing="deployment_done")
    if action.actor in state.setup_done:
        raise RuleError(code="fortyk.already_deployed")
    done = [*state.setup_done, action.actor]
    phase = Phase.FIRST_TURN_ROLL if len(done) == 2 else Phase.DEPLOYING
    new = state.model_copy(update={"setup_done": done, "phase": phase})
    return new, [DeploymentFinished(player=action.actor, first=len(done) == 1)]


def _roll_first_turn(state: FortyKState, roller: Roller) -> Result:
    _require_phase(state, Phase.FIRST_TURN_ROLL, doing="roll_first_turn")
    bonuses = state.first_turn_bonuses()
    record = _record(roll_off(roller, bonuses, "first-turn roll-off"), state.players, bonuses)
    new = state.model_copy(update={"first_turn_roll": record, "phase": Phase.CHOOSE_ORDER})
    return new, [FirstTurnRolled(roll=record)]


def _begin_battle(state: FortyKState, first: int, events: list[Event]) -> Result:
    new = state.model_copy(
        update={"first_player": first, "phase": Phase.BATTLE, "round": 1, "turn": 0, "marking_open": True}
    )
    return new, [
        *events,
        BattleStarted(first=first, second=state.opponent(first)),
        TurnStarted(round=1, player=first),
    ]


def _choose_order(state: FortyKState, action: ChooseOrder) -> Result:
    _require_phase(state, Phase.CHOOSE_ORDER, doing="choose_order")
    assert state.first_turn_roll is not None
    chooser = state.first_turn_roll.winner
    if action.actor != chooser:
        raise RuleError(code="fortyk.order_chooser", player=chooser)
    events: list[Event] = [OrderChosen(player=chooser, go_first=action.go_first)]
    if not action.go_first:
        return _begin_battle(state, state.opponent(chooser), events)
    if state.mission.first_turn.seize_on is None:
        return _begin_battle(state, chooser, events)
    return state.model_copy(update={"phase": Phase.SEIZE}), events


def _seize(state: FortyKState, action: SeizeInitiative, roller: Roller) -> Result:
    _require_phase(state, Phase.SEIZE, doing="seize")
    assert state.first_turn_roll is not None and state.mission.first_turn.seize_on is not None
    chooser = state.first_turn_roll.winner
    seizer = state.opponent(chooser)
    if action.actor != seizer:
        raise RuleError(code="fortyk.seizer", player=seizer)
    needs = state.mission.first_turn.seize_on
    if action.attempt:
        die = roller.d6("seize the initiative")
        record = SeizeRecord(player=seizer, die=die, seized=die >= needs)
    else:
        record = SeizeRecord(player=seizer, die=None, seized=False)
    first = seizer if record.seized else chooser
    return _begin_battle(
        state.model_copy(update={"seize": record}), first, [SeizeRolled(record=record, needs=needs)]
    )


# ---------------------------------------------------------------- the battle


def _require_turn(state: FortyKState, actor: int, doing: str) -> None:
    active = state.active_player
    if actor != active:
        raise RuleError(code=f"fortyk.not_your_turn.{doing}", player=active)


def _enemy_unit(state: FortyKState, actor: int, name: str, doing: str) -> str | None:
    """The enemy unit a player names, refusing a name that is clearly one of their own units."""
    enemy = state.opponent(actor)
    known = find_unit(state, enemy, name)
    if known is None:
        own = find_unit(state, actor, name)
        if own is not None:
            raise RuleError(code=f"fortyk.own_unit.{doing}", unit=own, enemy=enemy)
    return known


def _mark(state: FortyKState, action: MarkUnit) -> Result:
    _require_phase(state, Phase.BATTLE, doing="mark")
    marks = state.mission.marks
    if marks is None:
        raise RuleError(code="fortyk.no_marks", mission=state.mission.name)
    actor = action.actor
    _require_turn(state, actor, "mark")
    closed = why_no_mark(state, actor)
    if closed is not None:
        raise closed
    enemy = state.opponent(actor)
    known = _enemy_unit(state, actor, action.unit, "mark")
    if known is not None:
        kill = kill_of(state, enemy, known)
        if kill is not None:
            raise RuleError(code="fortyk.mark_destroyed", unit=known, round=kill.round)
        if relic_carried_by(state, enemy, known) is not None:
            raise RuleError(code="fortyk.mark_relic_carrier", unit=known)
        earlier = mark_on(state, enemy, known)
        if earlier is not None:
            raise RuleError(code="fortyk.mark_survived", unit=known, round=earlier.round)
    named, unit = with_unit(state, enemy, action.unit)
    mark = Mark(by=actor, owner=enemy, unit=unit, round=state.round, turn=state.turn)
    new = state.model_copy(
        update={"marks": [*state.marks, mark], "named_units": named, "marking_open": False}
    )
    return new, [UnitMarked(mark=mark)]


def kill_value(state: FortyKState, owner: int, unit: str) -> tuple[int, KillReason]:
    """What destroying `owner`'s `unit` now is worth to the enemy, and why."""
    bonus = state.mission.marks.bonus_kill_points if state.mission.marks else 0
    mark = mark_on(state, owner, unit)
    if mark is None:
        return 1, KillReason.UNMARKED
    if state.phase is Phase.BATTLE and mark.round == state.round and mark.turn == state.turn:
        return 1 + bonus, KillReason.MARKED_THIS_TURN
    return 0, KillReason.MARKED_EARLIER


def _destroyed(state: FortyKState, action: RecordDestroyed) -> Result:
    _require_phase(state, Phase.BATTLE, doing="destroyed")
    actor = action.actor
    enemy = state.opponent(actor)
    known = _enemy_unit(state, actor, action.unit, "destroyed")
    if known is not None:
        kill = kill_of(state, enemy, known)
        if kill is not None:
            raise RuleError(code="fortyk.already_destroyed", unit=known, round=kill.round)
    named, unit = with_unit(state, enemy, action.unit)
    points, reason = kill_value(state, enemy, unit)
    kill = Kill(
        by=actor,
        owner=enemy,
        unit=unit,
        round=state.round,
        turn=state.turn,
        kill_points=points,
        reason=reason,
    )
    holders = state.relic_holders
    events: list[Event] = []
    carried = relic_carried_by(state, enemy, unit)
    if carried is not None:
        holders = [h for h in holders if h != carried]
    marking_open = state.marking_open and actor != state.active_player
    new = state.model_copy(
        update={
            "kills": [*state.kills, kill],
            "named_units": named,
            "relic_holders": holders,
            "marking_open": marking_open,
        }
    )
    events.append(UnitDestroyed(kill=kill, total_kill_points=kill_points(new, actor)))
    if carried is not None:
        events.append(RelicDropped(holder=carried, because_destroyed=True))
    return new, events


def _require_relics(state: FortyKState) -> None:
    if state.mission.relics is None:
        raise RuleError(code="fortyk.no_relics", mission=state.mission.name)


def _capture(state: FortyKState, action: CaptureRelic) -> Result:
    _require_phase(state, Phase.BATTLE, doing="capture_relic")
    _require_relics(state)
    actor = action.actor
    _require_turn(state, actor, "capture_relic")
    enemy = state.opponent(actor)
    current = holder_of_relic(state, enemy)
    if current is not None:
        raise RuleError(code="fortyk.relic_held", unit=current.unit)
    own = find_unit(state, actor, action.unit)
    if own is None:
        theirs = find_unit(state, enemy, action.unit)
        if theirs is not None:
            raise RuleError(code="fortyk.relic_enemy_unit", unit=theirs, enemy=enemy)
    if own is not None:
        kill = kill_of(state, actor, own)
        if kill is not None:
            raise RuleError(code="fortyk.relic_destroyed_unit", unit=own, round=kill.round)
    named, unit = with_unit(state, actor, action.unit)
    holder = RelicHolder(relic_owner=enemy, unit=unit)
    new = state.model_copy(
        update={"relic_holders": [*state.relic_holders, holder], "named_units": named, "marking_open": False}
    )
    return new, [RelicCaptured(holder=holder)]


def _drop(state: FortyKState, action: DropRelic) -> Result:
    _require_phase(state, Phase.BATTLE, doing="drop_relic")
    _require_relics(state)
    holder = holder_of_relic(state, state.opponent(action.actor))
    if holder is None:
        raise RuleError(code="fortyk.no_relic_carried")
    new = state.model_copy(update={"relic_holders": [h for h in state.relic_holders if h != holder]})
    return new, [RelicDropped(holder=holder, because_destroyed=False)]


def _end_battle(state: FortyKState, events: list[Event], reason: Literal["roll", "last_round"]) -> Result:
    new = state.model_copy(
        update={"phase": Phase.SCORING, "ended_after_round": state.round, "marking_open": False}
    )
    return new, [*events, BattleEnded(after_round=state.round, reason=reason)]


def _end_turn(state: FortyKState, action: EndTurn, roller: Roller) -> Result:
    _require_phase(state, Phase.BATTLE, doing="end_turn")
    actor = action.actor
    _require_turn(state, actor, "end_turn")
    assert state.first_player is not None
    events: list[Event] = []
    for mark in state.marks:
        this_turn = mark.round == state.round and mark.turn == state.turn
        if this_turn and kill_of(state, mark.owner, mark.unit) is None:
            events.append(MarkSurvived(mark=mark))
    events.append(TurnEnded(round=state.round, player=actor))
    if state.turn == 0:
        new = state.model_copy(update={"turn": 1, "marking_open": True})
        return new, [*events, TurnStarted(round=state.round, player=state.opponent(state.first_player))]
    length = state.mission.battle_length
    if state.round >= length.max_rounds:
        return _end_battle(state, events, "last_round")
    rule = length.roll_after(state.round)
    if rule is not None:
        player = state.first_player if rule.roller == "first" else state.opponent(state.first_player)
        die = roller.d6(f"battle length after round {state.round}")
        record = ContinueRollRecord(
            after_round=state.round, player=player, die=die, needs=rule.needs, continues=die >= rule.needs
        )
        state = state.model_copy(update={"continue_rolls": [*state.continue_rolls, record]})
        events.append(BattleLengthRolled(record=record))
        if not record.continues:
            return _end_battle(state, events, "roll")
    new = state.model_copy(update={"round": state.round + 1, "turn": 0, "marking_open": True})
    return new, [*events, TurnStarted(round=new.round, player=state.first_player)]


# ---------------------------------------------------------------- the end


def _report_end(state: FortyKState, action: ReportEnd) -> Result:
    _require_phase(state, Phase.SCORING, doing="report_end")
    actor = action.actor
    quarters = state.mission.table_quarters
    if action.quarters > quarters:
        raise RuleError(code="fortyk.quarters_over", quarters=quarters, claimed=action.quarters)
    other = next((r for r in state.reports if r.player != actor), None)
    if other is not None and other.quarters + action.quarters > quarters:
        raise RuleError(
            code="fortyk.quarters_taken",
            player=other.player,
            claimed=other.quarters,
            left=quarters - other.quarters,
            quarters=quarters,
        )
    candidates = marked_survivors(state, actor)
    if action.marked_alive is None:
        alive = candidates
    else:
        alive = []
        for name in action.marked_alive:
            match = next((c for c in candidates if same_name(c, name)), None)
            if match is None:
                if not candidates:
                    raise RuleError(code="fortyk.no_marked_alive", unit=name)
                raise RuleError(code="fortyk.not_marked_alive", unit=name, units=", ".join(candidates))
            if match not in alive:
                alive.append(match)
    report = EndReport(player=actor, quarters=action.quarters, marked_alive=alive)
    reports = [*(r for r in state.reports if r.player != actor), report]
    new = state.model_copy(update={"reports": reports})
    events: list[Event] = [EndReported(report=report)]
    if len(reports) < 2:
        return new, events
    results, totals, winner, game_outcome = outcome(new)
    finished = new.model_copy(
        update={"results": results, "phase": Phase.FINISHED, "finished": True, "outcome": game_outcome}
    )
    return finished, [*events, GameScored(results=results, totals=totals, winner=winner)]


# ---------------------------------------------------------------- the procedure


def step(state: FortyKState, action: FortyKAction, roller: Roller) -> Result:
    """Apply one player's action; raise RuleError (and change nothing) when the rules forbid it."""
    state.require_open()
    state.require_player(action.actor)
    match action:
        case RollForDeployment():
            return _roll_deployment(state, roller)
        case ChooseZone():
            return _choose_zone(state, action)
        case FinishDeployment():
            return _finish_deployment(state, action)
        case RollForFirstTurn():
            return _roll_first_turn(state, roller)
        case ChooseOrder():
            return _choose_order(state, action)
        case SeizeInitiative():
            return _seize(state, action, roller)
        case MarkUnit():
            return _mark(state, action)
        case RecordDestroyed():
            return _destroyed(state, action)
        case CaptureRelic():
            return _capture(state, action)
        case DropRelic():
            return _drop(state, action)
        case EndTurn():
            return _end_turn(state, action, roller)
        case ReportEnd():
            return _report_end(state, action)
    raise RuleError(code="fortyk.unknown_action")  # pragma: no cover


def parse_action(data: str | bytes | dict[str, Any]) -> FortyKAction:
    if isinstance(data, dict):
        return ACTION_ADAPTER.validate_python(data)
    return ACTION_ADAPTER.validate_json(data)


def awaiting(state: FortyKState) -> list[int]:
    """Nothing in this mission is sealed, so no private input is ever awaited."""
    return []


PROCEDURE: Procedure[FortyKState] = Procedure(
    "fortyk", FortyKState, step, awaiting, ask=ask, to_action=to_action
)
