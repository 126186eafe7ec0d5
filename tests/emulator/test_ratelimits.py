"""The emulator's rate limits: the headers and 429s Discord sends, seen raw over aiohttp, and the
real discord.py client planning by them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from . import Emulator, Message
from .ratelimits import (
    CHANNEL_RENAMES,
    GLOBAL,
    MESSAGE_CREATES,
    MESSAGE_EDITS,
    OLD_MESSAGE_AGE,
    OLD_MESSAGE_TEXT,
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
