"""An event's state and its steps, as the service stores and changes them: who entered (and who
waits), the sealed lists (their commitments only: the texts are in `event_lists`), the rounds'
games and the results reported, confirmed or entered by the organiser.

Each step is pure: `step(state, action)` returns a new state and what happened (`Note`s the cog
words), or refuses with an `event.*` code and changes nothing. Pairing and standings are
rules/event's (`bot.events.swiss` calls them).
"""

from __future__ import annotations

from typing import Literal

from rules.errors import RuleError
from rules.event.models import Game
from rules.session import Model

Phase = Literal["signup", "lists_closed", "round", "top_cut", "finished", "cancelled"]
ListStatus = Literal["sealed", "rejected"]
Reveal = Literal["all", "opponent"]
Seeding = Literal["random", "rating"]
MIN_PLAYERS = 2
MAX_CAPACITY = 256


class Settings(Model):
    name: str
    system: str  # the system's slug ("killteam", "necromunda")
    starts_at: int  # epoch seconds
    lists_due: int
    rounds: int | None = None  # None: as many as the players need (⌈log2 n⌉)
    round_minutes: int = 150
    capacity: int = 32
    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    tiebreakers: list[str] = ["sos", "vp_difference", "total_vp"]
    top_cut: int = 0  # 0, 4 or 8
    reveal: Reveal = "all"
    seeding: Seeding = "random"
    unrated: bool = False


class ListMeta(Model):
    faction: str
    commitment: str
    status: ListStatus = "sealed"
    reason: str = ""


class Played(Game):
    """One game of a round (rules/event's `Game`), with the game Muster opened for it."""

    session_id: str | None = None

    def has(self, player: int) -> bool:
        return player in (self.first, self.second)

    @property
    def done(self) -> bool:
        return self.reported


class Report(Model):
    """A result reported by one player, waiting for the other's same report."""

    by: int
    first_vp: int
    second_vp: int


class Note(Model):
    """What a step did, for the cog to word: a kind and the players/values concerned."""

    kind: str
    player: int | None = None
    values: dict[str, int | str] = {}


class EventState(Model):
    event_id: str
    organiser: int
    settings: Settings
    phase: Phase = "signup"
    entrants: list[int] = []
    waitlist: list[int] = []
    dropped: list[int] = []
    lists: dict[int, ListMeta] = {}
    round_number: int = 0
    total_rounds: int = 0  # fixed at round 1
    games: list[Played] = []
    reports: dict[str, Report] = {}  # "round:table" -> the first report
    lists_revealed: bool = False
    standings_posted: int = 0  # the last round whose standings were posted

    def active(self) -> list[int]:
        return [p for p in self.entrants if p not in self.dropped]

    def round_games(self, number: int | None = None) -> list[Played]:
        wanted = self.round_number if number is None else number
        return [g for g in self.games if g.round == wanted]

    def game_of(self, player: int) -> Played | None:
        return next((g for g in self.round_games() if g.has(player)), None)

    def round_done(self) -> bool:
        return self.round_number > 0 and all(g.done for g in self.round_games())


def require_organiser(state: EventState, actor: int, as_organiser: bool) -> None:
    if actor != state.organiser and not as_organiser:
        raise RuleError(code="event.not_organiser")


def require_live(state: EventState) -> None:
    if state.phase == "cancelled":
        raise RuleError(code="event.cancelled")
    if state.phase == "finished":
        raise RuleError(code="event.finished")


def join(state: EventState, player: int, actor: int, as_organiser: bool) -> tuple[EventState, list[Note]]:
    """Enter a player; full: on the waitlist. Late entries are taken until round 1 is published."""
    require_live(state)
    if player != actor:
        require_organiser(state, actor, as_organiser)
    if state.round_number > 0:
        raise RuleError(code="event.started")
    if player in state.entrants or player in state.waitlist:
        raise RuleError(code="event.already_entered")
    if len(state.entrants) >= state.settings.capacity:
        waiting = [*state.waitlist, player]
        return state.model_copy(update={"waitlist": waiting}), [
            Note(kind="waitlisted", player=player, values={"position": len(waiting)})
        ]
    return state.model_copy(update={"entrants": [*state.entrants, player]}), [
        Note(kind="joined", player=player)
    ]


