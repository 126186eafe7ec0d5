"""The league web site under load: a server with 10,000 results and 300 players, served by `muster web`.

For each database (SQLite; PostgreSQL too when one answers on 127.0.0.1:5432, or MUSTER_BENCH_POSTGRES
names one) the results are stored, `muster web` is started as its own process (as it runs in
production, the client below on the other core), and these are measured over real HTTP:
- cold: the first league page a freshly started process serves (several fresh starts);
- warm: once the process has settled (--settle seconds after its first page, for its background
  warm-up), the league page asked again and again, one request at a time (p50, p99), and a refresh
  that sends its ETag back (304); then every league table (system x season x language), every
  player's page and the other pages, each kind on its own line;
- load: 200 clients at once, each on its own connection, asking for league, player, results and
  nights pages; every answer must be a 200. Beside it, in the same run, the same clients asking only
  for /health: the floor that the machine, the client and the server's own loop set.
The first cold start is on a database no site has served yet; the later ones find what the site
stores for the next start.
Rate limiting is off for the run (MUSTER_WEB_RATE=0): all the clients share one address.
Prints the figures; exits 1 on any failed request.

Run: .venv/bin/python bench/web.py [--results 10000] [--players 300] [--clients 200] [--sqlite-only]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

import aiohttp
import asyncpg
from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import percentile
from bench.scores import SYSTEMS, generate
from bot.db.engine import make_engine
from bot.db.models import GameResult, GuildSettings, MemberName, ResultsGeneration, Season
from bot.lang.i18n import LANGUAGES
from bot.migrate import upgrade
from tests.databases import fresh_postgres

ROOT = Path(__file__).resolve().parents[1]
GUILD = 610_000_000_000_000_001
OTHER_GUILD = GUILD + 1
POSTGRES = os.environ.get("MUSTER_BENCH_POSTGRES", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
SEASONS = 5  # bench.scores.generate files results in seasons 1..5
STARTUP_TIMEOUT = 60.0


@dataclass
class Figures:
    engine: str
    cold_ms: list[float] = field(default_factory=list)
    warm_ms: list[float] = field(default_factory=list)
    variants_ms: list[float] = field(default_factory=list)
    players_ms: list[float] = field(default_factory=list)
    others_ms: dict[str, list[float]] = field(default_factory=dict)
    not_modified_ms: list[float] = field(default_factory=list)
    load_ms: list[float] = field(default_factory=list)
    load_seconds: float = 0.0
    floor_ms: list[float] = field(default_factory=list)
    floor_seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


async def seed(url: str, results: int, players: int) -> list[int]:
    """The bench's server (public, every player named) and another server's games; the players' ids."""
    engine = make_engine(url)
    try:
        await upgrade(engine)
        records = generate(results, players)
        async with engine.begin() as db:
            await db.execute(
                insert(GuildSettings),
                [
                    {"guild_id": GUILD, "language": "en", "web_public": True, "web_name": "Bench Club"},
                    {"guild_id": OTHER_GUILD, "language": "en", "web_public": False, "web_name": "Hidden"},
                ],
            )
            start = datetime(2024, 1, 1, tzinfo=UTC)
            await db.execute(
                insert(Season),
                [
                    {
                        "id": n,
                        "guild_id": GUILD,
                        "name": f"Season {n}",
                        "started_at": start + timedelta(days=90 * n),
                    }
                    for n in range(1, SEASONS + 1)
                ],
            )
            ids = sorted({r.player_a for r in records} | {r.player_b for r in records})
            await db.execute(
                insert(MemberName),
                [
                    {"guild_id": GUILD, "user_id": user, "display_name": f"Player {user % 1000}"}
                    for user in ids
                ],
            )
            rows = [
                {
                    "guild_id": guild,
                    "system": r.system,
                    "player_a": r.player_a,
                    "player_b": r.player_b,
                    "faction_a": r.faction_a,
                    "score_a": r.score_a,
                    "score_b": r.score_b,
                    "winner_id": r.winner,
                    "played_at": r.played_at,
                    "season_id": r.season_id if guild == GUILD else None,
                    "status": r.status.value,
                    "announced": True,
                    "reported_by": r.player_a,
                }
                for guild, share in ((GUILD, records), (OTHER_GUILD, records[:2000]))
                for r in share
            ]
            await db.execute(insert(GameResult), rows)
            # As the bot's score service leaves them: each server's results generation bumped.
            await db.execute(
                insert(ResultsGeneration), [{"guild_id": g, "generation": 1} for g in (GUILD, OTHER_GUILD)]
            )
        if engine.dialect.name == "postgresql":
            async with engine.connect() as connection:
                await connection.exec_driver_sql("ANALYZE")
        return ids
    finally:
        await engine.dispose()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def web_process(url: str, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`muster web` on `port` against `url`, stopped (SIGTERM, then killed) when the block ends; what
    it logs goes to `log` (appended)."""
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "MUSTER_WEB_HOST": "127.0.0.1",
        "MUSTER_WEB_PORT": str(port),
        "MUSTER_WEB_RATE": "0",
        "LOG_LEVEL": "WARNING",
    }
    with log.open("ab") as logged:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "web"], cwd=ROOT, env=env, stdout=logged, stderr=logged
        )
        try:
            yield process
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def until_healthy(http: aiohttp.ClientSession, base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"muster web exited with {process.returncode}")
        try:
            async with http.get(f"{base}/health") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.05)
    raise TimeoutError("muster web did not answer /health")


async def timed_get(
    http: aiohttp.ClientSession, url: str, headers: dict[str, str] | None = None
) -> tuple[float, int, str | None]:
    """(milliseconds to the whole body, status, ETag)."""
    started = time.perf_counter()
    async with http.get(url, headers=headers) as response:
        await response.read()
        return (time.perf_counter() - started) * 1000, response.status, response.headers.get("ETag")


@asynccontextmanager
async def serving(url: str, log: Path) -> AsyncIterator[tuple[aiohttp.ClientSession, str]]:
    port = free_port()
    with web_process(url, port, log) as process:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as http:
            base = f"http://127.0.0.1:{port}"
            await until_healthy(http, base, process)
            yield http, base


async def measure_cold(http: aiohttp.ClientSession, base: str, figures: Figures) -> None:
    """The first league page of a process just started (it answered /health, nothing else yet)."""
    elapsed, status, _ = await timed_get(http, f"{base}/g/{GUILD}")
    if status != 200:
        figures.errors.append(f"cold league page: {status}")
    figures.cold_ms.append(elapsed)


async def measure_warm(
    http: aiohttp.ClientSession, base: str, figures: Figures, requests: int, players: list[int]
) -> None:
    """The same league page again and again (the refresh of a shop's screen), then each league table
    (system x season x language) once, each player's page once, and the other pages."""
    league = f"{base}/g/{GUILD}"
    etag = None
    for _ in range(requests):
        elapsed, status, etag = await timed_get(http, league)
        if status != 200:
            figures.errors.append(f"warm league page: {status}")
        figures.warm_ms.append(elapsed)
    for _ in range(requests // 4):
        elapsed, status, _ = await timed_get(http, league, {"If-None-Match": etag or ""})
        if status != 304:
            figures.errors.append(f"league page with its ETag: {status}, not 304")
        figures.not_modified_ms.append(elapsed)
    for system in ("", *SYSTEMS):
        for season in ("", "all", *map(str, range(1, SEASONS + 1))):
            for lang in LANGUAGES:
                query = urlencode(
                    {k: v for k, v in (("system", system), ("season", season), ("lang", lang)) if v}
                )
                elapsed, status, _ = await timed_get(http, f"{league}?{query}")
                if status != 200:
                    figures.errors.append(f"league page {query}: {status}")
                figures.variants_ms.append(elapsed)
    for player in players:
        elapsed, status, _ = await timed_get(http, f"{league}/player/{player}")
        if status != 200:
            figures.errors.append(f"player {player}: {status}")
        figures.players_ms.append(elapsed)
    for path in ("results", "nights", "nights.ics", "events"):
        for _ in range(20):
            elapsed, status, _ = await timed_get(http, f"{league}/{path}")
            if status != 200:
                figures.errors.append(f"{path}: {status}")
            figures.others_ms.setdefault(path, []).append(elapsed)


async def measure_load(
    base: str, players: list[int], clients: int, each: int, *, floor: bool = False
) -> tuple[list[float], float, list[str]]:
    """`clients` clients at once, each with its own connection, `each` pages apiece: (milliseconds
    per page, seconds for them all, errors). `floor`: /health only, what the server and this client
    cost with no page behind them, to read the pages' figures against on a busy machine."""
    rng = random.Random(3)
    paths = [f"/g/{GUILD}", f"/g/{GUILD}/results", f"/g/{GUILD}/nights", f"/g/{GUILD}?season=all"]
    samples: list[float] = []
    errors: list[str] = []

    async def client(number: int) -> None:
        connector = aiohttp.TCPConnector(limit=1)
        timeout = aiohttp.ClientTimeout(total=120)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
            for turn in range(each):
                path = paths[(number + turn) % len(paths)]
                if turn % 3 == 2:
                    path = f"/g/{GUILD}/player/{rng.choice(players)}"
                if floor:
                    path = "/health"
                try:
                    elapsed, status, _ = await timed_get(http, base + path)
                except (aiohttp.ClientError, TimeoutError) as error:
                    errors.append(f"{path}: {type(error).__name__} {error}")
                    continue
                if status != 200:
                    errors.append(f"{path}: {status}")
                samples.append(elapsed)

    started = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
    return samples, time.perf_counter() - started, errors


async def bench_engine(name: str, url: str, args: argparse.Namespace) -> Figures:
    figures = Figures(name)
    started = time.perf_counter()
    players = await seed(url, args.results, args.players)
    stored = time.perf_counter() - started
    print(f"\n{name}: {args.results} results, {len(players)} players stored in {stored:.1f} s")
    log = Path(args.log_folder) / f"muster-bench-web-{name.lower()}.log"
    log.unlink(missing_ok=True)
    for _ in range(args.cold_starts - 1):
        async with serving(url, log) as (http, base):
            await measure_cold(http, base, figures)
    async with serving(url, log) as (http, base):
        await measure_cold(http, base, figures)
        await asyncio.sleep(args.settle)  # the site's background warm-up, after its first pages
        await measure_warm(http, base, figures, args.requests, players)
        if url.startswith("postgresql"):
            print(f"  before the load: {await postgres_connections()}")
        figures.floor_ms, figures.floor_seconds, _ = await measure_load(
            base, players, args.clients, args.each, floor=True
        )
        figures.load_ms, figures.load_seconds, errors = await measure_load(
            base, players, args.clients, args.each
        )
        figures.errors.extend(errors)
    logged = [line for line in log.read_text(errors="replace").splitlines() if '"level": "error"' in line]
    refused = sum("too many clients already" in line for line in logged)
    if refused:
        print(
            f"  {refused} of muster web's logged errors: PostgreSQL refused a connection (too many clients)"
        )
    figures.errors.extend(f"logged by muster web: {line[:300]}" for line in logged)
    report(figures, args)
    return figures


def report(f: Figures, args: argparse.Namespace) -> None:
    def line(label: str, samples: list[float]) -> None:
        print(
            f"  {label:<44} n={len(samples):<5} p50={percentile(samples, 50):8.1f} ms"
            f"  p99={percentile(samples, 99):8.1f} ms  max={max(samples, default=float('nan')):8.1f} ms"
        )

    line(f"league page, cold (first after a start, x{args.cold_starts})", f.cold_ms)
    print("    each start, in order (the first on a database no site has served): ", end="")
    print(", ".join(f"{ms:.0f} ms" for ms in f.cold_ms))
    line("league page, warm", f.warm_ms)
    line("league page, warm, If-None-Match (304)", f.not_modified_ms)
    line("league tables (system x season x lang), once", f.variants_ms)
    line("player pages, once each", f.players_ms)
    for path, samples in f.others_ms.items():
        line(f"{path}, warm", samples)
    line(f"{args.clients} clients at once, /health only (floor)", f.floor_ms)
    line(f"{args.clients} clients at once, mixed pages", f.load_ms)
    for label, samples, seconds in (
        ("floor", f.floor_ms, f.floor_seconds),
        ("pages", f.load_ms, f.load_seconds),
    ):
        rate = len(samples) / seconds if seconds else 0.0
        print(f"  load, {label}: {len(samples)} answers in {seconds:.1f} s ({rate:.0f}/s)")
    print(f"  errors: {len(f.errors)}")
    for error in f.errors[:10]:
        print(f"  error: {error}")


async def postgres_connections() -> str:
    """How many connections the PostgreSQL server holds (for everyone on it) of how many it allows:
    the load's pages fail with "too many clients" when other programs hold the rest."""
    dsn = POSTGRES.replace("postgresql+asyncpg://", "postgresql://")
    try:
        connection = await asyncpg.connect(dsn, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        return f"the PostgreSQL server takes no more connections ({error})"
    try:
        held = await connection.fetchval("SELECT count(*) FROM pg_stat_activity")
        allowed = await connection.fetchval("SHOW max_connections")
    finally:
        await connection.close()
    return f"the PostgreSQL server holds {held} connections of its {allowed} (every program on it)"


async def postgres_answers() -> bool:
    try:
        dsn = POSTGRES.replace("postgresql+asyncpg://", "postgresql://")
        connection = await asyncpg.connect(dsn, timeout=3)
    except (OSError, asyncpg.PostgresError, TimeoutError):
        return False
    await connection.close()
    return True


async def main(args: argparse.Namespace) -> int:
    runs: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="muster-bench-web-") as folder:
        runs.append(await bench_engine("SQLite", f"sqlite+aiosqlite:///{folder}/muster.sqlite3", args))
    if not args.sqlite_only and await postgres_answers():
        async with fresh_postgres(POSTGRES) as url:
            runs.append(await bench_engine("PostgreSQL", url, args))
    elif not args.sqlite_only:
        print("\nPostgreSQL does not answer: measured on SQLite only")
    return 1 if any(run.errors for run in runs) else 0


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--results", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--requests", type=int, default=400, help="warm league pages, one at a time")
    parser.add_argument("--cold-starts", type=int, default=3)
    parser.add_argument(
        "--settle", type=float, default=5.0, help="seconds between the cold page and the warm ones"
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--each", type=int, default=5, help="pages per client under load")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--log-folder", default=tempfile.gettempdir(), help="where muster web's logs go")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(arguments())))
