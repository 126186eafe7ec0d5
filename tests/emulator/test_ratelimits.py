"""The emulator's rate limits: the headers and 429s Discord sends, seen raw over aiohttp, and the
real discord.py client planning by them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from . import DefaultWorld, Emulator, Message
from .pingbot import PingBot
from .ratelimits import (
    CHANNEL_RENAMES,
    GLOBAL,
    INVALID_REQUESTS,
    MESSAGE_CREATES,
    MESSAGE_EDITS,
    OLD_MESSAGE_AGE,
    OLD_MESSAGE_TEXT,
    Limit,
)


class Raw:
    """A bare HTTP client with the bot's token: every header and body exactly as sent."""

    def __init__(self, emu: Emulator, session: aiohttp.ClientSession) -> None:
        self.emu = emu
        self.session = session

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, dict[str, str]]:
        async with self.session.request(
            method,
            self.emu.api_base + path,
            json=body,
            headers={"Authorization": f"Bot {self.emu.token}"},
        ) as response:
            data = await response.json() if response.status != 204 else None
            return response.status, data, dict(response.headers)

    async def post(self, channel_id: int, content: str = "hi") -> tuple[int, Any, dict[str, str]]:
        return await self.call("POST", f"/channels/{channel_id}/messages", {"content": content})

    async def edit(self, message: Message | int, content: str) -> tuple[int, Any, dict[str, str]]:
        target = message if isinstance(message, Message) else self.emu.message(message)
        return await self.call(
            "PATCH", f"/channels/{target.channel.id}/messages/{target.id}", {"content": content}
        )


@pytest.fixture
async def slow() -> AsyncIterator[Emulator]:
    """Discord's real windows (scale 1): a test moves the clock instead of waiting."""
    async with Emulator(rate_limit_scale=1.0) as emulator:
        yield emulator


@pytest.fixture
async def raw(slow: Emulator) -> AsyncIterator[Raw]:
    async with aiohttp.ClientSession() as session:
        yield Raw(slow, session)


async def _posted(raw: Raw, channel_id: int, content: str) -> Message:
    status, body, _ = await raw.post(channel_id, content)
    assert status == 200, body
    return raw.emu.message(int(body["id"]))


# --- headers and buckets ------------------------------------------------------------------------


async def test_every_answer_of_a_limited_route_reports_its_bucket(slow: Emulator, raw: Raw) -> None:
    world = slow.add_default_world()
    status, _, headers = await raw.post(world.channel.id)
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "5"
    assert headers["X-RateLimit-Remaining"] == "4"
    assert 4.9 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
    assert abs(float(headers["X-RateLimit-Reset"]) - (time.time() + 5.0)) < 1.0
    assert len(headers["X-RateLimit-Bucket"]) == 32
    assert "Via" not in headers and "X-RateLimit-Scope" not in headers

    _, _, again = await raw.post(world.channel.id)
    assert again["X-RateLimit-Remaining"] == "3"
    assert again["X-RateLimit-Bucket"] == headers["X-RateLimit-Bucket"]

    status, _, unlimited = await raw.call("GET", "/users/@me")
    assert status == 200 and "X-RateLimit-Bucket" not in unlimited


async def test_message_creates_are_limited_per_channel(slow: Emulator, raw: Raw) -> None:
    world = slow.add_default_world()
    other = slow.add_channel(world.guild, "other")
    for i in range(MESSAGE_CREATES.count):
        assert (await raw.post(world.channel.id, f"m{i}"))[0] == 200

    status, body, headers = await raw.post(world.channel.id, "one too many")
    assert status == 429
    assert set(body) == {"message", "retry_after", "global"}
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 4.5 < body["retry_after"] <= MESSAGE_CREATES.window
    assert headers["Via"] == "1.1 google"
    assert headers["X-RateLimit-Scope"] == "user"
    assert headers["X-RateLimit-Remaining"] == "0"
    assert headers["Retry-After"] == "5"
    assert float(headers["X-RateLimit-Reset-After"]) == body["retry_after"]
    assert "X-RateLimit-Global" not in headers
    assert [m.content for m in slow.messages(world.channel)] == [f"m{i}" for i in range(5)]
    assert [(r.status, r.rate_limit) for r in slow.rate_limited] == [(429, "message-create")]

    assert (await raw.post(other.id))[0] == 200  # another channel: another bucket
    slow.clock.advance(MESSAGE_CREATES.window)
    assert (await raw.post(world.channel.id, "later"))[0] == 200


