"""Fixtures that run the real Muster bot, in this process, against the Discord emulator.

`muster` starts the bot with a fresh SQLite file and seeded dice; `await muster.restart()` closes it
and starts a new bot object on the same database (the in-process stand-in for a restart; the
process-level restart tests use `start_bot_process`). After each test the fixture fails on any
logged error, unknown endpoint or request Discord would reject.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from sqlalchemy import select

from bot.app import MusterBot, discover_cogs
from bot.config import Settings
from bot.db.models import SessionMessage
from bot.db.store import Store
from bot.play.game_cog import CARD_KEY
from bot.play.games import GameAdapter
from tests.databases import ENGINES, migrated_database
from tests.emulator import DefaultWorld, Emulator, capture_errors, discord_globals_restored, run_bot
from tests.emulator.harness import ErrorRecords
from tests.emulator.interactions import CHANNEL_MESSAGE, InteractionResponse
from tests.emulator.model import Channel
from tests.emulator.ratelimits import DEFAULT_SCALE

DICE_SEED = 20261122
GUILD_READY_TIMEOUT = 0.05
"""The emulator sends every server's GUILD_CREATE right after READY: no need to wait discord.py's 2 s."""
GLOBAL_PACE = Settings.model_fields["muster_global_requests_per_second"].default / DEFAULT_SCALE
"""The bot's pace for Discord's global limit at the emulator's windows, which run 100 times faster
in tests: as the windows, so the pace (a bench at Discord's own windows keeps the default)."""
PROCESS_ENV = {
    "MUSTER_GUILD_READY_TIMEOUT": str(GUILD_READY_TIMEOUT),
    "MUSTER_GLOBAL_REQUESTS_PER_SECOND": str(GLOBAL_PACE),
}
"""What a bot started as a process under test adds to its environment."""


class Muster:
    """The bot under test and the world it lives in."""

    def __init__(self, emu: Emulator, world: DefaultWorld, database_url: str, **overrides: Any) -> None:
        self.emu = emu
        self.world = world
        self.database_url = database_url
        self.overrides = overrides
        self.bot: MusterBot | None = None
        self._runner: Any = None
        self.extra_adapters: list[GameAdapter[Any]] = []
        self.extra_cogs: list[str] = []  # test-only extensions, loaded beside the project's own

    def settings(self) -> Settings:
        values: dict[str, Any] = {
            "discord_token": SecretStr(self.emu.token),
            "database_url": self.database_url,
            "discord_api_base": self.emu.api_base,
            "muster_dice_seed": DICE_SEED,
            "sweep_seconds": 0.5,
            "muster_guild_ready_timeout": GUILD_READY_TIMEOUT,
            "muster_global_requests_per_second": GLOBAL_PACE * DEFAULT_SCALE / self.emu.clock.scale,
            "log_format": "text",
        }
        values.update(self.overrides)
        return Settings(**values)

    async def start(self) -> MusterBot:
        self.bot = MusterBot(self.settings(), cogs=(*discover_cogs(), *self.extra_cogs))
        for adapter in self.extra_adapters:  # test-only games, registered before any interaction
            self.bot.games.register(adapter)
        self._runner = run_bot(self.bot, self.emu)
        await self._runner.__aenter__()
        await self.emu.wait_commands_synced()
        return self.bot

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.__aexit__(None, None, None)

    async def restart(self) -> MusterBot:
        await self.stop()
        return await self.start()

    async def settle(self) -> None:
        """Wait until every message the bot owes Discord has been tried (and every locale seen is stored)."""
        assert self.bot is not None
        await self.bot.languages.settle()
        await self.bot.delivery.idle()

    async def table(self, sid: str) -> Channel:
        """Where game `sid` is played: the thread its start card opened, else its channel."""
        assert self.bot is not None
        info, _state = await self.bot.sessions.load(sid, fresh=True)
        return self.emu.channels[info.table_id]

    def bots_store(self) -> Store:
        """The store the bot keeps its games in."""
        assert self.bot is not None
        return self.bot.store

    async def game_of_card(self, answer: InteractionResponse) -> str:
        """The game a start command opened, from its answer: the game's start card (public), as
        the outbox recorded it once the answer gave it."""
        assert answer.message is not None, answer
        assert not answer.ephemeral and answer.type == CHANNEL_MESSAGE, answer
        await self.settle()
        card = answer.message.id
        mine = select(SessionMessage.session_id).where(
            SessionMessage.key == CARD_KEY, SessionMessage.message_id == card
        )
        found = await self.bots_store().run(lambda db: list(db.scalars(mine)))
        assert len(found) == 1, f"no game's card is {card}"
        return found[0]

    async def announced(self) -> None:
        """Everything owed to Discord so far has been sent: outbox messages and result announcements."""
        assert self.bot is not None
        await self.settle()
        scores = self.bot.get_cog("Scores")
        if scores is not None:
            await scores.service.idle()  # type: ignore[attr-defined]
        await self.settle()


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator() as emulator:
        yield emulator


@pytest.fixture
def world(emu: Emulator) -> DefaultWorld:
    return emu.add_default_world()


@pytest.fixture
def logged_errors() -> Iterator[ErrorRecords]:
    with capture_errors("discord", "muster", "bot") as records:
        yield records


@pytest.fixture(params=ENGINES)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database for the test, at the migrations' head, on SQLite and (when one is named) on
    PostgreSQL."""
    async with migrated_database(request.param, tmp_path) as url:
        yield url


@pytest.fixture
async def muster(
    emu: Emulator, world: DefaultWorld, database_url: str, logged_errors: ErrorRecords
) -> AsyncIterator[Muster]:
    with discord_globals_restored():
        harness = Muster(emu, world, database_url)
        await harness.start()
        try:
            yield harness
        finally:
            await harness.stop()
    assert not logged_errors.records, f"errors logged:\n{logged_errors.describe()}"
    assert not emu.unknown_requests, f"unknown endpoints: {emu.unknown_requests!r}"
    assert not emu.invalid_requests, f"rejected requests: {[r.response for r in emu.invalid_requests]!r}"
