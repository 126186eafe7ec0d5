"""How one outbox message reaches Discord: a DM or a channel post, a keyed message edited where it
was sent, a game's thread opened from its start card, the fallbacks when a channel or a DM is refused,
and a living board renewed when it is too old to edit freely.

`bot/chat/delivery.py` decides which rows go when and records what became of them; this module only sends
one message and says what to remember (`Sent`), raising what Discord answered for the rest.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import discord
from sqlalchemy import select

from bot.chat.answers import Answers
from bot.chat.dm_channels import DmChannels, DmsClosed
from bot.chat.kept import KeptMessages, age_of
from bot.chat.limits import RENEW_AGE
from bot.chat.messages import GameThread, Outgoing, to_json
from bot.chat.outbox import Sent, claim_once
from bot.chat.render import prompt_fallback, to_discord
from bot.chat.uploads import Uploads
from bot.db.models import GameSession, SessionMessage
from bot.db.store import Store
from bot.lang.i18n import Domain

log = logging.getLogger(__name__)
_ = Domain("muster")

DM_CLOSED = 50007
THREAD_EXISTS = 160004


class EditWaits(Exception):
    """An edit Discord won't take for a long while (a message older than an hour, code 30046):
    its row gives way, waiting out `retry_after` without holding back its lane."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"edit rate limited for {retry_after:.0f} s")
        self.retry_after = retry_after


SHOWN_FIELDS = {"to", "user_id", "content", "embeds", "buttons", "selects", "keep_embeds", "language"}
"""What decides how a message looks once sent (not how it is routed, nor who a post pings)."""


def shown_digest(message: Outgoing) -> str:
    """What a keyed message shows, as a digest: an edit whose digest is the message's own changes
    nothing on Discord, so it is not sent (it would only spend the channel's edits)."""
    # A file counts only when there is one: the digests kept for every other message stay as they were.
    shown = to_json(message, include=SHOWN_FIELDS | ({"upload"} if message.upload else set()))
    return hashlib.sha256(shown.encode()).hexdigest()


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


@dataclass(frozen=True)
class Done:
    """A keyed message dealt with in place (edited, or already showing this), or an edit-only one
    with nothing to edit: nothing to post. `remember`: the kept message with what it shows now."""

    remember: SessionMessage | None = None


def _kept(
    session_id: str | None, message: Outgoing, channel_id: int, message_id: int
) -> SessionMessage | None:
    """A keyed message just posted, to remember with what it shows."""
    if not (message.key and session_id):
        return None
    return SessionMessage(
        session_id=session_id,
        key=message.key,
        channel_id=channel_id,
        message_id=message_id,
        shown=shown_digest(message),
    )


THREADS_KEPT = 256
"""Games whose thread this process opened, kept so that their first DMs (the next messages in the
game's lane, sent moments later) name it. A game pushed out by as many opened after it names its
channel instead, where the card leads to the thread."""


