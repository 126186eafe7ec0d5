"""What a game system plugs into the platform: its procedure, its metadata, a thin Discord adapter.

Each game cog (a `bot.game_cog.GameCog`) names one `GameAdapter` subclass, which the cog registers
when it loads. That adapter is the game's one declaration: system id, title, aliases for typed
system names, its /help line, how its rules pack is read. The cog list, /help, /games and the
scores' system names are all derived from the registry, so adding a game touches only its own
`rules/<game>/` and `cogs/<game>.py`. The platform loads, steps and saves sessions of that system,
routes question clicks through the procedure's `ask`/`to_action`, and delivers what `render` says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.messages import Outgoing, Reply
from rules.session import Event, GameState, Procedure

S = TypeVar("S", bound=GameState)
P = TypeVar("P")


@dataclass(frozen=True)
class PackSpec(Generic[P]):
    """How a game reads a server's own rules pack, and the pack it ships with."""

    parse: Callable[[str], P]  # raises rules.packs.PackError with every problem listed
    shipped: Callable[[], P]


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


class GameAdapter(Generic[S]):
    """Override what your game needs; the defaults suit a game with no components."""

    procedure: Procedure[S]
    title: str = "Game"
    start_command: str = "/help"  # how a player starts one, for messages
    aliases: tuple[str, ...] = ()  # other names players type for this system (scores), as slugs
    help: str = ""  # its line in /help
    pack: PackSpec[Any] | None = None

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
        if self is not DECLARED:
            DECLARED.register(adapter)

    def get(self, system: str) -> GameAdapter[Any]:
        try:
            return self._adapters[system]
        except KeyError:
            raise LookupError(f"no game system {system!r} is loaded") from None

    def __contains__(self, system: str) -> bool:
        return system in self._adapters

    def __iter__(self) -> Iterator[GameAdapter[Any]]:
        """The registered games, by title."""
        return iter(sorted(self._adapters.values(), key=lambda adapter: adapter.title))

    def title(self, system: str) -> str | None:
        adapter = self._adapters.get(system)
        return adapter.title if adapter else None

    def system_for(self, slug: str) -> str | None:
        """The system a typed name (already a slug: `kill-team`, `40k`) stands for, if it is a game here."""
        for adapter in self._adapters.values():
            if slug == adapter.procedure.system or slug in adapter.aliases:
                return adapter.procedure.system
        return None


# Every game declared in this process (each bot's registry adds to it): titles and aliases are facts
# of the code, the same in every process, so the scores' system names can read them without a bot.
DECLARED = GameRegistry()
