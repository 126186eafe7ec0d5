"""A step's messages are rendered after the player's answer (bot/play/rendering.py): the answer never
waits on them, a game whose messages fail to render holds back only its own, nothing is lost, and a
fixed renderer (or a restart between the answer and the render) sends each message once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import select

from bot.chat.messages import Outgoing, from_json
from bot.db.models import OutboxMessage, RenderJob
from bot.play import jobs, table
from bot.play.sessions import StepResult
from cogs.pick.adapter import PickAdapter
from rules.session import Answer
from tests.e2e.conftest import Muster
from tests.e2e.test_delivery import lines, pick, pick_prompt, toy_game, with_pick_game
from tests.emulator import Channel, Emulator, User
from tests.emulator.harness import ErrorRecords

ORIGINAL = PickAdapter.render_step


async def jobs_of(muster: Muster) -> list[RenderJob]:
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        return list(await db.scalars(select(RenderJob).order_by(RenderJob.id)))


async def outbox_of(muster: Muster, sid: str) -> list[tuple[Outgoing, bool]]:
    """A game's outbox rows, oldest first: (message, delivered)."""
    assert muster.bot is not None
    query = select(OutboxMessage).where(OutboxMessage.session_id == sid).order_by(OutboxMessage.id)
    async with muster.bot.store.read() as db:
        return [(from_json(r.payload), r.delivered_at is not None) for r in await db.scalars(query)]


def posts(emu: Emulator, channel: Channel, users: list[User]) -> list[Any]:
    """The bot's own posts (not interaction answers) in a game's channel and its players' DMs."""
    found = [m for m in emu.messages(channel) if m.interaction_id is None]
    for user in users:
        found += [m for m in emu.dms(user) if m.interaction_id is None]
    return found


def made(rows: list[tuple[Outgoing, bool]]) -> int:
    """How many messages a game's rows make: each keyed message once (later rows edit it)."""
    keys = {m.key for m, _done in rows if m.key is not None and not m.edit_only}
    return len(keys) + sum(1 for m, _done in rows if m.key is None)


def failing_for(sid: str) -> Any:
    def render_step(self: PickAdapter, info: Any, *args: Any, **kwargs: Any) -> list[Outgoing]:
        if info.id == sid:
            raise RuntimeError("a bug in this game's presentation")
        return ORIGINAL(self, info, *args, **kwargs)

    return render_step


async def test_a_renderer_failing_for_one_game_holds_back_only_its_messages_and_loses_none(
    muster: Muster, logged_errors: ErrorRecords, monkeypatch: pytest.MonkeyPatch
) -> None:
    muster.extra_adapters.append(PickAdapter())
    await muster.restart()
    emu, w = muster.emu, muster.world
    dave, erin = emu.add_user("dave"), emu.add_user("erin")
    for user in (dave, erin):
        emu.add_member(w.guild, user)
    hall = emu.add_channel(w.guild, "hall")
    broken = await toy_game(muster, w.channel, w.alice, w.bob)
    working = await toy_game(muster, hall, dave, erin)
    monkeypatch.setattr(PickAdapter, "render_step", failing_for(broken))
    await pick(muster, w.alice, broken, 3)  # answered all the same
    await pick(muster, dave, working, 3)
    await pick(muster, w.bob, broken, 1)  # its messages wait behind the first's
    await pick(muster, erin, working, 1)
    await muster.announced()
    assert [(job.session_id, job.version) for job in await jobs_of(muster)] == [(broken, 2), (broken, 3)]
    first = (await jobs_of(muster))[0]
    assert first.attempts >= 1 and first.last_error and "a bug in this game" in first.last_error
    logged = [r for r in logged_errors.records if broken in r.getMessage()]
    assert logged and logged[0].exc_info is not None and all(working not in r.getMessage() for r in logged)
    logged_errors.records.clear()  # expected here; the fixture fails on any other
    assert lines(emu, w.channel) == ["Pick"]  # nothing of the broken game went out but its start
    assert "Revealed" in emu.messages(hall)[0].embed_text()  # the other game went on to its end

    monkeypatch.setattr(PickAdapter, "render_step", ORIGINAL)  # the renderer is fixed
    await emu.wait_until(lambda: "Revealed" in emu.messages(w.channel)[0].embed_text(), 15, "the reveal")
    await muster.announced()
    assert await jobs_of(muster) == []
    rows = await outbox_of(muster, broken)
    assert rows and all(done for _m, done in rows)
    assert len(posts(emu, w.channel, [w.alice, w.bob])) == made(rows)  # each message once
    assert made(rows) == made(await outbox_of(muster, working))  # as many as the game that never failed
    logged_errors.records.clear()  # the retries before the fix logged the same failure


