"""The web site served for a browser: `muster web`'s app on a free port, in a thread of its own.

Playwright's sync API runs its own event loop in the test's thread, so the site gets another thread
with its own loop; the database is migrated and seeded in that loop (an async engine belongs to the
loop that made it) before the first page is asked for.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import WebSettings
from bot.db.engine import make_engine
from bot.migrate import upgrade

STARTUP_TIMEOUT = 60.0

Seeder = Callable[[AsyncEngine], Awaitable[Any]]


@dataclass
class Served:
    """The running site: its address, and what the seeder returned (the seeded facts to check)."""

    base_url: str
    seeded: Any


@contextmanager
def served_site(database_url: str, seed: Seeder, **settings: Any) -> Iterator[Served]:
    """Migrate and seed `database_url`, serve the site on 127.0.0.1 at a free port until the block ends."""
    from bot.web.app import make_app

    ready = threading.Event()
    box: dict[str, Any] = {}
    loop = asyncio.new_event_loop()
    stopping = asyncio.Event()

    async def serve() -> None:
        engine = make_engine(database_url)
        runner: web.AppRunner | None = None
        try:
            await upgrade(engine)
            box["seeded"] = await seed(engine)
            # The site's own address is its MUSTER_WEB_BASE_URL, so its absolute links (the calendar's
            # subscribe address) can be followed as a visitor follows them.
            listening = socket.create_server(("127.0.0.1", 0))
            base_url = f"http://127.0.0.1:{listening.getsockname()[1]}"
            values = {
                "database_url": database_url,
                "muster_web_rate": 0,
                "muster_web_base_url": base_url,
                **settings,
            }
            runner = web.AppRunner(make_app(WebSettings(**values), engine))
            await runner.setup()
            await web.SockSite(runner, listening).start()
            box["base_url"] = base_url
        except BaseException as error:
            box["error"] = error
            raise
        finally:
            ready.set()
        try:
            await stopping.wait()
        finally:
            await runner.cleanup()
            await engine.dispose()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(serve())
        except BaseException:
            pass  # kept in `box` and raised in the test's thread
        finally:
            loop.close()

    thread = threading.Thread(target=run, name="web-site", daemon=True)
    thread.start()
    if not ready.wait(STARTUP_TIMEOUT):
        raise TimeoutError(f"the site did not start within {STARTUP_TIMEOUT:.0f} s")
    if "error" in box:
        thread.join(5)
        raise box["error"]
    try:
        yield Served(base_url=box["base_url"], seeded=box["seeded"])
    finally:
        loop.call_soon_threadsafe(stopping.set)
        thread.join(30)
