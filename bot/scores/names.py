"""Display names for images and exports (embeds use mentions, which Discord renders itself)."""

from __future__ import annotations

import time
from collections.abc import Iterable

import discord


class NameCache:
    """Names seen in interactions are remembered; the rest are fetched one member at a time (no
    privileged intent needed), at most `fetch_limit` per request, and kept for an hour.
    """

    TTL = 3600.0

    def __init__(self, fetch_limit: int = 50) -> None:
        self.fetch_limit = fetch_limit
        self._names: dict[tuple[int, int], tuple[str, float]] = {}

    def remember(self, guild_id: int | None, user: discord.abc.User | None) -> None:
        if guild_id is not None and user is not None:
            self._names[(guild_id, user.id)] = (user.display_name, time.monotonic())

    async def names(self, guild: discord.Guild | None, guild_id: int, users: Iterable[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        missing: list[int] = []
        now = time.monotonic()
        for user in dict.fromkeys(users):
            known = self._names.get((guild_id, user))
            if known is not None and now - known[1] < self.TTL:
                found[user] = known[0]
            else:
                missing.append(user)
        for user in missing[: self.fetch_limit]:
            if guild is None:
                break
            try:
                member = await guild.fetch_member(user)
            except discord.HTTPException:
                continue  # left the server, or Discord is busy: the caller shows the id instead
            self._names[(guild_id, user)] = (member.display_name, now)
            found[user] = member.display_name
        return found