def leave(state: EventState, player: int, actor: int, as_organiser: bool) -> tuple[EventState, list[Note]]:
    """Leave before round 1 (a place goes to the first waiting); later, it is a drop."""
    require_live(state)
    if player != actor:
        require_organiser(state, actor, as_organiser)
    if player in state.waitlist:
        waiting = [p for p in state.waitlist if p != player]
        return state.model_copy(update={"waitlist": waiting}), [Note(kind="left", player=player)]
    if player not in state.entrants:
        raise RuleError(code="event.not_entered")
    if state.round_number > 0:
        return drop(state, player)
    entrants = [p for p in state.entrants if p != player]
    lists = {p: m for p, m in state.lists.items() if p != player}
    notes = [Note(kind="left", player=player)]
    waiting = list(state.waitlist)
    if waiting and len(entrants) < state.settings.capacity:
        promoted = waiting.pop(0)
        entrants.append(promoted)
        notes.append(Note(kind="promoted", player=promoted))
    update = {"entrants": entrants, "waitlist": waiting, "lists": lists}
    return state.model_copy(update=update), notes


def drop(state: EventState, player: int) -> tuple[EventState, list[Note]]:
    """A player leaves the event after it began: never paired again; their games stand."""
    require_live(state)
    if player not in state.entrants:
        raise RuleError(code="event.not_entered")
    if player in state.dropped:
        raise RuleError(code="event.dropped_already")
    return state.model_copy(update={"dropped": [*state.dropped, player]}), [
        Note(kind="dropped", player=player)
    ]


def submit_list(state: EventState, player: int, meta: ListMeta, now: int) -> tuple[EventState, list[Note]]:
    """Seal a player's list; after the deadline only a rejected list may be sent again."""
    require_live(state)
    if player not in state.entrants:
        raise RuleError(code="event.not_entered")
    if state.lists_revealed or state.phase != "signup":
        raise RuleError(code="event.lists_closed")
    known = state.lists.get(player)
    if now >= state.settings.lists_due and (known is None or known.status != "rejected"):
        raise RuleError(code="event.lists_due")
    lists = {**state.lists, player: meta}
    return state.model_copy(update={"lists": lists}), [
        Note(kind="list_sealed", player=player, values={"commitment": meta.commitment})
    ]


def reject_list(state: EventState, player: int, reason: str) -> tuple[EventState, list[Note]]:
    require_live(state)
    known = state.lists.get(player)
    if known is None:
        raise RuleError(code="event.no_list", player=player)
    if state.lists_revealed:
        raise RuleError(code="event.lists_closed")
    rejected = known.model_copy(update={"status": "rejected", "reason": reason})
    return state.model_copy(update={"lists": {**state.lists, player: rejected}}), [
        Note(kind="list_rejected", player=player, values={"reason": reason})
    ]


def close_lists(state: EventState) -> tuple[EventState, list[Note]]:
    """No more lists: revealed all together (or each to its opponent at pairing)."""
    require_live(state)
    if state.phase != "signup":
        raise RuleError(code="event.lists_closed")
    waiting = [p for p, m in state.lists.items() if m.status == "rejected"]
    if waiting:
        raise RuleError(code="event.list_rejected_open", player=waiting[0])
    revealed = state.settings.reveal == "all"
    update = {"phase": "lists_closed", "lists_revealed": revealed}
    return state.model_copy(update=update), [Note(kind="lists_closed", values={"revealed": int(revealed)})]


def start_round(state: EventState, games: list[Played], total: int) -> tuple[EventState, list[Note]]:
    """Publish the next round's games (paired by rules/event)."""
    require_live(state)
    if state.phase == "signup":
        raise RuleError(code="event.lists_open")
    if state.round_number and not state.round_done():
        raise RuleError(code="event.round_open", round=state.round_number)
    if state.round_number >= (state.total_rounds or total):
        raise RuleError(code="event.rounds_done", rounds=state.total_rounds)
    if len(state.active()) < MIN_PLAYERS:
        raise RuleError(code="event.too_few", minimum=MIN_PLAYERS)
    number = state.round_number + 1
    update = {
        "phase": "round",
        "round_number": number,
        "total_rounds": state.total_rounds or total,
        "games": [*state.games, *games],
        "waitlist": [] if number == 1 else state.waitlist,
    }
    return state.model_copy(update=update), [Note(kind="round_published", values={"round": number})]


def _key(game: Played) -> str:
    return f"{game.round}:{game.table}"


