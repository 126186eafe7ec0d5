"""The emulator proves itself against the real discord.py client (the ping bot, not Muster)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
import time
from pathlib import Path

import aiohttp
import discord
import pytest

from . import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    CommandNotFound,
    DefaultWorld,
    Emulator,
    InteractionFailed,
    NotAllowed,
    OptionError,
    capture_errors,
    discord_globals_restored,
    run_bot,
    start_bot_process,
)
from .harness import ErrorRecords
from .model import (
    FLAG_EPHEMERAL,
    FLAG_HAS_THREAD,
    GUILD_FORUM,
    GUILD_VOICE,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    RECIPIENT_ADD,
    THREAD_CREATED,
    THREAD_STARTER,
    permissions,
)
from .pingbot import PingBot
from .validation import validate_commands

REPO = Path(__file__).resolve().parents[2]


# --- start-up ----------------------------------------------------------------------------------


async def test_start_up_registers_commands_from_the_real_client(emu: Emulator, bot: PingBot) -> None:
    paths = [(r.method, r.path) for r in emu.requests]
    assert ("GET", "/users/@me") in paths
    assert ("GET", "/oauth2/applications/@me") in paths
    assert ("GET", "/gateway/bot") in paths
    assert len(emu.sync_requests()) == 1

    names = {c["name"] for c in emu.commands.all()}
    assert {"ping", "secret", "panel", "dm", "feedback", "game", "admin"} <= names
    game = emu.commands.find("game", 1, None)
    assert game is not None
    start = next(o for o in game["options"] if o["name"] == "start")
    assert start["type"] == 1
    assert [(o["name"], o["type"]) for o in start["options"]] == [("opponent", 6), ("rounds", 4), ("mode", 3)]
    admin = emu.commands.find("admin", 1, None)
    assert admin is not None and admin["default_member_permissions"] == str(
        discord.Permissions(manage_guild=True).value
    )

    assert emu.gateway.identify_count == 1
    assert all(len(str(c["id"])) >= 15 for c in emu.commands.all())
    assert bot.shard_count == 1


async def test_wrong_token_is_refused(emu: Emulator, logged_errors: ErrorRecords) -> None:
    with discord_globals_restored():
        client = PingBot(emu.api_base)
        with pytest.raises(discord.LoginFailure):
            await client.login("bad.token.value")
        await client.close()
    assert emu.requests[-1].status == 401


# --- slash commands ----------------------------------------------------------------------------


async def test_slash_command_answers_within_three_seconds(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    record = await emu.slash(world.alice, world.channel, "ping")
    response = await record.response(timeout=3)

    assert response.type == CHANNEL_MESSAGE
    assert response.content == "pong"
    assert not response.ephemeral
    assert record.latency is not None and record.latency < 3
    assert emu.last_message(world.channel) is response.message
    assert response.message is not None and response.message.interaction_user is world.alice
    assert "member" in record.payload and "user" not in record.payload
    assert record.payload["context"] == 0


async def test_ephemeral_answer_is_seen_only_by_the_invoker(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    response = await (await emu.slash(world.alice, world.channel, "secret")).response()

    assert response.ephemeral and response.flags & FLAG_EPHEMERAL
    assert response.message not in emu.messages(world.channel)
    assert response.message in emu.all_visible_to(world.alice)
    assert "for your eyes only" in emu.text_visible_to(world.alice)
    assert "for your eyes only" not in emu.text_visible_to(world.bob)


async def test_options_are_built_from_the_registered_schema(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    record = await emu.slash(
        world.alice, world.channel, "game start", opponent=world.bob, rounds=4, mode="Bid"
    )
    response = await record.response()

    assert response.content.startswith("Alice vs Bob: 4 rounds, bid")
    resolved = record.payload["data"]["resolved"]
    assert str(world.bob.id) in resolved["users"] and str(world.bob.id) in resolved["members"]

    with pytest.raises(CommandNotFound):
        await emu.slash(world.alice, world.channel, "nosuch")
    with pytest.raises(CommandNotFound):
        await emu.slash(world.alice, world.channel, "game finish")
    with pytest.raises(CommandNotFound):
        await emu.slash(world.alice, world.channel, "game")
    with pytest.raises(OptionError, match="no option"):
        await emu.slash(world.alice, world.channel, "game start", opponent=world.bob, colour="red")
    with pytest.raises(OptionError, match="requires opponent"):
        await emu.slash(world.alice, world.channel, "game start")
    with pytest.raises(OptionError, match="outside"):
        await emu.slash(world.alice, world.channel, "game start", opponent=world.bob, rounds=9)
    with pytest.raises(OptionError, match="choices"):
        await emu.slash(world.alice, world.channel, "game start", opponent=world.bob, mode="guess")


async def test_discord_hides_commands_behind_default_permissions(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    organiser = await (await emu.slash(world.carol, world.channel, "admin")).response()
    assert organiser.content == "admin ok True"
    assert (
        int(organiser.record.payload["member"]["permissions"]) & discord.Permissions(manage_guild=True).value
    )

    with pytest.raises(NotAllowed):
        await emu.slash(world.alice, world.channel, "admin")
    # A stale client can still send it: the bot, not the library, must check.
    forced = await (await emu.slash(world.alice, world.channel, "admin", bypass_checks=True)).response()
    assert forced.content == "admin ok False"


async def test_autocomplete_returns_the_bots_choices(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    record = await emu.autocomplete(
        world.alice, world.channel, "game faction", focused="faction", faction="elv"
    )
    response = await record.response()
    assert [c["name"] for c in response.choices] == ["Elves", "Dark Elves"]


async def test_deferred_response_is_filled_in(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    record = await emu.slash(world.alice, world.channel, "slow")
    assert (await record.response()).type == DEFERRED_CHANNEL_MESSAGE
    message = await record.settled()
    assert message is not None and message.content == "done slowly"
    assert message.embeds[0]["title"] == "Result"
    assert not message.loading
    assert message.history[0].content == ""


# --- components and modals ---------------------------------------------------------------------


async def test_persistent_button_survives_a_restart(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    panel = await (await emu.slash(world.alice, world.channel, "panel")).response()
    assert panel.message is not None
    clicked = await (await emu.click(world.bob, panel.message, label="Count 0")).response()
    assert clicked.type == UPDATE_MESSAGE
    assert panel.message.content == "Count: 1"

    await bot.close()
    with discord_globals_restored():
        restarted = PingBot(emu.api_base, sync=False)
        async with run_bot(restarted, emu):
            again = await (await emu.click(world.alice, panel.message, custom_id="pingbot:count:")).response()
            assert again.type == UPDATE_MESSAGE
            assert panel.message.content == "Count: 2"
            assert panel.message.button(label="Count 2")
    assert len(emu.sync_requests()) == 1
    assert emu.gateway.identify_count == 2


async def test_select_menu(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    prompt = await (await emu.slash(world.alice, world.channel, "pick")).response()
    assert prompt.message is not None
    picked = await (await emu.select(world.bob, prompt.message, "pingbot:pick", ["dwarfs"])).response()
    assert picked.content == "picked dwarfs" and picked.ephemeral
    with pytest.raises(OptionError):
        await emu.select(world.bob, prompt.message, "pingbot:pick", ["goblins"])


async def test_modal_opens_and_submits(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    opened = await (await emu.slash(world.alice, world.channel, "feedback")).response()
    assert opened.type == MODAL and opened.modal is not None
    assert opened.modal.custom_id == "pingbot:feedback"
    assert [f.custom_id for f in opened.modal.fields] == ["feedback:text", "feedback:mood"]

    with pytest.raises(OptionError, match="required"):
        await emu.submit_modal(world.alice, opened.modal, {"feedback:mood": "calm"})
    with pytest.raises(NotAllowed):
        await emu.submit_modal(world.bob, opened.modal, {"feedback:text": "hijack"})

    thanks = await (
        await emu.submit_modal(world.alice, "pingbot:feedback", {"feedback:text": "great"})
    ).response()
    assert thanks.content == "thanks: great (mood none)" and thanks.ephemeral


async def test_attachments_round_trip(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    upload = emu.upload("army.txt", b"orks,1000\n")
    response = await (await emu.slash(world.alice, world.channel, "upload", file=upload)).response()

    assert response.message is not None
    [echo] = response.message.attachments
    assert echo.filename == "echo.csv" and echo.content_type is not None and "csv" in echo.content_type
    assert echo.text().splitlines() == ["name,size", "army.txt,10", "ORKS,1000"]
    assert emu.requests_to("GET", rf"/attachments/\d+/{upload.id}/army.txt")[0].status == 200


async def test_components_v2_context_menus_and_history(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    card = await (await emu.slash(world.alice, world.channel, "card")).response()
    assert card.message is not None and card.message.content == ""
    assert "A face-down card" in card.message.text()
    revealed = await (await emu.click(world.bob, card.message, label="Reveal")).response()
    assert revealed.content == "revealed" and revealed.ephemeral

    greeted = await (await emu.user_command(world.alice, world.channel, "Greet", world.bob)).response()
    assert greeted.content == "hi Bob" and greeted.message is not None
    quoted = await (await emu.message_command(world.bob, "Quote", greeted.message)).response()
    assert quoted.content == "> hi Bob"

    read = await (await emu.slash(world.carol, world.channel, "history")).response()
    assert read.content == "3 messages, oldest ''"  # the card (v2, no content), "hi Bob", the quote


# --- threads -------------------------------------------------------------------------------------


async def test_a_thread_started_from_a_message(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    record = await emu.slash(world.alice, world.channel, "thread", name="Alice vs Bob", player=world.bob)
    card = (await record.response()).message
    assert card is not None
    assert (await record.followup()).content == f"thread {card.id}"

    thread = emu.thread_of(card)
    assert thread is not None and thread.id == card.id  # a thread started from a message takes its id
    assert thread.type == PUBLIC_THREAD and thread.parent_id == world.channel.id
    assert thread.owner_id == emu.bot_user.id and thread.name == "Alice vs Bob"
    assert emu.threads(world.channel) == [thread] and thread.guild_id == world.guild.id
    assert thread.member_ids == [emu.bot_user.id, world.bob.id]
    starter = card.payload()
    assert starter["flags"] & FLAG_HAS_THREAD and starter["thread"]["id"] == str(thread.id)
    assert starter["thread"]["thread_metadata"]["auto_archive_duration"] == 1440
    assert [m.content for m in emu.messages(thread)] == ["welcome Bob"]
    # Discord's own notes open the thread: the message it was started from, then who was added.
    starter, added, _welcome = emu.messages(thread, include_system=True)
    assert starter.type == THREAD_STARTER and starter.content == "" and not starter.embeds
    assert starter.payload()["message_reference"] == {
        "channel_id": str(world.channel.id),
        "guild_id": str(world.guild.id),
        "message_id": str(card.id),
    }
    assert added.type == RECIPIENT_ADD and added.author is emu.bot_user
    assert [u["id"] for u in added.payload()["mentions"]] == [str(world.bob.id)]
    assert card not in emu.messages(thread) and emu.messages(world.channel) == [card]
    events = [e.event for e in emu.gateway.log if e.event and e.event.startswith("THREAD_")]
    assert events == ["THREAD_CREATE"]  # bob joining is news only with the members intent

    live = await emu.wait_until(lambda: bot.get_channel(thread.id), 3, "THREAD_CREATE to reach the bot")
    assert isinstance(live, discord.Thread) and live.parent_id == world.channel.id
    assert live.owner_id == emu.bot_user.id and live.me is not None

    # Posting and editing in the thread work as in a channel; the thread's id is the channel id.
    sent = await live.send("round 1")
    posted = await emu.wait_for_message(thread, after=card)
    assert posted.content == "welcome Bob"
    await sent.edit(content="round 1: go")
    assert emu.last_message(thread).content == "round 1: go"
    assert emu.last_message(thread).history[0].content == "round 1"
    assert thread.payload()["message_count"] == 3  # bob added, welcome, round 1: not the starter

    # Inside the thread: the interaction's channel is the thread, its permissions the parent's.
    inside = await emu.slash(world.bob, thread, "where")
    assert (await inside.response()).content == (f"Thread {thread.id} parent {world.channel.id} threads=True")
    channel = inside.payload["channel"]
    assert inside.payload["channel_id"] == str(thread.id) and inside.payload["guild_id"] == str(
        world.guild.id
    )
    assert channel["type"] == PUBLIC_THREAD and channel["parent_id"] == str(world.channel.id)
    panel = await (await emu.slash(world.alice, thread, "panel")).response()
    assert panel.message is not None and panel.message.channel is thread
    clicked = await (await emu.click(world.carol, panel.message, label="Count 0")).response()
    assert clicked.type == UPDATE_MESSAGE and panel.message.content == "Count: 1"

    # One thread per message: Discord refuses a second (160004).
    text_channel = bot.get_channel(world.channel.id)
    assert isinstance(text_channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as again:
        await text_channel.get_partial_message(card.id).create_thread(name="rematch")
    assert again.value.code == 160004 and emu.threads(world.channel) == [thread]


async def test_a_private_thread_and_thread_members(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    parent = bot.get_channel(world.channel.id)
    assert isinstance(parent, discord.TextChannel)
    made = await parent.create_thread(name="backroom")  # neither message nor type: private, as Discord
    [thread] = emu.threads(world.channel)
    assert made.id == thread.id and thread.type == PRIVATE_THREAD
    assert emu.messages(world.channel) == []  # no "started a thread" notice for a private one
    with pytest.raises(NotAllowed):
        await emu.slash(world.alice, thread, "ping")  # not a member: she cannot see it

    await made.add_user(discord.Object(world.alice.id))
    await made.add_user(discord.Object(world.alice.id))  # idempotent
    assert thread.member_ids == [emu.bot_user.id, world.alice.id]
    assert (await (await emu.slash(world.alice, thread, "ping")).response()).content == "pong"
    members = await made.fetch_members()
    assert sorted(m.id for m in members) == sorted(thread.member_ids)
    await made.remove_user(discord.Object(world.alice.id))  # the owner of a private thread may
    assert thread.member_ids == [emu.bot_user.id]

    stranger = emu.add_user("stranger")
    with pytest.raises(discord.NotFound) as unknown:
        await made.add_user(discord.Object(stranger.id))
    assert unknown.value.code == 10007

    # Without a message or type but asked public: a public thread, noted in its parent (type 18).
    public = await parent.create_thread(name="open table", type=discord.ChannelType.public_thread)
    notice = emu.messages(world.channel, include_system=True)[-1]
    assert notice.type == THREAD_CREATED and notice.content == "open table"
    assert emu.channels[public.id].type == PUBLIC_THREAD

    # A thread a user starts reaches the bot too; the bot is not in it until it posts there.
    chatter = emu.add_thread(world.channel, "chatter", owner=world.carol)
    seen = await emu.wait_until(lambda: bot.get_channel(chatter.id), 3, "the user's thread")
    assert isinstance(seen, discord.Thread) and seen.owner_id == world.carol.id and seen.me is None
    await seen.send("hello")
    assert chatter.member_ids == [world.carol.id, emu.bot_user.id]


async def test_thread_refusals(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    denied = await (await emu.slash(world.alice, world.channel, "thread", name="x" * 101)).followup()
    assert denied.content == "thread refused 50035"  # a name is 1-100 characters
    assert emu.invalid_requests[-1].path.endswith("/threads")
    assert [(v.where, v.json_path) for v in emu.spec_violations] == [("body", "$.name")]  # maxLength 100
    emu.invalid_requests.clear()
    emu.spec_violations.clear()

    emu.deny_bot(world.channel, "create_public_threads")
    refused = await (await emu.slash(world.alice, world.channel, "thread", name="Game")).followup()
    assert refused.content == "thread refused 50013" and emu.threads(world.channel) == []
    emu.allow_bot(world.channel, "create_public_threads")

    forum = emu.add_channel(world.guild, "lfg", type=GUILD_FORUM)
    voice = emu.add_channel(world.guild, "table-talk", type=GUILD_VOICE)
    await emu.wait_until(lambda: bot.get_channel(voice.id), 3, "the voice channel")
    in_voice = await bot.get_partial_messageable(voice.id).send("voice chat")  # voice text chat
    for where, message_id in ((forum, in_voice.id), (voice, in_voice.id)):
        with pytest.raises(discord.HTTPException) as wrong:
            await bot.http.start_thread_with_message(
                where.id, message_id, name="nope", auto_archive_duration=60
            )
        assert wrong.value.status == 400 and wrong.value.code == 50024

    dm = await bot.create_dm(discord.Object(world.alice.id))
    hello = await dm.send("hello")
    with pytest.raises(discord.Forbidden) as in_dm:
        await bot.http.start_thread_with_message(dm.id, hello.id, name="dm", auto_archive_duration=60)
    assert in_dm.value.code == 50003
    with pytest.raises(discord.NotFound) as missing:
        await bot.http.start_thread_with_message(world.channel.id, 1, name="gone", auto_archive_duration=60)
    assert missing.value.code == 10008

    # In a thread "Send Messages in Threads" counts, not "Send Messages".
    text_channel = bot.get_channel(world.channel.id)
    assert isinstance(text_channel, discord.TextChannel)
    card = await text_channel.send("card")
    started = await card.create_thread(name="Game")
    emu.deny_bot(world.channel, "send_messages")
    await started.send("still allowed")
    emu.deny_bot(world.channel, "send_messages_in_threads")
    with pytest.raises(discord.Forbidden) as no_send:
        await started.send("not any more")
    assert no_send.value.code == 50013
    assert [m.content for m in emu.messages(emu.channels[started.id])] == ["still allowed"]
    with pytest.raises(discord.Forbidden):
        await text_channel.edit(name="renamed")  # a channel (not a thread) needs Manage Channels


async def test_threads_archive_and_survive_a_restart(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    record = await emu.slash(world.alice, world.channel, "thread", name="Long game", player=world.alice)
    await record.followup()
    [thread] = emu.threads(world.channel)
    live = await emu.wait_until(lambda: bot.get_channel(thread.id), 3, "the thread")
    assert isinstance(live, discord.Thread)

    await live.edit(archived=True)  # the bot owns it: no Manage Threads needed
    assert thread.archived
    await emu.wait_until(
        lambda: bot.get_channel(thread.id) is None, 3, "the archived thread to leave the cache"
    )
    assert emu.gateway.guild_create(world.guild, 0)["threads"] == []
    with pytest.raises(discord.HTTPException) as archived:
        await live.edit(name="renamed")
    assert archived.value.code == 50083

    await bot.get_partial_messageable(thread.id).send("next turn")  # a post unarchives it
    assert not thread.archived and emu.last_message(thread).content == "next turn"
    await emu.wait_until(lambda: bot.get_channel(thread.id), 3, "THREAD_UPDATE to bring it back")

    with pytest.raises(discord.Forbidden):
        await live.edit(locked=True)  # locking needs Manage Threads

    emu.archive_thread(thread, locked=True)  # a moderator closes it: the bot cannot reopen it
    with pytest.raises(discord.HTTPException) as closed:
        await bot.get_partial_messageable(thread.id).send("too late")
    assert closed.value.code == 50083 and thread.archived
    emu.allow_bot(world.channel, "manage_threads")
    await live.edit(archived=False, locked=False)
    assert not thread.archived and not thread.locked

    await bot.close()
    with discord_globals_restored():
        restarted = PingBot(emu.api_base, sync=False)
        async with run_bot(restarted, emu):
            known = restarted.get_channel(thread.id)  # from GUILD_CREATE's threads
            assert isinstance(known, discord.Thread) and known.parent_id == world.channel.id
            assert known.me is not None
            inside = await (await emu.slash(world.alice, thread, "where")).response()
            assert inside.content.startswith(f"Thread {thread.id} parent {world.channel.id}")


# --- DMs ---------------------------------------------------------------------------------------


async def test_direct_messages_and_closed_dms(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    sent = await (await emu.slash(world.alice, world.channel, "dm")).response()
    assert sent.content == "sent"
    assert [m.content for m in emu.dms(world.alice)] == ["hello Alice"]

    emu.close_dms(world.bob)
    refused = await (await emu.slash(world.alice, world.channel, "dm", user=world.bob)).response()
    assert refused.content == "forbidden 50007"
    assert emu.dms(world.bob) == []
    assert emu.requests_to("POST", r"/channels/\d+/messages")[-1].response["code"] == 50007


async def test_interactions_in_dms_carry_the_user(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    dm = emu.dm_channel(world.alice)
    record = await emu.slash(world.alice, dm, "panel")
    panel = await record.response()
    assert "user" in record.payload and "member" not in record.payload and "guild_id" not in record.payload
    assert record.payload["context"] == 1
    assert panel.message is not None and panel.message.channel is dm

    click = await emu.click(world.alice, panel.message, label="Count 0")
    assert (await click.response()).type == UPDATE_MESSAGE
    with pytest.raises(NotAllowed):
        await emu.click(world.bob, panel.message, label="Count 1")
    with pytest.raises(NotAllowed):
        await emu.slash(world.alice, dm, "admin")


# --- faults ------------------------------------------------------------------------------------


async def test_rate_limit_is_retried(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    fault = emu.inject("POST", r"/channels/\d+/messages", status=429, retry_after=0.05)
    record = await emu.slash(world.alice, world.channel, "announce", text="hear ye")
    done = await record.settled()

    assert done is not None and done.content == "posted" and done.ephemeral
    assert fault.hits == 1
    statuses = [r.status for r in emu.requests_to("POST", r"/channels/\d+/messages")]
    assert statuses == [429, 200]
    assert emu.last_message(world.channel).content == "hear ye"


async def test_a_repeated_enforced_nonce_returns_the_first_message(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    channel = bot.get_partial_messageable(world.channel.id)
    first = await channel.send("once", nonce="row-1")  # discord.py always adds enforce_nonce
    again = await channel.send("once", nonce="row-1")
    assert again.id == first.id
    assert [m.content for m in emu.messages(world.channel)] == ["once"]
    fresh = await channel.send("once")  # discord.py's own random nonce: a new message
    assert fresh.id != first.id

    dm = await bot.create_dm(discord.Object(world.alice.id))
    secret = await dm.send("psst", nonce="row-2")
    assert (await dm.send("psst", nonce="row-2")).id == secret.id
    assert [m.content for m in emu.dms(world.alice)] == ["psst"]

    # Without enforce_nonce Discord does not check the nonce: two messages.
    url = f"{emu.api_base}/channels/{world.channel.id}/messages"
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession() as http:
        for _ in range(2):
            async with http.post(url, json={"content": "loose", "nonce": "row-3"}, headers=headers) as r:
                assert r.status == 200
    assert [m.content for m in emu.messages(world.channel)].count("loose") == 2

    with pytest.raises(discord.HTTPException) as rejected:
        await channel.send("long", nonce="n" * 26)
    assert rejected.value.code == 50035 and "nonce" in str(rejected.value)
    assert [(v.where, v.json_path) for v in emu.spec_violations] == [("body", "$.nonce")]  # maxLength 25
    emu.invalid_requests.clear()
    emu.spec_violations.clear()


async def test_an_answer_can_be_held_after_the_post_took_effect(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    fault = emu.inject("POST", rf"/channels/{world.channel.id}/messages", status=None, delay_after=0.5)
    sending = asyncio.create_task(bot.get_partial_messageable(world.channel.id).send("held"))
    stored = await emu.wait_until(lambda: emu.messages(world.channel), 3, "the post to be stored")
    assert stored[0].content == "held" and not sending.done()  # stored, not yet answered
    sent = await sending
    assert sent.id == stored[0].id and fault.hits == 1


async def test_server_error_is_retried(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    fault = emu.inject("POST", r"/channels/\d+/messages", status=502)
    done = await (await emu.slash(world.alice, world.channel, "announce", text="again")).settled(timeout=5)
    assert done is not None and done.content == "posted"
    assert fault.hits == 1
    assert [r.status for r in emu.requests_to("POST", r"/channels/\d+/messages")] == [502, 200]


async def test_missing_channel_permission_is_forbidden(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    results = emu.add_channel(world.guild, "results")
    emu.deny_bot(results, "send_messages")
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_partial_messageable(results.id).send("result")
    assert refused.value.code == 50013
    record = await emu.slash(world.alice, results, "ping")
    assert not int(record.payload["app_permissions"]) & discord.Permissions(send_messages=True).value
    assert (await record.response()).content == "pong"  # answering an interaction needs no permission


async def test_dropped_gateway_resumes(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    await emu.drop_gateway()
    await emu.wait_ready()
    response = await (await emu.slash(world.alice, world.channel, "ping")).response()
    assert response.content == "pong"
    assert emu.gateway.resume_count == 1 and emu.gateway.identify_count == 1


async def test_invalid_session_identifies_again(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    started = time.perf_counter()
    await emu.invalidate_session()
    await emu.wait_ready(timeout=15)
    assert emu.gateway.identify_count == 2
    assert time.perf_counter() - started >= 4.5  # discord.py waits 5 s before identifying again
    assert (await (await emu.slash(world.alice, world.channel, "ping")).response()).content == "pong"


async def test_late_response_is_rejected(
    emu: Emulator, world: DefaultWorld, bot: PingBot, logged_errors: ErrorRecords
) -> None:
    emu.response_deadline = 0.0
    record = await emu.slash(world.alice, world.channel, "ping")
    with pytest.raises(InteractionFailed, match="10062"):
        await record.response()
    emu.response_deadline = 3.0
    await emu.wait_until(lambda: bot.tree.errors, 3, "the bot to see the failure")
    assert isinstance(bot.tree.errors[0].__cause__, discord.NotFound)
    bot.tree.errors.clear()
    logged_errors.records.clear()


async def test_unknown_endpoint_is_recorded(emu: Emulator, bot: PingBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.fetch_premium_sticker_packs()
    assert [r.path for r in emu.unknown_requests] == ["/sticker-packs"]
    emu.unknown_requests.clear()


async def test_discord_limits_are_enforced(emu: Emulator, world: DefaultWorld, bot: PingBot) -> None:
    with pytest.raises(discord.HTTPException) as rejected:
        await bot.get_partial_messageable(world.channel.id).send("x" * 2001)
    assert rejected.value.code == 50035 and "content" in str(rejected.value)
    assert len(emu.invalid_requests) == 1
    emu.invalid_requests.clear()


async def test_the_bots_servers_members_and_roles_over_rest(emu: Emulator, world: DefaultWorld) -> None:
    """What a REST-only client (no gateway) reads to find where it is and what it may do there."""
    reader = permissions("view_channel")
    quiet = emu.add_guild("Quiet", bot_permissions=reader, everyone_permissions=reader)
    left = emu.add_guild("Left")
    emu.remove_member(left, emu.bot_user)
    with discord_globals_restored():
        discord.http.Route.BASE = emu.api_base
        client = discord.Client(intents=discord.Intents(guilds=True))
        try:
            await client.login(emu.token)
            listed = await client.http.get_guilds(200, with_counts=False)
            assert [(g["name"], g["owner"]) for g in listed] == [("Club", False), ("Quiet", False)]
            assert int(listed[1]["permissions"]) == quiet.base_permissions(emu.bot_user.id)
            assert "approximate_member_count" not in listed[0]
            (counted,) = await client.http.get_guilds(1, after=world.guild.id)
            assert counted["name"] == "Quiet" and counted["approximate_member_count"] == 2
            assert [g.name async for g in client.fetch_guilds(limit=None)] == ["Club", "Quiet"]

            member = await client.http.get_member(quiet.id, emu.bot_user.id)
            roles = {int(r["id"]): int(r["permissions"]) for r in await client.http.get_roles(quiet.id)}
            granted = roles[quiet.id]  # @everyone's id is the server's
            for role_id in member["roles"]:
                granted |= roles[int(role_id)]
            assert granted == quiet.base_permissions(emu.bot_user.id)
            assert granted == reader

            with pytest.raises(discord.HTTPException) as refused:
                await client.http.get_guilds(201)
            assert refused.value.code == 50035
            assert [(v.where, v.json_path) for v in emu.spec_violations] == [("query", "$.limit")]
            emu.invalid_requests.clear()
            emu.spec_violations.clear()
        finally:
            await client.close()
    assert not emu.unknown_requests
    assert not emu.gateway.log


# --- the world changing under a connected bot --------------------------------------------------


async def test_world_changes_reach_the_connected_bot(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    # Every dispatch must parse: an exception in a gateway event parser stops discord.py.
    league = emu.add_guild("League")
    hall = emu.add_channel(league, "hall")
    dave = emu.add_user("dave")
    emu.add_member(league, dave)
    emu.set_manage_guild(league, dave, True)
    emu.deny_bot(hall, "attach_files")
    await emu.wait_until(lambda: bot.get_guild(league.id) and bot.get_channel(hall.id), 3, "the new guild")

    channel = bot.get_channel(hall.id)
    assert isinstance(channel, discord.TextChannel)
    assert await emu.wait_until(
        lambda: not channel.permissions_for(channel.guild.me).attach_files, 3, "update"
    )
    sent = await channel.send("hello league")
    assert emu.last_message(hall).content == "hello league"
    await sent.edit(content="hello again")
    await sent.delete()
    assert emu.messages(hall) == [] and emu.messages(hall, include_deleted=True)[0].history[0].content == (
        "hello league"
    )
    record = await emu.slash(dave, hall, "game start", opponent=dave)
    assert "manage_guild=True" in (await record.response()).content
    follow = await emu.slash(dave, hall, "ping")
    posted = await emu.wait_for_message(hall, after=follow)
    assert posted.content == "pong"


async def test_two_shards_each_get_their_guilds() -> None:
    async with Emulator(shard_count=2) as emu:
        world = emu.add_default_world()
        other = emu.add_guild("League")
        hall = emu.add_channel(other, "hall")
        emu.add_member(other, world.alice)
        with discord_globals_restored(), capture_errors() as errors:
            client = PingBot(emu.api_base)
            async with run_bot(client, emu):
                await emu.wait_commands_synced()
                assert client.shard_count == 2
                assert sorted(s.shard_id for s in emu.gateway.live_sessions()) == [0, 1]
                for guild, channel in ((world.guild, world.channel), (other, hall)):
                    record = await emu.slash(world.alice, channel, "ping")
                    assert (await record.response()).content == "pong"
                    session = emu.gateway.session_for(guild.id)
                    assert session is not None and session.shard_id == (guild.id >> 22) % 2
                assert {(world.guild.id >> 22) % 2, (other.id >> 22) % 2} == {0, 1}
        assert not errors.records


async def test_privileged_intents_are_refused_unless_enabled(emu: Emulator, world: DefaultWorld) -> None:
    intents = discord.Intents.default()
    intents.members = True
    with discord_globals_restored(), capture_errors():
        client = PingBot(emu.api_base, intents=intents)
        with pytest.raises(discord.PrivilegedIntentsRequired):
            async with run_bot(client, emu):
                pass


async def test_member_chunking_with_the_members_intent() -> None:
    from .model import INTENT_GUILD_MEMBERS

    intents = discord.Intents.default()
    intents.members = True
    async with Emulator(privileged_intents=INTENT_GUILD_MEMBERS) as emu:
        club = emu.add_default_world().guild
        with discord_globals_restored(), capture_errors() as errors:
            client = PingBot(emu.api_base, intents=intents, sync=False)
            async with run_bot(client, emu):
                guild = await emu.wait_until(lambda: client.get_guild(club.id), 3, "the guild")
                members = await guild.chunk()
                assert {m.name for m in members} >= {"alice", "bob", "carol"}
        assert not errors.records


async def test_thread_members_update_with_the_members_intent() -> None:
    from .model import INTENT_GUILD_MEMBERS

    intents = discord.Intents.default()
    intents.members = True
    async with Emulator(privileged_intents=INTENT_GUILD_MEMBERS) as emu:
        world = emu.add_default_world()
        with discord_globals_restored(), capture_errors() as errors:
            client = PingBot(emu.api_base, intents=intents)
            async with run_bot(client, emu):
                await emu.wait_commands_synced(["thread"])
                record = await emu.slash(world.alice, world.channel, "thread", name="Duel", player=world.bob)
                await record.followup()
                [thread] = emu.threads(world.channel)
                live = client.get_channel(thread.id)
                assert isinstance(live, discord.Thread)
                await emu.wait_until(
                    lambda: world.bob.id in {m.id for m in live.members}, 3, "THREAD_MEMBERS_UPDATE"
                )
        assert not errors.records
        assert not client.tree.errors
        assert "THREAD_MEMBERS_UPDATE" in {e.event for e in emu.gateway.log}


# --- a bot in another process ----------------------------------------------------------------------


async def test_bot_as_a_subprocess(emu: Emulator, world: DefaultWorld) -> None:
    process = await start_bot_process([sys.executable, "-m", "tests.emulator.pingbot"], emu, cwd=REPO)
    try:
        await emu.wait_commands_synced(["ping"])
        response = await (await emu.slash(world.bob, world.channel, "ping")).response()
        assert response.content == "pong"
    finally:
        code = await process.stop()
    assert code == 0, process.output()
    assert "Traceback" not in process.output()


async def test_two_bots_in_a_row_need_no_cleanup(emu: Emulator, world: DefaultWorld) -> None:
    for _ in range(2):
        with discord_globals_restored(), capture_errors() as errors:
            client = PingBot(emu.api_base)
            async with run_bot(client, emu):
                assert (
                    await (await emu.slash(world.alice, world.channel, "ping")).response()
                ).content == "pong"
        assert not errors.records


async def test_standalone_emulator_with_its_control_api() -> None:
    """`python -m tests.emulator` + a bot process, driven over HTTP as a sandbox or benchmark would."""
    emulator = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.emulator",
        "--port",
        "0",
        "--json",
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    bot: asyncio.subprocess.Process | None = None
    try:
        assert emulator.stdout is not None
        info = json.loads(await asyncio.wait_for(emulator.stdout.readline(), 10))
        control = info["api_base"].removesuffix("/api/v10") + "/_emulator"
        env = {**os.environ, "DISCORD_TOKEN": info["token"], "DISCORD_API_BASE": info["api_base"]}
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.emulator.pingbot",
            cwd=REPO,
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        async with aiohttp.ClientSession() as http:
            for _ in range(100):
                async with http.get(f"{control}/state") as reply:
                    state = await reply.json()
                if state["connected"] and "game" in state["commands"]:
                    break
                await asyncio.sleep(0.1)
            body = {
                "user": "alice",
                "channel": "games",
                "command": "game start",
                "options": {"opponent": {"user": "bob"}, "rounds": 2},
            }
            async with http.post(f"{control}/slash", json=body) as reply:
                answer = await reply.json()
    finally:
        for process in (bot, emulator):
            if process is not None and process.returncode is None:
                process.terminate()
                await process.wait()
    assert answer["type"] == 4
    assert answer["message"]["content"].startswith("Alice vs Bob: 2 rounds")
    assert emulator.returncode == 0


# --- the protocol, without discord.py ------------------------------------------------------------


async def _receive(ws: aiohttp.ClientWebSocketResponse) -> dict[str, object]:
    message = await asyncio.wait_for(ws.receive(), 3)
    assert message.type is aiohttp.WSMsgType.TEXT, message
    data: dict[str, object] = json.loads(message.data)
    return data


async def test_raw_gateway_and_callback_protocol(emu: Emulator, world: DefaultWorld) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"{emu.gateway_url}?v=10&encoding=json&compress=zlib-stream") as ws:
            hello = await _receive(ws)
            assert hello["op"] == 10 and hello["d"] == {
                "heartbeat_interval": 41250,
                "_trace": ["muster-emulator"],
            }
            await ws.send_json({"op": 1, "d": None})
            assert (await _receive(ws))["op"] == 11
            await ws.send_json(
                {"op": 2, "d": {"token": emu.token, "intents": 1 | 1 << 9, "shard": [0, 1], "properties": {}}}
            )
            ready = await _receive(ws)
            assert ready["t"] == "READY" and ready["s"] == 1
            data = ready["d"]
            assert isinstance(data, dict)
            assert data["guilds"] == [{"id": str(world.guild.id), "unavailable": True}]
            assert data["resume_gateway_url"] == emu.resume_gateway_url and data["shard"] == [0, 1]
            assert data["application"] == {"id": str(emu.application_id), "flags": 0}
            guild_create = await _receive(ws)
            assert guild_create["t"] == "GUILD_CREATE" and guild_create["s"] == 2
            session_id = data["session_id"]

            emu.commands.replace(None, [{"name": "ping", "description": "Answers pong", "type": 1}])
            record = await emu.slash(world.alice, world.channel, "ping")
            event = await _receive(ws)
            assert event["t"] == "INTERACTION_CREATE" and event["s"] == 3
            url = f"{emu.api_base}/interactions/{record.id}/{record.token}/callback"
            async with http.post(url, json={"type": 4, "data": {"content": "pong"}}) as reply:
                assert reply.status == 204
            async with http.post(url, json={"type": 4, "data": {"content": "again"}}) as reply:
                assert reply.status == 400 and (await reply.json())["code"] == 40060
            assert (await record.response()).content == "pong"
            await ws.close(code=4000)  # as discord.py closes to reconnect: the session stays resumable

        # Missed events are replayed on RESUME; an unknown session is invalidated.
        emu.add_channel(world.guild, "missed")
        await asyncio.sleep(0.05)
        async with http.ws_connect(emu.resume_gateway_url) as ws:
            await _receive(ws)
            await ws.send_json({"op": 6, "d": {"token": emu.token, "session_id": session_id, "seq": 3}})
            replayed = await _receive(ws)
            assert replayed["t"] == "MESSAGE_CREATE" and replayed["s"] == 4  # the "pong" answer
            assert (await _receive(ws))["t"] == "CHANNEL_CREATE"
            assert (await _receive(ws))["t"] == "RESUMED"
            # A clean close (1000) ends the session: it can no longer be resumed.
        async with http.ws_connect(emu.gateway_url) as ws:
            await _receive(ws)
            await ws.send_json({"op": 6, "d": {"token": emu.token, "session_id": session_id, "seq": 5}})
            assert await _receive(ws) == {"op": 9, "d": False, "s": None, "t": None}
        async with http.ws_connect(emu.gateway_url) as ws:
            await _receive(ws)
            await ws.send_json({"op": 6, "d": {"token": emu.token, "session_id": "nope", "seq": 1}})
            assert await _receive(ws) == {"op": 9, "d": False, "s": None, "t": None}
        async with http.ws_connect(emu.gateway_url) as ws:
            await _receive(ws)
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1}})
            closed = await ws.receive()
            assert closed.type is aiohttp.WSMsgType.CLOSE and closed.data == 4004


def test_command_localizations_are_checked_as_discord_checks_them() -> None:
    choice = {"name": "on", "value": "on", "name_localizations": {"de": "an"}}
    option = {"type": 3, "name": "enabled", "description": "On or off", "choices": [choice]}
    good = {
        "name": "threads",
        "description": "Threads",
        "description_localizations": {"de": "Threads", "es-419": "Hilos", "fr": "Fils"},
        "options": [{**option, "description_localizations": {"fr": "Activé ou non"}}],
    }
    assert not validate_commands([good])
    unknown = {**good, "description_localizations": {"xx": "?"}}
    assert any(code == "BASE_TYPE_CHOICES" for _, code, _ in validate_commands([unknown]).items)
    long = {**good, "description_localizations": {"de": "x" * 101}}
    assert validate_commands([long])
    long_choice = {**option, "choices": [{**choice, "name_localizations": {"fr": "y" * 101}}]}
    assert validate_commands([{**good, "options": [long_choice]}])
    # The size limit counts each field at its longest localization.
    wide = [
        {"type": 3, "name": f"o{i}", "description": "d", "description_localizations": {"de": "d" * 100}}
        for i in range(25)
    ]
    big = {
        **good,
        "options": [{"type": 1, "name": f"s{j}", "description": "d", "options": wide} for j in range(4)],
    }
    assert any(code == "APPLICATION_COMMAND_TOO_LARGE" for _, code, _ in validate_commands([big]).items)


async def test_a_channel_post_with_a_file_is_multipart_once_per_nonce_and_needs_attach_files(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    """As Discord: a file comes as multipart (payload_json and files[n]), is kept as the message's
    attachment (an image with its size), a repeat with the same enforced nonce answers the message
    already made, and without Attach Files the post is refused and nothing is stored."""
    channel = bot.get_partial_messageable(world.channel.id)
    png = _png(3, 2)
    sent = await channel.send("table", file=discord.File(io.BytesIO(png), "standings.png"), nonce="n1")
    again = await channel.send("table", file=discord.File(io.BytesIO(png), "standings.png"), nonce="n1")
    assert sent.id == again.id and [m.id for m in emu.messages(world.channel)] == [sent.id]
    [stored] = emu.last_message(world.channel).attachments
    assert stored.data == png and stored.content_type == "image/png"
    assert (stored.width, stored.height) == (3, 2)
    posts = emu.requests_to("POST", rf"/channels/{world.channel.id}/messages")
    assert all(r.files == [("files[0]", "standings.png", len(png))] for r in posts)
    assert emu.spec_violations == []

    emu.deny_bot(world.channel, "attach_files")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send("table", file=discord.File(io.BytesIO(png), "standings.png"), nonce="n2")
    assert refused.value.code == 50013 and len(emu.messages(world.channel)) == 1


def _png(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height)).save(out, format="PNG")
    return out.getvalue()
