"""Scale-out: Muster as 1, 2 and 4 processes sharing the shards of one PostgreSQL database.

For each deployment (a fresh database each time; 4 shards split evenly over the processes) this
process is the emulated Discord and the players. It opens GAMES Kill Team Bid games, one per
channel, over servers on every shard, all open at once. Then:

- paced: in a sample of games, a pong and then each player's sealed bid, every click sent once the
  bot has gone quiet (players seconds apart): the seal's latency against the pong's at p50;
- load: every other game's two seals (each a pick from the bid menu in the player's DMs: one
  interaction, answered by redrawing the DM prompt; it used to be two, a button opening a form and
  then its submit, of which the submit was timed) and then the winner's pick of the mission in the
  game's thread, games in random order, CONCURRENCY at a time: interactions a second (three a game,
  five while a seal was a form), and the seal's and the pick's p50/p99 under load.

The sealed bids go by DM, which Discord sends to shard 0 (so to one process however many there
are), while each game's thread and its mission pick are on its server's shard: every game crosses
processes, and only the channel steps spread over them. At the end every game must show exactly
one reveal: a game without one (both its seals answered) is a lost post, a nonce that made two
messages or a reveal shown twice a duplicate.
RSS is read from /proc for every process, before the games are opened, once half of them are open,
and once all are. Growth over idle includes what each process allocates once, on its first games
(compiled statements, pooled database connections, caches filled once): about 7 MB a process, so
it reads more per game the fewer games each process holds. The second half's growth is what games
cost beyond that, and is printed apart.

With --memory FILE each process runs tracemalloc, and what opening the games allocated and still
holds is printed by line (one process: `--processes 1`, else each overwrites FILE in turn).

With --open-only the games are opened and RSS read, and nothing more (no play, no checks).

Usage: python bench/scale.py [--quick] [--games N] [--processes 1,2,4] [--database URL] [--memory FILE]
[--open-only]
(prints figures; exits non-zero if any interaction failed or any post was lost or duplicated)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_process import MEMORY_ENV
from bench.common import bid_menus, percentile, pick_bid, started_game, summary, until_quiet
from bot.db.store import Store
from tests.databases import fresh_postgres
from tests.e2e.fleet import Fleet, guilds_on_every_shard, posts, same_content_twice, settled, split_shards
from tests.emulator import Emulator
from tests.emulator.interactions import InteractionRecord
from tests.emulator.model import Channel, Guild, Message, User

ROOT = Path(__file__).resolve().parents[1]
SHARDS = 4
DEFAULT_DATABASE = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
REVEAL = "Revealed, the bid to choose the mission"
CHANNELS_PER_GUILD = 50


@dataclass
class Game:
    sid: str
    channel: Channel  # where it was started
    table: Channel | None = None  # its thread, once opened
    seals: list[float] = field(default_factory=list)


@dataclass
class Run:
    processes: int
    games: list[Game]
    open_s: float = 0.0
    paced_seals: list[float] = field(default_factory=list)
    paced_pongs: list[float] = field(default_factory=list)
    loaded_seals: list[float] = field(default_factory=list)
    loaded_picks: list[float] = field(default_factory=list)
    reveal_waits: list[float] = field(default_factory=list)
    interactions: int = 0
    load_s: float = 0.0
    errors: list[str] = field(default_factory=list)
    lost: int = 0
    unfinished: int = 0  # games whose seals were not both answered, and which showed no reveal
    duplicated: int = 0
    rss_idle_mb: list[float] = field(default_factory=list)
    rss_half_mb: list[float] = field(default_factory=list)  # once the first half is open
    rss_open_mb: list[float] = field(default_factory=list)
    rss_end_mb: list[float] = field(default_factory=list)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def answered(record: InteractionRecord, errors: list[str], what: str) -> InteractionRecord | None:
    try:
        await record.response(timeout=10)
    except Exception as error:  # a failed interaction is counted, not fatal
        errors.append(f"{what}: {error}")
        return None
    return record


async def open_games(
    emu: Emulator, guilds: list[Guild], alice: User, bob: User, count: int, run: Run, first: int = 0
) -> list[Game]:
    """`count` games, one per channel, channels spread round-robin over the servers (every shard);
    `first`: the number of the first (games opened before it keep their channels)."""
    channels = []
    for i in range(first, first + count):
        guild = guilds[i % len(guilds)]
        channels.append(emu.add_channel(guild, f"kt-{i}"))
    games: list[Game] = []
    limit = asyncio.Semaphore(8)

    async def start(channel: Channel) -> None:
        async with limit:
            record = await emu.slash(
                alice, channel, "killteam start", opponent=bob, mission_method="bid", tacops_method="free"
            )
            if await answered(record, run.errors, f"start in #{channel.name}") is None:
                return
            sid = started_game(record)
            if sid is None:
                run.errors.append(f"start in #{channel.name}: no game id on the card it answered")
                return
            games.append(Game(sid, channel))

    await asyncio.gather(*(start(c) for c in channels))

    def prompted() -> bool:
        shown = [set(bid_menus(emu, user)) for user in (alice, bob)]
        return all(game.sid in prompts for game in games for prompts in shown)

    await emu.wait_until(prompted, 300, "every game's bid prompts")
    return games


async def seal(emu: Emulator, user: User, prompt: Message, game: Game, amount: int, run: Run) -> float | None:
    """Pick `amount` in the game's bid menu in the user's DMs: one interaction, whose latency is the
    seal's."""
    sent = await pick_bid(emu, user, prompt, game.sid, amount)
    run.interactions += 1
    if await answered(sent, run.errors, f"seal {game.sid}") is None:
        return None
    assert sent.latency is not None
    game.seals.append(sent.latency)
    return sent.latency


