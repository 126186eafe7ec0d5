"""The Discord client: start-up, cog loading, command sync-if-changed, background workers."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import importlib
import importlib.util
import json
import logging
import pkgutil
from typing import Any

import discord
import discord.gateway
import yarl
from discord import app_commands
from discord.ext import commands

from bot.chat import router, ui
from bot.chat.buckets import keep_to_limits, pace_share
from bot.chat.delivery import Delivery, owner_name
from bot.chat.errors import MusterTree
from bot.chat.limits import RATE_LIMIT_WAIT
from bot.config import Settings
from bot.db.models import BotMeta
from bot.db.store import Store
from bot.db.upsert import set_meta
from bot.events.service import EventService
from bot.guild_settings import GuildSettingsService
from bot.lang import translator as command_translator
from bot.lang.languages import LanguageService
from bot.lang.translator import CatalogueTranslator
from bot.migrate import upgrade
from bot.nights.service import NightService
from bot.play.dice import DiceService
from bot.play.games import GameRegistry
from bot.play.packs import PackService
from bot.play.reminders import QuietGameReminders
from bot.play.sessions import SessionService
from bot.scores.service import ScoreService

log = logging.getLogger("muster")


EXAMPLE_COGS = ("cogs.pick",)
"""Cogs that are examples, not games a club plays: Pick (cogs/pick/) is the worked example of
docs/NEW_GAME.md, kept in the real layout so it shows it truly and the tests play it through the
real platform (they load it with `extra_cogs`). A real server never offers it."""


def discover_cogs() -> tuple[str, ...]:
    """Every extension in the `cogs` package (a module with a `setup`) but the examples: a new
    game's cog is found by being there, with nothing to add to a list."""
    found = []
    for module in pkgutil.iter_modules(importlib.import_module("cogs").__path__):
        name = f"cogs.{module.name}"
        if name in EXAMPLE_COGS or module.name.startswith("_"):
            continue
        if hasattr(importlib.import_module(name), "setup"):
            found.append(name)
    return tuple(sorted(found))


async def load_cog(bot: MusterBot, name: str) -> None:
    """Load a cog by calling its module's `setup`, as discord.py's `load_extension` would, but for
    one thing: closing the bot then only removes its cogs (each one's `cog_unload`), and leaves its
    modules imported. An extension's modules are deleted from `sys.modules` on close, so a process
    that starts a bot again imports every cog afresh; the tests start one per test, and that cost
    each about 60 ms. Muster never reloads a cog in a running bot, which is what extensions are for."""
    await importlib.import_module(name).setup(bot)


_TRANSLATED: dict[str, list[dict[str, Any]]] = {}
"""The command payloads this process translated with the catalogues, by `_tree_key`; never changed
once built (a sync only hashes and sends them)."""


def _tree_key(commands: list[Any], plain: list[dict[str, Any]]) -> str:
    """What a tree's translated payload is made from: its untranslated payload, and the module of
    each command in it (the translator looks a string up in its module's domain first)."""
    modules = [
        [
            getattr(command, "module", None),
            *(child.module for child in getattr(command, "walk_commands", list)()),
        ]
        for command in commands
    ]
    return json.dumps([modules, plain], sort_keys=True, default=str)


def never_sleep_long(http: discord.http.HTTPClient) -> None:
    """Raise `discord.RateLimited` for any wait past `RATE_LIMIT_WAIT` instead of sleeping in it.

    discord.py raises the `max_ratelimit_timeout` it is given to at least 30 s, a floor meant for
    clients that would retry at once; the outbox never does: it schedules the message for the
    `retry_after` Discord gave. Buckets read the client's value when they are made (lazily, per
    route), so setting it before the first request covers every one."""
    http.max_ratelimit_timeout = RATE_LIMIT_WAIT


