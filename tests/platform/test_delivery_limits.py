"""The outbox under Discord's rate limits, against a stand-in for discord.py: a long wait raises
instead of sleeping, a lane that waits holds up neither other lanes nor the next pass, an edit that
must wait gives way to the posts behind it, a backlog of edits of one message sends only the
newest, and an old board is posted afresh with the old one pointing to it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from aiohttp import web
from sqlalchemy import select

from bot.app import never_sleep_long
from bot.chat import delivery as delivery_module
from bot.chat import sending
from bot.chat.delivery import Delivery
from bot.chat.limits import OLD_MESSAGE_AGE, RATE_LIMIT_WAIT, RENEW_AGE
from bot.chat.messages import Embed, Outgoing, to_json
from bot.db.models import OutboxMessage, SessionMessage, utcnow
from bot.db.store import Store
from bot.migrate import upgrade

GAME = "aaaaaaaaaaaa"
OTHER = "bbbbbbbbbbbb"
TABLE = 111111111111111111
HALL = 222222222222222222
HOUR = 3600.0


class FakeDiscord:
    """What the delivery asks of discord.py: posts and edits, recorded; a test refuses edits of
    some messages for an hour, or holds every request to one channel as a paced bucket would."""

    def __init__(self) -> None:
        self.log: list[tuple[str, int, int | None, str]] = []  # (what, channel, message, text)
        self.refused: set[int] = set()  # message ids whose edits Discord refuses for an hour
        self.paced: dict[int, asyncio.Event] = {}  # channel -> released when set
        self.nonces: dict[str, FakeMessage] = {}  # as Discord: a repeated nonce gets the same message
        self._sequence = 0

    def new_id(self) -> int:
        self._sequence += 1
        return discord.utils.time_snowflake(discord.utils.utcnow()) + self._sequence

    async def _pace(self, channel_id: int) -> None:
        if channel_id in self.paced:
            await self.paced[channel_id].wait()

    def get_partial_messageable(self, channel_id: int, **_kwargs: Any) -> FakeChannel:
        return FakeChannel(self, channel_id)

    def texts(self, what: str, channel_id: int) -> list[str]:
        return [text for kind, channel, _message, text in self.log if kind == what and channel == channel_id]


def text_of(kwargs: dict[str, Any]) -> str:
    embeds = kwargs.get("embeds") or []
    return kwargs.get("content") or (embeds[0].description if embeds else "") or ""


class FakeChannel:
    def __init__(self, discord_: FakeDiscord, channel_id: int) -> None:
        self.discord, self.id = discord_, channel_id

    async def send(self, *, nonce: str, **kwargs: Any) -> FakeMessage:
        await self.discord._pace(self.id)
        if nonce in self.discord.nonces:
            return self.discord.nonces[nonce]
        made = FakeMessage(self.discord, self.id, self.discord.new_id())
        self.discord.nonces[nonce] = made
        self.discord.log.append(("post", self.id, made.id, text_of(kwargs)))
        return made

    def get_partial_message(self, message_id: int) -> FakeMessage:
        return FakeMessage(self.discord, self.id, message_id)


class FakeMessage:
    def __init__(self, discord_: FakeDiscord, channel_id: int, message_id: int) -> None:
        self.discord, self.channel_id, self.id = discord_, channel_id, message_id

    async def edit(self, **kwargs: Any) -> None:
        await self.discord._pace(self.channel_id)
        if self.id in self.discord.refused:
            raise discord.RateLimited(HOUR)
        self.discord.log.append(("edit", self.channel_id, self.id, text_of(kwargs)))

    async def delete(self) -> None:
        self.discord.log.append(("delete", self.channel_id, self.id, ""))


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    made = Store.from_url(f"sqlite+aiosqlite:///{tmp_path / 'outbox.sqlite3'}")
    await upgrade(made.engine)
    try:
        yield made
    finally:
        await made.close()


@pytest.fixture
def fake() -> FakeDiscord:
    return FakeDiscord()


@pytest.fixture
async def delivery(store: Store, fake: FakeDiscord) -> AsyncIterator[Delivery]:
    made = Delivery(store, fake, sweep_seconds=0.1)  # type: ignore[arg-type]
    await made.start()
    try:
        yield made
    finally:
        await made.stop()


def said(text: str, key: str | None = None, channel_id: int = TABLE, **fields: Any) -> Outgoing:
    return Outgoing(channel_id=channel_id, key=key, embeds=[Embed(description=text)], **fields)


async def queue(store: Store, session_id: str, *messages: Outgoing) -> list[int]:
    async with store.write() as db:
        rows = [OutboxMessage(session_id=session_id, payload=to_json(m)) for m in messages]
        db.add_all(rows)
    return [row.id for row in rows]


async def known(store: Store, session_id: str, key: str, message_id: int, channel_id: int = TABLE) -> None:
    async with store.write() as db:
        db.add(SessionMessage(session_id=session_id, key=key, channel_id=channel_id, message_id=message_id))


async def rows(store: Store) -> dict[int, OutboxMessage]:
    async with store.read() as db:
        return {row.id: row for row in (await db.scalars(select(OutboxMessage))).all()}


async def until(check: Callable[[], bool], seconds: float = 3.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not in time"
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------- discord.py raises, never sleeps long


@pytest.fixture
async def refusing_api() -> AsyncIterator[str]:
    """A REST API that answers every edit as Discord answers the sixth edit within an hour of a
    message older than an hour."""

    async def refuse(_request: web.Request) -> web.Response:
        body = {"code": 30046, "message": "Maximum number of edits ...", "retry_after": HOUR, "global": False}
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(int(HOUR)),
            "X-RateLimit-Scope": "user",
            "Content-Type": "application/json",  # exactly: with a charset discord.py reads text
        }
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)

    app = web.Application()
    app.router.add_patch("/api/v10/channels/{channel}/messages/{message}", refuse)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield f"http://127.0.0.1:{port}/api/v10"
    finally:
        await runner.cleanup()


async def test_a_wait_longer_than_the_limit_raises_at_once_instead_of_sleeping(refusing_api: str) -> None:
    base = discord.http.Route.BASE
    discord.http.Route.BASE = refusing_api
    client = discord.Client(intents=discord.Intents.none(), max_ratelimit_timeout=RATE_LIMIT_WAIT)
    never_sleep_long(client.http)
    try:
        await client.http.static_login("token")  # type: ignore[no-untyped-call]
    except discord.HTTPException:
        pass  # no /users/@me here: only the session it opens matters
    started = time.monotonic()
    try:
        with pytest.raises(discord.RateLimited) as raised:
            route = discord.http.Route(
                "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=TABLE, message_id=1
            )
            await client.http.request(route, json={"content": "x"})
    finally:
        await client.close()
        discord.http.Route.BASE = base
    assert raised.value.retry_after == HOUR
    assert time.monotonic() - started < 1.0
    assert client.http.max_ratelimit_timeout == RATE_LIMIT_WAIT < 30  # below discord.py's own floor


# ---------------------------------------------------------------- lanes give way


async def test_a_paced_lane_holds_up_neither_other_lanes_nor_the_next_pass(
    store: Store, fake: FakeDiscord, delivery: Delivery
) -> None:
    fake.paced[TABLE] = asyncio.Event()  # every request to this game's table waits, as on a busy bucket
    await queue(store, GAME, said("game one"))
    await queue(store, OTHER, said("game two", channel_id=HALL))
    delivery.kick()
    await until(lambda: fake.texts("post", HALL) == ["game two"])
    await queue(store, OTHER, said("game two, later", channel_id=HALL))
    delivery.kick()  # the next pass runs while the first game's lane still waits
    await until(lambda: fake.texts("post", HALL) == ["game two", "game two, later"])
    assert fake.texts("post", TABLE) == []
    fake.paced[TABLE].set()
    await delivery.idle()
    assert fake.texts("post", TABLE) == ["game one"]


async def test_an_edit_refused_for_an_hour_gives_way_to_the_posts_behind_it(
    store: Store, fake: FakeDiscord, delivery: Delivery
) -> None:
    question = fake.new_id()
    await known(store, GAME, "ask.deploy", question)
    fake.refused.add(question)
    edit, first, closing, second = await queue(
        store,
        GAME,
        said("deploy: changed", key="ask.deploy"),
        said("a reveal"),
        Outgoing(channel_id=TABLE, key="ask.deploy", edit_only=True, keep_embeds=True, content="done"),
        said("the next question"),
    )
    await delivery.idle()
    assert fake.texts("post", TABLE) == ["a reveal", "the next question"]  # in order, not held back
    assert fake.texts("edit", TABLE) == []
    found = await rows(store)
    assert found[first].delivered_at is not None and found[second].delivered_at is not None
    waiting = found[edit]
    assert waiting.delivered_at is None and waiting.gives_way and waiting.attempts == 0
    assert waiting.next_attempt_at is not None
    assert waiting.next_attempt_at - utcnow() > timedelta(seconds=HOUR - 60)
    # The close only changes the content: it waits with the edit before it, to go after it.
    assert found[closing].gives_way and found[closing].next_attempt_at == waiting.next_attempt_at

    # A newer whole edit of the question makes both moot; Discord takes edits again.
    fake.refused.clear()
    [newest] = await queue(store, GAME, said("deploy: newest", key="ask.deploy"))
    await delivery.idle()
    assert fake.texts("edit", TABLE) == ["deploy: newest"]
    found = await rows(store)
    assert all(found[r].delivered_at is not None for r in (edit, closing, newest))
    assert found[edit].last_error == "superseded" and found[closing].last_error == "superseded"


async def test_of_several_queued_edits_of_one_message_only_the_newest_is_sent(
    store: Store, fake: FakeDiscord, delivery: Delivery
) -> None:
    board = fake.new_id()
    await known(store, GAME, "board", board)
    await queue(store, GAME, *(said(f"board {n}", key="board") for n in range(1, 6)), said("a post"))
    await delivery.idle()
    assert fake.texts("edit", TABLE) == ["board 5"]
    assert fake.texts("post", TABLE) == ["a post"]


async def test_an_edit_that_shows_what_the_message_shows_is_not_sent(
    store: Store, fake: FakeDiscord, delivery: Delivery
) -> None:
    """A redraw that changes nothing spends none of the channel's edits; a change is sent again."""
    await queue(store, GAME, said("board 1", key="board"))
    await delivery.idle()
    await queue(store, GAME, said("board 1", key="board"), said("a post"))
    await delivery.idle()
    await queue(store, GAME, said("board 2", key="board"))
    await delivery.idle()
    await queue(store, GAME, said("board 2", key="board"))
    await delivery.idle()
    assert fake.texts("post", TABLE) == ["board 1", "a post"]
    assert fake.texts("edit", TABLE) == ["board 2"]