async def test_edits_and_deletes_have_buckets_of_their_own(slow: Emulator, raw: Raw) -> None:
    world = slow.add_default_world()
    board = await _posted(raw, world.channel.id, "board")
    doomed = [await _posted(raw, world.channel.id, f"d{i}") for i in range(3)]
    for i in range(MESSAGE_EDITS.count):
        assert (await raw.edit(board, f"v{i}"))[0] == 200
    status, body, headers = await raw.edit(board, "too soon")
    assert status == 429 and body["global"] is False and headers["Via"] == "1.1 google"
    assert board.content == "v4"

    for message in doomed:  # deleting is not editing
        status, _, headers = await raw.call("DELETE", f"/channels/{world.channel.id}/messages/{message.id}")
        assert status == 204 and "X-RateLimit-Bucket" in headers
    assert (await raw.post(world.channel.id))[0] == 200  # the fifth create: creating is neither
    assert [r.rate_limit for r in slow.rate_limited] == ["message-edit"]


async def test_channel_name_and_topic_changes_are_scarce_and_shared(slow: Emulator, raw: Raw) -> None:
    world = slow.add_default_world()
    slow.allow_bot(world.channel, "manage_channels")
    path = f"/channels/{world.channel.id}"
    assert (await raw.call("PATCH", path, {"name": "games-1"}))[0] == 200
    assert (await raw.call("PATCH", path, {"topic": "Tonight: Kill Team"}))[0] == 200
    status, body, headers = await raw.call("PATCH", path, {"name": "games-2"})
    assert status == 429
    assert headers["X-RateLimit-Scope"] == "shared" and headers["Via"] == "1.1 google"
    assert 590 < body["retry_after"] <= CHANNEL_RENAMES.window
    assert world.channel.name == "games-1"

    assert (await raw.call("PATCH", path, {}))[0] == 200  # changing neither is not limited
    slow.clock.advance(CHANNEL_RENAMES.window)
    assert (await raw.call("PATCH", path, {"name": "games-2"}))[0] == 200


async def test_the_global_limit_spares_interaction_callbacks(slow: Emulator, raw: Raw) -> None:
    # Sent together, so all of them land in one second of the (unscaled) clock.
    first = await asyncio.gather(*(raw.call("GET", "/users/@me") for _ in range(GLOBAL.count)))
    assert all(status == 200 for status, _, _ in first)

    status, body, headers = await raw.call("GET", "/users/@me")
    assert status == 429
    assert body["global"] is True and body["message"] == "You are being rate limited."
    assert 0 < body["retry_after"] <= GLOBAL.window
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global" and headers["Via"] == "1.1 google"
    assert slow.rate_limited[-1].rate_limit == "global"

    status, _, _ = await raw.call("POST", "/interactions/1/not-a-token/callback", {"type": 1})
    assert status != 429  # unknown interaction, but not rate limited
    slow.clock.advance(GLOBAL.window)
    assert (await raw.call("GET", "/users/@me"))[0] == 200


# --- old messages: error 30046 ------------------------------------------------------------------


async def test_an_old_message_takes_five_edits_an_hour(slow: Emulator, raw: Raw) -> None:
    world = slow.add_default_world()
    old = await _posted(raw, world.channel.id, "old board")
    young = await _posted(raw, world.channel.id, "young board")
    slow.age(old, seconds=OLD_MESSAGE_AGE)
    assert slow.message(old.id).payload()["timestamp"] < young.payload()["timestamp"]

    for i in range(5):
        slow.clock.advance(5.0)  # past the channel's edit bucket
        assert (await raw.edit(old, f"old {i}"))[0] == 200
        assert (await raw.edit(young, f"young {i}"))[0] == 200
    slow.clock.advance(5.0)
    status, body, headers = await raw.edit(old, "old 5")
    assert status == 429
    assert body["code"] == 30046 and body["message"] == OLD_MESSAGE_TEXT and body["global"] is False
    assert 3600 - 30 < body["retry_after"] <= 3600  # the first of the five was 25 s ago; unscaled
    assert headers["Via"] == "1.1 google" and headers["X-RateLimit-Scope"] == "user"
    assert float(headers["X-RateLimit-Reset-After"]) == body["retry_after"]
    assert old.content == "old 4"
    assert (await raw.edit(young, "young 5"))[0] == 200  # a young message has no such budget
    assert [r.rate_limit for r in slow.rate_limited] == ["old-message-edits"]

    slow.clock.advance(body["retry_after"])
    assert (await raw.edit(old, "old 5"))[0] == 200


