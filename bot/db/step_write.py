"""One game step's whole write: the state (if its version is unchanged), its dice and what it owes
the table (its render job: the messages are rendered after the player's answer, bot/play/rendering.py).

Every click that changes a game makes exactly this write, so it is the store's hot path. It has
three forms that write the same rows:

- `apply_step` runs SQLAlchemy Core statements in a sync `Session`: portable, used on every
  backend and whenever the fast form can't be used;
- `SqliteStepWriter` runs the same statements, compiled once from the tables, on a plain sqlite3
  connection in the event loop. A WAL commit with `synchronous=NORMAL` is a write to the page
  cache, far cheaper than handing the work to a thread and back while the loop competes for the
  GIL. That connection never checkpoints (the store's other connections do, off the loop) and
  never waits for a lock: if another process holds SQLite's write lock it raises `WriterBusy`
  at once, and the store applies the step off the loop instead;
- `PostgresStepStatement` makes the whole write one PostgreSQL statement: one round trip.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, insert, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.orm import Session

from bot.db.engine import text_without_nul, without_nul
from bot.db.models import DiceRoll, GameSession, OutboxMessage, RenderJob

SESSIONS: Table = GameSession.__table__  # type: ignore[assignment]
DICE: Table = DiceRoll.__table__  # type: ignore[assignment]
OUTBOX: Table = OutboxMessage.__table__  # type: ignore[assignment]
JOBS: Table = RenderJob.__table__  # type: ignore[assignment]
HANGING = (DICE, OUTBOX, JOBS)
"""The tables whose rows hang on a step's versioned update, in the order they are written."""


class WriterBusy(Exception):
    """SQLite's write lock is held by another connection; the step was not applied."""


@dataclass(frozen=True)
class StepWrite:
    """Everything one step stores. `dice`, `outbox` and `jobs` rows hold every column but the id
    (a step stores its render job; messages already rendered go straight to the outbox)."""

    session_id: str
    expected_version: int
    state: str
    version: int
    status: str
    at: datetime
    status_changes: bool = True  # False: the step leaves the session's status as it was
    dice: list[dict[str, Any]] = field(default_factory=list)
    outbox: list[dict[str, Any]] = field(default_factory=list)
    jobs: list[dict[str, Any]] = field(default_factory=list)

    def rows(self) -> tuple[tuple[Table, list[dict[str, Any]]], ...]:
        """The rows that hang on the versioned update, by table (`HANGING`'s order)."""
        return ((DICE, self.dice), (OUTBOX, self.outbox), (JOBS, self.jobs))

    def state_values(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "version": self.version,
            "status": self.status,
            "updated_at": self.at,
            "reminded_at": None,
        }


def apply_step(write: StepWrite, db: Session) -> bool:
    """The portable form; False (nothing written) when someone else changed the session first."""
    stored = db.execute(
        update(SESSIONS)
        .where(SESSIONS.c.id == write.session_id, SESSIONS.c.version == write.expected_version)
        .values(**write.state_values())
    )
    if stored.rowcount != 1:  # type: ignore[attr-defined]
        return False
    for table, rows in write.rows():
        if rows:
            db.execute(insert(table), rows)
    return True


class _Compiled:
    """A statement compiled once for SQLite, with its parameters' order and converters."""

    def __init__(self, table: Table, statement: Any) -> None:
        dialect = sqlite_dialect.dialect(paramstyle="qmark")
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        names: list[str] = list(compiled.positiontup or [])
        self.names = names
        # The dialect's own type converts, as SQLAlchemy does, so the fast form stores exactly what
        # the portable form does: SQLite compares stored times as text in queries (a generic time's
        # converter handed sqlite3 an aware datetime, stored with a "+00:00" suffix).
        converters: list[Callable[[Any], Any] | None] = []
        for name in names:
            column = table.c.get(name.removeprefix("w_"))
            converter = None if column is None else column.type.dialect_impl(dialect).bind_processor(dialect)
            converters.append(converter)
        self.converters = converters

    def params(self, values: dict[str, Any]) -> tuple[Any, ...]:
        out = []
        for name, convert in zip(self.names, self.converters, strict=True):
            value = values[name]
            out.append(convert(value) if convert is not None and value is not None else value)
        return tuple(out)


def _update_of(status_changes: bool) -> _Compiled:
    """The versioned update of a session's row, setting its status or leaving it."""
    columns = ("state", "version", *(["status"] if status_changes else []), "updated_at")
    return _Compiled(
        SESSIONS,
        update(SESSIONS)
        .where(SESSIONS.c.id == bindparam("w_id"), SESSIONS.c.version == bindparam("w_version"))
        .values({name: bindparam(name) for name in columns})
        .values(reminded_at=None),
    )


