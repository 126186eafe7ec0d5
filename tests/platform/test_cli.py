"""`muster` as a process: configuration errors are one clear line and exit code 2; migrate works."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

MUSTER = [sys.executable, "-m", "bot.cli"]


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "MUSTER_"))}
    return subprocess.run(
        [*MUSTER, *args], env={**clean, **env}, cwd=cwd, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "not-a-token"}, "does not look like a Discord bot token"),
    ],
)
def test_bad_token_is_one_line_and_exit_2(tmp_path: Path, env: dict[str, str], needle: str) -> None:
    result = run(["run"], env, tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert "Traceback" not in result.stderr


def test_migrate_needs_no_token(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'm.sqlite3'}"
    result = run(["migrate"], {"DATABASE_URL": url}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "up to date" in result.stdout
    assert (tmp_path / "m.sqlite3").exists()


def test_default_database_is_a_sqlite_file_in_data(tmp_path: Path) -> None:
    result = run(["migrate"], {}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "data" / "muster.sqlite3").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not installed on Windows")
def test_the_bot_runs_on_uvloop() -> None:
    """Installed with the bot everywhere but Windows, and what `muster run` runs on."""
    from bot.cli import run_async

    async def loop_module() -> int:
        return 1 if type(asyncio.get_running_loop()).__module__.startswith("uvloop") else 0

    assert run_async(loop_module()) == 1
