"""A game step's write: the fast SQLite form and the one-statement PostgreSQL form store exactly
what the portable form stores.

The forms run against real databases built by the migrations (PostgreSQL where one is named).
The fast forms must also refuse a stale version and roll back a failed step whole; the SQLite one,
when another process holds SQLite's write lock, must leave the event loop free while it waits.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import select, text

from bot.db.models import DiceRoll, GameSession, OutboxMessage, RenderJob
from bot.db.step_write import StepWrite
from bot.db.store import Store
from bot.migrate import upgrade
from tests.databases import fresh_postgres

AT = datetime(2026, 11, 22, 10, 30, 15, 123456, tzinfo=UTC)


async def _store(path: Path | str) -> Store:
    store = Store.from_url(path if isinstance(path, str) else f"sqlite+aiosqlite:///{path}")
    await upgrade(store.engine)
    async with store.write() as db:
        db.add(
            GameSession(
                id="abcdefabcdef",
                guild_id=1,
                channel_id=2,
                system="killteam",
                organiser_id=10,
                player_a=10,
                player_b=20,
                state='{"v": 1}',
                version=1,
                status="open",
                reminded_at=datetime(2026, 1, 1, tzinfo=UTC),
            )
        )
    return store


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """(fast, portable): the same start on two files, one writing through each form."""
    fast = await _store(tmp_path / "fast.sqlite3")
    portable = await _store(tmp_path / "portable.sqlite3")
    portable._step_writer = None  # what every other backend does
    try:
        yield fast, portable
    finally:
        await fast.close()
        await portable.close()


def _write(version: int = 1, **changes: Any) -> StepWrite:
    values: dict[str, Any] = {
        "session_id": "abcdefabcdef",
        "expected_version": version,
        "state": '{"v": 2, "text": "Sealed \\u2014 caf\\u00e9"}',
        "version": version + 1,
        "status": "open",
        "at": AT,
        "dice": [
            {
                "guild_id": 1,
                "channel_id": 2,
                "user_id": 10,
                "session_id": "abcdefabcdef",
                "reason": "roll-off",
                "notation": "d6",
                "results": "[4]",
            }
        ],
        "outbox": [
            {"session_id": "abcdefabcdef", "payload": '{"content": "Alice has sealed"}'},
            {"session_id": "abcdefabcdef", "payload": '{"content": "second"}'},
        ],
        "jobs": [  # one row, as a step's render job is: on PostgreSQL a parameter per column
            {
                "session_id": "abcdefabcdef",
                "version": version + 1,
                "before": '{"v": 1, "text": "caf\\u00e9 \\"quoted\\""}',
                "events": '[["sealed", {"by": 10}]]',
                "auto": "[]",
            }
        ],
    }
    values.update(changes)
    return StepWrite(**values)


async def _stored(store: Store) -> dict[str, Any]:
    """Every row a step touches, as the ORM reads it back; creation stamps apart under "created"."""
    async with store.read() as db:
        session = await db.get(GameSession, "abcdefabcdef")
        assert session is not None
        dice = (await db.scalars(select(DiceRoll).order_by(DiceRoll.id))).all()
        outbox = (await db.scalars(select(OutboxMessage).order_by(OutboxMessage.id))).all()
        jobs = (await db.scalars(select(RenderJob).order_by(RenderJob.id))).all()
        return {
            "session": (
                session.state,
                session.version,
                session.status,
                session.updated_at,
                session.reminded_at,
            ),
            "dice": [(d.id, d.guild_id, d.user_id, d.reason, d.notation, d.results) for d in dice],
            "outbox": [
                (m.id, m.session_id, m.payload, m.delivered_at, m.attempts, m.next_attempt_at) for m in outbox
            ],
            "jobs": [
                (
                    j.id,
                    j.session_id,
                    j.version,
                    j.before,
                    j.events,
                    j.auto,
                    j.extra,
                    j.attempts,
                    j.next_attempt_at,
                )
                for j in jobs
            ],
            "created": [d.created_at for d in dice]
            + [m.created_at for m in outbox]
            + [j.created_at for j in jobs],
        }


async def test_the_fast_form_stores_exactly_what_the_portable_form_stores(
    stores: tuple[Store, Store],
) -> None:
    fast, portable = stores
    assert fast._step_writer is not None
    for store in (fast, portable):
        assert await store.commit_step(_write(status_changes=False))  # the fast form leaves status be
        assert (await _stored(store))["session"][2] == "open"
        assert await store.commit_step(_write(version=2, dice=[], status="finished"))
    fast_rows, portable_rows = await _stored(fast), await _stored(portable)
    assert fast_rows["session"] == ('{"v": 2, "text": "Sealed \\u2014 caf\\u00e9"}', 3, "finished", AT, None)
    assert [row[4] for row in fast_rows["outbox"]] == [0, 0, 0, 0]  # the column default, filled in
    # Rows are created at the step's own time on the fast form, at "now" on the portable one.
    assert fast_rows.pop("created") == [AT] * 7
    assert all(stamp.tzinfo is not None for stamp in portable_rows.pop("created"))
    assert fast_rows == portable_rows


LATER = datetime(2026, 11, 22, 11, 0, 0, 654321, tzinfo=UTC)
OWN_COLUMNS = {"attempts": 2, "next_attempt_at": LATER, "created_at": LATER}
"""Columns a row may give itself that a step's rows usually leave to their defaults: a constant
default, a time with no default, and the time a row is stamped with."""


def _with_own_columns() -> StepWrite:
    """A step whose render job (one row) and outbox rows (two) give their own values for columns
    the fast forms otherwise fill in: what each row gives is stored, the rest filled in as ever."""
    written = _write()
    job = {**written.jobs[0], **OWN_COLUMNS}
    outbox = [{**written.outbox[0], **OWN_COLUMNS}, {**written.outbox[1], **OWN_COLUMNS}]
    return _write(jobs=[job], outbox=outbox)


async def _both_keep_their_own_columns(fast: Store, portable: Store) -> None:
    """A fast form and the portable one each store `_with_own_columns()`, alike, as given."""
    for store in (fast, portable):
        assert await store.commit_step(_with_own_columns())
    fast_rows, portable_rows = await _stored(fast), await _stored(portable)
    assert [(m[4], m[5]) for m in fast_rows["outbox"]] + [(j[7], j[8]) for j in fast_rows["jobs"]] == [
        (2, LATER)
    ] * 3
    assert fast_rows.pop("created")[1:] == portable_rows.pop("created")[1:] == [LATER] * 3  # not the dice
    assert fast_rows == portable_rows


async def test_the_fast_form_stores_the_columns_a_row_gives_itself(
    stores: tuple[Store, Store], tmp_path: Path
) -> None:
    await _both_keep_their_own_columns(*stores)
    # Times are compared as SQLite stores them (text, in queries such as what is due): the same text.
    stored_times = (
        "SELECT next_attempt_at, created_at FROM outbox "
        "UNION ALL SELECT next_attempt_at, created_at FROM render_jobs"
    )
    texts = []
    for name in ("fast", "portable"):
        with sqlite3.connect(tmp_path / f"{name}.sqlite3") as reader:
            texts.append(reader.execute(stored_times).fetchall())
    assert texts[0] == texts[1]


async def test_a_stale_version_writes_nothing(stores: tuple[Store, Store]) -> None:
    fast, _ = stores
    before = await _stored(fast)
    assert not await fast.commit_step(_write(version=7))
    assert await _stored(fast) == before
    assert await fast.commit_step(_write())
    assert not await fast.commit_step(_write())  # the same version twice: only the first applies
    assert (await _stored(fast))["session"][1] == 2


async def test_a_step_that_fails_halfway_leaves_nothing_behind(stores: tuple[Store, Store]) -> None:
    fast, _ = stores
    before = await _stored(fast)
    broken = _write(outbox=[{"session_id": "abcdefabcdef", "payload": None}])  # NOT NULL: fails last
    with pytest.raises(sqlite3.IntegrityError):
        await fast.commit_step(broken)
    assert await _stored(fast) == before
    assert await fast.commit_step(_write())  # and the writer is usable afterwards


async def test_a_lock_held_by_another_process_is_waited_for_off_the_loop(
    stores: tuple[Store, Store], tmp_path: Path
) -> None:
    fast, _ = stores
    other = sqlite3.connect(tmp_path / "fast.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process is writing
    waited_a_while = asyncio.Event()
    longest_hold = 0.0

    async def loop_turns() -> None:
        """Count the loop's turns until the step is stored, and the longest time between two."""
        nonlocal longest_hold
        last, turns = time.monotonic(), 0
        while step is None or not step.done():
            await asyncio.sleep(0)
            now = time.monotonic()
            longest_hold, last, turns = max(longest_hold, now - last), now, turns + 1
            if turns == 50:
                waited_a_while.set()

    step: asyncio.Task[bool] | None = None
    turning = asyncio.create_task(loop_turns())  # first, so it sees the step's first turn too
    step = asyncio.create_task(fast.commit_step(_write()))
    await waited_a_while.wait()
    assert not step.done()  # it can't finish while the other process holds the lock
    other.execute("COMMIT")
    assert await asyncio.wait_for(step, 5)
    await turning
    other.close()
    # Waiting on the loop would hold it for SQLite's whole busy timeout (seconds): the step waits in
    # a thread instead, and the loop only ever pauses for the step's own short pieces of work.
    assert longest_hold < 1.0, longest_hold
    assert (await _stored(fast))["session"][1] == 2


