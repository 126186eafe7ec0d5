"""What a test gets back when it acts as a user: the interaction sent and the bot's answer."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .model import JSON, Channel, Guild, Message, User, walk_components

T = TypeVar("T")

# Interaction types (what the emulator sends).
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback types (what the bot answers).
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

CALLBACK_NAMES = {
    PONG: "PONG",
    CHANNEL_MESSAGE: "CHANNEL_MESSAGE_WITH_SOURCE",
    DEFERRED_CHANNEL_MESSAGE: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    DEFERRED_UPDATE_MESSAGE: "DEFERRED_UPDATE_MESSAGE",
    UPDATE_MESSAGE: "UPDATE_MESSAGE",
    AUTOCOMPLETE_RESULT: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    MODAL: "MODAL",
}


class EmulatorError(Exception):
    """Base class for errors the driver raises at the test."""


class CommandNotFound(EmulatorError, LookupError):
    """The command (or sub-command) is not in the registered schema."""


class OptionError(EmulatorError, ValueError):
    """An option is unknown, missing, of the wrong type, or outside what Discord's client allows."""


class NotAllowed(EmulatorError):
    """Discord's client would not let this user do this (cannot see it, lacks permission, disabled)."""


class InteractionTimeout(EmulatorError, TimeoutError):
    """The bot did not answer in time."""


class InteractionFailed(EmulatorError):
    """The bot answered in a way Discord rejects (too late, twice, malformed)."""


WaitUntil = Callable[[Callable[[], Any], float, str], Awaitable[Any]]


@dataclass
class ModalField:
    custom_id: str
    type: int
    label: str | None = None
    style: int | None = None
    required: bool = True
    min_length: int | None = None
    max_length: int | None = None
    value: str | None = None
    options: list[JSON] = field(default_factory=list)
    id: int | None = None


@dataclass(eq=False)
class ModalPrompt:
    """A modal the bot opened for a user; submit it with `Emulator.submit_modal`."""

    custom_id: str
    title: str
    components: list[JSON]
    user: User
    channel: Channel
    source_message: Message | None
    opened_by: InteractionRecord
    opened_at: float = field(default_factory=time.perf_counter)

    @property
    def fields(self) -> list[ModalField]:
        fields: list[ModalField] = []
        for top in self.components:
            label = top.get("label") if top.get("type") == 18 else None
            inner = [top["component"]] if top.get("type") == 18 else top.get("components") or []
            for component in inner:
                if not component.get("custom_id"):
                    continue
                fields.append(
                    ModalField(
                        custom_id=component["custom_id"],
                        type=int(component.get("type", 4)),
                        label=label or component.get("label"),
                        style=component.get("style"),
                        required=bool(component.get("required", True)),
                        min_length=component.get("min_length"),
                        max_length=component.get("max_length"),
                        value=component.get("value"),
                        options=list(component.get("options") or []),
                        id=component.get("id"),
                    )
                )
        return fields

    def field(self, custom_id: str) -> ModalField:
        for item in self.fields:
            if item.custom_id == custom_id:
                return item
        raise LookupError(
            f"modal {self.custom_id!r} has no field {custom_id!r}; "
            f"fields: {[f.custom_id for f in self.fields]}"
        )

    def text(self) -> str:
        parts = [self.title]
        for top in self.components:
            for component in walk_components([top]):
                for key in ("label", "placeholder", "value", "content", "description"):
                    value = component.get(key)
                    if isinstance(value, str) and value:
                        parts.append(value)
        return "\n".join(parts)


