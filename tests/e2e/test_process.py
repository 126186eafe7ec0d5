"""The real `muster run` process against the emulator: start-up, a command, SIGTERM, a quiet restart."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.e2e.conftest import PROCESS_ENV
from tests.e2e.killteam_driver import mission_bid_menu, seal_by_menu
from tests.emulator import DefaultWorld, Emulator, Message, User, start_bot_process
from tests.emulator.interactions import UPDATE_MESSAGE

ROOT = Path(__file__).resolve().parents[2]


async def test_muster_run_as_a_process_survives_a_restart(
    emu: Emulator, world: DefaultWorld, tmp_path: Path
) -> None:
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'proc.sqlite3'}",
        "LOG_FORMAT": "json",
        **PROCESS_ENV,
    }
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
    # Start-up's objects are set aside from the garbage collector (bot/app.py `settle_heap`).
    assert "objects set aside from the garbage collector" in process.output()

    again = await start_bot_process(argv, emu, env=env, cwd=ROOT)
    try:
        response = await (await emu.slash(world.bob, world.channel, "roll", dice="d6")).response(timeout=5)
        assert "Total" in response.content
        assert len(emu.sync_requests()) == syncs  # same commands: no sync on the second start
    finally:
        assert await again.stop() == 0, again.output()
    assert not emu.unknown_requests


def _bid_menu(emu: Emulator, user: User) -> tuple[Message, str]:
    found = mission_bid_menu(emu, user)
    if found is None:
        raise LookupError(f"no mission bid prompt in {user.name}'s DMs")
    return found


def _reveals(emu: Emulator, world: DefaultWorld) -> list[str]:
    """The reveals posted in full, with what to check the commitments (the board names it briefly)."""
    return [m.all_text() for m in _game_messages(emu, world) if "/verify" in m.all_text()]


async def test_killed_between_two_seals_the_game_resumes_and_reveals_once(
    emu: Emulator, world: DefaultWorld, tmp_path: Path
) -> None:
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'kill.sqlite3'}",
        "LOG_FORMAT": "text",
        **PROCESS_ENV,
    }
    argv = [sys.executable, "-m", "bot.cli", "run"]
    process = await start_bot_process(argv, emu, env=env, cwd=ROOT)
    try:
        await emu.wait_commands_synced(["killteam"], timeout=20)
        started = await emu.slash(
            world.alice,
            world.channel,
            "killteam start",
            opponent=world.bob,
            mission_method="bid",
            tacops_method="free",
        )
        assert not (await started.response(timeout=3)).ephemeral  # the start card
        await emu.wait_until(
            lambda: _has_prompt(emu, world.alice) and _has_prompt(emu, world.bob), 10, "prompts"
        )
        menu = _bid_menu(emu, world.alice)
        sealed = await seal_by_menu(emu, world.alice, menu, 3)
        assert sealed.type == UPDATE_MESSAGE and sealed.message is menu[0]  # the DM, redrawn
        assert "You sealed **3 tokens**" in menu[0].embed_text()
        await emu.wait_until(
            lambda: "sealed" in "\n".join(m.all_text() for m in _game_messages(emu, world)),
            10,
            "the seal's announcement",
        )
    finally:
        process.process.kill()  # no goodbye: the process dies between the two seals
        await process.process.wait()
    assert not _reveals(emu, world)
    assert "3 tokens" not in emu.text_visible_to(world.bob)

    again = await start_bot_process(argv, emu, env=env, cwd=ROOT)
    try:
        menu = _bid_menu(emu, world.bob)  # sent before the kill
        answer = await seal_by_menu(emu, world.bob, menu, 1)
        assert answer.type == UPDATE_MESSAGE and answer.message is menu[0]  # redrawn after the restart too
        assert "You sealed **1 token**" in menu[0].embed_text()
        await emu.wait_until(lambda: bool(_reveals(emu, world)), 10, "the reveal")
        await asyncio.sleep(0.5)  # anything sent twice would have arrived by now
        (reveal,) = _reveals(emu, world)
        assert "3 tokens" in reveal and "1 token" in reveal
    finally:
        assert await again.stop() == 0, again.output()


def _game_messages(emu: Emulator, world: DefaultWorld) -> list[Message]:
    """The channel's messages and its game threads' (a game is played in a thread under its card)."""
    return [m for c in (world.channel, *emu.threads(world.channel)) for m in emu.messages(c)]


def _has_prompt(emu: Emulator, user: User) -> bool:
    try:
        _bid_menu(emu, user)
    except LookupError:
        return False
    return True
