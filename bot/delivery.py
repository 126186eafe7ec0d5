"""Delivers the outbox to Discord, in order, and survives Discord's faults.

A single worker sends queued messages oldest first (so a game's posts arrive in the order they
happened), right after each commit and again on a timer, so anything left by a crash, a 5xx or a
rate limit is sent later. A secret prompt whose DM is refused (code 50007) is never posted
anywhere else: the channel gets a button that shows the player the prompt ephemerally instead.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial
from typing import Any

import discord
from sqlalchemy import insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from bot.db.models import OutboxMessage, SessionMessage, utcnow
from bot.db.store import Store
from bot.games import SessionInfo
from bot.messages import Outgoing
from bot.render import prompt_fallback, to_discord
from bot.worker import Worker

log = logging.getLogger(__name__)

DM_CLOSED = 50007
MAX_ATTEMPTS = 8
BATCH = 50


def outbox_rows(info: SessionInfo | None, outgoing: list[Outgoing]) -> list[dict[str, Any]]:
    rows = []
    for message in outgoing:
        if message.channel_id is None and info is not None:  # a DM keeps it for its fallback
            message = message.model_copy(update={"channel_id": info.channel_id})
        rows.append(
            {
                "session_id": info.id if info else None,
                "payload": message.model_dump_json(exclude_defaults=True),
            }
        )
    return rows


async def enqueue(db: AsyncSession, info: SessionInfo | None, outgoing: list[Outgoing]) -> None:
    """Add messages to the outbox inside the caller's transaction (one multi-row INSERT)."""
    rows = outbox_rows(info, outgoing)
    if rows:
        await db.execute(insert(OutboxMessage), rows)


def _due_messages(db: Session) -> list[OutboxMessage]:
    now = utcnow()
    return list(
        db.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.delivered_at.is_(None))
            .where(or_(OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= now))
            .order_by(OutboxMessage.id)
            .limit(BATCH)
        )
    )


def _record_outcomes(outcomes: list[dict[str, Any]], db: Session) -> None:
    for values in outcomes:
        db.execute(update(OutboxMessage).where(OutboxMessage.id == values.pop("id")).values(**values))


class Delivery:
    def __init__(self, store: Store, client: discord.Client, sweep_seconds: float = 30.0) -> None:
        self.store = store
        self.client = client
        self._worker = Worker("outbox-delivery", self._drain_all, sweep_seconds)
        self.kick = self._worker.kick
        self.idle = self._worker.idle
        self.start = self._worker.start
        self.stop = self._worker.stop

    async def _drain_all(self) -> None:
        while await self.drain():
            pass

    async def drain(self) -> int:
        """Try every due message once, oldest first; returns how many were tried."""
        rows = await self.store.run(_due_messages)
        outcomes = [await self._deliver_row(row) for row in rows]
        if outcomes:
            await self.store.run_write(partial(_record_outcomes, outcomes))
        return len(rows)

    async def _deliver_row(self, row: OutboxMessage) -> dict[str, Any]:
        """Send one message; returns the row's new bookkeeping (written with the batch)."""
        message = Outgoing.model_validate_json(row.payload)
        error: str | None = None
        done = True
        try:
            await self._send(row.session_id, message)
        except discord.HTTPException as exc:
            error = f"{exc.status} {exc.code}: {exc.text}"[:500]
            transient = exc.status >= 500 or exc.status == 429
            done = not transient or row.attempts + 1 >= MAX_ATTEMPTS
            log.warning("delivery of outbox %s failed (%s)%s", row.id, error, "" if done else "; will retry")
        except Exception as exc:  # a bug in rendering: don't retry forever
            error = repr(exc)[:500]
            log.exception("delivery of outbox %s failed", row.id)
        now = utcnow()
        return {
            "id": row.id,
            "attempts": row.attempts + 1,
            "last_error": error,
            "delivered_at": now if done else None,
            "next_attempt_at": None if done else now + timedelta(seconds=2 ** min(row.attempts + 1, 8)),
        }

    async def _send(self, session_id: str | None, message: Outgoing) -> None:
        kwargs = to_discord(session_id, message)
        if message.to == "dm":
            assert message.user_id is not None
            try:
                dm = await self.client.create_dm(discord.Object(message.user_id))
                await dm.send(**kwargs)
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                if message.secret and session_id is not None and message.channel_id is not None:
                    await self._send_to_channel(
                        message.channel_id, prompt_fallback(session_id, message.user_id)
                    )
                else:
                    log.info("DMs closed for user %s; message dropped", message.user_id)
            return
        assert message.channel_id is not None
        try:
            await self._post(session_id, message, message.channel_id, kwargs)
        except (discord.Forbidden, discord.NotFound):
            if message.fallback_channel_id is None:
                raise
            note = f"\n\n{message.failure_note}" if message.failure_note else ""
            fallback = message.model_copy(update={"content": message.content + note, "key": None})
            await self._post(
                session_id, fallback, message.fallback_channel_id, to_discord(session_id, fallback)
            )

    async def _send_to_channel(self, channel_id: int, kwargs: dict[str, Any]) -> None:
        await self.client.get_partial_messageable(channel_id).send(**kwargs)

    async def _post(
        self, session_id: str | None, message: Outgoing, channel_id: int, kwargs: dict[str, Any]
    ) -> None:
        channel = self.client.get_partial_messageable(channel_id)
        if message.key and session_id:
            known = await self.store.run(lambda db: db.get(SessionMessage, (session_id, message.key)))
            if known is not None:
                try:
                    await channel.get_partial_message(known.message_id).edit(**kwargs)
                    return
                except discord.NotFound:
                    pass  # deleted by someone: post it again
            sent = await channel.send(**kwargs)
            remembered = SessionMessage(
                session_id=session_id, key=message.key, channel_id=channel_id, message_id=sent.id
            )
            await self.store.run_write(lambda db: db.merge(remembered))
            return
        await channel.send(**kwargs)
