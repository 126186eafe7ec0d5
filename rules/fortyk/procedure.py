"""The mission as a state machine: set-up roll-offs, seizing the initiative, player turns with marks,
kills and relics, the variable battle length, and scoring.

`step` never changes the state it is given; every refusal is a RuleError and leaves nothing changed.
"""

from __future__ import annotations

from typing import Any, Literal

from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk.mission import Mission, builtin_mission
from rules.fortyk.models import (
    ACTION_ADAPTER,
    BattleEnded,
    BattleLengthRolled,
    BattleStarted,
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    ContinueRollRecord,
    DeploymentFinished,
    DeploymentRolled,
    DropRelic,
    EndReport,
    EndReported,
    EndTurn,
    FinishDeployment,
    FirstTurnRolled,
    FortyKAction,
    FortyKState,
    GameOpened,
    GameScored,
    Kill,
    KillReason,
    Mark,
    MarkSurvived,
    MarkUnit,
    OrderChosen,
    Phase,
    RecordDestroyed,
    RelicCaptured,
    RelicDropped,
    RelicHolder,
    ReportEnd,
    RollForDeployment,
    RollForFirstTurn,
    RollOffRecord,
    SeizeInitiative,
    SeizeRecord,
    SeizeRolled,
    TurnEnded,
    TurnStarted,
    UnitDestroyed,
    UnitMarked,
    ZoneChoice,
    ZoneChosen,
)
from rules.fortyk.scoring import kill_points, outcome
from rules.fortyk.units import (
    find_unit,
    holder_of_relic,
    kill_of,
    mark_on,
    marked_survivors,
    relic_carried_by,
    same_name,
    with_unit,
)
from rules.rolloff import roll_off
from rules.session import Event, Procedure

DEFAULT_MISSION = "marked-for-death"

Result = tuple[FortyKState, list[Event]]


def _who(player: int) -> str:
    return f"<@{player}>"


def start(session_id: str, players: list[int], mission: Mission | str = DEFAULT_MISSION) -> Result:
    """A new mission between two players, waiting for the deployment roll-off."""
    if len(players) != 2 or players[0] == players[1]:
        raise RuleError("A mission needs two different players.")
    chosen = builtin_mission(mission) if isinstance(mission, str) else mission
    state = FortyKState(session_id=session_id, players=list(players), mission=chosen)
    return state, [GameOpened(mission=chosen.title, players=list(players))]


def _require_phase(state: FortyKState, *phases: Phase, doing: str) -> None:
    if state.phase not in phases:
        raise RuleError(f"You can't {doing} now: {_phase_hint(state)}")


def _phase_hint(state: FortyKState) -> str:
    hints = {
        Phase.DEPLOYMENT_ROLL: "the players first roll off for deployment.",
        Phase.CHOOSE_ZONE: "the deployment zone is being chosen.",
        Phase.DEPLOYING: "the armies are being deployed.",
        Phase.FIRST_TURN_ROLL: "the players roll off for the first turn.",
        Phase.CHOOSE_ORDER: "the roll-off winner is choosing to go first or second.",
        Phase.SEIZE: "the initiative may be seized.",
        Phase.BATTLE: f"the battle is in round {state.round}.",
        Phase.SCORING: "the battle is over and the end-of-game report is being entered.",
        Phase.FINISHED: "the game has finished.",
    }
    return hints[state.phase]


def _record(roll: Any, players: list[int], bonuses: tuple[int, int]) -> RollOffRecord:
    return RollOffRecord(rolls=[r.rolls for r in roll.rounds], totals=[r.totals for r in roll.rounds],
                         bonuses=bonuses, winner=players[roll.winner])


# ---------------------------------------------------------------- set-up


def _roll_deployment(state: FortyKState, roller: Roller) -> Result:
    _require_phase(state, Phase.DEPLOYMENT_ROLL, doing="roll off for deployment")
    record = _record(roll_off(roller, (0, 0), "deployment roll-off"), state.players, (0, 0))
    new = state.model_copy(update={"deployment_roll": record, "phase": Phase.CHOOSE_ZONE})
    return new, [DeploymentRolled(roll=record)]


