"""The site's pages. Each one: is the server shown (one indexed query, which also gives its stamp)?
Then the ETag from that stamp and the request: the browser's copy (304), this process's copy, or a
fresh render. A page is rendered from the store only when something it shows has changed."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from aiohttp import web
from jinja2 import Environment

from bot.lang.i18n import LANGUAGES, speaking
from bot.web import render as shown
from bot.web.calendar import night_feed
from bot.web.queries import Club, SiteData
from bot.web.words import (
    LANGUAGE_NAMES,
    club_title,
    games_count,
    phase_name,
    places,
    record_line,
    round_of,
    round_title,
    tiebreak_name,
    waiting,
    words,
)

CACHE_CONTROL = "public, no-cache"
"""Browsers and proxies may keep a page but ask again each time (answered 304 while it is unchanged,
for one indexed query): `/settings web off` then hides a server at once, even behind a cache."""
PAGES_KEPT = 512
ID = re.compile(r"[0-9]{1,20}")
SYSTEM = re.compile(r"[a-z0-9-]{1,32}")
SEASON_MAX = 100
QUERY = ("system", "season", "lang")


def known_query(request: web.Request) -> dict[str, str]:
    """The query parameters a page reads (any other is ignored: it neither makes another copy of a
    page nor comes back in its links)."""
    return {name: request.query[name] for name in QUERY if name in request.query}


@dataclass(frozen=True)
class Page:
    etag: str
    body: bytes
    content_type: str


class Site:
    """The pages of every shown server, over one store."""

    def __init__(self, data: SiteData, env: Environment, base_url: str) -> None:
        self.data = data
        self.env = env
        self.base_url = base_url
        self._pages: OrderedDict[str, Page] = OrderedDict()
        self._rendering: dict[tuple[str, str], asyncio.Future[Page | None]] = {}

    # ------------------------------------------------------------------ the common path

    async def serve(
        self,
        request: web.Request,
        make: Callable[[Club, str], Awaitable[tuple[bytes, str] | None]],
        *,
        hourly: bool = False,
    ) -> web.StreamResponse:
        """The page `make` renders for the request's server, through the ETag and the page cache."""
        text = request.match_info.get("guild_id", "")
        if not ID.fullmatch(text):
            raise web.HTTPNotFound()
        club = await self.data.club(int(text))
        if club is None:
            raise web.HTTPNotFound()
        asked = request.query.get("lang", "")
        lang = asked if asked in LANGUAGES else club.language
        key = f"{request.path}?{known_query(request)}|{lang}"
        hour = datetime.now(UTC).strftime("%Y%m%d%H") if hourly else ""  # what "upcoming" means moves on
        etag = '"' + hashlib.blake2b(f"{club.stamp}|{key}|{hour}".encode(), digest_size=12).hexdigest() + '"'
        if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
            return self._headers(web.Response(status=304), etag)
        page = self._pages.get(key)
        if page is None or page.etag != etag:
            page = await self._render_once(key, etag, lambda: make(club, lang), lang)
        response = web.Response(body=page.body)
        response.headers["Content-Type"] = page.content_type
        return self._headers(response, etag)

    async def _render_once(
        self, key: str, etag: str, make: Callable[[], Awaitable[tuple[bytes, str] | None]], lang: str
    ) -> Page:
        """Render a page once however many ask for it at the same moment (a screen's refresh and a
        crowd after a result): the others wait for that one render."""
        pending = self._rendering.get((key, etag))
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._rendering[(key, etag)] = pending
            try:
                with speaking(lang):
                    made = await make()
                pending.set_result(None if made is None else Page(etag, made[0], made[1]))
            except BaseException as error:
                pending.set_exception(error)
                pending.exception()  # retrieved: a failed render is the first caller's error to raise
            finally:
                del self._rendering[(key, etag)]
        page: Page | None = await asyncio.shield(pending)
        if page is None:
            raise web.HTTPNotFound()
        self._keep(key, page)
        return page

    @staticmethod
    def _headers(response: web.Response, etag: str) -> web.Response:
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] = CACHE_CONTROL
        response.headers["Vary"] = "Accept-Encoding"
        return response

    def _keep(self, key: str, page: Page) -> None:
        self._pages[key] = page
        self._pages.move_to_end(key)
        while len(self._pages) > PAGES_KEPT:
            self._pages.popitem(last=False)

    async def _html(self, club: Club, lang: str, request: web.Request, template: str, **values: Any) -> bytes:
        members = await self.data.members(club)
        w = words()
        explicit = request.query.get("lang") in LANGUAGES

        def link(path: str, **params: object) -> str:
            query = {k: v for k, v in params.items() if v not in (None, "")}
            if explicit:
                query["lang"] = lang
            return f"/g/{club.guild_id}{path}" + (f"?{urlencode(query)}" if query else "")

        switch = [
            (
                code,
                LANGUAGE_NAMES[code],
                f"{request.path}?{urlencode({**known_query(request), 'lang': code})}",
            )
            for code in LANGUAGES
        ]
        html = shown.render(
            self.env,
            template,
            w=w,
            club=club,
            title=club_title(club.name),
            lang=lang,
            switch=switch,
            link=link,
            name=shown.Names(members, w["hidden_player"]),
            dates=shown.Dates(lang, club.time_zone),
            section=template.split(".")[0],
            **values,
        )
        return html.encode("utf-8")

    # ------------------------------------------------------------------ pages

    async def league(self, request: web.Request) -> web.StreamResponse:
        system = request.query.get("system") or None
        season = request.query.get("season") or None
        if (system is not None and not SYSTEM.fullmatch(system)) or len(season or "") > SEASON_MAX:
            raise web.HTTPNotFound()

        async def make(club: Club, lang: str) -> tuple[bytes, str] | None:
            league = await self.data.league(club, system, season)
            if league is None:
                return None
            body = await self._html(club, lang, request, "league.html.j2", league=league)
            return body, "text/html; charset=utf-8"

        return await self.serve(request, make)

    async def player(self, request: web.Request) -> web.StreamResponse:
        user = request.match_info.get("user_id", "")
        system = request.query.get("system") or None
        if not ID.fullmatch(user) or (system is not None and not SYSTEM.fullmatch(system)):
            raise web.HTTPNotFound()

        async def make(club: Club, lang: str) -> tuple[bytes, str] | None:
            members = await self.data.members(club)
            hidden = members.get(int(user))
            if hidden is not None and hidden.hidden:
                return None  # a member who asked not to be shown has no page
            page = await self.data.player(club.guild_id, int(user), system)
            if page is None:
                return None
            body = await self._html(
                club,
                lang,
                request,
                "player.html.j2",
                page=page,
                user_id=int(user),
                chart=shown.chart(page.points),
                record=record_line(page.summary.wins, page.summary.draws, page.summary.losses),
                games_count=games_count,
            )
            return body, "text/html; charset=utf-8"

        return await self.serve(request, make)

    async def results(self, request: web.Request) -> web.StreamResponse:
        async def make(club: Club, lang: str) -> tuple[bytes, str] | None:
            recent = await self.data.recent(club.guild_id)
            body = await self._html(club, lang, request, "results.html.j2", results=recent)
            return body, "text/html; charset=utf-8"

        return await self.serve(request, make)

    async def nights(self, request: web.Request) -> web.StreamResponse:
        async def make(club: Club, lang: str) -> tuple[bytes, str] | None:
            nights = await self.data.nights(club.guild_id, datetime.now(UTC))
            feed = f"{self.base_url}/g/{club.guild_id}/nights.ics"
            body = await self._html(
                club,
                lang,
                request,
                "nights.html.j2",
                nights=nights,
                feed=feed,
                places=places,
                waiting=waiting,
            )
            return body, "text/html; charset=utf-8"

        return await self.serve(request, make, hourly=True)

    async def calendar(self, request: web.Request) -> web.StreamResponse:
        async def make(club: Club, lang: str) -> tuple[bytes, str] | None:
            now = datetime.now(UTC)
            nights = await self.data.nights(club.guild_id, now)
            events = await self.data.upcoming_events(club.guild_id, now)
            feed = night_feed(club.name, nights, self.base_url, club.guild_id, events)
            return feed, "text/calendar; charset=utf-8"

        return await self.serve(request, make, hourly=True)

    async def events(self, request: web.Request) -> web.StreamResponse:
        async def make(club: Club, lang: str) -> tuple[bytes, str] | None:
            events = await self.data.events(club.guild_id)
            body = await self._html(
                club,
                lang,
                request,
                "events.html.j2",
                events=events,
                phase_name=phase_name,
                tiebreak_name=tiebreak_name,
                round_title=round_title,
                round_of=round_of,
            )
            return body, "text/html; charset=utf-8"

        return await self.serve(request, make)
