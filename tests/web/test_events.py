"""The events page over real HTTP: an event played through the events' rules and stored as the events
service stores it shows the rounds, the standings `/event standings` draws (`table_of`), the top cut and
its winner; a sealed list shows neither its faction nor its text; hidden members stay hidden; a
cancelled event is marked; and any step of an event changes the pages' ETag."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from icalendar import Calendar
from sqlalchemy import update

from bot.db.engine import make_sessionmaker
from bot.db.models import ClubEvent
from bot.db.store import Store
from bot.events.rounds import table_of
from bot.web.members import MemberNames
from rules.event.actions import Join
from rules.event.machine import apply
from rules.event.rounds import champion
from rules.event.state import EventState
from tests.web.browser.club import Club, seed_club
from tests.web.event_seed import SEALED_FACTION, SEALED_TEXT, seed_events
from tests.web.site import running_site

ROW = re.compile(r'<tr data-rank="(\d+)" data-player="(\d+)" data-points="(\d+)" data-record="([0-9-]+)"')
BREAK = re.compile(r'<td class="num wide" data-tiebreak="([a-z_]+)">([^<]*)</td>')
GAME = re.compile(
    r'<tr data-table="(\d+)" data-first="(\d+)"(?: data-second="(\d+)")?(?: data-score="(\d+)-(\d+)")?'
)
ROUND = re.compile(r'<section class="round" data-round="(\d+)"')


def players_of(club: Club) -> list[int]:
    return [club.player(i) for i in range(6)]


def section(html: str, event_id: str) -> str:
    """The part of the page that shows one event (up to the next event)."""
    start = html.index(f'data-event="{event_id}"')
    following = html.find("data-event=", start + 1)
    return html[start : following if following != -1 else len(html)]


def standings_shown(part: str) -> list[tuple[int, int, int, str, dict[str, str]]]:
    rows = []
    for chunk in part.split("<tr data-rank=")[1:]:
        match = ROW.match("<tr data-rank=" + chunk)
        assert match is not None
        breaks = dict(BREAK.findall(chunk.split("</tr>")[0]))
        rank, player, points, record = match.groups()
        rows.append((int(rank), int(player), int(points), record, breaks))
    return rows


def rounds_shown(part: str) -> dict[int, list[tuple[int, int, int | None, int | None, int | None]]]:
    shown = {}
    for chunk in part.split('<section class="round"')[1:]:
        number = int(ROUND.match('<section class="round"' + chunk).group(1))  # type: ignore[union-attr]
        games = []
        for table, first, second, a, b in GAME.findall(chunk.split("</section>")[0]):
            games.append(
                (
                    int(table),
                    int(first),
                    int(second) if second else None,
                    int(a) if a else None,
                    int(b) if b else None,
                )
            )
        shown[number] = games
    return shown


def expected_rounds(
    state: EventState,
) -> dict[int, list[tuple[int, int, int | None, int | None, int | None]]]:
    made: dict[int, list[tuple[int, int, int | None, int | None, int | None]]] = {}
    for game in sorted(state.games, key=lambda g: (g.round, g.second is None, g.table)):
        made.setdefault(game.round, []).append(
            (
                game.table if game.second is not None else 0,
                game.first,
                game.second,
                game.first_vp,
                game.second_vp,
            )
        )
    return made


async def test_rounds_standings_cut_and_winner_as_the_bot_has_them(database_url: str) -> None:
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        seeded = await seed_events(club.guild_id, players_of(club))(site.engine)
        response = await site.client.get(f"/g/{club.guild_id}/events")
        assert response.status == 200
        assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
        html = await response.text()
        state = seeded.finished
        part = section(html, state.event_id)
        table = table_of(state)  # what /event standings and the standings posts draw
        keys = [k.value for k in state.settings.scoring.tiebreakers]
        assert standings_shown(part) == [
            (
                row.rank,
                row.player,
                row.points,
                row.record(),
                {k.value: f"{row.tiebreaks.get(k, 0):g}" for k in state.settings.scoring.tiebreakers},
            )
            for row in table
        ]
        assert keys == list(dict.fromkeys(BREAK.findall(part)[i][0] for i in range(len(keys))))
        assert rounds_shown(part) == expected_rounds(state)
        assert 'data-cut="1"' in part and 'data-cut="2"' in part  # the bracket's two rounds
        winner = champion(state, table)
        assert winner is not None and f'data-winner="{winner}"' in part
        assert club.names[winner] in part.split("data-winner=")[1].split("</p>")[0]
        for player in state.lists:
            assert f"Faction {players_of(club).index(player)}" in part  # revealed to all: shown
            assert f"list text {players_of(club).index(player)}" not in html  # a list's text: never


async def test_sealed_lists_show_nothing_but_their_commitment(database_url: str) -> None:
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        seeded = await seed_events(club.guild_id, players_of(club))(site.engine)
        for lang in ("en", "de"):
            html = await (await site.client.get(f"/g/{club.guild_id}/events?lang={lang}")).text()
            assert SEALED_FACTION not in html and SEALED_TEXT not in html
            assert "nonce" not in html and "sealed-0" not in html
            part = section(html, seeded.sealed.event_id)
            for entry in seeded.sealed.lists.values():
                assert entry.commitment[:16] in part
                assert entry.commitment not in part  # only its head, as the card shows it
            assert "<table" not in part  # no rounds, no standings before round 1
        cancelled = section(html, seeded.cancelled.event_id)
        assert 'data-phase="cancelled"' in cancelled and "Abgesagt" in cancelled


async def test_hidden_members_stay_hidden_on_the_events_page(database_url: str) -> None:
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        await seed_events(club.guild_id, players_of(club))(site.engine)
        hidden = club.player(2)
        bot_store = Store.from_url(site.url)
        try:
            await MemberNames(bot_store).set_hidden(club.guild_id, hidden, True)
        finally:
            await bot_store.close()
        html = await (await site.client.get(f"/g/{club.guild_id}/events")).text()
        assert club.names[hidden] not in html
        assert f"/player/{hidden}" not in html
        assert "Hidden player" in html
        assert club.names[club.player(0)] in html and f"/player/{club.player(0)}" in html


async def test_an_event_step_changes_the_etag(database_url: str) -> None:
    """A step as the events service saves it (state, version + 1, updated_at), from another
    connection: the events page and the league page are both fresh, not a 304."""
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        seeded = await seed_events(club.guild_id, players_of(club))(site.engine)
        pages = [f"/g/{club.guild_id}/events", f"/g/{club.guild_id}"]
        tags = {}
        for path in pages:
            tags[path] = (await site.client.get(path)).headers["ETag"]
            again = await site.client.get(path, headers={"If-None-Match": tags[path]})
            assert again.status == 304
        newcomer = club.player(7)
        state, _events = apply(seeded.sealed, Join(actor=newcomer, player=newcomer))
        async with make_sessionmaker(site.engine).begin() as db:
            await db.execute(
                update(ClubEvent)
                .where(ClubEvent.id == state.event_id, ClubEvent.version == 1)
                .values(state=state.model_dump_json(), version=2, updated_at=datetime.now(UTC))
            )
        for path in pages:
            changed = await site.client.get(path, headers={"If-None-Match": tags[path]})
            assert changed.status == 200 and changed.headers["ETag"] != tags[path], path
        html = await (await site.client.get(pages[0])).text()
        assert club.names[newcomer] in section(html, state.event_id)


async def test_the_calendar_lists_upcoming_events(database_url: str) -> None:
    """The nights' feed also holds the events to come (not the cancelled one, not the one over)."""
    async with running_site(database_url, seed_club) as site:
        club: Club = site.seeded
        seeded = await seed_events(club.guild_id, players_of(club))(site.engine)
        response = await site.client.get(f"/g/{club.guild_id}/nights.ics")
        assert response.status == 200
        feed = Calendar.from_ical(await response.read())
        found = {str(e["UID"]): e for e in feed.walk("VEVENT") if str(e["UID"]).startswith("event-")}
        upcoming = seeded.sealed
        assert list(found) == [f"event-{upcoming.event_id}@{club.guild_id}.muster"]
        entry = found[f"event-{upcoming.event_id}@{club.guild_id}.muster"]
        assert str(entry["SUMMARY"]) == upcoming.settings.name
        assert entry.decoded("DTSTART") == datetime.fromtimestamp(upcoming.settings.starts_at, UTC)
        assert entry.decoded("DTEND") > entry.decoded("DTSTART")
        assert SEALED_FACTION not in (await response.read()).decode()