def _choose_zone(state: FortyKState, action: ChooseZone) -> Result:
    _require_phase(state, Phase.CHOOSE_ZONE, doing="choose a deployment zone")
    assert state.deployment_roll is not None
    chooser = state.deployment_roll.winner
    if action.actor != chooser:
        raise RuleError(f"{_who(chooser)} won the deployment roll-off, so they choose the zone.")
    zone = state.mission.deployment.zone(action.zone)
    if zone is None:
        names = ", ".join(z.name for z in state.mission.deployment.zones)
        raise RuleError(f"“{action.zone}” is not a deployment zone of {state.mission.deployment.map}; "
                        f"choose one of: {names}.")
    choice = ZoneChoice(chooser=chooser, zone=zone.name, opponent_zone=zone.opposite)
    first = state.opponent(chooser)
    new = state.model_copy(update={"zone": choice, "deploys_first": first, "phase": Phase.DEPLOYING})
    return new, [ZoneChosen(choice=choice, deploys_first=first)]


def _finish_deployment(state: FortyKState, action: FinishDeployment) -> Result:
    _require_phase(state, Phase.DEPLOYING, doing="finish deploying")
    if action.actor in state.setup_done:
        raise RuleError("You have already said your army is deployed.")
    done = [*state.setup_done, action.actor]
    phase = Phase.FIRST_TURN_ROLL if len(done) == 2 else Phase.DEPLOYING
    new = state.model_copy(update={"setup_done": done, "phase": phase})
    return new, [DeploymentFinished(player=action.actor, first=len(done) == 1)]


def first_turn_bonuses(state: FortyKState) -> tuple[int, int]:
    """The bonus each player (in player order) adds to the first-turn roll-off."""
    bonus = state.mission.first_turn.setup_first_bonus
    if not state.setup_done:
        return (0, 0)
    first = state.setup_done[0]
    return (bonus if state.players[0] == first else 0, bonus if state.players[1] == first else 0)


def _roll_first_turn(state: FortyKState, roller: Roller) -> Result:
    _require_phase(state, Phase.FIRST_TURN_ROLL, doing="roll off for the first turn")
    bonuses = first_turn_bonuses(state)
    record = _record(roll_off(roller, bonuses, "first-turn roll-off"), state.players, bonuses)
    new = state.model_copy(update={"first_turn_roll": record, "phase": Phase.CHOOSE_ORDER})
    return new, [FirstTurnRolled(roll=record)]


def _begin_battle(state: FortyKState, first: int, events: list[Event]) -> Result:
    new = state.model_copy(update={"first_player": first, "phase": Phase.BATTLE, "round": 1, "turn": 0,
                                   "marking_open": True})
    return new, [*events, BattleStarted(first=first, second=state.opponent(first)),
                 TurnStarted(round=1, player=first)]


def _choose_order(state: FortyKState, action: ChooseOrder) -> Result:
    _require_phase(state, Phase.CHOOSE_ORDER, doing="choose who goes first")
    assert state.first_turn_roll is not None
    chooser = state.first_turn_roll.winner
    if action.actor != chooser:
        raise RuleError(f"{_who(chooser)} won the first-turn roll-off, so they choose to go first or second.")
    events: list[Event] = [OrderChosen(player=chooser, go_first=action.go_first)]
    if not action.go_first:
        return _begin_battle(state, state.opponent(chooser), events)
    if state.mission.first_turn.seize_on is None:
        return _begin_battle(state, chooser, events)
    return state.model_copy(update={"phase": Phase.SEIZE}), events


def _seize(state: FortyKState, action: SeizeInitiative, roller: Roller) -> Result:
    _require_phase(state, Phase.SEIZE, doing="seize the initiative")
    assert state.first_turn_roll is not None and state.mission.first_turn.seize_on is not None
    chooser = state.first_turn_roll.winner
    seizer = state.opponent(chooser)
    if action.actor != seizer:
        raise RuleError(f"You chose to go first; only {_who(seizer)} may try to seize the initiative.")
    needs = state.mission.first_turn.seize_on
    if action.attempt:
        die = roller.d6("seize the initiative")
        record = SeizeRecord(player=seizer, die=die, seized=die >= needs)
    else:
        record = SeizeRecord(player=seizer, die=None, seized=False)
    first = seizer if record.seized else chooser
    return _begin_battle(state.model_copy(update={"seize": record}), first,
                         [SeizeRolled(record=record, needs=needs)])


# ---------------------------------------------------------------- the battle


