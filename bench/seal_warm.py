"""A sealed bid's own work, each piece repeated in a warm loop: what the stretches that
bench/seal_timeline.py measures on a paced seal cost when the CPU's caches are warm.

A paced seal (bench/killteam_sealed.py) follows a pause, as a player's click does, so the process
starts it cold. This bench runs the same pure work in one process, again and again, with nothing
else between two runs:

- the rules' step (the first bid sealed), and the questions then asked of each player;
- the state's dump and the step's events, as the step's write stores them;
- on PostgreSQL, the step's one statement and its values, made ready to send;
- the clicked DM redrawn (the player's DMs rendered, then made Discord's JSON);
- SQLite's statements for the step (`SqliteStepWriter.apply`), alone, and after another connection
  wrote to the file, as the step's render and the outbox do between two clicks: SQLite then starts
  the step's transaction with an empty page cache.

Compare each figure with the same stretch of bench/seal_timeline.py.

Usage: python bench/seal_warm.py [REPEATS]   (prints figures; asserts nothing)
"""

from __future__ import annotations

import random
import sqlite3
import sys
import tempfile
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine

from bot.chat.render import message_json
from bot.db.engine import sqlite_pragmas
from bot.db.models import Base, utcnow
from bot.db.step_write import PostgresStepStatement, SqliteStepWriter, StepWrite
from bot.lang.languages import ENGLISH
from bot.play.games import SessionInfo
from bot.play.in_place import redrawn
from bot.play.jobs import job_row
from bot.play.table import answer_the_only_choices
from cogs.killteam.adapter import KillTeamAdapter
from rules.dice import Roller
from rules.killteam import KillTeamState, SealBid, load_default_pack, prompt_for, start
from rules.session import Event

ALICE, BOB = 1001, 2002
SESSION = "0123456789ab"
NONCE = "0123456789abcdef0123456789abcdef"


def microseconds(work: Callable[[], Any], repeats: int) -> float:
    """The best of five runs of `repeats` calls, per call: the warm cost, with the least noise."""
    return min(timeit.repeat(work, number=repeats, repeat=5)) / repeats * 1e6


def store(folder: str) -> tuple[SqliteStepWriter, sqlite3.Connection]:
    """A SQLite file with the store's tables and one open game; the step writer on it, and a
    second connection (the store's others) to write beside it."""
    path = str(Path(folder) / "warm.sqlite3")
    engine = create_engine(f"sqlite:///{path}")
    Base.metadata.create_all(engine)
    engine.dispose()
    other = sqlite3.connect(path, isolation_level=None)
    sqlite_pragmas(other)
    other.execute(
        "INSERT INTO game_sessions (id, guild_id, channel_id, system, organiser_id, player_a, player_b, "
        "title, state, version, status, created_at, updated_at) "
        "VALUES (?, 1, 2, 'killteam', ?, ?, ?, '', '{}', 1, 'open', ?, ?)",
        (SESSION, ALICE, ALICE, BOB, utcnow().isoformat(), utcnow().isoformat()),
    )
    return SqliteStepWriter(path, sqlite_pragmas), other


@dataclass(frozen=True)
class FirstSeal:
    """A fresh Kill Team Bid game and Alice's seal of its first bid, stepped once to know its result."""

    adapter: KillTeamAdapter
    state: KillTeamState
    seal: SealBid
    after: KillTeamState
    events: list[Event]
    dumped: tuple[str, str]  # the states before and after, as stored (made before any piece is timed)


def first_seal() -> FirstSeal:
    adapter = KillTeamAdapter()
    roller = Roller(random.Random(1))
    state, _events = start(SESSION, [ALICE, BOB], "bid", "free", roller, pack=load_default_pack())
    asked = prompt_for(state, ALICE)
    assert asked is not None and asked.step is not None
    seal = SealBid(actor=ALICE, step=asked.step, amount=3, nonce=NONCE)
    after, events = adapter.procedure.step(state, seal, roller)
    dumped = (adapter.procedure.dump(state), adapter.procedure.dump(after))
    return FirstSeal(adapter, state, seal, after, events, dumped)


