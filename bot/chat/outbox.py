"""The outbox as stored: the rows owed to Discord, the lanes processes lease to send them, and
what a send leaves to record. `bot/chat/delivery.py` does the sending; see it for the guarantees.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, Table, bindparam, delete, exists, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql.elements import BindParameter

from bot.chat.limits import NONCE
from bot.chat.messages import Outgoing, to_json
from bot.db.models import GameSession, OutboxLane, OutboxMessage, RenderJob, SessionMessage, utcnow
from bot.db.upsert import claim_meta, dialect_insert
from bot.play.games import SessionInfo

BATCH = 50
LANES: Table = OutboxLane.__table__  # type: ignore[assignment]


def outbox_rows(
    info: SessionInfo | None, outgoing: list[Outgoing], *, session_id: str | None = None
) -> list[dict[str, Any]]:
    """Outbox rows for these messages. A session's own messages take `info`; `session_id` alone
    files messages of no session (a result's announcement) behind that session's, in order."""
    rows = []
    for message in outgoing:
        if message.to == "channel" and message.channel_id is None and info is None:
            raise ValueError("a message of no session says which channel it goes to")
        rows.append(
            {
                "session_id": info.id if info else session_id,
                "payload": to_json(message),
            }
        )
    return rows


async def enqueue(
    db: AsyncSession, info: SessionInfo | None, outgoing: list[Outgoing], *, session_id: str | None = None
) -> None:
    """Add messages to the outbox inside the caller's transaction (one multi-row INSERT)."""
    rows = outbox_rows(info, outgoing, session_id=session_id)
    if rows:
        await db.execute(insert(OutboxMessage), rows)


def nonce_of(row_id: int, created_at: datetime) -> str:
    """The row's nonce: its id, then its creation time so a fresh database's row 1 gets another.

    Cut to Discord's 25 characters; a 64-bit id and the "." after it always fit, so two rows never
    share one."""
    return f"o{row_id}.{int(created_at.timestamp() * 1000):x}"[:NONCE]


def lane_of(session_id: str | None, row_id: int) -> str:
    """The lane a row goes out in: its session's, or its own."""
    return session_id if session_id is not None else f"row:{row_id}"


def _take_lane(dialect: str) -> Any:
    """`take_lane`'s upsert for a dialect, built once: a lane is leased for every send, and building
    an ON CONFLICT statement took longer than running it."""
    lane, owner = bindparam("p_lane", type_=LANES.c.lane.type), bindparam("p_owner", type_=LANES.c.owner.type)
    until = bindparam("p_until", type_=LANES.c.leased_until.type)
    now = bindparam("p_now", type_=LANES.c.leased_until.type)
    statement = dialect_insert(dialect, LANES).values(lane=lane, owner=owner, leased_until=until)
    return statement.on_conflict_do_update(
        index_elements=["lane"],
        set_={"owner": owner, "leased_until": until},
        where=(LANES.c.leased_until < now) | (LANES.c.owner == owner),
    ).returning(LANES.c.lane)


TAKE_LANE = {dialect: _take_lane(dialect) for dialect in ("sqlite", "postgresql")}
FREE_LANE = delete(LANES).where(LANES.c.lane == bindparam("p_lane"), LANES.c.owner == bindparam("p_owner"))


def take_lane(lane: str, owner: str, until: datetime, db: Session) -> bool:
    """Lease a lane (True: ours until `until`): free, expired, or already ours."""
    values = {"p_lane": lane, "p_owner": owner, "p_until": until, "p_now": utcnow()}
    return db.execute(TAKE_LANE[db.get_bind().dialect.name], values).first() is not None


def free_lane(lane: str, owner: str, db: Session) -> None:
    db.execute(FREE_LANE, {"p_lane": lane, "p_owner": owner})


def lease_lane(lane: str, owner: str, until: datetime, db: Session) -> list[OutboxMessage] | None:
    """Lease a lane and read what it owes (None: another process holds it). The rows are read after
    the lease is taken, so nothing an earlier holder recorded as sent is sent again."""
    if not take_lane(lane, owner, until, db):
        return None
    return lane_rows(lane, db)


def _undelivered(where: Any) -> Select[OutboxMessage]:
    return (
        select(OutboxMessage)
        .where(where, OutboxMessage.delivered_at.is_(None))
        .order_by(OutboxMessage.id)
        .limit(BATCH)
    )


STEP_TO_RENDER = select(RenderJob.id).where(RenderJob.session_id == bindparam("p_session")).limit(1)
"""A row when a step of the session `p_session` still has its messages to render
(bot/play/rendering.py): what waits behind a game's own messages waits while it does."""

# `lane_rows`' queries, built once (a lane is read for every send; building took as long as running)
LANE_OF_A_SESSION = _undelivered(OutboxMessage.session_id == bindparam("p_session"))
LANE_OF_ONE_ROW = _undelivered(OutboxMessage.id == bindparam("p_row"))


def lane_rows(lane: str, db: Session) -> list[OutboxMessage]:
    """A lane's undelivered rows, oldest first, up to the first that is backing off and holds the
    rest back. Edits that give way (waiting out a long rate limit) are among them though not due:
    a later edit of the same message may supersede one (bot/chat/delivery.py). A session with a
    step still to render (bot/play/rendering.py) has none yet: what it renders goes first."""
    if lane.startswith("row:"):
        rows = db.scalars(LANE_OF_ONE_ROW, {"p_row": int(lane.removeprefix("row:"))})
    elif db.execute(STEP_TO_RENDER, {"p_session": lane}).first() is not None:
        return []
    else:
        rows = db.scalars(LANE_OF_A_SESSION, {"p_session": lane})
    now = utcnow()
    read = []
    for row in rows:
        if not is_due(row, now) and not row.gives_way:
            break
        read.append(row)
    return read


def is_due(row: OutboxMessage, now: datetime) -> bool:
    return row.next_attempt_at is None or row.next_attempt_at <= now


def _due_messages() -> Select[OutboxMessage]:
    """`due_messages`' query, built once: every delivery pass runs it, and building it (an aliased
    entity, two EXISTS) took longer than running it."""
    now: BindParameter[datetime] = bindparam("now")
    earlier = aliased(OutboxMessage)
    held_back = exists().where(
        earlier.session_id == OutboxMessage.session_id,
        earlier.delivered_at.is_(None),
        earlier.id < OutboxMessage.id,
        earlier.next_attempt_at > now,
        earlier.gives_way.is_(False),
    )
    return (
        select(OutboxMessage)
        .where(OutboxMessage.delivered_at.is_(None))
        .where(or_(OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= now))
        .where(~held_back)
        .where(~exists().where(RenderJob.session_id == OutboxMessage.session_id))
        .order_by(OutboxMessage.id)
        .limit(BATCH)
    )


DUE_MESSAGES = _due_messages()


def due_messages(db: Session) -> list[OutboxMessage]:
    """The oldest undelivered rows that may be sent now: due, not behind a row of their own session
    that is waiting to be tried again (unless that row gives way), nor behind a step of their
    session whose messages are still to be rendered (they go first: bot/play/rendering.py)."""
    return list(db.scalars(DUE_MESSAGES, {"now": utcnow()}))


@dataclass(frozen=True)
class Sent:
    """What a send leaves to record: a keyed message's id, and the thread a start card opened."""

    remember: SessionMessage | None = None
    thread_id: int | None = None


@dataclass(frozen=True)
class Outcome:
    """What became of one row: its new bookkeeping, and what its send left to record."""

    row_id: int
    values: dict[str, Any]
    remember: SessionMessage | None = None
    session_id: str | None = None
    thread_id: int | None = None

    @property
    def done(self) -> bool:
        return self.values["delivered_at"] is not None

    @property
    def gives_way(self) -> bool:
        """An edit waiting out a rate limit: the rows behind it go on."""
        return bool(self.values.get("gives_way"))


def record(outcome: Outcome, lease: tuple[str, str, datetime] | None, db: Session) -> None:
    """Record one row's outcome (and what its send left), renewing the lane's lease with it."""
    if outcome.remember is not None:
        db.merge(outcome.remember)
    if outcome.thread_id is not None and outcome.session_id is not None:
        db.execute(
            update(GameSession)
            .where(GameSession.id == outcome.session_id)
            .values(thread_id=outcome.thread_id)
        )
    db.execute(update(OutboxMessage).where(OutboxMessage.id == outcome.row_id).values(**outcome.values))
    if lease is not None:
        lane, owner, until = lease
        db.execute(
            update(LANES).where(LANES.c.lane == lane, LANES.c.owner == owner).values(leased_until=until)
        )


@dataclass(frozen=True)
class Shown:
    """A kept message an interaction's answer redrew itself (bot/play/in_place.py): it shows
    `shown` now, if nothing else edited it since it showed `before` (what the answer knew)."""

    session_id: str
    key: str
    message_id: int
    shown: str
    before: str | None


def record_shown(shown: Shown, db: Session) -> None:
    """Record what an answer made a kept message show, so the outbox's edit of the same is not sent.

    Only if it still shows what the answer knew it showed: had the outbox edited it meanwhile (a
    race with an earlier step's edit), the step's own edit must go out after all, so nothing is
    recorded and it does."""
    was = SessionMessage.shown.is_(None) if shown.before is None else SessionMessage.shown == shown.before
    db.execute(
        update(SessionMessage)
        .where(
            SessionMessage.session_id == shown.session_id,
            SessionMessage.key == shown.key,
            SessionMessage.message_id == shown.message_id,
            was,
        )
        .values(shown=shown.shown)
    )


def claim_once(key: str, db: Session) -> bool:
    """Take a once-only key (True: ours); whoever writes it first has it."""
    return db.execute(claim_meta(db.get_bind().dialect.name, key)).first() is not None
