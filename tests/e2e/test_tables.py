"""A game at the table, for every game alike (shown with the Pick game): a thread opened from a short
start card, the fallback to the channel when threads can't be made, the server's setting, and who may
play at a table."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.conftest import Muster
from tests.emulator.model import GUILD_VOICE, RECIPIENT_ADD, THREAD_STARTER, Channel, Message


@pytest.fixture
async def pick(muster: Muster) -> AsyncIterator[Muster]:
    muster.extra_cogs.append("cogs.pick")
    await muster.restart()
    yield muster


def cards(m: Muster, channel: Channel) -> list[Message]:
    return [msg for msg in m.emu.messages(channel) if msg.author.bot and "Pick" in msg.embed_text()]


async def start(m: Muster, channel: Channel | None = None) -> Message:
    """Start a game; the command's answer is its start card (public: one call, not an answer and a post)."""
    w = m.world
    started = await (
        await m.emu.slash(w.alice, channel or w.channel, "pick start", opponent=w.bob)
    ).response()
    assert not started.ephemeral and started.message is not None, started
    await m.settle()
    return started.message


async def test_a_game_gets_a_thread_under_one_card_with_both_players_in_it(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    answer = await start(pick)
    assert "The game is played in the thread below." in answer.embed_text()
    [card] = cards(pick, w.channel)
    assert card is answer and not emu.requests_to("POST", rf"/channels/{w.channel.id}/messages")
    assert pick.bot is not None
    [info] = await pick.bot.sessions.open_sessions(w.guild.id, system="pick")
    assert card.embeds[0]["footer"]["text"] == f"Game {info.id}"  # the id `/verify` takes, for the organiser
    assert card.thread is not None and card.thread.name == "Pick · Alice vs Bob"
    assert {w.alice.id, w.bob.id} <= set(card.thread.member_ids)
    assert "<@" not in card.content  # the card names the players in its embed: nobody is pinged
    [board] = emu.messages(card.thread)
    assert "Pick:" in board.embed_text()
    # Above the board, Discord's own notes: the card the thread was started from, each player added
    # once (a note by the bot that names them and notifies nobody).
    notes = [m for m in emu.messages(card.thread, include_system=True) if m.system]
    assert [m.type for m in notes] == [THREAD_STARTER, RECIPIENT_ADD, RECIPIENT_ADD]
    assert {m.mentioned[0].id for m in notes[1:]} == {w.alice.id, w.bob.id}
    listed = await (await emu.slash(w.bob, card.thread, "games")).response()  # used inside the thread
    assert listed.ephemeral and "**Pick** vs" in listed.text()


async def test_a_players_dm_channel_is_opened_once_whatever_restarts(pick: Muster) -> None:
    """Discord asks bots not to open DMs in numbers: a player's DM channel, once opened, is stored,
    so a restarted bot (or another process) DMs them without opening it again."""
    emu, w = pick.emu, pick.world
    await start(pick)
    opened = emu.requests_to("POST", r"/users/@me/channels")
    assert len(opened) == 2  # alice's and bob's, for their first prompts
    await pick.restart()
    await start(pick)  # a second game: both players are DMed their prompts again
    assert emu.requests_to("POST", r"/users/@me/channels") == opened
    prompts = [m for m in emu.dms(w.alice) + emu.dms(w.bob) if m.buttons() or m.selects()]
    assert len(prompts) == 4  # each game's prompt reached each player


async def test_a_failed_thread_creation_is_tried_again_without_a_second_card(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    fault = emu.inject("POST", rf"/channels/{w.channel.id}/messages/\d+/threads", status=500, count=1)
    await start(pick)
    await emu.wait_until(lambda: bool(emu.threads(w.channel)), 10, "the thread, on the second try")
    await pick.settle()
    assert fault.hits == 1
    assert len(cards(pick, w.channel)) == 1 and len(emu.threads(w.channel)) == 1
    assert emu.messages(emu.threads(w.channel)[0])  # the board went to the thread, not the channel


CALLBACK = r"/interactions/\d+/[^/]+/callback"
ORIGINAL = r"/webhooks/\d+/[^/]+/messages/@original"


async def the_one_card(m: Muster, within: float) -> Message:
    """The game's one start card, once its thread is open (within `within` seconds) and all is sent."""
    w = m.world
    await m.emu.wait_until(lambda: bool(m.emu.threads(w.channel)), within, "the thread, from the card")
    await m.settle()
    [card] = cards(m, w.channel)
    assert card.thread is not None
    return card


async def test_a_card_whose_answer_went_unconfirmed_is_found_on_discord_not_shown_twice(pick: Muster) -> None:
    """Discord took the card as the command's answer, but its reply never came back in time: the
    outbox asks Discord for the answer's message once Discord can no longer take one, finds the
    card, and opens the game's thread from it."""
    emu, w = pick.emu, pick.world
    emu.inject("POST", CALLBACK, status=None, delay_after=4.0)
    record = await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)
    card = await the_one_card(pick, 15)
    assert record.original is card
    assert not emu.requests_to("POST", rf"/channels/{w.channel.id}/messages")
    assert len(emu.requests_to("GET", ORIGINAL)) == 1


async def test_a_restart_before_the_card_is_recorded_finds_it_on_discord(pick: Muster) -> None:
    """The bot stops after Discord took the card as its answer, before it learnt the card's id: the
    restarted bot finds the card on Discord by the interaction's token, stored with the card."""
    emu, w = pick.emu, pick.world
    emu.inject("POST", CALLBACK, status=None, delay_after=4.0)
    record = await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)
    await emu.wait_until(lambda: record.original is not None, 5, "Discord to take the card")
    await pick.restart()
    card = await the_one_card(pick, 15)
    assert record.original is card
    assert not emu.requests_to("POST", rf"/channels/{w.channel.id}/messages")


