"""Ratings: a deterministic replay of confirmed results through OpenSkill's Plackett-Luce model.

A rating is a pure function of the list of results: only confirmed results count, replayed in
(played_at, id) order, one replay per scope (a game system, or all systems together for the
overall rating). Voiding or correcting a result and replaying therefore gives exactly the numbers
the list would have given had it never been wrong.

Replaying is memoised: a `RatingLedger` remembers what it applied and keeps snapshots every few
hundred results, so a new result at the end costs one update and a change in the past replays only
from the snapshot before it. Every path applies the same updates in the same order from the same
starting values, so the memo is bit-for-bit the full replay (the property tests check this).

Shown rating: `1000 + 20 * (mu - 3 * sigma)`, rounded. mu - 3·sigma is OpenSkill's "ordinal", a
cautious estimate (true skill is very likely above it); the scale puts a newcomer at 1000 and a
well-established strong player somewhere around 1400-1600, numbers people know from chess clubs.
A newcomer's rating moves a lot in the first games, and steadier play raises it as sigma shrinks.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from rules.scores.model import ResultRecord

RATING_BASE = 1000.0
RATING_SCALE = 20.0
RATING_Z = 3.0

# One model for every server: default OpenSkill parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300).
_MODEL: Any = PlackettLuce()
_MU: float = float(_MODEL.mu)
_SIGMA: float = float(_MODEL.sigma)

CHECKPOINT_EVERY = 256
"""Results between snapshots: a past correction replays at most this many plus everything after it."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = _MU
    sigma: float = _SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - RATING_Z * self.sigma

    @property
    def display(self) -> int:
        return round(RATING_BASE + RATING_SCALE * self.ordinal)


