"""Where the kept messages this process last sent, edited or read are, and what they show: a cache
the sender fills (bot/chat/sending.py) and a click's answer reads (bot/play/in_place.py)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.db.models import utcnow

if TYPE_CHECKING:
    from bot.db.models import SessionMessage


def age_of(snowflake: int) -> float:
    """How old a message (or an interaction) is, in seconds, by its snowflake."""
    return (utcnow() - discord.utils.snowflake_time(snowflake)).total_seconds()


@dataclass(frozen=True, slots=True)
class Kept:
    """Where a kept message is and what it shows, as this process last knew it."""

    channel_id: int
    message_id: int
    shown: str | None


class KeptMessages:
    """The kept messages this process last sent, edited or read, by (session, key): a cache, never a
    truth. It tells a click's answer which kept message the click came from, so the answer can be
    that message redrawn (bot/play/in_place.py); what it says was shown is checked by the store
    before an edit is skipped for it."""

    SIZE = 1024
    """About four kept messages (a board, a card, two DM prompts) for each of the 256 games a process
    keeps (bot/play/sessions.py CACHE_SIZE): a game that fell out costs one read at its next click,
    as its state does."""

    def __init__(self) -> None:
        self._known: OrderedDict[tuple[str, str], Kept] = OrderedDict()
        self._keys: dict[tuple[str, int], str] = {}  # (session, message id) -> key

    def note(self, message: SessionMessage | None) -> None:
        if message is None:
            return
        where = (message.session_id, message.key)
        self._forget(where)
        self._known[where] = Kept(message.channel_id, message.message_id, message.shown)
        self._keys[(message.session_id, message.message_id)] = message.key
        while len(self._known) > self.SIZE:
            self._forget(next(iter(self._known)))

    def _forget(self, where: tuple[str, str]) -> None:
        kept = self._known.pop(where, None)
        if kept is not None:
            self._keys.pop((where[0], kept.message_id), None)

    def get(self, session_id: str, key: str) -> Kept | None:
        return self._known.get((session_id, key))

    def showing(self, session_id: str, key: str, shown: str) -> None:
        """A kept message this process just redrew (an answer in place) shows `shown` now."""
        kept = self._known.get((session_id, key))
        if kept is not None:
            self._known[(session_id, key)] = Kept(kept.channel_id, kept.message_id, shown)

    def key_of(self, session_id: str, message_id: int) -> str | None:
        return self._keys.get((session_id, message_id))
