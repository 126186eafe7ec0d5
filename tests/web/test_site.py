"""The site's pages over real HTTP (aiohttp's test server) on SQLite and PostgreSQL: what a server
chose to show and nothing else, the league in `/scores leaderboard`'s order, hidden members, the one
404, ETags and 304s, the rate limit, the languages and the health check."""

from __future__ import annotations

import re

from icalendar import Calendar
from sqlalchemy import select, update

from bot.db.engine import make_sessionmaker
from bot.db.models import GameResult, GuildSettings, Season
from bot.db.store import Store
from bot.guild_settings import GuildSettingsService
from bot.scores.cache import bump_generation
from bot.web.members import MemberNames
from rules.scores import ResultStatus, replay, standings
from tests.web.browser.club import Club, seed_club
from tests.web.site import Running, running_site

NEVER_ENABLED = 999_000_000_000_000_001


async def body_of(site: Running, path: str, **headers: str) -> tuple[int, str]:
    response = await site.client.get(path, headers=headers)
    return response.status, await response.text()


def ranked_players(html: str) -> list[int]:
    return [int(found) for found in re.findall(r'<tr data-rank="\d+" data-player="(\d+)"', html)]


async def running_season(site: Running, guild_id: int) -> int:
    other = Store.from_url(site.url)
    try:
        async with other.read() as db:
            found = await db.scalar(
                select(Season.id).where(Season.guild_id == guild_id, Season.ended_at.is_(None))
            )
    finally:
        await other.close()
    assert found is not None
    return int(found)


async def test_league_is_the_leaderboard(database_url: str) -> None:
    """Same order and ratings as `/scores leaderboard`: the running season by default, all time and
    a system on request; other servers' games never count."""
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        season = await running_season(site, club.guild_id)
        records = club.results
        for query, system, season_id in (
            ("", None, season),
            ("?season=all", None, None),
            ("?system=warcry&season=all", "warcry", None),
            (f"?system=killteam&season={season}", "killteam", season),
        ):
            status, html = await body_of(site, f"/g/{club.guild_id}{query}")
            assert status == 200, html[:200]
            expected = standings(records, replay(records, system), system=system, season_id=season_id)
            assert ranked_players(html) == [row.player for row in expected], query
            ratings = [int(r) for r in re.findall(r'class="num" data-rating="(\d+)"', html)]
            assert ratings == [row.rating.display for row in expected], query
            assert "Cellar" not in html and "Secret" not in html


async def test_player_page_record_and_chart(database_url: str) -> None:
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        player = club.player(2)
        status, html = await body_of(site, f"/g/{club.guild_id}/player/{player}")
        assert status == 200
        counted = sorted(
            (r for r in club.results if r.counts and r.involves(player)), key=lambda r: r.order_key
        )
        ledger = replay(club.results)
        expected = []
        for result in counted:
            change = ledger.change(result.id)
            assert change is not None
            expected.append(next(c for c in change if c.player == player).after.display)
        points = [int(v) for v in re.findall(r'<circle class="point"[^>]* data-rating="(\d+)"', html)]
        assert points == expected
        after = [int(v) for v in re.findall(r'data-rating-after="(\d+)"', html)]
        assert after == list(reversed(expected))  # the table is newest first
        wins = sum(r.winner == player for r in counted)
        draws = sum(r.winner is None for r in counted)
        assert f'data-wdl="{wins}-{draws}-{len(counted) - wins - draws}"' in html
        assert club.names[player] in html


async def test_servers_not_shown_are_one_404(database_url: str) -> None:
    """Unknown, never enabled, disabled, malformed: the same bytes, naming nothing."""
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        never = Store.from_url(site.url)
        try:
            await GuildSettingsService(never).update(NEVER_ENABLED, language="de")
        finally:
            await never.close()
        paths = [
            "/g/123",
            f"/g/{NEVER_ENABLED}",
            f"/g/{club.private_guild_id}",
            f"/g/{club.private_guild_id}/results",
            f"/g/{club.private_guild_id}/nights.ics",
            f"/g/{club.private_guild_id}/player/{club.player(0)}",
            "/g/not-a-number",
            f"/g/{club.guild_id}/player/123",  # no results here
            f"/g/{club.guild_id}?season=Winter",  # no such season
            f"/g/{club.guild_id}?system=blood-bowl",
            "/elsewhere",
        ]
        bodies = set()
        for path in paths:
            response = await site.client.get(path)
            assert response.status == 404, path
            assert response.headers["Content-Security-Policy"]
            bodies.add(await response.read())
        assert len(bodies) == 1
        body = bodies.pop().decode()
        assert str(club.private_guild_id) not in body and "Secret Cellar" not in body


async def test_turning_the_site_off_hides_it_at_once(database_url: str) -> None:
    """`/settings web off` in a bot process (its own connection to the store): the very next
    request is a 404, even one that brings the ETag of the page it had."""
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        page = f"/g/{club.guild_id}"
        first = await site.client.get(page)
        assert first.status == 200
        etag = first.headers["ETag"]
        bot_store = Store.from_url(site.url)
        try:
            settings = GuildSettingsService(bot_store)
            await settings.update(club.guild_id, web_public=False)
            assert (await site.client.get(page, headers={"If-None-Match": etag})).status == 404
            assert (await site.client.get(f"{page}/nights.ics")).status == 404
            await settings.update(club.guild_id, web_public=True)
            assert (await site.client.get(page)).status == 200
        finally:
            await bot_store.close()


