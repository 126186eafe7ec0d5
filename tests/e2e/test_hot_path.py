"""The hot path: a `/roll` (or a `/rolloff`) asks the store nothing while its reader's language has
not changed, and its audit row is written later, with others, in one statement.

Every statement the bot's store sends is counted (`Statements`): SQLAlchemy's, on every engine the
store has; the SQLite step writer's, by its connection's trace; the PostgreSQL fast path's, one per
call (each of its calls is one statement). The background sweeps are set an hour apart so that only
what the interactions cause is counted.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, func, select

from bot.app import MusterBot
from bot.db.models import DiceRoll
from bot.db.store import Store
from bot.web.members import MemberNames
from tests.e2e.conftest import Muster
from tests.emulator import DefaultWorld, Emulator, discord_globals_restored
from tests.emulator.harness import ErrorRecords

QUIET_HOUR = 3600.0
FAST_PATH = ("version_of", "languages_of", "apply")


class Statements:
    """The statements a store sends while counting (their SQL, or the fast path's call)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def __len__(self) -> int:
        return len(self.sent)

    def __repr__(self) -> str:
        return repr(self.sent)

    def _cursor(self, _c: Any, _cur: Any, statement: str, _p: Any, _ctx: Any, _many: bool) -> None:
        self.sent.append(statement)

    @contextmanager
    def counting(self, store: Store) -> Iterator[Statements]:
        engines = [store.engine.sync_engine]
        if store.dialect == "sqlite":
            engines.append(store._sync_engine)
        for engine in engines:
            event.listen(engine, "before_cursor_execute", self._cursor)
        writer = store._step_writer
        if writer is not None:
            writer._connect().set_trace_callback(self.sent.append)
        fast = store._fast
        if fast is not None:
            for name in FAST_PATH:
                setattr(fast, name, self._counted(name, getattr(fast, name)))
        try:
            yield self
        finally:
            for engine in engines:
                event.remove(engine, "before_cursor_execute", self._cursor)
            if writer is not None:
                writer._connect().set_trace_callback(None)
            if fast is not None:
                for name in FAST_PATH:
                    delattr(fast, name)

    def _counted(self, name: str, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any) -> Any:
            self.sent.append(f"fast path: {name}")
            return await call(*args)

        return counted


@pytest.fixture
async def quiet_muster(
    emu: Emulator, world: DefaultWorld, database_url: str, logged_errors: ErrorRecords
) -> AsyncIterator[Muster]:
    """The bot with its background sweeps an hour apart: every statement counted is an interaction's."""
    with discord_globals_restored():
        harness = Muster(emu, world, database_url, sweep_seconds=QUIET_HOUR)
        bot = await harness.start()
        await store_quiet(bot.store)
        try:
            yield harness
        finally:
            await harness.stop()
    assert not logged_errors.records, f"errors logged:\n{logged_errors.describe()}"
    assert not emu.invalid_requests, f"rejected requests: {[r.response for r in emu.invalid_requests]!r}"


async def store_quiet(store: Store, quiet: float = 0.5, limit: float = 20.0) -> None:
    """Wait until the bot's start-up passes (the first sweeps, the ratings' warm-up) are over: no
    statement for `quiet` seconds."""
    with Statements().counting(store) as statements:
        async with asyncio.timeout(limit):
            while True:
                seen = len(statements)
                await asyncio.sleep(quiet)
                if len(statements) == seen:
                    return


async def audited(bot: MusterBot) -> int:
    async with bot.store.read() as db:
        return int(await db.scalar(select(func.count()).select_from(DiceRoll)) or 0)


async def roll(muster: Muster, locale: str | None = None) -> str:
    w = muster.world
    record = await muster.emu.slash(w.alice, w.channel, "roll", dice="3d6+2", locale=locale)
    answer = await record.response()
    assert re.search(r"Total: \*\*\d+\*\*", answer.content), answer.content
    return answer.content


async def settled(muster: Muster) -> None:
    """Every locale and member name seen stored and the rolls so far audited: nothing left that the
    store owes."""
    assert muster.bot is not None
    await muster.settle()
    await muster.bot.dice.flush()
    for cog in muster.bot.cogs.values():
        if isinstance(names := getattr(cog, "members", None), MemberNames):
            await names.settle()


async def changes_heard(bot: MusterBot) -> None:
    """On PostgreSQL, wait until this process has heard of every language change committed so far
    (each makes it forget what it read): notifications arrive in commit order, so one more is sent
    and waited for. Nothing to wait for on SQLite."""
    service = bot.languages
    if not service.changes.enabled:
        return
    heard = service._heard
    await service.changes.notify()
    for _ in range(100):
        if service._heard > heard:
            return
        await asyncio.sleep(0.05)
    raise TimeoutError("the language notification never came")


async def warm(muster: Muster, locale: str | None = None) -> None:
    """A first roll (this process learns the reader's locale and the server's choice, and stores
    what changed) and a first roll-off (it sees the opponent's display name once, and stores it for
    the league site, off the answer's path), everything it owed written, then one more once every
    change is heard."""
    assert muster.bot is not None
    w = muster.world
    await roll(muster, locale)
    await (await muster.emu.slash(w.alice, w.channel, "rolloff", opponent=w.bob, locale=locale)).response()
    await settled(muster)
    await changes_heard(muster.bot)
    await roll(muster, locale)
    await settled(muster)


async def test_a_roll_asks_the_store_nothing_while_no_language_changed(quiet_muster: Muster) -> None:
    muster, bot = quiet_muster, quiet_muster.bot
    assert bot is not None
    w = muster.world
    bot.dice.audit_delay = QUIET_HOUR  # nothing written on a timer while counting
    await warm(muster)
    before = await audited(bot)

    with Statements().counting(bot.store) as statements:
        for _ in range(10):
            await roll(muster)
        rolloff = await (await muster.emu.slash(w.alice, w.channel, "rolloff", opponent=w.bob)).response()
        assert "wins" in rolloff.content
        await bot.languages.settle()
    assert not statements, statements

    with Statements().counting(bot.store) as statements:
        await bot.dice.flush()  # the eleven waiting rolls' rows: one statement for all
    inserts = [s for s in statements.sent if "dice_rolls" in s]
    assert inserts and all(s.lstrip().upper().startswith("INSERT") for s in inserts), statements
    if bot.store._step_writer is not None:  # SQLite's trace shows an executemany's every row
        assert [s for s in statements.sent if s not in inserts] == ["BEGIN IMMEDIATE", "COMMIT"]
    else:
        assert len(inserts) == 1, statements  # an executemany is one statement to SQLAlchemy
    assert await audited(bot) >= before + 10 + 1  # a row per /roll (its three dice), one or more per roll-off


async def test_a_reader_whose_language_changed_is_stored_once(quiet_muster: Muster) -> None:
    muster, bot = quiet_muster, quiet_muster.bot
    assert bot is not None
    bot.dice.audit_delay = QUIET_HOUR
    await warm(muster)

    with Statements().counting(bot.store) as statements:
        await roll(muster, locale="de")  # Alice's Discord now speaks German: stored, once
        await bot.languages.settle()
    assert any("user_locales" in s for s in statements.sent), statements
    await changes_heard(bot)  # on PostgreSQL every process forgets then, this one too
    await roll(muster, locale="de")  # which reads once more

    with Statements().counting(bot.store) as statements:
        for _ in range(5):
            await roll(muster, locale="de")
        await bot.languages.settle()
    assert not statements, statements


async def test_an_audit_row_is_written_on_its_own_after_the_delay(quiet_muster: Muster) -> None:
    muster, bot = quiet_muster, quiet_muster.bot
    assert bot is not None
    await roll(muster)
    await settled(muster)
    before = await audited(bot)
    bot.dice.audit_delay = 0.2
    await roll(muster)
    for _ in range(100):  # nobody asks for it: the timer writes it (within 5 s)
        if await audited(bot) > before:
            break
        await asyncio.sleep(0.05)
    assert await audited(bot) == before + 1


async def test_rolls_still_waiting_are_written_on_a_clean_shutdown(quiet_muster: Muster) -> None:
    muster, bot = quiet_muster, quiet_muster.bot
    assert bot is not None
    bot.dice.audit_delay = QUIET_HOUR
    await roll(muster)
    await settled(muster)
    before = await audited(bot)
    for _ in range(3):
        await roll(muster)
    bot = await muster.restart()  # closes the bot (its dice service writes what waits), starts anew
    assert await audited(bot) == before + 3
