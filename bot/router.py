"""Routes component clicks and modal submits to the session they belong to."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

import discord

from bot import errors, render, ui
from bot.games import Click
from bot.messages import Reply
from bot.sessions import SessionClosed
from rules.errors import RuleError

if TYPE_CHECKING:
    from bot.app import MusterBot


async def send_reply(interaction: discord.Interaction[Any], session_id: str | None, reply: Reply) -> None:
    kwargs = render.to_discord(session_id, reply)
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=reply.ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=reply.ephemeral, **kwargs)


async def on_session_component(
    interaction: discord.Interaction[Any],
    sid: str,
    action: str,
    arg: str,
    values: list[str],
    opens_modal: bool,
    fields: dict[str, str] | None = None,
) -> None:
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    try:
        info, state = await bot.sessions.load(sid)
        if interaction.guild_id is not None and interaction.guild_id != info.guild_id:
            raise RuleError("That button belongs to a game in another server.")
        if info.status != "open":
            raise SessionClosed(info.status)
        user = interaction.user.id
        if user not in info.players:
            a, b = info.players
            raise RuleError(
                f"Only <@{a}> and <@{b}> are playing this game, so only they can use its buttons."
            )
        adapter = bot.games.get(info.system)
        click = Click(
            user_id=user,
            action=action,
            arg=arg,
            values=values,
            fields=fields or {},
            nonce=secrets.token_hex(16),
        )
        if opens_modal:
            modal = adapter.modal_for(info, state, click)
            if modal is None:
                raise RuleError("There is nothing to fill in for that right now.")
            await interaction.response.send_modal(render.modal(sid, action, arg, modal))
            return
        # The player's own answer goes out before what the click caused is posted for everyone.
        result = await bot.sessions.act(
            sid, user, lambda i, s: adapter.action_for(i, s, click), deliver=False
        )
        if result is None:
            reply = adapter.private_prompt(info, state, user) or Reply(content="Nothing to do right now.")
        else:
            reply = adapter.reply(result.info, result.state, result.events, user)
        try:
            await send_reply(interaction, sid, reply)
        finally:
            if result is not None:
                bot.delivery.kick()
    except Exception as exc:
        await errors.report(interaction, exc)


async def on_prompt_button(interaction: discord.Interaction[Any], sid: str, user_id: int) -> None:
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    try:
        if interaction.user.id != user_id:
            raise RuleError(f"That prompt is for <@{user_id}> only.")
        info, state = await bot.sessions.load(sid)
        if info.status != "open":
            raise SessionClosed(info.status)
        reply = bot.games.get(info.system).private_prompt(info, state, user_id)
        await send_reply(interaction, sid, reply or Reply(content="Nothing is waiting for you right now."))
    except Exception as exc:
        await errors.report(interaction, exc)


def _submitted_values(components: list[Any]) -> dict[str, str]:
    """Field values from a modal submit, whatever the nesting (action rows or labels)."""
    values: dict[str, str] = {}
    for component in components:
        if not isinstance(component, dict):
            continue
        if "custom_id" in component and "value" in component:
            values[str(component["custom_id"])] = str(component["value"] or "")
        values.update(_submitted_values(component.get("components", [])))
        if isinstance(component.get("component"), dict):
            values.update(_submitted_values([component["component"]]))
    return values


async def on_modal_submit(interaction: discord.Interaction[Any]) -> bool:
    """Route a session modal's submit; False if the modal is not one of ours."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    match = ui.MODAL_ID.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return False
    values = _submitted_values(list(data.get("components", [])))
    await on_session_component(interaction, match["sid"], match["action"], match["arg"], [], False, values)
    return True
