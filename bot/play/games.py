"""What a game system plugs into the platform: its procedure, its metadata, a thin Discord adapter.

Each game cog (a `bot.play.game_cog.GameCog`) names one `GameAdapter` subclass, which the cog registers
when it loads. That adapter is the game's one declaration: system id, title, aliases for typed
system names, its /help line, how its rules pack is read. The cog list, /help, /games and the
scores' system names are all derived from the registry, so adding a game touches only its own
`rules/<game>/` and `cogs/<game>/`. The platform loads, steps and saves sessions of that system,
routes question clicks through the procedure's `ask`/`to_action`, and delivers what `render` says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.chat.limits import CONTENT
from bot.chat.messages import Embed, Outgoing, Reply
from bot.lang.i18n import Domain, say
from bot.lang.languages import ENGLISH, Languages
from bot.play import table
from rules.dice import Roller
from rules.session import Event, GameState, Procedure, Question
from rules.text import clip

S = TypeVar("S", bound=GameState)
P = TypeVar("P")
_ = Domain("muster")
SUMMARY = 200
"""A game's one-line `summary`, at most: a line, not a board (the project's length, not Discord's)."""


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
    thread_id: int | None = None  # the thread the game runs in, once its start card opened one
    night_id: str | None = None  # the game night whose pairing opened it

    @property
    def table_id(self) -> int:
        """Where the game is played: its thread, else the channel it was started in."""
        return self.thread_id or self.channel_id


class GameAdapter(Generic[S]):
    """Override what your game needs; the defaults suit a game with no components.

    The platform renders every step the same way (bot/play/table.py): one board edited in place, a
    message per question the game waits on, DM prompts for private questions. A game says what its
    board shows (`board`) and how its events read (`lines`, `private_lines`, `moments`).
    """

    procedure: Procedure[S]
    title: str = "Game"
    start_command: str = "/help"  # how a player starts one, for messages
    aliases: tuple[str, ...] = ()  # other names players type for this system (scores), as slugs
    help: str = ""  # its line in /help
    domain: str = "muster"  # the catalogue domain of its words (bot/lang/i18n.py)
    pack: PackSpec[Any] | None = None
    colour: int = 0x5865F2
    answers_only_choices: bool = True  # answer a question with one legal answer for the player

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: Any,
        names: Mapping[int, str] | None = None,
    ) -> tuple[S, list[Event]]:
        """The game opened with no options typed (a game night's pairing): the defaults a club
        would use, built the way the start command builds it. `pack` is the server's rules pack
        (None for a game without one); `names` the players' display names where known (for a game
        that shows them where mentions can't go)."""
        raise NotImplementedError(f"{self.title} has no quick start")

    def render_step(
        self,
        info: SessionInfo,
        before: S | None,
        after: S,
        events: list[Event],
        auto: list[table.AutoAnswer] | None = None,
        languages: Languages = ENGLISH,
    ) -> list[Outgoing]:
        """Messages for the table and DMs after a step from `before` (None: the start) to `after`,
        the table's in its language and each player's in theirs."""
        return table.table_messages(self, info, before, after, events, auto, languages)

    def help_line(self) -> str:
        """Its /help line in the language in force (`help = _.mark(...)` in the game's `domain`)."""
        return Domain(self.domain)(self.help)

    def typed(self, state: S, asked: Question, fields: dict[str, str]) -> dict[str, str]:
        """A form's typed values as the rules read them (a word typed in the player's language
        back to the rules' English), in the language in force. By default: as typed."""
        return fields

    def board(self, info: SessionInfo, state: S) -> Embed:
        """The living board: the game's state at a glance (the platform adds what just happened
        and who is awaited)."""
        first, second = state.players
        return Embed(title=f"{self.title}: <@{first}> vs <@{second}>", colour=self.colour)

    def lines(self, info: SessionInfo, state: S, events: list[Event]) -> list[str]:
        """What just happened, in public words, one line per event worth saying."""
        return []

    def moments(self, info: SessionInfo, state: S, events: list[Event]) -> list[Outgoing]:
        """Posts of their own in the game's thread for what must stay readable there (a reveal)."""
        return []

    def dm_header(self, info: SessionInfo, state: S, player: int) -> Outgoing | None:
        """What heads a player's one living DM from the deal to the end (their hidden hand: its key,
        content and embeds), or None. With a header, all the player's private questions ride on
        that one message under it, so a step edits at most one message in their DMs."""
        return None

    def private_lines(self, info: SessionInfo, state: S, player: int, events: list[Event]) -> list[str]:
        """What just happened that only `player` may read (their DMs)."""
        return []

    def tells_privately(self, info: SessionInfo, state: S, events: list[Event], actor: int) -> bool:
        """Whether the acting player's answer to this step says what the table must not read: then a
        click on a message everyone sees is answered apart, not by redrawing it (bot/play/in_place.py).
        By default any event for the actor alone counts; a game whose private events say nothing in
        the answer (a "your prompt waits" notice) can be exact."""
        return any(e.private_to == actor for e in events)

    def question_text(self, state: S, asked: Question) -> str:
        """A question's words on its message."""
        return f"**{say(asked.title)}**\n{say(asked.text)}".strip()

    def answered_privately(
        self, info: SessionInfo, state: S, player: int, asked: Question, events: list[Event]
    ) -> str | None:
        """What a private prompt says once answered (None: "Answered."). The step's private lines
        are not repeated there: they follow in a message of their own."""
        return table.sealed_line(events, player)

    def reply(self, info: SessionInfo, state: S, events: list[Event], actor: int) -> Reply:
        """The acting player's ephemeral answer: what their action did."""
        said = self.private_lines(info, state, actor, events) + self.lines(info, state, events)
        return Reply(content=clip("\n".join(said), CONTENT) or _("Done."))

    def private_prompt(self, info: SessionInfo, state: S, user_id: int) -> Reply | None:
        """The player's current secret prompt or hidden hand, shown only to them."""
        return None

    def summary(self, info: SessionInfo, state: S) -> str:
        """One line for /games."""
        return _("in progress")

    def outcome_summary(self, state: S) -> str:
        """A finished game's summary for its result announcement, in the language in force (the
        store keeps the rules' English, which is what this says unless a game words it itself)."""
        return state.outcome.summary if state.outcome is not None else ""


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
