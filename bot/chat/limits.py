"""Discord's limits, named in one module, and applied to one message just before it is sent.

Every length or count Discord enforces that the bot meets is a name here, with the Discord limit it
is; code elsewhere cuts text by these names (or through `fit`, `rules.text.clip`), never by a bare
number, so one reader can check them all against Discord's documentation in one place. A length
that is the project's own choice (a log line, a database column, how much of a name a button
quotes) is named where it is used instead.

Discord refuses a whole message (HTTP 400) when any part is a character too long, and a refused
interaction answer leaves the user with "The application did not respond". Every send therefore
passes its keyword arguments through `fit`, which cuts what is too long with "…" (echoed input, long
lists) instead of letting the message fail. Builders should still keep their own text short; this is
the net under them, not a layout tool.

Discord's rules for the command tree are numbers here too (`COMMAND_*`), checked offline by
`muster doctor` (bot/doctor/command_tree.py): a tree that breaks one is refused whole when it is synced.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.lang.i18n import Domain
from rules.text import ELLIPSIS, clip

CONTENT = 2000
"""A message's content."""
EMBEDS = 10
"""Embeds on one message."""
EMBED_TOTAL = 6000
"""Every title, description, field, footer and author name of one message's embeds together."""
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_AUTHOR = 256
"""An embed's author name."""
EMBED_FOOTER = 2048
"""An embed's footer text."""
FIELDS = 25
"""Fields in one embed."""
FIELD_NAME = 256
FIELD_VALUE = 1024
ACTION_ROWS = 5
"""Rows of components on a message, and text inputs (one a row) in a modal."""
ROW_BUTTONS = 5
"""Buttons in one row."""
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100
"""A select option's label, value and description, each."""
SELECT_PLACEHOLDER = 150
BUTTON_LABEL = 80
CUSTOM_ID = 100
"""A component's or a modal's custom_id."""
MODAL_TITLE = 45
TEXT_INPUT_LABEL = 45
"""A modal text input's label."""
TEXT_INPUT_PLACEHOLDER = 100
AUTOCOMPLETE_CHOICES = 25
"""Choices one autocomplete answer may offer (each named and valued as `COMMAND_CHOICE_*`)."""
SCHEDULED_EVENT_NAME = 100
SCHEDULED_EVENT_DESCRIPTION = 1000
SCHEDULED_EVENT_LOCATION = 100
"""An external scheduled event's location (its entity metadata)."""
THREAD_NAME = 100
NONCE = 25
"""A message's nonce (what makes a resend after a lost answer post nothing new)."""
GUILD_NAME = 100
"""A server's name is at most this long, so one quoted whole never takes more room."""

COMMAND_NAME = 32
"""A command, group or option name, and each of its localisations."""
COMMAND_NAME_MARKS = frozenset("-_'")
"""Besides letters and numbers, what a slash-command name may hold (all lowercase)."""
COMMAND_NAME_SCRIPTS = ((0x0900, 0x097F), (0x0E00, 0x0E7F))
"""Devanagari and Thai, whose vowel signs (marks, not letters) a name may also hold."""
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
"""Options (or sub-commands) of one command, group or sub-command."""
COMMAND_CHOICES = 25
COMMAND_CHOICE_NAME = 100
COMMAND_CHOICE_VALUE = 100
COMMAND_TOTAL = 8000
"""Names, descriptions and choice names and values of one top-level command, each field counted at
its longest localisation."""

