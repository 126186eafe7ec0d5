"""`pack load` parses off the event loop (bot/play/packs.py): in a worker thread, under a time limit, and
every way a parse can end becomes a polite refusal."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from bot.chat.errors import UserError
from bot.play.packs import parse_off_loop
from rules import warmaster
from rules.warmaster import Pack

TACTICS = "tactics:\n  - {name: Ambush, cost: 0, carrier: table, effect: Something lurks.}\n"


async def test_a_pack_is_parsed_in_a_worker_thread() -> None:
    threads: list[int] = []

    def parse(text: str) -> Pack:
        threads.append(threading.get_ident())
        return warmaster.parse_pack(text)

    pack = await parse_off_loop(parse, TACTICS)
    assert pack.tactics is not None and pack.tactics[0].name == "Ambush"
    assert threads and threads[0] != threading.get_ident()


async def test_a_parse_past_the_time_limit_is_refused_while_the_loop_keeps_running() -> None:
    release = threading.Event()
    ticks = 0

    def stuck(text: str) -> str:
        release.wait(10)  # stands in for a parse that never ends
        return text

    async def other_users() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    others = asyncio.create_task(other_users())
    try:
        with pytest.raises(UserError) as caught:
            await parse_off_loop(stuck, "name: x\n", seconds=0.3)
    finally:
        release.set()
        others.cancel()
    assert "nothing was changed" in caught.value.message and "took too long" in caught.value.message
    assert ticks >= 2, "the event loop was held while the pack was read"


async def test_listed_problems_become_one_refusal_that_names_each() -> None:
    with pytest.raises(UserError) as caught:
        await parse_off_loop(
            warmaster.parse_pack, "tactics:\n  - {name: A, cost: lots, carrier: unit, effect: e}\n"
        )
    text = caught.value.message
    assert text.startswith("That pack was not loaded and nothing was changed; fix these and upload it again:")
    assert "• line 2: tactics[0].cost: Input should be a valid integer" in text


async def test_a_parser_bug_is_a_polite_refusal_and_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    def broken(text: str) -> None:
        raise KeyError(text)

    with caplog.at_level(logging.ERROR, logger="muster.packs"), pytest.raises(UserError) as caught:
        await parse_off_loop(broken, "name: x\n")
    assert caught.value.message.startswith("That pack was not loaded and nothing was changed")
    assert "error id" not in caught.value.message
    assert any(record.exc_info and record.exc_info[0] is KeyError for record in caplog.records)