@pytest.fixture
async def postgres_stores() -> AsyncIterator[tuple[Store, Store]]:
    """(one statement, portable) on two fresh PostgreSQL databases."""
    async with fresh_postgres() as one_url, fresh_postgres() as other_url:
        one, portable = await _store(one_url), await _store(other_url)
        portable._fast = None  # the portable form in a transaction
        try:
            yield one, portable
        finally:
            await one.close()
            await portable.close()


async def test_the_one_statement_form_stores_exactly_what_the_portable_form_stores(
    postgres_stores: tuple[Store, Store],
) -> None:
    one, portable = postgres_stores
    assert one._fast is not None
    for store in (one, portable):
        assert await store.commit_step(_write())
        assert not await store.commit_step(_write())  # stale: nothing more
        assert await store.commit_step(_write(version=2, dice=[], status="finished"))
    one_rows, portable_rows = await _stored(one), await _stored(portable)
    assert one_rows["session"] == ('{"v": 2, "text": "Sealed \\u2014 caf\\u00e9"}', 3, "finished", AT, None)
    assert [row[2] for row in one_rows["outbox"]] == [
        '{"content": "Alice has sealed"}',
        '{"content": "second"}',
    ] * 2  # in the order given
    assert [job[2:5] for job in one_rows["jobs"]] == [
        (v, _write().jobs[0]["before"], '[["sealed", {"by": 10}]]') for v in (2, 3)
    ]
    assert one_rows.pop("created") == [AT] * 7
    portable_rows.pop("created")
    assert one_rows == portable_rows


