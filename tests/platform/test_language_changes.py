"""Languages remembered between steps on PostgreSQL, forgotten the moment any process changes one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import asyncpg
from alembic import command
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.store import Store
from bot.guild_settings import GuildSettingsService
from bot.lang.languages import LanguageService
from bot.migrate import alembic_config, upgrade
from tests.databases import _dsn, fresh_postgres

GUILD, OTHER_GUILD, ALICE, BOB, CAROL, DAVE = 1 << 40, 1 << 41, 11, 12, 13, 14


async def until(check: Callable[[], bool], what: str) -> None:
    for _tick in range(500):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"not within 5 s: {what}")


async def test_a_change_made_by_another_process_is_spoken_from_the_next_read() -> None:
    async with fresh_postgres() as url:
        here_store, there_store = Store.from_url(url), Store.from_url(url)
        await upgrade(here_store.engine)
        here = LanguageService(here_store, lambda _guild: None)
        there = LanguageService(there_store, lambda _guild: None)
        await here.start()
        try:
            assert here.changes.listening
            await there.remember(ALICE, "de")
            await until(lambda: here._heard >= 1, "the change heard")
            first = await here.for_players(GUILD, [ALICE, BOB])
            assert (first.table, first.of(ALICE)) == ("en", "de")
            assert here._chosen == {GUILD: None} and here._stored == {ALICE: "de", BOB: None}

            # Remembered: the same question asks the store nothing more.
            reads = 0
            stored_read = here_store.languages_of

            async def counted(*args: object) -> object:
                nonlocal reads
                reads += 1
                return await stored_read(*args)  # type: ignore[arg-type]

            here_store.languages_of = counted  # type: ignore[method-assign,assignment]
            again = await here.for_players(GUILD, [ALICE, BOB])
            assert (again.table, again.of(ALICE), reads) == ("en", "de", 0)

            # Another process changes the server's language and a player's locale.
            heard = here._heard
            await GuildSettingsService(there_store).update(GUILD, language="fr")
            await until(lambda: here._heard > heard, "the server's change heard")
            assert (await here.for_players(GUILD, [ALICE])).table == "fr"
            heard = here._heard
            await there.remember(BOB, "es-ES")
            await until(lambda: here._heard > heard, "the player's change heard")
            assert (await here.for_players(GUILD, [BOB])).of(BOB) == "es"
            assert reads == 2  # each change cost one read, and only one

            # Deaf (the listening connection lost): nothing is remembered, every step reads.
            await here.changes.stop()
            assert not here.changes.listening
            await here.for_players(GUILD, [BOB])
            await here.for_players(GUILD, [BOB])
            assert reads == 4
        finally:
            await here.stop()
            await here_store.close()
            await there_store.close()


async def test_on_sqlite_one_process_remembers_and_forgets_on_its_own_changes(tmp_path: object) -> None:
    """SQLite runs one process: a /roll or a step asks the store for languages once, then not
    again until the server's choice changes; a player's new locale stored here is remembered as
    stored, and asks the store nothing."""
    store = Store.from_url(f"sqlite+aiosqlite:///{tmp_path}/languages.db")
    await upgrade(store.engine)
    here = LanguageService(store, lambda _guild: None)
    await here.start()
    reads = 0
    stored_read = store.languages_of

    async def counted(*args: object) -> object:
        nonlocal reads
        reads += 1
        return await stored_read(*args)  # type: ignore[arg-type]

    store.languages_of = counted  # type: ignore[method-assign,assignment]
    try:
        assert not here.changes.enabled and here.remembers
        assert (await here.for_players(GUILD, [ALICE])).of(ALICE) == "en"
        assert (await here.for_players(GUILD, [ALICE])).table == "en"
        assert reads == 1  # remembered: the second asked the store nothing
        await here.remember(ALICE, "de")
        assert (await here.for_players(GUILD, [ALICE])).of(ALICE) == "de"
        assert reads == 1  # the locale this process stored is remembered as stored
        await GuildSettingsService(store).update(GUILD, language="fr")
        here.changed()  # as /settings language does after storing the choice
        assert (await here.for_players(GUILD, [ALICE])).table == "fr"
        assert (await here.for_players(GUILD, [ALICE])).of(ALICE) == "de"
        assert reads == 2  # the server's change cost one read, and only one
    finally:
        await here.stop()
        await store.close()


async def test_a_locale_seen_and_not_yet_stored_is_spoken(tmp_path: object) -> None:
    """A player's interaction carries their locale, stored in the background: a game that DMs them
    before that write commits (another player starts it a moment later) speaks their language, and
    a write that fails leaves the store's answer."""
    store = Store.from_url(f"sqlite+aiosqlite:///{tmp_path}/languages.db")
    await upgrade(store.engine)
    here = LanguageService(store, lambda _guild: None)
    stored_write, held, failing = store.run_write, asyncio.Event(), False

    async def held_write(work: Callable[..., object]) -> object:
        await held.wait()
        if failing:
            raise OSError("the database went away")
        return await stored_write(work)  # type: ignore[arg-type]

    store.run_write = held_write  # type: ignore[method-assign,assignment]
    try:
        here.note(BOB, "fr")
        await asyncio.sleep(0)
        languages = await here.for_players(GUILD, [ALICE, BOB])
        assert (languages.of(BOB), languages.of(ALICE)) == ("fr", "en")
        held.set()
        await here.settle()
        assert (await here.for_players(GUILD, [BOB])).of(BOB) == "fr"
        assert (await store.languages_of(GUILD, [BOB]))[1] == {BOB: "fr"}

        held.clear()
        failing = True
        here.note(CAROL, "de")
        assert (await here.for_players(GUILD, [CAROL])).of(CAROL) == "de"
        held.set()
        await here.settle()
        assert not here._writing
        assert (await store.languages_of(GUILD, [CAROL]))[1] == {}
    finally:
        await store.close()