async def test_the_first_post_of_a_keyed_message_is_never_superseded(
    store: Store, fake: FakeDiscord, delivery: Delivery
) -> None:
    """Unknown yet, the first board is a post in its place (before the question), not an edit."""
    await queue(store, GAME, said("board 1", key="board"), said("question"), said("board 2", key="board"))
    await delivery.idle()
    assert fake.texts("post", TABLE) == ["board 1", "question"]
    assert fake.texts("edit", TABLE) == ["board 2"]


# ---------------------------------------------------------------- an old board is renewed


async def test_a_board_refused_for_an_hour_is_posted_afresh_and_the_old_one_removed(
    store: Store, fake: FakeDiscord, delivery: Delivery
) -> None:
    old = fake.new_id()
    await known(store, GAME, "board", old)
    fake.refused.add(old)  # its edits are spent (30046): the pointer is refused too
    await queue(store, GAME, said("board now", key="board", renew_when_old=True), said("a post"))
    await delivery.idle()
    [(_post, _channel, new, _text), *_rest] = [entry for entry in fake.log if entry[0] == "post"]
    assert fake.texts("post", TABLE) == ["board now", "a post"]
    assert ("delete", TABLE, old, "") in fake.log
    async with store.read() as db:
        assert (await db.get(SessionMessage, (GAME, "board"))).message_id == new  # type: ignore[union-attr]
    await queue(store, GAME, said("board later", key="board", renew_when_old=True))
    await delivery.idle()
    assert ("edit", TABLE, new, "board later") in fake.log


