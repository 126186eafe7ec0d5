"""An event's settings and its state, as the state machine (rules/event/machine.py) keeps them.

Phases: `signup` (entries and sealed lists open) → `lists_closed` (sign-ups and lists closed, lists
revealed or locked; late entries and rejected lists' resubmissions until round 1) → `round` (round
`round_number` paired and played) → `top_cut` (single elimination among the best) → `finished`;
`cancelled` from any phase before the end.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from rules.errors import RuleError
from rules.event.models import CutSize, Entrant, Game, Reveal, Scoring, Seeding
from rules.session import Action, Model

MAX_NAME = 100
MIN_CAPACITY = 2
MAX_CAPACITY = 256
MAX_ROUNDS = 12
MIN_ROUND_MINUTES = 10
MAX_ROUND_MINUTES = 600
MAX_POINTS_VALUE = 100  # tournament points for a result
MAX_VP = 10_000


class Phase(StrEnum):
    SIGNUP = "signup"
    LISTS_CLOSED = "lists_closed"
    ROUND = "round"
    TOP_CUT = "top_cut"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EventSettings(Model):
    """What the organiser chose: `rounds` None is "as many as the players need" (⌈log2 n⌉, fixed when
    round 1 is published); `list_deadline` None is an event without army lists."""

    name: str
    system: str  # a system slug, as the nights keep it
    starts_at: int  # epoch seconds, UTC
    time_zone: str = "UTC"
    rounds: int | None = None
    round_minutes: int = 90
    capacity: int = 32
    list_deadline: int | None = None  # epoch seconds
    scoring: Scoring = Scoring()
    top_cut: CutSize | None = None
    seeding: Seeding = "random"
    reveal: Reveal = "all"
    rated: bool = True
    tables: int | None = None  # tables at the venue (None: as many as the pairings need)


ListStatus = Literal["sealed", "revealed", "rejected"]


class ArmyList(Model):
    """A player's sealed list. Secret (never shown, never in an error) until revealed: to everyone
    (`revealed`), or to each round's opponent (`shown_to`); the organiser may read it any time."""

    player: int
    faction: str
    text: str
    nonce: str
    commitment: str
    submitted_at: int
    status: ListStatus = "sealed"
    reason: str = ""  # the organiser's, when rejected
    shown_to: list[int] = []


class EventState(Model):
    event_id: str
    organiser: int
    settings: EventSettings
    phase: Phase = Phase.SIGNUP
    round_number: int = 0  # the round paired last (0: none yet); top cut rounds follow the Swiss ones
    total_rounds: int | None = None  # Swiss rounds, fixed when round 1 is published
    cut_from: int | None = None  # the first top cut round
    entrants: list[Entrant] = []  # in entry order
    waitlist: list[Entrant] = []
    lists: dict[int, ArmyList] = {}
    games: list[Game] = []

    def entrant(self, player: int) -> Entrant | None:
        return next((e for e in self.entrants if e.player == player), None)

    def faction_shown(self, player: int) -> str:
        """A player's faction as everyone may see it: once their list is revealed to all, else
        nothing (a sealed list, or one shown only to an opponent, keeps its faction secret)."""
        entry = self.lists.get(player)
        return entry.faction if entry is not None and entry.status == "revealed" else ""

    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if not e.dropped]

    def round_games(self, round_number: int | None = None) -> list[Game]:
        wanted = self.round_number if round_number is None else round_number
        return [g for g in self.games if g.round == wanted]

    def swiss_games(self) -> list[Game]:
        """The games the standings are made of (the top cut's games are not)."""
        return [g for g in self.games if self.cut_from is None or g.round < self.cut_from]

    def open_games(self) -> list[Game]:
        """This round's games still waiting for a result."""
        return [g for g in self.round_games() if not g.reported]


class EventAction(Action):
    """`as_organiser`: the bot found the actor may organise events here (the event's own organiser
    always may)."""

    as_organiser: bool = False


def check_settings(settings: EventSettings) -> EventSettings:
    """`settings` tidied, or a refusal with a code and its limits."""
    name = " ".join(settings.name.split())
    if not name:
        raise RuleError(code="event.name_missing")
    if len(name) > MAX_NAME:
        raise RuleError(code="event.name_long", limit=MAX_NAME)
    if not MIN_CAPACITY <= settings.capacity <= MAX_CAPACITY:
        raise RuleError(code="event.capacity", minimum=MIN_CAPACITY, maximum=MAX_CAPACITY)
    if settings.rounds is not None and not 1 <= settings.rounds <= MAX_ROUNDS:
        raise RuleError(code="event.rounds", minimum=1, maximum=MAX_ROUNDS)
    if not MIN_ROUND_MINUTES <= settings.round_minutes <= MAX_ROUND_MINUTES:
        raise RuleError(code="event.round_minutes", minimum=MIN_ROUND_MINUTES, maximum=MAX_ROUND_MINUTES)
    if settings.list_deadline is not None and settings.list_deadline > settings.starts_at:
        raise RuleError(code="event.deadline_after_start")
    scoring = settings.scoring
    for value in (scoring.win, scoring.draw, scoring.loss, scoring.bye):
        if not 0 <= value <= MAX_POINTS_VALUE:
            raise RuleError(code="event.scoring_points", maximum=MAX_POINTS_VALUE)
    if not scoring.win >= scoring.draw >= scoring.loss:
        raise RuleError(code="event.scoring_order")
    if len(set(scoring.tiebreakers)) != len(scoring.tiebreakers):
        raise RuleError(code="event.tiebreaker_twice")
    if settings.tables is not None and settings.tables < 1:
        raise RuleError(code="event.tables", minimum=1)
    return settings.model_copy(update={"name": name})


def is_organiser(state: EventState, action: EventAction) -> bool:
    return action.actor == state.organiser or action.as_organiser


def require_organiser(state: EventState, action: EventAction) -> None:
    if not is_organiser(state, action):
        raise RuleError(code="event.not_organiser")


def require_live(state: EventState) -> None:
    if state.phase is Phase.CANCELLED:
        raise RuleError(code="event.cancelled")
    if state.phase is Phase.FINISHED:
        raise RuleError(code="event.finished")


def require_before_round_one(state: EventState) -> None:
    require_live(state)
    if state.round_number > 0:
        raise RuleError(code="event.started")


def require_self_or_organiser(state: EventState, action: EventAction, player: int) -> None:
    if player != action.actor and not is_organiser(state, action):
        raise RuleError(code="event.not_yours")