@dataclass
class Reads:
    """How many times a store was asked for languages (each a round trip)."""

    count: int = 0


def count_reads(store: Store) -> Reads:
    reads = Reads()
    stored_read = store.languages_of

    async def counted(*args: object) -> object:
        reads.count += 1
        return await stored_read(*args)  # type: ignore[arg-type]

    store.languages_of = counted  # type: ignore[method-assign,assignment]
    return reads


@dataclass
class Processes:
    """Two processes on one PostgreSQL database: `here` listens (and notes each payload it hears),
    `there` writes."""

    url: str
    here: LanguageService
    there: LanguageService
    reads: Reads
    heard: list[str] = field(default_factory=list)

    async def after(self, sentinel: int) -> list[str]:
        """What `here` heard up to `there` storing `sentinel`'s locale: notifications arrive in
        commit order, so anything an earlier write announced has been heard by then."""
        await self.there.remember(sentinel, "fr")
        await until(lambda: f"u:{sentinel}" in self.heard, f"user {sentinel}'s change heard")
        return self.heard


@asynccontextmanager
async def two_processes() -> AsyncIterator[Processes]:
    async with fresh_postgres() as url:
        here_store, there_store = Store.from_url(url), Store.from_url(url)
        await upgrade(here_store.engine)
        here = LanguageService(here_store, lambda _guild: None)
        there = LanguageService(there_store, lambda _guild: None)
        processes = Processes(url, here, there, count_reads(here_store))
        told = here.changes._on_wake

        def noted(payload: str) -> None:
            processes.heard.append(payload)
            told(payload)

        here.changes._on_wake = noted
        await here.start()
        try:
            assert here.changes.listening
            yield processes
        finally:
            await here.stop()
            await here_store.close()
            await there_store.close()


async def test_a_locale_seen_again_elsewhere_forgets_nothing() -> None:
    """A user's first interaction in another process upserts the locale already stored: no row is
    written, nothing is announced, and this process still answers from memory."""
    async with two_processes() as p:
        await p.there.remember(ALICE, "de")
        await until(lambda: p.heard == ["u:11"], "ALICE's first locale heard")
        assert (await p.here.for_players(GUILD, [ALICE, BOB])).of(ALICE) == "de"
        assert p.reads.count == 1
        heard = p.here._heard

        await p.there.remember(ALICE, "de")  # as a fresh process's `note` does: the same locale
        assert await p.after(CAROL) == ["u:11", "u:13"]  # ALICE's first store, then CAROL's alone
        assert p.here._heard == heard + 1
        again = await p.here.for_players(GUILD, [ALICE, BOB])
        assert (again.table, again.of(ALICE), p.reads.count) == ("en", "de", 1)


async def test_a_users_new_locale_forgets_that_user_alone() -> None:
    async with two_processes() as p:
        await p.there.remember(ALICE, "de")
        await p.after(DAVE)
        await p.here.for_players(GUILD, [ALICE, BOB])
        await p.here.for_players(OTHER_GUILD, [CAROL])
        assert p.reads.count == 2

        await p.there.remember(ALICE, "es-ES")
        await until(lambda: p.heard[-1:] == ["u:11"], "ALICE's change heard")
        assert ALICE not in p.here._stored
        assert p.here._chosen == {GUILD: None, OTHER_GUILD: None}
        assert (await p.here.for_players(GUILD, [BOB])).table == "en"
        assert (await p.here.for_players(OTHER_GUILD, [CAROL])).of(CAROL) == "en"
        assert p.reads.count == 2  # BOB, CAROL and both servers: still from memory
        assert (await p.here.for_players(GUILD, [ALICE])).of(ALICE) == "es"
        assert (await p.here.for_players(GUILD, [ALICE])).of(ALICE) == "es"
        assert p.reads.count == 3  # ALICE's new locale cost one read, and only one


