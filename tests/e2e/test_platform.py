"""The platform through the emulator: start-up, the first commands, errors, faults, restarts."""

from __future__ import annotations

import re
import sys

import pytest

from tests.e2e.conftest import Muster
from tests.emulator import OptionError

BASE_COMMANDS = {"roll", "rolloff", "rolls", "settings", "help", "games", "game", "verify"}


async def test_ready_and_registers_commands(muster: Muster) -> None:
    names = {c["name"] for c in muster.emu.commands.all()}
    assert BASE_COMMANDS <= names


async def test_roll_answers_with_dice_and_total_in_range(muster: Muster) -> None:
    w = muster.world
    record = await muster.emu.slash(w.alice, w.channel, "roll", dice="3d6+2")
    response = await record.response(timeout=3)
    assert not response.ephemeral
    dice = [int(d) for d in re.search(r"3d6: \[([\d, ]+)\]", response.content).group(1).split(", ")]  # type: ignore[union-attr]
    total = int(re.search(r"Total: \*\*(-?\d+)\*\*", response.content).group(1))  # type: ignore[union-attr]
    assert len(dice) == 3 and all(1 <= d <= 6 for d in dice)
    assert total == sum(dice) + 2 and 5 <= total <= 20
    assert record.latency is not None and record.latency < 3


async def test_a_bot_closed_keeps_its_cogs_modules_and_the_next_one_serves(muster: Muster) -> None:
    """Closing a bot removes its cogs but leaves their modules imported, so a process that starts a
    bot again (the tests start one per test) does not import every cog afresh; the next bot has its
    own cogs and answers as the first did."""
    first, module = muster.bot, sys.modules["cogs.dice"]
    assert first is not None and first.cogs
    second = await muster.restart()
    assert not first.cogs and second.cogs and sys.modules["cogs.dice"] is module
    w = muster.world
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="2d6")).response()
    assert not response.ephemeral and "Total:" in response.content


async def test_roll_counts_successes(muster: Muster) -> None:
    w = muster.world
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="20d6>=4")).response()
    dice = [int(d) for d in re.search(r"\[([\d, ]+)\]", response.content).group(1).split(", ")]  # type: ignore[union-attr]
    assert f"Successes: **{sum(1 for d in dice if d >= 4)}**" in response.content


@pytest.mark.parametrize("notation", ["banana", "1001d6", "d1001", "3d6+"])
async def test_bad_notation_is_an_ephemeral_error_with_examples(muster: Muster, notation: str) -> None:
    w = muster.world
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice=notation)).response()
    assert response.ephemeral
    assert "3d6+2" in response.content and "2d6kh1" in response.content
    assert not muster.emu.messages(w.channel)  # nothing public was posted


async def test_rolls_are_audited_and_listed(muster: Muster) -> None:
    w = muster.world
    rolled = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="2d6")).response()
    shown = re.search(r"2d6: \[(\d+), (\d+)\]", rolled.content)
    assert shown
    recent = await (await muster.emu.slash(w.bob, w.channel, "rolls recent")).response()
    assert recent.ephemeral
    text = recent.text()
    assert "/roll 2d6" in text and f"[{shown.group(1)}, {shown.group(2)}]" in text


async def test_rolloff_rerolls_ties_and_names_a_winner(muster: Muster) -> None:
    w = muster.world
    saw_tie = False
    for _ in range(12):
        response = await (await muster.emu.slash(w.alice, w.channel, "rolloff", opponent=w.bob)).response()
        lines = response.content.splitlines()
        rounds = [line for line in lines if line.startswith("Roll ")]
        *ties, last = rounds
        assert all("tie, roll again" in t for t in ties) and "tie" not in last
        saw_tie = saw_tie or bool(ties)
        a, b = (int(x) for x in re.findall(r"> (\d+)", last))
        winner = w.alice if a > b else w.bob
        assert f"**<@{winner.id}> wins.**" in response.content
    assert saw_tie, "the seeded dice should produce at least one tie in 12 roll-offs"


async def test_rolloff_refuses_yourself_and_bots(muster: Muster) -> None:
    w = muster.world
    me = await (await muster.emu.slash(w.alice, w.channel, "rolloff", opponent=w.alice)).response()
    assert me.ephemeral and "yourself" in me.content
    robot = muster.emu.add_user("Robo", bot=True)
    muster.emu.add_member(w.guild, robot)
    bot_answer = await (await muster.emu.slash(w.alice, w.channel, "rolloff", opponent=robot)).response()
    assert bot_answer.ephemeral and "bot" in bot_answer.content


async def test_settings_need_manage_server_checked_by_the_bot(muster: Muster) -> None:
    w = muster.world
    results = muster.emu.add_channel(w.guild, "results")
    refused = await (
        await muster.emu.slash(
            w.alice, w.channel, "settings results-channel", channel=results, bypass_checks=True
        )
    ).response()
    assert refused.ephemeral and "Manage Server" in refused.content
    shown = await (await muster.emu.slash(w.carol, w.channel, "settings show")).response()
    assert "each game's own channel" in shown.text()
    done = await (
        await muster.emu.slash(w.carol, w.channel, "settings results-channel", channel=results)
    ).response()
    assert done.ephemeral and f"<#{results.id}>" in done.content
    shown = await (await muster.emu.slash(w.carol, w.channel, "settings show")).response()
    assert f"<#{results.id}>" in shown.text()


async def test_help_lists_every_game(muster: Muster) -> None:
    w = muster.world
    response = await (await muster.emu.slash(w.alice, w.channel, "help")).response()
    text = response.text()
    for word in ("Dice", "Kill Team", "Warcry", "Warmaster", "40K", "Scores"):
        assert word in text


async def test_option_limits_are_in_the_registered_schema(muster: Muster) -> None:
    w = muster.world
    with pytest.raises(OptionError):
        await muster.emu.slash(w.alice, w.channel, "rolloff", opponent=w.bob, my_bonus=99)


async def test_restart_with_same_commands_makes_no_sync_request(muster: Muster) -> None:
    before = len(muster.emu.sync_requests())
    assert before >= 1
    await muster.restart()
    assert len(muster.emu.sync_requests()) == before
    w = muster.world
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="d6")).response()
    assert "Total" in response.content


async def test_injected_429_and_5xx_are_survived(muster: Muster) -> None:
    w = muster.world
    limited = muster.emu.inject("POST", r"/interactions/\d+/[^/]+/callback", status=429, count=1)
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="d6")).response(timeout=5)
    assert "Total" in response.content and limited.hits == 1
    broken = muster.emu.inject("POST", r"/interactions/\d+/[^/]+/callback", status=502, count=1)
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="d8")).response(timeout=5)
    assert "Total" in response.content and broken.hits == 1


async def test_dropped_gateway_reconnects_and_commands_still_work(muster: Muster) -> None:
    w = muster.world
    await muster.emu.drop_gateway()
    await muster.emu.wait_ready(10)
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="2d6")).response(timeout=5)
    assert "Total" in response.content