async def test_refused_edits_do_not_spend_the_budget(slow: Emulator, raw: Raw) -> None:
    world = slow.add_default_world()
    old = slow.age(await _posted(raw, world.channel.id, "old"), seconds=2 * OLD_MESSAGE_AGE)
    for _ in range(5):
        slow.clock.advance(5.0)
        assert (await raw.edit(old, "x" * 2001))[0] == 400  # Discord refuses it; no edit made
    slow.clock.advance(5.0)
    assert (await raw.edit(old, "fine"))[0] == 200


# --- the clock's scale, switching off, injected faults --------------------------------------------


async def test_the_scale_shortens_windows_and_what_a_429_says() -> None:
    async with Emulator(rate_limit_scale=0.01) as emu, aiohttp.ClientSession() as session:
        raw = Raw(emu, session)
        world = emu.add_default_world()
        statuses = [(await raw.post(world.channel.id))[0] for _ in range(MESSAGE_CREATES.count)]
        assert statuses == [200] * 5
        status, body, headers = await raw.post(world.channel.id)
        assert status == 429
        assert 0 < body["retry_after"] <= 0.05  # 5 s at 0.01: what discord.py will sleep
        assert float(headers["X-RateLimit-Reset-After"]) <= 0.05
        await asyncio.sleep(body["retry_after"])
        assert (await raw.post(world.channel.id))[0] == 200


async def test_limits_are_on_by_default_and_can_be_turned_off() -> None:
    async with Emulator() as on:
        assert on.limiter.enabled and on.clock.scale == 0.01
    async with Emulator(rate_limits=False) as off, aiohttp.ClientSession() as session:
        raw = Raw(off, session)
        world = off.add_default_world()
        answers = [await raw.post(world.channel.id) for _ in range(3 * MESSAGE_CREATES.count)]
        assert [status for status, _, _ in answers] == [200] * 15
        assert not any("X-RateLimit-Bucket" in headers for _, _, headers in answers)
        assert not off.rate_limited


async def test_an_injected_429_with_a_body_keeps_the_rate_limit_headers(slow: Emulator, raw: Raw) -> None:
    world = slow.add_default_world()
    board = await _posted(raw, world.channel.id, "board")
    _, _, ordinary = await raw.edit(board, "v1")
    body = {"message": OLD_MESSAGE_TEXT, "code": 30046, "retry_after": 3599.5, "global": False}
    fault = slow.inject("PATCH", rf"/channels/{world.channel.id}/messages/\d+", body=body)

    status, answer, headers = await raw.edit(board, "v2")
    assert (status, answer) == (429, body)
    assert headers["Via"] == "1.1 google" and headers["Retry-After"] == "3600"
    assert headers["X-RateLimit-Reset-After"] == "3599.500"
    assert headers["X-RateLimit-Bucket"] == ordinary["X-RateLimit-Bucket"]  # the route's own bucket
    assert fault.hits == 1
    assert [(r.fault, r.status) for r in slow.rate_limited] == [(True, 429)]


# --- the real discord.py client -----------------------------------------------------------------