async def pick_mission(emu: Emulator, winner: User, game: Game, run: Run) -> float | None:
    """The bid's winner picks the mission on the buttons the reveal brought to the game's thread: a
    channel step, handled by the process of the server's shard."""
    prefix = f"q:{game.sid}:"

    def buttons() -> tuple[Message, str] | None:
        for channel in (game.table or game.channel,):
            for message in reversed(emu.messages(channel)):
                for button in message.buttons():
                    custom_id = str(button.get("custom_id", ""))
                    if (
                        custom_id.startswith(prefix)
                        and ":bid." not in custom_id
                        and not button.get("disabled")
                    ):
                        return message, custom_id
        return None

    began = time.perf_counter()
    try:
        message, custom_id = await emu.wait_until(buttons, 30, f"the mission's buttons in {game.sid}")
    except TimeoutError as error:
        run.errors.append(str(error))
        return None
    run.reveal_waits.append(time.perf_counter() - began)
    record = await answered(
        await emu.click(winner, message, custom_id=custom_id), run.errors, f"pick {game.sid}"
    )
    run.interactions += 1
    return None if record is None else record.latency


async def pong(emu: Emulator, user: User, channel: Channel, run: Run) -> float | None:
    record = await answered(await emu.slash(user, channel, "pong"), run.errors, "pong")
    return None if record is None else record.latency


def amounts(chance: random.Random) -> tuple[int, int]:
    """Two different bids (a tie is bid again, which would leave the round without its reveal)."""
    first, second = chance.sample(range(11), 2)
    return first, second


