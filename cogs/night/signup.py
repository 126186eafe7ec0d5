"""Signing up for a night: the card's buttons open a form, its submit signs the player up, and a
change after the cut-off goes to the organiser (a part of `NightCog`)."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ext import commands
from sqlalchemy.ext.asyncio import AsyncSession

from bot.chat import errors
from bot.chat.limits import MODAL_TITLE, TEXT_INPUT_PLACEHOLDER
from bot.nights.service import NightInfo
from cogs.night import input as night_input
from cogs.night.base import NightBase, refusal_text, reply
from cogs.night.text import word
from rules.errors import RuleError
from rules.night.actions import Leave, SignUp
from rules.night.night import NightState
from rules.session import Action
from rules.text import clip

FORM = re.compile(r"nightform:(?P<nid>[0-9a-f]{12}):(?P<mode>join|change)")
LATE = ("night.after_cutoff", "night.closed", "night.paired_already")  # changes the organiser decides


class SignUpCard(NightBase):
    """The card's join, change and leave, and the form's submit."""

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
