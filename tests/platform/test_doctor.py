"""`muster doctor`: one line per check, exit 0 only when all pass, never a traceback.

The process tests run the CLI from this checkout (PYTHONPATH), against a fresh database and, for
the Discord checks, the emulator (read over REST only: the doctor never opens a gateway session).
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import discord
import pytest
from alembic.script import ScriptDirectory
from discord import app_commands
from sqlalchemy.engine import make_url

from bot import cli
from bot.doctor import checkup as doctor
from bot.doctor.checkup import DoctorSettings, check_revisions, check_shards
from bot.doctor.command_tree import sync_payload
from bot.doctor.on_discord import granted_permissions
from bot.migrate import alembic_config
from tests.emulator import Emulator
from tests.emulator.model import BOT_PERMISSIONS, EVERYONE_PERMISSIONS, permissions

ROOT = Path(__file__).resolve().parents[2]
SQLITE = "sqlite+aiosqlite:///muster.sqlite3"
POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


async def muster(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, list[str], str]:
    """Run `muster ARGS` as a process without blocking the loop (the emulator answers meanwhile)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "MUSTER_"))}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        *args,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode().splitlines(), err.decode()


def line(lines: list[str], name: str) -> str:
    (found,) = [text for text in lines if text[2:].startswith(f"{name}:")]
    return found


async def test_a_fresh_database_needs_migrating_then_is_up_to_date(database_url: str, tmp_path: Path) -> None:
    env = {"DATABASE_URL": database_url}
    code, lines, err = await muster(["doctor"], env, tmp_path)
    assert code == 1 and "Traceback" not in err
    # The command tree is checked offline, first, without a token.
    assert lines[0].startswith("✔ Commands: ") and "translated into de, fr, es" in lines[0]
    assert line(lines, "Database").startswith(f"✔ Database: {make_url(database_url).get_backend_name()} ")
    migrations = line(lines, "Migrations")
    assert migrations.startswith("✘") and "run `muster migrate`" in migrations
    # No token is a finding, not a crash; Discord is then left alone.
    assert line(lines, "DISCORD_TOKEN").startswith("✘ DISCORD_TOKEN: not set")
    assert line(lines, "Discord").startswith("– Discord: not checked")
    assert lines[-1] == "muster: some checks failed (✘ above)"
    assert not (tmp_path / "muster.sqlite3").exists()  # the doctor changed nothing, not even made a file

    code, _, err = await muster(["migrate"], env, tmp_path)
    assert code == 0, err
    _, lines, _ = await muster(["doctor"], env, tmp_path)
    assert line(lines, "Migrations") == f"✔ Migrations: up to date (revision {HEAD})"


async def test_an_unreachable_database_and_a_malformed_token(tmp_path: Path) -> None:
    env = {
        "DATABASE_URL": "postgresql+asyncpg://postgres:secret@127.0.0.1:9/none",
        "DISCORD_TOKEN": "not-a-token",
    }
    code, lines, err = await muster(["doctor"], env, tmp_path)
    assert code == 1 and "Traceback" not in err
    database = line(lines, "Database")
    assert database.startswith("✘ Database: cannot use") and "check DATABASE_URL" in database
    assert "secret" not in "\n".join(lines)
    assert line(lines, "Migrations").startswith("– Migrations: not checked")
    token = line(lines, "DISCORD_TOKEN")
    assert token.startswith("✘ DISCORD_TOKEN: does not look like a bot token") and "Developer Portal" in token
    assert line(lines, "Discord").startswith("– Discord: not checked")


async def test_against_the_emulator_a_server_without_create_public_threads(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'muster.sqlite3'}"
    code, _, err = await muster(["migrate"], {"DATABASE_URL": url}, tmp_path)
    assert code == 0, err
    async with Emulator() as emu:
        emu.add_default_world()  # Club: the invite's permissions
        threads = permissions("create_public_threads")
        annex = emu.add_guild(
            "Annex",
            bot_permissions=BOT_PERMISSIONS & ~threads,
            everyone_permissions=EVERYONE_PERMISSIONS & ~threads,
        )
        env = {"DATABASE_URL": url, **emu.env()}

        code, lines, err = await muster(["doctor"], env, tmp_path)
        assert code == 1, "\n".join(lines) + err
        assert line(lines, "DISCORD_TOKEN").startswith("✔")
        assert line(lines, "Discord").startswith(f"✔ Discord: logged in to {emu.api_base} as Muster")
        assert "in 2 servers" in line(lines, "Discord")
        assert line(lines, f"Server Annex ({annex.id})") == (
            f"✘ Server Annex ({annex.id}): the bot lacks Create Public Threads; grant it to its role "
            "in Server Settings → Roles"
        )
        assert not [text for text in lines if "Club" in text]
        assert lines[-1] == "muster: some checks failed (✘ above)"

        bot_role = next(role for role in annex.roles.values() if role.bot_id == emu.bot_user.id)
        bot_role.permissions |= threads  # the server's admin fixes the bot's role
        code, lines, err = await muster(["doctor"], env, tmp_path)
        assert code == 0, "\n".join(lines) + err
        assert all(text.startswith("✔") for text in lines[:-1])
        assert line(lines, "Permissions") == "✔ Permissions: the bot has what Muster needs in all 2 servers"
        assert lines[-1] == "muster: all checks passed"

        _, lines, _ = await muster(["doctor", "--servers", "1"], env, tmp_path)
        assert "the first 1 of 2 servers" in line(lines, "Permissions")

        assert not emu.gateway.log  # REST only: no gateway session beside the running shards
        assert not emu.unknown_requests and not emu.invalid_requests
        assert {(r.method, r.path) for r in emu.requests} >= {
            ("GET", "/users/@me/guilds"),
            ("GET", f"/guilds/{annex.id}/members/{emu.bot_user.id}"),
            ("GET", f"/guilds/{annex.id}/roles"),
        }


