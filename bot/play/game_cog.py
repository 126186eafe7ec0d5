"""The one base every game cog stands on: find the caller's game, act and answer through one path,
read the server's rules pack with one failure policy, and filter autocomplete choices.

A game cog subclasses `GameCog` with its adapter and its own slash commands; everything a command
shares with every other game's lives here, written once.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession

from bot.chat.answers import Answered, answer_with
from bot.chat.checks import channel_id_of, guild_id_of
from bot.chat.limits import AUTOCOMPLETE_CHOICES, COMMAND_CHOICE_NAME, COMMAND_CHOICE_VALUE, THREAD_NAME
from bot.chat.messages import Embed, GameThread, InteractionAnswer, Outgoing
from bot.chat.outbox import enqueue
from bot.chat.router import send_reply
from bot.db.upsert import claim_meta
from bot.lang.i18n import Domain, speaking
from bot.play.games import GameAdapter, SessionInfo
from bot.play.packs import parse_off_loop
from bot.play.sessions import StepResult, new_session_id
from rules.dice import Roller
from rules.session import Action, Event, GameState
from rules.text import clip

if TYPE_CHECKING:
    from bot.app import MusterBot

log = logging.getLogger("muster.games")

S = TypeVar("S", bound=GameState)
PACK_CACHE = 32  # parsed packs kept per game, keyed by the text's digest
CARD_KEY = "card"
PACK_DIGEST_SHOWN = 16  # of a pack's digest in its one-warning key: enough to tell two texts apart
_ = Domain("muster")
NO_THREADS = _.mark(
    "I couldn't open a thread for this game, so it is played in this channel. To give each game its "
    "own thread, let me **Create Public Threads** and **Send Messages in Threads** here, or turn "
    "threads off with `/settings game-threads`."
)


class GameCog(commands.GroupCog, Generic[S]):
    """Shared plumbing of a game's cog. Subclasses set `adapter` (and `state_type` for autocomplete)."""

    adapter: ClassVar[GameAdapter[Any]]

    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self._packs: OrderedDict[str, Any] = OrderedDict()
        super().__init__()

    @property
    def system(self) -> str:
        return self.adapter.procedure.system

    async def cog_load(self) -> None:
        self.bot.games.register(self.adapter)

    # ------------------------------------------------------------------ the caller's game

    async def my_game(self, interaction: discord.Interaction[MusterBot]) -> SessionInfo:
        """The caller's one open game of this system in this channel (else a polite refusal)."""
        return await self.bot.sessions.caller_game(
            guild_id_of(interaction), channel_id_of(interaction), interaction.user.id, self.system
        )

    async def my_state(self, interaction: discord.Interaction[MusterBot]) -> S | None:
        """For autocomplete: the caller's one game here, or None (autocomplete never errs)."""
        state = await self.bot.sessions.caller_state(
            interaction.guild_id, interaction.channel_id, interaction.user.id, self.system
        )
        return state if isinstance(state, self.adapter.procedure.state_type) else None

    async def act(
        self, interaction: discord.Interaction[MusterBot], make: Callable[[S], Action] | Action
    ) -> StepResult:
        """Step the caller's game with the action a slash command makes, and answer them with the
        game's own reply (the answer goes out before what the step caused is rendered and posted
        for everyone)."""
        info = await self.my_game(interaction)
        user = interaction.user.id
        result = await self.bot.sessions.act(
            info.id,
            user,
            lambda _info, state: make if isinstance(make, Action) else make(state),
            deliver=False,
        )
        assert result is not None
        try:
            reply = self.adapter.reply(result.info, result.state, result.events, user)
            await send_reply(interaction, info.id, reply)
        finally:
            await self.bot.sessions.rendered(result)
        return result

    # ------------------------------------------------------------------ starting a game

    async def open_game(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.abc.User,
        build: Callable[[str, Roller], tuple[GameState, list[Event]]],
        *,
        title: str | None = None,
    ) -> StepResult:
        """Open a game of this system between the caller and `opponent`, answering with its start
        card: the card is the command's answer, where a short answer and a post were two calls
        (bot/chat/answers.py makes it safe: stored first, it is never shown twice)."""
        caller = interaction.user
        answers = self.bot.delivery.sender.answers
        answers.expect(interaction.id)
        shown = Answered()
        try:
            result, card = await self.open_between(
                guild_id=guild_id_of(interaction),
                channel_id=channel_id_of(interaction),
                organiser_id=caller.id,
                players=(caller.id, opponent.id),
                names=(caller.display_name, opponent.display_name),
                build=build,
                title=title,
                threads_possible=isinstance(interaction.channel, discord.TextChannel),
                answer=InteractionAnswer(interaction_id=interaction.id, token=interaction.token),
            )
            with speaking(card.language):
                shown = await answer_with(interaction, result.info.id, card)
        finally:
            answers.answered(interaction.id, shown)
        return result

    async def open_between(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        players: tuple[int, int],
        names: tuple[str, str] | None,
        build: Callable[[str, Roller], tuple[GameState, list[Event]]],
        title: str | None = None,
        threads_possible: bool = True,
        ping: bool = False,
        night_id: str | None = None,
        db: AsyncSession | None = None,
        answer: InteractionAnswer | None = None,
    ) -> tuple[StepResult, Outgoing]:
        """Open a game of this system between two players: the one way every game is opened, by a
        start command or by a game night (which passes its transaction `db` and its `night_id`).

        The channel gets one short public card; the game is played in a thread opened from it
        (unless the server turned game threads off, or threads can't be made here: then the game
        runs in the channel, and the organiser is told once what to grant). With `ping` the card
        mentions both players (a game they didn't start themselves), once: the first questions
        then ping nobody again. `names` (display names) name the thread; without them, the night.
        With `answer` the card is that interaction's answer (`open_game`), not a post.
        Returns the opened game and its card."""
        first, second = players
        session_id = new_session_id()
        thread = None
        settings = await self.bot.guild_settings.get(guild_id)
        with speaking(await self.bot.languages.of_server(guild_id)):  # the card is public
            if threads_possible and settings.game_threads is not False:
                label = f"{names[0]} vs {names[1]}" if names else _("game night")
                thread = GameThread(
                    name=clip(f"{self.adapter.title} · {label}", THREAD_NAME),
                    members=[first, second],
                    organiser_id=organiser_id,
                    failure_note=_(NO_THREADS),
                )
            below = "\n" + _("The game is played in the thread below.") if thread else ""
            card = Outgoing(
                channel_id=channel_id,
                key=CARD_KEY,
                content=f"<@{first}> <@{second}>" if ping else "",
                pings=[first, second] if ping else [],
                embeds=[
                    Embed(
                        title=self.adapter.title,
                        description=f"<@{first}> vs <@{second}>" + below,
                        colour=self.adapter.colour,
                        footer=_("Game {id}", id=session_id),  # what `/verify` and `/games` name it
                    )
                ],
                thread=thread,
                answer=answer,
            )
        result = await self.bot.sessions.open(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            system=self.system,
            build=build,
            title=title or f"{self.adapter.title}: <@{first}> vs <@{second}>",
            card=card,
            night_id=night_id,
            db=db,
            session_id=session_id,
        )
        return result, card

    # ------------------------------------------------------------------ the server's rules pack

    async def server_pack(
        self, guild_id: int | None, channel_id: int | None = None, db: AsyncSession | None = None
    ) -> Any:
        """The server's own pack if it loaded one that still reads, else the shipped one.

        A stored pack that no longer reads (a later rules change) must not stop every game: the
        shipped pack is used and the server is told once, in the results channel or where the
        command was used (else its owner by DM); told in the caller's transaction `db` if given.
        """
        spec = self.adapter.pack
        if spec is None:
            raise LookupError(f"{self.system} has no rules pack")
        text = await self.bot.packs.get(guild_id, self.system) if guild_id is not None else None
        if not text:
            return spec.shipped()
        digest = hashlib.sha256(text.encode()).hexdigest()
        if digest in self._packs:
            self._packs.move_to_end(digest)
            return self._packs[digest]
        try:
            pack = await parse_off_loop(spec.parse, text)
        except Exception:
            log.warning(
                "stored %s pack of guild %s no longer reads; using the shipped one", self.system, guild_id
            )
            assert guild_id is not None
            await self._tell_pack_broken(guild_id, channel_id, digest, db)
            pack = spec.shipped()
        self._packs[digest] = pack
        while len(self._packs) > PACK_CACHE:
            self._packs.popitem(last=False)
        return pack

    async def _tell_pack_broken(
        self, guild_id: int, channel_id: int | None, digest: str, db: AsyncSession | None
    ) -> None:
        settings = await self.bot.guild_settings.get(guild_id)
        where = settings.results_channel_id or channel_id
        guild = self.bot.get_guild(guild_id)
        with speaking(await self.bot.languages.of_server(guild_id)):  # said to the server
            text = _(
                "This server's {game} pack can't be read any more, so games use the shipped cards and "
                "missions for now. Someone with Manage Server can load it again with {command}.",
                game=self.adapter.title,
                command=f"`/{self.app_command.name if self.app_command else self.system} pack load`",
            )
        key = f"pack-broken:{guild_id}:{self.system}:{digest[:PACK_DIGEST_SHOWN]}"
        async with contextlib.AsyncExitStack() as own:
            tx = db if db is not None else await own.enter_async_context(self.bot.store.write())
            if (await tx.execute(claim_meta(self.bot.store.dialect, key))).first() is None:
                return  # told already (perhaps by another process at the same moment)
            owner = guild.owner_id if guild is not None else None
            if where is not None:
                await enqueue(tx, None, [Outgoing(channel_id=where, content=text, failure_user_id=owner)])
            elif owner is not None:
                await enqueue(tx, None, [Outgoing(to="dm", user_id=owner, content=text)])
            event.listen(tx.sync_session, "after_commit", lambda _db: self.bot.delivery.kick(), once=True)

    # ------------------------------------------------------------------ autocomplete

    @staticmethod
    def choices(named: Iterable[tuple[str, str]], typed: str) -> list[app_commands.Choice[str]]:
        """Autocomplete choices: (label, value) pairs whose label contains what was typed."""
        needle = typed.casefold()
        return [
            app_commands.Choice(name=clip(label, COMMAND_CHOICE_NAME), value=value[:COMMAND_CHOICE_VALUE])
            for label, value in named
            if needle in label.casefold()
        ][:AUTOCOMPLETE_CHOICES]
