"""Delivers the outbox to Discord: every message once, and each game's messages in order, from
any number of processes sharing one database.

Messages are stored in the outbox in the same transaction as the state that caused them. A
session's messages form a lane (a message of no session is a lane of its own); a process sends a
lane's rows only while it holds the lane's lease (`outbox_lanes`, taken in one upsert that only
succeeds on a free or expired lease), so two processes never send the same row:

- Once. A row is recorded as soon as it is sent (with the id of a keyed message it posted, in the
  same transaction), and the lease renewed with it. A crash between the send and the record leaves
  the row undelivered, so it is sent again, by this process or, once the lease runs out, another;
  but every post carries a nonce made from the row (`nonce_of`), and Discord (asked to enforce it,
  as discord.py always does) answers a repeat from the same bot within a few minutes with the
  message it already made instead of a second one; an edit is keyed by message id. So the resend
  is harmless, and a keyed post's resend gives back the same message id to remember.
- In order. A lane's rows go strictly one after another, oldest first, read afresh once the lane
  is held: a row that failed and is backing off holds back every later row of its session, while
  other sessions (and messages of no session) carry on. A row given up on (a refusal, or
  MAX_ATTEMPTS failures) holds nothing back.
- Never lost. A 5xx or 429 is retried with a growing pause; the worker runs after each commit, on a
  timer, at start-up and when another process stops (PostgreSQL's NOTIFY, `bot/db/wakeups.py`), so
  rows left by a crash or an outage go out as soon as the bot (or another process, after the
  lease) is back. A process
  that finds a lane held elsewhere leaves it: the holder reads its lane again before letting go.

A secret prompt whose DM is refused (code 50007) is never posted anywhere else: the channel gets a
button that shows the player the prompt ephemerally instead. A channel post that is refused goes
to the message's fallback channel with its failure note, and failing that, by DM to its
`failure_user_id`.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from datetime import timedelta
from functools import partial
from typing import Any

import discord

from bot.db.models import GameSession, OutboxMessage, SessionMessage, utcnow
from bot.db.store import Store
from bot.db.wakeups import Wakeups
from bot.i18n import speaking
from bot.messages import GameThread, Outgoing
from bot.outbox import (
    Outcome,
    Sent,
    claim_once,
    due_messages,
    free_lane,
    lane_of,
    lease_lane,
    nonce_of,
    record,
)
from bot.render import prompt_fallback, to_discord
from bot.worker import Worker

log = logging.getLogger(__name__)

DM_CLOSED = 50007
MAX_ATTEMPTS = 8
THREAD_EXISTS = 160004
LANES_AT_ONCE = 8
"""Lanes one process sends side by side: games don't wait on each other's round trips."""
LEASE_SECONDS = 30.0
"""How long a lane stays with a process that stopped answering (it renews with every row sent)."""


def owner_name(shards: str | None) -> str:
    """This process as a lane's owner: its host and its shards. Processes that share a database
    run different shards, and a process restarted with the same shards takes its lanes back at
    once instead of waiting for their leases to run out."""
    return f"{socket.gethostname()[:40]}:shards {shards or 'all'}"[:64]


class Delivery:
    def __init__(
        self,
        store: Store,
        client: discord.Client,
        sweep_seconds: float = 30.0,
        lease_seconds: float = LEASE_SECONDS,
        owner: str | None = None,
    ) -> None:
        self.store = store
        self.client = client
        self.owner = owner or owner_name(None)
        self.lease = timedelta(seconds=lease_seconds)
        self._worker = Worker("outbox-delivery", self._drain_all, sweep_seconds)
        self.kick = self._worker.kick
        self.idle = self._worker.idle
        self.wakeups = Wakeups(store.engine.url, self._worker.kick)

    async def start(self) -> None:
        """Start the worker and deliver at once what an earlier run left (a crash, an outage)."""
        await self.wakeups.start()
        self._worker.start()
        self._worker.kick()

    async def stop(self) -> None:
        """Finish the pass in progress (its lanes are freed), then tell the other processes, which
        send whatever this one leaves owed at once."""
        await self._worker.stop()
        await self.wakeups.notify()
        await self.wakeups.stop()

    async def _drain_all(self) -> None:
        # Ends: a row that fails is backing off and held back (with its session) by the next pick.
        while await self.drain():
            pass

    async def drain(self) -> int:
        """Send what is due in every lane this process can lease, several lanes at once and each in
        order; returns how many rows were tried (0: nothing due here, or every due lane is held
        elsewhere)."""
        candidates = await self.store.run(due_messages)
        lanes = list(dict.fromkeys(lane_of(row.session_id, row.id) for row in candidates))
        at_once = asyncio.Semaphore(LANES_AT_ONCE)

        async def send_lane(lane: str) -> int:
            async with at_once:
                return await self._send_lane(lane)

        return sum(await asyncio.gather(*(send_lane(lane) for lane in lanes)))

    async def _send_lane(self, lane: str) -> int:
        """Lease one lane, send its rows in order (each recorded as it goes), let it go."""
        rows = await self.store.run_write(partial(lease_lane, lane, self.owner, utcnow() + self.lease))
        if rows is None:
            return 0  # another process is sending this lane: it reads it again before letting go
        tried = 0
        try:
            for row in rows:
                outcome = await self._deliver_row(row)
                lease = (lane, self.owner, utcnow() + self.lease)
                await self.store.run_write(partial(record, outcome, lease))
                tried += 1
                if not outcome.done:
                    break  # it backs off, and holds back the rest of its session
        finally:
            await self.store.run_write(partial(free_lane, lane, self.owner))
        return tried

    async def _deliver_row(self, row: OutboxMessage) -> Outcome:
        """Send one message; returns what to record for it."""
        message = Outgoing.model_validate_json(row.payload)
        error: str | None = None
        done = True
        sent = Sent()
        try:
            with speaking(message.language):
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
        if not await self.store.run_write(partial(claim_once, key)):
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
