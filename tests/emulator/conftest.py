"""Fixtures for the emulator's self-tests: an emulator with the default world and the ping bot."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from . import DefaultWorld, Emulator, capture_errors, discord_globals_restored, run_bot
from .harness import ErrorRecords
from .pingbot import PingBot


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator() as emulator:
        yield emulator


@pytest.fixture
def world(emu: Emulator) -> DefaultWorld:
    return emu.add_default_world()


@pytest.fixture
def logged_errors() -> Iterator[ErrorRecords]:
    with capture_errors() as records:
        yield records


@pytest.fixture
async def bot(emu: Emulator, world: DefaultWorld, logged_errors: ErrorRecords) -> AsyncIterator[PingBot]:
    """The ping bot, connected and synced. A command error, a logged error, an unknown endpoint or
    a request Discord would reject fails the test unless the test clears it."""
    with discord_globals_restored():
        client = PingBot(emu.api_base)
        async with run_bot(client, emu):
            await emu.wait_commands_synced()
            yield client
    assert not client.tree.errors, f"command errors: {client.tree.errors!r}"
    assert not logged_errors.records, f"errors logged:\n{logged_errors.describe()}"
    assert not emu.unknown_requests, f"unknown endpoints: {emu.unknown_requests!r}"
    assert not emu.invalid_requests, f"rejected requests: {[r.response for r in emu.invalid_requests]!r}"