async def one_deployment(
    processes: int,
    games_wanted: int,
    paced: int,
    concurrency: int,
    database: str,
    seed: int,
    memory: Path | None = None,
    open_only: bool = False,
) -> Run:
    chance = random.Random(seed)
    async with fresh_postgres(database) as url, Emulator(shard_count=SHARDS, min_reaction_time=0.0) as emu:
        alice, bob, carol = (emu.add_user(n, global_name=n.capitalize()) for n in ("alice", "bob", "carol"))
        servers = max(SHARDS, -(-games_wanted // CHANNELS_PER_GUILD))
        guilds: list[Guild] = []
        while len(guilds) < servers:
            guilds += guilds_on_every_shard(emu, SHARDS, prefix=f"Club {len(guilds)}")
        for guild in guilds:
            for user in (alice, bob):
                emu.add_member(guild, user)
            emu.add_member(guild, carol, manage_guild=True)
        fleet = Fleet(
            emu,
            url,
            split_shards(SHARDS, processes),
            SHARDS,
            env={
                "LOG_LEVEL": "WARNING",
                "MUSTER_DICE_SEED": str(seed),
                "SWEEP_SECONDS": "2",
                **({MEMORY_ENV: str(memory)} if memory else {}),
            },
            argv=(sys.executable, str(ROOT / "bench" / "bot_process.py")),
        )
        store = Store.from_url(url)
        run = Run(processes, [])
        try:
            await fleet.start_all()
            await emu.wait_commands_synced(["pong", "killteam"], timeout=60)
            pids = [p.process.pid for p in fleet.processes.values()]
            run.rss_idle_mb = [rss_mb(pid) for pid in pids]
            if memory:
                signal_all(fleet, signal.SIGUSR1)
            began = time.perf_counter()
            half = games_wanted // 2
            run.games = await open_games(emu, guilds, alice, bob, half, run)
            await settled(emu, store, timeout=300)
            run.rss_half_mb = [rss_mb(pid) for pid in pids]
            run.games += await open_games(emu, guilds, alice, bob, games_wanted - half, run, first=half)
            await settled(emu, store, timeout=300)
            run.open_s = time.perf_counter() - began
            run.rss_open_mb = [rss_mb(pid) for pid in pids]
            if memory:
                await memory_grown(emu, fleet, memory)
            if open_only:  # the RSS figures only: nothing played, nothing checked
                run.rss_end_mb = run.rss_open_mb
                return run
            for game in run.games:
                game.table = next(iter(emu.threads(game.channel)), None)
            menus = {user.id: bid_menus(emu, user) for user in (alice, bob)}
            order = list(run.games)
            chance.shuffle(order)
            sample, rest = order[:paced], order[paced:]

            # Paced: one click at a time, once the bots are quiet (pong, then each seal).
            await until_quiet(emu, limit=30.0)
            for game in sample:
                latency = await pong(emu, alice, game.channel, run)
                if latency is not None:
                    run.paced_pongs.append(latency)
                await until_quiet(emu, limit=30.0)
                first, second = amounts(chance)
                for user, amount in ((alice, first), (bob, second)):
                    latency = await seal(emu, user, menus[user.id][game.sid], game, amount, run)
                    if latency is not None:
                        run.paced_seals.append(latency)
                    await until_quiet(emu, limit=30.0)

            # Load: every other game's two seals, CONCURRENCY games at a time, in random order.
            queue: asyncio.Queue[Game] = asyncio.Queue()
            for game in rest:
                queue.put_nowait(game)
            run.interactions = 0

            async def player() -> None:
                while not queue.empty():
                    game = queue.get_nowait()
                    first, second = amounts(chance)
                    for user, amount in ((alice, first), (bob, second)):
                        latency = await seal(emu, user, menus[user.id][game.sid], game, amount, run)
                        if latency is not None:
                            run.loaded_seals.append(latency)
                    latency = await pick_mission(emu, alice if first > second else bob, game, run)
                    if latency is not None:
                        run.loaded_picks.append(latency)

            began = time.perf_counter()
            await asyncio.gather(*(player() for _ in range(concurrency)))
            run.load_s = time.perf_counter() - began
            await settled(emu, store, timeout=300)
            run.rss_end_mb = [rss_mb(pid) for pid in pids]

            # Every game's mission bid revealed exactly once, in its own thread.
            for game in run.games:
                threads = emu.threads(game.channel)
                shown = [
                    m
                    for c in (game.channel, *threads)
                    for m in emu.messages(c)
                    if REVEAL in m.embed_text() and "/verify" in m.embed_text()
                ]
                if not shown and len(game.seals) < 2:
                    run.unfinished += 1  # a seal went unanswered (counted in errors): no round to reveal
                elif not shown:
                    run.lost += 1
                elif len(shown) > 1:
                    run.duplicated += len(shown) - 1
            run.duplicated += len(posts(emu).duplicated())
            everything = [
                m for c in emu.channels.values() for m in emu.messages(c) if m.author.id == emu.bot_user.id
            ]
            run.duplicated += len(same_content_twice(everything))
            run.errors += [f"rejected request: {r}" for r in emu.invalid_requests]
            run.errors += [f"exited: {fleet.exited()}"] if fleet.exited() else []
        finally:
            await fleet.stop_all()
            await store.close()
        run.errors += [
            line for line in fleet.outputs().splitlines() if " ERROR " in line or "Traceback" in line
        ]
        return run


def signal_all(fleet: Fleet, which: signal.Signals) -> None:
    for bot in fleet.processes.values():
        bot.process.send_signal(which)


async def memory_grown(emu: Emulator, fleet: Fleet, memory: Path) -> None:
    """Each process's memory grown while the games were opened, by line (bench/bot_process.py)."""
    signal_all(fleet, signal.SIGUSR2)
    await emu.wait_until(memory.exists, 120, "the memory report")
    print("\n== memory grown in a process while the games were opened (tracemalloc) ==")
    print_file(memory)


def print_file(path: Path) -> None:
    print(path.read_text())


def report(run: Run) -> None:
    games = len(run.games)
    print(f"\n== {run.processes} process(es), {SHARDS} shards, {games} open games on PostgreSQL ==")
    print(f"opened in {run.open_s:.1f} s ({games / run.open_s:.0f} games/s)" if run.open_s else "")
    print(
        f"load: {run.interactions} interactions in {run.load_s:.1f} s = "
        f"{run.interactions / run.load_s if run.load_s else 0:.0f} interactions/s; errors: {len(run.errors)}"
    )
    kinds = Counter(
        re.sub(r"#?kt-\d+|\b[0-9a-f]{12}\b|<[^>]*>|\d+(\.\d+)? s", "…", e)[:120] for e in run.errors
    )
    for kind, count in kinds.most_common(8):
        print(f"  {count} x error: {kind}")
    for name, samples in (
        ("pong, paced", run.paced_pongs),
        ("seal, paced", run.paced_seals),
        ("seal, under load", run.loaded_seals),
        ("reveal in the thread, after the seal", run.reveal_waits),
        ("mission pick (thread), under load", run.loaded_picks),
    ):
        print(summary(name, samples) if samples else f"{name}: no samples")
    if run.paced_pongs and run.paced_seals:
        ratio = percentile(run.paced_seals, 50) / percentile(run.paced_pongs, 50)
        print(f"ratio paced seal : paced pong at p50 = {ratio:.2f}x")
    print(
        f"posts lost: {run.lost}; posts duplicated: {run.duplicated} (games whose round never completed, "
        f"a seal unanswered: {run.unfinished})"
    )
    for index, (idle, opened, end) in enumerate(
        zip(run.rss_idle_mb, run.rss_open_mb, run.rss_end_mb, strict=True)
    ):
        print(
            f"process {index}: RSS {idle:.0f} MB idle, {opened:.0f} MB with the games open, "
            f"{end:.0f} MB at the end"
        )
    grown = sum(run.rss_open_mb) - sum(run.rss_idle_mb)
    print(
        f"RSS in all: {sum(run.rss_open_mb):.0f} MB with {games} games open; "
        f"{grown / games * 1000 if games else 0:.1f} MB per 1,000 open games over idle"
    )
    second = games - games // 2
    more = sum(run.rss_open_mb) - sum(run.rss_half_mb)
    print(
        f"RSS of the second half alone (past each process's one-time start-up): {more:.0f} MB for "
        f"{second} games, {more / second * 1000 if second else 0:.1f} MB per 1,000 open games"
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a small run: 100 games, 20 paced")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--paced", type=int, default=None, help="games played one click at a time")
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--database", default=DEFAULT_DATABASE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--open-only", action="store_true", help="open the games, read RSS, stop there")
    parser.add_argument(
        "--memory", type=Path, default=None, help="tracemalloc: what opening the games allocated, to FILE"
    )
    args = parser.parse_args()
    games = args.games or (100 if args.quick else 1000)
    paced = args.paced if args.paced is not None else (20 if args.quick else 100)
    failed = False
    for count in (int(p) for p in args.processes.split(",")):
        if args.memory:
            args.memory.unlink(missing_ok=True)
        run = await one_deployment(
            count,
            games,
            min(paced, games),
            args.concurrency,
            args.database,
            args.seed,
            args.memory,
            args.open_only,
        )
        report(run)
        failed = failed or bool(run.errors or run.lost or run.duplicated)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
