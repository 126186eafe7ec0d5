"""Plain-data messages (bot/messages.py) turned into discord.py send/edit arguments."""

from __future__ import annotations

from typing import Any

import discord

from bot import ui
from bot.limits import fit
from bot.messages import Button, Embed, Modal, Outgoing, Reply, Select

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

MAX_BUTTONS = 25


def embed(model: Embed) -> discord.Embed:
    result = discord.Embed(
        title=model.title,
        description=model.description,
        colour=model.colour if model.colour is not None else 0x8B5A2B,
    )
    for f in model.fields[:25]:
        result.add_field(name=f.name[:256], value=f.value[:1024] or "\u200b", inline=f.inline)
    if model.footer:
        result.set_footer(text=model.footer[:2048])
    result.timestamp = model.timestamp
    return result


def view(session_id: str | None, buttons: list[Button], selects: list[Select]) -> discord.ui.View | None:
    """The components: session ones route by `session_id`, a button with its own custom_id by that."""
    if not (buttons or selects):
        return None
    result = discord.ui.View(timeout=None)
    row = 0
    for select in selects[:4]:
        result.add_item(ui.SessionSelect.make(_session(session_id), select, row=row))
        row += 1
    for index, button in enumerate(buttons[: (5 - row) * 5]):
        style, at = _STYLES[button.style], row + index // 5
        if button.custom_id is None:
            result.add_item(ui.SessionButton.make(_session(session_id), button, style, row=at))
        else:
            result.add_item(
                discord.ui.Button(
                    label=button.label[:80],
                    style=style,
                    disabled=button.disabled,
                    custom_id=button.custom_id,
                    row=at,
                )
            )
    return result


def _session(session_id: str | None) -> str:
    if session_id is None:
        raise ValueError("a session component in a message that belongs to no session")
    return session_id


def to_discord(session_id: str | None, message: Outgoing | Reply) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": message.content or None,
        "embeds": [embed(e) for e in message.embeds[:10]],
    }
    made = view(session_id, message.buttons, message.selects)
    if made is not None:
        kwargs["view"] = made
    elif isinstance(message, Outgoing) and message.key:
        kwargs["view"] = None  # an edit that removes buttons
    return fit(**kwargs)


def prompt_fallback(session_id: str, user_id: int) -> dict[str, Any]:
    """The channel post that stands in for a secret DM the player's settings refused."""
    button_view = discord.ui.View(timeout=None)
    button_view.add_item(ui.PromptButton.make(session_id, user_id))
    return {
        "content": (
            f"<@{user_id}>, I couldn't send you a direct message (your DMs are closed), "
            "so your secret prompt is behind this button: only you can open it."
        ),
        "view": button_view,
    }


def modal(session_id: str, action: str, arg: str, spec: Modal) -> ui.SessionModal:
    inputs: list[discord.ui.TextInput[Any]] = [
        discord.ui.TextInput(
            custom_id=f.key,
            label=f.label[:45],
            placeholder=f.placeholder,
            required=f.required,
            max_length=f.max_length,
            style=discord.TextStyle.paragraph if f.style == "paragraph" else discord.TextStyle.short,
        )
        for f in spec.fields[:5]
    ]
    return ui.SessionModal(session_id, action, arg, spec.title, inputs)