class Sender:
    """Sends one message for the outbox, reading from the store where it was sent before."""

    def __init__(self, store: Store, client: discord.Client) -> None:
        self.store = store
        self.client = client
        self.uploads = Uploads()  # the renderers of the files messages carry, registered by kind
        self.kept = KeptMessages()
        self.dms = DmChannels(client, store)
        self.answers = Answers(client)  # messages sent as an interaction's answer (a start card)
        self._threads: OrderedDict[str, tuple[int, int]] = OrderedDict()  # session -> channel, thread

    async def _with_file(
        self, message: Outgoing, kwargs: dict[str, Any], *, edit: bool = False
    ) -> dict[str, Any]:
        """`kwargs` with the message's file, rendered afresh: discord.py closes a file once it is
        sent, so every request (a post, an edit, a fallback) gets its own. An edit replaces the
        message's attachments with it."""
        if message.upload is None:
            return kwargs
        file = await self.uploads.file(message.upload)
        if file is None:
            return kwargs
        return {**kwargs, "attachments" if edit else "files": [file]}

    async def known(self, session_id: str | None, message: Outgoing) -> SessionMessage | None:
        """The message a keyed row edits, if one was sent before."""
        if not (message.key and session_id):
            return None
        key = (session_id, message.key)
        known = await self.store.run(lambda db: db.get(SessionMessage, key))
        self.kept.note(known)
        return known

    async def kept_key(self, session_id: str, message_id: int) -> str | None:
        """The key of the session's kept message `message_id`, if it is one: from what this process
        knows, else from one read of the session's kept messages."""
        key = self.kept.key_of(session_id, message_id)
        if key is None:
            mine = select(SessionMessage).where(SessionMessage.session_id == session_id)
            for row in await self.store.run(lambda db: list(db.scalars(mine))):
                self.kept.note(row)
            key = self.kept.key_of(session_id, message_id)
        return key

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

    async def send(self, session_id: str | None, message: Outgoing, nonce: str) -> Sent:
        """Send to a DM or a channel (with the fallbacks); returns what to record, which this
        process's cache of kept messages learns at once."""
        sent = await self._send(session_id, message, nonce)
        self.kept.note(sent.remember)
        return sent

    async def _send(self, session_id: str | None, message: Outgoing, nonce: str) -> Sent:
        message = self._naming_thread(session_id, message)
        kwargs = to_discord(session_id, message)
        if message.to == "dm":
            assert message.user_id is not None
            try:
                self.dms.check_open(message.user_id)
                return Sent(await self._send_dm(session_id, message, kwargs, nonce))
            except DmsClosed:
                pass  # refused a moment ago (limits.DM_REFUSED_FOR): not asked again yet
            except discord.Forbidden as exc:
                if exc.code != DM_CLOSED:
                    raise
                self.dms.refused(message.user_id)
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
                if thread_id is not None:
                    self._threads[session_id] = (table, thread_id)
                    while len(self._threads) > THREADS_KEPT:
                        self._threads.popitem(last=False)
            return Sent(remember, thread_id)
        except (discord.Forbidden, discord.NotFound):
            if message.fallback_channel_id is None and message.failure_user_id is None:
                raise
            note = [message.failure_note] if message.failure_note else []
            fallback = replace(
                message, content="\n\n".join([message.content, *note]).strip(), key=None, answer=None
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
            dm = await self.dms.of(message.failure_user_id)
            await dm.send(**await self._with_file(fallback, kwargs), nonce=nonce)
            return Sent()

    def _naming_thread(self, session_id: str | None, message: Outgoing) -> Outgoing:
        """A DM rendered as its game opened names the channel, the thread being yet to come; sent
        once this process has opened that thread, it names the thread the game is played in."""
        opened = self._threads.get(session_id) if session_id and message.to == "dm" else None
        if opened is None:
            return message
        channel, thread = (f"<#{where}>" for where in opened)
        if channel not in message.content:
            return message
        return replace(message, content=message.content.replace(channel, thread))

    async def _send_dm(
        self, session_id: str | None, message: Outgoing, kwargs: dict[str, Any], nonce: str
    ) -> SessionMessage | None:
        """A DM; a keyed one (a player's prompt) is edited in place once sent, and remembered."""
        assert message.user_id is not None
        done, old = await self._edited_in_place(session_id, message, kwargs)
        if done is not None:
            return done.remember
        dm = await self.dms.of(message.user_id)
        sent = await dm.send(**await self._with_file(message, kwargs), nonce=nonce, silent=old is not None)
        if old is not None:
            await self._point(None, old, dm.id, sent.id, in_dm=True)
        return _kept(session_id, message, dm.id, sent.id)

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
                dm = await self.dms.of(spec.organiser_id)
                await dm.send(spec.failure_note)

    async def _post(
        self, session_id: str | None, message: Outgoing, channel_id: int, kwargs: dict[str, Any], nonce: str
    ) -> SessionMessage | None:
        """Post (or, for a keyed message seen before, edit); a keyed post's id is returned to record.

        A living message renewed is posted afresh here (the bottom of its table), notifying nobody
        (it shows what its old copy showed), and its old copy made a pointer to it; a resend after
        a crash gets the same new message back by its nonce. A message sent as an interaction's
        answer (a start card) is that answer's, posted only if it has none (bot/chat/answers.py)."""
        done, old = await self._edited_in_place(session_id, message, kwargs)
        if done is not None:
            return done.remember
        if message.answer is not None:
            answered = await self.answers.message_of(message.answer)
            if answered is not None:
                return _kept(session_id, message, channel_id, answered)
        channel = self.client.get_partial_messageable(channel_id)
        sent = await channel.send(
            **await self._with_file(message, kwargs), nonce=nonce, silent=old is not None
        )
        if old is not None:
            await self._point(await self._guild_of(session_id), old, channel_id, sent.id)
        return _kept(session_id, message, channel_id, sent.id)

    async def _edited_in_place(
        self, session_id: str | None, message: Outgoing, kwargs: dict[str, Any]
    ) -> tuple[Done | None, SessionMessage | None]:
        """(done, old): done when nothing is to be posted: a keyed message seen before was edited
        where it was sent (a channel or a DM), or already shows this, or an edit-only message has
        nothing to edit. A keyed message someone deleted is posted again. `old`: a living message to
        renew (post afresh, then point `old` to it), because it is too old to edit freely or Discord
        refused the edit for a long while; any other edit refused for long raises `EditWaits`."""
        known = await self.known(session_id, message)
        nothing = Done() if message.edit_only else None
        if known is None:
            return nothing, None
        if message.renew_when_old and age_of(known.message_id) >= RENEW_AGE:
            return None, known
        shown = shown_digest(message)
        if known.shown == shown:
            return Done(), None  # it shows this already: an edit would change nothing
        channel = self.client.get_partial_messageable(known.channel_id)
        try:
            await channel.get_partial_message(known.message_id).edit(
                **await self._with_file(message, kwargs, edit=True)
            )
        except discord.NotFound:
            return nothing, None  # deleted by someone: post it again
        except discord.RateLimited as exc:
            if message.renew_when_old:
                return None, known
            raise EditWaits(exc.retry_after) from exc
        edited = SessionMessage(
            session_id=known.session_id,
            key=known.key,
            channel_id=known.channel_id,
            message_id=known.message_id,
            shown=shown,
        )
        return Done(edited), None

    async def _guild_of(self, session_id: str | None) -> int | None:
        row = await self.store.run(lambda db: db.get(GameSession, session_id)) if session_id else None
        return row.guild_id if row is not None else None

    async def _point(
        self, guild_id: int | None, old: SessionMessage, channel_id: int, new_id: int, in_dm: bool = False
    ) -> None:
        """Make a renewed message's old copy a one-line pointer to the new one. Its edits may be
        spent (30046): then it is deleted, so no stale board is left with buttons; if even that
        fails it is left as it is. Never waits."""
        link = message_link(guild_id, channel_id, new_id)
        moved = _("This message has moved: {link}", link=link) if in_dm else None
        text = moved or _("This board has moved: {link}", link=link)
        stale = self.client.get_partial_messageable(old.channel_id).get_partial_message(old.message_id)
        try:
            await stale.edit(content=text, embeds=[], view=None)
            return
        except discord.RateLimited:
            log.info("the old copy %s can't be edited now; deleting it", old.message_id)
        except discord.HTTPException as exc:
            log.info("the old copy %s was not edited (%s %s)", old.message_id, exc.status, exc.code)
            return
        try:
            await stale.delete()
        except (discord.RateLimited, discord.HTTPException) as exc:
            log.info("the old copy %s stays as it was (%s)", old.message_id, exc)