RATE_LIMIT_WAIT = 5.0
"""The longest rate-limit wait (seconds) the bot sleeps through inside a request. Discord's
per-channel message buckets refill within 5 s, so a wait up to that is ordinary pacing; anything
longer (an hour for the edits of a message older than an hour, code 30046; minutes for a channel
rename) makes discord.py raise `discord.RateLimited` instead, and the outbox schedules the message
for when Discord allows it while every other message goes on (bot/chat/delivery.py)."""
ANSWER_DEADLINE = 3.0
"""Discord takes an interaction's first answer only this soon after the interaction (else 10062
Unknown interaction). discord.py sleeps out any 429 on an answer, however long, so the bot stops
waiting for an answer by then: what the click's step caused is sent all the same."""
ANSWER_LOOKUP_GRACE = 0.5
"""How long past `ANSWER_DEADLINE` a message sent as an answer that went unconfirmed is looked up on
Discord (its interaction's original response): by then Discord has taken the answer or never will."""
INTERACTION_TOKEN_LIFETIME = 15 * 60.0
"""An interaction's token works this long (its followups, its original response); later, Discord
answers 401 Invalid Webhook Token."""
DM_REFUSED_FOR = 10 * 60.0
"""A user whose DMs refused the bot (50007) is not DMed again for this long: each refusal is an
invalid request, of which Discord bans an address after 10,000 in ten minutes, and what would have
been DMed goes the way a refused DM goes meanwhile (a secret prompt: its button at the table)."""
OLD_MESSAGE_AGE = 3600.0
"""Discord allows only a few edits per hour to a message older than an hour (code 30046)."""
RENEW_AGE = 50 * 60.0
"""A living board this old (by its snowflake) is posted afresh instead of edited, and the old one
edited into a pointer to it. Ten minutes before the hour, so the pointer (an edit) lands while the
old board is still young, whatever an outage or a backlog delays it by, and the board itself never
spends the small budget of an old message's edits."""

_ = Domain("muster")
_BLANK = "\u200b"  # Discord refuses an empty field name or value; this shows as nothing


def fit_content(text: str | None) -> str | None:
    """Message content within 2,000 characters."""
    return None if text is None else clip(text, CONTENT)


def _fit_fields(data: dict[str, Any], room: int) -> int:
    """Cut an embed's fields (as a dict) to the count and sizes allowed and to `room`; return what is left."""
    fields: list[dict[str, Any]] = list(data.get("fields") or [])
    kept: list[dict[str, Any]] = []
    for index, field in enumerate(fields):
        last_allowed = index == FIELDS - 1 and len(fields) > FIELDS
        if last_allowed or room < 2:
            break
        name = clip(str(field.get("name") or "") or _BLANK, min(FIELD_NAME, room - 1))
        value = clip(str(field.get("value") or "") or _BLANK, min(FIELD_VALUE, room - len(name)))
        kept.append({**field, "name": name, "value": value})
        room -= len(name) + len(value)
    left_out = len(fields) - len(kept)
    if left_out:
        note = _.n("{count} more not shown", "{count} more not shown", left_out)
        if len(kept) < FIELDS and len(ELLIPSIS) + len(note) <= room:
            kept.append({"name": ELLIPSIS, "value": note, "inline": False})
            room -= len(ELLIPSIS) + len(note)
        elif kept:  # no room for the note: mark the cut without growing the message
            kept[-1]["value"] = kept[-1]["value"][:-1] + ELLIPSIS
    if kept:
        data["fields"] = kept
    else:
        data.pop("fields", None)
    return room


def _fit_embed(embed: discord.Embed, room: int) -> tuple[discord.Embed | None, int]:
    """One embed cut to its own limits and to the `room` left in the message; None if nothing fits.
    An embed that already fits (nearly every one) is kept as it is: cutting one rebuilds it."""
    data: dict[str, Any] = dict(embed.to_dict())
    made, room = _fit_json(data, room)
    if made is data:
        return embed, room
    return (None if made is None else discord.Embed.from_dict(made)), room


def _fit_json(data: dict[str, Any], room: int) -> tuple[dict[str, Any] | None, int]:
    """`_fit_embed` for an embed as Discord's JSON: one that fits is given back as it is (the same
    object, not a copy)."""
    if _fits(data, room):
        return data, room - _length(data)
    return _cut_json(data, room)


def _length(data: Mapping[str, Any]) -> int:
    """An embed's characters, as Discord counts them towards `EMBED_TOTAL`."""
    total = len(data.get("title") or "") + len(data.get("description") or "")
    for field in data.get("fields") or ():
        total += len(field.get("name") or "") + len(field.get("value") or "")
    for part, key in (("author", "name"), ("footer", "text")):
        inner = data.get(part)
        if isinstance(inner, dict):
            total += len(inner.get(key) or "")
    return total


