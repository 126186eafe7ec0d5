"""Render jobs on their own (bot/play/jobs.py): a step's events and the questions answered for a
player load back as they were, and a job is rendered once and in order whichever process gets to it,
on every engine."""

from __future__ import annotations

import random
from datetime import timedelta
from functools import partial

import pytest

from bot.db.models import GameSession, OutboxMessage, RenderJob, utcnow
from bot.db.store import Store
from bot.migrate import upgrade
from bot.play import jobs
from bot.play.table import AutoAnswer
from rules.dice import Roller
from rules.pick.procedure import PROCEDURE, start
from rules.session import Answer, Question
from rules.words import Words

SID = "abcdefabcdef"


def test_a_steps_events_and_auto_answers_load_back_as_they_were() -> None:
    roller = Roller(random.Random(7))
    state, events = start(SID, [1, 2], roller)
    [asked] = PROCEDURE.ask(state, 1)
    value = asked.options[0].value
    later, more = PROCEDURE.answer(
        state, Answer(actor=1, step=asked.step, values=[value], nonce="n" * 16), roller
    )
    stored = PROCEDURE.dump_events([*events, *more])
    assert PROCEDURE.load_events(stored) == [*events, *more]
    assert [type(e) for e in PROCEDURE.load_events(stored)] == [type(e) for e in [*events, *more]]
    question = Question(
        step="s", topic="t", title=Words("Take {what}", "muster", values={"what": 3}), players=[1]
    )
    auto = [AutoAnswer(1, question, "x"), AutoAnswer(2, asked, value)]
    loaded = jobs.load_auto(jobs.dump_auto(auto))
    assert loaded == auto and loaded[0].question.title.domain == "muster"
    assert later.session_id == SID


async def _store(url: str) -> Store:
    store = Store.from_url(url)
    await upgrade(store.engine)
    async with store.write() as db:
        db.add(
            GameSession(
                id=SID,
                guild_id=1,
                channel_id=2,
                system="pick",
                organiser_id=1,
                player_a=1,
                player_b=2,
                state="{}",
                version=3,
            )
        )
        for version in (2, 3):
            db.add(RenderJob(session_id=SID, version=version, before="{}", events="[]", auto="[]"))
    return store


async def _outbox(store: Store) -> list[str]:
    async with store.read() as db:
        return [
            str(p)
            for p in await db.scalars(
                OutboxMessage.__table__.select().with_only_columns(OutboxMessage.payload)
            )
        ]


async def test_a_job_is_rendered_once_whichever_process_gets_to_it(database_url: str) -> None:
    store = await _store(database_url)
    try:
        until = utcnow() + timedelta(seconds=30)
        claimed = await store.run_write(partial(jobs.claim_jobs, SID, "one", until))
        assert claimed is not None and [j.version for j in claimed.jobs] == [2, 3]
        assert await store.run_write(partial(jobs.claim_jobs, SID, "two", until)) is None  # leased
        # The process answering the click may not render a step behind another's lease.
        rows = [{"session_id": SID, "payload": '{"content": "two"}'}]
        assert not await store.run_write(partial(jobs.settle_fresh, SID, 2, rows, "two"))
        first = claimed.jobs[0]
        lease = (jobs.render_lane(SID), "one", until)
        await store.run_write(
            partial(jobs.settle, first, [{"session_id": SID, "payload": '{"content": "a"}'}], lease)
        )
        with pytest.raises(jobs.AlreadyRendered):  # rendered already: the second attempt keeps nothing
            await store.run_write(
                partial(jobs.settle, first, [{"session_id": SID, "payload": '{"content": "b"}'}], lease)
            )
        assert await _outbox(store) == ['{"content": "a"}']
        # Only a session's first job is rendered: version 3 now, not before.
        assert not await store.run_write(partial(jobs.settle_fresh, SID, 9, rows, "one"))
        assert await store.run_write(
            partial(jobs.settle_fresh, SID, 3, [{"session_id": SID, "payload": "{}"}], "one")
        )
        assert await _outbox(store) == ['{"content": "a"}', "{}"]
    finally:
        await store.close()


async def test_a_failing_job_holds_back_its_sessions_later_jobs_only(database_url: str) -> None:
    store = await _store(database_url)
    try:
        async with store.write() as db:
            db.add(RenderJob(session_id="bbbbbbbbbbbb", version=2, before="{}", events="[]", auto="[]"))
        wait = await store.run_write(partial(jobs.failed, SID, 2, "RuntimeError('a bug')"))
        assert wait == jobs.backoff(1) == 2.0
        now = utcnow()
        assert await store.run(partial(jobs.due_sessions, now, False)) == ["bbbbbbbbbbbb"]
        assert await store.run(partial(jobs.due_sessions, now, True)) == [SID, "bbbbbbbbbbbb"]
        later = now + timedelta(seconds=3)
        assert await store.run(partial(jobs.due_sessions, later, False)) == [SID, "bbbbbbbbbbbb"]
        assert jobs.backoff(30) == jobs.LONGEST_WAIT
    finally:
        await store.close()
