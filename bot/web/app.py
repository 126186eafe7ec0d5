"""The league web site: a small read-only aiohttp application over the bot's own database.

aiohttp is already installed with discord.py and serves this comfortably, so the site needs no other
server. It holds no truth of its own: whether a server is shown, and what changed, is read from the
store on every request, so it runs beside one bot process or many shard processes alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import logging
import pkgutil
from collections.abc import AsyncIterator
from pathlib import Path

from aiohttp import web
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import WebSettings
from bot.db.models import GuildSettings
from bot.db.store import Store
from bot.web.guard import RateLimiter, guard
from bot.web.pages import Site
from bot.web.queries import SiteData
from bot.web.render import environment

log = logging.getLogger("muster.web")

STATIC = Path(__file__).resolve().parent / "static"
WARM_AFTER = 2.0
"""Seconds after start before the ratings are replayed in the background."""
WARM_STEP_WEB = 50
"""Results replayed between two yields: small, so a page asked for meanwhile waits a few ms at most."""
STORE: web.AppKey[Store] = web.AppKey("store", Store)
SITE: web.AppKey[Site] = web.AppKey("site", Site)


def declare_games() -> None:
    """Name the games as the bot does (their titles and aliases, declared on each game's adapter in
    cogs/<game>/adapter.py) without starting a bot: the site shows "Kill Team", not "Killteam"."""
    from bot.app import EXAMPLE_COGS
    from bot.play.games import DECLARED, GameAdapter

    for found in pkgutil.iter_modules(importlib.import_module("cogs").__path__):
        package = f"cogs.{found.name}"
        if (
            not found.ispkg
            or package in EXAMPLE_COGS
            or importlib.util.find_spec(f"{package}.adapter") is None
        ):
            continue
        module = importlib.import_module(f"{package}.adapter")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, GameAdapter)
                and value.__module__ == module.__name__
                and value.procedure.system not in DECLARED
            ):
                DECLARED.register(value())


async def health(request: web.Request) -> web.Response:
    """200 while the database answers; 503 otherwise (for a load balancer or the compose file)."""
    store = request.app[STORE]
    try:
        await store.run(lambda db: db.execute(text("SELECT 1")).scalar())
    except Exception:
        log.warning("the health check could not reach the database", exc_info=True)
        return web.json_response({"status": "database unavailable"}, status=503)
    response = web.json_response({"status": "ok"})
    response.headers["Cache-Control"] = "no-store"
    return response


async def prepare(data: SiteData) -> None:
    """Run each of a league page's queries once, for no server, before the site answers: the
    database connection is opened and every statement compiled at start, not for the first visitor."""
    nobody = 0
    await data.club(nobody)
    await data.seasons.choose(nobody, None)
    await data.seasons.in_server(nobody)
    await data.league_reader.systems(nobody)
    await data.league_reader.tallies(nobody, None, None)
    await data.league_reader.version(nobody, 0)
    await data.league_reader.stored(nobody, "", "")


async def warm_up(data: SiteData, after: float = WARM_AFTER) -> None:
    """Replay the ratings of every shown server in the background, a few results at a time, so the
    first player pages after a start are served as quickly as the next, and store each scope's
    ratings (once per results version) for the league pages of the next start. It starts a moment
    after the site does: league pages with stored ratings need no replay and go first."""
    query = select(GuildSettings.guild_id).where(GuildSettings.web_public.is_(True))
    try:
        await asyncio.sleep(after)
        guilds = list(await data.store.run(lambda db: db.scalars(query).all()))
        for guild_id in guilds:
            club = await data.club(guild_id)
            if club is None:
                continue
            book, _records = await data.book(guild_id)
            for scope in [None, *book.systems()]:
                for _ in book.warm(scope, step=WARM_STEP_WEB):
                    await asyncio.sleep(0)
                await data.league_reader.ratings(guild_id, club.generation, scope)
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("warming the ratings up failed; they are replayed on first use")


def make_app(settings: WebSettings, engine: AsyncEngine) -> web.Application:
    """The site over `engine` (its store is closed with the application)."""
    declare_games()
    store = Store(engine)
    data = SiteData(store)
    site = Site(data, environment(), settings.muster_web_base_url)
    limiter = RateLimiter(settings.muster_web_rate, settings.muster_web_burst)
    app = web.Application(middlewares=[guard(limiter, settings.muster_web_forwarded)])
    app[STORE] = store
    app[SITE] = site
    app.router.add_get("/health", health)
    app.router.add_get("/g/{guild_id}", site.league)
    app.router.add_get("/g/{guild_id}/player/{user_id}", site.player)
    app.router.add_get("/g/{guild_id}/results", site.results)
    app.router.add_get("/g/{guild_id}/nights", site.nights)
    app.router.add_get("/g/{guild_id}/nights.ics", site.calendar)
    app.router.add_get("/g/{guild_id}/events", site.events)
    app.router.add_static("/static/", STATIC, append_version=False)

    async def lifetime(app: web.Application) -> AsyncIterator[None]:
        await prepare(data)
        warming = asyncio.create_task(warm_up(data), name="web-warm-up")
        yield
        warming.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await warming
        await data.league_reader.settle()
        await store.close()

    app.cleanup_ctx.append(lifetime)
    return app


async def serve(settings: WebSettings) -> int:
    """`muster web`: serve until SIGTERM or SIGINT."""
    import signal

    from bot.db.engine import make_engine

    app = make_app(settings, make_engine(settings.database_url))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.muster_web_host, settings.muster_web_port)
    await site.start()
    log.info("the league site listens on %s:%s", settings.muster_web_host, settings.muster_web_port)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    try:
        await stopping.wait()
    finally:
        await runner.cleanup()
    return 0
