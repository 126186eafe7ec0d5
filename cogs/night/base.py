"""What every part of the /night cog stands on: its services, who may organise, which night a
command acts on (cogs/night/commands.py puts the parts together)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app import MusterBot
from bot.chat import errors
from bot.chat.checks import guild_id_of
from bot.chat.limits import AUTOCOMPLETE_CHOICES, COMMAND_CHOICE_NAME
from bot.lang.text import refusal
from bot.nights.clock import NightClock
from bot.nights.club import Club
from bot.nights.events import EventSync
from bot.nights.service import NightInfo, NightStep
from cogs.night import input as night_input
from cogs.night.render import NightRenderer
from cogs.night.text import word
from rules.errors import RuleError
from rules.night.night import NightState
from rules.session import Action
from rules.text import clip


@dataclass(frozen=True)
class Picked:
    """The night a command acts on; `note` says which it is when the command named none and
    several were coming up (so the organiser knows which one the answer is about)."""

    id: str
    note: str = ""

    def says(self, text: str) -> str:
        return f"{self.note}\n{text}" if self.note else text


async def reply(interaction: discord.Interaction[Any], content: str) -> None:
    await errors.send_ephemeral(interaction, content)


def refusal_text(code: str, **values: Any) -> str:
    return refusal(RuleError(code=code, **values))


if TYPE_CHECKING:
    Part = commands.Cog  # app_commands' decorators take the methods of a cog
else:
    Part = object  # at run time only NightCog is a cog: its parts' commands are its own


class NightBase(Part):
    """The services and checks the night's commands share (a part of `NightCog`, not a cog)."""

    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self.renderer = NightRenderer(bot.games, self._channel_name)
        self.nights = bot.nights
        self.club = Club(bot.store)
        self.clock = NightClock(bot, self.nights, self.club, self.renderer)
        self.events = EventSync(
            bot.store,
            bot,
            bot.delivery.owner,
            self.renderer.event_text,
            self.renderer.no_events,
            bot.settings.sweep_seconds,
            server_language=bot.languages.of_server,
            kick_delivery=bot.delivery.kick,
        )
        super().__init__()

    def _channel_name(self, channel_id: int) -> str | None:
        channel = self.bot.get_channel(channel_id)
        return getattr(channel, "name", None)

    # ------------------------------------------------------------------ who may organise

    async def organiser(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server, or the server's organiser role."""
        return await self.bot.guild_settings.organiser(interaction)

    async def require_organiser(self, interaction: discord.Interaction[Any]) -> None:
        if not await self.organiser(interaction):
            role = (await self.bot.guild_settings.get(guild_id_of(interaction))).organiser_role_id
            if role is None:
                raise RuleError(code="night.organiser_only_norole")
            raise RuleError(code="night.organiser_only", role=f"<@&{role}>")

    async def pick(self, interaction: discord.Interaction[Any], typed: str | None) -> Picked:
        """The night a command names, else the next one coming up (this channel's first, as the
        option promises); when several were coming up, the answer says which was taken."""
        if typed:
            return Picked(typed.strip())
        coming = await self.nights.in_server(guild_id_of(interaction))
        here = [night for night in coming if night[0].channel_id == interaction.channel_id] or coming
        if not here:
            raise RuleError(code="night.none_here")
        info, state = here[0]  # soonest first
        if len(here) == 1:
            return Picked(info.id)
        note = word("reply.picked", title=state.settings.title, start=state.settings.starts_at)
        return Picked(info.id, note)

    async def night_choices(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        needle = typed.casefold()
        zone = night_input.zone((await self.bot.guild_settings.get(interaction.guild_id)).time_zone)
        choices = []
        for info, state in await self.nights.in_server(interaction.guild_id):
            when = f"{info.starts_at.astimezone(zone):%Y-%m-%d %H:%M} {zone.key}"  # as times are typed
            label = clip(f"{state.settings.title} · {when}", COMMAND_CHOICE_NAME)
            if needle in label.casefold() or needle == info.id:
                choices.append(app_commands.Choice(name=label, value=info.id))
        return choices[:AUTOCOMPLETE_CHOICES]

    async def organiser_step(
        self, interaction: discord.Interaction[Any], picked: Picked, make: Any
    ) -> NightStep:
        """An organiser's action on a night (the rules check the night's own organiser too)."""
        night_id = picked.id
        as_organiser = await self.organiser(interaction)
        user = interaction.user.id

        async def decide(_db: AsyncSession, _info: NightInfo, state: NightState) -> Action:
            return cast(Action, make(user, as_organiser, state))

        stepped = await self.nights.step(night_id, decide, guild_id=guild_id_of(interaction))
        assert stepped is not None
        return stepped
