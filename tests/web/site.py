"""The site under test: migrated, seeded, and served by aiohttp's test server on a real port."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.config import WebSettings
from bot.db.engine import make_engine
from bot.migrate import upgrade
from bot.web.app import make_app

Seeder = Callable[[AsyncEngine], Awaitable[Any]]


@dataclass
class Running:
    client: TestClient[Any, Any]
    seeded: Any
    url: str
    engine: AsyncEngine


@asynccontextmanager
async def running_site(database_url: str, *seeders: Seeder, **settings: Any) -> AsyncIterator[Running]:
    """Every seeder's facts in `seeded` (a list when there are several); rate limiting off unless asked."""
    engine = make_engine(database_url)
    await upgrade(engine)
    seeded = [await seed(engine) for seed in seeders]
    values: dict[str, Any] = {"database_url": database_url, "muster_web_rate": 0, **settings}
    app = make_app(WebSettings(**values), engine)
    async with TestClient(TestServer(app)) as client:
        yield Running(client, seeded[0] if len(seeded) == 1 else seeded, database_url, engine)
