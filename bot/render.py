"""Plain-data messages (bot/messages.py) turned into discord.py send/edit arguments."""

from __future__ import annotations

from typing import Any

import discord

from bot import custom_ids
from bot.i18n import Domain
from bot.limits import fit
from bot.messages import Button, Embed, Modal, Outgoing, Reply, Select

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

MAX_BUTTONS = 25
_ = Domain("muster")


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
    """The components, each with the custom_id that routes its click (bot/custom_ids.py).

    The view is sent stopped, so discord.py keeps no copy: clicks reach the persistent items of
    bot/ui.py (or a cog's own `DynamicItem` for a button with its own custom_id), restart or not.
    """
    if not (buttons or selects):
        return None
    result = discord.ui.View(timeout=None)
    row = 0
    for select in selects[:4]:
        result.add_item(_select(_session(session_id), select, row))
        row += 1
    for index, button in enumerate(buttons[: (5 - row) * 5]):
        result.add_item(
            discord.ui.Button(
                label=button.label[:80],
                style=_STYLES[button.style],
                disabled=button.disabled,
                custom_id=_button_id(session_id, button),
                row=row + index // 5,
            )
        )
    result.stop()
    return result


def _button_id(session_id: str | None, button: Button) -> str:
    if button.custom_id is not None:
        return button.custom_id
    return custom_ids.button(_session(session_id), button.step, button.value, button.form)


def _select(session_id: str, select: Select, row: int) -> discord.ui.Select[Any]:
    options = select.options[:25]
    return discord.ui.Select(
        custom_id=custom_ids.select(session_id, select.step),
        placeholder=select.placeholder and select.placeholder[:150],
        min_values=min(select.min_values, len(options)),
        max_values=min(select.max_values, len(options)),
        options=[
            discord.SelectOption(
                label=o.label[:100],
                value=o.value[:100],
                description=(o.description or None) and o.description[:100],
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
        "embeds": [embed(e) for e in message.embeds[:10]],
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
    bot/router.py, before or after a restart."""
    form = discord.ui.Modal(title=spec.title[:45], timeout=None, custom_id=custom_id[:100])
    for f in spec.fields[:5]:
        form.add_item(
            discord.ui.TextInput(
                custom_id=f.key,
                label=f.label[:45],
                placeholder=f.placeholder and f.placeholder[:100],
                required=f.required,
                max_length=f.max_length,
                style=discord.TextStyle.paragraph if f.style == "paragraph" else discord.TextStyle.short,
            )
        )
    form.stop()
    return form
