"""An event's rounds (a part of `EventCog`): publishing the next round (paired by rules/event, each
pairing's game opened in the same transaction when Muster runs the system), the top cut, results (a
player's report stands once the opponent reports the same; the organiser's at once), drops, byes,
the standings (a PNG as the leaderboard's) and the CSV export of rounds and standings.
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
from bot.events.rounds import file_results, muster_results, open_games, table_of, with_results
from bot.events.service import EventInfo, EventStep, ReportWaiting
from bot.lang.i18n import Domain
from bot.scores.image import render_table
from cogs.event.base import EventBase, reply
from cogs.event.render import faction_of, tiebreak_name
from rules.errors import RuleError
from rules.event.actions import Finish, GiveBye, Leave, PublishRound, ReportResult, StartTopCut
from rules.event.events import ResultReported
from rules.event.machine import apply
from rules.event.state import EventAction, EventState, is_organiser
from rules.session import Event

_ = Domain("event")


def report_key(round_number: int, first: int, second: int) -> str:
    low, high = sorted((first, second))
    return f"{round_number}:{low}:{high}"


class RoundCommands(EventBase):
    async def open_round(
        self, interaction: discord.Interaction[MusterBot], event: str | None, make: type[EventAction]
    ) -> EventStep:
        """Publish a round (`PublishRound`) or start the top cut (`StartTopCut`): the results of the
        games played in Muster first, then the step, then its games opened, in one transaction."""
        event_id = await self.pick(interaction, event)
        as_organiser = await self.organiser(interaction)
        user = interaction.user.id
        info, known = await self.events.load(event_id, guild_id_of(interaction))
        guild = self.bot.get_guild(info.guild_id)
        names = {
            m.id: m.display_name
            for e in known.entrants
            if guild is not None and (m := guild.get_member(e.player))
        }
        seed = secrets.randbits(31)

        async def decide(
            db: AsyncSession, info: EventInfo, state: EventState
        ) -> tuple[EventState, list[Event]]:
            state, absorbed = with_results(state, await muster_results(db, state))
            if make is PublishRound:
                action: EventAction = PublishRound(actor=user, as_organiser=as_organiser, seed=seed)
            else:
                action = StartTopCut(actor=user, as_organiser=as_organiser)
            state, events = apply(state, action)
            await open_games(self.bot, db, info, state, names)
            return state, absorbed + events

        return await self.events.step(event_id, decide, guild_id=guild_id_of(interaction))

    @app_commands.command(name="publish", description="Pair the next round and open its games (organisers)")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def publish(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        done = await self.open_round(interaction, event, PublishRound)
        await reply(interaction, _("Round {round} is published.", round=done.state.round_number))

    @app_commands.command(name="top-cut", description="Start the top cut after the last round (organisers)")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def cut(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        done = await self.open_round(interaction, event, StartTopCut)
        await reply(interaction, _("Round {round} is published.", round=done.state.round_number))

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
        event_id = await self.pick(interaction, event)
        as_organiser = await self.organiser(interaction)
        user = interaction.user.id
        first = player.id if player is not None else user

        async def decide(
            db: AsyncSession, info: EventInfo, state: EventState
        ) -> tuple[EventState, list[Event]]:
            action = ReportResult(
                actor=user,
                as_organiser=as_organiser,
                round=state.round_number,
                first=first,
                second=opponent.id,
                first_vp=your_vp,
                second_vp=their_vp,
            )
            judged, events = apply(state, action)  # refused here: nothing is kept
            if not is_organiser(state, action):
                judged, events = await self.confirm(db, info, state, action, events)
            await file_results(self.bot, db, info, judged, events)
            return judged, events

        done = await self.events.step(event_id, decide, guild_id=guild_id_of(interaction))
        if any(isinstance(e, ReportWaiting) for e in done.events):
            await reply(
                interaction,
                _("Reported; the result stands once <@{other}> reports the same.", other=opponent.id),
            )
        else:
            await reply(interaction, _("The result is recorded."))

    async def confirm(
        self, db: AsyncSession, info: EventInfo, state: EventState, action: ReportResult, events: list[Event]
    ) -> tuple[EventState, list[Event]]:
        """A player's report: it stands once the opponent reported the same (else it waits, and the
        opponent is told by DM)."""
        [reported] = [e for e in events if isinstance(e, ResultReported)]
        reports = await self.events.reports(db, info.id)
        key = report_key(reported.round, reported.first, reported.second)
        waiting = reports.get(key)
        same = (reported.first_vp, reported.second_vp)
        if waiting is not None and waiting.by != action.actor:
            if (waiting.first_vp, waiting.second_vp) != same:
                raise RuleError(
                    code="event.result_differs", first_vp=waiting.first_vp, second_vp=waiting.second_vp
                )
            del reports[key]
            await self.events.keep_reports(db, info.id, reports)
            return apply(state, action)
        other = reported.second if action.actor == reported.first else reported.first
        note = ReportWaiting(
            round=reported.round,
            table=reported.table,
            first=reported.first,
            second=reported.second,
            first_vp=reported.first_vp,
            second_vp=reported.second_vp,
            by=action.actor,
            private_to=other,
        )
        reports[key] = note
        await self.events.keep_reports(db, info.id, reports)
        return state, [note]

    @app_commands.command(name="drop", description="Drop out of the event (organisers: drop a player)")
    @app_commands.describe(player="Organisers: who drops", event="Which event (default: the one coming up)")
    async def drop(
        self,
        interaction: discord.Interaction[MusterBot],
        player: discord.User | None = None,
        event: str | None = None,
    ) -> None:
        who = player.id if player is not None else interaction.user.id
        await self.act(interaction, event, lambda user, org: Leave(actor=user, as_organiser=org, player=who))
        await reply(interaction, _("<@{player}> is out of the event.", player=who))

    @app_commands.command(
        name="bye", description="Give a player without a game a bye this round (organisers)"
    )
    @app_commands.describe(player="Who gets the bye", event="Which event (default: the one coming up)")
    async def bye(
        self, interaction: discord.Interaction[MusterBot], player: discord.User, event: str | None = None
    ) -> None:
        await self.act(
            interaction, event, lambda user, org: GiveBye(actor=user, as_organiser=org, player=player.id)
        )
        await reply(interaction, _("<@{player}> has a bye this round.", player=player.id))

    @app_commands.command(
        name="finish", description="End the event and post the final standings (organisers)"
    )
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def finish(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        await self.act(interaction, event, lambda user, org: Finish(actor=user, as_organiser=org))
        await reply(interaction, _("The event is over; the final standings are posted."))

    @app_commands.command(name="standings", description="The event's standings as a table")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def standings(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        event_id = await self.pick(interaction, event)
        info, state = await self.events.load(event_id, guild_id_of(interaction))
        file = discord.File(io.BytesIO(self.picture(info, state)), filename="standings.png")
        await interaction.response.send_message(file=file, ephemeral=True)

    async def standings_upload(self, ref: str) -> bytes | None:
        """The picture a standings post carries (`<event id>:<round>` or `<event id>:final`), drawn
        from the stored event when the post is sent: after a round, from the Swiss games of that
        round and before, so a resend draws the same table. None: the event is gone."""
        event_id, _colon, which = ref.rpartition(":")
        try:
            info, state = await self.events.load(event_id)
        except RuleError:
            return None
        if which.isdigit():
            state = state.model_copy(update={"games": [g for g in state.games if g.round <= int(which)]})
        return self.picture(info, state)

    def picture(self, info: EventInfo, state: EventState) -> bytes:
        """The standings as a PNG table (as the leaderboard's): rank, player, faction, W-D-L,
        tournament points and each tiebreaker in order; players named as the server knows them."""
        columns = [
            ("#", "right"),
            (_("Player"), "left"),
            (_("Faction"), "left"),
            (_("W-D-L"), "right"),
            (_("Points"), "right"),
        ]
        columns += [(tiebreak_name(k), "right") for k in state.settings.scoring.tiebreakers]
        return render_table(state.settings.name, columns, self.rows(self.bot.get_guild(info.guild_id), state))  # type: ignore[arg-type]

    @staticmethod
    def rows(guild: discord.Guild | None, state: EventState) -> list[list[str]]:
        rows = []
        for row in table_of(state):
            member = guild.get_member(row.player) if guild is not None else None
            name = member.display_name if member is not None else str(row.player)
            breaks = [f"{row.tiebreaks.get(k, 0):g}" for k in state.settings.scoring.tiebreakers]
            rows.append(
                [str(row.rank), name, faction_of(state, row.player), row.record(), str(row.points), *breaks]
            )
        return rows

    @app_commands.command(name="export", description="The event's rounds and standings as CSV")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def export(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        event_id = await self.pick(interaction, event)
        _info, state = await self.events.load(event_id, guild_id_of(interaction))
        keys = [k.value for k in state.settings.scoring.tiebreakers]
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["round", "table", "first", "second", "first_vp", "second_vp"])
        for g in state.games:
            writer.writerow([g.round, g.table, g.first, g.second or "", g.first_vp, g.second_vp])
        writer.writerow([])
        writer.writerow(["rank", "player", "faction", "wins", "draws", "losses", "byes", "points", *keys])
        for row in table_of(state):
            breaks = [row.tiebreaks.get(k, 0) for k in state.settings.scoring.tiebreakers]
            faction = faction_of(state, row.player)
            writer.writerow(
                [
                    row.rank,
                    row.player,
                    faction,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.byes,
                    row.points,
                    *breaks,
                ]
            )
        file = discord.File(io.BytesIO(out.getvalue().encode()), filename=f"event-{event_id}.csv")
        await interaction.response.send_message(file=file, ephemeral=True)