def _require_turn(state: FortyKState, actor: int, doing: str) -> None:
    active = state.active_player
    if actor != active:
        raise RuleError(f"It is {_who(active or 0)}'s turn; you can {doing} only in your own turn.")


def _enemy_unit(state: FortyKState, actor: int, name: str, doing: str) -> str | None:
    """The enemy unit a player names, refusing a name that is clearly one of their own units."""
    enemy = state.opponent(actor)
    known = find_unit(state, enemy, name)
    if known is None:
        own = find_unit(state, actor, name)
        if own is not None:
            raise RuleError(f"“{own}” is one of your own units; you can only {doing} an enemy unit. If "
                            f"{_who(enemy)} has a unit with the same name, add something to tell them apart, "
                            f"such as “{own} (enemy)”.")
    return known


def _mark(state: FortyKState, action: MarkUnit) -> Result:
    _require_phase(state, Phase.BATTLE, doing="mark a unit")
    marks = state.mission.marks
    if marks is None:
        raise RuleError(f"{state.mission.name} has no Marked for Death rule.")
    actor = action.actor
    _require_turn(state, actor, "mark a unit")
    this_turn = next((m for m in state.marks if m.by == actor and m.round == state.round
                      and m.turn == state.turn), None)
    if this_turn is not None:
        raise RuleError(f"You have already marked {this_turn.unit} this turn; one mark per turn.")
    if not state.marking_open:
        raise RuleError("Marks are declared at the start of your turn, before movement; this turn has "
                        "already moved on (a kill or a relic was recorded).")
    enemy = state.opponent(actor)
    known = _enemy_unit(state, actor, action.unit, "mark")
    if known is not None:
        kill = kill_of(state, enemy, known)
        if kill is not None:
            raise RuleError(f"{known} was destroyed in battle round {kill.round}; "
                            "mark a unit still on the table.")
        if relic_carried_by(state, enemy, known) is not None:
            raise RuleError(f"{known} carries your relic, so it cannot be marked for death.")
        earlier = mark_on(state, enemy, known)
        if earlier is not None:
            raise RuleError(f"{known} was marked in battle round {earlier.round} and survived that turn, "
                            "so it is worth no kill points now; mark another unit.")
    named, unit = with_unit(state, enemy, action.unit)
    mark = Mark(by=actor, owner=enemy, unit=unit, round=state.round, turn=state.turn)
    new = state.model_copy(update={"marks": [*state.marks, mark], "named_units": named,
                                   "marking_open": False})
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
    _require_phase(state, Phase.BATTLE, doing="record a destroyed unit")
    actor = action.actor
    enemy = state.opponent(actor)
    known = _enemy_unit(state, actor, action.unit, "record as destroyed")
    if known is not None:
        kill = kill_of(state, enemy, known)
        if kill is not None:
            raise RuleError(f"{known} was already recorded as destroyed (battle round {kill.round}).")
    named, unit = with_unit(state, enemy, action.unit)
    points, reason = kill_value(state, enemy, unit)
    kill = Kill(by=actor, owner=enemy, unit=unit, round=state.round, turn=state.turn, kill_points=points,
                reason=reason)
    holders = state.relic_holders
    events: list[Event] = []
    carried = relic_carried_by(state, enemy, unit)
    if carried is not None:
        holders = [h for h in holders if h != carried]
    marking_open = state.marking_open and actor != state.active_player
    new = state.model_copy(update={"kills": [*state.kills, kill], "named_units": named,
                                   "relic_holders": holders, "marking_open": marking_open})
    events.append(UnitDestroyed(kill=kill, total_kill_points=kill_points(new, actor)))
    if carried is not None:
        events.append(RelicDropped(holder=carried, because_destroyed=True))
    return new, events


def _require_relics(state: FortyKState) -> None:
    if state.mission.relics is None:
        raise RuleError(f"{state.mission.name} has no relics.")