async def test_a_board_near_an_hour_old_is_posted_afresh_and_the_old_one_points_to_it(
    store: Store, fake: FakeDiscord, delivery: Delivery, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = fake.new_id()
    await known(store, GAME, "board", old)
    monkeypatch.setattr(sending, "age_of", lambda m: RENEW_AGE if m == old else 0.0)
    await queue(store, GAME, said("board now", key="board", renew_when_old=True))
    await delivery.idle()
    [new] = [message for what, _c, message, _t in fake.log if what == "post"]
    assert fake.log[-1] == (
        "edit",
        TABLE,
        old,
        f"This board has moved: https://discord.com/channels/@me/{TABLE}/{new}",
    )
    async with store.read() as db:
        assert (await db.get(SessionMessage, (GAME, "board"))).message_id == new  # type: ignore[union-attr]


def test_a_board_renews_before_its_edits_are_limited() -> None:
    assert RENEW_AGE <= OLD_MESSAGE_AGE - 5 * 60  # room for the pointer's edit while it is young


async def test_a_fresh_board_posted_before_a_crash_is_the_one_remembered_after_it(
    store: Store, fake: FakeDiscord, delivery: Delivery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies between posting the fresh board and recording it: the row is sent again,
    with the same nonce, and Discord's answer is the board already made, remembered then."""
    old = fake.new_id()
    await known(store, GAME, "board", old)
    monkeypatch.setattr(sending, "age_of", lambda m: RENEW_AGE if m == old else 0.0)
    recorded = delivery_module.record
    crashes = []

    def crash_once(*args: Any) -> None:
        if not crashes:
            crashes.append(True)
            raise RuntimeError("the process dies before it records")
        recorded(*args)

    monkeypatch.setattr(delivery_module, "record", crash_once)
    [row] = await queue(store, GAME, said("board now", key="board", renew_when_old=True))
    delivery.kick()
    await until(lambda: bool(crashes))
    await until(lambda: len([e for e in fake.log if e[0] == "edit"]) == 2)  # the pointer, made twice
    await delivery.idle()
    [(_what, _channel, new, _text)] = [entry for entry in fake.log if entry[0] == "post"]
    async with store.read() as db:
        assert (await db.get(SessionMessage, (GAME, "board"))).message_id == new  # type: ignore[union-attr]
    assert (await rows(store))[row].delivered_at is not None
