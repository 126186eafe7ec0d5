"""Delivers the outbox to Discord: every message once, and each game's messages in order, from
any number of processes sharing one database, whatever Discord's rate limits.

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

Rate limits never stop the bot:

- discord.py sleeps through a wait of up to `bot.chat.limits.RATE_LIMIT_WAIT` (a busy channel's pacing)
  and raises `discord.RateLimited` for a longer one (an hour for the edits of a message older than
  an hour, 30046). The row is then scheduled for the `retry_after` Discord gave (a timer wakes the
  worker then) and counts as no failure.
- The request that spends a bucket's last request returns as soon as Discord answers it
  (`bot.chat.buckets`): discord.py would sleep it out until the bucket refills, holding back the
  lane's next messages, those of other buckets too.
- A pass only starts lanes; it waits for none, so a lane paced by Discord holds up neither other
  lanes nor the next pass.
- An edit that must wait gives way (`gives_way`): the posts behind it go on (they carry the game
  forward), and a later edit of the same message supersedes it, or waits with it when it only
  changes part of what the first one changes. Of several queued edits of one message only the
  newest is sent, so a backlog never replays stale boards. Posts keep their order among themselves.
- An edit that would change nothing is not sent: a kept message remembers a digest of what it shows
  (`bot.chat.sending.shown_digest`), so a redraw that shows the same spends none of the channel's
  edits.
- A living board, or a player's one living DM (`Outgoing.renew_when_old`), is never left
  uneditable: when it is older than `bot.chat.limits.RENEW_AGE` as an edit falls due, or Discord
  refuses its edit for long, it is posted afresh at the bottom of its table by that edit's row (so
  with that row's nonce: a resend after a crash gets the same new board back), the new id recorded
  in the same transaction as the row, and the old board edited into a one-line pointer (deleted if
  its edits are spent). A renewal notifies nobody: it shows what the old copy showed.

A secret prompt whose DM is refused (code 50007) is never posted anywhere else: the channel gets a
button that shows the player the prompt ephemerally instead; that player is not DMed again for a
while (`bot.chat.limits.DM_REFUSED_FOR`), as each refusal is an invalid request to Discord. A
channel post that is refused goes to the message's fallback channel with its failure note, and
failing that, by DM to its `failure_user_id`.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol

import discord
from pydantic import ValidationError

from bot.chat.messages import Outgoing, from_json
from bot.chat.outbox import (
    Outcome,
    Sent,
    due_messages,
    free_lane,
    is_due,
    lane_of,
    lease_lane,
    nonce_of,
    record,
)
from bot.chat.sending import EditWaits, Sender
from bot.db.models import OutboxMessage, utcnow
from bot.db.store import Store
from bot.db.wakeups import Wakeups
from bot.lang.i18n import Domain, speaking
from bot.worker import RETRY_PAUSE, Worker

log = logging.getLogger(__name__)
_ = Domain("muster")

MAX_ATTEMPTS = 8
ERROR_CHARS = 500  # the outbox's last_error column (bot/db/models.py)
OWNER_CHARS = 64  # the outbox_lanes.owner column
HOST_CHARS = 40  # of the host name in an owner: room left for its shards
LANES_AT_ONCE = 8
"""Lanes one process sends side by side: games don't wait on each other's round trips."""
LEASE_SECONDS = 30.0
"""How long a lane stays with a process that stopped answering (it renews with every row sent)."""


class Renders(Protocol):
    """What renders the steps' messages still owed (bot/play/rendering.py), seen from here."""

    async def render_due(self) -> object: ...

    async def quiet(self) -> None: ...


def owner_name(shards: str | None) -> str:
    """This process as a lane's owner: its host and its shards. Processes that share a database
    run different shards, and a process restarted with the same shards takes its lanes back at
    once instead of waiting for their leases to run out."""
    return f"{socket.gethostname()[:HOST_CHARS]}:shards {shards or 'all'}"[:OWNER_CHARS]


