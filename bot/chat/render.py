"""Plain-data messages (bot/chat/messages.py) turned into discord.py send/edit arguments."""

from __future__ import annotations

from typing import Any

import discord

from bot.chat import custom_ids
from bot.chat.limits import (
    ACTION_ROWS,
    BUTTON_LABEL,
    CUSTOM_ID,
    EMBED_FOOTER,
    EMBEDS,
    FIELD_NAME,
    FIELD_VALUE,
    FIELDS,
    MODAL_TITLE,
    ROW_BUTTONS,
    SELECT_OPTION_TEXT,
    SELECT_OPTIONS,
    SELECT_PLACEHOLDER,
    TEXT_INPUT_LABEL,
    TEXT_INPUT_PLACEHOLDER,
    fit,
)
from bot.chat.messages import Button, Embed, Modal, Outgoing, Reply, Select
from bot.lang.i18n import Domain
from rules.text import clip

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

_ = Domain("muster")


def embed(model: Embed) -> discord.Embed:
    result = discord.Embed(
        title=model.title,
        description=model.description,
        colour=model.colour if model.colour is not None else 0x8B5A2B,
    )
    for f in model.fields[:FIELDS]:
        result.add_field(
            name=clip(f.name, FIELD_NAME), value=clip(f.value, FIELD_VALUE) or "\u200b", inline=f.inline
        )
    if model.footer:
        result.set_footer(text=clip(model.footer, EMBED_FOOTER))
    result.timestamp = model.timestamp
    return result


def view(session_id: str | None, buttons: list[Button], selects: list[Select]) -> discord.ui.View | None:
    """The components, each with the custom_id that routes its click (bot/chat/custom_ids.py).

    The view is sent stopped, so discord.py keeps no copy: bot/chat/ui.py routes the clicks by their
    custom_id (a button with its own custom_id goes to its cog's `DynamicItem`), restart or not.
    """
    if not (buttons or selects):
        return None
    result = discord.ui.View(timeout=None)
    row = 0
    for select in selects[: ACTION_ROWS - 1]:  # a row left for buttons
        result.add_item(_select(_session(session_id), select, row))
        row += 1
    for index, button in enumerate(buttons[: (ACTION_ROWS - row) * ROW_BUTTONS]):
        result.add_item(
            discord.ui.Button(
                label=clip(button.label, BUTTON_LABEL),
                style=_STYLES[button.style],
                disabled=button.disabled,
                custom_id=_button_id(session_id, button),
                row=row + index // ROW_BUTTONS,
            )
        )
    result.stop()
    return result


def _button_id(session_id: str | None, button: Button) -> str:
    if button.custom_id is not None:
        return button.custom_id
    return custom_ids.button(_session(session_id), button.step, button.value, button.form)


def _select(session_id: str, select: Select, row: int) -> discord.ui.Select[Any]:
    options = select.options[:SELECT_OPTIONS]
    return discord.ui.Select(
        custom_id=(custom_ids.pick if select.pick else custom_ids.select)(session_id, select.step),
        placeholder=select.placeholder and clip(select.placeholder, SELECT_PLACEHOLDER),
        min_values=min(select.min_values, len(options)),
        max_values=min(select.max_values, len(options)),
        options=[
            discord.SelectOption(
                label=clip(o.label, SELECT_OPTION_TEXT),
                value=o.value[:SELECT_OPTION_TEXT],  # a value is matched, not read: cut, not marked
                description=(o.description or None) and clip(o.description, SELECT_OPTION_TEXT),
            )
            for o in options
        ],
        row=row,
    )


def _session(session_id: str | None) -> str:
    if session_id is None:
        raise ValueError("a session component in a message that belongs to no session")
    return session_id


def allowed(users: list[int]) -> discord.AllowedMentions:
    """Mentions that may ping: exactly these users (none given: nobody), never a role or everyone."""
    if not users:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in users]
    )


def to_discord(session_id: str | None, message: Outgoing | Reply) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "content": message.content or None,
        "embeds": [embed(e) for e in message.embeds[:EMBEDS]],
        "allowed_mentions": allowed(message.pings if isinstance(message, Outgoing) else []),
    }
    if isinstance(message, Outgoing) and message.keep_embeds:
        del kwargs["embeds"]
    made = view(session_id, message.buttons, message.selects)
    if made is not None:
        kwargs["view"] = made
    elif isinstance(message, Outgoing) and message.key:
        kwargs["view"] = None  # an edit that removes buttons
    return fit(**kwargs)


def prompt_fallback(session_id: str, user_id: int) -> dict[str, Any]:
    """The channel post that stands in for a secret DM the player's settings refused."""
    button_view = discord.ui.View(timeout=None)
    button_view.add_item(
        discord.ui.Button(
            label=_.p("button", "Open my secret prompt"),
            style=discord.ButtonStyle.primary,
            custom_id=custom_ids.prompt(session_id, user_id),
        )
    )
    button_view.stop()
    return {
        "content": _(
            "{player}, I couldn't send you a direct message (your DMs are closed), "
            "so your secret prompt is behind this button: only you can open it.",
            player=f"<@{user_id}>",
        ),
        "view": button_view,
        "allowed_mentions": allowed([user_id]),
    }


def modal(custom_id: str, spec: Modal) -> discord.ui.Modal:
    """A form, sent stopped so discord.py keeps no copy: its submit is routed by custom_id in
    bot/chat/router.py, before or after a restart."""
    form = discord.ui.Modal(
        title=clip(spec.title, MODAL_TITLE), timeout=None, custom_id=custom_id[:CUSTOM_ID]
    )
    for f in spec.fields[:ACTION_ROWS]:
        form.add_item(
            discord.ui.TextInput(
                custom_id=f.key,
                label=clip(f.label, TEXT_INPUT_LABEL),
                placeholder=f.placeholder and clip(f.placeholder, TEXT_INPUT_PLACEHOLDER),
                required=f.required,
                max_length=f.max_length,
                style=discord.TextStyle.paragraph if f.style == "paragraph" else discord.TextStyle.short,
            )
        )
    form.stop()
    return form
