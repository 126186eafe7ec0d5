"""SQLite's writer in turns (bot/db/write_turns.py): a game step goes before every write that can
wait, so a burst of clicks is answered first and their rendered messages stored after."""

from __future__ import annotations

import asyncio

from bot.db.write_turns import WriteTurns


async def test_a_step_goes_before_the_writes_that_can_wait() -> None:
    turns, order = WriteTurns(), []
    holding = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with turns.later():
            holding.set()
            await release.wait()
            order.append("first")

    async def later(name: str) -> None:
        async with turns.later():
            order.append(name)

    async def step(name: str) -> None:
        async with turns.step():
            order.append(name)

    running = [asyncio.create_task(first())]
    await holding.wait()
    running += [asyncio.create_task(later("render 1")), asyncio.create_task(later("render 2"))]
    await asyncio.sleep(0)
    running += [asyncio.create_task(step("step 1")), asyncio.create_task(step("step 2"))]
    await asyncio.sleep(0)
    release.set()
    await asyncio.gather(*running)
    assert order == ["first", "step 1", "step 2", "render 1", "render 2"]


async def test_writes_that_can_wait_go_in_turn_when_no_step_waits() -> None:
    turns, order, inside = WriteTurns(), [], 0

    async def later(name: str) -> None:
        nonlocal inside
        async with turns.later():
            inside += 1
            assert inside == 1  # one writer at a time
            await asyncio.sleep(0)
            order.append(name)
            inside -= 1

    await asyncio.gather(*(later(str(n)) for n in range(5)))
    assert sorted(order) == [str(n) for n in range(5)]