INITIAL = Rating()


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating just before and just after one result, for the announcement."""

    result_id: int
    player: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        return self.after.display - self.before.display


# What a result contributes to a replay: anything else (scores, mission, factions) leaves ratings alone.
_Fingerprint = tuple[datetime, int, int, int, int | None]


def _fingerprint(result: ResultRecord) -> _Fingerprint:
    return (result.played_at, result.id, result.player_a, result.player_b, result.winner)


def _order(result: ResultRecord) -> tuple[datetime, int]:
    return result.order_key


def in_scope(result: ResultRecord, system: str | None) -> bool:
    return result.counts and (system is None or result.system == system)


class RatingLedger:
    """The ratings of one scope (a system, or None for overall), kept in step with a list of results."""

    def __init__(self, system: str | None = None, *, checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        if checkpoint_every < 1:
            raise ValueError("checkpoint_every must be at least 1")
        self.system = system
        self._every = checkpoint_every
        self._applied: list[_Fingerprint] = []
        self._records: list[ResultRecord] = []  # the records applied, beside their fingerprints
        # Library rating objects by player; values are never mutated, so snapshots are shallow copies.
        self._current: dict[int, Any] = {}
        self._snapshots: list[dict[int, Any]] = [{}]  # _snapshots[k]: state before result k*every
        # result id -> (player_a, player_b, before_a, after_a, before_b, after_b), library objects;
        # turned into RatingChanges only when asked, which keeps the replay loop lean.
        self._changes: dict[int, tuple[int, int, Any, Any, Any, Any]] = {}
        self.replayed = 0  # how many updates the last sync applied (for benchmarks and tests)

    def sync(self, results: Iterable[ResultRecord]) -> RatingLedger:
        """Bring the ledger in line with `results` (any order, any status); returns itself."""
        wanted = sorted((r for r in results if in_scope(r, self.system)), key=_order)
        return self._sync_ordered(wanted)

    def _sync_ordered(self, wanted: Sequence[ResultRecord]) -> RatingLedger:
        """`sync` for results already in this scope and in replay order."""
        applied, records = self._applied, self._records
        same = 0
        limit = min(len(wanted), len(applied))
        # The very record objects applied before (the usual case) need no fingerprint.
        while same < limit and (wanted[same] is records[same] or _fingerprint(wanted[same]) == applied[same]):
            same += 1
        if same < len(applied):
            self._rewind(same)
        start = len(applied)
        for result in wanted[start:]:
            self._apply(result)
        self.replayed = len(wanted) - start
        return self

    def _rewind(self, keep: int) -> None:
        """Forget everything from position `keep` on, restoring the snapshot at or before it."""
        k = keep // self._every
        base = k * self._every
        for fp in self._applied[base:]:
            self._changes.pop(fp[1], None)
        del self._applied[base:]
        del self._records[base:]
        del self._snapshots[k + 1 :]
        self._current = dict(self._snapshots[k])

    def _apply(self, result: ResultRecord) -> None:
        a, b = result.player_a, result.player_b
        before_a = self._current.get(a)
        before_b = self._current.get(b)
        if before_a is None:
            before_a = _MODEL.rating()
        if before_b is None:
            before_b = _MODEL.rating()
        if result.winner is None:
            ranks = [0.0, 0.0]
        elif result.winner == a:
            ranks = [0.0, 1.0]
        else:
            ranks = [1.0, 0.0]
        [[after_a], [after_b]] = _MODEL.rate([[before_a], [before_b]], ranks=ranks)
        self._current[a] = after_a
        self._current[b] = after_b
        self._changes[result.id] = (a, b, before_a, after_a, before_b, after_b)
        self._applied.append(_fingerprint(result))
        self._records.append(result)
        if len(self._applied) % self._every == 0:
            self._snapshots.append(dict(self._current))

    def rating(self, player: int) -> Rating:
        found = self._current.get(player)
        return INITIAL if found is None else _ours(found)

    def ratings(self) -> dict[int, Rating]:
        return {player: _ours(r) for player, r in self._current.items()}

    def change(self, result_id: int) -> tuple[RatingChange, RatingChange] | None:
        """(player_a's change, player_b's change) made by a counted result; None if it did not count."""
        found = self._changes.get(result_id)
        if found is None:
            return None
        a, b, before_a, after_a, before_b, after_b = found
        return (
            RatingChange(result_id, a, _ours(before_a), _ours(after_a)),
            RatingChange(result_id, b, _ours(before_b), _ours(after_b)),
        )

    def __len__(self) -> int:
        return len(self._applied)


def _ours(rating: Any) -> Rating:
    return Rating(float(rating.mu), float(rating.sigma))


def replay(results: Iterable[ResultRecord], system: str | None = None) -> RatingLedger:
    """A fresh replay of `results` for one scope: the definition the memo must always agree with."""
    return RatingLedger(system).sync(results)


class RatingBook:
    """Ledgers for every scope of one server, each brought up to date only when it is asked for."""

    def __init__(self, *, checkpoint_every: int = CHECKPOINT_EVERY) -> None:
        self._every = checkpoint_every
        self._results: tuple[ResultRecord, ...] = ()
        self._ledgers: dict[str | None, RatingLedger] = {}
        self._stale: set[str | None] = set()

    def sync(self, results: Iterable[ResultRecord]) -> RatingBook:
        self._results = tuple(results)
        self._stale = set(self._ledgers)
        return self

    def ledger(self, system: str | None = None) -> RatingLedger:
        """The up-to-date ledger for `system` (None: overall)."""
        ledger = self._ledgers.get(system)
        if ledger is None:
            ledger = self._ledgers[system] = RatingLedger(system, checkpoint_every=self._every)
            ledger.sync(self._results)
        elif system in self._stale:
            ledger.sync(self._results)
        self._stale.discard(system)
        return ledger

    def warm(self, system: str | None = None, *, step: int = 500) -> Iterator[int]:
        """Replay one scope `step` results at a time, yielding the count done after each step.

        A large server's first replay takes a while; a caller that pauses between steps keeps its
        event loop responsive. The outcome is exactly `ledger(system)`, since replaying a prefix and
        then the rest is what the memo does anyway. It stops early, leaving the scope to `ledger()`,
        if the results change or someone else brings the scope up to date in between.
        """
        results = self._results
        ledger = self._ledgers.get(system)
        if ledger is not None and system not in self._stale:
            return
        if ledger is None:
            ledger = self._ledgers[system] = RatingLedger(system, checkpoint_every=self._every)
            self._stale.add(system)
        ordered = sorted((r for r in results if in_scope(r, system)), key=_order)
        # A ledger that already holds results only needs the difference: one step. A new one climbs.
        ends = [len(ordered)] if len(ledger) else [*range(step, len(ordered), step), len(ordered)]
        for end in ends:
            if self._results is not results or system not in self._stale:
                return
            ledger._sync_ordered(ordered[:end])
            yield end
        if self._results is results:
            self._stale.discard(system)

    def systems(self) -> list[str]:
        return sorted({r.system for r in self._results if r.counts})

    def changes(self, result: ResultRecord) -> dict[str | None, tuple[RatingChange, RatingChange] | None]:
        """A result's rating changes in its own system and overall (keys: system name, None)."""
        return {
            result.system: self.ledger(result.system).change(result.id),
            None: self.ledger(None).change(result.id),
        }


def ratings_of(ledger: RatingLedger | Mapping[int, Rating], player: int) -> Rating:
    if isinstance(ledger, RatingLedger):
        return ledger.rating(player)
    return ledger.get(player, INITIAL)
