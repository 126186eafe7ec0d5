"""The league site in a real browser: Debian's chromium driven by Playwright (never a downloaded one).

One browser and one seeded site for the module. A visitor opens the club's league, clicks through to
a player, whose rating chart must show one point per counted game with the ratings the results give;
switches the language; subscribes to the calendar (parsed with `icalendar`); finds hostile names shown
as text that runs nothing; reads an event's standings; sees light and dark schemes; every response
carries the Content-Security-Policy. Screenshots at phone and desktop widths are written to
build/screenshots/ (league-desktop.png, league-phone.png, player-desktop.png, player-phone.png,
league-phone-dark.png, events-desktop.png, events-phone.png) for review. Without /usr/bin/chromium
(`.ci/run` installs it) the module is skipped with one line.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from icalendar import Calendar
from playwright.sync_api import BrowserContext, Page, Playwright, Response, sync_playwright

from bot.events.rounds import table_of
from bot.lang.i18n import LOCALE_DIR
from rules.event.rounds import champion
from rules.scores import replay, standings
from tests.web.browser.club import HOSTILE, Club, seed_club_with_events
from tests.web.browser.served import Served, served_site

CHROMIUM = Path(os.environ.get("MUSTER_CHROMIUM", "/usr/bin/chromium"))
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[3]
SCREENSHOTS = ROOT / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("web-browser")
    with served_site(f"sqlite+aiosqlite:///{folder / 'muster.sqlite3'}", seed_club_with_events) as served:
        yield served


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[BrowserContext]:
    """One chromium for the module, with a user-data directory of its own (nothing kept after)."""
    with tempfile.TemporaryDirectory(prefix="muster-chromium-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            headless=True,
            viewport=DESKTOP,
            locale="en-GB",
        )
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser: BrowserContext, site: Served) -> Iterator[Page]:
    """A fresh tab whose every response from the site is kept (`page.responses`) for header checks."""
    tab = browser.new_page()
    responses: list[Response] = []

    def seen(response: Response) -> None:
        if response.url.startswith(site.base_url):
            responses.append(response)

    tab.on("response", seen)
    tab.responses = responses  # type: ignore[attr-defined]
    try:
        yield tab
    finally:
        tab.close()


def club_of(site: Served) -> Club:
    club: Club = site.seeded
    return club


def assert_csp_everywhere(page: Page) -> None:
    responses: list[Response] = page.responses  # type: ignore[attr-defined]
    assert responses, "no response from the site was seen"
    for response in responses:
        policy = response.header_value("content-security-policy")
        assert policy, f"{response.url} has no Content-Security-Policy"
        assert "default-src 'none'" in policy or "default-src 'self'" in policy, policy
        assert "script-src *" not in policy and "'unsafe-inline'" not in policy.split("style-src")[0], policy
        assert not response.header_value("set-cookie"), f"{response.url} sets a cookie"


def chart_points(page: Page) -> list[int]:
    """The ratings the player's chart plots, in the order drawn (each point says its value)."""
    points = page.locator("svg [data-rating]")
    return [int(value) for value in points.evaluate_all("nodes => nodes.map(n => n.dataset.rating)")]


def expected_chart(club: Club, player: int, system: str | None = None) -> list[int]:
    """The player's rating after each of their counted games (overall, or in one system), from the
    results alone."""
    ledger = replay(club.results, system)
    counted = sorted(
        (r for r in club.results if r.counts and r.involves(player) and system in (None, r.system)),
        key=lambda r: r.order_key,
    )
    ratings = []
    for result in counted:
        change = ledger.change(result.id)
        assert change is not None
        ratings.append(next(c for c in change if c.player == player).after.display)
    return ratings


def german_words() -> set[str]:
    """Every German translation in the site's catalogue that differs from its English."""
    with (LOCALE_DIR / "de" / "LC_MESSAGES" / "web.po").open("rb") as handle:
        catalog = read_po(handle)
    words = set()
    for message in catalog:
        if message.id and isinstance(message.id, str) and isinstance(message.string, str):
            if message.string and message.string != message.id and "{" not in message.string:
                words.add(message.string)
    return words


