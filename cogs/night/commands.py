"""/night: a club's game nights (a thin adapter over bot/nights/service.py, bot/nights/clock.py and
bot/nights/club.py).

Organisers (Manage Server, or the role `/settings organiser-role` names) make a night; its card
takes sign-ups through buttons and a short form; at the cut-off (or on demand) the night is paired;
the organiser reviews the draft (swap, move a table, drop a no-show) and publishes, which opens
each pairing's game; the summary follows the games.

Answers to a player or an organiser speak their language (in force for the interaction); the card,
the pairings and the summary the server's, and each DM its reader's (the renderer is given both).

Components survive restarts: their custom_id carries all they need.
- `night:<night>:join|change|leave`  the card's buttons (join and change open the form)
- `nightform:<night>:join|change`     the form's submit (read by this cog's interaction listener)
- `nightrem:<guild>:off`              "Stop game-night reminders" on a reminder DM
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncSession

from bot.app import MusterBot
from bot.chat import errors, render
from bot.chat.checks import channel_id_of, guild_id_of
from bot.chat.limits import (
    AUTOCOMPLETE_CHOICES,
    COMMAND_CHOICE_NAME,
    EMBED_DESCRIPTION,
    MODAL_TITLE,
    SCHEDULED_EVENT_LOCATION,
    SCHEDULED_EVENT_NAME,
    TEXT_INPUT_PLACEHOLDER,
)
from bot.db.models import utcnow
from bot.lang.i18n import Domain, speaking
from bot.lang.text import add_words, refusal
from bot.nights.clock import NightClock
from bot.nights.club import MAX_TABLES, Club
from bot.nights.events import EventSync
from bot.nights.service import NightInfo, NightStep
from cogs.night import input as night_input
from cogs.night.render import NightRenderer
from cogs.night.text import BOT_ENGLISH, WORDS, system_values, word
from cogs.night.text import ENGLISH as RULE_ENGLISH
from rules.errors import RuleError
from rules.night.models import Table, check_table
from rules.night.night import (
    Cancel,
    Drop,
    Edit,
    Leave,
    MoveTable,
    NightSettings,
    NightState,
    SignUp,
    Swap,
)
from rules.session import Action
from rules.text import clip, echo

add_words(RULE_ENGLISH, system_values)
add_words(BOT_ENGLISH)
_ = Domain("night")  # the command descriptions' domain (the words are cogs/night_text.py's)

NIGHT_BUTTON = re.compile(r"night:(?P<nid>[0-9a-f]{12}):(?P<action>join|change|leave)")
FORM = re.compile(r"nightform:(?P<nid>[0-9a-f]{12}):(?P<mode>join|change)")
REMINDER_BUTTON = re.compile(r"nightrem:(?P<guild>\d{1,20}):off")
LATE = ("night.after_cutoff", "night.closed", "night.paired_already")  # changes the organiser decides
RECURRENCE = [
    app_commands.Choice(name=n, value=v)
    for n, v in (("no", "none"), ("weekly", "weekly"), ("fortnightly", "fortnightly"))
]


@dataclass(frozen=True)
class Picked:
    """The night a command acts on; `note` says which it is when the command named none and
    several were coming up (so the organiser knows which one the answer is about)."""

    id: str
    note: str = ""

    def says(self, text: str) -> str:
        return f"{self.note}\n{text}" if self.note else text


def cog_of(client: discord.Client) -> NightCog:
    cog = cast(MusterBot, client).get_cog("Night")
    if not isinstance(cog, NightCog):
        raise RuleError(code="night.unavailable")
    return cog


async def reply(interaction: discord.Interaction[Any], content: str) -> None:
    await errors.send_ephemeral(interaction, content)


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
    commands.GroupCog,
    name="Night",
    group_name="night",
    group_description="Game nights: sign-ups, pairings, tables",
):
    """Organiser rights are checked by the bot (Manage Server or the organiser role): Discord's
    default permissions would hide the sign-up commands from players too."""

    tables = app_commands.Group(name="tables", description="The club's tables and terrain kits")

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
            bot.delivery.kick,
            server_language=bot.languages.of_server,
        )
        super().__init__()

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

    def _channel_name(self, channel_id: int) -> str | None:
        channel = self.bot.get_channel(channel_id)
        return getattr(channel, "name", None)

    # ------------------------------------------------------------------ who may organise

    async def organiser(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server, or the server's organiser role."""
        member = interaction.user
        if not isinstance(member, discord.Member):
            return False
        if member.guild_permissions.manage_guild:
            return True
        role = (await self.bot.guild_settings.get(guild_id_of(interaction))).organiser_role_id
        return role is not None and any(r.id == role for r in member.roles)

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

    # ------------------------------------------------------------------ signing up (the card)

    async def open_form(self, interaction: discord.Interaction[Any], night_id: str, mode: str) -> None:
        info, state = await self.nights.load(night_id, interaction.guild_id)
        user = interaction.user.id
        mine = next((s for s in state.signups + state.waitlist if s.player == user), None)
        self._check_mode(state, user, mode)
        form = discord.ui.Modal(
            title=clip(word("form.title", title=state.settings.title), MODAL_TITLE),
            timeout=None,
            custom_id=f"nightform:{info.id}:{mode}",
        )
        offered = self.renderer.systems(state.settings.systems)
        systems = (
            self.renderer.systems(mine.systems)
            if mine
            else (offered if len(state.settings.systems) == 1 else "")
        )
        fields: list[discord.ui.Item[Any]] = [
            discord.ui.TextInput(
                label=word("form.systems"),
                custom_id="systems",
                default=systems or None,
                placeholder=clip(offered, TEXT_INPUT_PLACEHOLDER),
                max_length=200,
            ),
            discord.ui.TextInput(
                label=word("form.points"),
                custom_id="points",
                required=False,
                max_length=6,
                default=str(mine.points) if mine and mine.points else None,
            ),
        ]
        teaching = discord.ui.Select[Any](
            custom_id="teaching",
            min_values=0,
            max_values=2,
            required=False,
            options=[
                discord.SelectOption(
                    label=word("form.teach"), value="teach", default=bool(mine and mine.can_teach)
                ),
                discord.SelectOption(
                    label=word("form.learn"), value="learn", default=bool(mine and mine.wants_to_learn)
                ),
            ],
        )
        arranged = discord.ui.UserSelect[Any](
            custom_id="arranged", min_values=0, max_values=1, required=False
        )
        if mine and mine.arranged_with:
            arranged.default_values = [discord.Object(mine.arranged_with, type=discord.User)]
        note = discord.ui.TextInput[Any](
            label=word("form.note"),
            custom_id="note",
            required=False,
            max_length=night_input.NOTE_CHARS,
            style=discord.TextStyle.paragraph,
            default=mine.note if mine and mine.note else None,
        )
        for item in fields:
            form.add_item(item)
        form.add_item(discord.ui.Label(text=word("form.teaching"), component=teaching))
        form.add_item(discord.ui.Label(text=word("form.arranged"), component=arranged))
        form.add_item(note)
        form.stop()
        await interaction.response.send_modal(form)

    @staticmethod
    def _check_mode(state: NightState, user: int, mode: str) -> None:
        """Sign up once (then change); change only a sign-up there is."""
        title = state.settings.title
        if mode == "join":
            if any(s.player == user for s in state.signups):
                raise RuleError(code="night.signup_exists", title=title)
            waiting = [s.player for s in state.waitlist]
            if user in waiting:
                raise RuleError(code="night.already_waiting", title=title, position=waiting.index(user) + 1)
        elif not any(s.player == user for s in state.signups + state.waitlist):
            raise RuleError(code="night.signup_missing", title=title)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        match = FORM.fullmatch(str(data.get("custom_id", "")))
        if match is None:
            return
        try:
            values = night_input.form_values(list(data.get("components", [])))
            await self.sign_up(interaction, match["nid"], match["mode"], values)
        except Exception as exc:
            await errors.report(interaction, exc)

    async def sign_up(
        self, interaction: discord.Interaction[Any], night_id: str, mode: str, values: dict[str, Any]
    ) -> None:
        user = interaction.user.id
        signup = night_input.signup_of(user, values)
        self.clock.names.remember(interaction.guild_id, interaction.user)  # names the games it opens

        async def decide(_db: AsyncSession, _info: NightInfo, state: NightState) -> Action:
            self._check_mode(state, user, mode)
            return SignUp(actor=user, signup=signup)

        try:
            stepped = await self.nights.step(night_id, decide, guild_id=interaction.guild_id)
        except RuleError as refused:
            if refused.code not in LATE:
                raise
            await self._to_organiser(interaction, night_id, signup.systems)
            return
        assert stepped is not None
        state, title = stepped.state, stepped.state.settings.title
        seated = [s.player for s in state.signups]
        if user in seated:
            key = "reply.changed" if mode == "change" else "reply.in"
            text = word(
                key,
                title=title,
                start=state.settings.starts_at,
                position=seated.index(user) + 1,
                capacity=state.settings.capacity,
            )
        else:
            waiting = [s.player for s in state.waitlist]
            text = word(
                "reply.waitlisted",
                title=title,
                position=waiting.index(user) + 1 if user in waiting else len(waiting),
            )
        await reply(interaction, text)

    async def _to_organiser(
        self, interaction: discord.Interaction[Any], night_id: str, systems: list[str] | None
    ) -> None:
        """A change after the cut-off (a sign-up for `systems`, None: leaving) goes to the
        organiser, who decides; told in the organiser's language."""
        info, state = await self.nights.load(night_id, interaction.guild_id)
        languages = await self.nights.languages_of(info.guild_id, state)
        request = self.renderer.request(info, state, interaction.user.id, systems, languages)
        await self.nights.say(info, [request])
        await reply(
            interaction,
            refusal_text("night.sent_to_organiser", title=state.settings.title, organiser=state.organiser),
        )

    async def leave(self, interaction: discord.Interaction[Any], night_id: str) -> None:
        user = interaction.user.id
        _info, state = await self.nights.load(night_id, interaction.guild_id)
        if state.status in ("closed", "review"):
            await self._to_organiser(interaction, night_id, None)
            return

        async def decide(_db: AsyncSession, _info: NightInfo, state: NightState) -> Action:
            self._check_mode(state, user, "change")
            return Leave(actor=user, player=user)

        stepped = await self.nights.step(night_id, decide, guild_id=interaction.guild_id)
        assert stepped is not None
        await reply(interaction, word("reply.left", title=stepped.state.settings.title))

    # ------------------------------------------------------------------ the organiser

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
        said = word("reply.published", title=stepped.state.settings.title, games=opened)
        await interaction.followup.send(picked.says(said), ephemeral=True)

    @app_commands.command(name="finish", description="End the night now and post its summary (organisers)")
    @app_commands.describe(night="Which night (default: the one coming up)")
    async def finish(self, interaction: discord.Interaction[MusterBot], night: str | None = None) -> None:
        picked = await self.pick(interaction, night)
        stepped = await self.clock.finish(
            picked.id, interaction.user.id, await self.organiser(interaction), guild_id_of(interaction)
        )
        await reply(interaction, picked.says(word("reply.finished", title=stepped.state.settings.title)))

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
            players=len(state.signups),
            games=len(state.result.pairings) if state.result else 0,
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

    @pair.autocomplete("night")
    @swap.autocomplete("night")
    @move.autocomplete("night")
    @drop.autocomplete("night")
    @edit.autocomplete("night")
    @publish.autocomplete("night")
    @finish.autocomplete("night")
    @cancel.autocomplete("night")
    @show.autocomplete("night")
    async def _night_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.night_choices(interaction, current)

    # ------------------------------------------------------------------ the club's tables

    @tables.command(
        name="add", description="Add a table (or change one) with the systems it suits (organisers)"
    )
    @app_commands.describe(
        table="A short id, like kz1 or table-3",
        name="Its name, like Killzone 1 or 44x60 table",
        systems="The systems it suits, e.g. Kill Team, Warcry",
        terrain="The terrain kit on it (optional)",
    )
    async def tables_add(
        self,
        interaction: discord.Interaction[MusterBot],
        table: str,
        name: str,
        systems: str,
        terrain: str = "",
    ) -> None:
        guild_id = guild_id_of(interaction)
        await self.require_organiser(interaction)
        checked = check_table(
            Table(
                table_id=table.strip().lower(),
                name=name,
                systems=night_input.systems_typed(systems),
                terrain=terrain,
            )
        )
        if not await self.club.save_table(guild_id, checked):
            raise RuleError(code="night.tables_full", limit=MAX_TABLES)
        await reply(
            interaction,
            word(
                "reply.table_saved",
                table=checked.table_id,
                name=checked.name,
                systems=self.renderer.systems(checked.systems),
            ),
        )

    @tables.command(name="remove", description="Remove a table (organisers)")
    @app_commands.describe(table="The table's id")
    async def tables_remove(self, interaction: discord.Interaction[MusterBot], table: str) -> None:
        guild_id = guild_id_of(interaction)
        await self.require_organiser(interaction)
        if not await self.club.remove_table(guild_id, table.strip().lower()):
            raise RuleError(code="night.table_unknown", table=echo(table.strip(), night_input.TYPED_SHOWN))
        await reply(interaction, word("reply.table_removed", table=table.strip().lower()))

    @tables.command(name="list", description="The club's tables and the systems each suits")
    async def tables_list(self, interaction: discord.Interaction[MusterBot]) -> None:
        tables = await self.club.tables(guild_id_of(interaction))
        lines = [
            word(
                "tables.line",
                table=t.table_id,
                name=t.name,
                systems=self.renderer.systems(t.systems),
                terrain=f" · {t.terrain}" if t.terrain else "",
            )
            for t in tables
        ]
        embed = discord.Embed(
            title=word("tables.title"),
            description=clip("\n".join(lines) or word("tables.none"), EMBED_DESCRIPTION),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @tables_remove.autocomplete("table")
    async def _table_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        tables = await self.club.tables(interaction.guild_id)
        needle = current.casefold()
        return [
            app_commands.Choice(name=clip(f"{t.table_id} · {t.name}", COMMAND_CHOICE_NAME), value=t.table_id)
            for t in tables
            if needle in f"{t.table_id} {t.name}".casefold()
        ][:AUTOCOMPLETE_CHOICES]


def refusal_text(code: str, **values: Any) -> str:
    return refusal(RuleError(code=code, **values))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(NightCog(bot))
