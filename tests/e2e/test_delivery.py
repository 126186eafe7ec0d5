"""The outbox through the emulator: a post is made once even when the bot dies between sending it
and recording it; one game's posts keep their order through a failed post, without holding up other
games; commands answer before anything slow is posted; score announcements take the same road."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.chat.messages import Outgoing, from_json
from bot.db.models import GameResult
from bot.scores.cache import bump_generation
from cogs.pick.adapter import PickAdapter
from rules.pick.procedure import start
from tests.e2e.conftest import PROCESS_ENV, Muster
from tests.e2e.killteam_driver import mission_bid_menu, seal_by_menu
from tests.e2e.test_scores import announced, rows, service, slash
from tests.emulator import Channel, DefaultWorld, Emulator, Message, User, start_bot_process

ROOT = Path(__file__).resolve().parents[2]
ARGV = [sys.executable, "-m", "bot.cli", "run"]


# ---------------------------------------------------------------- a kill between a send and its record


def outbox(db_path: Path) -> list[tuple[int, Outgoing, bool]]:
    """The bot's outbox, read straight from its SQLite file: (id, message, delivered)."""
    with sqlite3.connect(db_path) as db:
        found = db.execute("SELECT id, payload, delivered_at FROM outbox ORDER BY id").fetchall()
    return [(rid, from_json(payload), at is not None) for rid, payload, at in found]


def all_delivered(db_path: Path) -> bool:
    rows = outbox(db_path)
    return bool(rows) and all(done for _id, _message, done in rows)


def posted(emu: Emulator, channel: Channel, users: list[User]) -> list[Message]:
    """Every message the bot posted (not an interaction's answer) in the channel and in the users'
    DMs, oldest first."""
    messages = [m for c in (channel, *emu.threads(channel)) for m in emu.messages(c)]
    for user in users:
        messages.extend(emu.dms(user))
    return sorted((m for m in messages if m.interaction_id is None), key=lambda m: m.id)


def assert_each_row_posted_once_in_order(emu: Emulator, db_path: Path, world: DefaultWorld) -> None:
    """Row by row, oldest first, the next message made is that row's (a keyed row seen before is an
    edit and makes none, nor does a row that only edits, nor one shown as its command's answer),
    where it belongs, and no message is left over."""
    users = {u.id: u for u in (world.alice, world.bob, world.carol)}
    messages = iter(posted(emu, world.channel, list(users.values())))
    threads = emu.threads(world.channel)
    table = threads[0].id if threads else world.channel.id  # where the game's own rows go
    keys: set[str] = set()
    for rid, message, _done in outbox(db_path):
        if message.key is not None:
            if message.key in keys or message.edit_only:
                continue
            keys.add(message.key)
        if message.answer is not None:  # shown as its command's answer (a start card), never posted
            answer = message.answer.interaction_id
            assert [m.interaction_id for m in emu.messages(world.channel)].count(answer) == 1, rid
            continue
        made = next(messages, None)
        assert made is not None, f"outbox row {rid} was never posted"
        where = (
            emu.dm_channel(users[message.user_id]).id
            if message.to == "dm" and message.user_id is not None
            else message.channel_id or table
        )
        assert made.channel.id == where, f"outbox row {rid} posted in the wrong place"
        first = made.history[0] if made.history else made.snapshot()  # as posted, before any edit
        expected = message.content
        if message.to == "dm":  # a DM written before the game's thread was opened names it once sent
            expected = expected.replace(f"<#{world.channel.id}>", f"<#{table}>")
        assert first.content == expected, f"outbox row {rid}: {first.content!r}"
        assert [e.get("description") for e in first.embeds] == [e.description for e in message.embeds]
    assert next(messages, None) is None, "a message was posted that no outbox row accounts for"


def posts_to(emu: Emulator, channel: Channel) -> list[Any]:
    return emu.requests_to("POST", rf"/channels/{channel.id}/messages")


