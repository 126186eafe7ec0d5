"""The shared session and sealed-choice mechanisms, through the emulator, with a minimal game."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from bot.chat import custom_ids
from bot.chat.messages import Reply
from bot.db.models import GameResult, GameSession
from bot.play import in_place
from bot.play.sessions import SessionService
from cogs.pick.adapter import PickAdapter
from rules.pick.procedure import start
from rules.session import Answer
from tests.e2e.conftest import Muster
from tests.emulator import Channel, Message, User
from tests.emulator.harness import ErrorRecords
from tests.emulator.interactions import UPDATE_MESSAGE


@pytest.fixture
async def toy(muster: Muster) -> AsyncIterator[Muster]:
    muster.extra_adapters.append(PickAdapter())
    await muster.restart()
    yield muster


async def open_game(m: Muster) -> str:
    assert m.bot is not None
    w = m.world
    result = await m.bot.sessions.open(
        guild_id=w.guild.id,
        channel_id=w.channel.id,
        organiser_id=w.alice.id,
        system="pick",
        build=lambda sid, r: start(sid, [w.alice.id, w.bob.id], r),
    )
    await m.settle()
    return result.info.id


def prompt_in(messages: list[Message]) -> Message:
    return [m for m in messages if "Pick a number" in m.all_text()][-1]


def reveals(m: Muster) -> list[str]:
    """Each time the reveal was shown: the board's version that first says it (edits that keep it
    are not shown again), or any other message saying it."""
    shown = []
    for msg in m.emu.messages(m.world.channel):
        said = False
        for version in [*msg.history, msg.snapshot()]:
            text = version.content + "".join(str(e.get("fields")) for e in version.embeds)
            if "Revealed" in text and not said:
                shown.append(text)
            said = "Revealed" in text
    return shown


async def test_sealed_picks_in_dms_reveal_once_and_verify(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    sid = await open_game(toy)
    alice_prompt, bob_prompt = prompt_in(emu.dms(w.alice)), prompt_in(emu.dms(w.bob))
    answer = await (await emu.click(w.alice, alice_prompt, label="3")).response()
    # answered by redrawing the DM prompt clicked, which says what was sealed
    assert answer.type == UPDATE_MESSAGE and answer.message is alice_prompt
    assert not alice_prompt.buttons() and "You sealed **3** for your pick" in alice_prompt.embed_text()
    await toy.settle()
    sealed = [m for m in emu.messages(w.channel) if "has sealed" in m.all_text()]
    assert len(sealed) == 1 and re.search(r"`[0-9a-f]{64}`", sealed[0].all_text())
    assert "pick 3" not in emu.text_visible_to(w.bob).lower() and "picked 3" not in emu.text_visible_to(w.bob)
    await (await emu.click(w.bob, bob_prompt, label="1")).response()
    await toy.settle()
    [reveal] = reveals(toy)
    assert f"<@{w.alice.id}> picked 3" in reveal and f"<@{w.bob.id}> picked 1" in reveal
    nonce = re.search(rf"<@{w.alice.id}> picked 3 \(nonce `(\w+)`\)", reveal).group(1)  # type: ignore[union-attr]
    commitment = re.search(r"`([0-9a-f]{64})`", sealed[0].all_text()).group(1)  # type: ignore[union-attr]
    ok = await (
        await emu.slash(
            w.carol,
            w.channel,
            "verify",
            game=sid,
            step="pick",
            player=w.alice,
            choice="3",
            nonce=nonce,
            commitment=commitment,
        )
    ).response()
    assert "matches" in ok.content
    bad = await (
        await emu.slash(
            w.carol,
            w.channel,
            "verify",
            game=sid,
            step="pick",
            player=w.alice,
            choice="2",
            nonce=nonce,
            commitment=commitment,
        )
    ).response()
    assert "does not match" in bad.content
    assert toy.bot is not None
    async with toy.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult).where(GameResult.session_id == sid))).all()
    assert (row.winner_id, row.score_a, row.score_b, row.system) == (w.alice.id, 3, 1, "pick")
    assert not bob_prompt.buttons() and "You sealed **1**" in bob_prompt.embed_text()  # nothing left to press


async def test_closed_dms_fall_back_to_an_ephemeral_prompt_only_its_owner_can_open(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    emu.close_dms(w.bob)
    await open_game(toy)
    fallback = [m for m in emu.messages(w.channel) if "Open my secret prompt" in str(m.components)]
    assert len(fallback) == 1 and f"<@{w.bob.id}>" in fallback[0].content
    assert "Pick a number" not in fallback[0].content
    stranger = await (await emu.click(w.alice, fallback[0], label="Open my secret prompt")).response()
    assert stranger.ephemeral and "only" in stranger.content
    mine = await (await emu.click(w.bob, fallback[0], label="Open my secret prompt")).response()
    assert mine.ephemeral and "Pick a number" in mine.content
    sealed = await (await emu.click(w.bob, mine.message, label="2")).response()  # type: ignore[arg-type]
    assert sealed.ephemeral and "2 is sealed" in sealed.content
    await (await emu.click(w.alice, prompt_in(emu.dms(w.alice)), label="1")).response()
    await toy.settle()
    assert len(reveals(toy)) == 1


async def test_two_seals_at_the_same_instant_reveal_once(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    await open_game(toy)
    a, b = prompt_in(emu.dms(w.alice)), prompt_in(emu.dms(w.bob))
    records = await asyncio.gather(emu.click(w.alice, a, label="2"), emu.click(w.bob, b, label="3"))
    for record, prompt, pick in zip(records, (a, b), ("2", "3"), strict=True):
        answer = await record.response()  # each prompt redrawn in answer to its own click
        assert answer.type == UPDATE_MESSAGE and answer.message is not None and answer.message.id == prompt.id
        assert f"You sealed **{pick}**" in answer.message.embed_text()
    await toy.settle()
    assert len(reveals(toy)) == 1


async def test_restart_between_the_seals_loses_nothing_and_reveals_once(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    sid = await open_game(toy)
    await (await emu.click(w.alice, prompt_in(emu.dms(w.alice)), label="3")).response()
    await toy.settle()
    await toy.restart()
    # The button sent before the restart still works: its custom_id carries the session.
    await (await emu.click(w.bob, prompt_in(emu.dms(w.bob)), label="2")).response()
    await toy.settle()
    [reveal] = reveals(toy)
    assert f"<@{w.alice.id}> picked 3" in reveal
    assert toy.bot is not None
    info, _ = await toy.bot.sessions.load(sid)
    assert info.status == "finished"


async def test_games_list_and_cancel_permissions(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    sid = await open_game(toy)
    listed = await (await emu.slash(w.bob, w.channel, "games")).response()
    assert sid in listed.text() and listed.ephemeral
    refused = await (await emu.slash(w.bob, w.channel, "game cancel", game=sid)).response()
    assert refused.ephemeral and "organiser" in refused.content
    # Capitals: an id has none (a game id of digits alone, upper-cased, would still be the game's).
    capitals = sid[:-1].upper() + "F"
    for typed in ("\x00" + sid, capitals, "nothing"):  # a NUL byte is refused by PostgreSQL itself
        unknown = await (await emu.slash(w.carol, w.channel, "game cancel", game=typed)).response()
        assert unknown.ephemeral and "no longer exists" in unknown.content
    done = await (await emu.slash(w.carol, w.channel, "game cancel", game=sid)).response()
    assert done.ephemeral and "cancelled" in done.content
    click = await (await emu.click(w.alice, prompt_in(emu.dms(w.alice)), label="1")).response()
    assert click.ephemeral and "cancelled" in click.content
    empty = await (await emu.slash(w.bob, w.channel, "games")).response()
    assert "no open games" in empty.content


async def test_waiting_player_gets_a_reminder_and_the_game_stays_open(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    sid = await open_game(toy)
    await (await emu.click(w.alice, prompt_in(emu.dms(w.alice)), label="1")).response()
    await toy.settle()
    # Reminders due at once only from now: due while both players were still asked, the sweep could
    # remind both before alice answered, and bob again for the wait her answer began.
    toy.overrides["reminder_minutes"] = 0.0
    await toy.restart()
    assert toy.bot is not None
    await toy.bot.remind_waiting_players()  # the bot's own sweep may have reminded first: either way, once
    await toy.settle()
    assert sum("Reminder" in m.content for m in emu.dms(w.bob)) == 1
    assert not any("Reminder" in m.content for m in emu.dms(w.alice))
    assert await toy.bot.remind_waiting_players() == 0  # once per quiet spell
    info, _ = await toy.bot.sessions.load(sid)
    assert info.status == "open"


async def test_dm_route_faults_delay_but_never_lose_a_prompt(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    emu.inject("POST", r"/channels/\d+/messages", status=429, count=2)
    emu.inject("POST", r"/channels/\d+/messages", status=500, count=1)
    await open_game(toy)
    await emu.wait_until(
        lambda: any("Pick a number" in m.all_text() for m in emu.dms(w.bob)), 10, "bob's prompt"
    )
    await emu.wait_until(
        lambda: any("Pick a number" in m.all_text() for m in emu.dms(w.alice)), 10, "alice's prompt"
    )


async def test_an_unexpected_error_gets_a_friendly_answer_with_an_id_and_a_logged_traceback(
    toy: Muster, logged_errors: ErrorRecords, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu, w = toy.emu, toy.world
    await open_game(toy)

    def broken(*_args: object) -> Reply:
        raise RuntimeError("a bug in a game adapter")

    # The prompt's redraw fails, so the click is answered apart, and the answer fails too.
    monkeypatch.setattr(in_place, "redrawn", broken)
    monkeypatch.setattr(PickAdapter, "reply", broken)
    prompt = next(m for m in emu.dms(w.alice) if m.buttons())
    answer = await (await emu.click(w.alice, prompt, label="3")).response()
    error_id = re.search(r"error id `([0-9a-f]{8})`", answer.content)
    assert answer.ephemeral and error_id and "RuntimeError" not in answer.content
    logged = [r for r in logged_errors.records if error_id.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None
    assert any("could not be redrawn" in r.getMessage() for r in logged_errors.records)
    logged_errors.records.clear()  # expected here; the fixture fails on any other


async def test_a_servers_own_reminder_delay_is_respected(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    toy.overrides["reminder_minutes"] = 0.0
    await toy.restart()
    assert toy.bot is not None and toy.bot._reminders is not None
    toy.bot._reminders.cancel()  # its own sweep could take the reminders this test counts
    done = await (await emu.slash(w.carol, w.channel, "settings reminders", minutes=10)).response()
    assert done.ephemeral and "10 minutes" in done.content
    sid = await open_game(toy)
    assert await toy.bot.remind_waiting_players() == 0  # quiet for less than this server's 10 minutes
    async with toy.bot.store.write() as db:
        await db.execute(
            update(GameSession)
            .where(GameSession.id == sid)
            .values(updated_at=datetime.now(UTC) - timedelta(minutes=11))
        )
    assert await toy.bot.remind_waiting_players() == 2  # both players still owe their pick
    await toy.settle()
    assert any("Reminder" in m.content for m in emu.dms(w.alice))


async def test_each_process_reminds_only_the_games_of_its_own_shards(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    toy.overrides["reminder_minutes"] = 0.0
    await toy.restart()
    assert toy.bot is not None and toy.bot._reminders is not None
    toy.bot._reminders.cancel()  # its own sweep serves every shard: this test plays each process in turn
    await open_game(toy)
    own = (w.guild.id >> 22) % 3  # Discord's shard of a server, out of 3
    settings = toy.bot.settings
    for other in sorted({0, 1, 2} - {own}):
        toy.bot.settings = settings.model_copy(
            update={"muster_shard_ids": str(other), "muster_shard_count": 3}
        )
        assert await toy.bot.remind_waiting_players() == 0  # another process's server
    toy.bot.settings = settings.model_copy(update={"muster_shard_ids": f"{own}", "muster_shard_count": 3})
    assert await toy.bot.remind_waiting_players() == 2
    await toy.settle()
    assert any("Reminder" in m.content for m in emu.dms(w.alice))


async def test_a_click_judged_on_a_stale_copy_is_decided_by_the_stored_game(toy: Muster) -> None:
    """Another process (its own session service and cache) steps the game; this process's copy is
    then stale: a click judged on it is stored only on the stored state (one reveal of both picks)."""
    emu, w = toy.emu, toy.world
    sid = await open_game(toy)
    assert toy.bot is not None
    bot = toy.bot
    other_process = SessionService(bot.store, bot.dice, bot.delivery, bot.games, bot.languages)
    bob_prompt = prompt_in(emu.dms(w.bob))
    stale = bot.sessions.cached(sid)
    assert stale is not None and not stale[1].round.entries
    await other_process.answer(sid, Answer(actor=w.alice.id, step="pick", values=["3"], nonce="a" * 32))
    taken = await (await emu.click(w.bob, bob_prompt, label="1")).response()
    assert taken.type == UPDATE_MESSAGE and taken.message is not None and taken.message.id == bob_prompt.id
    assert "You sealed **1**" in taken.message.embed_text()
    await toy.settle()
    [reveal] = reveals(toy)
    assert f"<@{w.alice.id}> picked 3" in reveal and f"<@{w.bob.id}> picked 1" in reveal


async def test_a_forged_form_from_outside_the_server_learns_nothing_of_a_real_game(toy: Muster) -> None:
    """Someone outside the game's server who sends a form naming a real game (its id is no secret:
    it is in every button) is answered as for a game that doesn't exist: not who plays it, nor that
    it is there. A member of the server who doesn't play is still told whose game it is."""
    emu, w = toy.emu, toy.world
    sid = await open_game(toy)
    eve = emu.add_user("eve")  # shares no server with the bot
    elsewhere = emu.add_guild("Elsewhere", owner=eve)
    emu.add_member(elsewhere, eve)
    hall = emu.add_channel(elsewhere, "hall")
    assert toy.bot is not None
    _, before = await toy.bot.sessions.load(sid)

    async def forged(user: User, channel: Channel, game: str) -> str:
        form = custom_ids.modal(game, "pick", "3")
        answer = await (await emu.submit_modal(user, form, {}, channel=channel)).response()
        assert answer.ephemeral
        return answer.content

    invented = await forged(eve, emu.dm_channel(eve), "0123456789ab")
    for channel in (emu.dm_channel(eve), hall):
        told = await forged(eve, channel, sid)
        assert told == invented, (told, invented)
        assert str(w.alice.id) not in told and str(w.bob.id) not in told
    bystander = await forged(w.carol, w.channel, sid)
    assert "This is a game between" in bystander and str(w.alice.id) in bystander
    _, after = await toy.bot.sessions.load(sid)
    assert after.model_dump_json() == before.model_dump_json()