def _with_result(state: EventState, game: Played, first_vp: int, second_vp: int) -> EventState:
    games = [
        g.model_copy(update={"first_vp": first_vp, "second_vp": second_vp}) if _key(g) == _key(game) else g
        for g in state.games
    ]
    reports = {k: r for k, r in state.reports.items() if k != _key(game)}
    return state.model_copy(update={"games": games, "reports": reports})


def report(
    state: EventState, actor: int, as_organiser: bool, players: tuple[int, int], vps: tuple[int, int]
) -> tuple[EventState, list[Note]]:
    """A result of this round's game between `players`: the organiser's stands at once (a late
    result, a correction); a player's waits for the opponent's same report."""
    require_live(state)
    if state.phase not in ("round", "top_cut"):
        raise RuleError(code="event.no_round")
    if state.phase == "top_cut" and vps[0] == vps[1]:
        raise RuleError(code="event.cut_draw")
    if min(vps) < 0 or max(vps) > 10_000:
        raise RuleError(code="event.vp_range", maximum=10_000)
    game = next((g for g in state.round_games() if {g.first, g.second} == set(players)), None)
    if game is None or game.second is None:
        raise RuleError(code="event.not_in_round", round=state.round_number)
    first_vp, second_vp = vps if players[0] == game.first else (vps[1], vps[0])
    organising = actor == state.organiser or as_organiser
    if not organising and actor not in players:
        raise RuleError(code="event.not_your_game")
    values: dict[str, int | str] = {"table": game.table, "first_vp": first_vp, "second_vp": second_vp}
    if organising:
        return _with_result(state, game, first_vp, second_vp), [
            Note(kind="result", player=actor, values=values)
        ]
    waiting = state.reports.get(_key(game))
    if waiting is not None and waiting.by != actor:
        if (waiting.first_vp, waiting.second_vp) != (first_vp, second_vp):
            raise RuleError(
                code="event.result_differs", first_vp=waiting.first_vp, second_vp=waiting.second_vp
            )
        return _with_result(state, game, first_vp, second_vp), [
            Note(kind="result", player=actor, values=values)
        ]
    reports = {**state.reports, _key(game): Report(by=actor, first_vp=first_vp, second_vp=second_vp)}
    other = game.second if actor == game.first else game.first
    assert other is not None
    values["other"] = other
    return state.model_copy(update={"reports": reports}), [Note(kind="reported", player=actor, values=values)]


def give_bye(state: EventState, player: int) -> tuple[EventState, list[Note]]:
    """A bye in this round for an entrant who has no game in it (a late arrival)."""
    require_live(state)
    if state.phase != "round":
        raise RuleError(code="event.no_round")
    if player not in state.active():
        raise RuleError(code="event.not_entered")
    if state.game_of(player) is not None:
        raise RuleError(code="event.has_game", round=state.round_number)
    table = max((g.table for g in state.round_games()), default=0) + 1
    bye = Played(round=state.round_number, table=table, first=player, second=None)
    return state.model_copy(update={"games": [*state.games, bye]}), [Note(kind="bye", player=player)]


def start_cut(state: EventState, games: list[Played]) -> tuple[EventState, list[Note]]:
    """The next round of the single-elimination top cut (its first after the last Swiss round)."""
    require_live(state)
    if state.settings.top_cut not in (4, 8):
        raise RuleError(code="event.no_cut")
    if state.round_number < state.total_rounds or not state.round_done():
        raise RuleError(code="event.round_open", round=state.round_number)
    if not games:
        raise RuleError(code="event.cut_done")
    number = state.round_number + 1
    update = {"phase": "top_cut", "round_number": number, "games": [*state.games, *games]}
    return state.model_copy(update=update), [Note(kind="cut_published", values={"round": number})]


def swiss_games(state: EventState) -> list[Played]:
    """The games that count for the standings: the Swiss rounds' (not the top cut's)."""
    return [g for g in state.games if not state.total_rounds or g.round <= state.total_rounds]


def finish(state: EventState) -> tuple[EventState, list[Note]]:
    require_live(state)
    if state.round_number == 0 or not state.round_done():
        raise RuleError(code="event.round_open", round=state.round_number)
    return state.model_copy(update={"phase": "finished"}), [Note(kind="finished")]


def cancel(state: EventState) -> tuple[EventState, list[Note]]:
    require_live(state)
    return state.model_copy(update={"phase": "cancelled"}), [Note(kind="cancelled")]