async def test_a_servers_language_change_forgets_that_servers_choice_alone() -> None:
    async with two_processes() as p:
        settings = GuildSettingsService(p.there.store)
        await settings.update(GUILD, language="de")
        await p.after(CAROL)
        await p.here.for_players(GUILD, [ALICE])
        await p.here.for_players(OTHER_GUILD, [ALICE])
        assert p.reads.count == 2

        # Settings other than the language, or the language set to what it was, announce nothing.
        await settings.update(GUILD, web_public=True)
        await settings.update(GUILD, language="de")
        assert await p.after(DAVE) == ["g:1099511627776", "u:13", "u:14"]
        assert (await p.here.for_players(GUILD, [ALICE])).table == "de"
        assert p.reads.count == 2

        await settings.update(GUILD, language="fr")
        await until(lambda: p.heard[-1:] == ["g:1099511627776"], "the server's change heard")
        assert GUILD not in p.here._chosen and OTHER_GUILD in p.here._chosen and ALICE in p.here._stored
        assert (await p.here.of_server(OTHER_GUILD)) == "en"
        assert p.reads.count == 2
        assert (await p.here.for_players(GUILD, [ALICE])).table == "fr"
        assert p.reads.count == 3


async def test_an_empty_payload_forgets_everything() -> None:
    """What 0007's statement trigger sends (a process not yet upgraded, during a rolling upgrade),
    or an operator's bare NOTIFY: nothing says what changed, so nothing remembered is kept."""
    async with two_processes() as p:
        await p.here.for_players(GUILD, [ALICE])
        assert (p.here._chosen, p.here._stored) == ({GUILD: None}, {ALICE: None})
        operator = await asyncpg.connect(_dsn(p.url))
        try:
            await operator.execute("NOTIFY muster_languages")
        finally:
            await operator.close()
        await until(lambda: p.heard == [""], "the bare notification heard")
        assert (p.here._chosen, p.here._stored) == ({}, {})


def test_a_payload_not_understood_forgets_everything() -> None:
    here = LanguageService(Store.from_url("sqlite+aiosqlite://"), lambda _guild: None)
    for payload in ("", "u:", "u:x", "u:\u00b2", "x:12", "g:-1", "12"):
        here._chosen, here._stored = {GUILD: "de"}, {ALICE: "de"}
        here._heard_of(payload)
        assert (here._chosen, here._stored) == ({}, {}), payload
    here._chosen, here._stored = {GUILD: "de", OTHER_GUILD: None}, {ALICE: "de", BOB: None}
    heard = here._heard
    here._heard_of(f"u:{ALICE}")
    here._heard_of(f"g:{GUILD}")
    assert (here._chosen, here._stored) == ({OTHER_GUILD: None}, {BOB: None})
    assert here._heard == heard + 2  # a read begun before either is not remembered


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    def _downgrade(connection: Connection) -> None:
        config = alembic_config(str(engine.url))
        config.attributes["connection"] = connection
        command.downgrade(config, revision)

    async with engine.begin() as connection:
        await connection.run_sync(_downgrade)


async def _notified_by(url: str, statement: str) -> list[str]:
    """The `muster_languages` payloads one statement's commit sends."""
    listening, writing = await asyncpg.connect(_dsn(url)), await asyncpg.connect(_dsn(url))
    payloads: list[str] = []
    try:
        await listening.add_listener("muster_languages", lambda *args: payloads.append(args[-1]))
        await writing.execute(statement)
        await writing.execute("NOTIFY muster_languages, 'done'")
        await until(lambda: "done" in payloads, "the statement's notifications")
        return payloads[:-1]
    finally:
        await writing.close()
        await listening.close()


async def test_the_row_triggers_upgrade_and_downgrade() -> None:
    upsert = (
        "INSERT INTO user_locales (user_id, locale, updated_at) VALUES (11, 'de', now()) "
        "ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale "
        "WHERE user_locales.locale <> excluded.locale"
    )
    async with fresh_postgres() as url:
        store = Store.from_url(url)
        try:
            await upgrade(store.engine)
            assert await _notified_by(url, upsert) == ["u:11"]
            assert await _notified_by(url, upsert) == []  # the same locale: no row written
            await downgrade(store.engine, "0012")
            assert await _notified_by(url, upsert) == [""]  # 0007's: once per statement, naming none
            assert await _notified_by(url, "UPDATE guild_settings SET language = language") == [""]
            await upgrade(store.engine)
            assert await _notified_by(url, upsert) == []
            assert await _notified_by(url, "DELETE FROM user_locales") == ["u:11"]
        finally:
            await store.close()
