"""/40k: a 40K mission (Marked for Death and any a server loads) played in its own thread.

The cog's slash commands parse their options into rules actions and hand them to the shared table
(bot/play/table.py), which posts and edits the messages: every button answers one of the rules'
questions (bot/play/questions.py), so a click goes through the rules' own check of what is asked now;
the battle's turns are one message edited from turn to turn, and only a player who must decide
something is pinged. What the table shows is the adapter's (cogs/fortyk/adapter.py).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat import render
from bot.chat.checks import channel_id_of, guild_id_of, require_opponent
from bot.chat.errors import UserError
from bot.chat.limits import COMMAND_CHOICE_VALUE, CONTENT, fit
from bot.lang.i18n import Domain
from bot.play.game_cog import GameCog
from cogs.fortyk.adapter import FortyKAdapter, missions_of
from cogs.fortyk.board import board_embed
from rules.errors import RuleError
from rules.fortyk import (
    PROCEDURE,
    FortyKState,
    Mission,
    action_for_button,
    parse_pack,
    parse_unit_list,
    start,
    unit_suggestions,
)
from rules.fortyk.actions import ReportEnd
from rules.fortyk.procedure import DEFAULT_MISSION
from rules.fortyk.views import Purpose
from rules.text import clip, echo, fit_lines

SYSTEM = PROCEDURE.system
_ = Domain("fortyk")
MISSION_LINE = 300  # one mission's line in /40k pack missions: its name and a sentence


def parse_quarters(text: str, limit: int) -> int:
    try:
        value = int(text.strip())
    except ValueError:
        raise RuleError(code="fortyk.quarters_number", limit=limit) from None
    if not 0 <= value <= limit:
        raise RuleError(code="fortyk.quarters_number", limit=limit)
    return value


def report_action(state: FortyKState, actor: int, quarters: str, marked_alive: str | None) -> ReportEnd:
    return ReportEnd(
        actor=actor,
        quarters=parse_quarters(quarters, state.mission.table_quarters),
        marked_alive=parse_unit_list(marked_alive),
    )


class FortyK(
    GameCog[FortyKState], group_name="40k", group_description="40K missions: set-up, turns, kill points"
):
    adapter = FortyKAdapter()

    async def _missions(self, guild_id: int | None, channel_id: int | None = None) -> dict[str, Mission]:
        return missions_of(await self.server_pack(guild_id, channel_id))

    # ------------------------------------------------------------ starting

    @app_commands.command(
        name="start", description="Start a 40K mission against another player in this channel"
    )
    @app_commands.describe(opponent="Who you are playing", mission="The mission (default: Marked for Death)")
    @app_commands.guild_only()
    async def start_game(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        mission: str = DEFAULT_MISSION,
    ) -> None:
        require_opponent(interaction, opponent)
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        missions = await self._missions(guild_id, channel_id)
        chosen = missions.get(mission.strip())
        if chosen is None:
            names = ", ".join(f"`{k}` ({m.name})" for k, m in missions.items())
            raise UserError(code="fortyk.unknown_mission", mission=echo(mission), missions=names)
        caller = interaction.user.id
        await self.bot.sessions.refuse_second_game(guild_id, channel_id, SYSTEM, caller, opponent.id)
        players = [caller, opponent.id]
        await self.open_game(
            interaction,
            opponent,
            lambda sid, _roller: start(sid, players, chosen),
            title=f"{chosen.name}: <@{caller}> vs <@{opponent.id}>",
        )

    @start_game.autocomplete("mission")
    async def mission_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        missions = await self._missions(interaction.guild_id, interaction.channel_id)
        return self.choices(((m.title, key) for key, m in missions.items()), current)

    # ------------------------------------------------------------ in-game commands

    async def _press(
        self, interaction: discord.Interaction[MusterBot], key: str, unit: str | None = None
    ) -> None:
        """A command standing for one of the turn's buttons."""
        user = interaction.user.id
        await self.act(interaction, lambda state: action_for_button(state, key, user, unit))

    async def _suggest(
        self, interaction: discord.Interaction[MusterBot], current: str, purpose: Purpose
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        if state is None:
            return []
        names = unit_suggestions(state, interaction.user.id, purpose, limit=len(state.named_units))
        return self.choices(((n, n) for n in names), current)

    @app_commands.command(name="mark", description="Mark an enemy unit for death (start of your turn)")
    @app_commands.describe(unit="The enemy unit (names used so far are suggested)")
    async def mark(self, interaction: discord.Interaction[MusterBot], unit: str) -> None:
        await self._press(interaction, "mark", unit)

    @mark.autocomplete("unit")
    async def mark_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, "mark")

    @app_commands.command(name="destroyed", description="Record an enemy unit you destroyed")
    @app_commands.describe(unit="The enemy unit (names used so far are suggested)")
    async def destroyed(self, interaction: discord.Interaction[MusterBot], unit: str) -> None:
        await self._press(interaction, "destroyed", unit)

    @destroyed.autocomplete("unit")
    async def destroyed_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, "destroyed")

    @app_commands.command(name="relic", description="One of your units takes the enemy relic")
    @app_commands.describe(unit="Your unit that now carries the enemy relic")
    async def relic(self, interaction: discord.Interaction[MusterBot], unit: str) -> None:
        await self._press(interaction, "capture_relic", unit)

    @relic.autocomplete("unit")
    async def relic_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._suggest(interaction, current, "relic")

    @app_commands.command(name="drop-relic", description="Your unit carrying the enemy relic drops it")
    async def drop_relic(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self._press(interaction, "drop_relic")

    @app_commands.command(name="end-turn", description="End your turn (the bot rolls for battle length)")
    async def end_turn(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self._press(interaction, "end_turn")

    @app_commands.command(
        name="quarters", description="At the end: your table quarters and marked units alive"
    )
    @app_commands.describe(
        quarters="Table quarters you claim (more units wholly inside than the enemy; flyers excluded)",
        marked_alive="Your marked units still alive, comma-separated (empty: all not recorded destroyed)",
    )
    async def quarters(
        self,
        interaction: discord.Interaction[MusterBot],
        quarters: app_commands.Range[int, 0, 8],
        marked_alive: str | None = None,
    ) -> None:
        user = interaction.user.id
        await self.act(interaction, lambda state: report_action(state, user, str(quarters), marked_alive))

    @quarters.autocomplete("quarters")
    async def quarters_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: int | str
    ) -> list[app_commands.Choice[int]]:
        """Only the numbers this mission's table allows (0 to its quarters), not the option's 0–8."""
        state = await self.my_state(interaction)
        most = state.mission.table_quarters if state is not None else 8
        typed = str(current).strip()
        return [
            app_commands.Choice(name=str(n), value=n) for n in range(most + 1) if str(n).startswith(typed)
        ]

    @quarters.autocomplete("marked_alive")
    async def alive_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await self._suggest(interaction, "", "report")
        if not choices:
            return []
        everything = ", ".join(c.value for c in choices)[:COMMAND_CHOICE_VALUE]  # typed back: cut, not marked
        return [app_commands.Choice(name=everything, value=everything)]

    @app_commands.command(name="board", description="Show your game's board (only to you)")
    async def board(self, interaction: discord.Interaction[MusterBot]) -> None:
        info = await self.my_game(interaction)
        _info, state = await self.bot.sessions.load(info.id)
        await interaction.response.send_message(**fit(embed=render.embed(board_embed(state)), ephemeral=True))

    # ------------------------------------------------------------ missions as data

    pack = app_commands.Group(name="pack", description="This server's own 40K missions")

    @pack.command(name="load", description="Load this server's 40K mission pack (YAML; Manage Server)")
    @app_commands.describe(file="A YAML file with a `missions:` list, like the built-in one")
    async def pack_load(self, interaction: discord.Interaction[MusterBot], file: discord.Attachment) -> None:
        loaded = await self.bot.packs.load(interaction, SYSTEM, file, parse_pack)
        names = ", ".join(f"`{m.key}` ({m.name})" for m in loaded.missions)
        said = _.n(
            "Loaded {count} mission(s): {names}.",
            "Loaded {count} mission(s): {names}.",
            len(loaded.missions),
            names=names,
        )
        await interaction.response.send_message(**fit(content=said, ephemeral=True))

    @pack.command(name="missions", description="List the missions /40k start can use here")
    async def pack_missions(self, interaction: discord.Interaction[MusterBot]) -> None:
        missions = await self._missions(interaction.guild_id, interaction.channel_id)
        lines = [clip(f"`{key}` — {m.title}: {m.blurb}", MISSION_LINE) for key, m in missions.items()]
        await interaction.response.send_message(**fit(content=fit_lines(lines, CONTENT), ephemeral=True))
