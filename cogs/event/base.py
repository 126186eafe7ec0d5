"""What every part of the /event cog stands on: its services, who may organise, which event a
command acts on, and an organiser's or a player's step (cogs/event/commands.py puts the parts
together)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app import MusterBot
from bot.chat import errors
from bot.chat.checks import guild_id_of
from bot.chat.limits import AUTOCOMPLETE_CHOICES, COMMAND_CHOICE_NAME
from bot.events.scheduled import ScheduledSync
from bot.events.service import EventInfo, EventService, EventStep
from cogs.event.render import EventRenderer
from rules.errors import RuleError
from rules.event.machine import apply
from rules.event.state import EventAction, EventState
from rules.session import Event
from rules.text import clip

Make = Callable[[int, bool], EventAction]
"""The action a command takes, made from who acts and whether they may organise events here."""


async def reply(interaction: discord.Interaction[Any], content: str) -> None:
    await errors.send_ephemeral(interaction, content)


if TYPE_CHECKING:
    Part = commands.Cog
else:
    Part = object  # at run time only EventCog is a cog: its parts' commands are its own


class EventBase(Part):
    """The services and checks the event's commands share (a part of `EventCog`, not a cog)."""

    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self.renderer = EventRenderer(bot.games, self._channel_name)
        self.events: EventService = bot.events
        self.schedule = ScheduledSync(
            bot.store,
            bot,
            bot.delivery.owner,
            self.renderer.event_text,
            self.renderer.no_events,
            bot.settings.sweep_seconds,
            bot.languages.of_server,
        )
        super().__init__()

    def _channel_name(self, channel_id: int) -> str | None:
        return getattr(self.bot.get_channel(channel_id), "name", None)

    async def organiser(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server, or the server's organiser role (as for game nights)."""
        return await self.bot.guild_settings.organiser(interaction)

    async def require_organiser(self, interaction: discord.Interaction[Any]) -> None:
        if not await self.organiser(interaction):
            role = (await self.bot.guild_settings.get(guild_id_of(interaction))).organiser_role_id
            if role is None:
                raise RuleError(code="event.organiser_only_norole")
            raise RuleError(code="event.organiser_only", role=f"<@&{role}>")

    async def pick(self, interaction: discord.Interaction[Any], typed: str | None) -> str:
        """The event a command names, else this channel's coming one, else the server's."""
        if typed:
            return typed.strip()
        coming = await self.events.in_server(guild_id_of(interaction))
        here = [e for e in coming if e[0].channel_id == interaction.channel_id] or coming
        if not here:
            raise RuleError(code="event.none_here")
        return here[0][0].id

    async def event_choices(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        needle = typed.casefold()
        choices = []
        for info, state in await self.events.in_server(interaction.guild_id):
            label = clip(state.settings.name, COMMAND_CHOICE_NAME)
            if needle in label.casefold() or needle == info.id:
                choices.append(app_commands.Choice(name=label, value=info.id))
        return choices[:AUTOCOMPLETE_CHOICES]

    async def act(self, interaction: discord.Interaction[Any], event: str | None, make: Make) -> EventStep:
        """The action `make` makes, on the event a command names (the rules judge who may)."""
        event_id = await self.pick(interaction, event)
        action = make(interaction.user.id, await self.organiser(interaction))

        async def decide(
            _db: AsyncSession, _info: EventInfo, state: EventState
        ) -> tuple[EventState, list[Event]]:
            return apply(state, action)

        return await self.events.step(event_id, decide, guild_id=guild_id_of(interaction))
