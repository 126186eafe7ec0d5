"""One place that turns failures into short, friendly, ephemeral answers.

A RuleError is the user's own mistake: its message is shown as is. Anything else is our fault: the
user sees an error id, the log gets the traceback under the same id.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.chat.limits import fit
from bot.lang.i18n import Domain
from bot.lang.text import refusal
from rules.errors import RuleError
from rules.text import echo

log = logging.getLogger("muster.errors")
_ = Domain("muster")


class UserError(RuleError):
    """A polite refusal raised by the Discord layer (bad option, missing permission...)."""


async def send_ephemeral(interaction: discord.Interaction[Any], content: str, **kwargs: Any) -> None:
    """Answer ephemerally whether or not the interaction was already answered.

    Refusals often repeat the user's input, so the answer goes through the length guard: an
    over-long refusal would otherwise be rejected and the user would get no answer at all.
    """
    fitted = fit(content=content, ephemeral=True, **kwargs)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**fitted)
        else:
            await interaction.response.send_message(**fitted)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


def describe(error: BaseException) -> str | None:
    """The user-facing text for an expected error, or None if it is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, RuleError):
        return refusal(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("That command only works in a server channel.")
    if isinstance(error, app_commands.MissingPermissions):
        return _("You need the Manage Server permission for that.")
    if isinstance(error, app_commands.CommandOnCooldown):
        return _("Slow down a little: try again in {seconds} s.", seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.TransformerError):
        return _("I couldn't understand {typed} for that option.", typed=f"`{echo(str(error.value))}`")
    if isinstance(error, app_commands.CheckFailure):
        return _("You can't use that command here.")
    return None


async def report(interaction: discord.Interaction[Any], error: BaseException) -> None:
    text = describe(error)
    if text is None:
        error_id = secrets.token_hex(4)
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        log.error(
            "unhandled error %s in interaction %s",
            error_id,
            interaction.id,
            exc_info=(type(original), original, original.__traceback__),
        )
        text = _(
            "Sorry, something went wrong on my side (error id {error_id}). Please try again.",
            error_id=f"`{error_id}`",
        )
    await send_ephemeral(interaction, text)


class MusterTree(app_commands.CommandTree[Any]):
    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await report(interaction, error)