def _fits(data: Mapping[str, Any], room: int) -> bool:
    """Whether `_cut_json` would leave the embed (as Discord's JSON) as it is: every part within its
    limit, all of it within `room`, and no empty field, author or footer (cutting drops those)."""
    fields = data.get("fields") or ()
    if _length(data) > room or len(fields) > FIELDS:
        return False
    if len(data.get("title") or "") > EMBED_TITLE or len(data.get("description") or "") > EMBED_DESCRIPTION:
        return False
    for part, key, limit in (("author", "name", EMBED_AUTHOR), ("footer", "text", EMBED_FOOTER)):
        inner = data.get(part)
        if isinstance(inner, dict) and key in inner and not 0 < len(inner[key] or "") <= limit:
            return False
    return all(
        f.get("name") and f.get("value") and len(f["name"]) <= FIELD_NAME and len(f["value"]) <= FIELD_VALUE
        for f in fields
    )


def _cut_json(original: Mapping[str, Any], room: int) -> tuple[dict[str, Any] | None, int]:
    """An embed (as Discord's JSON) cut to its limits and `room`, as a copy; None if nothing fits."""
    data: dict[str, Any] = dict(original)
    had_text = False
    for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
        if data.get(key):
            had_text = True
            data[key] = clip(str(data[key]), min(limit, room))
            room -= len(data[key])
            if not data[key]:
                del data[key]
    for part, key, limit in (("author", "name", EMBED_AUTHOR), ("footer", "text", EMBED_FOOTER)):
        inner = data.get(part)
        if isinstance(inner, dict) and key in inner:
            inner = data[part] = dict(inner)  # the original's own stays as it was
            had_text = had_text or bool(inner[key])
            inner[key] = clip(str(inner[key] or ""), min(limit, room))
            room -= len(inner[key])
            if not inner[key]:
                del data[part]
    if data.get("fields"):
        had_text = True
        room = _fit_fields(data, room)
    has_text = any(data.get(k) for k in ("title", "description", "fields", "author", "footer"))
    if had_text and not has_text:
        return None, room
    return data, room


def fit_embeds(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    """At most 10 embeds, each within its limits and 6,000 characters in all (later parts cut first)."""
    room = EMBED_TOTAL
    fitted: list[discord.Embed] = []
    for embed in embeds[:EMBEDS]:
        made, room = _fit_embed(embed, room)
        if made is not None:
            fitted.append(made)
    return fitted


def fit_embeds_json(embeds: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """`fit_embeds` for embeds as Discord's JSON: one that fits is kept as it is (not copied)."""
    room = EMBED_TOTAL
    fitted: list[dict[str, Any]] = []
    for data in embeds[:EMBEDS]:
        made, room = _fit_json(data, room)
        if made is not None:
            fitted.append(made)
    return fitted


def fit_view(view: discord.ui.View) -> discord.ui.View:
    """Button labels and select options within their limits (changed in place, returned for chaining).

    discord.py itself refuses more than 5 rows or 25 items when they are added, so only text is cut.
    """
    for item in view.children:
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = clip(item.label, BUTTON_LABEL)
        elif isinstance(item, discord.ui.Select):
            options = item.options[:SELECT_OPTIONS]
            for option in options:
                option.label = clip(option.label, SELECT_OPTION_TEXT)
                option.value = clip(option.value, SELECT_OPTION_TEXT)
                if option.description:
                    option.description = clip(option.description, SELECT_OPTION_TEXT)
            item.options = options
            item.max_values = max(1, min(item.max_values, len(options)))
            item.min_values = min(item.min_values, item.max_values)
            if item.placeholder:
                item.placeholder = clip(item.placeholder, SELECT_PLACEHOLDER)
    return view


def fit(**kwargs: Any) -> dict[str, Any]:
    """discord.py send/edit keyword arguments with `content`, `embed(s)` and `view` within Discord's limits.

    Everything else (ephemeral, files, allowed_mentions...) passes through unchanged, so a call site
    reads `await interaction.response.send_message(**fit(content=text, ephemeral=True))`.
    """
    fitted = dict(kwargs)
    if isinstance(fitted.get("content"), str):
        fitted["content"] = fit_content(fitted["content"])
    if isinstance(fitted.get("embed"), discord.Embed):
        kept = fit_embeds([fitted["embed"]])
        fitted["embed"] = kept[0] if kept else None
    if fitted.get("embeds"):
        fitted["embeds"] = fit_embeds(fitted["embeds"])
    if isinstance(fitted.get("view"), discord.ui.View):
        fit_view(fitted["view"])
    return fitted
