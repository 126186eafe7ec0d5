"""The real `muster run` process against the emulator: start-up, a command, SIGTERM, a quiet restart."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.emulator import DefaultWorld, Emulator, start_bot_process

ROOT = Path(__file__).resolve().parents[2]


async def test_muster_run_as_a_process_survives_a_restart(
    emu: Emulator, world: DefaultWorld, tmp_path: Path
) -> None:
    env = {"DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'proc.sqlite3'}", "LOG_FORMAT": "json"}
    argv = [sys.executable, "-m", "bot.cli", "run"]
    process = await start_bot_process(argv, emu, env=env, cwd=ROOT)
    try:
        await emu.wait_commands_synced(["roll", "rolloff", "rolls", "settings", "help"], timeout=20)
        syncs = len(emu.sync_requests())
        assert syncs >= 1
        response = await (await emu.slash(world.alice, world.channel, "roll", dice="3d6+2")).response(
            timeout=3
        )
        assert "Total" in response.content
    finally:
        code = await process.stop()
    assert code == 0, process.output()
    assert '"level": "info"' in process.output()  # structured logs

    again = await start_bot_process(argv, emu, env=env, cwd=ROOT)
    try:
        response = await (await emu.slash(world.bob, world.channel, "roll", dice="d6")).response(timeout=5)
        assert "Total" in response.content
        assert len(emu.sync_requests()) == syncs  # same commands: no sync on the second start
    finally:
        assert await again.stop() == 0, again.output()
    assert not emu.unknown_requests