async def test_a_card_whose_answer_was_refused_is_posted_at_once(pick: Muster) -> None:
    """An answer Discord refused outright shows nothing: the card is posted at once, like any other
    message, without asking Discord for an answer there is none of."""
    emu, w = pick.emu, pick.world
    emu.inject("POST", CALLBACK, status=400, count=1)
    await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)
    card = await the_one_card(pick, 2)
    assert card.type == 0  # posted, not an answer
    assert not emu.requests_to("GET", ORIGINAL)


async def test_a_card_whose_answer_failed_unconfirmed_is_looked_for_then_posted(pick: Muster) -> None:
    """An answer that failed with a 5xx (each of discord.py's tries) may still have been taken:
    Discord is asked once it can no longer take one; it has none, so the card is posted."""
    emu, w = pick.emu, pick.world
    emu.inject("POST", CALLBACK, status=500, count=6)  # every try discord.py makes
    await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)
    card = await the_one_card(pick, 15)
    assert card.type == 0  # posted, not an answer
    assert len(emu.requests_to("GET", ORIGINAL)) == 1  # asked, found none


async def test_without_thread_permission_the_game_runs_in_the_channel_and_says_why_once(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    emu.deny_bot(w.channel, "create_public_threads")
    await start(pick)
    assert not emu.threads(w.channel)
    notes = [m for m in emu.messages(w.channel) if "Create Public Threads" in m.content]
    assert len(notes) == 1 and "/settings game-threads" in notes[0].content
    assert any("Pick:" in m.embed_text() for m in emu.messages(w.channel))  # the board, here
    # A second game in the same channel: played here too, and nobody is told again.
    await (await emu.slash(w.carol, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    assert len([m for m in emu.messages(w.channel) if "Create Public Threads" in m.content]) == 1


async def test_a_channel_without_threads_plays_in_place(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    voice = emu.add_channel(w.guild, "voice-chat", type=GUILD_VOICE)
    card = await start(pick, voice)
    assert "<@" in card.embed_text() and "thread" not in card.embed_text()
    assert not emu.threads(voice) and not any(
        "Create Public Threads" in m.content for m in emu.messages(voice)
    )


async def test_game_threads_can_be_turned_off_by_the_server(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    refused = await (
        await emu.slash(w.alice, w.channel, "settings game-threads", enabled="off", bypass_checks=True)
    ).response()
    assert refused.ephemeral and not emu.threads(w.channel)
    done = await (await emu.slash(w.carol, w.channel, "settings game-threads", enabled="off")).response()
    assert done.ephemeral and "without threads" in done.content
    shown = await (await emu.slash(w.carol, w.channel, "settings show")).response()
    assert "Game threads" in shown.text() and "off" in shown.text()
    await start(pick)
    assert not emu.threads(w.channel)
    assert not any("Create Public Threads" in m.content for m in emu.messages(w.channel))
    await (await emu.slash(w.carol, w.channel, "settings game-threads", enabled="on")).response()
    await (await emu.slash(w.carol, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    assert len(emu.threads(w.channel)) == 1