async def test_etag_and_304_until_something_changes(database_url: str) -> None:
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        page = f"/g/{club.guild_id}?season=all"
        first = await site.client.get(page)
        etag = first.headers["ETag"]
        assert first.headers["Cache-Control"].startswith("public")
        again = await site.client.get(page, headers={"If-None-Match": etag})
        assert again.status == 304 and await again.read() == b""
        assert again.headers["Content-Security-Policy"]
        extra = await site.client.get(f"{page}&utm=%3Cscript%3E")  # ignored: same page, not reflected
        assert extra.headers["ETag"] == etag and "utm" not in await extra.text()
        other_language = await site.client.get(f"{page}&lang=fr", headers={"If-None-Match": etag})
        assert other_language.status == 200
        # A result confirmed by the bot (another connection): the page changes, and so does its tag.
        sessions = make_sessionmaker(site.engine)
        async with sessions.begin() as db:
            target = await db.scalar(
                select(GameResult.id).where(
                    GameResult.guild_id == club.guild_id, GameResult.status == ResultStatus.DISPUTED.value
                )
            )
            await db.execute(
                update(GameResult).where(GameResult.id == target).values(status=ResultStatus.CONFIRMED.value)
            )
            await bump_generation(db, club.guild_id)
        changed = await site.client.get(page, headers={"If-None-Match": etag})
        assert changed.status == 200 and changed.headers["ETag"] != etag


async def test_hidden_member_is_not_named_and_has_no_page(database_url: str) -> None:
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        player = club.player(1)
        name = club.names[player]
        bot_store = Store.from_url(site.url)
        try:
            await MemberNames(bot_store).set_hidden(club.guild_id, player, True)
        finally:
            await bot_store.close()
        for path in ("?season=all", "/results", f"/player/{club.player(0)}"):
            status, html = await body_of(site, f"/g/{club.guild_id}{path}")
            assert status == 200
            assert name not in html, path
            assert f"/player/{player}" not in html, path
        assert "Hidden player" in (await body_of(site, f"/g/{club.guild_id}?season=all"))[1]
        assert (await body_of(site, f"/g/{club.guild_id}/player/{player}"))[0] == 404


async def test_language_of_the_server_and_the_switch(database_url: str) -> None:
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        status, html = await body_of(site, f"/g/{club.guild_id}")
        assert status == 200 and '<html lang="en">' in html
        sessions = make_sessionmaker(site.engine)
        async with sessions.begin() as db:
            await db.execute(
                update(GuildSettings).where(GuildSettings.guild_id == club.guild_id).values(language="fr")
            )
        _status, html = await body_of(site, f"/g/{club.guild_id}")
        assert '<html lang="fr">' in html and "Ligue" in html
        _status, html = await body_of(site, f"/g/{club.guild_id}?lang=es")
        assert '<html lang="es">' in html and "Liga" in html
        assert f'href="/g/{club.guild_id}/results?lang=es"' in html  # the choice follows the links
        _status, html = await body_of(site, f"/g/{club.guild_id}?lang=xx")
        assert '<html lang="fr">' in html


async def test_nights_and_calendar(database_url: str) -> None:
    async with running_site(database_url, seed_club, muster_web_base_url="https://league.example") as site:
        club: Club = site.seeded
        status, html = await body_of(site, f"/g/{club.guild_id}/nights")
        assert status == 200
        for night in club.nights:
            assert night.title in html
            assert f'data-signed-up="{night.signed_up}"' in html
        assert "Cellar night" not in html
        assert f"https://league.example/g/{club.guild_id}/nights.ics" in html
        response = await site.client.get(f"/g/{club.guild_id}/nights.ics")
        assert response.headers["Content-Type"].startswith("text/calendar")
        feed = Calendar.from_ical(await response.read())
        events = list(feed.walk("VEVENT"))
        assert sorted(str(e["SUMMARY"]) for e in events) == sorted(n.title for n in club.nights)
        for event in events:
            assert event.decoded("DTSTART").tzinfo is not None
            assert event["DTSTART"].to_ical().endswith(b"Z")
            assert event["UID"] and event["DTSTAMP"]
        status, html = await body_of(site, f"/g/{club.guild_id}/events")
        assert status == 200 and "No events yet." in html


async def test_rate_limit_and_health(database_url: str) -> None:
    async with running_site(database_url, seed_club, muster_web_rate=0.01, muster_web_burst=3) as site:
        club: Club = site.seeded
        statuses = [(await site.client.get(f"/g/{club.guild_id}")).status for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        limited = await site.client.get(f"/g/{club.guild_id}")
        assert limited.status == 429 and int(limited.headers["Retry-After"]) >= 1
        health = await site.client.get("/health")
        assert health.status == 200 and (await health.json()) == {"status": "ok"}