class InteractionRecord:
    """One interaction the emulator sent on behalf of a user, and everything the bot did with it."""

    def __init__(
        self,
        *,
        id: int,
        token: str,
        type: int,
        user: User,
        channel: Channel,
        guild: Guild | None,
        payload: JSON,
        wait_until: WaitUntil,
        command: str | None = None,
        custom_id: str | None = None,
        source_message: Message | None = None,
    ) -> None:
        self.id = id
        self.token = token
        self.type = type
        self.user = user
        self.channel = channel
        self.guild = guild
        self.payload = payload
        self.command = command
        self.custom_id = custom_id
        self.source_message = source_message
        self.sent_at: float | None = None
        self.sent_wall: float | None = None
        self.responded_at: float | None = None
        self.response_type: int | None = None
        self.response_data: JSON | None = None
        self.original: Message | None = None
        self.followups: list[Message] = []
        self.modal: ModalPrompt | None = None
        self.choices: list[JSON] | None = None
        self.rejections: list[str] = []
        self._wait_until = wait_until

    # --- timing -------------------------------------------------------------------------------

    @property
    def age(self) -> float:
        return 0.0 if self.sent_at is None else time.perf_counter() - self.sent_at

    @property
    def latency(self) -> float | None:
        """Seconds from sending INTERACTION_CREATE to the callback POST arriving."""
        if self.sent_at is None or self.responded_at is None:
            return None
        return self.responded_at - self.sent_at

    @property
    def responded(self) -> bool:
        return self.response_type is not None

    # --- waiting ------------------------------------------------------------------------------

    async def response(self, timeout: float = 3.0) -> InteractionResponse:  # noqa: ASYNC109
        """Wait for the bot's interaction callback (Discord allows 3 s)."""
        try:
            await self._wait_until(
                lambda: self.responded or self.rejections, timeout, f"a response to {self}"
            )
        except TimeoutError:
            raise InteractionTimeout(
                f"no response to {self} within {timeout:.1f} s (Discord shows 'The application did not "
                f"respond' after 3 s)"
            ) from None
        if not self.responded:
            raise InteractionFailed(f"{self}: Discord rejected the response: {'; '.join(self.rejections)}")
        return InteractionResponse(self)

    async def followup(self, index: int = 0, timeout: float = 3.0) -> Message:  # noqa: ASYNC109
        """Wait for the (index+1)-th followup message."""
        await self.response(timeout)
        await self._wait_until(
            lambda: len(self.followups) > index, timeout, f"followup #{index + 1} of {self}"
        )
        return self.followups[index]

    async def settled(self, timeout: float = 5.0) -> Message | None:  # noqa: ASYNC109
        """Wait for the visible result: after a deferral, the first edit or followup."""
        response = await self.response(timeout)
        if response.type == DEFERRED_CHANNEL_MESSAGE:
            await self._wait_until(
                lambda: (self.original is not None and not self.original.loading) or self.followups,
                timeout,
                f"the deferred response of {self} to be filled in",
            )
        elif response.type == DEFERRED_UPDATE_MESSAGE:
            target = self.original
            start = len(target.history) if target is not None else 0
            await self._wait_until(
                lambda: (
                    (target is not None and (len(target.history) > start or target.deleted)) or self.followups
                ),
                timeout,
                f"the message of {self} to be updated",
            )
        if self.followups and (self.original is None or self.original.loading):
            return self.followups[-1]
        return self.original

    def __repr__(self) -> str:
        what = (self.command and f"/{self.command}") or self.custom_id or "?"
        kind = {2: "command", 3: "component", 4: "autocomplete", 5: "modal submit"}.get(
            self.type, str(self.type)
        )
        return f"<{kind} {what} by {self.user.name} in {self.channel!r}>"


class InteractionResponse:
    """The bot's answer to one interaction (a live view: later edits show through `message`)."""

    def __init__(self, record: InteractionRecord) -> None:
        assert record.response_type is not None
        self.record = record
        self.type: int = record.response_type
        self.data: JSON = record.response_data or {}

    @property
    def type_name(self) -> str:
        return CALLBACK_NAMES.get(self.type, str(self.type))

    @property
    def message(self) -> Message | None:
        """The message created (4, 5) or updated (6, 7) by this response."""
        return self.record.original

    @property
    def modal(self) -> ModalPrompt | None:
        return self.record.modal

    @property
    def choices(self) -> list[JSON]:
        return list(self.record.choices or [])

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return bool(message is not None and message.ephemeral and self.type in (4, 5))

    @property
    def content(self) -> str:
        return self.message.content if self.message is not None else ""

    @property
    def embeds(self) -> list[JSON]:
        return self.message.embeds if self.message is not None else []

    @property
    def components(self) -> list[JSON]:
        return self.message.components if self.message is not None else []

    @property
    def flags(self) -> int:
        return self.message.flags if self.message is not None else 0

    @property
    def followups(self) -> list[Message]:
        return self.record.followups

    @property
    def latency(self) -> float | None:
        return self.record.latency

    def text(self) -> str:
        if self.modal is not None:
            return self.modal.text()
        if self.type == AUTOCOMPLETE_RESULT:
            return "\n".join(str(c.get("name")) for c in self.choices)
        return self.message.text() if self.message is not None else ""

    def __repr__(self) -> str:
        return f"<InteractionResponse {self.type_name} {self.message!r}>"
