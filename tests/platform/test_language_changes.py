"""Languages remembered between steps on PostgreSQL, forgotten the moment any process changes one."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.db.store import Store
from bot.guild_settings import GuildSettingsService
from bot.lang.languages import LanguageService
from bot.migrate import upgrade
from tests.databases import fresh_postgres

GUILD, ALICE, BOB = 1 << 40, 11, 12


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
