"""A user whose DMs refused the bot is not asked again at once (bot/chat/dm_channels.py): each
refusal is an invalid request, which Discord counts against the bot's address."""

from __future__ import annotations

import discord
import pytest

from bot.chat import dm_channels
from bot.chat.dm_channels import DmChannels, DmsClosed
from bot.chat.limits import DM_REFUSED_FOR
from bot.db.store import Store

NO_STORE: Store = None  # type: ignore[assignment]  # refusals are only remembered, never stored


def test_a_refused_user_is_not_dmed_again_until_the_pause_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(dm_channels.time, "monotonic", lambda: now[0])
    dms = DmChannels(discord.Client(intents=discord.Intents.none()), NO_STORE)
    dms.check_open(1)  # never refused: asked
    dms.refused(1)
    with pytest.raises(DmsClosed):
        dms.check_open(1)
    dms.check_open(2)  # another user is asked as ever
    now[0] += DM_REFUSED_FOR - 1
    with pytest.raises(DmsClosed):
        dms.check_open(1)
    now[0] += 1
    dms.check_open(1)  # asked again: the user may have opened their DMs meanwhile


def test_refusals_remembered_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DmChannels, "SIZE", 3)
    dms = DmChannels(discord.Client(intents=discord.Intents.none()), NO_STORE)
    for user in range(5):
        dms.refused(user)
    dms.check_open(0)  # the oldest are forgotten first
    dms.check_open(1)
    with pytest.raises(DmsClosed):
        dms.check_open(4)
