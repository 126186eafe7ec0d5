"""Messages as plain data: what a game wants said, before it touches Discord.

Renderers turn rules events into `Outgoing` messages; they are stored in the outbox as JSON in the
same transaction as the state that caused them, then delivered. Buttons and selects carry only a
custom_id naming the session, the question's step and the value (bot/chat/custom_ids.py), so a message
posted before a restart keeps working after it. A button outside any session (a result's Confirm) names
its own custom_id, which a persistent `DynamicItem` of its cog recognises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal, Self

from pydantic import BaseModel, Field, TypeAdapter, model_validator

from bot.lang import i18n

ButtonStyle = Literal["primary", "secondary", "success", "danger"]
SESSION_IDS = re.compile(r"(s|sm|ss|p|m|q|qf|qs|qm|qp):")  # prefixes bot/chat/ui.py routes (older ones too)


@dataclass(slots=True, kw_only=True)
class EmbedField:
    name: str
    value: str
    inline: bool = False


@dataclass(slots=True, kw_only=True)
class Embed:
    title: str | None = None
    description: str | None = None
    colour: int | None = None
    fields: list[EmbedField] = field(default_factory=list)
    footer: str | None = None
    timestamp: datetime | None = None

    def add(self, name: str, value: str, inline: bool = False) -> Embed:
        self.fields.append(EmbedField(name=name, value=value, inline=inline))
        return self


class Button(BaseModel):
    """A button: it answers the game's question `step` with option `value` (bot/play/questions.py makes
    these from the rules' questions); with `form` set the click first opens that option's form (or
    the number field). With `custom_id` set instead, it is not a question's button: the click goes to
    whichever persistent `DynamicItem` matches that id (a result's Confirm); it must not look like a
    session component's.
    """

    label: str
    step: str = ""
    value: str = ""
    form: bool = False
    style: ButtonStyle = "secondary"
    disabled: bool = False
    custom_id: str | None = Field(default=None, min_length=1, max_length=100)

    @model_validator(mode="after")
    def _one_route(self) -> Self:
        """A click must go somewhere: to the game's question or to a `DynamicItem`."""
        if self.custom_id is None:
            if not (self.step and self.value):
                raise ValueError("a question's button carries its step and value")
        elif self.step or self.value or self.form:
            raise ValueError("a button with its own custom_id answers no question")
        elif SESSION_IDS.match(self.custom_id):
            raise ValueError("a button's own custom_id must not look like a session component's")
        return self


class SelectOption(BaseModel):
    label: str
    value: str
    description: str | None = None


class Select(BaseModel):
    """A select menu answering the game's question `step` with the picked values; with `pick`, a
    menu of questions (its values their steps) that shows the one picked (bot/play/prompts.py)."""

    step: str
    pick: bool = False
    options: list[SelectOption]
    placeholder: str | None = None
    min_values: int = 1
    max_values: int = 1


class ModalField(BaseModel):
    key: str
    label: str
    placeholder: str | None = None
    style: Literal["short", "paragraph"] = "short"
    required: bool = True
    max_length: int | None = None


class Modal(BaseModel):
    title: str
    fields: list[ModalField]


class GameThread(BaseModel):
    """A thread to open from a posted message (a game's start card): the game is played in it."""

    name: str = Field(min_length=1, max_length=100)
    members: list[int] = Field(default_factory=list)
    # Told once per channel when threads can't be made, with the permission to grant (by DM if need be).
    organiser_id: int | None = None
    failure_note: str | None = None


class InteractionAnswer(BaseModel):
    """The interaction a message is the answer to (a game's start card answering `/<game> start`):
    the outbox takes the answer's message rather than posting one (bot/chat/answers.py). The token
    works for 15 minutes and is kept only with the message."""

    interaction_id: int
    token: str = Field(min_length=1, max_length=500)


class Upload(BaseModel):
    """A file sent with a message, rendered when the message is sent (bot/chat/uploads.py) by the
    renderer registered for `kind` from what the store holds for `ref`. The outbox row keeps only
    these names, so it stays small, and a resend after a crash renders the same file again."""

    kind: str = Field(min_length=1, max_length=40)
    ref: str = Field(min_length=1, max_length=100)
    filename: str = Field(min_length=1, max_length=100)


@dataclass(slots=True, kw_only=True)
class Outgoing:
    """One message to send.

    `to` says where: the session's table (its thread, else the channel it was started in; or
    `channel_id` when set), or a player's DMs. A DM with `secret=True` is a private prompt: if the
    player's DMs are closed it is NOT sent anywhere else; instead the table gets a button that shows
    the player their prompt ephemerally. With `key` set, the message is edited in place if one with
    that key was sent before for this session (the board, a question, a DM prompt), else posted;
    with `edit_only` too, it is never posted (closing a question that was never shown does nothing).
    Only the users in `pings` are notified, whatever else the content mentions.

    A plain dataclass, not a pydantic model: the step a click stores draws one for its answer, and
    pydantic's checks of its twenty fields cost that click about 0.07 ms with the CPU's caches cold.
    Messages are made by the bot's own typed code; what comes back from the outbox is checked as
    it is read (`from_json`).
    """

    to: Literal["channel", "dm"] = "channel"
    user_id: int | None = None  # for to="dm"
    content: str = ""
    # The users this message means to tell: only their mentions in `content` ping. Any other
    # mention (one typed by a member into a name or a title) is shown without notifying anyone.
    pings: list[int] = field(default_factory=list)
    embeds: list[Embed] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    selects: list[Select] = field(default_factory=list)
    secret: bool = False
    key: str | None = None
    edit_only: bool = False
    keep_embeds: bool = False  # an edit that leaves the message's embeds as they are
    # A living board or DM: when it is too old to edit freely (Discord allows few edits of a message
    # older than an hour), it is posted afresh (silently) at the bottom and the old one points to it.
    renew_when_old: bool = False
    thread: GameThread | None = None  # open this thread from the posted message
    answer: InteractionAnswer | None = None  # sent as this interaction's answer, not posted
    upload: Upload | None = None  # a file rendered at send time (a standings picture)
    channel_id: int | None = None  # overrides the session's channel (e.g. the results channel)
    # When channel_id can't be posted to (missing permission, deleted): post here instead, with the note.
    fallback_channel_id: int | None = None
    failure_note: str | None = None
    # When no channel takes it (nor the fallback): DM it, with the note, to this user (an organiser).
    failure_user_id: int | None = None
    # The language it was made in (the one in force when it was built, when none is given):
    # whatever the delivery adds (a cut list's note, the "Open my secret prompt" stand-in for a
    # closed DM) speaks it too.
    language: str = ""

    def __post_init__(self) -> None:
        if not self.language:
            self.language = i18n.language()


class Reply(BaseModel):
    """What the acting user sees in answer to their interaction, ephemeral unless said otherwise."""

    content: str = ""
    embeds: list[Embed] = Field(default_factory=list)
    buttons: list[Button] = Field(default_factory=list)
    selects: list[Select] = Field(default_factory=list)
    ephemeral: bool = True


def without_pings(outgoing: list[Outgoing], pinged: str) -> list[Outgoing]:
    """A game's first messages without a second ping for the players its start card's content
    (`pinged`) already mentioned: a question's ping is its content, the mentions of those asked (on
    its own message, or on the keyless post that tells them a question on the board waits)."""
    if not pinged:
        return outgoing
    return [
        replace(
            message,
            content=" ".join(word for word in message.content.split() if word not in pinged),
            pings=[user for user in message.pings if f"<@{user}>" not in pinged],
        )
        if message.to == "channel" and ((message.key or "").startswith("ask.") or message.key is None)
        else message
        for message in outgoing
    ]


_OUTGOING = TypeAdapter(Outgoing)


def to_json(message: Outgoing, include: set[str] | None = None) -> str:
    """The message as an outbox row keeps it (its defaults left out), or only the fields `include`
    names (what a kept message shows: bot/chat/sending.py `shown_digest`)."""
    if include is not None:
        return _OUTGOING.dump_json(message, include=include).decode()
    return _OUTGOING.dump_json(message, exclude_defaults=True).decode()


def from_json(payload: str | bytes) -> Outgoing:
    """A message read back from its outbox row, every field checked (`pydantic.ValidationError`)."""
    return _OUTGOING.validate_json(payload)
