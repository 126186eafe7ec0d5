"""The outbox's pieces on their own: the nonce a row is posted with, which rows a pass may pick, and
the buttons a plain-data message may carry."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from bot.chat.limits import NONCE
from bot.chat.messages import Button
from bot.chat.outbox import Shown, due_messages, free_lane, nonce_of, record_shown, take_lane
from bot.db.models import OutboxMessage, SessionMessage, utcnow
from bot.db.store import Store
from bot.db.wakeups import Wakeups
from bot.migrate import upgrade
from tests.databases import fresh_postgres

ids = st.integers(min_value=1, max_value=2**63 - 1)
times = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC))


@given(ids, times)
def test_a_nonce_fits_discords_limit(row_id: int, created_at: datetime) -> None:
    assert 0 < len(nonce_of(row_id, created_at)) <= NONCE


@given(ids, ids, times)
def test_rows_made_at_the_same_moment_get_different_nonces(a: int, b: int, created_at: datetime) -> None:
    if a != b:
        assert nonce_of(a, created_at) != nonce_of(b, created_at)


@given(st.integers(min_value=1, max_value=10**9), times, st.integers(min_value=1, max_value=10**6))
def test_a_row_id_used_again_by_a_new_database_gets_another_nonce(
    row_id: int, created_at: datetime, later_ms: int
) -> None:
    assert nonce_of(row_id, created_at) != nonce_of(row_id, created_at + timedelta(milliseconds=later_ms))


async def test_a_backing_off_row_holds_back_its_sessions_later_rows_only(tmp_path: Path) -> None:
    store = Store.from_url(f"sqlite+aiosqlite:///{tmp_path / 'outbox.sqlite3'}")
    await upgrade(store.engine)
    later = utcnow() + timedelta(minutes=1)
    rows = [
        ("aaaaaaaaaaaa", None),  # 1: game A's head, due
        ("bbbbbbbbbbbb", later),  # 2: game B's head, backing off
        ("aaaaaaaaaaaa", None),  # 3
        ("bbbbbbbbbbbb", None),  # 4: behind B's head
        (None, None),  # 5: no session
        (None, later),  # 6: no session, backing off
    ]
    try:
        async with store.write() as db:
            for session_id, next_attempt_at in rows:
                db.add(OutboxMessage(session_id=session_id, payload="{}", next_attempt_at=next_attempt_at))
        picked = await store.run(due_messages)
        assert [row.id for row in picked] == [1, 3, 5]
    finally:
        await store.close()


def test_a_button_answers_a_question_or_goes_to_its_own_custom_id() -> None:
    assert Button(label="Go", step="r1.end", value="yes").custom_id is None
    assert Button(label="Confirm", custom_id="score:1:confirm").step == ""
    for wrong in (
        {"label": "Nowhere"},
        {"label": "No value", "step": "r1.end"},
        {"label": "Both", "step": "r1.end", "value": "yes", "custom_id": "score:1:confirm"},
        {"label": "Session-like", "custom_id": "s:abcdefabcdef:go:"},
        {"label": "Question-like", "custom_id": "q:abcdefabcdef:r1.end:yes"},
        {"label": "Too long", "custom_id": "x" * 101},
    ):
        with pytest.raises(ValidationError):
            Button.model_validate(wrong)


async def test_a_lane_is_held_by_one_process_until_it_lets_go_or_its_lease_ends(
    database_url: str,
) -> None:
    store = Store.from_url(database_url)
    await upgrade(store.engine)
    soon, later = utcnow() + timedelta(minutes=1), utcnow() + timedelta(minutes=2)
    try:
        assert await store.run_write(partial(take_lane, "aaaaaaaaaaaa", "host:shards 0", soon))
        assert not await store.run_write(partial(take_lane, "aaaaaaaaaaaa", "host:shards 1", soon))
        assert await store.run_write(partial(take_lane, "bbbbbbbbbbbb", "host:shards 1", soon))  # its own
        assert await store.run_write(partial(take_lane, "aaaaaaaaaaaa", "host:shards 0", later))  # renewed
        await store.run_write(partial(free_lane, "aaaaaaaaaaaa", "host:shards 1"))  # not its lane: no-op
        assert not await store.run_write(partial(take_lane, "aaaaaaaaaaaa", "host:shards 1", soon))
        await store.run_write(partial(free_lane, "aaaaaaaaaaaa", "host:shards 0"))
        assert await store.run_write(partial(take_lane, "aaaaaaaaaaaa", "host:shards 1", soon))
        # A holder that died: once its lease has run out, anyone may take the lane over.
        expired = utcnow() - timedelta(seconds=1)
        assert await store.run_write(partial(take_lane, "cccccccccccc", "dead:shards 2", expired))
        assert await store.run_write(partial(take_lane, "cccccccccccc", "host:shards 0", soon))
    finally:
        await store.close()


async def test_a_lane_taken_by_many_at_once_goes_to_one(database_url: str) -> None:
    stores = [Store.from_url(database_url) for _ in range(4)]
    await upgrade(stores[0].engine)
    until = utcnow() + timedelta(minutes=1)
    try:
        taken = await asyncio.gather(
            *(s.run_write(partial(take_lane, "aaaaaaaaaaaa", f"p{i}", until)) for i, s in enumerate(stores))
        )
        assert sorted(taken) == [False, False, False, True]
    finally:
        for s in stores:
            await s.close()


async def test_a_process_stopping_wakes_the_others_on_postgresql() -> None:
    async with fresh_postgres() as url:
        woken = asyncio.Event()
        here = Wakeups(make_url(url), lambda _payload: None)
        there = Wakeups(make_url(url), lambda _payload: woken.set())
        await here.start()
        await there.start()
        try:
            assert not woken.is_set()
            await here.notify()
            await asyncio.wait_for(woken.wait(), 5)
        finally:
            await here.stop()
            await there.stop()


async def test_what_an_answer_redrew_is_recorded_only_over_what_it_knew_the_message_showed(
    database_url: str,
) -> None:
    """`record_shown` (bot/play/in_place.py): recorded when the kept message still shows what the
    answer knew; not when the outbox edited it meanwhile, nor when the key names another message."""
    store = Store.from_url(database_url)
    await upgrade(store.engine)

    def keep(shown: str | None, message_id: int = 7) -> Callable[[Session], None]:
        def write(db: Session) -> None:
            kept = {"session_id": "aaaaaaaaaaaa", "key": "board", "channel_id": 1}
            db.merge(SessionMessage(**kept, message_id=message_id, shown=shown))

        return write

    async def shown_now() -> str | None:
        kept = await store.run(lambda db: db.get(SessionMessage, ("aaaaaaaaaaaa", "board")))
        assert kept is not None
        return kept.shown

    def redrew(before: str | None, message_id: int = 7) -> Callable[[Session], None]:
        return partial(record_shown, Shown("aaaaaaaaaaaa", "board", message_id, "new", before))

    try:
        await store.run_write(keep("old"))
        await store.run_write(redrew("old"))
        assert await shown_now() == "new"
        await store.run_write(keep("edited meanwhile"))
        await store.run_write(redrew("old"))
        assert await shown_now() == "edited meanwhile"  # the step's own edit still goes out
        await store.run_write(keep(None))
        await store.run_write(redrew(None, message_id=8))  # the board was posted afresh since
        assert await shown_now() is None
        await store.run_write(redrew(None))
        assert await shown_now() == "new"
    finally:
        await store.close()
