"""The bot's rate limits (bot/chat/buckets.py) against the emulator's: the request that empties a
bucket comes back at once, and the next one still waits for the refill (no 429); the global pace
keeps a burst over many channels under Discord's 50 requests a second."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest

from bot.app import never_sleep_long, use_api_base
from bot.chat import buckets
from bot.chat.buckets import GlobalPace, RefillingBucket, at_rest, keep_to_limits, pace_share
from bot.config import Settings
from tests.emulator import DefaultWorld, Emulator, discord_globals_restored
from tests.emulator.model import Channel
from tests.emulator.ratelimits import GLOBAL, MESSAGE_CREATES, MESSAGE_EDITS, Window

BOT_PACE = int(Settings.model_fields["muster_global_requests_per_second"].default)
"""The bot's own pace: under Discord's 50, as requests sent a second apart can arrive closer."""
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
        keep_to_limits(made.http)
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


async def test_a_pace_never_lets_more_than_its_count_into_a_window() -> None:
    pace = GlobalPace(5, window=0.2)
    loop = asyncio.get_running_loop()
    times = []

    async def one() -> None:
        await pace.turn()
        times.append(loop.time())

    await asyncio.gather(*(one() for _ in range(12)))
    times.sort()
    assert len(times) == 12
    assert all(later - earlier >= 0.2 for earlier, later in zip(times, times[5:], strict=False))


def test_each_process_paces_its_shards_share() -> None:
    assert pace_share(45.0, None, None).count == 45
    assert pace_share(45.0, [0, 1], 4).count == 22
    assert pace_share(45.0, [3], 4).count == 11
    assert pace_share(1.0, [3], 4).count == 1  # never none


async def test_a_burst_over_many_channels_keeps_under_the_global_limit(emu: Emulator) -> None:
    """Sixty posts at once, each to its own channel (so no channel's bucket holds them back): the
    pace spreads them over more than a second and Discord refuses none."""
    world = emu.add_default_world()
    channels = [emu.add_channel(world.guild, f"table-{i}") for i in range(60)]
    emu.clock.scale = 1.0  # Discord's own second for the global limit
    emu.limiter.global_window = Window(GLOBAL.count, GLOBAL.window)
    with discord_globals_restored():
        use_api_base(emu.api_base)
        client = discord.Client(intents=discord.Intents.none())
        keep_to_limits(client.http, GlobalPace(BOT_PACE))
        await client.http.static_login(emu.token)  # type: ignore[no-untyped-call]
        try:
            await asyncio.gather(
                *(client.get_partial_messageable(c.id).send(f"post {c.name}") for c in channels)
            )
        finally:
            await client.close()
    assert all(len(emu.messages(c)) == 1 for c in channels)
    assert not emu.rate_limited, [r.rate_limit for r in emu.rate_limited]


async def test_buckets_at_rest_are_forgotten_and_busy_ones_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bucket per channel and route, kept only while it has something to tell: once its window is
    over nothing is lost by forgetting it, and the channel's next posts keep to Discord's limit."""
    monkeypatch.setattr(buckets, "FEWEST_TO_FORGET", 8)
    monkeypatch.setattr(buckets, "REST_AFTER", 0.0)
    async with Emulator(rate_limits=True, rate_limit_scale=0.02) as emu:  # a 5 s window lasts 0.1 s
        world = emu.add_default_world()
        channels = [emu.add_channel(world.guild, f"table-{i}") for i in range(16)]
        with discord_globals_restored():
            use_api_base(emu.api_base)
            client = discord.Client(intents=discord.Intents.none())
            keep_to_limits(client.http)
            await client.http.static_login(emu.token)  # type: ignore[no-untyped-call]
            try:
                held = client.http._buckets

                def of(channel: Channel) -> list[str]:
                    return [key for key in held if str(channel.id) in key]

                for channel in channels[:10]:
                    await client.get_partial_messageable(channel.id).send("a post")
                assert all(of(c) for c in channels[:10])  # looked at 8, but every window was open
                await asyncio.sleep(0.15)  # every window over
                for channel in channels[10:]:
                    await client.get_partial_messageable(channel.id).send("a post")
                assert not any(of(c) for c in channels[:10]) and all(of(c) for c in channels[10:])
                again = client.get_partial_messageable(channels[0].id)
                for turn in range(MESSAGE_CREATES.count + 2):  # past the limit: waits, is not refused
                    await again.send(f"post {turn}")
            finally:
                await client.close()
        assert len(emu.messages(channels[0])) == 1 + MESSAGE_CREATES.count + 2
        assert not emu.rate_limited, [r.rate_limit for r in emu.rate_limited]


async def test_a_bucket_in_use_or_in_its_window_is_not_at_rest() -> None:
    loop = asyncio.get_running_loop()
    later = loop.time() + 10
    bucket = RefillingBucket(None)
    assert at_rest(bucket, later)
    bucket.outgoing = 1
    assert not at_rest(bucket, later)  # a request in flight
    bucket.outgoing = 0
    bucket.expires = later + 1
    assert not at_rest(bucket, later)  # Discord's window still open
    bucket.expires = None
    assert not at_rest(bucket, loop.time())  # just fetched by a request about to take its turn
