"""Sealed army lists (a part of `EventCog`): a player sends a list (pasted, or as a text file) with
its faction, answered only to them; the channel's card shows who sealed and the commitment. The
organiser reads every list at any time (`/event lists`, a file only they see), rejects one with a
reason (the player is told by DM and sends it again), and closes the lists: revealed together, or
each to its round's opponent at pairing (rules/event/entries.py). `/event verify` recomputes a
revealed list's commitment.
"""

from __future__ import annotations

import io
import secrets

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import guild_id_of
from bot.db.models import utcnow
from bot.lang.i18n import Domain
from cogs.event.base import EventBase, reply
from rules.errors import RuleError
from rules.event.actions import CloseLists, RejectList, SubmitList
from rules.event.lists import MAX_LIST_CHARS, check_list, check_reason, verify_list
from rules.event.state import ArmyList

_ = Domain("event")
FILE_BYTES = MAX_LIST_CHARS * 4  # UTF-8: at most four bytes a character


async def file_text(file: discord.Attachment) -> str:
    """An attached list's text (plain UTF-8), or a refusal before anything is read at length."""
    if file.size > FILE_BYTES:
        raise RuleError(code="event.list_too_long", limit=MAX_LIST_CHARS, length=file.size)
    try:
        return (await file.read()).decode("utf-8")
    except (UnicodeDecodeError, discord.HTTPException):
        raise RuleError(code="event.list_file", limit=MAX_LIST_CHARS) from None


def lists_file(lists: list[ArmyList]) -> discord.File:
    parts = [f"# <@{s.player}> · {s.faction} · {s.status} · {s.commitment}\n\n{s.text}\n" for s in lists]
    return discord.File(io.BytesIO("\n\n".join(parts).encode()), filename="lists.txt")


class ListCommands(EventBase):
    @app_commands.command(name="list", description="Send your army list, sealed until the lists are revealed")
    @app_commands.describe(
        faction="Your faction",
        text="Your list, pasted (or attach it as a file)",
        file="Your list as a text file",
        event="Which event (default: the one coming up)",
    )
    async def submit(
        self,
        interaction: discord.Interaction[MusterBot],
        faction: str,
        text: str | None = None,
        file: discord.Attachment | None = None,
        event: str | None = None,
    ) -> None:
        if text and file:
            raise RuleError(code="event.list_twice")
        raw = await file_text(file) if file is not None else (text or "")
        faction, listed = check_list(faction, raw)
        nonce = secrets.token_hex(16)
        now = int(utcnow().timestamp())
        done = await self.act(
            interaction,
            event,
            lambda user, org: SubmitList(
                actor=user, as_organiser=org, player=user, faction=faction, text=listed, nonce=nonce, now=now
            ),
        )
        sealed = done.state.lists[interaction.user.id]
        await reply(
            interaction,
            _(
                "Your **{faction}** list is sealed. Its commitment: `{commitment}` "
                "(the card shows its start). It is revealed when the organiser closes the lists.",
                faction=faction,
                commitment=sealed.commitment,
            ),
        )

    @app_commands.command(
        name="lists", description="Read the event's lists (organisers; anyone once revealed)"
    )
    @app_commands.describe(player="Only this player's list", event="Which event (default: the one coming up)")
    async def lists(
        self,
        interaction: discord.Interaction[MusterBot],
        player: discord.User | None = None,
        event: str | None = None,
    ) -> None:
        event_id = await self.pick(interaction, event)
        _info, state = await self.events.load(event_id, guild_id_of(interaction))
        organising = interaction.user.id == state.organiser or await self.organiser(interaction)
        if player is not None and player.id not in state.lists:
            raise RuleError(code="event.no_list", player=player.id)
        shown = [
            entry
            for entry in sorted(state.lists.values(), key=lambda e: e.player)
            if (player is None or entry.player == player.id) and (organising or entry.status == "revealed")
        ]
        if not shown:
            raise RuleError(code="event.list_hidden")
        count = _.n("{count} list.", "{count} lists.", len(shown))
        await interaction.response.send_message(count, file=lists_file(shown), ephemeral=True)

    @app_commands.command(name="reject", description="Reject a player's list with a reason (organisers)")
    @app_commands.describe(player="Whose list", reason="Why (the player reads it)", event="Which event")
    async def reject(
        self,
        interaction: discord.Interaction[MusterBot],
        player: discord.User,
        reason: str,
        event: str | None = None,
    ) -> None:
        why = check_reason(reason)
        await self.act(
            interaction,
            event,
            lambda user, org: RejectList(actor=user, as_organiser=org, player=player.id, reason=why),
        )
        await reply(
            interaction, _("<@{player}>'s list is rejected; they are told why by DM.", player=player.id)
        )

    @app_commands.command(name="close-lists", description="Close the lists and reveal them (organisers)")
    @app_commands.describe(event="Which event (default: the one coming up)")
    async def close_lists(
        self, interaction: discord.Interaction[MusterBot], event: str | None = None
    ) -> None:
        now = int(utcnow().timestamp())
        done = await self.act(
            interaction, event, lambda user, org: CloseLists(actor=user, as_organiser=org, now=now)
        )
        if done.state.settings.reveal == "all":
            await reply(interaction, _("The lists are closed and revealed in the event's channel."))
        else:
            await reply(interaction, _("The lists are closed; each is shown to its opponent at pairing."))

    @app_commands.command(
        name="verify", description="Check a revealed list against the commitment sealed before"
    )
    @app_commands.describe(player="Whose list", event="Which event (default: the one coming up)")
    async def verify(
        self, interaction: discord.Interaction[MusterBot], player: discord.User, event: str | None = None
    ) -> None:
        event_id = await self.pick(interaction, event)
        _info, state = await self.events.load(event_id, guild_id_of(interaction))
        entry = state.lists.get(player.id)
        if entry is None:
            raise RuleError(code="event.no_list", player=player.id)
        if entry.status != "revealed" and interaction.user.id not in entry.shown_to:
            raise RuleError(code="event.list_hidden")  # shown to everyone, or to this opponent
        if verify_list(event_id, player.id, entry.faction, entry.text, entry.nonce, entry.commitment):
            text = "✅ " + _(
                "The revealed list matches the commitment `{commitment}` sealed before.",
                commitment=entry.commitment,
            )
        else:
            text = "❌ " + _("The revealed list does not match its commitment.")
        await reply(interaction, text)
