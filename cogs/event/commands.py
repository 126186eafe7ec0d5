"""/event: a club's Swiss tournament (a thin adapter over bot/events/).

Organisers (Manage Server, or the role `/settings organiser-role` names) make an event; its card
takes entries through buttons; players send sealed lists (cogs/event/lists.py); the organiser
closes the lists and publishes each round, results come in (cogs/event/rounds.py), standings are
posted after each round, the final ones when the event ends. A round's clock DMs its players at
30 and 10 minutes left, once (the sweep claims each warning in the store).

Components survive restarts: `event:<event>:join|leave` carries all the card's buttons need.
"""

from __future__ import annotations

import logging
import math
import re
from datetime import datetime
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app import MusterBot
from bot.chat import errors, render
from bot.chat.checks import channel_id_of, guild_id_of
from bot.chat.limits import SCHEDULED_EVENT_NAME
from bot.chat.messages import Outgoing
from bot.db.models import utcnow
from bot.events.rounds import muster_results, with_results
from bot.events.service import EventInfo
from bot.lang.i18n import Domain, speaking
from bot.lang.text import add_words
from bot.worker import Worker
from cogs.event.base import reply
from cogs.event.lists import ListCommands
from cogs.event.render import STANDINGS_UPLOAD
from cogs.event.rounds import RoundCommands
from cogs.event.text import REFUSALS
from cogs.night import input as typed_input
from rules.errors import RuleError
from rules.event.actions import Cancel, Join, Leave
from rules.event.models import Scoring, Tiebreaker
from rules.event.state import EventSettings, EventState
from rules.night.models import system_slug
from rules.session import Event
from rules.text import clip

log = logging.getLogger(__name__)
add_words(REFUSALS)
_ = Domain("event")

EVENT_BUTTON = re.compile(r"event:(?P<eid>[0-9a-f]{12}):(?P<action>join|leave)")
WARNINGS = ((30, 1), (10, 2))  # minutes left, and its mark in the round's claims


def cog_of(client: discord.Client) -> EventCog:
    cog = cast(MusterBot, client).get_cog("Event")
    if not isinstance(cog, EventCog):
        raise RuleError(code="event.unavailable")
    return cog


class EventButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=EVENT_BUTTON):
    def __init__(self, item: discord.ui.Button[Any], event_id: str, action: str) -> None:
        super().__init__(item)
        self.event_id, self.action = event_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EventButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["eid"], match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            cog = cog_of(interaction.client)
            action = Join if self.action == "join" else Leave
            done = await cog.act(
                interaction,
                self.event_id,
                lambda user, org: action(actor=user, as_organiser=org, player=user),
            )
            if action is Leave:
                await reply(interaction, _("You have left the event."))
            elif any(e.player == interaction.user.id for e in done.state.waitlist):
                await reply(interaction, _("The event is full: you are on the waitlist."))
            else:
                await reply(
                    interaction, _("You are entered. Send your list with `/event list` before the deadline.")
                )
        except Exception as exc:
            await errors.report(interaction, exc)


def tiebreakers_typed(typed: str) -> tuple[Tiebreaker, ...]:
    known = [t.value for t in Tiebreaker]
    chosen = [t.strip().lower().replace(" ", "_").replace("-", "_") for t in typed.split(",") if t.strip()]
    if not chosen or len(set(chosen)) != len(chosen) or any(t not in known for t in chosen):
        raise RuleError(code="event.tiebreakers", known=", ".join(known))
    return tuple(Tiebreaker(t) for t in chosen)