@pytest.mark.parametrize("taken_over_by", ["the same process restarted", "another process"])
async def test_killed_between_posting_the_reveal_and_recording_it_the_reveal_is_posted_once(
    emu: Emulator, world: DefaultWorld, tmp_path: Path, taken_over_by: str
) -> None:
    """The dead process's lane is taken back at once by the same process restarted, or by another
    process (another owner) once its lease has run out; either way the reveal is sent again with
    its nonce, and Discord answers with the message it already made."""
    db_path = tmp_path / "reveal.sqlite3"
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{db_path}",
        "LOG_FORMAT": "text",
        "MUSTER_OUTBOX_LEASE_SECONDS": "2",
        **PROCESS_ENV,
    }
    process = await start_bot_process(ARGV, emu, env=env, cwd=ROOT)
    try:
        await emu.wait_commands_synced(["killteam"], timeout=20)
        started = await emu.slash(
            world.alice,
            world.channel,
            "killteam start",
            opponent=world.bob,
            mission_method="bid",
            tacops_method="free",
        )
        assert not (await started.response(timeout=3)).ephemeral  # the start card
        alice_bid = await emu.wait_until(lambda: mission_bid_menu(emu, world.alice), 10, "alice's prompt")
        bob_bid = await emu.wait_until(lambda: mission_bid_menu(emu, world.bob), 10, "bob's prompt")
        await seal_by_menu(emu, world.alice, alice_bid, 3)
        [thread] = emu.threads(world.channel)  # where the game is played
        await emu.wait_until(
            lambda: "sealed" in emu.messages(thread)[0].all_text() and all_delivered(db_path),
            10,
            "alice's seal to be shown on the board",
        )
        # The next post in the thread (the reveal) is stored by Discord, but its answer never comes.
        held = emu.inject("POST", rf"/channels/{thread.id}/messages", status=None, delay_after=60)
        await seal_by_menu(emu, world.bob, bob_bid, 1)
        await emu.wait_until(lambda: held.hits == 1 and posts_to(emu, thread)[-1].status == 0, 10)
        reveal, nonce = emu.last_message(thread), posts_to(emu, thread)[-1].json["nonce"]
        assert "Revealed" in reveal.all_text()
    finally:
        process.process.kill()  # dies between the send and its record
        await process.process.wait()
    assert not all_delivered(db_path)  # the reveal's row still says it is owed

    # Another owner (its own shard settings) that looks at the outbox every second.
    other = {"MUSTER_SHARD_IDS": "0", "MUSTER_SHARD_COUNT": "1", "SWEEP_SECONDS": "1"}
    again = await start_bot_process(
        ARGV, emu, env={**env, **other} if taken_over_by == "another process" else env, cwd=ROOT
    )
    try:
        await emu.wait_until(lambda: all_delivered(db_path), 10, "the outbox after the restart")
    finally:
        assert await again.stop() == 0, again.output()
    first, again_sent = [r for r in posts_to(emu, thread) if r.json["nonce"] == nonce]
    assert first.status == 0  # never answered: the bot died waiting
    assert again_sent.response["id"] == str(reveal.id)  # sent again, answered with the message made
    assert [m.id for m in emu.messages(thread) if "/verify" in m.all_text()] == [reveal.id]
    assert_each_row_posted_once_in_order(emu, db_path, world)
    for request in emu.requests_to("POST", r"/channels/\d+/messages"):
        assert request.json["enforce_nonce"] is True and len(request.json["nonce"]) <= 25


async def test_killed_between_posting_a_scoreboard_and_remembering_it_the_board_is_kept(
    emu: Emulator, world: DefaultWorld, tmp_path: Path
) -> None:
    db_path = tmp_path / "board.sqlite3"
    env = {"DATABASE_URL": f"sqlite+aiosqlite:///{db_path}", "LOG_FORMAT": "text", **PROCESS_ENV}
    process = await start_bot_process(ARGV, emu, env=env, cwd=ROOT)
    try:
        await emu.wait_commands_synced(["40k"], timeout=20)
        # The game's first post in its thread is its board (edited in place afterwards); hold its
        # answer (the start card in the channel goes through: the thread is opened from it).
        held = emu.inject(
            "POST", rf"/channels/(?!{world.channel.id}/)\d+/messages", status=None, delay_after=60
        )
        started = await emu.slash(world.alice, world.channel, "40k start", opponent=world.bob)
        assert not (await started.response(timeout=3)).ephemeral  # the start card
        await emu.wait_until(lambda: held.hits == 1 and emu.threads(world.channel), 10, "the thread")
        [thread] = emu.threads(world.channel)
        await emu.wait_until(lambda: emu.messages(thread), 10, "the board")
        [board] = emu.messages(thread)
    finally:
        process.process.kill()
        await process.process.wait()

    again = await start_bot_process(ARGV, emu, env=env, cwd=ROOT)
    try:
        await emu.wait_until(
            lambda: all_delivered(db_path), 10, "the outbox to be delivered after the restart"
        )
        # The question rides on the board, the message kept; the post after it pings the players.
        [step] = [
            m
            for m in emu.messages(thread)
            if any(b.get("label") == "Roll off for deployment" for b in m.buttons())
        ]
        assert step.id == board.id and emu.last_message(thread).id != board.id
        owed = len(outbox(db_path))
        clicked = await emu.click(world.bob, step, label="Roll off for deployment")
        answered = (await clicked.response(timeout=3)).message
        assert answered is not None and answered.id == board.id  # answered by redrawing the board
        await emu.wait_until(
            lambda: len(outbox(db_path)) > owed and all_delivered(db_path), 10, "the step's messages"
        )
    finally:
        assert await again.stop() == 0, again.output()
    title = board.history[0].embeds[0].get("title")
    boards = [m for m in emu.messages(thread) if m.embeds and m.embeds[0].get("title") == title]
    assert boards == [board]  # the resend gave back the same message, remembered and edited since
    assert_each_row_posted_once_in_order(emu, db_path, world)


