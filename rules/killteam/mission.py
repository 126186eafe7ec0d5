"""Step 1, mission and map: Organised, Random, Veto, Control and Bid; plus choosing sides."""

from __future__ import annotations

from typing import Any

from rules.dice import Roller
from rules.killteam.actions import Choose, SealBid
from rules.killteam.bidding import new_contest, open_round, place_bid, settled
from rules.killteam.common import ask, complete, expect, roll_off_players
from rules.killteam.events import (
    InitiativeDecided,
    MapChosen,
    MapDiscarded,
    MapGroupChosen,
    MapsPutForward,
    MissionChosen,
    MissionsPutForward,
    Notice,
    SideChosen,
)
from rules.killteam.labels import INITIATIVE_BID, MAP_BID, MISSION_BID, SIDES_BID
from rules.killteam.models import BidContest, ControlState, KillTeamState, VetoState
from rules.killteam.pack import MapGroup
from rules.session import Event

BID_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("mission", str(MISSION_BID)),
    ("map", str(MAP_BID)),
    ("sides", str(SIDES_BID)),
    ("initiative", str(INITIATIVE_BID)),
)

Step = tuple[KillTeamState, list[Event]]


def _mission_event(state: KillTeamState, mission_id: str, by: int | None, how: str) -> MissionChosen:
    mission = state.pack.mission(mission_id)
    assert mission is not None
    return MissionChosen(mission=mission.id, name=mission.name, by=by, how=how)


def _map_event(state: KillTeamState, map_id: str, by: int | None, how: str) -> MapChosen:
    card = state.pack.map(map_id)
    assert card is not None and card.group is not None
    return MapChosen(map=card.id, label=card.label, group=card.group, by=by, how=how)


def control_problem(state: KillTeamState) -> str | None:
    previous = state.previous
    if previous is None:
        return "There is no earlier Kill Team game between you two on record, so Control can't be used."
    if previous.winner is None:
        return "Your last Kill Team game was a draw, so nobody takes Control."
    if previous.winner not in state.players:
        return "The last game on record has no winner among you two, so Control can't be used."
    return None


def enter(state: KillTeamState, roller: Roller) -> Step:
    events: list[Event] = []
    method = state.mission_method
    if method == "control":
        problem = control_problem(state)
        if problem:
            events.append(Notice(text=f"{problem} Dealing a random mission and map instead."))
            state = state.model_copy(update={"mission_method": "random"})
            method = "random"
    if method == "organised":
        assert state.mission is not None and state.map is not None
        events += [
            _mission_event(state, state.mission, None, "organised"),
            _map_event(state, state.map, None, "organised"),
        ]
        return complete(state), events
    if method == "random":
        mission = roller.pick(state.pack.missions, "Kill Team: deal a mission card")
        card = roller.pick(state.pack.maps, "Kill Team: deal a map card")
        state = complete(state, mission=mission.id, map=card.id)
        return state, [
            *events,
            _mission_event(state, mission.id, None, "random"),
            _map_event(state, card.id, None, "random"),
        ]
    if method == "control":
        assert state.previous is not None and state.previous.winner is not None
        winner = state.previous.winner
        control = ControlState(winner=winner, loser=state.opponent(winner))
        return ask(state, "control_mission", decider=winner, control=control), events
    if method == "veto":
        winner, rolled = roll_off_players(list(state.players), roller, "Veto: attacker and defender")
        return ask(state, "side", decider=winner, veto=VetoState()), [*events, rolled]
    contest = new_contest("bid", list(state.players))
    category, label = BID_CATEGORIES[0]
    contest, opened = open_round(contest, category, label, roller)
    return _bid_stage(state, contest), [*events, *opened]


def _bid_stage(state: KillTeamState, contest: BidContest) -> KillTeamState:
    if contest.winner is not None:
        return ask(state, "bid_decide", decider=contest.winner, bids=contest)
    return ask(state, "bid", bids=contest)


def _choice(state: KillTeamState, action: Any) -> Choose:
    return expect(state, action, Choose)


