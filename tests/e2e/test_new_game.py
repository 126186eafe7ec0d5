"""A game added through the registry alone (Pick: rules/pick/ and cogs/pick/, the example of
docs/NEW_GAME.md): loading its cog is all it takes for it to appear in /help and /games, to be played
through the one question encoding, and to refuse an answer to a question it no longer asks. A pick
pressed in the DM prompt is answered by redrawing that prompt (the interaction's UPDATE_MESSAGE)."""

from __future__ import annotations

import discord
import pytest
from sqlalchemy import select

from bot.db.models import GameResult
from tests.e2e.conftest import Muster
from tests.emulator import Message
from tests.emulator.interactions import UPDATE_MESSAGE


@pytest.fixture
async def pick(muster: Muster) -> Muster:
    muster.extra_cogs.append("cogs.pick")
    await muster.restart()
    return muster


def prompt_of(muster: Muster, user: object) -> Message:
    return next(m for m in muster.emu.dms(user) if m.buttons())  # type: ignore[arg-type]


async def test_a_registered_game_is_in_help_and_games_and_plays_through_its_questions(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    shown = await (await emu.slash(w.alice, w.channel, "help")).response()
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert fields["Pick"].startswith("`/pick start @opponent`")
    assert {"Kill Team", "Warcry", "Warmaster", "40K", "Dice", "Scores"} <= fields.keys()

    chosen = await emu.autocomplete(w.alice, w.channel, "scores leaderboard", focused="system", system="pi")
    names = {c["name"]: c["value"] for c in (await chosen.response()).choices}
    assert names == {"Pick": "pick"}

    started = await (await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)).response()
    await pick.game_of_card(started)
    [card] = [m for m in emu.messages(w.channel) if m.thread is not None]  # one card; the game in its thread
    assert card is started.message
    assert "Pick" in card.embed_text() and set(card.thread.member_ids) >= {w.alice.id, w.bob.id}
    listed = await (await emu.slash(w.bob, w.channel, "games")).response()
    assert "**Pick** vs" in listed.text()

    prompt = prompt_of(pick, w.alice)
    ids = [b["custom_id"] for b in prompt.buttons()]
    assert all(i.startswith("q:") and i.endswith((":pick:1", ":pick:2", ":pick:3")) for i in ids)
    sealed = await (await emu.click(w.alice, prompt, label="3")).response()
    # The click is answered by redrawing the DM prompt itself: it says what was sealed and keeps no
    # button to press again.
    assert sealed.type == UPDATE_MESSAGE and not sealed.ephemeral
    assert sealed.message is not None and sealed.message.id == prompt.id
    assert not prompt.buttons() and "You sealed **3** for your pick" in prompt.embed_text()
    await pick.settle()
    assert not prompt.buttons() and "You sealed **3**" in prompt.embed_text()

    await (await emu.click(w.bob, prompt_of(pick, w.bob), label="1")).response()
    await pick.settle()
    (board,) = emu.messages(card.thread)  # the board, edited in place
    assert (
        f"<@{w.alice.id}> picked 3" in board.embed_text() and f"<@{w.bob.id}> picked 1" in board.embed_text()
    )


async def test_a_button_from_before_step_ids_answers_with_what_the_game_asks_now(pick: Muster) -> None:
    """A game begun before an update keeps going: its old buttons (`s:<sid>:<action>:<arg>`) can't
    say what they answered, so pressing one shows the player the current question, ready to answer."""
    emu, w = pick.emu, pick.world
    await (await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    sid = prompt_of(pick, w.alice).buttons()[0]["custom_id"].split(":")[1]
    assert pick.bot is not None
    old = discord.ui.View(timeout=None)
    old.add_item(discord.ui.Button(label="3", custom_id=f"s:{sid}:pick:3"))
    old.stop()
    channel = pick.bot.get_channel(w.channel.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.send("An older prompt", view=old)
    posted = next(m for m in emu.messages(w.channel) if m.content == "An older prompt")

    shown = await (await emu.click(w.alice, posted, label="3")).response()
    assert shown.ephemeral and "older message" in shown.content and "Pick a number in secret" in shown.content
    _, state = await pick.bot.sessions.load(sid)
    assert state.round.entries == {}  # pressing the old button alone changed nothing
    assert shown.message is not None
    sealed = await (await emu.click(w.alice, shown.message, label="2")).response()
    assert sealed.content == "Your pick 2 is sealed."
    stranger = await (await emu.click(w.carol, posted, label="3")).response()
    assert stranger.ephemeral and "only they can play it" in stranger.content


async def test_a_stored_pack_that_no_longer_reads_falls_back_and_the_server_is_told_once(
    muster: Muster,
) -> None:
    """A rules change may make a pack saved earlier unreadable: games go on with the shipped pack,
    and the server hears it once, with the command that loads a pack again."""
    emu, w = muster.emu, muster.world
    assert muster.bot is not None
    await muster.bot.packs.save(w.guild.id, "warcry", "battleplans: [[[", w.carol.id)
    for _ in range(2):
        shown = await (await emu.slash(w.alice, w.channel, "warcry battleplan")).response()
        assert not shown.ephemeral and "Battleplan" in shown.text()  # the core battleplans
    await muster.settle()
    told = [m for m in emu.messages(w.channel) if "can't be read any more" in m.content]
    assert len(told) == 1 and "`/warcry pack load`" in told[0].content


async def test_pick_played_in_german_from_start_to_result(pick: Muster) -> None:
    """The rules word the question once in English; a German server and players read the question,
    the answer and the result in German, from the pick catalogue."""
    emu, w = pick.emu, pick.world
    w.alice.locale = w.bob.locale = "de"
    await (await emu.slash(w.carol, w.channel, "settings language", language="de")).response()
    await (await emu.slash(w.bob, w.channel, "help")).response()  # Discord has told Muster bob's language
    await (await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    prompt = prompt_of(pick, w.alice)
    assert "Wähle heimlich eine Zahl" in prompt.all_text()
    sealed = await (await emu.click(w.alice, prompt, label="3")).response()
    assert sealed.type == UPDATE_MESSAGE and sealed.message is not None and sealed.message.id == prompt.id
    assert "Du hast **3** versiegelt." in sealed.message.embed_text()
    await (await emu.click(w.bob, prompt_of(pick, w.bob), label="1")).response()
    await pick.settle()
    [card] = [m for m in emu.messages(w.channel) if m.thread is not None]
    (board,) = emu.messages(card.thread)
    assert "Aufgedeckt:" in board.embed_text() and f"<@{w.alice.id}> gewinnt mit 3." in board.embed_text()


async def test_a_draw_takes_the_other_players_confirm_and_reaches_the_scores(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    await (await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    called = await (await emu.slash(w.alice, w.channel, "pick draw")).response()
    assert "calls the game a draw" in called.content
    await pick.settle()
    [card] = [m for m in emu.messages(w.channel) if m.thread is not None]
    asked = next(
        m for m in emu.messages(card.thread) if m.buttons() and "Call the game a draw?" in m.all_text()
    )
    await (await emu.click(w.bob, asked, label="Confirm")).response()
    await pick.settle()
    assert "the game is a draw" in emu.messages(card.thread)[0].embed_text()
    assert pick.bot is not None
    async with pick.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult))).all()
    assert (row.system, row.winner_id, row.score_a, row.score_b) == ("pick", None, 0, 0)