def use_api_base(api_base: str | None) -> None:
    """Point every REST call (interaction responses included) at another Discord-compatible API."""
    discord.http.Route.BASE = api_base or "https://discord.com/api/v10"


def settle_heap() -> int:
    """Free what starting made and no longer needs, then set all that is left aside from the garbage
    collector (`gc.freeze`); returns how many objects that is.

    Start-up leaves some 170,000 objects (modules, models' schemas, catalogues, the command tree)
    that live as long as the process. Each full collection walked them all, holding the event loop,
    and every game's clicks with it, for 90–130 ms. Set aside, they are never walked, and never
    freed: only a process that runs one bot for its lifetime does this (`muster run`), not one
    that starts bot after bot (the tests)."""
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.info("start-up done: %d objects set aside from the garbage collector", frozen)
    return frozen


class MusterBot(commands.AutoShardedBot):
    def __init__(
        self, settings: Settings, *, cogs: tuple[str, ...] | None = None, settle_heap: bool = False
    ) -> None:
        use_api_base(settings.discord_api_base)
        intents = discord.Intents.none()
        intents.guilds = True  # GUILD_CREATE: channels and the server's roles; not privileged
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=MusterTree,
            # Nothing pings unless a message names whom it tells (bot/chat/render.py `allowed`): what
            # members type (a season's name, a night's title, a nickname) is shown, never notified.
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=settings.muster_guild_ready_timeout,
            **self._shards(settings),
        )
        never_sleep_long(self.http)
        # a send never waits out its bucket's refill; every request keeps to the global limit
        share = pace_share(
            settings.muster_global_requests_per_second, settings.shard_ids(), settings.muster_shard_count
        )
        keep_to_limits(self.http, share)
        self.settings = settings
        self.settle_heap = settle_heap  # once started: the process runs this bot alone (`settle_heap`)
        self.cog_names = cogs if cogs is not None else discover_cogs()
        self.store = Store.from_url(settings.database_url)
        self.dice = (
            DiceService.seeded(self.store, settings.muster_dice_seed)
            if settings.muster_dice_seed is not None
            else DiceService(self.store)
        )
        self.games = GameRegistry()
        self.languages = LanguageService(self.store, self.guild_locale)
        self.delivery = Delivery(
            self.store,
            self,
            settings.sweep_seconds,
            settings.muster_outbox_lease_seconds,
            owner_name(settings.muster_shard_ids),
        )
        self.sessions = SessionService(self.store, self.dice, self.delivery, self.games, self.languages)
        self.guild_settings = GuildSettingsService(self.store)
        self.packs = PackService(self.store)
        self.reminders = QuietGameReminders(self)
        # Features reach each other through these typed services, never through a cog: the Scores
        # and Night cogs start, stop and word them; the night clock reads ratings from `scores`.
        self.scores = ScoreService(self)
        self.nights = NightService(self.store, self.delivery)
        self.nights.languages = self.languages
        self.events = EventService(self.store, self.delivery)  # worded and swept by the Event cog
        self.events.languages = self.languages
        self.synced_commands = False
        self._reminders: asyncio.Task[None] | None = None

    def _get_state(self, **options: Any) -> ui.MusterState:  # type: ignore[override]
        """discord.py's connection state, parsing each interaction in its player's language and
        routing a game's clicks straight to their handlers (bot/chat/ui.py)."""
        return ui.MusterState(
            dispatch=self.dispatch, handlers=self._handlers, hooks=self._hooks, http=self.http, **options
        )

    def guild_locale(self, guild_id: int) -> str | None:
        """A server's Discord locale, as the gateway told it (None: not one of this process's)."""
        guild = self.get_guild(guild_id)
        return str(guild.preferred_locale) if guild is not None else None

    @staticmethod
    def _shards(settings: Settings) -> dict[str, Any]:
        """This process's shards (none given: discord.py runs every shard Discord recommends)."""
        shards: dict[str, Any] = {}
        if settings.muster_shard_count is not None:
            shards["shard_count"] = settings.muster_shard_count
        if (ids := settings.shard_ids()) is not None:
            shards["shard_ids"] = ids
        return shards

    async def setup_hook(self) -> None:
        if self.settings.discord_api_base:
            # After an invalid session discord.py reconnects to DEFAULT_GATEWAY, not to the URL
            # it was given: pin it to the API's own gateway so a proxy or emulator keeps working.
            _shards, url, _limit = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await upgrade(self.store.engine)
        for name in self.cog_names:
            if importlib.util.find_spec(name) is not None:
                await load_cog(self, name)
        await self.tree.set_translator(CatalogueTranslator())
        self.dice.start()
        await self.delivery.start()
        await self.languages.start()
        self._reminders = asyncio.create_task(self.reminders.run_forever(), name="reminders")
        if self.settings.runs_shard_zero():  # one process syncs; the others serve the same tree
            await self.sync_commands_if_changed()
        if self.settle_heap:
            settle_heap()

    async def close(self) -> None:
        log.info("shutting down")
        if self._reminders is not None:
            self._reminders.cancel()
        await self.delivery.stop()
        await self.languages.settle()
        await self.languages.stop()
        await self.dice.stop()
        await super().close()
        await self.store.close()

    # ------------------------------------------------------------------ command sync

    async def _command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        """The commands as synced, with their translations (a changed translation syncs again).

        Translating the tree asks the translator for every string in each of Discord's locales,
        some 20,000 calls and 80 ms of CPU. The catalogues are read once per process, so the same
        tree translates the same way every time: the payload is built once per process for each
        tree (a process that starts many bots, the tests' does, builds it once)."""
        translator = self.tree.translator
        commands = self.tree.get_commands(guild=guild)
        plain = [command.to_dict(self.tree) for command in commands]
        if translator is None:
            return plain
        ours = type(translator) is command_translator.CatalogueTranslator  # not a test's (or a patched) one
        key = _tree_key(commands, plain) if ours else None
        known = _TRANSLATED.get(key) if key is not None else None
        if known is None:
            known = [await command.get_translated_payload(self.tree, translator) for command in commands]
            if key is not None:
                _TRANSLATED[key] = known
        return known

    async def sync_commands_if_changed(self) -> bool:
        """Sync the command tree only if its schema differs from the last one synced."""
        guild = (
            discord.Object(self.settings.muster_dev_guild_id) if self.settings.muster_dev_guild_id else None
        )
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self._command_payload(guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"command-hash:{guild.id if guild else 'global'}"
        async with self.store.read() as db:
            known = await db.get(BotMeta, key)
        if known is not None and known.value == digest:
            log.info("commands unchanged; no sync")
            return False
        await self._sync(guild, payload)
        async with self.store.write() as db:
            await db.execute(set_meta(self.store.dialect, key, digest))
        self.synced_commands = True
        log.info("synced %d commands", len(payload))
        return True

    async def _sync(self, guild: discord.abc.Snowflake | None, payload: list[dict[str, Any]]) -> None:
        """Send the payload just hashed, as `tree.sync` would: it would build it again, asking the
        translator for every string of the tree in each of Discord's locales (some 40,000 calls).
        Discord's refusal is raised as `tree.sync` raises it (naming the commands)."""
        if self.application_id is None:
            raise app_commands.MissingApplicationID
        try:
            if guild is None:
                await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
            else:
                await self.http.bulk_upsert_guild_commands(self.application_id, guild.id, payload=payload)
        except discord.HTTPException as refused:
            if refused.status == 400 and refused.code == 50035:
                raise app_commands.CommandSyncFailure(refused, self.tree.get_commands(guild=guild)) from None
            raise

    async def remind_waiting_players(self) -> int:
        return await self.reminders.remind_waiting_players()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is discord.InteractionType.modal_submit:
            await router.on_modal_submit(interaction)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