# ---------------------------------------------------------------- order through a failed post


async def toy_game(muster: Muster, channel: Channel, a: User, b: User) -> str:
    assert muster.bot is not None
    opened = await muster.bot.sessions.open(
        guild_id=muster.world.guild.id,
        channel_id=channel.id,
        organiser_id=a.id,
        system="pick",
        build=lambda sid, roller: start(sid, [a.id, b.id], roller),
    )
    await muster.settle()
    return opened.info.id


async def with_pick_game(muster: Muster) -> str:
    """The toy Pick game registered (the bot restarted with it), and one open between Alice and Bob
    in the server's channel: its session id."""
    muster.extra_adapters.append(PickAdapter())
    await muster.restart()
    return await toy_game(muster, muster.world.channel, muster.world.alice, muster.world.bob)


def pick_prompt(muster: Muster, user: User, sid: str) -> Message:
    """The Pick game's latest prompt with buttons in `user`'s DMs."""
    return [m for m in muster.emu.dms(user) if m.buttons() and f":{sid}:" in str(m.buttons()[0])][-1]


async def pick(muster: Muster, user: User, sid: str, value: int) -> None:
    prompt = pick_prompt(muster, user, sid)
    answer = await (await muster.emu.click(user, prompt, label=str(value))).response()
    # answered by redrawing the prompt clicked ("✅" and the pick sealed); apart, when the game's
    # messages are not rendered the usual way (bot/play/in_place.py)
    if answer.type_name == "UPDATE_MESSAGE":
        assert answer.message is not None and answer.message.id == prompt.id
        assert "✅" in answer.message.all_text()
    else:
        assert answer.ephemeral


def lines(emu: Emulator, channel: Channel) -> list[str]:
    """What the channel showed, in order: each post, then each edit of it (the board's latest line),
    by its first words (an embed's title when it says nothing else)."""
    shown = []
    for message in emu.messages(channel):
        for version in [*message.history, message.snapshot()]:
            embed = version.embeds[0] if version.embeds else {}
            latest = next((f["value"] for f in embed.get("fields", []) if f["name"] == "Latest"), "")
            text = latest or version.content or str(embed.get("title"))
            shown.append(text.split("`")[0].split(":")[0].strip())
    return shown


async def test_a_503_on_one_edit_keeps_that_games_order(muster: Muster) -> None:
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world
    failed = emu.inject("PATCH", rf"/channels/{w.channel.id}/messages/\d+", status=503, count=1)
    await pick(
        muster, w.alice, sid, 3
    )  # the board's "alice has sealed" gets the 503 (not retried by discord.py)
    await pick(muster, w.bob, sid, 1)
    await muster.settle()  # the held-back rows don't keep the worker busy
    assert failed.hits == 1
    assert lines(emu, w.channel) == ["Pick"]  # nothing after the failed edit went ahead of it
    await emu.wait_until(lambda: "Revealed" in emu.messages(w.channel)[0].embed_text(), 10, "the reveal")
    await muster.announced()
    assert lines(emu, w.channel) == [
        "Pick",
        # alice's seal was a board edit the next one supersedes: only the newest board is sent
        f"<@{w.bob.id}> has sealed their pick",  # and the reveal, in the same edit
        "Pick result",  # the result's announcement waits behind the game's own messages
    ]


async def test_a_game_held_back_by_a_failing_edit_does_not_hold_back_another(muster: Muster) -> None:
    muster.extra_adapters.append(PickAdapter())
    await muster.restart()
    emu, w = muster.emu, muster.world
    hall = emu.add_channel(w.guild, "hall")
    first = await toy_game(muster, w.channel, w.alice, w.bob)
    second = await toy_game(muster, hall, w.carol, w.bob)
    failing = emu.inject("PATCH", rf"/channels/{w.channel.id}/messages/\d+", status=503, count=None)
    await pick(muster, w.alice, first, 2)
    await pick(muster, w.carol, second, 2)
    await muster.settle()
    assert lines(emu, hall) == ["Pick", f"<@{w.carol.id}> has sealed their pick"]
    assert lines(emu, w.channel) == ["Pick"]
    failing.count = failing.hits  # Discord is back
    await emu.wait_until(lambda: bool(emu.messages(w.channel)[0].history), 10, "the first game's seal")
    assert lines(emu, w.channel) == ["Pick", f"<@{w.alice.id}> has sealed their pick"]


# ---------------------------------------------------------------- answering first