@app_commands.guild_only()
class EventCog(
    ListCommands,
    RoundCommands,
    commands.GroupCog,
    name="Event",
    group_name="event",
    group_description="Events: Swiss tournaments with sealed army lists",
):
    """Organiser rights are checked by the bot: Discord's default permissions would hide the
    players' commands (list, result, drop) too."""

    def __init__(self, bot: MusterBot) -> None:
        super().__init__(bot)
        self.clock = Worker("event-clock", self.sweep, bot.settings.sweep_seconds, ready=bot.wait_until_ready)

    async def cog_load(self) -> None:
        self.events.renderer = self.renderer
        self.events.on_change.append(self.schedule.kick)
        self.bot.add_dynamic_items(EventButton)
        self.bot.delivery.sender.uploads.register(STANDINGS_UPLOAD, self.standings_upload)
        self.clock.start()
        self.schedule.start()

    async def cog_unload(self) -> None:
        await self.clock.stop()
        await self.schedule.stop()
        self.events.renderer = None
        if self.schedule.kick in self.events.on_change:
            self.events.on_change.remove(self.schedule.kick)

    @app_commands.command(name="create", description="Make an event: a Swiss tournament with sealed lists")
    @app_commands.describe(
        name="The event's name",
        system="The game system, e.g. Kill Team (or any other, typed by name)",
        date="The day, like 2026-12-05",
        time="The start, like 10:00 (in the server's time zone)",
        rounds="How many rounds (0: as many as the players need)",
        round_minutes="How long a round lasts",
        capacity="How many players can enter",
        lists_hours="Lists are due this many hours before the start",
        tiebreakers="In order, from: total_vp, vp_difference, sos, opp_sos, head_to_head",
        reveal="Reveal every list when lists close, or each to its opponent at pairing",
        seeding="Round 1: random, or by Muster's ratings",
        win="Tournament points for a win",
        draw="Tournament points for a draw",
        loss="Tournament points for a loss",
        bye="Tournament points for a bye",
        top_cut="A single-elimination top cut of 4 or 8 (0: none)",
        unrated="The event's games don't count for ratings",
    )
    @app_commands.choices(
        reveal=[
            app_commands.Choice(name="all together", value="all"),
            app_commands.Choice(name="to the opponent", value="opponent"),
        ],
        seeding=[
            app_commands.Choice(name="random", value="random"),
            app_commands.Choice(name="by rating", value="rating"),
        ],
    )
    async def create(
        self,
        interaction: discord.Interaction[MusterBot],
        name: str,
        system: str,
        date: str,
        time: str,
        rounds: int = 0,
        round_minutes: int = 150,
        capacity: int = 32,
        lists_hours: int = 24,
        tiebreakers: str = "sos, vp_difference, total_vp",
        reveal: str = "all",
        seeding: str = "random",
        win: int = 3,
        draw: int = 1,
        loss: int = 0,
        bye: int = 3,
        top_cut: int = 0,
        unrated: bool = False,
    ) -> None:
        guild_id = guild_id_of(interaction)
        await self.require_organiser(interaction)
        if top_cut not in (0, 4, 8):
            raise RuleError(code="event.top_cut")
        if not 0 <= lists_hours <= typed_input.MAX_CUTOFF_HOURS:
            raise RuleError(code="event.lists_hours", maximum=typed_input.MAX_CUTOFF_HOURS)
        title = clip(" ".join(name.split()), SCHEDULED_EVENT_NAME)
        zone = (await self.bot.guild_settings.get(guild_id)).time_zone
        start = typed_input.starts_at(date, time, zone)
        if start <= utcnow().timestamp():
            raise RuleError(code="event.in_past")
        settings = EventSettings(
            name=title,
            system=system_slug(system),
            starts_at=start,
            time_zone=typed_input.zone(zone).key,
            list_deadline=start - lists_hours * 3600,
            rounds=rounds or None,
            round_minutes=round_minutes,
            capacity=capacity,
            scoring=Scoring(
                win=win, draw=draw, loss=loss, bye=bye, tiebreakers=tiebreakers_typed(tiebreakers)
            ),
            top_cut=8 if top_cut == 8 else 4 if top_cut == 4 else None,
            reveal="opponent" if reveal == "opponent" else "all",
            seeding="rating" if seeding == "rating" else "random",
            rated=not unrated,
        )
        await self.events.create(
            guild_id=guild_id,
            channel_id=channel_id_of(interaction),
            organiser_id=interaction.user.id,
            settings=settings,
        )
        await reply(interaction, _("**{name}** is made: its card takes entries.", name=title))

    @app_commands.command(name="enter", description="Enter a player, also late until round 1 (organisers)")
    @app_commands.describe(player="Who enters", event="Which event (default: the one coming up)")
    async def enter(
        self, interaction: discord.Interaction[MusterBot], player: discord.User, event: str | None = None
    ) -> None:
        done = await self.act(
            interaction, event, lambda user, org: Join(actor=user, as_organiser=org, player=player.id)
        )
        if any(e.player == player.id for e in done.state.waitlist):
            await reply(interaction, _("<@{player}> is on the waitlist.", player=player.id))
        else:
            await reply(interaction, _("<@{player}> is entered.", player=player.id))

    @app_commands.command(name="show", description="Show an event's card")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def show(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        event_id = await self.pick(interaction, event)
        info, state = await self.events.load(event_id, guild_id_of(interaction))
        shown = self.renderer.card(info, state)
        await interaction.response.send_message(
            embeds=[render.embed(e) for e in shown.embeds], ephemeral=True
        )

    @app_commands.command(name="cancel", description="Cancel an event (organisers)")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def cancel(self, interaction: discord.Interaction[MusterBot], event: str | None = None) -> None:
        done = await self.act(interaction, event, lambda user, org: Cancel(actor=user, as_organiser=org))
        await reply(interaction, _("**{name}** is cancelled.", name=done.state.settings.name))

    # ------------------------------------------------------------------ the round's clock

    async def sweep(self, now: datetime | None = None) -> None:
        """Bring the results of games played in Muster into their events, and DM a round's players
        at 30 and 10 minutes left, each warning once."""
        now = now or utcnow()
        for info in await self.events.reminders_due(now):
            try:
                await self.remind(info, now)
            except RuleError as refused:
                log.info("event %s: %s", info.id, refused.code)
        for info in await self.events.round_due(now):
            try:
                await self.absorb(info)
                await self.warn(info, now)
            except RuleError as refused:
                log.info("event %s: %s", info.id, refused.code)

    async def remind(self, info: EventInfo, now: datetime) -> None:
        """Each player still in, a DM before the start (and whose list is missing, that it is)."""
        _info, state = await self.events.load(info.id)
        languages = await self.events.languages_of(info.guild_id, state)
        deadline = state.settings.list_deadline
        messages = []
        for entrant in state.active():
            with speaking(languages.of(entrant.player)):
                text = _(
                    "**{name}** starts <t:{start}:R>.",
                    name=state.settings.name,
                    start=state.settings.starts_at,
                )
                entry = state.lists.get(entrant.player)
                if deadline is not None and (entry is None or entry.status == "rejected"):
                    text += "\n" + _("Your list is still missing: send it with `/event list`.")
            messages.append(Outgoing(to="dm", user_id=entrant.player, content=text))
        await self.events.remind(info, messages, now)

    async def absorb(self, info: EventInfo) -> None:
        """The confirmed results of the round's games played in Muster, once, into the event (its
        round post and, when the round is complete, its standings follow from the step)."""
        _info, state = await self.events.load(info.id)
        async with self.bot.store.read() as db:
            if not await muster_results(db, state):
                return

        async def decide(
            db: AsyncSession, _info: EventInfo, state: EventState
        ) -> tuple[EventState, list[Event]]:
            return with_results(state, await muster_results(db, state))

        await self.events.step(info.id, decide)

    async def warn(self, info: EventInfo, now: datetime) -> None:
        if info.round_ends_at is None:
            return
        _info, state = await self.events.load(info.id)
        left = (info.round_ends_at - now).total_seconds() / 60
        due = [(m, mark) for m, mark in WARNINGS if left <= m]
        if due:
            mark = due[-1][1]
            minutes = max(1, math.ceil(left))
            players = [p for g in state.open_games() for p in g.players]
            languages = await self.events.languages_of(info.guild_id, state)
            messages = []
            for player in players:
                with speaking(languages.of(player)):
                    text = _(
                        "**{name}**, round {round}: {minutes} minutes left.",
                        name=state.settings.name,
                        round=state.round_number,
                        minutes=minutes,
                    )
                messages.append(Outgoing(to="dm", user_id=player, content=text))
            await self.events.warn(info, state.round_number * 100 + mark, messages)

    @show.autocomplete("event")
    @cancel.autocomplete("event")
    async def _event_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.event_choices(interaction, current)
