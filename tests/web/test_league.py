"""The league without loading every result: the store's sums and stored rating snapshots give exactly
the table the pure standings give, a restarted site reads the snapshot instead of replaying, and a
snapshot is never used once the results moved on (even when written behind the bot's back)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select, update

from bot.db.engine import make_engine
from bot.db.models import GameResult, RatingSnapshot
from bot.db.store import Store
from bot.migrate import upgrade
from bot.web.queries import Club, SiteData
from rules.scores import ResultStatus, replay, standings
from rules.scores.standings import tallies
from tests.web.browser.club import Club as Seeded
from tests.web.browser.club import seed_club


async def seeded_site(database_url: str) -> tuple[Seeded, Store]:
    engine = make_engine(database_url)
    await upgrade(engine)
    seeded = await seed_club(engine)
    return seeded, Store(engine)


async def shown(data: SiteData, guild_id: int) -> Club:
    club = await data.club(guild_id)
    assert club is not None
    return club


async def test_sums_and_ratings_give_the_standings(database_url: str) -> None:
    seeded, store = await seeded_site(database_url)
    try:
        data = SiteData(store)
        club = await shown(data, seeded.guild_id)
        for system in (None, "killteam", "warcry"):
            for season in (None, seeded.running_season):
                got = await data.league_reader.tallies(seeded.guild_id, system, season)
                assert got == tallies(
                    r
                    for r in seeded.results
                    if r.counts
                    and r.system in (system or r.system)
                    and (season is None or r.season_id == season)
                )
            league = await data.league(club, system, "all")
            assert league is not None
            expected = standings(seeded.results, replay(seeded.results, system), system=system)
            assert league.standings == expected
    finally:
        await data.league_reader.settle()
        await store.close()


async def test_a_restarted_site_reads_the_snapshot_and_never_a_stale_one(database_url: str) -> None:
    seeded, store = await seeded_site(database_url)
    try:
        first = SiteData(store)
        club = await shown(first, seeded.guild_id)
        before = await first.league(club, None, "all")
        await first.league_reader.settle()
        async with store.read() as db:
            stored = list(
                await db.scalars(
                    select(RatingSnapshot.scope).where(RatingSnapshot.guild_id == seeded.guild_id)
                )
            )
        assert stored == [""]
        restarted = SiteData(store)  # a new process: nothing kept in memory
        again = await restarted.league(await shown(restarted, seeded.guild_id), None, "all")
        assert again is not None and before is not None
        assert again.standings == before.standings
        assert restarted.results.books == {}  # no result was loaded, no rating replayed
        # A result confirmed behind the bot's back (no generation bump): the snapshot is not used.
        async with store.write() as db:
            await db.execute(
                update(GameResult)
                .where(GameResult.guild_id == seeded.guild_id, GameResult.status == "disputed")
                .values(status=ResultStatus.CONFIRMED.value, confirmed_at=datetime.now(UTC))
            )
        now_confirmed = [
            r
            if r.counts or r.status is not ResultStatus.DISPUTED
            else r.model_copy(update={"status": ResultStatus.CONFIRMED})
            for r in seeded.results
        ]
        later = SiteData(store)
        after = await later.league(await shown(later, seeded.guild_id), None, "all")
        assert after is not None and after.standings == standings(now_confirmed, replay(now_confirmed))
        assert after.standings != before.standings
        await later.league_reader.settle()
    finally:
        await store.close()


async def test_the_warm_up_stores_every_scope_for_the_next_start(database_url: str) -> None:
    from bot.web.app import warm_up

    seeded, store = await seeded_site(database_url)
    try:
        data = SiteData(store)
        await warm_up(data, after=0)
        await data.league_reader.settle()
        async with store.read() as db:
            scopes = sorted(
                await db.scalars(
                    select(RatingSnapshot.scope).where(RatingSnapshot.guild_id == seeded.guild_id)
                )
            )
        assert scopes == ["", "killteam", "warcry"]
        restarted = SiteData(store)
        league = await restarted.league(await shown(restarted, seeded.guild_id), "warcry", "all")
        assert league is not None and restarted.results.books == {}
        assert league.standings == standings(
            seeded.results, replay(seeded.results, "warcry"), system="warcry"
        )
    finally:
        await store.close()


async def test_ratings_stored_by_the_bot_serve_the_sites_first_page(database_url: str) -> None:
    """`/settings web on` stores the ratings from the bot's own cache (`store_ratings`): the site's
    very first league page of that server, in any scope, replays nothing and shows the same table."""
    from bot.scores.cache import ResultCache
    from bot.web.league import store_ratings

    seeded, store = await seeded_site(database_url)
    try:
        await store_ratings(store, ResultCache(store), seeded.guild_id)
        site = SiteData(store)
        club = await shown(site, seeded.guild_id)
        for system in (None, "killteam", "warcry"):
            league = await site.league(club, system, "all")
            assert league is not None
            assert league.standings == standings(
                seeded.results, replay(seeded.results, system), system=system
            )
        assert site.results.books == {}
    finally:
        await store.close()
