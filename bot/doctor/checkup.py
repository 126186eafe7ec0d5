"""`muster doctor`: what a deployment needs, checked before it is started, one line per check.

Each check says what it found and, when something is wrong, what to do. Nothing is changed: the
database is not migrated (a missing SQLite file is not even created) and Discord is only read over
REST, without a gateway session, so the doctor can run beside live shard processes. The command
tree is checked first and offline, token or not (bot/doctor/command_tree.py): a tree Discord refuses stops
the bot at its first sync. The database and settings checks are here; the Discord ones are in
bot/doctor/on_discord.py.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.engine.url import URL

from bot import config
from bot.config import StoreSettings
from bot.doctor.command_tree import muster_payload, problems
from bot.doctor.on_discord import check_discord
from bot.doctor.report import Check, Report, first_line
from bot.lang import i18n


class DoctorSettings(StoreSettings):
    """Everything `muster run` reads, unvalidated, so a bad value is reported instead of fatal."""

    discord_token: str | None = None
    discord_api_base: str | None = None
    muster_shard_ids: str | None = None
    muster_shard_count: str | None = None


CommandSource = Callable[[], Awaitable[list[dict[str, Any]]]]
"""What a command sync would send (the bot's own tree, unless a test gives another)."""


async def diagnose(
    settings: DoctorSettings,
    report: Report,
    *,
    max_servers: int = 100,
    commands: CommandSource | None = None,
) -> bool:
    """Run every check, reporting each as it ends; True when none failed."""
    results: list[Check] = []

    def add(check: Check) -> None:
        results.append(check)
        report(check)

    for check in await check_commands(commands or muster_payload):
        add(check)
    for check in await check_database(settings.database_url):
        add(check)
    token = check_token(settings.discord_token)
    add(token)
    shards = check_shards(settings.muster_shard_ids, settings.muster_shard_count, settings.database_url)
    add(shards)
    if token.ok:
        assert settings.discord_token is not None
        count = _shard_count(settings.muster_shard_count) if shards.ok else None
        await check_discord(
            config.check_token(settings.discord_token),
            settings.discord_api_base,
            add,
            shard_count=count,
            max_servers=max_servers,
        )
    else:
        add(Check("Discord", None, "not checked without a usable DISCORD_TOKEN"))
    return not any(check.ok is False for check in results)


# --- the command tree ------------------------------------------------------------------------------


async def check_commands(source: CommandSource) -> list[Check]:
    """The command tree, translated as a sync sends it, against Discord's rules: one line per problem."""
    try:
        payload = await source()
    except Exception as error:  # a cog that cannot load is the finding itself
        return [Check("Commands", False, f"cannot build the command tree: {first_line(error)}")]
    found = problems(payload)
    if found:
        return [
            Check(f"Command {problem.path}", False, f"{problem.text}; Discord refuses the whole command sync")
            for problem in found
        ]
    languages = ", ".join(i18n.TRANSLATED)
    return [
        Check(
            "Commands",
            True,
            f"{len(payload)} commands, translated into {languages} as a sync sends them, "
            "within Discord's rules",
        )
    ]


# --- the database ------------------------------------------------------------------------------


async def check_database(url: str) -> list[Check]:
    """Whether DATABASE_URL answers (engine and server version), and whether its schema is current."""
    from bot.db.engine import make_engine

    try:
        parsed = make_url(url)
    except Exception as error:  # SQLAlchemy's ArgumentError, or a bad port number
        return [
            Check("Database", False, f"DATABASE_URL is not a database URL ({error})"),
            Check("Migrations", None, "not checked without a database"),
        ]
    where = parsed.render_as_string(hide_password=True)
    missing = _missing_sqlite_file(parsed)
    if missing is not None:
        return _sqlite_not_created(missing)
    engine = None
    try:
        engine = make_engine(url)
        async with engine.connect() as connection:
            version = ".".join(str(part) for part in connection.dialect.server_version_info or ())
            current = await connection.run_sync(_current_revisions)
    except Exception as error:  # any failure to connect is the finding itself
        return [
            Check(
                "Database",
                False,
                f"cannot use {where}: {first_line(error)}; check DATABASE_URL, and that the server "
                "runs and has that database",
            ),
            Check("Migrations", None, "not checked without a database"),
        ]
    finally:
        if engine is not None:
            await engine.dispose()
    name = parsed.get_backend_name()
    return [Check("Database", True, f"{name} {version} at {where}"), check_revisions(current)]


def _current_revisions(connection: Connection) -> set[str]:
    return set(MigrationContext.configure(connection).get_current_heads())


def check_revisions(current: set[str]) -> Check:
    """The database's Alembic revisions against the scripts' heads, without upgrading anything."""
    from bot.migrate import alembic_config

    scripts = ScriptDirectory.from_config(alembic_config())
    heads = set(scripts.get_heads())
    latest = ", ".join(sorted(heads))
    if current == heads:
        return Check("Migrations", True, f"up to date (revision {latest})")
    if not current:
        return Check(
            "Migrations",
            False,
            f"the database has no schema yet (latest revision {latest}); run `muster migrate`",
        )
    known = {script.revision for script in scripts.walk_revisions()}
    at = ", ".join(sorted(current))
    if current - known:
        return Check(
            "Migrations",
            False,
            f"the database is at revision {at}, which this Muster does not know: a newer version "
            "migrated it; run that version or a later one",
        )
    return Check(
        "Migrations",
        False,
        f"the database is at revision {at}, the latest is {latest}; run `muster migrate` "
        "(`muster run` also migrates when it starts)",
    )


def _missing_sqlite_file(url: URL) -> Path | None:
    """The path of a SQLite file that does not exist yet (connecting would create it)."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    path = Path(url.database)
    return None if path.exists() else path


def _sqlite_not_created(path: Path) -> list[Check]:
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not os.access(folder, os.W_OK):
        database = Check("Database", False, f"{path} does not exist and {folder} is not writable")
    else:
        database = Check(
            "Database",
            True,
            f"sqlite {sqlite3.sqlite_version}; {path} does not exist yet (`muster migrate` creates it)",
        )
    return [database, check_revisions(set())]


# --- the settings ------------------------------------------------------------------------------


def check_token(raw: str | None) -> Check:
    if raw is None or not raw.strip():
        return Check(
            "DISCORD_TOKEN",
            False,
            "not set; copy the bot's token from the Discord Developer Portal (Bot → Reset Token) "
            "into the environment or .env",
        )
    try:
        config.check_token(raw)
    except ValueError:
        return Check(
            "DISCORD_TOKEN",
            False,
            "does not look like a bot token (three parts separated by dots); copy it again from the "
            "Developer Portal (Bot → Reset Token)",
        )
    return Check("DISCORD_TOKEN", True, "set, and shaped like a bot token")


def _shard_count(raw: str | None) -> int | None:
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"MUSTER_SHARD_COUNT must be a whole number of at least 1, not {text!r}")
    return int(text)


def check_shards(ids_text: str | None, count_text: str | None, database_url: str) -> Check:
    """MUSTER_SHARD_IDS and MUSTER_SHARD_COUNT agree, and a process sharing the shards shares PostgreSQL."""
    try:
        count = _shard_count(count_text)
        ids = config.parse_shard_ids(ids_text) if ids_text and ids_text.strip() else None
        config.check_shards(ids, count)
    except ValueError as error:
        return Check("Shards", False, str(error))
    if count is None:
        return Check("Shards", True, "one process runs as many shards as Discord recommends")
    if ids is None or set(ids) == set(range(count)):
        return Check("Shards", True, f"this process runs all {count} shards")
    named = ", ".join(str(i) for i in ids)
    try:
        sqlite = make_url(database_url).get_backend_name() == "sqlite"
    except Exception:  # already reported by the database check
        sqlite = False
    if sqlite:
        return Check(
            "Shards",
            False,
            f"this process runs shard {named} of {count}, so other processes run the rest, and they "
            "must all share one PostgreSQL database, but DATABASE_URL is SQLite (for one process "
            "only); set DATABASE_URL=postgresql+asyncpg://… in every process",
        )
    role = (
        "it syncs the commands and receives DMs"
        if 0 in ids
        else "the process running shard 0 syncs the commands and receives DMs"
    )
    return Check("Shards", True, f"this process runs shard {named} of {count}; {role}")
