"""/killteam: Kill Team matched play at the table, with sealed bids and secrets in DMs.

The slash commands turn their options into rules actions and hand them to the platform through the
game's adapter (cogs/killteam/adapter.py). The game runs in a thread under a short start card, with
one board edited in place, a message per question the game waits on (edited once answered, its
buttons gone), sealed bids and private picks as DM prompts, and each reveal in a post of its own
that is never edited. The thread speaks the server's language, DMs the player's.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import channel_id_of, guild_id_of, require_manage, require_opponent
from bot.chat.errors import UserError
from bot.chat.limits import fit
from bot.chat.router import send_reply
from bot.lang.i18n import Domain, say
from bot.play.game_cog import GameCog
from cogs.killteam.adapter import SYSTEM, KillTeamAdapter
from cogs.killteam.questions import private_reply
from cogs.killteam.vocabulary import MISSION_METHOD_LABELS, map_label
from rules.killteam import (
    EndGame,
    KillTeamState,
    PreviousGame,
    RevealTacOp,
    Score,
    parse_pack,
    private_view,
    start,
    supported_methods,
)
from rules.killteam.hand import METHOD_LABELS

_ = Domain("killteam")


class KillTeam(GameCog[KillTeamState], group_name="killteam", group_description="Kill Team matched play"):
    adapter = KillTeamAdapter()

    pack = app_commands.Group(name="pack", description="This server's Kill Team cards")

    @app_commands.command(name="start", description="Start a Kill Team matched play game in this channel")
    @app_commands.describe(
        opponent="Who you are playing",
        mission_method="How the mission and map are decided",
        tacops_method="How Tac Ops are chosen",
        mission="Organised only: the mission card",
        map="Organised only: the map card (its id, such as A4)",
    )
    @app_commands.choices(
        mission_method=[
            app_commands.Choice(name=label, value=key) for key, label in MISSION_METHOD_LABELS.items()
        ],
        tacops_method=[
            app_commands.Choice(name=str(label), value=key) for key, label in METHOD_LABELS.items()
        ],
    )
    @app_commands.guild_only()
    async def start_game(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        mission_method: str,
        tacops_method: str,
        mission: str | None = None,
        map: str | None = None,
    ) -> None:
        require_opponent(interaction, opponent)
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        caller = interaction.user.id
        if mission_method != "organised" and (mission or map):
            raise UserError(_("A mission and a map are only given with the Organised method."))
        await self.bot.sessions.refuse_second_game(guild_id, channel_id, SYSTEM, caller, opponent.id)
        pack = await self.server_pack(guild_id, channel_id)
        previous: PreviousGame | None = None
        if mission_method == "control":
            last = await self.bot.sessions.last_finished_between(guild_id, SYSTEM, caller, opponent.id)
            if last is not None:
                _info, old = last
                winner = old.outcome.winner if old.outcome else None
                previous = PreviousGame(winner=winner, mission=old.mission, map=old.map)
        players = [caller, opponent.id]
        await self.open_game(
            interaction,
            opponent,
            lambda sid, roller: start(
                sid,
                players,
                mission_method,
                tacops_method,
                roller,
                pack=pack,
                mission=mission,
                map=map,
                previous=previous,
            ),
        )

    @start_game.autocomplete("mission")
    async def mission_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        pack = await self.server_pack(interaction.guild_id, interaction.channel_id)
        return self.choices(((m.name, m.id) for m in pack.missions), current)

    @start_game.autocomplete("map")
    async def map_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        pack = await self.server_pack(interaction.guild_id, interaction.channel_id)
        return self.choices(((map_label(m.label), m.id) for m in pack.maps), current)

    # ------------------------------------------------------------ in-game commands

    async def _my_tac_ops(
        self, interaction: discord.Interaction[MusterBot], current: str, revealed: bool | None
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        if state is None:
            return []
        cards = [
            c
            for c in private_view(state, interaction.user.id).tac_ops
            if revealed is None or c.revealed == revealed
        ]
        return self.choices(((c.name, c.id) for c in cards), current)

    @app_commands.command(name="reveal-tacop", description="Reveal one of your secret Tac Ops")
    @app_commands.describe(tacop="Which of your Tac Ops")
    async def reveal_tacop(self, interaction: discord.Interaction[MusterBot], tacop: str) -> None:
        user = interaction.user.id
        await self.act(interaction, lambda _state: RevealTacOp(actor=user, tac_op=tacop))

    @reveal_tacop.autocomplete("tacop")
    async def reveal_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._my_tac_ops(interaction, current, revealed=False)

    @app_commands.command(name="score", description="Record the VP you scored this turning point")
    @app_commands.describe(
        mission_vp="Mission VP to add (negative corrects a mistake)",
        tacop="The Tac Op that scored (revealed ones)",
        tacop_vp="VP from that Tac Op",
    )
    async def score(
        self,
        interaction: discord.Interaction[MusterBot],
        mission_vp: app_commands.Range[int, -16, 16] = 0,
        tacop: str | None = None,
        tacop_vp: app_commands.Range[int, -6, 6] = 0,
    ) -> None:
        user = interaction.user.id
        await self.act(
            interaction,
            lambda _state: Score(actor=user, mission_vp=mission_vp, tac_op=tacop, tac_op_vp=tacop_vp),
        )

    @score.autocomplete("tacop")
    async def score_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        return await self._my_tac_ops(
            interaction, current, revealed=True if state and state.tac.secret else None
        )

    @app_commands.command(
        name="end", description="Ask to end the game now (either player confirms); the higher total wins"
    )
    async def end(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, EndGame(actor=interaction.user.id))

    @app_commands.command(name="hand", description="Your Tac Ops and any secret choice waiting for you")
    async def hand(self, interaction: discord.Interaction[MusterBot]) -> None:
        info = await self.my_game(interaction)
        _info, state = await self.bot.sessions.load(info.id)
        reply = private_reply(state, interaction.user.id)
        if reply is None:
            await interaction.response.send_message(_("Nothing secret is waiting for you."), ephemeral=True)
            return
        await send_reply(interaction, info.id, reply)

    # ------------------------------------------------------------ packs

    @pack.command(name="load", description="Load this server's own Kill Team cards (Manage Server)")
    @app_commands.describe(file="A YAML file shaped like the shipped pack")
    async def pack_load(self, interaction: discord.Interaction[MusterBot], file: discord.Attachment) -> None:
        loaded = await self.bot.packs.load(interaction, SYSTEM, file, parse_pack)
        methods = ", ".join(say(METHOD_LABELS[m]) for m in supported_methods(loaded)) or _("none")
        loaded_text = _(
            "Loaded **{name}**: {missions}, {maps}, {tac_ops}, {factions}. Tac Ops methods it can run: "
            "{methods}.",
            name=loaded.name,
            missions=_.n("{count} mission", "{count} missions", len(loaded.missions)),
            maps=_.n("{count} map", "{count} maps", len(loaded.maps)),
            tac_ops=_.n("{count} Tac Op", "{count} Tac Ops", len(loaded.all_tac_ops())),
            factions=_.n("{count} faction", "{count} factions", len(loaded.factions)),
            methods=methods,
        )
        await interaction.response.send_message(**fit(content=loaded_text, ephemeral=True))

    @pack.command(name="reset", description="Go back to the shipped Kill Team cards (Manage Server)")
    async def pack_reset(self, interaction: discord.Interaction[MusterBot]) -> None:
        require_manage(interaction)
        removed = await self.bot.packs.delete(guild_id_of(interaction), SYSTEM)
        text = (
            _("This server uses the shipped Kill Team cards again.")
            if removed
            else _("This server already uses the shipped Kill Team cards.")
        )
        await interaction.response.send_message(text, ephemeral=True)
