"""Which DM channel is each user's: remembered for many more users than discord.py keeps, and
stored, so a restart or another process need not ask Discord for it again.

discord.py keeps the last 128 DM channels it saw; a DM to anyone else first asks Discord for the
channel (`POST /users/@me/channels`), a call on the bot's rate limits that Discord asks bots not to
make in numbers. A process running a few hundred games DMs more players than that, and every
process of a sharded bot, or a restarted one, would open them all again. A user's DM channel with
the bot never changes, so its id, once opened, is stored (`DmChannel`) and remembered here: a
cache of a fact, not of something another process could change.
"""

from __future__ import annotations

import time
from collections import OrderedDict

import discord
from sqlalchemy import Table, select

from bot.chat.limits import DM_REFUSED_FOR
from bot.db.models import DmChannel
from bot.db.store import Store
from bot.db.upsert import insert_or_ignore

DM_CHANNELS: Table = DmChannel.__table__  # type: ignore[assignment]


class DmsClosed(Exception):
    """The user's DMs refused the bot a moment ago (`DmChannels.refused`): not tried again yet."""


class DmChannels:
    SIZE = 4096
    """Users whose DM channel is remembered, the most recently sent to: two for each of some 2,000
    open games, about 0.1 KB each."""

    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store
        self._ids: OrderedDict[int, int] = OrderedDict()  # user id -> DM channel id
        self._refused: OrderedDict[int, float] = OrderedDict()  # user id -> when (monotonic)

    def refused(self, user_id: int) -> None:
        """Note that the user's DMs refused the bot (50007), so the next DMs don't ask again at once."""
        self._refused[user_id] = time.monotonic()
        self._refused.move_to_end(user_id)
        while len(self._refused) > self.SIZE:
            self._refused.popitem(last=False)

    def check_open(self, user_id: int) -> None:
        """Raise DmsClosed if the user's DMs refused the bot within `DM_REFUSED_FOR` (a refusal is
        Discord's answer, not this process's guess: it is only not asked again for a while)."""
        when = self._refused.get(user_id)
        if when is not None and time.monotonic() - when < DM_REFUSED_FOR:
            raise DmsClosed(user_id)

    async def of(self, user_id: int) -> discord.PartialMessageable:
        """The user's DM channel, to send to: opened through Discord only when neither remembered
        here nor stored."""
        channel_id = self._ids.get(user_id)
        if channel_id is None:
            query = select(DmChannel.channel_id).where(DmChannel.user_id == user_id)
            channel_id = await self.store.run(lambda db: db.scalar(query))
        if channel_id is None:
            channel_id = (await self.client.create_dm(discord.Object(user_id))).id
            row = {"user_id": user_id, "channel_id": channel_id}
            opened = insert_or_ignore(self.store.dialect, DM_CHANNELS, row, ["user_id"])
            await self.store.run_write(lambda db: db.execute(opened).all())
        self._ids[user_id] = channel_id
        self._ids.move_to_end(user_id)
        while len(self._ids) > self.SIZE:
            self._ids.popitem(last=False)
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
