"""Rating replay and standings for 10,000 results in one server: prints timings, asserts nothing.

Part 1 times the pure functions; part 2 stores the results in SQLite behind the real bot and times
the score service (load + replay + standings + embed pages) and `/scores leaderboard` through the
Discord emulator, cold (nothing cached) and warm (the rating memo kept between commands).

Run: .venv/bin/python bench/scores.py [results] [players]
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.scores.image import leaderboard_png
from bot.scores.layout import leaderboard_pages
from rules.scores import (
    RatingBook,
    RatingLedger,
    ResultRecord,
    ResultStatus,
    replay,
    standings,
    to_csv,
)

T = TypeVar("T")
SYSTEMS = ["warcry", "killteam", "warmaster", "fortyk"]


def generate(count: int, players: int, seed: int = 7) -> list[ResultRecord]:
    rng = random.Random(seed)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    results = []
    for i in range(1, count + 1):
        a, b = (100_000 + p for p in rng.sample(range(1, players + 1), 2))
        score_a, score_b = rng.randint(0, 30), rng.randint(0, 30)
        winner = a if score_a > score_b else b if score_b > score_a else None
        results.append(
            ResultRecord(
                id=i,
                system=rng.choice(SYSTEMS),
                player_a=a,
                player_b=b,
                score_a=score_a,
                score_b=score_b,
                winner=winner,
                played_at=start + timedelta(minutes=rng.randint(0, 60 * 24 * 365)),
                season_id=1 + i * 4 // count,
                faction_a=rng.choice(["Orks", "Tau", "Necrons", None]),
                status=ResultStatus.CONFIRMED if rng.random() < 0.95 else rng.choice(list(ResultStatus)),
            )
        )
    return results


def timed(label: str, action: Callable[[], T], repeat: int = 3) -> T:
    best = float("inf")
    value: T | None = None
    for _ in range(repeat):
        started = time.perf_counter()
        value = action()
        best = min(best, time.perf_counter() - started)
    print(f"{label:<58} {best * 1000:9.1f} ms")
    assert value is not None
    return value


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    results = timed(
        f"generate {count} result records ({players} players)", lambda: generate(count, players), 1
    )
    confirmed = sum(r.counts for r in results)
    print(f"{confirmed} confirmed, {len(SYSTEMS)} systems, best of 3 runs each")

    overall = timed("full replay, overall (every confirmed result)", lambda: replay(results))
    timed("full replay, one system (about a quarter)", lambda: replay(results, "warcry"))
    timed("full replay, overall + every system", lambda: [replay(results, s) for s in [None, *SYSTEMS]])
    timed("standings, all time (ratings given)", lambda: standings(results, overall))
    timed("standings, one season (ratings given)", lambda: standings(results, overall, season_id=2))

    def cold_leaderboard() -> object:
        book = RatingBook().sync(results)
        return standings(results, book.ledger(None))

    timed("cold leaderboard: replay + standings, overall", cold_leaderboard)

    def cold_system_leaderboard() -> object:
        book = RatingBook().sync(results)
        return standings(results, book.ledger("warcry"), system="warcry")

    timed("cold leaderboard: replay + standings, one system", cold_system_leaderboard)

    # The memo: the service keeps a ledger per server and scope between commands.
    later = results[-1].model_copy(
        update={
            "id": count + 1,
            "played_at": datetime(2026, 1, 1, tzinfo=UTC),
            "status": ResultStatus.CONFIRMED,
        }
    )
    ordered = sorted((r for r in results if r.counts), key=lambda r: r.order_key)
    middle = ordered[len(ordered) // 2].id
    voided = [r.model_copy(update={"status": ResultStatus.VOID}) if r.id == middle else r for r in results]
    for label, changed in (
        ("warm memo: one new result at the end", [*results, later]),
        ("warm memo: void a result half-way back", voided),
    ):
        ledger = RatingLedger().sync(results)
        started = time.perf_counter()
        ledger.sync(changed)
        elapsed = time.perf_counter() - started
        print(f"{label:<58} {elapsed * 1000:9.1f} ms  ({ledger.replayed} updates replayed)")

    names = {100_000 + p: f"Player {p}" for p in range(1, players + 1)}
    table = standings(results, overall)
    timed("embed pages for the whole table", lambda: leaderboard_pages(table, title="All time"))
    timed("PNG of the whole table", lambda: leaderboard_png(table, names, title="All time"), 1)
    timed("CSV export of every result", lambda: to_csv(results, names), 1)


async def through_the_bot(results: list[ResultRecord]) -> None:
    """The same results in SQLite behind the running bot: the service and the slash command."""
    from bench.common import bench_bot_in_process as bench_bot
    from bot.db.models import GameResult
    from bot.scores import ScoreService

    async with bench_bot() as (emu, world, bot):
        guild = world.guild.id
        async with bot.store.write() as db:
            for r in results:
                db.add(
                    GameResult(
                        guild_id=guild,
                        channel_id=world.channel.id,
                        system=r.system,
                        mission=r.mission,
                        player_a=r.player_a,
                        player_b=r.player_b,
                        faction_a=r.faction_a,
                        score_a=r.score_a,
                        score_b=r.score_b,
                        winner_id=r.winner,
                        played_at=r.played_at,
                        status=r.status.value,
                        announced=True,
                        reported_by=r.player_a,
                    )
                )
            # Another server's games, which every query must skip.
            for r in results[:2000]:
                db.add(
                    GameResult(
                        guild_id=guild + 1,
                        system=r.system,
                        player_a=r.player_a,
                        player_b=r.player_b,
                        score_a=r.score_a,
                        score_b=r.score_b,
                        winner_id=r.winner,
                        played_at=r.played_at,
                        status="confirmed",
                        announced=True,
                    )
                )
        cog = bot.get_cog("Scores")
        service: ScoreService = cog.service  # type: ignore[union-attr, attr-defined]
        print(f"\nSQLite behind the bot: {len(results)} results in one server (+2000 in another)")

        async def leaderboard(system: str | None) -> float:
            started = time.perf_counter()
            book, records = await service.results.book(guild)
            table = standings(records, book.ledger(system), system=system)
            leaderboard_pages(table, title="bench")
            return time.perf_counter() - started

        started = time.perf_counter()
        records = await service.results.records(guild)
        print(
            f"{'load the confirmed results from SQLite':<58} {(time.perf_counter() - started) * 1000:9.1f} ms"
        )
        for system in (None, "warcry"):
            service.results.forget(guild)
            cold = await leaderboard(system)
            warm = min([await leaderboard(system) for _ in range(3)])
            scope = system or "overall"
            print(
                f"{'service leaderboard, cold (load + replay + table), ' + scope:<58} {cold * 1000:9.1f} ms"
            )
            print(f"{'service leaderboard, warm memo, ' + scope:<58} {warm * 1000:9.1f} ms")

        async def longest_stall(work: Any) -> tuple[float, float]:
            """(seconds `work` took, the longest the event loop was held up meanwhile)."""
            stalls: list[float] = []
            done = asyncio.Event()

            async def ticker() -> None:
                last = time.perf_counter()
                while not done.is_set():
                    await asyncio.sleep(0.001)
                    now = time.perf_counter()
                    stalls.append(now - last)
                    last = now

            tick = asyncio.create_task(ticker())
            started = time.perf_counter()
            await work
            elapsed = time.perf_counter() - started
            done.set()
            await tick
            return elapsed, max(stalls, default=0.0)

        service.results.forget(guild)
        elapsed, stall = await longest_stall(service.results.warm_up())
        print(
            f"{'background warm-up after a restart (all scopes)':<58} {elapsed * 1000:9.1f} ms"
            f"  (event loop held at most {stall * 1000:.0f} ms at a time)"
        )
        service.results.forget(guild)

        async def first_use() -> None:
            book, _ = await service.results.book(guild)
            book.ledger(None)

        elapsed, stall = await longest_stall(first_use())
        print(
            f"{'first use without warm-up: load + overall replay':<58} {elapsed * 1000:9.1f} ms"
            f"  (event loop held at most {stall * 1000:.0f} ms at a time)"
        )

        async def command(**options: Any) -> float:
            record = await emu.slash(world.alice, world.channel, "scores leaderboard", **options)
            await record.response(timeout=10)
            assert record.latency is not None
            return record.latency

        service.results.forget(guild)
        cold = await command(season="all")
        warm_runs = [await command(season="all") for _ in range(10)]
        print(f"{'/scores leaderboard via the emulator, cold':<58} {cold * 1000:9.1f} ms")
        print(
            f"{'/scores leaderboard via the emulator, warm (median of 10)':<58} "
            f"{statistics.median(warm_runs) * 1000:9.1f} ms"
        )
        del records


if __name__ == "__main__":
    main()
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    asyncio.run(through_the_bot(generate(count, players)))