def covers(later: Outgoing, earlier: Outgoing) -> bool:
    """True when sending `later` leaves a keyed message as sending both would: same message, and
    `later` sets its embeds too (or `earlier` kept them as well)."""
    same = earlier.key is not None and later.key == earlier.key
    return same and (not later.keep_embeds or earlier.keep_embeds)


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
        self.sender = Sender(store, client)
        self.owner = owner or owner_name(None)
        self.lease = timedelta(seconds=lease_seconds)
        self._worker = Worker("outbox-delivery", self._start_lanes, sweep_seconds)
        self.kick = self._worker.kick
        self.wakeups = Wakeups(store.engine.url, lambda _payload: self._worker.kick())
        self._lanes: dict[str, asyncio.Task[int]] = {}  # lanes being sent by this process now
        self._asked_again: set[str] = set()  # ... that a pass found more due in meanwhile
        self._at_once = asyncio.Semaphore(LANES_AT_ONCE)
        self._stopping = False
        # Renders the steps' messages still owed (bot/play/rendering.py) before each pass reads the
        # outbox, so a job left by a crash or a failure is rendered and sent in the same pass.
        self.renders: Renders | None = None

    async def start(self) -> None:
        """Start the worker and deliver at once what an earlier run left (a crash, an outage)."""
        self._stopping = False
        await self.wakeups.start()
        self._worker.start()
        self._worker.kick()

    async def stop(self) -> None:
        """Finish the pass in progress and each lane's row in progress (their lanes are freed), then
        tell the other processes, which send whatever this one leaves owed at once."""
        await self._worker.stop()
        self._stopping = True
        await self._lanes_done()
        await self.wakeups.notify()
        await self.wakeups.stop()

    async def idle(self, limit: float = 10.0) -> None:
        """Wait until everything owed so far has been tried: a pass has run after it, and every lane
        started since is done (tests and shutdown use it). A row waiting out a rate limit is not
        due, so it is not waited for."""
        async with asyncio.timeout(limit):
            if self.renders is not None:
                await self.renders.quiet()
            await self._worker.idle(limit)
            while self._lanes:
                await self._lanes_done()
                await self._worker.idle(limit)

    async def _lanes_done(self) -> None:
        if self._lanes:
            await asyncio.wait(list(self._lanes.values()))

    async def _start_lanes(self) -> None:
        """One pass: start sending each lane with a row due that this process isn't sending yet.

        The pass waits for none of them, so a lane held up (discord.py pacing a busy channel) holds
        up neither other lanes nor the next pass; a lane done kicks the worker again when it sent
        something or a pass found it busy, so what was added meanwhile goes out."""
        if self.renders is not None:
            try:
                await self.renders.render_due()
            except Exception:  # the outbox goes out all the same; the next pass renders again
                log.exception("rendering the pending steps' messages failed; will retry")
        candidates = await self.store.run(due_messages)
        for lane in dict.fromkeys(lane_of(row.session_id, row.id) for row in candidates):
            if lane in self._lanes:
                self._asked_again.add(lane)
                continue
            task = asyncio.create_task(self._lane(lane), name=f"outbox lane {lane}")
            self._lanes[lane] = task
            task.add_done_callback(partial(self._lane_done, lane))

    def _lane_done(self, lane: str, task: asyncio.Task[int]) -> None:
        self._lanes.pop(lane, None)
        again = lane in self._asked_again
        self._asked_again.discard(lane)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("sending outbox lane %s failed; will retry", lane, exc_info=error)
            asyncio.get_running_loop().call_later(RETRY_PAUSE, self.kick)
        elif task.result() or again:
            self.kick()

    async def _lane(self, lane: str) -> int:
        async with self._at_once:  # games don't wait on each other's round trips, up to a point
            return 0 if self._stopping else await self._send_lane(lane)

    async def _send_lane(self, lane: str) -> int:
        """Lease one lane and send its rows in order (each recorded as it goes), reading it again
        until nothing more is due, then let it go; returns how many rows were settled."""
        rows = await self.store.run_write(partial(lease_lane, lane, self.owner, self._until()))
        if rows is None:
            return 0  # another process is sending this lane: it reads it again before letting go
        settled = 0
        try:
            while rows and not self._stopping:
                done_now = await self._send_rows(lane, rows)
                if not done_now:
                    break
                settled += done_now
                rows = await self.store.run_write(partial(lease_lane, lane, self.owner, self._until()))
        finally:
            await self.store.run_write(partial(free_lane, lane, self.owner))
        return settled

    def _until(self) -> datetime:
        return utcnow() + self.lease

    async def _send_rows(self, lane: str, rows: list[OutboxMessage]) -> int:
        """Send a lane's rows in order, each recorded as it goes; returns how many were settled.

        A row that backs off holds back the rest. An edit that has to wait gives way: later posts
        go on, and a later row that edits the same message either supersedes it or waits with it."""
        plan = [(row, parsed(row)) for row in rows]
        now = utcnow()
        waiting: dict[str, datetime] = {}  # keys with an edit waiting out a rate limit
        settled = 0
        for index, (row, message) in enumerate(plan):
            if self._stopping:
                break
            later = [m for _row, m in plan[index + 1 :] if m is not None]
            outcome = await self._outcome(row, message, later, waiting, now)
            if outcome is None:
                continue
            await self.store.run_write(partial(record, outcome, (lane, self.owner, self._until())))
            settled += 1
            if outcome.gives_way and message is not None and message.key is not None:
                waiting[message.key] = outcome.values["next_attempt_at"]
            if not outcome.done and not outcome.gives_way:
                break  # it backs off, and holds back the rest of its session
        return settled

    async def _outcome(
        self,
        row: OutboxMessage,
        message: Outgoing | None,
        later: list[Outgoing],
        waiting: dict[str, datetime],
        now: datetime,
    ) -> Outcome | None:
        """What becomes of one row now (None: it waits on, untouched)."""
        if message is None:
            return self._given_up(row, "the payload does not read as a message")
        newer = next((m for m in later if covers(m, message)), None)
        if newer is not None and await self.sender.known(row.session_id, message) is not None:
            return self._superseded(row)
        if not is_due(row, now):  # an edit giving way, still waiting
            if message.key is not None and row.next_attempt_at is not None:
                waiting[message.key] = row.next_attempt_at
            return None
        if message.key is not None and message.key in waiting:
            return self._waits_behind(row, waiting[message.key])
        return await self._deliver_row(row, message)

    @staticmethod
    def _superseded(row: OutboxMessage) -> Outcome:
        """An edit a later row of the same message makes moot: never sent (a backlog never replays
        stale boards)."""
        values = {"delivered_at": utcnow(), "next_attempt_at": None, "last_error": "superseded"}
        return Outcome(row.id, {**values, "gives_way": False}, session_id=row.session_id)

    @staticmethod
    def _given_up(row: OutboxMessage, error: str) -> Outcome:
        values = {"delivered_at": utcnow(), "next_attempt_at": None, "last_error": error}
        return Outcome(row.id, {**values, "gives_way": False}, session_id=row.session_id)

    @staticmethod
    def _waits_behind(row: OutboxMessage, until: datetime) -> Outcome:
        """An edit of a message whose earlier edit waits (and which it doesn't cover) waits with it,
        so the two still go in order."""
        values = {"delivered_at": None, "next_attempt_at": until, "last_error": "waits behind an edit"}
        return Outcome(row.id, {**values, "gives_way": True}, session_id=row.session_id)

    async def _deliver_row(self, row: OutboxMessage, message: Outgoing) -> Outcome:
        """Send one message; returns what to record for it."""
        error: str | None = None
        done = True
        wait: float | None = None
        gives_way = False
        sent = Sent()
        try:
            with speaking(message.language):
                sent = await self.sender.send(row.session_id, message, nonce_of(row.id, row.created_at))
        except EditWaits as exc:
            wait, gives_way = exc.retry_after, True
        except discord.RateLimited as exc:
            wait = exc.retry_after
        except discord.HTTPException as exc:
            error = f"{exc.status} {exc.code}: {exc.text}"[:ERROR_CHARS]
            transient = exc.status >= 500 or exc.status == 429
            done = not transient or row.attempts + 1 >= MAX_ATTEMPTS
            log.warning("delivery of outbox %s failed (%s)%s", row.id, error, "" if done else "; will retry")
        except Exception as exc:  # a bug in rendering: don't retry forever
            error = repr(exc)[:ERROR_CHARS]
            log.exception("delivery of outbox %s failed", row.id)
        if wait is not None:
            return self._rate_limited(row, wait, gives_way)
        now = utcnow()
        values = {
            "attempts": row.attempts + 1,
            "last_error": error,
            "delivered_at": now if done else None,
            "next_attempt_at": None if done else now + timedelta(seconds=2 ** min(row.attempts + 1, 8)),
            "gives_way": False,
        }
        return Outcome(row.id, values, sent.remember, row.session_id, sent.thread_id)

    def _rate_limited(self, row: OutboxMessage, wait: float, gives_way: bool) -> Outcome:
        """A row Discord asked to wait `wait` seconds for: tried again then (a timer kicks the
        worker; the sweep does after a restart). Not a failure: it never counts towards giving up."""
        log.info("outbox %s rate limited for %.1f s%s", row.id, wait, "; it gives way" if gives_way else "")
        asyncio.get_running_loop().call_later(wait, self.kick)
        values = {
            "last_error": f"rate limited for {wait:.1f} s",
            "delivered_at": None,
            "next_attempt_at": utcnow() + timedelta(seconds=wait),
            "gives_way": gives_way,
        }
        return Outcome(row.id, values, session_id=row.session_id)


def parsed(row: OutboxMessage) -> Outgoing | None:
    """A row's message (None: its payload doesn't read as one, a bug never to retry)."""
    try:
        return from_json(row.payload)
    except ValidationError:
        log.exception("outbox %s does not read as a message", row.id)
        return None