def test_league_to_player_chart(page: Page, site: Served) -> None:
    """From the league table to a player: the chart's points are the ratings their results give."""
    club = club_of(site)
    page.goto(f"{site.base_url}/g/{club.guild_id}")
    assert page.title(), "the league page has no title"
    body = page.locator("body").inner_text()
    assert club.server_name in body
    assert "Secret Cellar" not in body and "Cellar " not in body
    # The running season's table, ranked and rated as /scores leaderboard ranks and rates it.
    expected = standings(club.results, replay(club.results), season_id=club.running_season)
    rows = page.locator("table.league tbody tr")
    # Discord ids are past JavaScript's exact integers: read them as text.
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.player)") == [str(s.player) for s in expected]
    shown = rows.locator("[data-rating]").evaluate_all("cells => cells.map(c => Number(c.dataset.rating))")
    assert shown == [s.rating.display for s in expected]
    leader = page.locator("table a[href*='/player/']").first
    name = leader.inner_text().strip()
    assert name in club.names.values()
    player = next(user for user, known in club.names.items() if known == name)
    leader.click()
    page.wait_for_url(re.compile(rf"/g/{club.guild_id}/player/{player}"))
    assert name in page.locator("h1").inner_text()
    points = chart_points(page)
    assert points, "the player's chart has no points"
    assert points == expected_chart(club, player)
    counted = [r for r in club.results if r.counts and r.involves(player)]
    wins = sum(r.winner == player for r in counted)
    draws = sum(r.winner is None for r in counted)
    record = page.locator("[data-wdl]").first.get_attribute("data-wdl")
    assert record == f"{wins}-{draws}-{len(counted) - wins - draws}"
    # One system's chart: that system's ratings only.
    page.goto(f"{page.url.split('?')[0]}?system=killteam")
    in_one_system = expected_chart(club, player, "killteam")
    assert in_one_system and len(in_one_system) < len(points)
    assert chart_points(page) == in_one_system
    assert_csp_everywhere(page)


def test_language_switch(page: Page, site: Served) -> None:
    """The switch on the league page turns the site German, and keeps it German on the next page."""
    club = club_of(site)
    page.goto(f"{site.base_url}/g/{club.guild_id}")
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator("a[hreflang='de']").first.click()
    page.wait_for_url(re.compile(r"lang=de"))
    assert page.locator("html").get_attribute("lang") == "de"
    text = page.locator("body").inner_text()
    shown = {word for word in german_words() if word in text}
    assert len(shown) >= 3, f"too little German on the page: {sorted(shown)}"
    page.locator("a[href*='/player/']").first.click()
    assert page.locator("html").get_attribute("lang") == "de"
    assert_csp_everywhere(page)


def test_calendar_subscription(page: Page, site: Served) -> None:
    """The nights page's subscribe link gives a valid iCalendar feed of the club's upcoming nights."""
    club = club_of(site)
    page.goto(f"{site.base_url}/g/{club.guild_id}/nights")
    text = page.locator("body").inner_text()
    for night in club.nights:
        assert night.title in text
    assert "Cellar night" not in text
    for night in club.nights:
        card = page.locator(f"[data-night='{night.night_id}']")
        assert card.get_attribute("data-signed-up") == str(night.signed_up)
    link = page.locator("a[href$='nights.ics']").first.get_attribute("href")
    assert link is not None and link.startswith(site.base_url), link
    feed = page.request.get(link)  # the address a phone's calendar subscribes to, as given
    assert feed.ok
    assert feed.headers["content-type"].startswith("text/calendar")
    assert feed.headers.get("content-security-policy")
    calendar = Calendar.from_ical(feed.body())
    events = {str(event["SUMMARY"]): event for event in calendar.walk("VEVENT")}
    assert set(events) >= {night.title for night in club.nights}
    assert "Cellar night" not in events
    for night in club.nights:
        event = events[night.title]
        assert event.decoded("DTSTART") == night.starts_at
        assert event.get("UID") and event.get("DTSTAMP")
    assert_csp_everywhere(page)


def test_other_pages_and_hidden_server(page: Page, site: Served) -> None:
    """Results and events pages load with the policy; a server that never opted in is a bare 404."""
    club = club_of(site)
    for path in ("results", "events"):
        response = page.goto(f"{site.base_url}/g/{club.guild_id}/{path}")
        assert response is not None and response.status == 200
    hidden = page.goto(f"{site.base_url}/g/{club.private_guild_id}")
    assert hidden is not None and hidden.status == 404
    body = page.content()
    assert "Secret Cellar" not in body and "Cellar" not in body and str(club.private_guild_id) not in body
    unknown = page.goto(f"{site.base_url}/g/123")
    assert unknown is not None and unknown.status == 404
    assert_csp_everywhere(page)


