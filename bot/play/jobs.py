"""Render jobs as stored: what a step owes the table until its messages are rendered.

A step stores its state and its render job in one write (`bot/db/step_write.py`); the messages are
rendered after the player is answered (`bot/play/rendering.py`). These are the rows and the units
of work that renderer runs:

- a job is rendered **once**: its outbox rows are inserted and the job deleted in one transaction,
  and a delete that finds the job gone (another process rendered it first) rolls the rows back;
- a session's jobs are rendered **in version order**: only a session's first job is ever rendered,
  so a job that fails (and backs off) holds back that session's later jobs, and only those;
- a process renders a session's jobs from the store only while it holds the session's render lease
  (`outbox_lanes`, lane `render:<session>`, taken as the outbox takes its lanes), so two processes
  don't do the same work twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Insert, Select, Table, Update, bindparam, delete, exists, insert, or_, select, update
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql.elements import BindParameter

from bot.chat.outbox import LANES, Shown, record_shown, take_lane
from bot.db.models import GameSession, OutboxMessage, RenderJob, utcnow
from bot.play.games import SessionInfo
from bot.play.table import AutoAnswer
from rules.session import QUESTION, Event, GameState, Procedure

JOBS: Table = RenderJob.__table__  # type: ignore[assignment]
OUTBOX: Table = OutboxMessage.__table__  # type: ignore[assignment]
SESSIONS_AT_ONCE = 50
"""Sessions one pass renders at most (the next pass takes the rest)."""
LONGEST_WAIT = 300.0
"""The longest a failing job waits before it is tried again, in seconds."""
ERROR_CHARS = 500  # the render_jobs.last_error column


class AlreadyRendered(Exception):
    """The job was rendered by someone else meanwhile: nothing of this attempt is kept."""


def status_of(state: GameState) -> str:
    """A session's status after a step: a game ended before it was played is cancelled, not finished
    (no result is recorded, and a night lists it as not played)."""
    if not state.finished:
        return "open"
    return "cancelled" if state.abandoned else "finished"


def info_of(row: GameSession) -> SessionInfo:
    return SessionInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        system=row.system,
        organiser_id=row.organiser_id,
        players=(row.player_a, row.player_b),
        status=row.status,
        version=row.version,
        title=row.title,
        thread_id=row.thread_id,
        night_id=row.night_id,
    )


def render_lane(session_id: str) -> str:
    """The lease a process holds while it renders a session's jobs from the store."""
    return f"render:{session_id}"


# ---------------------------------------------------------------------- the rows


def dump_auto(auto: list[AutoAnswer]) -> str:
    if not auto:  # most steps: no `json.dumps` call (it builds an encoder) on the click's path
        return "[]"
    return json.dumps(
        [
            {"player": a.player, "question": QUESTION.dump_python(a.question, mode="json"), "value": a.value}
            for a in auto
        ]
    )


def load_auto(data: str) -> list[AutoAnswer]:
    return [
        AutoAnswer(int(a["player"]), QUESTION.validate_python(a["question"]), str(a["value"]))
        for a in json.loads(data)
    ]


def job_row(
    procedure: Procedure[Any],
    session_id: str,
    version: int,
    before: str,
    events: list[Event],
    auto: list[AutoAnswer],
) -> dict[str, Any]:
    """The render job of the step that made `version` from the state stored as `before`."""
    return {
        "session_id": session_id,
        "version": version,
        "before": before,
        "events": procedure.dump_events(events),
        "auto": dump_auto(auto),
    }


def extra_rows(job: RenderJob) -> list[dict[str, Any]]:
    """The outbox rows of messages rendered when the job was stored (a result's, a cancellation's)."""
    return [{"session_id": job.session_id, "payload": payload} for payload in json.loads(job.extra)]


def backoff(attempts: int) -> float:
    """How long a job that failed `attempts` times waits before its next try, in seconds."""
    return float(min(2 ** min(attempts, 16), LONGEST_WAIT))


def is_due(job: RenderJob, now: datetime) -> bool:
    return job.next_attempt_at is None or job.next_attempt_at <= now


# ---------------------------------------------------------------------- units of work


def _due_sessions(everything: bool) -> Select[str]:
    """`due_sessions`' query, built once for each `everything`: every delivery pass runs one, and
    building it took longer than running it."""
    earlier = aliased(RenderJob)
    first = ~exists().where(earlier.session_id == RenderJob.session_id, earlier.version < RenderJob.version)
    query = select(RenderJob.session_id).where(first)
    if not everything:
        now: BindParameter[datetime] = bindparam("now")
        query = query.where(or_(RenderJob.next_attempt_at.is_(None), RenderJob.next_attempt_at <= now))
    return query.order_by(RenderJob.id).limit(SESSIONS_AT_ONCE)


