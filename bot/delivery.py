"""Delivers the outbox to Discord: every message once, and each game's messages in order.

Messages are stored in the outbox in the same transaction as the state that caused them; one
worker then delivers them in three plain steps, so a later version can claim rows across processes:
pick the due rows (`_due_messages`), send one (`Delivery._deliver_row`), record that one
(`_record`) before sending the next.

- Once. A row is recorded as soon as it is sent (with the id of a keyed message it posted, in the
  same transaction). A crash between the send and the record leaves the row undelivered, so it is
  sent again; but every post carries a nonce made from the row (`nonce_of`), and Discord (asked to
  enforce it, as discord.py always does) answers a repeat from the same bot within a few minutes
  with the message it already made instead of a second one. So the resend is harmless, and a keyed
  post's resend gives back the same message id to remember.
- In order. A session's rows go strictly one after another, oldest first: a row that failed and is
  backing off holds back every later row of its session, while other sessions (and messages of no
  session) carry on. A row given up on (a refusal, or MAX_ATTEMPTS failures) holds nothing back.
- Never lost. A 5xx or 429 is retried with a growing pause; the worker runs after each commit, on a
  timer, and at start-up, so rows left by a crash or an outage go out as soon as the bot is back.

A secret prompt whose DM is refused (code 50007) is never posted anywhere else: the channel gets a
button that shows the player the prompt ephemerally instead. A channel post that is refused goes
to the message's fallback channel with its failure note, and failing that, by DM to its
`failure_user_id`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord
from sqlalchemy import exists, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, aliased

from bot.db.models import BotMeta, GameSession, OutboxMessage, SessionMessage, utcnow
from bot.db.store import Store
from bot.games import SessionInfo
from bot.messages import GameThread, Outgoing
from bot.render import prompt_fallback, to_discord
from bot.worker import Worker

log = logging.getLogger(__name__)

DM_CLOSED = 50007
MAX_ATTEMPTS = 8
BATCH = 50
NONCE_MAX = 25  # Discord's limit
THREAD_EXISTS = 160004


def outbox_rows(
    info: SessionInfo | None, outgoing: list[Outgoing], *, session_id: str | None = None
) -> list[dict[str, Any]]:
    """Outbox rows for these messages. A session's own messages take `info`; `session_id` alone
    files messages of no session (a result's announcement) behind that session's, in order."""
    rows = []
    for message in outgoing:
        if message.to == "channel" and message.channel_id is None and info is None:
            raise ValueError("a message of no session says which channel it goes to")
        rows.append(
            {
                "session_id": info.id if info else session_id,
                "payload": message.model_dump_json(exclude_defaults=True),
            }
        )
    return rows


async def enqueue(
    db: AsyncSession, info: SessionInfo | None, outgoing: list[Outgoing], *, session_id: str | None = None
) -> None:
    """Add messages to the outbox inside the caller's transaction (one multi-row INSERT)."""
    rows = outbox_rows(info, outgoing, session_id=session_id)
    if rows:
        await db.execute(insert(OutboxMessage), rows)


def nonce_of(row_id: int, created_at: datetime) -> str:
    """The row's nonce: its id, then its creation time so a fresh database's row 1 gets another.

    Cut to Discord's 25 characters; a 64-bit id and the "." after it always fit, so two rows never
    share one."""
    return f"o{row_id}.{int(created_at.timestamp() * 1000):x}"[:NONCE_MAX]


def _due_messages(db: Session) -> list[OutboxMessage]:
    """The oldest undelivered rows that may be sent now: due, and not behind a row of their own
    session that is waiting to be tried again."""
    now = utcnow()
    earlier = aliased(OutboxMessage)
    held_back = exists().where(
        earlier.session_id == OutboxMessage.session_id,
        earlier.delivered_at.is_(None),
        earlier.id < OutboxMessage.id,
        earlier.next_attempt_at > now,
    )
    return list(
        db.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.delivered_at.is_(None))
            .where(or_(OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= now))
            .where(~held_back)
            .order_by(OutboxMessage.id)
            .limit(BATCH)
        )
    )


@dataclass(frozen=True)
class Sent:
    """What a send leaves to record: a keyed message's id, and the thread a start card opened."""

    remember: SessionMessage | None = None
    thread_id: int | None = None


@dataclass(frozen=True)
class Outcome:
    """What became of one row: its new bookkeeping, and what its send left to record."""

    row_id: int
    values: dict[str, Any]
    remember: SessionMessage | None = None
    session_id: str | None = None
    thread_id: int | None = None

    @property
    def done(self) -> bool:
        return self.values["delivered_at"] is not None


