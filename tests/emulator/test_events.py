"""Guild scheduled events through discord.py 2.7's own calls (the ping bot's client)."""

from __future__ import annotations

import datetime as dt

import discord
import pytest

from . import DefaultWorld, Emulator
from .model import permissions
from .pingbot import PingBot

LATER = dt.timedelta(days=3)


async def test_an_external_event_is_made_listed_edited_and_deleted(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    start = discord.utils.utcnow() + LATER
    made = await guild.create_scheduled_event(
        name="Club night",
        start_time=start,
        end_time=start + dt.timedelta(hours=4),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="The club",
        description="Kill Team and Warcry",
    )
    assert made.name == "Club night" and made.location == "The club"
    assert [e.name for e in emu.events_of(world.guild)] == ["Club night"]

    listed = await guild.fetch_scheduled_events()
    assert [e.id for e in listed] == [made.id]
    fetched = await guild.fetch_scheduled_event(made.id)
    assert fetched.description == "Kill Team and Warcry"

    later = start + dt.timedelta(hours=1)
    edited = await made.edit(
        name="Club night (moved)", start_time=later, end_time=later + dt.timedelta(hours=4)
    )
    assert edited.name == "Club night (moved)"
    stored = emu.scheduled_events[made.id]
    assert stored.scheduled_start_time == later and len(stored.history) == 1

    await made.delete()
    assert emu.events_of(world.guild) == []
    with pytest.raises(discord.NotFound) as missing:
        await guild.fetch_scheduled_event(made.id)
    assert missing.value.code == 10070


async def test_discord_refuses_events_it_would_refuse(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    past = discord.utils.utcnow() - dt.timedelta(hours=1)
    with pytest.raises(discord.HTTPException) as refused:
        await guild.create_scheduled_event(
            name="Too late",
            start_time=past,
            end_time=past + dt.timedelta(hours=2),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location="The club",
        )
    assert refused.value.status == 400 and "past" in str(refused.value)
    emu.invalid_requests.clear()

    bot_role = next(r for r in world.guild.roles.values() if r.bot_id == emu.bot_user.id)
    bot_role.permissions &= ~permissions("create_events")
    start = discord.utils.utcnow() + LATER
    with pytest.raises(discord.Forbidden) as forbidden:
        await guild.create_scheduled_event(
            name="No right",
            start_time=start,
            end_time=start + dt.timedelta(hours=2),
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location="The club",
        )
    assert forbidden.value.code == 50013
    assert emu.events_of(world.guild) == []
