"""Hostile names on every page: display names, the server's name, warbands, missions, a season and a
night, each a script tag, an attribute break-out, an RTL override, a template expression. Every one is
shown as text (escaped by the templates), names are isolated (`<bdi>`, or FSI…PDI in a title), and
every response carries the Content-Security-Policy and sets no cookie. Events too: a played one, one
with sealed lists and a cancelled one, each named with an attack, its players the hostile names."""

from __future__ import annotations

from html.parser import HTMLParser

from icalendar import Calendar

from tests.web.event_seed import seed_events
from tests.web.seed import FIRST, HOSTILE, HOSTILE_GUILD, IMAGE, RTL, SCRIPT, TEMPLATE, Hostile, seed_hostile
from tests.web.site import running_site

FSI, PDI = "\u2068", "\u2069"


class Texts(HTMLParser):
    """Every tag opened and every piece of text, with the elements it sits in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[tuple[str, tuple[str, ...]]] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in ("meta", "link", "br", "img", "input", "circle", "polyline"):
            self._open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self._open:
            while self._open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.texts.append((data, tuple(self._open)))


def pages(hostile: Hostile) -> list[str]:
    base = f"/g/{hostile.guild_id}"
    players = [f"{base}/player/{user}" for user in hostile.names]
    return [base, f"{base}?lang=de", f"{base}/results", f"{base}/nights", f"{base}/events", *players]


def assert_safe(body: str, path: str) -> None:
    parsed = Texts()
    parsed.feed(body)
    tags = {tag for tag, _attrs in parsed.tags}
    assert not tags & {"script", "img", "iframe", "object", "embed"}, (path, tags)
    assert "svg" not in tags or path.count("/player/"), (path, "an svg outside the chart")
    for tag, attrs in parsed.tags:
        events = [name for name in attrs if name.startswith("on")]
        assert not events, (path, tag, events)
        links = [value for value in attrs.values() if (value or "").lower().startswith("javascript:")]
        assert not links, (path, tag, links)
    for text, inside in parsed.texts:
        if RTL in text:
            isolated = "bdi" in inside or (text.count(FSI) >= 1 and text.index(FSI) < text.index(RTL))
            assert isolated, (path, text, inside)
    assert "private note" not in body, (path, "a sign-up's note is shown")


EVENT_NAMES = (f"{SCRIPT} Open", f"{IMAGE} Cup {RTL}", f"{TEMPLATE} Weekend")


async def test_hostile_names_are_text_on_every_page(database_url: str) -> None:
    events = seed_events(HOSTILE_GUILD, [FIRST + i for i in range(len(HOSTILE))], names=EVENT_NAMES)
    async with running_site(database_url, seed_hostile, events) as site:
        hostile: Hostile = site.seeded[0]
        for path in pages(hostile):
            response = await site.client.get(path)
            body = await response.text()
            assert response.status == 200, (path, body[:300])
            assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
            assert "Set-Cookie" not in response.headers
            assert_safe(body, path)
        league = await (await site.client.get(f"/g/{hostile.guild_id}")).text()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in league
        assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in league
        assert "{{ 7*7 }}{% raw %}" in league
        shown = await (await site.client.get(f"/g/{hostile.guild_id}/events")).text()
        assert "<bdi>&lt;script&gt;alert(1)&lt;/script&gt; Open</bdi>" in shown  # played to the end
        assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt; Cup" in shown  # sealed lists
        assert "<bdi>{{ 7*7 }}{% raw %} Weekend</bdi>" in shown  # cancelled
        assert 'data-tiebreak="sos"' in shown  # the standings are there, names and all
        results = await (await site.client.get(f"/g/{hostile.guild_id}/results")).text()
        for faction in hostile.factions:
            assert faction.replace("<", "&lt;").replace(">", "&gt;").split(" warband")[0][-6:] in results


async def test_hostile_night_in_the_calendar_is_plain_text(database_url: str) -> None:
    async with running_site(database_url, seed_hostile) as site:
        hostile: Hostile = site.seeded
        response = await site.client.get(f"/g/{hostile.guild_id}/nights.ics")
        assert response.status == 200
        assert response.headers["Content-Security-Policy"]
        feed = Calendar.from_ical(await response.read())
        summaries = [str(event["SUMMARY"]) for event in feed.walk("VEVENT")]
        assert summaries == [hostile.night_title]
        assert "private note" not in (await response.read()).decode()


async def test_every_response_has_the_policy(database_url: str) -> None:
    """Pages, the feed, the stylesheet, the health check, a 404 and a 429 alike."""
    async with running_site(database_url, seed_hostile, muster_web_rate=0.001, muster_web_burst=12) as site:
        hostile: Hostile = site.seeded
        paths = [
            *pages(hostile)[:5],
            f"/g/{hostile.guild_id}/nights.ics",
            "/static/site.css",
            "/health",
            "/g/1",
            "/nothing/here",
        ]
        statuses = []
        for path in [*paths, *paths]:  # the second round runs out of the burst: 429s
            response = await site.client.get(path)
            statuses.append(response.status)
            assert response.headers.get("Content-Security-Policy"), path
            assert response.headers.get("X-Content-Type-Options") == "nosniff", path
            assert "Set-Cookie" not in response.headers, path
        assert 429 in statuses and 404 in statuses and 200 in statuses
        assert SCRIPT not in str(statuses) and len(HOSTILE) == 6
