"""What events cost the site: the per-request stamp query with and without its two event columns, and
the events page's read, on a server with many events.

Every request of the site runs the stamp query first (bot/web/queries.py `STAMP`); events added two
scalar subqueries to it (the latest update and the sum of versions of the server's events). Both
forms are timed here in one run, interleaved (the machine is shared: a ratio within one run is what
holds), on SQLite and, when one answers, PostgreSQL. Then `read_events` (20 latest events, each state
parsed and its standings computed) is timed alone.

Run: .venv/bin/python bench/web_stamp.py [--events 200] [--rounds 2000] [--sqlite-only]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.web import POSTGRES, postgres_answers
from bot.db.engine import make_engine, make_sessionmaker
from bot.db.models import GuildSettings
from bot.db.store import Store
from bot.migrate import upgrade
from bot.web.events import read_events
from bot.web.queries import STAMP
from rules.event.actions import CloseLists, Join, PublishRound, ReportResult
from rules.event.machine import apply, start
from rules.event.state import EventSettings, EventState
from tests.databases import fresh_postgres
from tests.web.event_seed import row_of

GUILD = 470_000_000_000_000_001
OLD_STAMP = STAMP.with_only_columns(*list(STAMP.selected_columns)[:-2])  # before events


def played(number: int, now: datetime) -> EventState:
    """An event of 16 players with one round reported."""
    settings = EventSettings(name=f"Event {number}", system="killteam", starts_at=int(now.timestamp()))
    state, _events = start(f"{number:012x}", 1, settings)
    for player in range(100, 116):
        state, _events = apply(state, Join(actor=player, player=player))
    state, _events = apply(state, CloseLists(actor=1, now=settings.starts_at))
    state, _events = apply(state, PublishRound(actor=1, seed=number))
    for game in state.open_games():
        assert game.second is not None
        report = ReportResult(
            actor=1, round=1, first=game.first, second=game.second, first_vp=12, second_vp=game.table
        )
        state, _events = apply(state, report)
    return state


async def seed(engine: AsyncEngine, events: int) -> None:
    now = datetime.now(UTC)
    async with make_sessionmaker(engine).begin() as db:
        db.add(GuildSettings(guild_id=GUILD, web_public=True, web_name="Bench"))
        for number in range(events):
            db.add(row_of(GUILD, played(number, now - timedelta(days=number)), version=3))


def first_row(statement: Select[Any], db: Session) -> Any:
    return db.execute(statement, {"guild_id": GUILD}).first()


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {statistics.median(ordered) * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms"


async def bench(name: str, url: str, args: argparse.Namespace) -> None:
    engine = make_engine(url)
    await upgrade(engine)
    await seed(engine, args.events)
    store = Store(engine)
    old: list[float] = []
    new: list[float] = []
    for _round in range(args.rounds):
        for statement, into in ((OLD_STAMP, old), (STAMP, new)):
            started = time.perf_counter()
            await store.run(partial(first_row, statement))
            into.append(time.perf_counter() - started)
    page: list[float] = []
    for _round in range(max(1, args.rounds // 20)):
        started = time.perf_counter()
        shown = await read_events(store, GUILD)
        page.append(time.perf_counter() - started)
    ratio = statistics.median(new) / statistics.median(old)
    print(f"{name}, {args.events} events, {args.rounds} interleaved rounds:")
    print(f"  stamp before events: {summary(old)}")
    print(f"  stamp with events:   {summary(new)}  (median ratio {ratio:.2f})")
    print(f"  read_events ({len(shown)} shown, standings computed): {summary(page)}")
    await engine.dispose()


async def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="muster-bench-stamp-") as folder:
        await bench("SQLite", f"sqlite+aiosqlite:///{folder}/muster.sqlite3", args)
    if not args.sqlite_only and await postgres_answers():
        async with fresh_postgres(POSTGRES) as url:
            await bench("PostgreSQL", url, args)
    return 0


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--sqlite-only", action="store_true")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(arguments())))