DUE_SESSIONS = {everything: _due_sessions(everything) for everything in (False, True)}


def due_sessions(now: datetime, everything: bool, db: Session) -> list[str]:
    """Sessions whose first job may be rendered now (`everything`: backing off or not), oldest first."""
    return list(db.scalars(DUE_SESSIONS[everything], {} if everything else {"now": now}))


@dataclass(frozen=True)
class Claimed:
    """A session's pending jobs in version order, and the session as stored (None: it is gone)."""

    session: GameSession | None
    jobs: list[RenderJob]


def claim_jobs(session_id: str, owner: str, until: datetime, db: Session) -> Claimed | None:
    """Lease a session's rendering and read its jobs (None: another process holds the lease). Read
    after the lease is taken, so a job an earlier holder rendered is not read again."""
    if not take_lane(render_lane(session_id), owner, until, db):
        return None
    jobs = db.scalars(select(RenderJob).where(RenderJob.session_id == session_id).order_by(RenderJob.version))
    return Claimed(db.get(GameSession, session_id), list(jobs))


def _done(job: RenderJob, rows: list[dict[str, Any]], db: Session) -> None:
    """A job's messages owed to Discord and the job gone, at once. The job is named by its session
    and version, never by its id alone (SQLite gives a deleted row's id to the next one); gone
    already, it was rendered elsewhere: nothing of this attempt is kept."""
    if rows:
        db.execute(insert(OUTBOX), rows)
    gone = delete(JOBS).where(
        JOBS.c.id == job.id, JOBS.c.session_id == job.session_id, JOBS.c.version == job.version
    )
    if db.execute(gone).rowcount != 1:  # type: ignore[attr-defined]
        raise AlreadyRendered()


def settle(job: RenderJob, rows: list[dict[str, Any]], lease: tuple[str, str, datetime], db: Session) -> None:
    """A job rendered from the store: done, and the session's render lease renewed."""
    _done(job, rows, db)
    lane, owner, until = lease
    db.execute(update(LANES).where(LANES.c.lane == lane, LANES.c.owner == owner).values(leased_until=until))


def settle_fresh(
    session_id: str,
    version: int,
    rows: list[dict[str, Any]],
    owner: str,
    db: Session,
    *,
    shown: Shown | None = None,
) -> bool:
    """A job rendered from memory right after its step, kept only if it is its session's first job
    and no other process is rendering the session (False: left to the delivery's pass). `shown`: a
    kept message the answer already redrew, recorded first whatever becomes of the job (it is true
    of Discord either way), so the row that would edit it again finds it showing that."""
    if shown is not None:
        record_shown(shown, db)
    held = select(LANES.c.lane).where(
        LANES.c.lane == render_lane(session_id), LANES.c.owner != owner, LANES.c.leased_until >= utcnow()
    )
    if db.execute(held).first() is not None:
        return False
    first = db.scalars(
        select(RenderJob).where(RenderJob.session_id == session_id).order_by(RenderJob.version).limit(1)
    ).first()
    if first is None or first.version != version:
        return False
    _done(first, [*rows, *extra_rows(first)], db)
    return True


def failed(session_id: str, version: int, error: str, db: Session) -> float | None:
    """A job that failed to render: counted, and tried again after a growing pause (returned; None
    if the job was rendered meanwhile)."""
    job = db.scalars(
        select(RenderJob).where(RenderJob.session_id == session_id, RenderJob.version == version)
    ).first()
    if job is None:
        return None
    wait = backoff(job.attempts + 1)
    job.attempts += 1
    job.next_attempt_at = utcnow() + timedelta(seconds=wait)
    job.last_error = error[:ERROR_CHARS]
    return wait


def with_extra(session_id: str, version: int, payloads: list[str]) -> Update:
    """Messages rendered in the step's own transaction (a result's): sent after the step's."""
    return (
        update(JOBS)
        .where(JOBS.c.session_id == session_id, JOBS.c.version == version)
        .values(extra=json.dumps(payloads))
    )


def extras_only(session_id: str, version: int, payloads: list[str]) -> Insert:
    """A job with no step, only messages already rendered (a cancellation's): they keep their place
    behind the session's steps still to render."""
    return insert(JOBS).values(
        session_id=session_id, version=version, before=None, extra=json.dumps(payloads)
    )
