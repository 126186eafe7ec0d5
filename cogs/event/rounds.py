"""An event's rounds (a part of `EventCog`): publishing the next round (paired by rules/event, each
pairing's game opened in the same transaction when Muster runs the system), results (a player's
report confirmed by the opponent's same report; the organiser's stands at once), drops, byes, the
standings (a PNG as the leaderboard's) and the CSV export of rounds and standings.
"""

from __future__ import annotations

import csv
import io
import secrets

import discord
from discord import app_commands
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app import MusterBot
from bot.chat.checks import guild_id_of
from bot.events import state as steps
from bot.events.rounds import cut_round, next_round, open_games, results_of, table_of, total_rounds
from bot.events.service import EventInfo
from bot.events.state import EventState, Note
from bot.lang.i18n import Domain
from bot.scores.image import render_table
from cogs.event.base import EventBase, reply
from cogs.event.render import tiebreak_name
from rules.errors import RuleError

_ = Domain("event")


def with_muster_results(state: EventState, results: dict[str, tuple[int, int, int]]) -> EventState:
    """The round's games with the confirmed results of the games played in Muster."""
    games = []
    for game in state.games:
        found = results.get(game.session_id or "")
        if found is not None and not game.reported:
            player_a, score_a, score_b = found
            first_vp, second_vp = (score_a, score_b) if player_a == game.first else (score_b, score_a)
            game = game.model_copy(update={"first_vp": first_vp, "second_vp": second_vp})
        games.append(game)
    return state.model_copy(update={"games": games})