async def test_the_one_statement_form_stores_the_columns_a_row_gives_itself(
    postgres_stores: tuple[Store, Store],
) -> None:
    await _both_keep_their_own_columns(*postgres_stores)


async def test_the_one_statement_form_writes_nothing_when_a_row_fails(
    postgres_stores: tuple[Store, Store],
) -> None:
    one, _ = postgres_stores
    before = await _stored(one)
    broken = _write(outbox=[{"session_id": "abcdefabcdef", "payload": None}])  # NOT NULL
    with pytest.raises(asyncpg.NotNullViolationError):
        await one.commit_step(broken)
    assert await _stored(one) == before
    assert not await one.commit_step(_write(version=9))  # a stale version inserts no rows either
    assert await _stored(one) == before


async def test_a_nul_typed_by_someone_is_stored_as_a_replacement_character_on_postgresql(
    postgres_stores: tuple[Store, Store],
) -> None:
    one, portable = postgres_stores
    dice = [{**_write().dice[0], "reason": "roll\x00off"}]
    outbox = [{"session_id": "abcdefabcdef", "payload": '{"content": "a\\u0000b"}'}]
    for store in (one, portable):
        assert await store.commit_step(_write(dice=dice, outbox=outbox))
        assert (await _stored(store))["dice"][0][3] == "roll\ufffdoff"


async def test_a_step_does_not_wait_for_the_disk_but_what_renders_it_does(
    postgres_stores: tuple[Store, Store],
) -> None:
    """A step's commit on PostgreSQL does not wait for its WAL to be flushed; the render that puts
    its messages in the outbox commits on the store's ordinary connections, which do wait, and so
    flush the step's WAL too before anything of it is posted (bot/db/postgres_fast.py)."""
    one, _ = postgres_stores
    assert one._fast is not None
    pool = await one._fast._connections()
    assert await pool.fetchval("SHOW synchronous_commit") == "off"
    assert await one.commit_step(_write())  # a step through the fast path is stored all the same
    shown = await one.run_write(lambda db: db.execute(text("SHOW synchronous_commit")).scalar())
    assert shown == "on"


async def test_a_step_whose_connection_died_is_checked_and_the_next_step_takes_a_live_one(
    postgres_stores: tuple[Store, Store],
) -> None:
    """The connection the fast path holds for steps dies (a restarted server, an administrator's
    kill): the step on it is checked against what was stored and taken again, and the dead
    connection goes back to the pool, so the next step runs on a live one."""
    one, _ = postgres_stores
    assert one._fast is not None
    assert await one.commit_step(_write())
    held = one._fast._held
    assert held is not None  # the step's own connection, held for the next
    pool = await one._fast._connections()
    # True once its backend has exited (or after 5 s, then False)
    assert await pool.fetchval("SELECT pg_terminate_backend($1, 5000)", held.get_server_pid())
    assert await one.commit_step(_write(version=2))  # stored all the same, on a fresh connection
    assert one._fast._held is not None and one._fast._held is not held
    assert await one.commit_step(_write(version=3))
    assert (await _stored(one))["session"][1] == 4
