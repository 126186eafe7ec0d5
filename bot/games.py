"""What a game system plugs into the platform: its procedure plus a thin Discord adapter.

Each game cog defines one `GameAdapter` subclass and registers it (`bot.games.register(...)`) when
the cog loads. The platform then loads, steps and saves sessions of that system, routes component
clicks to `action_for`, and delivers what `render` says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.messages import Modal, Outgoing, Reply
from rules.session import Action, Event, GameState, Procedure

S = TypeVar("S", bound=GameState)


@dataclass(frozen=True)
class SessionInfo:
    """The store's facts about a session, beside its pure state."""

    id: str
    guild_id: int
    channel_id: int
    system: str
    organiser_id: int
    players: tuple[int, int]
    status: str
    version: int
    title: str = ""


@dataclass(frozen=True)
class Click:
    """A component interaction, reduced to what a game needs to build an action."""

    user_id: int
    action: str
    arg: str = ""
    values: list[str] = field(default_factory=list)  # select values
    fields: dict[str, str] = field(default_factory=dict)  # modal fields
    nonce: str = ""  # fresh randomness for sealed choices


class GameAdapter(Generic[S]):
    """Override what your game needs; the defaults suit a game with no components."""

    procedure: Procedure[S]
    title: str = "Game"
    start_command: str = "/help"  # how a player starts one, for messages

    def action_for(self, info: SessionInfo, state: S, click: Click) -> Action | None:
        """Turn a click into a rules action (or raise RuleError). None: nothing to do."""
        return None

    def modal_for(self, info: SessionInfo, state: S, click: Click) -> Modal | None:
        """The form a `modal=True` button opens (e.g. a number for a sealed bid)."""
        return None

    def render(self, info: SessionInfo, state: S, events: list[Event]) -> list[Outgoing]:
        """Messages for the channel and DMs, from what just happened."""
        return []

    def reply(self, info: SessionInfo, state: S, events: list[Event], actor: int) -> Reply:
        """The acting player's ephemeral answer."""
        return Reply(content="Done.")

    def private_prompt(self, info: SessionInfo, state: S, user_id: int) -> Reply | None:
        """The player's current secret prompt or hidden hand, shown only to them."""
        return None

    def summary(self, info: SessionInfo, state: S) -> str:
        """One line for /games."""
        return "in progress"


class GameRegistry:
    def __init__(self) -> None:
        self._adapters: dict[str, GameAdapter[Any]] = {}

    def register(self, adapter: GameAdapter[Any]) -> None:
        self._adapters[adapter.procedure.system] = adapter

    def get(self, system: str) -> GameAdapter[Any]:
        try:
            return self._adapters[system]
        except KeyError:
            raise LookupError(f"no game system {system!r} is loaded") from None

    def __contains__(self, system: str) -> bool:
        return system in self._adapters
