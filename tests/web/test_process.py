"""`muster web` as it runs in production: its own process, migrating a fresh database, answering
/health and a 404, then stopping cleanly on SIGTERM; a bad setting is one clear line and exit 2."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from asyncio.subprocess import DEVNULL
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def environment(database_url: str, **extra: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url, "LOG_FORMAT": "text", **extra}


async def test_muster_web_serves_and_stops(database_url: str) -> None:
    port = free_port()
    env = environment(database_url, MUSTER_WEB_HOST="127.0.0.1", MUSTER_WEB_PORT=str(port))
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "web", cwd=ROOT, env=env, stdout=DEVNULL, stderr=DEVNULL
    )
    try:
        async with aiohttp.ClientSession() as http:
            for _attempt in range(600):
                assert process.returncode is None, "muster web exited"
                try:
                    async with http.get(f"http://127.0.0.1:{port}/health") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("muster web did not answer /health within a minute")
            async with http.get(f"http://127.0.0.1:{port}/g/42") as response:
                assert response.status == 404 and response.headers["Content-Security-Policy"]
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


def test_a_bad_base_url_is_one_clear_line() -> None:
    env = environment("sqlite+aiosqlite:///unused.sqlite3", MUSTER_WEB_BASE_URL="league.example.org")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "web"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("muster: MUSTER_WEB_BASE_URL")
    assert len(done.stderr.strip().splitlines()) == 1