async def test_discord_py_keeps_to_the_buckets_on_its_own(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    channel = bot.get_partial_messageable(world.channel.id)
    started = time.perf_counter()
    sent = await asyncio.gather(*(channel.send(f"burst {i}") for i in range(10)))
    edited = [await message.edit(content=f"edited {i}") for i, message in enumerate(sent[:7])]
    elapsed = time.perf_counter() - started

    assert sorted(m.content for m in emu.messages(world.channel)) == sorted(
        [f"edited {i}" for i in range(7)] + [f"burst {i}" for i in range(7, 10)]
    )
    assert len(edited) == 7
    assert not emu.rate_limited, emu.rate_limited  # it read the headers and waited: no 429
    window = emu.clock.scale * MESSAGE_CREATES.window
    assert elapsed >= 2 * window  # 10 creates and 7 edits: each bucket made it wait once at least


async def test_discord_py_meets_30046_as_rate_limited_when_told_not_to_wait(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    # Without max_ratelimit_timeout discord.py would sleep the hour the 429 asks for.
    bot.http.max_ratelimit_timeout = 30.0
    channel = bot.get_partial_messageable(world.channel.id)
    board = await channel.send("board")
    emu.age(emu.message(board.id), seconds=OLD_MESSAGE_AGE)
    for i in range(5):
        await board.edit(content=f"turn {i}")
    with pytest.raises(discord.RateLimited) as raised:
        await board.edit(content="turn 5")
    assert raised.value.retry_after > 3500
    assert emu.message(board.id).content == "turn 4"
    assert [r.rate_limit for r in emu.rate_limited] == ["old-message-edits"]


async def test_interaction_webhooks_are_limited_per_token_and_discord_py_keeps_to_it(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    fast = await emu.slash(world.alice, world.channel, "ping")
    await fast.response()
    webhook = discord.Webhook.partial(emu.application_id, fast.payload["token"], client=bot)
    sent = [await webhook.send(f"followup {i}", wait=True) for i in range(7)]
    assert [m.content for m in sent] == [f"followup {i}" for i in range(7)]
    assert not emu.rate_limited  # it read Remaining 0 and Reset-After, and waited

    emu.clock.scale = 1.0  # Discord's own 2 s window, for the windows opened from now on
    slow = await emu.slash(world.alice, world.channel, "ping")
    await slow.response()
    path = f"{emu.api_base}/webhooks/{emu.application_id}/{slow.payload['token']}?wait=true"
    async with aiohttp.ClientSession() as session:
        statuses = []
        for i in range(6):
            async with session.post(path, json={"content": f"raw {i}"}) as response:
                statuses.append(response.status)
                headers = response.headers
    assert statuses == [200] * 5 + [429]
    assert headers["X-RateLimit-Limit"] == "5" and headers["Via"] == "1.1 google"
    assert 1.5 < float(headers["X-RateLimit-Reset-After"]) <= 2.0
    assert [r.rate_limit for r in emu.rate_limited] == ["webhook-create"]
    emu.rate_limited.clear()


# --- invalid requests ---------------------------------------------------------------------------


async def test_too_many_invalid_requests_ban_the_bot_for_a_while(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    """401, 403 and 429 answers count (a shared 429 aside); at the limit every request, interaction
    answers too, gets Cloudflare's 429: no `Via`, no JSON, which discord.py raises as a ban."""
    emu.close_dms(world.bob)
    emu.limiter.invalid_limit = Limit(3, INVALID_REQUESTS.window)
    dm = await bot.create_dm(discord.Object(world.bob.id))
    for _ in range(2):
        with pytest.raises(discord.Forbidden):
            await dm.send("hello")
    assert emu.limiter.banned() is None
    async with aiohttp.ClientSession() as session:  # a wrong token: 401, the third
        async with session.get(emu.api_base + "/users/@me", headers={"Authorization": "Bot x"}) as r:
            assert r.status == 401
        async with session.get(emu.api_base + "/users/@me") as r:
            assert r.status == 429 and "Via" not in r.headers and await r.text() == "error code: 1015"
        async with session.post(emu.api_base + "/interactions/1/x/callback", json={"type": 1}) as r:
            assert r.status == 429  # the address is banned, whatever it asks
    with pytest.raises(discord.HTTPException) as banned:
        await bot.fetch_user(world.alice.id)
    assert banned.value.status == 429
    emu.clock.advance(INVALID_REQUESTS.window)
    assert (await bot.fetch_user(world.alice.id)).id == world.alice.id
