"""Finding a server's sessions by who plays them and where: the reads behind slash commands that
act on "my game here", kept apart from the service that steps sessions (bot/play/sessions.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select

from bot.db.models import GameSession
from bot.db.store import Store
from bot.play.games import GameRegistry, SessionInfo
from bot.play.jobs import info_of
from rules.errors import RuleError


class SessionFinder:
    """The lookups `SessionService` offers, by its store and its games."""

    store: Store
    games: GameRegistry

    async def open_sessions(
        self,
        guild_id: int,
        user_id: int | None = None,
        channel_id: int | None = None,
        system: str | None = None,
    ) -> list[SessionInfo]:
        query = select(GameSession).where(GameSession.guild_id == guild_id, GameSession.status == "open")
        if user_id is not None:
            query = query.where(or_(GameSession.player_a == user_id, GameSession.player_b == user_id))
        if channel_id is not None:  # where it was started, or its thread
            query = query.where(
                or_(GameSession.channel_id == channel_id, GameSession.thread_id == channel_id)
            )
        if system is not None:
            query = query.where(GameSession.system == system)
        async with self.store.read() as db:
            rows = await db.scalars(query.order_by(GameSession.created_at))
            return [info_of(r) for r in rows]

    async def caller_game(self, guild_id: int, channel_id: int, user_id: int, system: str) -> SessionInfo:
        """The caller's one open game of `system` in this channel, for slash commands that act on it."""
        games = await self.open_sessions(guild_id, user_id=user_id, channel_id=channel_id, system=system)
        adapter = self.games.get(system)
        if not games:
            here = await self.open_sessions(guild_id, channel_id=channel_id, system=system)
            if here:  # a bystander at someone else's table
                first, second = here[0].players
                raise RuleError(code="session.not_player", first=first, second=second)
            raise RuleError(code="session.none_here", game=adapter.title, start=adapter.start_command)
        if len(games) > 1:
            raise RuleError(code="session.several_here", game=adapter.title)
        return games[0]

    async def refuse_second_game(self, guild_id: int, channel_id: int, system: str, a: int, b: int) -> None:
        """One open game of a system between the same two players per channel."""
        for existing in await self.open_sessions(guild_id, a, channel_id, system):
            if set(existing.players) == {a, b}:
                title = self.games.get(system).title
                raise RuleError(code="session.second_game", game=title, opponent=b, session=existing.id)

    async def last_finished_between(
        self, guild_id: int, system: str, a: int, b: int
    ) -> tuple[SessionInfo, Any] | None:
        """The most recent finished game of `system` between two players (e.g. Kill Team's Control)."""
        query = (
            select(GameSession)
            .where(
                GameSession.guild_id == guild_id,
                GameSession.system == system,
                GameSession.status == "finished",
                GameSession.player_a.in_((a, b)),  # a session's two players differ: these two
                GameSession.player_b.in_((a, b)),
            )
            .order_by(GameSession.updated_at.desc())
            .limit(1)
        )
        async with self.store.read() as db:
            row = await db.scalar(query)
            if row is None or row.system not in self.games:
                return None
            return info_of(row), self.games.get(row.system).procedure.load(row.state)
