"""A click is answered by redrawing the kept message it came from (bot/play/in_place.py): one call
where an ephemeral answer and the outbox's edit of that message were two, with the step's other
messages rendered after the answer; never a stale board, and nothing lost when a redraw fails."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot.chat import router
from bot.chat.limits import ANSWER_DEADLINE
from bot.play import in_place
from rules.fortyk import Phase
from tests.e2e.conftest import Muster
from tests.e2e.test_delivery import pick, pick_prompt, with_pick_game
from tests.e2e.test_fortyk import _latest_with, game_state, start_game, to_battle
from tests.emulator.harness import ErrorRecords


def patches_of(muster: Muster, channel_id: int) -> int:
    return len(muster.emu.requests_to("PATCH", rf"/channels/{channel_id}/messages/\d+"))


async def test_a_board_click_is_answered_by_the_board_redrawn_and_the_outbox_edits_nothing(
    muster: Muster,
) -> None:
    emu, w = muster.emu, muster.world
    game = await start_game(muster)
    await to_battle(muster, game)
    state = await game_state(muster, game.sid)
    board = _latest_with(emu, game.table, "End turn")
    player = w.alice if state.active_player == w.alice.id else w.bob
    edits = patches_of(muster, game.table.id)
    answered = await (await emu.click(player, board, label="End turn")).response()
    await muster.announced()
    assert answered.type_name == "UPDATE_MESSAGE" and answered.message is not None
    assert answered.message.id == board.id
    after = await game_state(muster, game.sid)
    assert (
        after.active_player != state.active_player
        and f"<@{after.active_player}>'s turn" in board.embed_text()
    )
    assert patches_of(muster, game.table.id) == edits  # the answer was the board's one edit
    assert board.history[-1].embeds != board.embeds  # and it shows the step


async def test_a_dm_prompt_click_is_answered_by_the_prompt_closed_and_the_outbox_edits_nothing(
    muster: Muster,
) -> None:
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world
    dm = emu.dm_channel(w.alice)
    edits = patches_of(muster, dm.id)
    await pick(muster, w.alice, sid, 3)
    await pick(muster, w.bob, sid, 1)
    await muster.announced()
    [prompt] = [
        m for m in emu.dms(w.alice) if f":{sid}:" in str(m.history[0].components if m.history else "")
    ]
    assert "✅" in prompt.all_text() and not prompt.components
    assert patches_of(muster, dm.id) == edits
    assert "Revealed" in emu.messages(w.channel)[0].embed_text()


async def test_an_earlier_edit_landing_after_the_redraw_never_leaves_a_stale_board(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `/40k` command's board edit is slow to reach Discord; the next click, answered by the board
    redrawn, lands first, and the older edit overwrites it and is recorded before the click's step
    is stored. The click's digest is then not recorded over the older one, so the step's own edit
    is sent after all: the board ends showing the click, not the command."""
    emu, w = muster.emu, muster.world
    game = await start_game(muster)
    await to_battle(muster, game)
    state = await game_state(muster, game.sid)
    first = w.alice if state.active_player == w.alice.id else w.bob
    board = _latest_with(emu, game.table, "End turn")
    assert muster.bot is not None
    renderer = muster.bot.sessions.renderer
    store_steps = renderer.after_step

    async def slow_to_store(*args: Any, **kwargs: Any) -> None:
        if kwargs.get("shown") or (len(args) > 5 and args[5] is not None):
            await asyncio.sleep(1.5)  # the older edit lands and is recorded meanwhile
        await store_steps(*args, **kwargs)

    monkeypatch.setattr(renderer, "after_step", slow_to_store)
    slow = emu.inject("PATCH", rf"/channels/{game.table.id}/messages/{board.id}", status=None, delay=1.0)
    marked = await (await emu.slash(first, game.table, "40k mark", unit="Terminators")).response()
    assert marked.ephemeral
    await emu.wait_until(lambda: slow.hits == 1, 5, "the command's board edit on its way")
    answered = await (await emu.click(first, board, label="End turn")).response()
    assert answered.type_name == "UPDATE_MESSAGE"
    await emu.wait_until(lambda: "Terminators" in board.embed_text(), 5, "the older edit to land")
    await muster.announced()
    after = await game_state(muster, game.sid)
    assert after.phase is Phase.BATTLE and after.active_player != state.active_player
    assert f"<@{after.active_player}>'s turn" in board.embed_text()  # not the command's older board


async def test_a_redraw_that_fails_answers_apart_and_loses_nothing(
    muster: Muster, monkeypatch: pytest.MonkeyPatch, logged_errors: ErrorRecords
) -> None:
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("a bug in a redraw")

    monkeypatch.setattr(in_place, "redrawn", broken)
    prompt = pick_prompt(muster, w.alice, sid)
    answered = await (await emu.click(w.alice, prompt, label="3")).response()
    assert answered.ephemeral and re.search("sealed", answered.content, re.IGNORECASE)
    await pick(muster, w.bob, sid, 1)
    await muster.announced()
    assert "Revealed" in emu.messages(w.channel)[0].embed_text()
    assert "✅" in prompt.all_text() and not prompt.components  # closed by the outbox instead
    logged = [r for r in logged_errors.records if sid in r.getMessage()]
    assert logged and "could not be redrawn" in logged[0].getMessage()
    logged_errors.records.clear()  # expected here