def _record(outcome: Outcome, db: Session) -> None:
    if outcome.remember is not None:
        db.merge(outcome.remember)
    if outcome.thread_id is not None and outcome.session_id is not None:
        db.execute(
            update(GameSession)
            .where(GameSession.id == outcome.session_id)
            .values(thread_id=outcome.thread_id)
        )
    db.execute(update(OutboxMessage).where(OutboxMessage.id == outcome.row_id).values(**outcome.values))


class Delivery:
    def __init__(self, store: Store, client: discord.Client, sweep_seconds: float = 30.0) -> None:
        self.store = store
        self.client = client
        self._worker = Worker("outbox-delivery", self._drain_all, sweep_seconds)
        self.kick = self._worker.kick
        self.idle = self._worker.idle
        self.stop = self._worker.stop

    def start(self) -> None:
        """Start the worker and deliver at once what an earlier run left (a crash, an outage)."""
        self._worker.start()
        self._worker.kick()

    async def _drain_all(self) -> None:
        # Ends: a row that fails is backing off and held back (with its session) by the next pick.
        while await self.drain():
            pass

    async def drain(self) -> int:
        """Try every due message once, oldest first, each session's in order; returns how many."""
        rows = await self.store.run(_due_messages)
        held: set[str] = set()
        tried = 0
        for row in rows:
            if row.session_id is not None and row.session_id in held:
                continue  # an earlier message of this game failed: it goes first
            outcome = await self._deliver_row(row)
            await self.store.run_write(partial(_record, outcome))
            tried += 1
            if not outcome.done and row.session_id is not None:
                held.add(row.session_id)
        return tried

    async def _deliver_row(self, row: OutboxMessage) -> Outcome:
        """Send one message; returns what to record for it."""
        message = Outgoing.model_validate_json(row.payload)
        error: str | None = None
        done = True
        sent = Sent()
        try:
            sent = await self._send(row.session_id, message, nonce_of(row.id, row.created_at))
        except discord.HTTPException as exc:
            error = f"{exc.status} {exc.code}: {exc.text}"[:500]
            transient = exc.status >= 500 or exc.status == 429
            done = not transient or row.attempts + 1 >= MAX_ATTEMPTS
            log.warning("delivery of outbox %s failed (%s)%s", row.id, error, "" if done else "; will retry")
        except Exception as exc:  # a bug in rendering: don't retry forever
            error = repr(exc)[:500]
            log.exception("delivery of outbox %s failed", row.id)
        now = utcnow()
        values = {
            "attempts": row.attempts + 1,
            "last_error": error,
            "delivered_at": now if done else None,
            "next_attempt_at": None if done else now + timedelta(seconds=2 ** min(row.attempts + 1, 8)),
        }
        return Outcome(row.id, values, sent.remember, row.session_id, sent.thread_id)

    async def _table(self, session_id: str | None, message: Outgoing) -> int | None:
        """Where a message goes: its own channel, else its session's thread, else the session's channel.

        Read from the store for every row: the thread is recorded by the row that opened it, which
        a session's later rows always follow."""
        if message.channel_id is not None or session_id is None:
            return message.channel_id
        row = await self.store.run(lambda db: db.get(GameSession, session_id))
        if row is None:
            return None
        return row.thread_id or row.channel_id

    async def _send(self, session_id: str | None, message: Outgoing, nonce: str) -> Sent:
        """Send to a DM or a channel (with the fallbacks); returns what to record."""
        kwargs = to_discord(session_id, message)
        if message.to == "dm":
            assert message.user_id is not None
            try:
                return Sent(await self._send_dm(session_id, message, kwargs, nonce))
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                # Only a secret prompt whose DM is refused needs the table: its button goes there.
                table = await self._table(session_id, message) if message.secret else None
                if not message.edit_only and session_id is not None and table is not None:
                    channel = self.client.get_partial_messageable(table)
                    await channel.send(**prompt_fallback(session_id, message.user_id), nonce=nonce)
                else:
                    log.info("DMs closed for user %s; message dropped", message.user_id)
            return Sent()
        table = await self._table(session_id, message)
        if table is None:
            log.warning("a message of session %s has nowhere to go; dropped", session_id)
            return Sent()
        try:
            remember = await self._post(session_id, message, table, kwargs, nonce)
            thread_id = None
            if message.thread is not None and remember is not None and session_id is not None:
                thread_id = await self._open_thread(session_id, message, table, remember.message_id)
            return Sent(remember, thread_id)
        except (discord.Forbidden, discord.NotFound):
            if message.fallback_channel_id is None and message.failure_user_id is None:
                raise
            note = [message.failure_note] if message.failure_note else []
            fallback = message.model_copy(
                update={"content": "\n\n".join([message.content, *note]).strip(), "key": None}
            )
            kwargs = to_discord(session_id, fallback)
            if message.fallback_channel_id is not None:
                try:
                    fell_back = await self._post(
                        session_id, fallback, message.fallback_channel_id, kwargs, nonce
                    )
                    return Sent(fell_back)
                except (discord.Forbidden, discord.NotFound):
                    if message.failure_user_id is None:
                        raise
            assert message.failure_user_id is not None
            log.warning("no channel took outbox message; sent to user %s instead", message.failure_user_id)
            dm = await self.client.create_dm(discord.Object(message.failure_user_id))
            await dm.send(**kwargs, nonce=nonce)
            return Sent()

    async def _send_dm(
        self, session_id: str | None, message: Outgoing, kwargs: dict[str, Any], nonce: str
    ) -> SessionMessage | None:
        """A DM; a keyed one (a player's prompt) is edited in place once sent, and remembered."""
        assert message.user_id is not None
        if await self._edited_in_place(session_id, message, kwargs):
            return None
        dm = await self.client.create_dm(discord.Object(message.user_id))
        sent = await dm.send(**kwargs, nonce=nonce)
        if message.key and session_id:
            return SessionMessage(
                session_id=session_id, key=message.key, channel_id=dm.id, message_id=sent.id
            )
        return None

    async def _open_thread(
        self, session_id: str, message: Outgoing, channel_id: int, card_id: int
    ) -> int | None:
        """Open the game's thread from its start card and add the players; None: it stays here.

        A resend after a crash finds the thread already made (160004): a thread started from a
        message has that message's id. When threads can't be made here (permission, channel
        kind), the game runs in the channel and that channel is told once."""
        spec = message.thread
        assert spec is not None
        card = self.client.get_partial_messageable(channel_id).get_partial_message(card_id)
        try:
            made = await self.client.http.start_thread_with_message(
                channel_id, card_id, name=spec.name, auto_archive_duration=10080
            )
            thread_id = int(made["id"])
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:
                thread_id = card_id
            elif exc.status in (400, 403):
                log.info("no thread for session %s (%s %s)", session_id, exc.status, exc.code)
                await self._tell_no_threads(channel_id, spec, card)
                return None
            else:
                raise
        for member in spec.members:
            try:
                await self.client.http.add_user_to_thread(thread_id, member)
            except discord.HTTPException as exc:
                log.info("could not add %s to thread %s (%s)", member, thread_id, exc.code)
        return thread_id

    async def _tell_no_threads(self, channel_id: int, spec: GameThread, card: discord.PartialMessage) -> None:
        """Say on the card why the game runs in the channel, once per channel (claimed by its key)."""
        if not spec.failure_note:
            return
        key = f"no-threads:{channel_id}"
        try:
            claimed = await self.store.run_write(partial(_claim, key))
        except IntegrityError:
            claimed = False
        if not claimed:
            return
        try:
            await card.reply(spec.failure_note, mention_author=False)
        except discord.HTTPException:
            if spec.organiser_id is not None:
                dm = await self.client.create_dm(discord.Object(spec.organiser_id))
                await dm.send(spec.failure_note)

    async def _post(
        self, session_id: str | None, message: Outgoing, channel_id: int, kwargs: dict[str, Any], nonce: str
    ) -> SessionMessage | None:
        """Post (or, for a keyed message seen before, edit); a keyed post's id is returned to record."""
        if await self._edited_in_place(session_id, message, kwargs):
            return None
        sent = await self.client.get_partial_messageable(channel_id).send(**kwargs, nonce=nonce)
        if message.key and session_id:
            return SessionMessage(
                session_id=session_id, key=message.key, channel_id=channel_id, message_id=sent.id
            )
        return None

    async def _edited_in_place(
        self, session_id: str | None, message: Outgoing, kwargs: dict[str, Any]
    ) -> bool:
        """True when nothing is to be posted: a keyed message seen before was edited where it was
        sent (a channel or a DM), or an edit-only message has nothing to edit. A keyed message
        someone deleted is posted again."""
        if message.key and session_id:
            key = (session_id, message.key)
            known = await self.store.run(lambda db: db.get(SessionMessage, key))
            if known is not None:
                channel = self.client.get_partial_messageable(known.channel_id)
                try:
                    await channel.get_partial_message(known.message_id).edit(**kwargs)
                    return True
                except discord.NotFound:
                    pass  # deleted by someone: post it again
        return message.edit_only


def _claim(key: str, db: Session) -> bool:
    """Take a once-only key (True: ours); whoever writes it first has it."""
    if db.get(BotMeta, key) is not None:
        return False
    db.add(BotMeta(key=key, value="told"))
    db.flush()  # another process writing the key first makes this fail: the caller reads it as False
    return True