async def test_a_slow_dm_does_not_stop_scores_record_answering_in_time(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    dm = emu.dm_channel(w.bob)
    slow = emu.inject("POST", rf"/channels/{dm.id}/messages", status=429, retry_after=3.5)
    rec = await emu.slash(
        w.alice, w.channel, "scores record", opponent=w.bob, system="warcry", my_score=5, their_score=3
    )
    answer = await rec.response(timeout=3)  # the emulator refuses an answer after Discord's 3 s
    assert answer.ephemeral and "pending" in answer.content and "by DM" in answer.content
    [row] = await rows(muster)
    assert row.status == "pending"
    prompt = await emu.wait_for_message(w.channel, lambda m: "please confirm" in m.content, after=rec)
    assert prompt.button(label="Confirm")
    await emu.wait_for_dm(w.bob, after=rec, timeout=10)
    await muster.settle()
    assert slow.hits == 1 and len(emu.dms(w.bob)) == 1
    assert len(await rows(muster)) == 1


async def test_season_given_as_a_superscript_digit_is_refused_politely(muster: Muster) -> None:
    w = muster.world
    await slash(muster, w.carol, "scores season start", name="Spring")
    for command in ("scores leaderboard", "scores export"):
        answer = await slash(muster, w.alice, command, season="²")
        assert answer.ephemeral and "no season called **²**" in answer.content, (command, answer.text())


# ---------------------------------------------------------------- announcements through the outbox


async def confirmed_result(muster: Muster) -> GameResult:
    """A result confirmed but not yet announced, as a confirm click leaves it."""
    w = muster.world
    async with service(muster).store.write() as db:
        row = GameResult(
            guild_id=w.guild.id,
            channel_id=w.channel.id,
            system="warcry",
            player_a=w.alice.id,
            player_b=w.bob.id,
            score_a=7,
            score_b=2,
            winner_id=w.alice.id,
            status="confirmed",
            announced=False,
            reported_by=w.alice.id,
        )
        db.add(row)
        await bump_generation(db, w.guild.id)
    service(muster).kick()
    return row


async def test_an_announcement_that_fails_once_is_retried_and_posted_once(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    results = emu.add_channel(w.guild, "results")
    await slash(muster, w.carol, "settings results-channel", channel=results)
    failed = emu.inject("POST", rf"/channels/{results.id}/messages", status=503, count=1)
    row = await confirmed_result(muster)
    await announced(muster)
    assert failed.hits == 1 and (await rows(muster))[0].announced
    await emu.wait_until(lambda: emu.messages(results), 10, "the announcement")
    await muster.settle()
    [post] = emu.messages(results)
    assert f"Result #{row.id}" in post.embed_text() and post.embeds[0].get("timestamp")


async def test_when_no_channel_takes_an_announcement_the_organiser_gets_it_by_dm(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    results = emu.add_channel(w.guild, "results")
    await slash(muster, w.carol, "settings results-channel", channel=results)
    emu.deny_bot(results, "send_messages")
    emu.deny_bot(w.channel, "send_messages")
    row = await confirmed_result(muster)
    await announced(muster)
    [told] = emu.dms(w.alice)
    assert f"I couldn't announce result #{row.id} in <#{results.id}>" in told.content
    assert f"Result #{row.id}" in told.embed_text()
    assert not emu.messages(results) and not emu.messages(w.channel)


async def test_a_dm_channel_is_opened_once_per_player_even_past_discord_pys_own_128(muster: Muster) -> None:
    """discord.py remembers the last 128 DM channels; the bot remembers thousands, so a process
    DMing a few hundred players does not ask Discord for each player's channel before every DM."""
    emu = muster.emu
    assert muster.bot is not None
    players = [emu.add_user(f"player{i}") for i in range(140)]
    for player in players:  # Discord lets a bot DM only users it shares a server with
        emu.add_member(muster.world.guild, player)
    opened = len(emu.requests_to("POST", r"/users/@me/channels"))
    notes = [Outgoing(to="dm", user_id=p.id, content="first note") for p in players]
    await muster.bot.sessions.queue(None, notes)
    # 280 requests: about 2.5 s alone, and once over the usual 10 s wait in the whole suite on a
    # loaded machine. This test is about how often a channel is opened, not how fast.
    await muster.bot.delivery.idle(limit=60.0)
    await announced(muster)
    first = players[:10]  # the first DMed: past discord.py's 128 since
    await muster.bot.sessions.queue(None, [Outgoing(to="dm", user_id=p.id, content="again") for p in first])
    await announced(muster)
    got = {p.name: [m.content for m in emu.dms(p)] for p in players}
    assert all(got[p.name] == ["first note", "again"] for p in first), got
    assert len(emu.requests_to("POST", r"/users/@me/channels")) - opened == len(players)