async def test_the_clicked_message_is_drawn_while_its_step_is_stored_where_storing_waits(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a step's write is a round trip the loop waits on: the clicked DM prompt is
    drawn meanwhile, so the answer waits on the longer of the two. SQLite's step writer stores on
    the loop itself, so there the prompt is drawn once the step is stored. Either way the answer is
    the prompt redrawn, sent only once the step is stored."""
    sid = await with_pick_game(muster)
    assert muster.bot is not None
    store = muster.bot.sessions.store
    order: list[str] = []
    commit_step, draw = store.commit_step, in_place.redrawn

    async def slow_write(write: Any) -> bool:
        order.append("write begins")
        await asyncio.sleep(0.2)
        stored = await commit_step(write)
        order.append("write returns")
        return stored

    def drawn(*args: Any, **kwargs: Any) -> Any:
        order.append("drawn")
        return draw(*args, **kwargs)

    monkeypatch.setattr(store, "commit_step", slow_write)
    monkeypatch.setattr(in_place, "redrawn", drawn)
    prompt = pick_prompt(muster, muster.world.alice, sid)
    answered = await (await muster.emu.click(muster.world.alice, prompt, label="3")).response()
    assert answered.type_name == "UPDATE_MESSAGE" and "✅" in prompt.all_text()
    overlapped = ["write begins", "drawn", "write returns"]
    assert order == (overlapped if store.steps_wait else ["write begins", "write returns", "drawn"])


async def test_a_click_cancelled_while_its_step_is_stored_loses_nothing(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the clicked message is drawn beside the step's write, a handler cancelled while the
    write is in flight (the bot stopping) does not cancel the write: the step is stored, and a
    render pass sends its messages, though the click itself was never answered."""
    sid = await with_pick_game(muster)
    assert muster.bot is not None
    sessions, w = muster.bot.sessions, muster.world
    store = sessions.store
    monkeypatch.setattr(type(store), "steps_wait", property(lambda _store: True))
    commit_step, clicked = store.commit_step, in_place.redraw_clicked
    handlers: list[asyncio.Task[Any]] = []
    written = asyncio.Event()

    async def redraw(interaction: Any, result: Any) -> Any:
        task = asyncio.current_task()
        assert task is not None
        handlers.append(task)
        return await clicked(interaction, result)

    async def cancelled_meanwhile(write: Any) -> bool:
        await asyncio.sleep(0.05)  # the clicked message drawn, its handler waits on the write
        handlers[0].cancel()
        await asyncio.sleep(0.05)
        stored = await commit_step(write)
        written.set()
        return stored

    monkeypatch.setattr(store, "commit_step", cancelled_meanwhile)
    monkeypatch.setattr(router, "redraw_clicked", redraw)
    prompt = pick_prompt(muster, w.alice, sid)
    before = (await sessions.load(sid, fresh=True))[0].version
    await muster.emu.click(w.alice, prompt, label="3")
    await asyncio.wait_for(written.wait(), 5)
    await muster.settle()
    assert handlers and handlers[0].cancelled()
    assert (await sessions.load(sid, fresh=True))[0].version == before + 1
    assert "✅" in prompt.all_text() and not prompt.components  # sent by the outbox instead


async def test_an_answer_held_past_discords_deadline_holds_back_nothing(muster: Muster) -> None:
    """discord.py sleeps out a 429 on an interaction's answer however long it is (an answer redrawing
    an old message might meet Discord's hour-long 30046). The click's step is stored and what it
    caused is sent once Discord's deadline for the answer has passed, not when the answer returns."""
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world
    held = emu.inject("POST", r"/interactions/\d+/[^/]+/callback", status=None, delay=8)
    prompt = pick_prompt(muster, w.alice, sid)
    await emu.click(w.alice, prompt, label="3")  # its answer never arrives in time
    await emu.wait_until(lambda: held.exhausted, 5, "the answer held")
    await pick(muster, w.bob, sid, 1)
    start = asyncio.get_running_loop().time()
    await emu.wait_until(lambda: "Revealed" in emu.messages(w.channel)[0].embed_text(), 10, "the reveal")
    assert asyncio.get_running_loop().time() - start < ANSWER_DEADLINE + 1.5  # not the 8 s held
    assert "✅" in prompt.all_text()  # the step her answer would have shown, edited by the outbox


async def test_a_click_whose_write_lost_the_race_is_drawn_again_for_the_step_stored(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write refused because the game moved on is retried on the stored state: a message drawn
    beside the refused write is dropped, and the answer shows the step that was stored."""
    sid = await with_pick_game(muster)
    assert muster.bot is not None
    store = muster.bot.sessions.store
    commit_step, clicked = store.commit_step, in_place.redraw_clicked
    tries: list[bool] = []
    drawn: list[Any] = []

    async def lost_once(write: Any) -> bool:
        tries.append(bool(tries))  # the first write is refused, as if the version had moved on
        return await commit_step(write) if tries[-1] else False

    async def redraw(interaction: Any, result: Any) -> Any:
        drawn.append(result)
        return await clicked(interaction, result)

    monkeypatch.setattr(store, "commit_step", lost_once)
    monkeypatch.setattr(in_place, "redraw_clicked", redraw)
    monkeypatch.setattr(router, "redraw_clicked", redraw)
    prompt = pick_prompt(muster, muster.world.alice, sid)
    answered = await (await muster.emu.click(muster.world.alice, prompt, label="3")).response()
    assert answered.type_name == "UPDATE_MESSAGE" and "✅" in prompt.all_text()
    assert tries == [False, True]
    assert len(drawn) == (2 if store.steps_wait else 1)  # SQLite draws only a step it stored
    stored = await muster.bot.sessions.load(sid, fresh=True)
    assert stored[0].version == drawn[-1].info.version  # the answer drew the step stored