def _insert_of(table: Table, columns: list[str]) -> _Compiled:
    return _Compiled(table, insert(table).values({name: bindparam(name) for name in columns}))


@functools.cache
def _python_defaults(table: Table) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A table's column defaults that SQLAlchemy would fill in: (constants, columns stamped `at`),
    read from the table once per process (callers never change what it returns).

    Every callable default on the tables a step writes is `utcnow`, so the step's time stands in.
    """
    constants: dict[str, Any] = {}
    stamped: list[str] = []
    for column in table.columns:
        default = column.default
        if default is None:
            continue
        if default.is_callable:
            stamped.append(column.name)
        elif default.is_scalar:
            constants[column.name] = default.arg  # type: ignore[attr-defined]
    return constants, tuple(stamped)


class SqliteStepWriter:
    """The fast form, for a SQLite file; used only from the event loop's thread."""

    def __init__(self, path: str, pragmas: Callable[[sqlite3.Connection], None]) -> None:
        self._path = path
        self._pragmas = pragmas
        self._connection: sqlite3.Connection | None = None
        # Status is set only by a step that changes it: SQLite rewrites the entry of every index on
        # a column the UPDATE sets (three hold status), whether or not its value changes.
        self._updates = {changes: _update_of(changes) for changes in (True, False)}
        self._inserts: dict[tuple[str, tuple[str, ...]], _Compiled] = {}

    def _begin(self) -> sqlite3.Connection:
        """The connection, in a write transaction taken at once (else `WriterBusy`)."""
        connection = self._connect()
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise WriterBusy() from exc
            raise
        return connection

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
            self._pragmas(connection)
            connection.execute("PRAGMA busy_timeout=0")  # never wait on the loop: see WriterBusy
            connection.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints happen off the loop
            self._connection = connection
        return self._connection

    def _insert(
        self, table: Table, rows: list[dict[str, Any]], at: datetime
    ) -> tuple[_Compiled, list[tuple[Any, ...]]]:
        constants, stamped = _python_defaults(table)
        defaults = {**constants, **dict.fromkeys(stamped, at)}
        rows = [{**defaults, **row} for row in rows]
        columns = tuple(rows[0])
        key = (table.name, columns)
        compiled = self._inserts.get(key)
        if compiled is None:
            compiled = self._inserts[key] = _insert_of(table, list(columns))
        return compiled, [compiled.params(row) for row in rows]

    def apply(self, write: StepWrite) -> bool:
        connection = self._begin()
        try:
            values = {"w_id": write.session_id, "w_version": write.expected_version, **write.state_values()}
            statement = self._updates[write.status_changes]
            if connection.execute(statement.sql, statement.params(values)).rowcount != 1:
                connection.execute("ROLLBACK")
                return False
            for table, rows in write.rows():
                if rows:
                    compiled, params = self._insert(table, rows, write.at)
                    connection.executemany(compiled.sql, params)
            connection.execute("COMMIT")
            return True
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def insert(self, table: Table, rows: list[dict[str, Any]], at: datetime) -> None:
        """Rows that hang on nothing (the dice audit of stand-alone rolls), in one executemany and
        one commit; `at` stands in for the columns stamped with the time when a row has none."""
        connection = self._begin()
        try:
            compiled, params = self._insert(table, rows, at)
            connection.executemany(compiled.sql, params)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def version_of(self, session_id: str) -> tuple[int, str] | None:
        """A session's stored version and status: a read of one indexed row, in the loop (a WAL
        reader never waits for a writer)."""
        row = (
            self._connect()
            .execute("SELECT version, status FROM game_sessions WHERE id = ?", (session_id,))
            .fetchone()
        )
        return None if row is None else (int(row[0]), str(row[1]))

    def languages_of(self, guild_id: int | None, users: Sequence[int]) -> tuple[str | None, dict[int, str]]:
        """A server's chosen language and some users' last-seen locales, read in the loop."""
        connection = self._connect()
        chosen = None
        if guild_id is not None:
            row = connection.execute("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
            found = row.fetchone()
            chosen = None if found is None or found[0] is None else str(found[0])
        if not users:
            return chosen, {}
        marks = ", ".join("?" * len(users))
        rows = connection.execute(
            f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})", users
        )
        return chosen, {int(user): str(locale) for user, locale in rows.fetchall()}

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


Shape = tuple[tuple[tuple[str, ...], bool], ...]
"""A step write's shape, by table (`HANGING`'s order): its rows' columns (none: no rows), and
whether it has one row."""


@dataclass(frozen=True)
class _OneRow:
    """How a table's one row fills its parameters: its own columns, then the defaults SQLAlchemy
    would fill in (constants, then the columns stamped with the step's time)."""

    columns: tuple[str, ...]
    constants: tuple[Any, ...]
    stamped: int


