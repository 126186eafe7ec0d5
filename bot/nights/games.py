"""A game night's games: each pairing's game opened without an interaction, and what became of them.

Publishing a night opens the game of each pairing whose system Muster runs, inside the transaction
that publishes it, so a night is never published without its games nor its games opened twice. Each
game opens exactly as `/<game> start` opens one (`GameCog.open_between`): a start card in the
night's channel pinging both players once and opening the game's thread, then its board and first
questions, all through the outbox; with the game's defaults (`GameAdapter.quick_start`), since
nobody typed options. The night is recorded on the game and carried onto its result, so
`night_games` can tell the night's summary who played whom and how it went.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

import discord
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import GameResult, GameSession
from bot.db.store import Store
from bot.play.game_cog import GameCog
from bot.play.games import GameAdapter
from bot.scores.cache import ResultCache
from bot.scores.rows import record_of
from rules.dice import Roller
from rules.scores import RatingBook, RatingChange, ResultStatus
from rules.session import Event, GameState

if TYPE_CHECKING:
    from bot.app import MusterBot

GameStatus = Literal["open", "finished", "cancelled"]


class PairingLike(Protocol):
    """What opening a pairing's game reads of it (`rules.night.models.Pairing` has it)."""

    @property
    def system(self) -> str: ...

    @property
    def players(self) -> Sequence[int]: ...


@dataclass(frozen=True)
class NightGame:
    """One game of a night, for its summary: who played whom, and how it went so far."""

    session_id: str
    system: str  # the game system's id ("killteam"), as the registry names it
    players: tuple[int, int]
    status: GameStatus
    table_id: int  # where it is played: its thread, else the night's channel
    winner: int | None = None  # None: not finished, or a draw (`result_id` tells which)
    scores: dict[int, int] = field(default_factory=dict)  # player -> score, once there is a result
    rating_changes: list[RatingChange] = field(default_factory=list)  # in its system, if it counted
    result_id: int | None = None
    result_status: str | None = None  # confirmed, or void once Manage Server voided it
    mission: str | None = None


def game_cog(bot: MusterBot, system: str) -> GameCog[Any] | None:
    """The loaded cog that runs `system` (its pack and its way of opening a game)."""
    for cog in bot.cogs.values():
        if isinstance(cog, GameCog) and cog.system == system:
            return cog
    return None


def _quick_build(
    adapter: GameAdapter[Any], players: Sequence[int], pack: Any, names: Mapping[int, str]
) -> Callable[[str, Roller], tuple[GameState, list[Event]]]:
    return lambda session_id, roller: adapter.quick_start(session_id, players, roller, pack, names)


def _display_names(
    bot: MusterBot, guild_id: int, players: Sequence[int], given: Mapping[int, str]
) -> dict[int, str]:
    """The players' display names that are known: given, else in the bot's member cache."""
    guild = bot.get_guild(guild_id)
    found = {}
    for player in players:
        member = guild.get_member(player) if guild is not None else None
        if name := given.get(player) or (member.display_name if member is not None else None):
            found[player] = name
    return found


async def _opened_before(db: AsyncSession, night_id: str) -> dict[tuple[str, frozenset[int]], str]:
    """The night's games already opened (a publish run again): (system, players) -> session id."""
    rows = await db.execute(
        select(GameSession.id, GameSession.system, GameSession.player_a, GameSession.player_b).where(
            GameSession.night_id == night_id, GameSession.status != "cancelled"
        )
    )
    return {(row.system, frozenset((row.player_a, row.player_b))): row.id for row in rows}


async def open_pairing_games(
    bot: MusterBot,
    db: AsyncSession,
    *,
    guild_id: int,
    channel_id: int,
    night_id: str,
    pairings: Sequence[PairingLike],
    organiser_id: int | None = None,
    names: Mapping[int, str] | None = None,
) -> dict[int, str]:
    """Open, in the caller's transaction `db`, the game of each pairing whose system Muster runs,
    with its start card in `channel_id`; returns pairing index -> session id.

    A pairing of another system (or not of two players) opens nothing. A pairing whose game this
    night already opened (same system, same players, not cancelled) is not opened again: its
    session is returned. `organiser_id` (who may cancel the games; default each game's first
    player) and `names` (display names, for the threads' names) are optional. Delivery starts
    once the caller commits; a rollback leaves nothing behind.
    """
    channel = bot.get_channel(channel_id)
    threads_possible = channel is None or isinstance(channel, discord.TextChannel)
    opened: dict[int, str] = {}
    before = await _opened_before(db, night_id)
    for index, pairing in enumerate(pairings):
        system = bot.games.system_for(pairing.system)
        players = list(dict.fromkeys(pairing.players))
        cog = game_cog(bot, system) if system is not None else None
        if system is None or cog is None or len(players) != 2:
            continue
        key = (system, frozenset(players))
        if key in before:
            opened[index] = before[key]
            continue
        pack = await cog.server_pack(guild_id, channel_id, db) if cog.adapter.pack is not None else None
        first, second = players
        known = _display_names(bot, guild_id, players, names or {})
        result, _card = await cog.open_between(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id if organiser_id is not None else first,
            players=(first, second),
            names=(known[first], known[second]) if len(known) == 2 else None,
            build=_quick_build(cog.adapter, players, pack, known),
            threads_possible=threads_possible,
            ping=True,
            night_id=night_id,
            db=db,
        )
        opened[index] = before[key] = result.info.id
    return opened


async def night_games(store: Store, night_id: str, *, results: ResultCache | None = None) -> list[NightGame]:
    """The night's games in the order they were opened, each with its result if it has one and the
    rating changes that result made in its system (when it counts). `results`: the score service's
    cache, whose rating memo saves a replay (without it the server's results are replayed here)."""
    async with store.read() as db:
        sessions = list(
            await db.scalars(
                select(GameSession)
                .where(GameSession.night_id == night_id)
                .order_by(GameSession.created_at, GameSession.id)
            )
        )
        rows = list(await db.scalars(select(GameResult).where(GameResult.night_id == night_id)))
    by_session = {row.session_id: row for row in rows if row.session_id is not None}
    books: dict[int, RatingBook] = {}
    games = []
    for session in sessions:
        row = by_session.get(session.id)
        game = NightGame(
            session_id=session.id,
            system=session.system,
            players=(session.player_a, session.player_b),
            status=cast(GameStatus, session.status),
            table_id=session.thread_id or session.channel_id,
        )
        if row is not None:
            changes: list[RatingChange] = []
            if row.status == ResultStatus.CONFIRMED.value:
                if row.guild_id not in books:
                    books[row.guild_id] = await _rating_book(store, row.guild_id, results)
                record = record_of(row)
                changes = list(books[row.guild_id].ledger(record.system).change(record.id) or ())
            game = replace(
                game,
                winner=row.winner_id,
                scores={row.player_a: row.score_a, row.player_b: row.score_b},
                rating_changes=changes,
                result_id=row.id,
                result_status=row.status,
                mission=row.mission,
            )
        games.append(game)
    return games


async def _rating_book(store: Store, guild_id: int, results: ResultCache | None) -> RatingBook:
    if results is not None:
        return (await results.book(guild_id))[0]
    return RatingBook().sync(await ResultCache(store).records(guild_id))