def _capture(state: FortyKState, action: CaptureRelic) -> Result:
    _require_phase(state, Phase.BATTLE, doing="take the enemy relic")
    _require_relics(state)
    actor = action.actor
    _require_turn(state, actor, "take the enemy relic")
    enemy = state.opponent(actor)
    current = holder_of_relic(state, enemy)
    if current is not None:
        raise RuleError(f"Your unit {current.unit} already carries the enemy relic.")
    own = find_unit(state, actor, action.unit)
    if own is None and find_unit(state, enemy, action.unit) is not None:
        raise RuleError(f"“{action.unit}” is one of {_who(enemy)}'s units; you can only take the enemy relic "
                        "with one of your own units (you cannot capture your own relic).")
    if own is not None:
        kill = kill_of(state, actor, own)
        if kill is not None:
            raise RuleError(f"{own} was destroyed in battle round {kill.round}, so it cannot take the relic.")
    named, unit = with_unit(state, actor, action.unit)
    holder = RelicHolder(relic_owner=enemy, unit=unit)
    new = state.model_copy(update={"relic_holders": [*state.relic_holders, holder], "named_units": named,
                                   "marking_open": False})
    return new, [RelicCaptured(holder=holder)]


def _drop(state: FortyKState, action: DropRelic) -> Result:
    _require_phase(state, Phase.BATTLE, doing="drop the relic")
    _require_relics(state)
    holder = holder_of_relic(state, state.opponent(action.actor))
    if holder is None:
        raise RuleError("None of your units carries the enemy relic.")
    new = state.model_copy(update={"relic_holders": [h for h in state.relic_holders if h != holder]})
    return new, [RelicDropped(holder=holder, because_destroyed=False)]


def _end_battle(state: FortyKState, events: list[Event], reason: Literal["roll", "last_round"]) -> Result:
    new = state.model_copy(update={"phase": Phase.SCORING, "ended_after_round": state.round,
                                   "marking_open": False})
    return new, [*events, BattleEnded(after_round=state.round, reason=reason)]


def _end_turn(state: FortyKState, action: EndTurn, roller: Roller) -> Result:
    _require_phase(state, Phase.BATTLE, doing="end a turn")
    actor = action.actor
    _require_turn(state, actor, "end the turn")
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
        record = ContinueRollRecord(after_round=state.round, player=player, die=die, needs=rule.needs,
                                    continues=die >= rule.needs)
        state = state.model_copy(update={"continue_rolls": [*state.continue_rolls, record]})
        events.append(BattleLengthRolled(record=record))
        if not record.continues:
            return _end_battle(state, events, "roll")
    new = state.model_copy(update={"round": state.round + 1, "turn": 0, "marking_open": True})
    return new, [*events, TurnStarted(round=new.round, player=state.first_player)]


# ---------------------------------------------------------------- the end


def _report_end(state: FortyKState, action: ReportEnd) -> Result:
    _require_phase(state, Phase.SCORING, doing="report table quarters")
    actor = action.actor
    quarters = state.mission.table_quarters
    if action.quarters > quarters:
        raise RuleError(f"There are only {quarters} table quarters.")
    other = next((r for r in state.reports if r.player != actor), None)
    if other is not None and other.quarters + action.quarters > quarters:
        raise RuleError(f"{_who(other.player)} claims {other.quarters} table quarters, so you can claim "
                        f"at most {quarters - other.quarters} of {quarters}.")
    candidates = marked_survivors(state, actor)
    if action.marked_alive is None:
        alive = candidates
    else:
        alive = []
        for name in action.marked_alive:
            match = next((c for c in candidates if same_name(c, name)), None)
            if match is None:
                listed = ", ".join(candidates) if candidates else "none"
                raise RuleError(f"“{name}” is not one of your marked units still alive "
                                f"(marked and not recorded as destroyed: {listed}).")
            if match not in alive:
                alive.append(match)
    report = EndReport(player=actor, quarters=action.quarters, marked_alive=alive)
    reports = [*(r for r in state.reports if r.player != actor), report]
    new = state.model_copy(update={"reports": reports})
    events: list[Event] = [EndReported(report=report)]
    if len(reports) < 2:
        return new, events
    results, totals, winner, game_outcome = outcome(new)
    finished = new.model_copy(update={"results": results, "phase": Phase.FINISHED, "finished": True,
                                      "outcome": game_outcome})
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
    raise RuleError("That is not something you can do in this mission.")  # pragma: no cover


def parse_action(data: str | bytes | dict[str, Any]) -> FortyKAction:
    if isinstance(data, dict):
        return ACTION_ADAPTER.validate_python(data)
    return ACTION_ADAPTER.validate_json(data)


def awaiting(state: FortyKState) -> list[int]:
    """Nothing in this mission is sealed, so no private input is ever awaited."""
    return []


PROCEDURE: Procedure[FortyKState] = Procedure("fortyk", FortyKState, step, awaiting)
