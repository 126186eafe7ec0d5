"""Events for the web tests, played through the events' rules (rules/event/machine.py) and stored as
the events service stores them (a row of `events` with the state as JSON).

`seed_events` writes three events for a server: a finished one with Swiss rounds, revealed lists and
a top cut; one still open for entries whose lists are sealed (their faction and text must never
show); and a cancelled one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import make_sessionmaker
from bot.db.models import ClubEvent
from rules.event.actions import (
    Cancel,
    CloseLists,
    Finish,
    Join,
    PublishRound,
    ReportResult,
    StartTopCut,
    SubmitList,
)
from rules.event.machine import apply, start
from rules.event.state import EventSettings, EventState

ORGANISER = 450_000_000_000_000_999
SEALED_FACTION = "Secret Faction Of Sealing"
SEALED_TEXT = "SECRET LIST TEXT: 10 plague marines"


@dataclass
class SeededEvents:
    finished: EventState
    sealed: EventState
    cancelled: EventState


def _step(state: EventState, *actions: object) -> EventState:
    for action in actions:
        state, _events = apply(state, action)  # type: ignore[arg-type]
    return state


def _play_round(state: EventState) -> EventState:
    """Every open game reported: the better-placed `first` wins by table number, one draw per round."""
    for game in state.open_games():
        assert game.second is not None
        first_vp, second_vp = (10 + game.table, 7) if game.table % 3 else (8, 8)
        if state.cut_from is not None and first_vp == second_vp:
            first_vp += 1
        state = _step(
            state,
            ReportResult(
                actor=ORGANISER,
                round=game.round,
                first=game.first,
                second=game.second,
                first_vp=first_vp,
                second_vp=second_vp,
            ),
        )
    return state


def finished_event(event_id: str, players: Sequence[int], name: str, starts_at: datetime) -> EventState:
    """Lists submitted and revealed to all at close, three Swiss rounds, a top cut of four, finished."""
    settings = EventSettings(
        name=name,
        system="killteam",
        starts_at=int(starts_at.timestamp()),
        time_zone="Europe/Berlin",
        rounds=3,
        list_deadline=int((starts_at - timedelta(days=1)).timestamp()),
        top_cut=4,
        reveal="all",
    )
    state, _events = start(event_id, ORGANISER, settings)
    now = int((starts_at - timedelta(days=3)).timestamp())
    for index, player in enumerate(players):
        state = _step(
            state,
            Join(actor=player, player=player),
            SubmitList(
                actor=player,
                player=player,
                faction=f"Faction {index}",
                text=f"list text {index}",
                nonce=f"nonce-{index}",
                now=now,
            ),
        )
    state = _step(state, CloseLists(actor=ORGANISER, now=now + 3600))
    for number in range(3):
        state = _play_round(_step(state, PublishRound(actor=ORGANISER, seed=29 + number)))
    state = _play_round(_step(state, StartTopCut(actor=ORGANISER)))
    state = _play_round(_step(state, PublishRound(actor=ORGANISER, seed=0)))
    return _step(state, Finish(actor=ORGANISER))


def sealed_event(event_id: str, players: Sequence[int], name: str, starts_at: datetime) -> EventState:
    """Open for entries; every player's list sealed (not revealed)."""
    settings = EventSettings(
        name=name,
        system="killteam",
        starts_at=int(starts_at.timestamp()),
        list_deadline=int((starts_at - timedelta(hours=1)).timestamp()),
    )
    state, _events = start(event_id, ORGANISER, settings)
    for index, player in enumerate(players):
        state = _step(
            state,
            Join(actor=player, player=player),
            SubmitList(
                actor=player,
                player=player,
                faction=SEALED_FACTION,
                text=SEALED_TEXT,
                nonce=f"sealed-{index}",
                now=int((starts_at - timedelta(days=2)).timestamp()),
            ),
        )
    return state


def cancelled_event(event_id: str, players: Sequence[int], name: str, starts_at: datetime) -> EventState:
    settings = EventSettings(name=name, system="warcry", starts_at=int(starts_at.timestamp()))
    state, _events = start(event_id, ORGANISER, settings)
    for player in players:
        state = _step(state, Join(actor=player, player=player))
    return _step(state, Cancel(actor=ORGANISER))


def row_of(guild_id: int, state: EventState, version: int = 1) -> ClubEvent:
    starts_at = datetime.fromtimestamp(state.settings.starts_at, UTC)
    return ClubEvent(
        id=state.event_id,
        guild_id=guild_id,
        channel_id=1,
        organiser_id=state.organiser,
        name=state.settings.name,
        system=state.settings.system,
        status=state.phase.value,
        state=state.model_dump_json(),
        version=version,
        starts_at=starts_at,
        remind_at=starts_at - timedelta(hours=24),
        round_warned=0,
        event_version=0,
        reports="{}",
        updated_at=datetime.now(UTC),
    )


def seed_events(
    guild_id: int,
    players: Sequence[int],
    names: Sequence[str] = ("Autumn Open", "Winter Cup", "Lost Weekend"),
) -> Callable[[AsyncEngine], Awaitable[SeededEvents]]:
    """A seeder (tests/web/site.py) of the three events among `players` (at least six)."""

    async def seed(engine: AsyncEngine) -> SeededEvents:
        now = datetime.now(UTC).replace(microsecond=0)
        seeded = SeededEvents(
            finished=finished_event("e00000000001", players[:6], names[0], now - timedelta(days=10)),
            sealed=sealed_event("e00000000002", players[:4], names[1], now + timedelta(days=10)),
            cancelled=cancelled_event("e00000000003", players[:2], names[2], now + timedelta(days=5)),
        )
        async with make_sessionmaker(engine).begin() as db:
            for state in (seeded.finished, seeded.sealed, seeded.cancelled):
                db.add(row_of(guild_id, state))
        return seeded

    return seed
