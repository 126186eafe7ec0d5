"""The organiser's review of a night's draft: pair it, swap players, move a pairing to another
table, drop a no-show, publish it, finish the night (a part of `NightCog`)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat import render
from bot.chat.checks import guild_id_of
from bot.nights.service import NightStep
from cogs.night.base import NightBase, Picked, reply
from cogs.night.text import games_count, word
from rules.night.actions import Drop, Leave, MoveTable, Swap
from rules.night.night import NightState
from rules.session import Action


class DraftReview(NightBase):
    """From sign-ups to the games: the organiser's commands on the draft pairings."""

    @app_commands.command(name="pair", description="Close sign-ups now and pair the players (organisers)")
    @app_commands.describe(night="Which night (default: the one coming up)")
    async def pair(self, interaction: discord.Interaction[MusterBot], night: str | None = None) -> None:
        picked = await self.pick(interaction, night)
        await interaction.response.defer(ephemeral=True, thinking=True)
        stepped = await self.clock.pair(
            picked.id, interaction.user.id, await self.organiser(interaction), guild_id_of(interaction)
        )
        assert stepped is not None  # paired again on demand, or refused
        await self._show_draft(interaction, stepped, picked)

    async def _show_draft(
        self, interaction: discord.Interaction[Any], stepped: NightStep, picked: Picked
    ) -> None:
        """The organiser's answer: the draft as it stands now (also kept up to date in their DMs)."""
        embeds = [render.embed(e) for e in self.renderer.draft(stepped.info, stepped.state).embeds]
        if interaction.response.is_done():
            note = picked.note or discord.utils.MISSING
            await interaction.followup.send(note, embeds=embeds, ephemeral=True)
        else:
            await interaction.response.send_message(picked.note or None, embeds=embeds, ephemeral=True)

    @app_commands.command(name="swap", description="Swap two players between the draft pairings (organisers)")
    @app_commands.describe(
        first="One player", second="The other", night="Which night (default: the one coming up)"
    )
    async def swap(
        self,
        interaction: discord.Interaction[MusterBot],
        first: discord.Member,
        second: discord.Member,
        night: str | None = None,
    ) -> None:
        picked = await self.pick(interaction, night)
        stepped = await self.organiser_step(
            interaction,
            picked,
            lambda user, org, _s: Swap(actor=user, as_organiser=org, first=first.id, second=second.id),
        )
        await self._show_draft(interaction, stepped, picked)

    @app_commands.command(name="move", description="Move a draft pairing to another table (organisers)")
    @app_commands.describe(
        pairing="The pairing's number in the draft",
        table="The table's id (see /night tables list)",
        night="Which night (default: the one coming up)",
    )
    async def move(
        self,
        interaction: discord.Interaction[MusterBot],
        pairing: app_commands.Range[int, 1, 200],
        table: str,
        night: str | None = None,
    ) -> None:
        picked = await self.pick(interaction, night)
        stepped = await self.organiser_step(
            interaction,
            picked,
            lambda user, org, _s: MoveTable(
                actor=user, as_organiser=org, pairing=pairing - 1, table_id=table.strip().lower()
            ),
        )
        await self._show_draft(interaction, stepped, picked)

    @app_commands.command(
        name="drop", description="Drop a no-show: their opponent is paired again if possible (organisers)"
    )
    @app_commands.describe(player="Who isn't coming", night="Which night (default: the one coming up)")
    async def drop(
        self, interaction: discord.Interaction[MusterBot], player: discord.Member, night: str | None = None
    ) -> None:
        def make(user: int, org: bool, state: NightState) -> Action:
            if state.status == "open":
                return Leave(actor=user, as_organiser=org, player=player.id)
            return Drop(actor=user, as_organiser=org, player=player.id)

        picked = await self.pick(interaction, night)
        stepped = await self.organiser_step(interaction, picked, make)
        if stepped.state.status == "review":
            await self._show_draft(interaction, stepped, picked)
        else:
            title = stepped.state.settings.title
            await reply(interaction, picked.says(word("reply.dropped", player=player.id, title=title)))

    @app_commands.command(
        name="publish", description="Publish the pairings and open each pairing's game (organisers)"
    )
    @app_commands.describe(night="Which night (default: the one coming up)")
    async def publish(self, interaction: discord.Interaction[MusterBot], night: str | None = None) -> None:
        picked = await self.pick(interaction, night)
        await interaction.response.defer(ephemeral=True, thinking=True)
        stepped = await self.clock.publish(
            picked.id, interaction.user.id, await self.organiser(interaction), guild_id_of(interaction)
        )
        opened = sum(
            1 for p in (stepped.state.result.pairings if stepped.state.result else []) if p.session_id
        )
        said = word("reply.published", title=stepped.state.settings.title, games=games_count(opened))
        await interaction.followup.send(picked.says(said), ephemeral=True)

    @app_commands.command(name="finish", description="End the night now and post its summary (organisers)")
    @app_commands.describe(night="Which night (default: the one coming up)")
    async def finish(self, interaction: discord.Interaction[MusterBot], night: str | None = None) -> None:
        picked = await self.pick(interaction, night)
        stepped = await self.clock.finish(
            picked.id, interaction.user.id, await self.organiser(interaction), guild_id_of(interaction)
        )
        await reply(interaction, picked.says(word("reply.finished", title=stepped.state.settings.title)))

    @pair.autocomplete("night")
    @swap.autocomplete("night")
    @move.autocomplete("night")
    @drop.autocomplete("night")
    @publish.autocomplete("night")
    @finish.autocomplete("night")
    async def _draft_night_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.night_choices(interaction, current)
