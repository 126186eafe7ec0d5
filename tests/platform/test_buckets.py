"""The bot's rate-limit buckets (bot/chat/buckets.py) against the emulator's limits: the request that
empties a bucket comes back at once, and the next one still waits for the refill (no 429)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest

from bot.app import never_sleep_long, use_api_base
from bot.chat.buckets import RefillingBucket, refill_in_background
from tests.emulator import DefaultWorld, Emulator, discord_globals_restored
from tests.emulator.ratelimits import MESSAGE_EDITS

SCALE = 0.4
"""A 5 s window lasts 2 s: long beside a few local requests, short enough for a test to wait out."""


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    async with Emulator(rate_limits=True, rate_limit_scale=SCALE) as emulator:
        yield emulator


@pytest.fixture
async def client(emu: Emulator) -> AsyncIterator[discord.Client]:
    with discord_globals_restored():
        use_api_base(emu.api_base)
        made = discord.Client(intents=discord.Intents.none())
        never_sleep_long(made.http)
        refill_in_background(made.http)
        await made.http.static_login(emu.token)  # type: ignore[no-untyped-call]
        try:
            yield made
        finally:
            await made.close()


async def test_the_edit_that_empties_its_bucket_returns_before_the_bucket_refills(
    emu: Emulator, client: discord.Client
) -> None:
    world: DefaultWorld = emu.add_default_world()
    board = await client.get_partial_messageable(world.channel.id).send("board")
    for turn in range(MESSAGE_EDITS.count):
        await board.edit(content=f"turn {turn}")
    window = emu.limiter.windows[("message-edit", str(world.channel.id))]
    assert window.remaining == 0
    assert emu.clock.now() < window.resets_at  # back while the window is still spent: it did not wait

    await board.edit(content="one more")  # waits for the refill, in discord.py's acquire
    assert emu.message(board.id).content == "one more"
    assert not emu.rate_limited, emu.rate_limited
    assert all(isinstance(bucket, RefillingBucket) for bucket in client.http._buckets.values())


async def test_a_post_behind_the_emptying_edit_goes_at_once(emu: Emulator, client: discord.Client) -> None:
    """The case the outbox meets: one message after another in a game, the board's edits and the
    thread's posts in buckets of their own."""
    world = emu.add_default_world()
    channel = client.get_partial_messageable(world.channel.id)
    board = await channel.send("board")
    for turn in range(MESSAGE_EDITS.count):
        await board.edit(content=f"turn {turn}")
    edits = emu.limiter.windows[("message-edit", str(world.channel.id))]
    await channel.send("the next question")
    assert emu.clock.now() < edits.resets_at  # the post did not wait for the edits' refill
    assert [m.content for m in emu.messages(world.channel)][-1] == "the next question"
    assert not emu.rate_limited