class RoundCommands(EventBase):
    @app_commands.command(name="publish", description="Pair the next round and open its games (organisers)")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def publish(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        event_id = await self.pick(interaction, event)
        as_organiser = await self.organiser(interaction)
        user = interaction.user.id
        info, known = await self.events.load(event_id, guild_id_of(interaction))
        guild = self.bot.get_guild(info.guild_id)
        names = {m.id: m.display_name for p in known.entrants if guild and (m := guild.get_member(p))}
        seed = secrets.randbits(31)

        async def decide(
            db: AsyncSession, info: EventInfo, state: EventState
        ) -> tuple[EventState, list[Note]]:
            if user != state.organiser and not as_organiser:
                raise RuleError(code="event.not_organiser")
            state = with_muster_results(state, await results_of(db, state))
            steps.start_round(state, [], total_rounds(state))  # refused here before pairing
            games = await open_games(self.bot, db, info, state, next_round(state, seed), names)
            return steps.start_round(state, games, total_rounds(state))

        done = await self.events.step(event_id, decide, guild_id=guild_id_of(interaction))
        await reply(interaction, _("Round {round} is published.", round=done.state.round_number))

    @app_commands.command(name="top-cut", description="Pair the top cut's next round (organisers)")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def cut(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        event_id = await self.pick(interaction, event)
        as_organiser = await self.organiser(interaction)
        user = interaction.user.id
        info, known = await self.events.load(event_id, guild_id_of(interaction))
        guild = self.bot.get_guild(info.guild_id)
        names = {m.id: m.display_name for p in known.entrants if guild and (m := guild.get_member(p))}

        async def decide(
            db: AsyncSession, info: EventInfo, state: EventState
        ) -> tuple[EventState, list[Note]]:
            if user != state.organiser and not as_organiser:
                raise RuleError(code="event.not_organiser")
            state = with_muster_results(state, await results_of(db, state))
            games = cut_round(state)
            steps.start_cut(state, games)  # refused here before any game opens
            return steps.start_cut(state, await open_games(self.bot, db, info, state, games, names))

        done = await self.events.step(event_id, decide, guild_id=guild_id_of(interaction))
        await reply(interaction, _("Top cut round {round} is published.", round=done.state.round_number))

    @app_commands.command(name="result", description="Report a game's victory points (organisers: any game)")
    @app_commands.describe(
        opponent="Who you played (or, for the organiser, the other player)",
        your_vp="Your victory points (or the player's)",
        their_vp="Your opponent's victory points",
        player="Organisers: the player whose result this is",
        event="Which event (default: the one coming up)",
    )
    async def result(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        your_vp: int,
        their_vp: int,
        player: discord.User | None = None,
        event: str | None = None,
    ) -> None:
        first = player.id if player is not None else interaction.user.id
        done = await self.act(
            interaction,
            event,
            lambda user, org, s: steps.report(s, user, org, (first, opponent.id), (your_vp, their_vp)),
            organiser=player is not None and player.id != interaction.user.id,
        )
        if done.notes and done.notes[0].kind == "reported":
            await reply(
                interaction,
                _("Reported; the result stands once <@{other}> reports the same.", other=opponent.id),
            )
        else:
            await reply(interaction, _("The result is recorded."))

    @app_commands.command(name="drop", description="Drop out of the event (organisers: drop a player)")
    @app_commands.describe(player="Organisers: who drops", event="Which event (default: the one coming up)")
    async def drop(
        self,
        interaction: discord.Interaction[MusterBot],
        player: discord.User | None = None,
        event: str | None = None,
    ) -> None:
        who = player.id if player is not None else interaction.user.id
        await self.act(
            interaction,
            event,
            lambda user, org, s: steps.leave(s, who, user, org),
            organiser=who != interaction.user.id,
        )
        await reply(interaction, _("<@{player}> is out of the event.", player=who))

    @app_commands.command(
        name="bye", description="Give a player without a game a bye this round (organisers)"
    )
    @app_commands.describe(player="Who gets the bye", event="Which event (default: the one coming up)")
    async def bye(
        self, interaction: discord.Interaction[MusterBot], player: discord.User, event: str | None = None
    ) -> None:
        await self.act(interaction, event, lambda _u, _o, s: steps.give_bye(s, player.id), organiser=True)
        await reply(interaction, _("<@{player}> has a bye this round.", player=player.id))

    @app_commands.command(
        name="finish", description="End the event and post the final standings (organisers)"
    )
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def finish(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        await self.act(interaction, event, lambda _u, _o, s: steps.finish(s), organiser=True)
        await reply(interaction, _("The event is over; the final standings are posted."))

    @app_commands.command(name="standings", description="The event's standings as a table")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def standings(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        event_id = await self.pick(interaction, event)
        _info, state = await self.events.load(event_id, guild_id_of(interaction))
        rows = await self.rows(interaction, state)
        keys = state.settings.tiebreakers
        columns = [
            ("#", "right"),
            (_("Player"), "left"),
            (_("Faction"), "left"),
            (_("W-D-L"), "right"),
            (_("Points"), "right"),
        ]
        columns += [(tiebreak_name(k), "right") for k in keys]
        png = render_table(state.settings.name, columns, rows)  # type: ignore[arg-type]
        file = discord.File(io.BytesIO(png), filename="standings.png")
        await interaction.response.send_message(file=file, ephemeral=True)

    async def rows(self, interaction: discord.Interaction[MusterBot], state: EventState) -> list[list[str]]:
        table = table_of(state)
        guild = interaction.guild
        names = {
            p: (m.display_name if guild and (m := guild.get_member(p)) else str(p)) for p in state.entrants
        }
        rows = []
        for row in table:
            meta = state.lists.get(row.player)
            faction = meta.faction if meta is not None and state.lists_revealed else ""
            breaks = [f"{row.tiebreaks.get(k, 0):g}" for k in state.settings.tiebreakers]  # type: ignore[call-overload]
            rows.append([str(row.rank), names[row.player], faction, row.record(), str(row.points), *breaks])
        return rows

    @app_commands.command(name="export", description="The event's rounds and standings as CSV")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def export(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        event_id = await self.pick(interaction, event)
        _info, state = await self.events.load(event_id, guild_id_of(interaction))
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["round", "table", "first", "second", "first_vp", "second_vp"])
        for g in state.games:
            writer.writerow([g.round, g.table, g.first, g.second or "", g.first_vp, g.second_vp])
        writer.writerow([])
        writer.writerow(
            ["rank", "player", "wins", "draws", "losses", "byes", "points", *state.settings.tiebreakers]
        )
        for row in table_of(state):
            breaks = [row.tiebreaks.get(k, 0) for k in state.settings.tiebreakers]  # type: ignore[call-overload]
            writer.writerow(
                [row.rank, row.player, row.wins, row.draws, row.losses, row.byes, row.points, *breaks]
            )
        file = discord.File(io.BytesIO(out.getvalue().encode()), filename=f"event-{event_id}.csv")
        await interaction.response.send_message(file=file, ephemeral=True)