async def test_a_refused_token_is_reported(tmp_path: Path) -> None:
    async with Emulator() as emu:
        env = {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'muster.sqlite3'}",
            **emu.env(),
            "DISCORD_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbcde.abcdefghijklmnopqrstuvwxyz12345",
        }
        code, lines, err = await muster(["doctor"], env, tmp_path)
    assert code == 1 and "Traceback" not in err
    assert line(lines, "DISCORD_TOKEN").startswith("✔")  # shaped right, but not this bot's
    assert line(lines, "Discord").startswith("✘ Discord: DISCORD_TOKEN was refused")


async def capitalised_tree() -> list[dict[str, Any]]:
    """A tree whose German translator answers a parameter name with a capital, as Muster's once did."""

    class German(app_commands.Translator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: discord.Locale,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            german = locale is discord.Locale.german
            return {"player": "Spieler"}.get(string.message) if german else None

    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    scores = app_commands.Group(name="scores", description="Scores")

    @scores.command(description="One player's record")
    async def player(interaction: discord.Interaction, who: discord.User) -> None:  # pragma: no cover
        await interaction.response.send_message(who.name)

    tree.add_command(scores)
    await tree.set_translator(German())
    return await sync_payload(tree)


async def test_a_command_discord_would_refuse_is_found_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(doctor, "muster_payload", capitalised_tree)
    settings = DoctorSettings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'muster.sqlite3'}", discord_token=None
    )
    assert await cli._doctor(settings, 100) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (
        "✘ Command /scores player: name in de: 'Spieler' has capitals: names must be lowercase; "
        "Discord refuses the whole command sync"
    )
    assert not [text for text in lines if text.startswith("✔ Commands")]
    assert line(lines, "DISCORD_TOKEN").startswith("✘ DISCORD_TOKEN: not set")
    assert lines[-1] == "muster: some checks failed (✘ above)"


async def test_a_tree_that_cannot_be_built_is_a_finding() -> None:
    async def broken() -> list[dict[str, Any]]:
        raise ImportError("cannot import name 'Gone' from 'cogs.night'")

    (check,) = await doctor.check_commands(broken)
    assert (
        check.line()
        == "✘ Commands: cannot build the command tree: cannot import name 'Gone' from 'cogs.night'"
    )


# --- the checks themselves -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ids", "count", "url", "ok", "needle"),
    [
        (None, None, SQLITE, True, "as many shards as Discord recommends"),
        (None, "4", SQLITE, True, "runs all 4 shards"),
        ("0-1", "2", SQLITE, True, "runs all 2 shards"),
        ("0", "2", POSTGRES, True, "shard 0 of 2; it syncs the commands and receives DMs"),
        ("1", "2", POSTGRES, True, "the process running shard 0 syncs the commands"),
        ("1", "2", SQLITE, False, "must all share one PostgreSQL database"),
        ("1", None, POSTGRES, False, "MUSTER_SHARD_IDS needs MUSTER_SHARD_COUNT"),
        ("0-2", "2", POSTGRES, False, "names shard 2 but MUSTER_SHARD_COUNT is 2"),
        ("one", "2", POSTGRES, False, "is not a shard number"),
        (None, "0", POSTGRES, False, "at least 1"),
    ],
)
def test_shard_settings(ids: str | None, count: str | None, url: str, ok: bool, needle: str) -> None:
    check = check_shards(ids, count, url)
    assert check.ok is ok and needle in check.detail


def test_revisions_behind_ahead_and_current() -> None:
    assert check_revisions({str(HEAD)}).ok
    behind = check_revisions({"0001"})
    assert not behind.ok and f"at revision 0001, the latest is {HEAD}" in behind.detail
    ahead = check_revisions({"9999"})
    assert not ahead.ok and "does not know" in ahead.detail


def test_permissions_come_from_everyone_and_the_members_roles() -> None:
    server, bot_role, other = 1, 2, 3
    roles = {
        server: permissions("view_channel"),
        bot_role: permissions("send_messages"),
        other: permissions("embed_links"),
    }
    granted = granted_permissions(server, [bot_role], roles)
    assert granted.view_channel and granted.send_messages and not granted.embed_links
    roles[bot_role] = permissions("administrator")
    assert granted_permissions(server, [bot_role], roles) == discord.Permissions.all()
