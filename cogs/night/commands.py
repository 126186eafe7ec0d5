"""/night: a club's game nights (a thin adapter over bot/nights/service.py, bot/nights/clock.py and
bot/nights/club.py).

Organisers (Manage Server, or the role `/settings organiser-role` names) make a night; its card
takes sign-ups through buttons and a short form; at the cut-off (or on demand) the night is paired;
the organiser reviews the draft (swap, move a table, drop a no-show) and publishes, which opens
each pairing's game; the summary follows the games. The cog is made of parts: the card's sign-ups
(signup.py), the organiser's review of the draft (review.py) and the club's tables (tables.py),
each on what they share (base.py); this module has the rest of the commands and the buttons.

Answers to a player or an organiser speak their language (in force for the interaction); the card,
the pairings and the summary the server's, and each DM its reader's (the renderer is given both).

Components survive restarts: their custom_id carries all they need.
- `night:<night>:join|change|leave`  the card's buttons (join and change open the form)
- `nightform:<night>:join|change`     the form's submit (read by this cog's interaction listener)
- `nightrem:<guild>:off`              "Stop game-night reminders" on a reminder DM
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MusterBot
from bot.chat import errors, render
from bot.chat.checks import channel_id_of, guild_id_of
from bot.chat.limits import EMBED_DESCRIPTION, SCHEDULED_EVENT_LOCATION, SCHEDULED_EVENT_NAME
from bot.db.models import utcnow
from bot.lang.i18n import Domain, speaking
from bot.lang.text import add_words
from cogs.night import input as night_input
from cogs.night.base import reply
from cogs.night.review import DraftReview
from cogs.night.signup import SignUpCard
from cogs.night.tables import ClubTables
from cogs.night.text import BOT_ENGLISH, WORDS, games_count, players_count, system_values, word
from cogs.night.text import ENGLISH as RULE_ENGLISH
from rules.errors import RuleError
from rules.night.actions import Cancel, Edit
from rules.night.night import NightState
from rules.night.settings import NightSettings
from rules.session import Action
from rules.text import clip

add_words(RULE_ENGLISH, system_values)
add_words(BOT_ENGLISH)
_ = Domain("night")  # the command descriptions' domain (the words are cogs/night/text.py's)

NIGHT_BUTTON = re.compile(r"night:(?P<nid>[0-9a-f]{12}):(?P<action>join|change|leave)")
REMINDER_BUTTON = re.compile(r"nightrem:(?P<guild>\d{1,20}):off")
RECURRENCE = [
    app_commands.Choice(name=n, value=v)
    for n, v in (("no", "none"), ("weekly", "weekly"), ("fortnightly", "fortnightly"))
]


def cog_of(client: discord.Client) -> NightCog:
    cog = cast(MusterBot, client).get_cog("Night")
    if not isinstance(cog, NightCog):
        raise RuleError(code="night.unavailable")
    return cog


class NightButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=NIGHT_BUTTON):
    def __init__(self, item: discord.ui.Button[Any], night_id: str, action: str) -> None:
        super().__init__(item)
        self.night_id, self.action = night_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NightButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["nid"], match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            cog = cog_of(interaction.client)
            if self.action == "leave":
                await cog.leave(interaction, self.night_id)
            else:
                await cog.open_form(interaction, self.night_id, self.action)
        except Exception as exc:
            await errors.report(interaction, exc)


class ReminderButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMINDER_BUTTON):
    def __init__(self, item: discord.ui.Button[Any], guild_id: int) -> None:
        super().__init__(item)
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReminderButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["guild"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            nights = cast(MusterBot, interaction.client).nights
            await nights.set_reminders(self.guild_id, interaction.user.id, False)
            await reply(interaction, word("reminders.off"))
        except Exception as exc:
            await errors.report(interaction, exc)


@app_commands.guild_only()
class NightCog(
    SignUpCard,
    DraftReview,
    ClubTables,
    commands.GroupCog,
    name="Night",
    group_name="night",
    group_description="Game nights: sign-ups, pairings, tables",
):
    """Organiser rights are checked by the bot (Manage Server or the organiser role): Discord's
    default permissions would hide the sign-up commands from players too."""

    async def cog_load(self) -> None:
        self.nights.renderer = self.renderer
        self.nights.on_change.append(self.events.kick)
        self.bot.add_dynamic_items(NightButton, ReminderButton)
        self.clock.start()
        self.events.start()

    async def cog_unload(self) -> None:
        await self.clock.stop()
        await self.events.stop()
        self.nights.renderer = None
        if self.events.kick in self.nights.on_change:
            self.nights.on_change.remove(self.events.kick)

    # ------------------------------------------------------------------ making a night

    @app_commands.command(
        name="create", description="Make a game night with a sign-up card and a Discord event"
    )
    @app_commands.describe(
        date="The day, like 2026-12-05",
        time="The start, like 19:00 or 7pm (in the server's time zone)",
        systems="The games offered, e.g. Kill Team, Warcry (or any other, typed by name)",
        capacity="How many players can come (2 to 200)",
        cutoff_hours="Sign-ups close this many hours before the start (default 24)",
        title="The night's name (default: Game night)",
        place="Where the club meets",
        repeat="Make the next night automatically",
    )
    @app_commands.choices(repeat=RECURRENCE)
    async def create(
        self,
        interaction: discord.Interaction[MusterBot],
        date: str,
        time: str,
        systems: str,
        capacity: int = 16,
        cutoff_hours: int = 24,
        title: str = "",
        place: str = "",
        repeat: str = "none",
    ) -> None:
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        await self.require_organiser(interaction)
        if not 0 <= cutoff_hours <= night_input.MAX_CUTOFF_HOURS:
            raise RuleError(code="night.cutoff_hours", limit=night_input.MAX_CUTOFF_HOURS)
        zone = (await self.bot.guild_settings.get(guild_id)).time_zone
        start = night_input.starts_at(date, time, zone)
        with speaking(await self.bot.languages.of_server(guild_id)):  # the card's title is public
            default_title = word("default_title")
        settings = NightSettings(
            title=clip(
                title.strip() or default_title, SCHEDULED_EVENT_NAME
            ),  # the night's event is named by it
            starts_at=start,
            time_zone=night_input.zone(zone).key,
            systems=night_input.systems_typed(systems),
            capacity=capacity,
            cutoff=start - cutoff_hours * 3600,
            recurrence=repeat if repeat in ("weekly", "fortnightly") else "none",
        )
        _info, state = await self.nights.create(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=interaction.user.id,
            settings=settings,
            now=utcnow(),
            place=clip(place.strip(), SCHEDULED_EVENT_LOCATION),
        )
        await reply(interaction, word("reply.created", title=state.settings.title, start=start))

    @app_commands.command(
        name="edit", description="Change a night's time, size, cut-off or title (organisers)"
    )
    @app_commands.describe(
        night="Which night (default: the one coming up)",
        date="A new day, like 2026-12-05",
        time="A new start, like 19:00 (in the server's time zone)",
        capacity="A new number of places (2 to 200)",
        cutoff_hours="Sign-ups close this many hours before the start",
        title="A new name",
    )
    async def edit(
        self,
        interaction: discord.Interaction[MusterBot],
        night: str | None = None,
        date: str | None = None,
        time: str | None = None,
        capacity: int | None = None,
        cutoff_hours: int | None = None,
        title: str | None = None,
    ) -> None:
        zone = (await self.bot.guild_settings.get(guild_id_of(interaction))).time_zone

        def make(user: int, org: bool, state: NightState) -> Action:
            settings = state.settings
            start = settings.starts_at
            if date is not None or time is not None:
                local = datetime.fromtimestamp(start, night_input.zone(settings.time_zone))
                start = night_input.starts_at(
                    date or local.strftime("%Y-%m-%d"), time or local.strftime("%H:%M"), zone
                )
            hours = (
                cutoff_hours if cutoff_hours is not None else (settings.starts_at - settings.cutoff) // 3600
            )
            if not 0 <= hours <= night_input.MAX_CUTOFF_HOURS:
                raise RuleError(code="night.cutoff_hours", limit=night_input.MAX_CUTOFF_HOURS)
            changed = settings.model_copy(
                update={
                    "starts_at": start,
                    "cutoff": start - hours * 3600,
                    "capacity": capacity if capacity is not None else settings.capacity,
                    "title": clip(title.strip(), SCHEDULED_EVENT_NAME)
                    if title is not None
                    else settings.title,
                }
            )
            return Edit(actor=user, as_organiser=org, settings=changed)

        picked = await self.pick(interaction, night)
        try:
            stepped = await self.organiser_step(interaction, picked, make)
        except RuleError as refused:
            field = refused.params.get("field")
            if refused.code != "night.edit_after_pairing" or f"field.{field}" not in WORDS:
                raise
            raise RuleError(code=refused.code, field=word(f"field.{field}")) from None  # the field's name
        settings = stepped.state.settings
        await reply(
            interaction, picked.says(word("reply.edited", title=settings.title, start=settings.starts_at))
        )

    @app_commands.command(name="cancel", description="Cancel a game night (organisers)")
    @app_commands.describe(
        night="Which night (default: the one coming up)", series="Also stop making the nights after it"
    )
    async def cancel(
        self, interaction: discord.Interaction[MusterBot], night: str | None = None, series: bool = False
    ) -> None:
        picked = await self.pick(interaction, night)
        stepped = await self.organiser_step(
            interaction, picked, lambda user, org, _s: Cancel(actor=user, as_organiser=org)
        )
        if series:
            await self.nights.make_next(stepped.info, None, utcnow())
        await reply(interaction, picked.says(word("reply.cancelled", title=stepped.state.settings.title)))

    @app_commands.command(
        name="show", description="Show a night: the card, or the draft pairings for organisers"
    )
    @app_commands.describe(night="Which night (default: the one coming up)")
    async def show(self, interaction: discord.Interaction[MusterBot], night: str | None = None) -> None:
        picked = await self.pick(interaction, night)
        info, state = await self.nights.load(picked.id, guild_id_of(interaction))
        shown = self.renderer.card(info, state)
        if state.result is not None and state.status == "review" and await self.organiser(interaction):
            shown = self.renderer.draft(info, state)
        elif state.result is not None and state.status in ("published", "finished"):
            shown = self.renderer.pairings(info, state, draft=False)
        await interaction.response.send_message(
            content=picked.note or None, embeds=[render.embed(e) for e in shown.embeds], ephemeral=True
        )

    @app_commands.command(name="history", description="This server's past game nights")
    async def history(self, interaction: discord.Interaction[MusterBot]) -> None:
        past = await self.nights.in_server(guild_id_of(interaction), active=False, limit=15)
        lines = [self._history_line(state) for _info, state in past]
        embed = discord.Embed(
            title=word("history.title"),
            description=clip("\n".join(lines) or word("history.none"), EMBED_DESCRIPTION),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @staticmethod
    def _history_line(state: NightState) -> str:
        """A past night in a line: who played and how many games, or that it was called off (its
        draft's pairings were never played)."""
        settings = state.settings
        if state.status == "cancelled":
            return word("history.cancelled", start=settings.starts_at, title=settings.title)
        return word(
            "history.line",
            start=settings.starts_at,
            title=settings.title,
            players=players_count(len(state.signups)),
            games=games_count(len(state.result.pairings) if state.result else 0),
            status=word(f"status.{state.status}"),
        )

    @app_commands.command(
        name="reminders", description="Whether you get a DM before game nights you signed up for"
    )
    @app_commands.describe(enabled="Turn your game-night reminders on or off")
    @app_commands.choices(
        enabled=[app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
    )
    async def reminders(self, interaction: discord.Interaction[MusterBot], enabled: str) -> None:
        wanted = enabled == "on"
        await self.nights.set_reminders(guild_id_of(interaction), interaction.user.id, wanted)
        await reply(interaction, word("reminders.on" if wanted else "reminders.off"))

    @edit.autocomplete("night")
    @cancel.autocomplete("night")
    @show.autocomplete("night")
    async def _night_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.night_choices(interaction, current)