class PostgresStepStatement:
    """The whole step as one PostgreSQL statement, run outside a transaction: one round trip.

    A statement is atomic on its own, so the versioned UPDATE and the inserts that hang on it (data-
    modifying CTEs selecting from the UPDATE's RETURNING: no row back, nothing inserted) commit
    together or not at all. A table's one row (a step's render job, nearly always alone) travels as
    a parameter per column; several rows (a roll-off's dice, a result's messages) as one JSON array,
    in order. Parsing a render job's JSON, which holds the state before the step, cost PostgreSQL
    about a fifth of the step's round trip.

    The statement is written with asyncpg's own `$n` parameters, once per shape, with how each
    table's row fills them: a click then only lists its values. Building a dict of named
    parameters, ordering it for asyncpg and walking it for NUL took a click about 0.2 ms with the
    CPU's caches emptied, 0.1 ms more than this (bench/seal_emptied.py times the piece).
    """

    def __init__(self) -> None:
        self._plans: dict[Shape, tuple[str, tuple[_OneRow | None, ...]]] = {}

    def build(self, write: StepWrite) -> tuple[str, list[Any]]:
        """The statement and its values, in order, NUL shown as U+FFFD in each text."""
        rows = write.rows()
        shape = tuple(
            (tuple(rows_of[0]), len(rows_of) == 1) if rows_of else ((), False) for _t, rows_of in rows
        )
        plan = self._plans.get(shape)
        if plan is None:
            plan = self._plans[shape] = self._plan(shape)
        sql, ones = plan
        values: list[Any] = [
            write.session_id,
            write.expected_version,
            write.state,
            write.version,
            write.status,
            write.at,
        ]
        for (table, hanging), one in zip(rows, ones, strict=True):
            if one is not None:
                row = hanging[0]
                values.extend([row[column] for column in one.columns])
                values.extend(one.constants)
                values.extend([write.at] * one.stamped)
            elif hanging:
                values.append(self._rows(table, hanging, write.at))
        return sql, [text_without_nul(value) for value in values]

    def _plan(self, shape: Shape) -> tuple[str, tuple[_OneRow | None, ...]]:
        """The statement for one shape, and how each table's one row (if it has one) fills it."""
        parts = [
            "s AS (UPDATE game_sessions SET state = $3, version = $4, status = $5, "
            "updated_at = $6, reminded_at = NULL WHERE id = $1 AND version = $2 RETURNING id)"
        ]
        ones: list[_OneRow | None] = []
        taken = 6
        for table, (columns, one) in zip(HANGING, shape, strict=True):
            if not columns:
                ones.append(None)
                continue
            constants, stamped = _python_defaults(table)
            filled = [c for c in constants if c not in columns]
            at = [c for c in stamped if c not in columns and c not in constants]
            every = (*columns, *filled, *at)
            ones.append(_OneRow(columns, tuple(constants[c] for c in filled), len(at)) if one else None)
            parts.append(self._insert_cte(table, every, one, taken))
            taken += len(every) if one else 1
        return "WITH " + ", ".join(parts) + " SELECT count(*) FROM s", tuple(ones)

    def _insert_cte(self, table: Table, columns: tuple[str, ...], one: bool, taken: int) -> str:
        """A table's insert, after `taken` parameters: one row's columns each a parameter, or
        several rows as one JSON array."""
        dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
        types = {c: table.c[c].type.compile(dialect=dialect) for c in columns}
        names = ", ".join(columns)
        name = f"new_{table.name}"
        if one:
            values = ", ".join(f"CAST(${taken + n} AS {types[c]})" for n, c in enumerate(columns, 1))
            return f"{name} AS (INSERT INTO {table.name} ({names}) SELECT {values} FROM s)"
        record = ", ".join(f"{c} {types[c]}" for c in columns)
        picked = ", ".join(f"x.{c}" for c in columns)
        return (
            f"{name} AS (INSERT INTO {table.name} ({names}) SELECT {picked} FROM s, "
            f"ROWS FROM (jsonb_to_recordset(CAST(CAST(${taken + 1} AS text) AS jsonb)) AS ({record})) "
            f"WITH ORDINALITY AS x({names}, n) ORDER BY x.n)"
        )

    def _filled(self, table: Table, rows: list[dict[str, Any]], at: datetime) -> list[dict[str, Any]]:
        """The rows with the column defaults SQLAlchemy would have filled in."""
        constants, stamped = _python_defaults(table)
        return [{**constants, **dict.fromkeys(stamped, at), **row} for row in rows]

    def _rows(self, table: Table, rows: list[dict[str, Any]], at: datetime) -> str:
        filled = without_nul(self._filled(table, rows, at))  # jsonb refuses "\u0000" as text refuses NUL
        return json.dumps(filled, default=lambda v: v.isoformat() if isinstance(v, datetime) else str(v))
