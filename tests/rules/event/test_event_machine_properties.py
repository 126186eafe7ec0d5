"""For any sequence of actions (most of them refused), the event stays sound: a refusal changes
nothing, every published round places each player still in exactly once and nobody dropped, and
the state survives a restart (JSON) unchanged."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.event.actions import (
    Cancel,
    CloseLists,
    Drop,
    Finish,
    GiveBye,
    Join,
    Leave,
    PublishRound,
    RejectList,
    ReportResult,
    StartTopCut,
    SubmitList,
)
from rules.event.events import RoundPublished
from rules.event.machine import apply, start
from rules.event.state import EventAction, EventSettings, EventState, Phase

ORG = 1
PEOPLE = [ORG, *range(100, 111)]
players = st.sampled_from(PEOPLE[1:])
actors = st.sampled_from(PEOPLE)
vp = st.integers(0, 20)

actions = st.one_of(
    st.builds(Join, actor=actors, player=players),
    st.builds(Leave, actor=actors, player=players),
    st.builds(
        SubmitList,
        actor=actors,
        player=players,
        faction=st.sampled_from(["Orks", "", "Kommandos"]),
        text=st.sampled_from(["a list", "x" * 10_001, "another list"]),
        nonce=st.just("n"),
        now=st.sampled_from([500, 1_500]),
    ),
    st.builds(RejectList, actor=actors, player=players, reason=st.sampled_from(["too many points", ""])),
    st.builds(CloseLists, actor=actors, now=st.just(1_000)),
    st.builds(PublishRound, actor=actors, seed=st.integers(0, 50)),
    st.builds(
        ReportResult,
        actor=actors,
        round=st.integers(1, 6),
        first=players,
        second=players,
        first_vp=vp,
        second_vp=vp,
    ),
    st.builds(Drop, actor=actors, player=players),
    st.builds(GiveBye, actor=actors, player=players),
    st.builds(StartTopCut, actor=actors),
    st.builds(Finish, actor=actors),
    st.builds(Cancel, actor=st.sampled_from([*PEOPLE[1:], ORG])),
)


def check_round(state: EventState, before: EventState) -> None:
    games = state.round_games()
    placed = [p for g in games for p in g.players]
    assert len(placed) == len(set(placed)), "a player twice in a round"
    if state.phase is Phase.ROUND:
        assert set(placed) == {e.player for e in before.active()}
    else:  # a top cut round: the winners (or seeds) only
        assert all(not g.is_bye for g in games)
    assert not {e.player for e in before.entrants if e.dropped} & set(placed)


def run(state: EventState, action: EventAction) -> EventState:
    """Apply `action`; a refusal changes nothing; a published round is checked."""
    before = state.model_dump()
    try:
        new, happened = apply(state, action)
    except RuleError as refusal:
        assert refusal.code.startswith("event.")
        assert state.model_dump() == before
        return state
    assert EventState.model_validate_json(new.model_dump_json()) == new
    if any(isinstance(e, RoundPublished) for e in happened):
        check_round(new, state)
    assert len(new.entrants) <= new.settings.capacity or new.round_number > 0
    for entry in new.lists.values():  # a list is shown to a round's opponent, never its owner
        assert entry.player not in entry.shown_to
    return new


def new_event(cut: int | None, reveal: str) -> EventState:
    settings_ = EventSettings(
        name="GT",
        system="killteam",
        starts_at=5_000,
        list_deadline=1_000,
        capacity=8,
        top_cut=cut,
        reveal=reveal,
    )
    return start("ev", ORG, settings_)[0]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, max_size=80), st.sampled_from([None, 4]), st.sampled_from(["all", "opponent"]))
def test_any_sequence_of_actions_keeps_the_event_sound(
    sequence: list[EventAction], cut: int | None, reveal: str
) -> None:
    state = new_event(cut, reveal)
    for action in sequence:
        state = run(state, action)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([None, 4]), st.sampled_from(["all", "opponent"]))
def test_events_played_through_with_drops_byes_and_corrections_stay_sound(
    data: st.DataObject, cut: int | None, reveal: str
) -> None:
    """Entries, then mostly the organiser's steps and results for the games actually open, with
    stray actions between: the rounds are reached, and every check above holds."""
    state = new_event(cut, reveal)
    for player in data.draw(st.lists(players, min_size=2, max_size=11, unique=True)):
        state = run(state, Join(actor=player, player=player))
    state = run(state, CloseLists(actor=ORG, now=1_000))
    state = run(state, PublishRound(actor=ORG, seed=0))
    assert state.round_number == 1
    for _ in range(data.draw(st.integers(5, 60))):
        state = run(state, next_action(data, state))


def next_action(data: st.DataObject, state: EventState) -> EventAction:
    open_games = [g for g in state.open_games() if g.second is not None]
    choice = data.draw(st.integers(0, 9))
    if choice < 5 and open_games:
        game = data.draw(st.sampled_from(open_games))
        assert game.second is not None
        return ReportResult(
            actor=data.draw(st.sampled_from([ORG, game.first, game.second])),
            round=game.round,
            first=game.first,
            second=game.second,
            first_vp=data.draw(vp),
            second_vp=data.draw(vp),
        )
    if choice < 7:
        return data.draw(st.sampled_from([PublishRound(actor=ORG, seed=choice), StartTopCut(actor=ORG)]))
    if choice < 8:
        player = data.draw(st.sampled_from([e.player for e in state.entrants] or [100]))
        return data.draw(st.sampled_from([Drop(actor=ORG, player=player), GiveBye(actor=ORG, player=player)]))
    if choice < 9 and data.draw(st.booleans()):
        return Finish(actor=ORG)
    action: EventAction = data.draw(actions)
    return action
