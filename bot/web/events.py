"""A server's events as the site shows them: rounds with their pairings and results, the standings,
the top cut's bracket and the winner, all read from the event's stored state (rules/event).

The standings are `table_of`'s, the very table `/event standings` and the standings posts draw, and
the winner is `rules.event.rounds.champion`, the one `/event finish` names. What a list holds is
never read into a page: only whether a player submitted one and its commitment (as the event's card
shows them), and a faction once the list is revealed to everyone (`EventState.faction_shown`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import BigInteger, Select, bindparam, select
from sqlalchemy.orm import Session

from bot.db.models import ClubEvent
from bot.db.store import Store
from bot.events.rounds import table_of
from rules.event.models import Game, Tiebreaker
from rules.event.rounds import champion
from rules.event.standings import Standing, rounds_for
from rules.event.state import EventState, Phase

EVENTS_SHOWN = 20
UPCOMING = (Phase.SIGNUP, Phase.LISTS_CLOSED, Phase.ROUND, Phase.TOP_CUT)
COMMITMENT_SHOWN = 16  # hex digits of a list's commitment, as the event's card shows it


@dataclass(frozen=True)
class EventRound:
    number: int  # the round's number in the event
    cut_round: int | None  # its number in the top cut (1, 2, ...), None for a Swiss round
    games: list[Game]  # tables in order, the bye last


@dataclass(frozen=True)
class EventEntry:
    player: int
    list_mark: str  # "": no list; "rejected"; else the commitment's first hex digits
    dropped: bool


@dataclass(frozen=True)
class EventRow:
    """An event as its page shows it: what the channel has seen, nothing sealed."""

    id: str
    name: str
    system: str
    starts_at: datetime
    ends_at: datetime  # its Swiss rounds back to back (the calendar's end)
    time_zone: str
    phase: Phase
    round_number: int
    total_rounds: int | None
    entries: list[EventEntry]
    rounds: list[EventRound]
    standings: list[Standing]
    factions: dict[int, str]  # only players whose list is revealed to everyone
    tiebreakers: tuple[Tiebreaker, ...]
    winner: int | None
    updated_at: datetime

    @property
    def swiss(self) -> list[EventRound]:
        return [r for r in self.rounds if r.cut_round is None]

    @property
    def cut(self) -> list[EventRound]:
        return [r for r in self.rounds if r.cut_round is not None]


def _events_query() -> Select[str, str, datetime]:
    """A server's latest events (the index on guild, status, start serves it), built once."""
    guild_id = bindparam("guild_id", type_=BigInteger)
    return (
        select(ClubEvent.id, ClubEvent.state, ClubEvent.updated_at)
        .where(ClubEvent.guild_id == guild_id)
        .order_by(ClubEvent.starts_at.desc(), ClubEvent.id)
        .limit(EVENTS_SHOWN)
    )


EVENTS = _events_query()
UPCOMING_EVENTS = (
    select(ClubEvent.id, ClubEvent.state, ClubEvent.updated_at)
    .where(
        ClubEvent.guild_id == bindparam("guild_id", type_=BigInteger),
        ClubEvent.status.in_([phase.value for phase in UPCOMING]),
        ClubEvent.starts_at >= bindparam("since"),
    )
    .order_by(ClubEvent.starts_at, ClubEvent.id)
    .limit(EVENTS_SHOWN)
)


async def read_events(store: Store, guild_id: int) -> list[EventRow]:
    """The server's latest events, newest start first (cancelled ones too: the page marks them)."""

    def read(db: Session) -> list[EventRow]:
        return [
            event_row(EventState.model_validate_json(row.state), row.updated_at)
            for row in db.execute(EVENTS, {"guild_id": guild_id})
        ]

    return await store.run(read)


async def upcoming_events(store: Store, guild_id: int, since: datetime) -> list[EventRow]:
    """Events not over or cancelled that start after `since`, soonest first (for the calendar)."""

    def read(db: Session) -> list[EventRow]:
        rows = db.execute(UPCOMING_EVENTS, {"guild_id": guild_id, "since": since})
        return [event_row(EventState.model_validate_json(row.state), row.updated_at) for row in rows]

    return await store.run(read)


def _list_mark(state: EventState, player: int) -> str:
    entry = state.lists.get(player)
    if entry is None:
        return ""
    return "rejected" if entry.status == "rejected" else entry.commitment[:COMMITMENT_SHOWN]


def _rounds(state: EventState) -> list[EventRound]:
    made = []
    for number in sorted({g.round for g in state.games}):
        games = sorted(state.round_games(number), key=lambda g: (g.second is None, g.table))
        cut_from = state.cut_from
        cut_round = number - cut_from + 1 if cut_from is not None and number >= cut_from else None
        made.append(EventRound(number, cut_round, games))
    return made


def event_row(state: EventState, updated_at: datetime) -> EventRow:
    """The page's view of one event's state (pure: the tests build it from a state too)."""
    table = table_of(state)
    starts_at = datetime.fromtimestamp(state.settings.starts_at, UTC)
    rounds = state.total_rounds or state.settings.rounds or rounds_for(len(state.entrants))
    finished = state.phase is Phase.FINISHED
    return EventRow(
        id=state.event_id,
        name=state.settings.name,
        system=state.settings.system,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=rounds * state.settings.round_minutes),
        time_zone=state.settings.time_zone,
        phase=state.phase,
        round_number=state.round_number,
        total_rounds=state.total_rounds,
        entries=[EventEntry(e.player, _list_mark(state, e.player), e.dropped) for e in state.entrants],
        rounds=_rounds(state),
        standings=table,
        factions={p: f for p in state.lists if (f := state.faction_shown(p))},
        tiebreakers=tuple(state.settings.scoring.tiebreakers),
        winner=champion(state, table) if finished else None,
        updated_at=updated_at,
    )