def pure_pieces(first: FirstSeal) -> dict[str, Callable[[], Any]]:
    """The seal's pure work, piece by piece, each a call that does it once as the click's handler
    does it (also timed by bench/seal_emptied.py)."""
    adapter, procedure, roller = first.adapter, first.adapter.procedure, Roller(random.Random(1))
    state, after, events = first.state, first.after, first.events
    info = SessionInfo(SESSION, 1, 2, "killteam", ALICE, (ALICE, BOB), "open", 2)
    dm_key = f"dm.{ALICE}.{first.seal.step}"  # the bid's own DM prompt, the one clicked
    before_json = first.dumped[0]
    write = seal_write(first, 1)

    def fresh_questions() -> None:
        copy = after.model_copy()  # a state not asked before: the questions are made, not remembered
        procedure.ask(copy, ALICE)
        procedure.ask(copy, BOB)

    def redraw() -> None:
        message = redrawn(adapter, info, (state, after, events, []), ENGLISH, dm_key, ALICE)
        if message is not None:
            message_json(SESSION, message)

    assert redrawn(adapter, info, (state, after, events, []), ENGLISH, dm_key, ALICE) is not None, dm_key
    return {
        "rules (the step)": lambda: procedure.step(state, first.seal, roller),
        "the questions then asked (both players)": fresh_questions,
        "only choices (remembered questions)": lambda: answer_the_only_choices(
            adapter, after, events, roller
        ),
        "dump": lambda: procedure.dump(after),
        "job row (the events dumped)": lambda: job_row(procedure, SESSION, 2, before_json, events, []),
        "redraw (the player's DMs, as Discord's JSON)": redraw,
        "PostgreSQL's statement and values (not sent)": partial(PostgresStepStatement().build, write),
    }


def seal_write(first: FirstSeal, version: int) -> StepWrite:
    """What the seal's step stores, made from the game at `version`."""
    before_json, after_json = first.dumped
    return StepWrite(
        session_id=SESSION,
        expected_version=version,
        state=after_json,
        version=version + 1,
        status="open",
        at=utcnow(),
        status_changes=False,
        jobs=[job_row(first.adapter.procedure, SESSION, version + 1, before_json, first.events, [])],
    )


def step_write(writer: SqliteStepWriter, first: FirstSeal) -> Callable[[], None]:
    """SQLite's statements for the seal's step (`SqliteStepWriter.apply`), each call one more
    version of the game."""
    version = [1]

    def write() -> None:
        assert writer.apply(seal_write(first, version[0]))
        version[0] += 1

    return write


def another_write(other: sqlite3.Connection) -> None:
    """A write by another connection to the store, as the step's render and the outbox make between
    two clicks: SQLite then starts the step's transaction with an empty page cache."""
    other.execute("UPDATE game_sessions SET reminded_at = NULL WHERE id = ?", (SESSION,))


def main(repeats: int) -> None:
    first = first_seal()
    pieces = pure_pieces(first)
    print(f"A Kill Team bid sealed, each piece warm (best of 5 x {repeats}), in µs:")
    for name, work in pieces.items():
        print(f"  {name:<46} {microseconds(work, repeats):8.1f}")
    with tempfile.TemporaryDirectory() as folder:
        writer, other = store(folder)
        write = step_write(writer, first)

        def after_another_write() -> None:
            another_write(other)
            write()

        alone = microseconds(write, repeats)
        with_other = microseconds(after_another_write, repeats)
        other_alone = microseconds(partial(another_write, other), repeats)
        for name, figure in (
            ("SQLite's apply, alone", alone),
            ("SQLite's apply, after another's write", with_other - other_alone),
        ):
            print(f"  {name:<46} {figure:8.1f}")
        writer.close()
        other.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
