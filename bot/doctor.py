"""`muster doctor`: what a deployment needs, checked before it is started, one line per check.

Each check says what it found and, when something is wrong, what to do. Nothing is changed: the
database is not migrated (a missing SQLite file is not even created) and Discord is only read over
REST, without a gateway session, so the doctor can run beside live shard processes.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import discord
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.engine.url import URL
from sqlalchemy.exc import DBAPIError

from bot import config
from bot.config import StoreSettings

# What Muster needs in a server (the README's invite list), as discord.py's flag and the client's name.
NEEDED_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channels"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
    ("read_message_history", "Read Message History"),
)
SERVERS_PER_SHARD = 2500  # Discord refuses a shard that would hold more
LOGIN_TIMEOUT = 30.0
PAGE = 200  # the most servers GET /users/@me/guilds returns at once


class DoctorSettings(StoreSettings):
    """Everything `muster run` reads, unvalidated, so a bad value is reported instead of fatal."""

    discord_token: str | None = None
    discord_api_base: str | None = None
    muster_shard_ids: str | None = None
    muster_shard_count: str | None = None


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: not checked, because something it depends on failed
    detail: str

    def line(self) -> str:
        mark = {True: "✔", False: "✘", None: "–"}[self.ok]
        return f"{mark} {self.name}: {self.detail}"


Report = Callable[[Check], None]


async def diagnose(settings: DoctorSettings, report: Report, *, max_servers: int = 100) -> bool:
    """Run every check, reporting each as it ends; True when none failed."""
    results: list[Check] = []

    def add(check: Check) -> None:
        results.append(check)
        report(check)

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
                f"cannot use {where}: {_first_line(error)}; check DATABASE_URL, and that the server "
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


# --- Discord -----------------------------------------------------------------------------------


async def check_discord(
    token: str,
    api_base: str | None,
    report: Report,
    *,
    shard_count: int | None = None,
    max_servers: int = 100,
) -> None:
    """Log in over REST only, then list the servers and what Muster lacks in each."""
    from bot.app import use_api_base

    try:
        base = config.check_api_base(api_base)
    except ValueError as error:
        report(Check("Discord", False, str(error)))
        return
    use_api_base(base)
    where = base or "Discord"
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        try:
            await asyncio.wait_for(client.login(token), LOGIN_TIMEOUT)
            servers = await _servers(client)
            recommended, _url, _limits = await client.http.get_bot_gateway()
        except discord.LoginFailure:
            report(
                Check(
                    "Discord",
                    False,
                    "DISCORD_TOKEN was refused (reset, or another bot's); copy the current one from "
                    "the Developer Portal",
                )
            )
            return
        except discord.HTTPException as error:
            report(Check("Discord", False, f"{where} answered {error.status}: {error.text or error}"))
            return
        except discord.GatewayNotFound:
            report(Check("Discord", False, f"{where} did not say how many shards to run (GET /gateway/bot)"))
            return
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            report(
                Check(
                    "Discord",
                    False,
                    f"cannot reach {where} ({_first_line(error) or type(error).__name__}); check the "
                    "network" + (" and DISCORD_API_BASE" if base else ""),
                )
            )
            return
        user = client.user
        assert user is not None
        report(
            Check(
                "Discord",
                True,
                f"logged in to {where} as {user} ({user.id}), in {_count(len(servers), 'server')}; "
                f"Discord recommends {_count(recommended, 'shard')}",
            )
        )
        if shard_count is not None and len(servers) > shard_count * SERVERS_PER_SHARD:
            least = -(-len(servers) // SERVERS_PER_SHARD)
            report(
                Check(
                    "Shards",
                    False,
                    f"{len(servers)} servers need at least {least} shards (Discord allows "
                    f"{SERVERS_PER_SHARD} per shard); raise MUSTER_SHARD_COUNT in every process",
                )
            )
        await _check_permissions(client, user.id, servers, report, max_servers)
    finally:
        await client.close()


@dataclass(frozen=True)
class Server:
    id: int
    name: str
    owner: bool  # the bot owns it: every permission


async def _servers(client: discord.Client) -> list[Server]:
    """Every server the bot is in, paging through GET /users/@me/guilds as Discord requires."""
    found: list[Server] = []
    after: int | None = None
    while True:
        page = await client.http.get_guilds(PAGE, after=after, with_counts=False)
        found.extend(Server(int(g["id"]), g["name"], bool(g.get("owner"))) for g in page)
        if len(page) < PAGE:
            return found
        after = max(int(g["id"]) for g in page)


async def _check_permissions(
    client: discord.Client,
    bot_id: int,
    servers: list[Server],
    report: Report,
    max_servers: int,
) -> None:
    """One line for each server where Muster lacks a permission it needs, else one line for all."""
    checked = servers if max_servers <= 0 else servers[:max_servers]
    lacking = 0
    for server in checked:
        where = f"Server {server.name} ({server.id})"
        try:
            granted = await server_permissions(client, server.id, bot_id, owner=server.owner)
        except discord.HTTPException as error:
            lacking += 1
            report(
                Check(
                    where,
                    False,
                    f"could not read the bot's roles ({error.status} {error.text}); is it still a member?",
                )
            )
            continue
        missing = [label for flag, label in NEEDED_PERMISSIONS if not getattr(granted, flag)]
        if missing:
            lacking += 1
            report(
                Check(
                    where,
                    False,
                    f"the bot lacks {', '.join(missing)}; grant {'it' if len(missing) == 1 else 'them'} "
                    "to its role in Server Settings → Roles",
                )
            )
    if not servers:
        report(Check("Permissions", True, "the bot is in no server yet; invite it (see the README)"))
    elif not lacking:
        scope = (
            f"all {len(checked)} servers"
            if len(checked) == len(servers)
            else f"the first {len(checked)} of {len(servers)} servers (`--servers 0` checks them all)"
        )
        report(Check("Permissions", True, f"the bot has what Muster needs in {scope}"))


async def server_permissions(
    client: discord.Client, server_id: int, bot_id: int, *, owner: bool = False
) -> discord.Permissions:
    """The bot's server-level permissions, read over REST (its member, the server's roles)."""
    if owner:
        return discord.Permissions.all()
    member = await client.http.get_member(server_id, bot_id)
    roles = {int(role["id"]): int(role["permissions"]) for role in await client.http.get_roles(server_id)}
    return granted_permissions(server_id, [int(r) for r in member["roles"]], roles)


def granted_permissions(
    server_id: int, member_roles: list[int], roles: dict[int, int]
) -> discord.Permissions:
    """@everyone's permissions (its role has the server's id) with the member's roles' (all of them
    for an administrator). Channel overwrites can still take some away in one channel."""
    value = roles.get(server_id, 0)
    for role_id in member_roles:
        value |= roles.get(role_id, 0)
    granted = discord.Permissions(value)
    return discord.Permissions.all() if granted.administrator else granted


def _first_line(error: BaseException) -> str:
    if isinstance(error, DBAPIError) and error.orig is not None:
        error = error.orig  # the driver's own words, without SQLAlchemy's "(module.Error)" prefix
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