def test_events_standings(page: Page, site: Served) -> None:
    """From the league to the events page: the finished event's standings table is the one
    `/event standings` draws (rank, name, faction, W-D-L, points in its order), its winner is named,
    and a sealed list's faction is nowhere; a click on a player there opens their page."""
    club = club_of(site)
    assert club.events is not None
    state = club.events.finished
    page.goto(f"{site.base_url}/g/{club.guild_id}")
    page.get_by_role("link", name=re.compile("^Events$")).first.click()
    page.wait_for_url(re.compile(r"/events$"))
    event = page.locator(f'[data-event="{state.event_id}"]')
    rows = event.locator("table.standings tbody tr")
    shown = [
        [cell.strip() for cell in row]
        for row in rows.evaluate_all("rows => rows.map(r => [...r.cells].slice(0, 5).map(c => c.innerText))")
    ]
    expected = [
        [
            str(row.rank),
            club.names[row.player],
            state.faction_shown(row.player),
            row.record(),
            str(row.points),
        ]
        for row in table_of(state)
    ]
    assert shown == expected
    winner = champion(state, table_of(state))
    assert winner is not None and event.locator(".champion").inner_text().endswith(club.names[winner])
    assert "Secret Faction" not in page.locator("body").inner_text()
    event.locator("table.standings a.player").first.click()
    page.wait_for_url(re.compile(r"/player/\d+$"))
    assert_csp_everywhere(page)


def test_hostile_names_stay_text(page: Page, site: Served) -> None:
    """Names, warbands and a night's title that are markup show as the text typed, run nothing, add
    no element, and a right-to-left override stays inside its own name."""
    club = club_of(site)
    base = f"{site.base_url}/g/{club.hostile_guild_id}"
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    player = club.player(0)
    for path in ("", f"/player/{player}", f"/player/{club.player(1)}", "/results", "/nights"):
        response = page.goto(base + path)
        assert response is not None and response.status == 200, path
        assert page.evaluate("window.pwned") is None, f"a name ran as script on {path or '/'}"
        assert page.locator("script, img, iframe, object, embed, main svg[onload]").count() == 0, path
        assert page.locator("[onerror], [onload]").count() == 0, path
        text = page.locator("body").inner_text()
        assert "<script>" in text, f"the server's name is not shown as typed on {path or '/'}"
    assert dialogs == []
    page.goto(f"{base}/player/{player}")
    text = page.locator("body").inner_text()
    assert HOSTILE["player"] in text and HOSTILE["warband"] in text
    page.goto(f"{base}/nights")
    assert HOSTILE["night"] in page.locator("body").inner_text()
    # The override is closed inside the element that holds the name: the text after it reads as typed.
    page.goto(f"{base}/player/{club.player(1)}")
    isolated = page.locator("bdi", has_text="evil").first.evaluate(
        "e => e.closest('bdi') !== null && getComputedStyle(e).unicodeBidi"
    )
    assert isolated in ("isolate", "bidi-override", "plaintext", "-webkit-isolate")
    assert_csp_everywhere(page)


def test_screenshots(browser: BrowserContext, site: Served) -> None:
    """League, player and events pages at phone and desktop widths, written to build/screenshots/."""
    club = club_of(site)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    player = club.player(0)
    pages = {
        "league": f"/g/{club.guild_id}",
        "player": f"/g/{club.guild_id}/player/{player}",
        "events": f"/g/{club.guild_id}/events",
    }
    for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        tab = browser.new_page()
        tab.set_viewport_size(viewport)
        try:
            for name, path in pages.items():
                tab.goto(f"{site.base_url}{path}")
                overflow = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 1, f"{name} page scrolls sideways by {overflow}px at {width} width"
                # Every table wholly in view: no column hidden behind the table's own scroll.
                widest = tab.locator("table").evaluate_all(
                    "tables => Math.max(0, ...tables.map(t => t.scrollWidth - t.parentElement.clientWidth))"
                )
                assert widest <= 1, f"a table of the {name} page is {widest}px wider than a {width} screen"
                target = SCREENSHOTS / f"{name}-{width}.png"
                tab.screenshot(path=str(target), full_page=True)
                assert target.stat().st_size > 1000
        finally:
            tab.close()


def brightness(css_color: str) -> float:
    """0 (black) to 255 (white): the mean of an rgb()/rgba() colour's channels."""
    channels = [float(part) for part in re.findall(r"[\d.]+", css_color)[:3]]
    assert len(channels) == 3, css_color
    return sum(channels) / 3


def test_light_and_dark(browser: BrowserContext, site: Served) -> None:
    """The page follows the visitor's colour scheme: dark text on light, light text on dark."""
    club = club_of(site)
    tab = browser.new_page()
    tab.set_viewport_size(PHONE)
    seen = {}
    try:
        for scheme in ("light", "dark"):
            tab.emulate_media(color_scheme=scheme)
            tab.goto(f"{site.base_url}/g/{club.guild_id}")
            colours = tab.evaluate(
                "() => { const s = getComputedStyle(document.body); return [s.backgroundColor, s.color]; }"
            )
            seen[scheme] = (brightness(colours[0]), brightness(colours[1]))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(SCREENSHOTS / "league-phone-dark.png"), full_page=True)
    finally:
        tab.close()
    light_background, light_text = seen["light"]
    dark_background, dark_text = seen["dark"]
    assert light_background > 180 and light_text < 100, seen
    assert dark_background < 80 and dark_text > 150, seen
