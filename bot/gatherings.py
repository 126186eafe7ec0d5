"""What the services of a club's gatherings (game nights, events) do alike.

A gathering is a row keeping its pure state as JSON and a version. Each change reads it fresh and
is one transaction whose UPDATE names the version it read: two changes racing on one version, one
wins and the other is judged again on the winner's state. Its messages go out in its own outbox
lane, so they arrive in order. `GatheringService` reads one, retries a change, kicks the delivery and
the scheduled event's sync once a change is committed, finds the languages of its people and queues
its reminders once; bot/nights/service.py and bot/events/service.py say what a change stores.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import ClassVar, Generic, Protocol, TypeVar

from pydantic import BaseModel

from bot.chat.delivery import Delivery
from bot.chat.messages import Outgoing
from bot.db.models import ClubEvent, Night
from bot.db.store import Store
from bot.lang.languages import Languages, LanguageService, of_people
from bot.scheduling import Gathering, remind_once
from rules.errors import RuleError

GATHERING_ID = re.compile(r"[0-9a-f]{12}")
MAX_CONFLICT_RETRIES = 8


class StoredGathering(Gathering, Protocol):
    """The store's facts about a gathering that the shared service reads: a scheduled event's, and
    the outbox lane its messages go out in."""

    @property
    def lane(self) -> str: ...


RowT = TypeVar("RowT", Night, ClubEvent)
InfoT = TypeVar("InfoT", bound=StoredGathering)
StateT = TypeVar("StateT", bound=BaseModel)
RendererT = TypeVar("RendererT")
T = TypeVar("T")


class Stale(Exception):
    """The gathering's version moved on while a change was judged: its transaction is rolled back."""


def at(epoch: int) -> datetime:
    """A time the rules keep (seconds since the epoch) as the store keeps it."""
    return datetime.fromtimestamp(epoch, UTC)


class GatheringService(ABC, Generic[RowT, InfoT, StateT, RendererT]):
    """A kind of gathering in the store; a subclass names its table, its state and its codes."""

    model: type[RowT]
    state_type: type[StateT]
    noun: ClassVar[str]  # the refusal codes' prefix: "night" gives night.not_found, night.busy...

    def __init__(self, store: Store, delivery: Delivery) -> None:
        self.store = store
        self.delivery = delivery
        self.renderer: RendererT | None = None  # the cog's words, registered when it loads
        self.languages: LanguageService | None = None  # none: English (a service without a bot)
        self.on_change: list[Callable[[], None]] = []  # kicked after each commit (the event sync)

    @abstractmethod
    def info(self, row: RowT) -> InfoT:
        """The store's facts about a gathering, from its row."""

    @abstractmethod
    def people(self, state: StateT) -> list[int]:
        """Whose languages the gathering's messages are spoken in, beside the server's."""

    def of_row(self, row: RowT) -> tuple[InfoT, StateT]:
        """A gathering's facts and state, as its stored row holds them."""
        return self.info(row), self.state_type.model_validate_json(row.state)

    def _render(self) -> RendererT:
        if self.renderer is None:
            raise RuleError(code=f"{self.noun}.unavailable")
        return self.renderer

    def _changed(self) -> None:
        self.delivery.kick()
        for kick in self.on_change:
            kick()

    async def languages_of(self, guild_id: int, state: StateT | None = None) -> Languages:
        """The server's language and those of the gathering's organiser and players."""
        return await of_people(self.languages, guild_id, [] if state is None else self.people(state))

    async def load(self, gathering_id: str, guild_id: int | None = None) -> tuple[InfoT, StateT]:
        """A gathering's facts and state, fresh from the store (refused if it is another server's)."""
        if not GATHERING_ID.fullmatch(gathering_id):  # typed by someone: never a query with it
            raise RuleError(code=f"{self.noun}.not_found")
        async with self.store.read() as db:
            row = await db.get(self.model, gathering_id)
            if row is None or (guild_id is not None and row.guild_id != guild_id):
                raise RuleError(code=f"{self.noun}.not_found")
            return self.of_row(row)

    async def _judged(
        self,
        gathering_id: str,
        guild_id: int | None,
        change: Callable[[InfoT, StateT, Languages], Awaitable[T]],
    ) -> T:
        """`change` made on the freshest state, in its reader's languages; made again on the new
        state while another change got in first (it raised Stale, its transaction rolled back)."""
        for _attempt in range(MAX_CONFLICT_RETRIES):
            info, state = await self.load(gathering_id, guild_id)
            languages = await self.languages_of(info.guild_id, state)
            try:
                return await change(info, state, languages)
            except Stale:
                continue
        raise RuleError(code=f"{self.noun}.busy")

    async def remind(self, info: InfoT, outgoing: list[Outgoing], now: datetime) -> bool:
        """Queue the gathering's reminders once, whichever process gets there first (claimed in the
        reminders' transaction)."""
        if not await remind_once(self.store, self.model, info.id, outgoing, info.lane, now):
            return False
        self.delivery.kick()
        return True