async def test_a_restart_between_the_answer_and_the_render_sends_the_messages_once(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world
    before = len(posts(emu, w.channel, [w.alice, w.bob]))

    assert muster.bot is not None
    renderer = muster.bot.sessions.renderer

    async def dies(info: Any, *_args: object) -> None:  # the process dies right after answering
        renderer.release(info.id, info.version)  # (as a process that is gone holds nothing back)

    async def renders_nothing() -> int:
        return 0

    monkeypatch.setattr(renderer, "after_step", dies)
    monkeypatch.setattr(renderer, "render_due", renders_nothing)
    await pick(muster, w.alice, sid, 3)
    await pick(muster, w.bob, sid, 1)
    await muster.settle()
    assert [job.version for job in await jobs_of(muster)] == [2, 3]
    assert len(posts(emu, w.channel, [w.alice, w.bob])) == before  # nothing of the steps yet
    monkeypatch.undo()
    await muster.restart()
    await emu.wait_until(lambda: "Revealed" in emu.messages(w.channel)[0].embed_text(), 10, "the reveal")
    await muster.announced()
    assert await jobs_of(muster) == []
    rows = await outbox_of(muster, sid)
    assert all(done for _m, done in rows)
    assert len(posts(emu, w.channel, [w.alice, w.bob])) == made(rows)


@pytest.mark.parametrize(
    ("spied", "answered"), [("adapter", "CHANNEL_MESSAGE_WITH_SOURCE"), ("table", "UPDATE_MESSAGE")]
)
async def test_the_click_is_answered_before_the_steps_messages_are_rendered(
    muster: Muster, monkeypatch: pytest.MonkeyPatch, spied: str, answered: str
) -> None:
    """A game that renders its own way (its adapter's `render_step` replaced) is answered apart; the
    platform's rendering lets a click be answered by its DM prompt redrawn (bot/play/in_place.py),
    only that message drawn first. Either way the step's messages are rendered after the answer."""
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world
    clicks: dict[int, Any] = {}  # the version a click makes: its interaction
    answered_first: list[tuple[int, bool]] = []  # each render of a step: its version, and if answered

    def spy(render: Any) -> Any:
        def rendered(*args: Any, **kwargs: Any) -> list[Outgoing]:
            info = args[1]  # after the adapter (the method's self, or the function's first argument)
            if info.id == sid:
                answered_first.append((info.version, clicks[info.version].responded))
            return list(render(*args, **kwargs))

        return rendered

    if spied == "adapter":
        monkeypatch.setattr(PickAdapter, "render_step", spy(ORIGINAL))
    else:
        monkeypatch.setattr(table, "table_messages", spy(table.table_messages))
    for version, (user, value) in enumerate(((w.alice, 3), (w.bob, 1)), start=2):
        clicks[version] = await emu.click(user, pick_prompt(muster, user, sid), label=str(value))
        assert (await clicks[version].response()).type_name == answered
    await muster.announced()
    # A step can be rendered twice: one rendered from memory while the step before it is still being
    # settled is left to the delivery's pass, which renders it again from the store (seen on a loaded
    # machine). Every render of either step came after its click was answered.
    assert {version for version, _answered in answered_first} == {2, 3}, answered_first
    assert all(answered for _version, answered in answered_first), answered_first
    assert "Revealed" in emu.messages(w.channel)[0].embed_text()


async def test_a_cancellation_waits_behind_the_steps_still_to_render(
    muster: Muster, monkeypatch: pytest.MonkeyPatch, logged_errors: ErrorRecords
) -> None:
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world
    monkeypatch.setattr(PickAdapter, "render_step", failing_for(sid))
    await pick(muster, w.alice, sid, 3)
    assert muster.bot is not None
    await muster.bot.sessions.cancel(sid, w.alice.id, may_manage=False)
    await muster.settle()
    assert not any("cancelled" in m.content for m in emu.messages(w.channel))
    logged_errors.records.clear()
    monkeypatch.setattr(PickAdapter, "render_step", ORIGINAL)
    await emu.wait_until(lambda: any("cancelled" in m.content for m in emu.messages(w.channel)), 15)
    shown = lines(emu, w.channel)
    assert shown.index(f"<@{w.alice.id}> has sealed their pick") < len(shown) - 1  # the seal, then
    assert re.match(r"This game was cancelled", emu.messages(w.channel)[-1].content)
    assert await jobs_of(muster) == []
    logged_errors.records.clear()


def counted_renders(monkeypatch: pytest.MonkeyPatch, sid: str) -> list[int]:
    """The versions of game `sid` rendered from now on, in the order rendered."""
    renders: list[int] = []

    def counted(self: PickAdapter, info: Any, *args: Any, **kwargs: Any) -> list[Outgoing]:
        if info.id == sid:
            renders.append(info.version)
        return ORIGINAL(self, info, *args, **kwargs)

    monkeypatch.setattr(PickAdapter, "render_step", counted)
    return renders


async def stored_unrendered(muster: Muster, sid: str, player: int) -> StepResult:
    """`player`'s pick in game `sid`, stored (its step reserved for its answer) and not rendered."""
    assert muster.bot is not None
    _info, state = await muster.bot.sessions.load(sid)
    [asked] = PickAdapter.procedure.ask(state, player)
    answer = Answer(actor=player, step=asked.step, values=[asked.options[0].value], nonce="n" * 32)
    result = await muster.bot.sessions.answer(sid, answer, deliver=False)
    assert result is not None
    return result


async def test_a_step_stored_while_a_pass_claims_its_game_is_rendered_once_by_its_answer(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delivery pass checks that no step of a game is being answered here, then claims the game's
    jobs: a step reserved and stored between the two is left to its answer, which renders it once,
    not rendered by the pass first as well (where the answer then found it already rendered)."""
    sid = await with_pick_game(muster)
    bot, w = muster.bot, muster.world
    assert bot is not None
    renderer = bot.sessions.renderer
    renders = counted_renders(monkeypatch, sid)
    result = await stored_unrendered(muster, sid, w.alice.id)
    renderer.release(sid, result.info.version)  # the pass looked before this step was reserved...
    claim = jobs.claim_jobs

    def claimed_after_a_step(*args: Any) -> Any:
        # ...and the step was reserved and stored before the pass claimed
        renderer.reserve(sid, result.info.version)
        return claim(*args)

    monkeypatch.setattr(jobs, "claim_jobs", claimed_after_a_step)
    assert await renderer.render_due() == 0
    assert renders == [] and len(await jobs_of(muster)) == 1  # left to the answer
    monkeypatch.setattr(jobs, "claim_jobs", claim)
    await bot.sessions.rendered(result)
    assert renders == [result.info.version] and await jobs_of(muster) == []


async def test_two_steps_answered_a_moment_apart_are_each_rendered_once(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two clicks of one game stored before either is rendered, the later one answered first: its
    messages can't be stored ahead of the earlier step's, so its answer leaves them to the pass that
    follows the earlier step's render, rather than render them once in vain and once again."""
    sid = await with_pick_game(muster)
    bot, emu, w = muster.bot, muster.emu, muster.world
    assert bot is not None
    renders = counted_renders(monkeypatch, sid)
    first = await stored_unrendered(muster, sid, w.alice.id)
    second = await stored_unrendered(muster, sid, w.bob.id)
    await bot.sessions.rendered(second)  # the later click's answer goes first
    assert renders == []  # left to a pass: the earlier step is still being answered
    await bot.sessions.rendered(first)
    await emu.wait_until(lambda: "Revealed" in emu.messages(w.channel)[0].embed_text(), 10, "the reveal")
    await muster.announced()  # the result, queued by the score sweep once the last step is rendered
    assert renders == [first.info.version, second.info.version]  # each step rendered once, in order
    assert await jobs_of(muster) == []
    rows = await outbox_of(muster, sid)
    assert rows and all(done for _m, done in rows)


async def test_a_result_is_announced_behind_its_games_last_step_still_to_render(
    muster: Muster, monkeypatch: pytest.MonkeyPatch, logged_errors: ErrorRecords
) -> None:
    """The last step stores the game's result; its own messages (the reveal on the board) are
    rendered after the answer. A result sweep between the two leaves the result for its game's
    step: the final board is edited before the result is posted, even when that step's render
    fails first."""
    sid = await with_pick_game(muster)
    emu, w = muster.emu, muster.world
    await pick(muster, w.alice, sid, 3)
    await muster.settle()
    monkeypatch.setattr(PickAdapter, "render_step", failing_for(sid))
    await pick(muster, w.bob, sid, 1)
    await muster.announced()  # the result sweep has run: the last step is not rendered yet
    assert not any("Pick result" in m.embed_text() for m in emu.messages(w.channel))
    logged_errors.records.clear()
    monkeypatch.setattr(PickAdapter, "render_step", ORIGINAL)
    await emu.wait_until(lambda: any("Pick result" in m.embed_text() for m in emu.messages(w.channel)), 15)
    path = rf"/channels/{w.channel.id}/messages(/\d+)?"
    reveals = [r.at for r in emu.requests_to("PATCH", path) if "Revealed" in str(r.json)]
    results = [r.at for r in emu.requests_to("POST", path) if "Pick result" in str(r.json)]
    assert len(reveals) == len(results) == 1 and reveals[0] < results[0]  # the board's last edit first
    logged_errors.records.clear()