def choose_side(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    attacker = choice.actor if choice.values[0] == "attack" else state.opponent(choice.actor)
    event = SideChosen(attacker=attacker, defender=state.opponent(attacker), by=choice.actor)
    if state.macro == "mission":  # Veto: sides come first, then the attacker puts missions forward
        return ask(state, "veto_missions", decider=attacker, attacker=attacker), [event]
    return complete(state, attacker=attacker), [event]


def _veto(state: KillTeamState) -> VetoState:
    assert state.veto is not None
    return state.veto


def veto_missions(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    veto = _veto(state).model_copy(update={"missions": list(choice.values)})
    names = [m.name for m in state.pack.missions if m.id in choice.values]
    defender = state.opponent(choice.actor)
    return (
        ask(state, "veto_mission_pick", decider=defender, veto=veto),
        [MissionsPutForward(by=choice.actor, missions=names)],
    )


def veto_mission_pick(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    mission = choice.values[0]
    return (
        ask(state, "veto_maps", decider=choice.actor, mission=mission),
        [_mission_event(state, mission, choice.actor, "veto")],
    )


def veto_maps(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    veto = _veto(state).model_copy(update={"maps": list(choice.values)})
    labels = [card.label for card in state.pack.maps if card.id in choice.values]
    return (
        ask(state, "veto_map_discard", decider=state.opponent(choice.actor), veto=veto),
        [MapsPutForward(by=choice.actor, maps=labels)],
    )


def veto_map_discard(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    veto = _veto(state).model_copy(update={"discarded": choice.values[0]})
    card = state.pack.map(choice.values[0])
    assert card is not None
    return (
        ask(state, "veto_map_pick", decider=state.opponent(choice.actor), veto=veto),
        [MapDiscarded(by=choice.actor, map=card.label)],
    )


def veto_map_pick(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    return complete(state, map=choice.values[0]), [_map_event(state, choice.values[0], choice.actor, "veto")]


def control_mission(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    mission = choice.values[0]
    return (
        ask(state, "control_map_type", decider=choice.actor, mission=mission),
        [_mission_event(state, mission, choice.actor, "control")],
    )


def control_map_type(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    assert state.control is not None
    group: MapGroup = choice.values[0]  # type: ignore[assignment]  # checked against the offered groups
    control = state.control.model_copy(update={"group": group})
    return (
        ask(state, "control_map", decider=control.loser, control=control),
        [MapGroupChosen(by=choice.actor, group=group)],
    )


def control_map(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    return complete(state, map=choice.values[0]), [
        _map_event(state, choice.values[0], choice.actor, "control")
    ]


def bid(state: KillTeamState, action: Any, roller: Roller) -> Step:
    sealed = expect(state, action, SealBid)
    assert state.bids is not None
    contest, events = place_bid(
        state.bids, state.session_id, sealed.actor, sealed.step, sealed.amount, sealed.nonce, roller
    )
    if contest.winner is None:
        return state.model_copy(update={"bids": contest}), events
    return _bid_stage(state, contest), events


def bid_decide(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = _choice(state, action)
    assert state.bids is not None
    contest = settled(state.bids)
    category, value, actor = contest.category, choice.values[0], choice.actor
    events: list[Event] = []
    update: dict[str, Any] = {}
    if category == "mission":
        update["mission"] = value
        events.append(_mission_event(state, value, actor, "bid"))
    elif category == "map":
        update["map"] = value
        events.append(_map_event(state, value, actor, "bid"))
    elif category == "sides":
        attacker = actor if value == "attack" else state.opponent(actor)
        update["attacker"] = attacker
        events.append(SideChosen(attacker=attacker, defender=state.opponent(attacker), by=actor))
    else:
        first = actor if value == "take" else state.opponent(actor)
        update.update(first_initiative=first, initiative_decider=actor)
        events.append(InitiativeDecided(player=first, how="bid"))
    state = state.model_copy(update=update)
    index = [c for c, _ in BID_CATEGORIES].index(category)
    if index + 1 == len(BID_CATEGORIES):
        return complete(state, bids=contest), events
    next_category, label = BID_CATEGORIES[index + 1]
    contest, opened = open_round(contest, next_category, label, roller)
    return _bid_stage(state, contest), events + opened
