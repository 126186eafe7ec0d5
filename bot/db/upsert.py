"""Inserts that never fail on a key another process wrote first (SQLite and PostgreSQL alike).

A read-then-insert races between processes (both read "absent", one insert fails), so every
write of a once-only fact or a keyed setting is one statement: ON CONFLICT DO NOTHING to claim,
ON CONFLICT DO UPDATE to set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.dml import Insert

from bot.db.models import BotMeta

META: Table = BotMeta.__table__  # type: ignore[assignment]


def dialect_insert(dialect: str, table: Table) -> Any:
    """An INSERT that knows ON CONFLICT (PostgreSQL's or SQLite's), for upserts of any shape."""
    return postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)


def insert_or_ignore(dialect: str, table: Table, values: dict[str, Any], keys: Sequence[str]) -> Insert:
    """Insert the row unless its key exists; RETURNING the key, so a row back means "ours"."""
    statement = (
        dialect_insert(dialect, table).values(values).on_conflict_do_nothing(index_elements=list(keys))
    )
    return statement.returning(*(table.c[k] for k in keys))  # type: ignore[no-any-return]


def insert_or_update(dialect: str, table: Table, values: dict[str, Any], keys: Sequence[str]) -> Insert:
    """Insert the row, or set its other columns where the key exists."""
    statement = dialect_insert(dialect, table).values(values)
    changes = {name: statement.excluded[name] for name in values if name not in keys}
    return statement.on_conflict_do_update(index_elements=list(keys), set_=changes)  # type: ignore[no-any-return]


def claim_meta(dialect: str, key: str, value: str = "told") -> Insert:
    """Take a once-only key in bot_meta (a row back: ours; none: someone had it already)."""
    return insert_or_ignore(dialect, META, {"key": key, "value": value}, ["key"])


def set_meta(dialect: str, key: str, value: str) -> Insert:
    return insert_or_update(dialect, META, {"key": key, "value": value}, ["key"])
