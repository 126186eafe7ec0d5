"""Reminders for quiet games: one more ping for each player a game waits on, once per quiet spell.

Each process sweeps only the games of the servers on its own shards, and a reminder is claimed in
its own transaction (the session is marked reminded only if it is still unreminded at the version
read), so a quiet spell is reminded once whichever process gets there first.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import BigInteger, literal_column, select, update

from bot.chat.messages import Outgoing
from bot.chat.outbox import enqueue
from bot.db.models import GameSession, utcnow
from bot.lang.i18n import Domain, say, speaking
from bot.play.games import SessionInfo
from bot.play.jobs import info_of
from bot.play.table import waited_for
from rules.text import clip

if TYPE_CHECKING:
    from bot.app import MusterBot

log = logging.getLogger(__name__)
_ = Domain("muster")

TITLES_SHOWN = 300  # of the waiting questions' titles in a reminder: a sentence, not a list
MIN_REMINDER_MINUTES = 5.0  # the shortest delay /settings reminders accepts


class QuietGameReminders:
    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot

    async def remind_waiting_players(self) -> int:
        """DM each player a quiet game waits on, once per quiet spell; the game stays open.

        The quiet spell is the server's `/settings reminders` (or REMINDER_MINUTES by default)."""
        bot, now = self.bot, utcnow()
        shortest = min(bot.settings.reminder_minutes, MIN_REMINDER_MINUTES)
        delays: dict[int, float] = {}
        sent = 0
        for info, state, changed_at in await self.quiet_open(now - timedelta(minutes=shortest)):
            if info.guild_id not in delays:
                chosen = (await bot.guild_settings.get(info.guild_id)).reminder_minutes
                delays[info.guild_id] = chosen if chosen is not None else bot.settings.reminder_minutes
            if now - changed_at < timedelta(minutes=delays[info.guild_id]):
                continue
            adapter = bot.games.get(info.system)
            waiting: dict[int, list[Any]] = {}
            for player, asked in waited_for(adapter.procedure, state):
                waiting.setdefault(player, []).append(asked)
            if not waiting:
                continue
            link = f"https://discord.com/channels/{info.guild_id}/{info.table_id}"
            languages = await bot.languages.for_session(info)
            reminders = []
            for user, questions in waiting.items():
                with speaking(languages.of(user)):  # a DM: in the player's own language
                    titles = "; ".join(say(asked.title) for asked in questions)
                    text = _(
                        "Reminder: your {game} game is waiting for you: {titles}. {link}",
                        game=adapter.title,
                        titles=clip(titles, TITLES_SHOWN),
                        link=link,
                    )
                    reminders.append(Outgoing(to="dm", user_id=user, content=text))
            if await self.claim(info, reminders, now):
                sent += len(waiting)
        return sent

    async def quiet_open(self, older_than: datetime) -> list[tuple[SessionInfo, Any, datetime]]:
        """This process's open games untouched since `older_than` and not yet reminded."""
        query = select(GameSession).where(
            GameSession.status == "open",
            GameSession.updated_at < older_than,
            GameSession.reminded_at.is_(None),
        )
        shard_ids, shard_count = self.bot.settings.shard_ids(), self.bot.settings.muster_shard_count
        if shard_ids is not None and shard_count is not None:  # Discord's rule: (guild_id >> 22) % count
            shard = GameSession.guild_id.op(">>", return_type=BigInteger)(literal_column("22")) % shard_count
            query = query.where(shard.in_(shard_ids))
        games = self.bot.games
        async with self.bot.store.read() as db:
            rows = await db.scalars(query)
            return [
                (info_of(row), games.get(row.system).procedure.load(row.state), row.updated_at)
                for row in rows
                if row.system in games
            ]

    async def claim(self, info: SessionInfo, outgoing: list[Outgoing], when: datetime) -> bool:
        """Queue a reminder if no process has yet (and the game has not moved on since it was read)."""
        async with self.bot.store.write() as db:
            claimed = await db.execute(
                update(GameSession)
                .where(
                    GameSession.id == info.id,
                    GameSession.version == info.version,
                    GameSession.reminded_at.is_(None),
                )
                .values(reminded_at=when)
            )
            if claimed.rowcount != 1:  # type: ignore[attr-defined]
                return False  # reminded by another process, or the game moved on meanwhile
            await enqueue(db, info, outgoing)
        self.bot.delivery.kick()
        return True

    async def run_forever(self) -> None:
        while True:
            await asyncio.sleep(self.bot.settings.sweep_seconds)
            try:
                await self.remind_waiting_players()
            except Exception:
                log.exception("reminder sweep failed")
