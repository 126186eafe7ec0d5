"""Plain-data messages (bot/chat/messages.py) turned into Discord's JSON, and into discord.py send/edit
arguments made from it."""

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
    fit_content,
    fit_embeds_json,
)
from bot.chat.messages import Button, Embed, Modal, Outgoing, Reply, Select, SelectOption
from bot.lang.i18n import Domain
from rules.text import clip

_ = Domain("muster")


STYLES = {"primary": 1, "secondary": 2, "success": 3, "danger": 4}
"""A button's style as Discord numbers it."""
COLOUR = 0x8B5A2B
"""An embed's colour when its message names none."""


def embed_json(model: Embed) -> dict[str, Any]:
    """An embed as Discord's JSON, each field and the footer within its own limit (the message's
    limits are applied with its other embeds: `message_json`, `bot.chat.limits.fit`)."""
    data: dict[str, Any] = {"type": "rich", "color": model.colour if model.colour is not None else COLOUR}
    if model.title:
        data["title"] = model.title
    if model.description:
        data["description"] = model.description
    if model.fields:
        data["fields"] = [
            {
                "name": clip(f.name, FIELD_NAME),
                "value": clip(f.value, FIELD_VALUE) or "\u200b",
                "inline": f.inline,
            }
            for f in model.fields[:FIELDS]
        ]
    if model.footer:
        data["footer"] = {"text": clip(model.footer, EMBED_FOOTER)}
    if model.timestamp is not None:
        stamp = model.timestamp if model.timestamp.tzinfo is not None else model.timestamp.astimezone()
        data["timestamp"] = stamp.isoformat()
    return data


def embed(model: Embed) -> discord.Embed:
    return discord.Embed.from_dict(embed_json(model))


def components_json(
    session_id: str | None, buttons: list[Button], selects: list[Select]
) -> list[dict[str, Any]]:
    """The components as Discord's JSON rows, each with the custom_id that routes its click
    (bot/chat/custom_ids.py): the selects first, a row each, then the buttons, five a row, in the
    rows left (one is always left for them)."""
    rows: list[dict[str, Any]] = [
        {"type": 1, "components": [_select_json(_session(session_id), select)]}
        for select in selects[: ACTION_ROWS - 1]
    ]
    kept = buttons[: (ACTION_ROWS - len(rows)) * ROW_BUTTONS]
    for start in range(0, len(kept), ROW_BUTTONS):
        row = [_button_json(session_id, button) for button in kept[start : start + ROW_BUTTONS]]
        rows.append({"type": 1, "components": row})
    return rows


def _button_json(session_id: str | None, button: Button) -> dict[str, Any]:
    return {
        "type": 2,
        "style": STYLES[button.style],
        "label": clip(button.label, BUTTON_LABEL),
        "custom_id": _button_id(session_id, button),
        "disabled": button.disabled,
    }


def _select_json(session_id: str, select: Select) -> dict[str, Any]:
    options = select.options[:SELECT_OPTIONS]
    most = max(1, min(select.max_values, len(options)))
    data: dict[str, Any] = {
        "type": 3,
        "custom_id": (custom_ids.pick if select.pick else custom_ids.select)(session_id, select.step),
        "min_values": min(select.min_values, most),
        "max_values": most,
        "options": [_option_json(o) for o in options],
    }
    if select.placeholder:
        data["placeholder"] = clip(select.placeholder, SELECT_PLACEHOLDER)
    return data


def _option_json(option: SelectOption) -> dict[str, Any]:
    data = {
        "label": clip(option.label, SELECT_OPTION_TEXT),
        "value": option.value[:SELECT_OPTION_TEXT],  # a value is matched, not read: cut, not marked
    }
    if option.description:
        data["description"] = clip(option.description, SELECT_OPTION_TEXT)
    return data


def view_of(rows: list[dict[str, Any]]) -> discord.ui.View | None:
    """Discord's JSON rows (`components_json`) as a discord.py view; None for no rows.

    The view is sent stopped, so discord.py keeps no copy: bot/chat/ui.py routes the clicks by their
    custom_id (a button with its own custom_id goes to its cog's `DynamicItem`), restart or not.
    """
    if not rows:
        return None
    result = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for item in row["components"]:
            result.add_item(_item(item, number))
    result.stop()
    return result


def _item(data: dict[str, Any], row: int) -> discord.ui.Item[Any]:
    if data["type"] == 2:
        return discord.ui.Button(
            label=data["label"],
            style=discord.ButtonStyle(data["style"]),
            disabled=data["disabled"],
            custom_id=data["custom_id"],
            row=row,
        )
    return discord.ui.Select(
        custom_id=data["custom_id"],
        placeholder=data.get("placeholder"),
        min_values=data["min_values"],
        max_values=data["max_values"],
        options=[
            discord.SelectOption(label=o["label"], value=o["value"], description=o.get("description"))
            for o in data["options"]
        ],
        row=row,
    )


def _button_id(session_id: str | None, button: Button) -> str:
    if button.custom_id is not None:
        return button.custom_id
    return custom_ids.button(_session(session_id), button.step, button.value, button.form)


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


def allowed_json(users: list[int]) -> dict[str, Any]:
    """`allowed` as Discord's JSON."""
    return {"parse": [], "users": users} if users else {"parse": []}


def message_json(session_id: str | None, message: Outgoing | Reply) -> dict[str, Any]:
    """The message as Discord's JSON (a send's or an edit's body, an answer's `data`), within
    Discord's limits. `to_discord` makes discord.py's arguments from it; a click answered in place
    sends it as it is (bot/play/in_place.py): making discord.py's embed and view for it and turning
    them back into this cost that click about 0.1 ms with the CPU's caches cold."""
    pings = message.pings if isinstance(message, Outgoing) else []
    data: dict[str, Any] = {
        "content": fit_content(message.content or None),
        "allowed_mentions": allowed_json(pings),
    }
    if not (isinstance(message, Outgoing) and message.keep_embeds):
        data["embeds"] = fit_embeds_json([embed_json(e) for e in message.embeds[:EMBEDS]])
    rows = components_json(session_id, message.buttons, message.selects)
    if rows or (isinstance(message, Outgoing) and message.key):
        data["components"] = rows  # an edit of a kept message without them removes its buttons
    return data


def to_discord(session_id: str | None, message: Outgoing | Reply) -> dict[str, Any]:
    """`message_json` as discord.py's send or edit arguments."""
    data = message_json(session_id, message)
    kwargs: dict[str, Any] = {
        "content": data["content"],
        "allowed_mentions": allowed(message.pings if isinstance(message, Outgoing) else []),
    }
    if "embeds" in data:
        kwargs["embeds"] = [discord.Embed.from_dict(e) for e in data["embeds"]]
    if "components" in data:
        kwargs["view"] = view_of(data["components"])
    return kwargs


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
