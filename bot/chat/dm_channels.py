"""Which DM channel is each user's: remembered for many more users than discord.py keeps.

discord.py keeps the last 128 DM channels it saw; a DM to anyone else first asks Discord for the
channel (`POST /users/@me/channels`), a call on the bot's rate limits. A process running a few
hundred games DMs more players than that, so without this every secret prompt cost two calls. A
user's DM channel with the bot never changes, so remembering its id is a cache of a fact, not of
something another process could change.
"""

from __future__ import annotations

from collections import OrderedDict

import discord


class DmChannels:
    SIZE = 4096
    """Users whose DM channel is remembered, the most recently sent to: two for each of some 2,000
    open games, about 0.1 KB each."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._ids: OrderedDict[int, int] = OrderedDict()  # user id -> DM channel id

    async def of(self, user_id: int) -> discord.DMChannel | discord.PartialMessageable:
        """The user's DM channel, to send to: opened through Discord only when not remembered."""
        channel_id = self._ids.get(user_id)
        if channel_id is not None:
            self._ids.move_to_end(user_id)
            return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        channel = await self.client.create_dm(discord.Object(user_id))
        self._ids[user_id] = channel.id
        while len(self._ids) > self.SIZE:
            self._ids.popitem(last=False)
        return channel
