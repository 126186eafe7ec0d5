"""Discord's limits through the emulator: the long roll, long echoes, and who sees /settings.

The `muster` fixture already fails a test on any request Discord would reject (content over 2,000
characters, ...) and on any logged error; these tests check that each answer is also the right one.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import Muster
from tests.emulator import NotAllowed

LONG_ROLL = "+".join(["120d999"] * 8)  # 960 dice, within the notation's limits


async def test_a_roll_too_long_for_one_message_is_summarised_with_every_die_attached(muster: Muster) -> None:
    w = muster.world
    record = await muster.emu.slash(w.alice, w.channel, "roll", dice=LONG_ROLL)
    response = await record.response(timeout=3)
    assert not response.ephemeral and response.message is not None
    content = response.content
    assert len(content) <= 2000 and f"rolled `{LONG_ROLL}`" in content
    terms = re.findall(r"^120d999: \[([\d, …]+)\] = (\d+)$", content, re.MULTILINE)
    assert len(terms) == 8 and all(shown.endswith("…") for shown, _ in terms)
    total = int(re.search(r"Total: \*\*(\d+)\*\*", content).group(1))  # type: ignore[union-attr]
    assert total == sum(int(value) for _, value in terms)

    (attached,) = response.message.attachments
    listing = attached.data.decode()
    rows = re.findall(r"^120d999: \[([\d, ]+)\]$", listing, re.MULTILINE)
    dice = [[int(d) for d in row.split(", ")] for row in rows]
    assert [len(d) for d in dice] == [120] * 8 and all(1 <= d <= 999 for row in dice for d in row)
    assert [sum(row) for row in dice] == [int(value) for _, value in terms]
    for (shown, _), row in zip(terms, dice, strict=True):  # the dice shown are the first ones rolled
        first = [int(d) for d in shown.rstrip(" …").rstrip(",").split(", ")]
        assert first == row[: len(first)]
    assert f"Total: {total}" in listing


async def test_a_short_roll_is_unchanged_and_has_no_attachment(muster: Muster) -> None:
    w = muster.world
    response = await (await muster.emu.slash(w.alice, w.channel, "roll", dice="3d6+2")).response()
    assert response.message is not None and not response.message.attachments
    assert re.fullmatch(r".*\n3d6: \[\d, \d, \d\]\n\+2\nTotal: \*\*\d+\*\*", response.content, re.DOTALL)


def assert_short_echo(text: str, typed: str) -> None:
    """The refusal repeats at most 100 characters of what was typed, on one line."""
    assert len(text) < 2000
    assert typed[:101] not in text
    echoed = re.search(r"`([^`]*)`", text)
    assert echoed is not None and len(echoed.group(1)) <= 100 and "\n" not in echoed.group(1)


async def test_an_unknown_40k_mission_of_6000_characters_gets_a_short_polite_refusal(muster: Muster) -> None:
    w = muster.world
    typed = "Marked for Death, but longer " * 207
    typed = typed[:6000]
    response = await (
        await muster.emu.slash(w.alice, w.channel, "40k start", opponent=w.bob, mission=typed)
    ).response()
    assert response.ephemeral
    assert response.content.startswith("There is no mission `Marked for Death, but longer")
    assert "`marked-for-death`" in response.content  # the missions to choose from are still listed
    assert_short_echo(response.content, typed)
    assert muster.bot is not None and not await muster.bot.sessions.open_sessions(w.guild.id)


async def test_an_unknown_warcry_battleplan_of_3000_characters_gets_a_short_polite_refusal(
    muster: Muster,
) -> None:
    w = muster.world
    typed = ("Ambush in the `ruins`\n" * 150)[:3000]
    response = await (
        await muster.emu.slash(w.alice, w.channel, "warcry battle", opponent=w.bob, battleplan=typed)
    ).response()
    assert response.ephemeral
    assert response.content.startswith("There is no battleplan called `Ambush in the ˋruinsˋ Ambush")
    assert "Choose one of:" in response.content
    assert_short_echo(response.content, typed)
    assert muster.bot is not None and not await muster.bot.sessions.open_sessions(w.guild.id)


UNREADABLE = "\n".join(
    f"Fighter number {n} who forgot every comma and wrote far too much" for n in range(1, 31)
)


@pytest.mark.parametrize("how", ["file", "form"])
async def test_a_roster_of_30_unreadable_lines_lists_ten_and_counts_the_rest(
    muster: Muster, how: str
) -> None:
    w = muster.world
    if how == "file":
        upload = muster.emu.upload("roster.txt", UNREADABLE.encode())
        record = await muster.emu.slash(w.alice, w.channel, "warcry warband", roster=upload)
    else:
        opened = await (await muster.emu.slash(w.alice, w.channel, "warcry warband")).response()
        assert opened.modal is not None
        field = opened.modal.fields[0].custom_id
        record = await muster.emu.submit_modal(w.alice, opened.modal, {field: UNREADABLE})
    response = await record.response(timeout=3)
    assert response.ephemeral and len(response.content) <= 2000
    assert response.content.startswith("I couldn't read every line of the roster:")
    listed = re.findall(r"^- line (\d+) \(`([^`]*)`\)", response.content, re.MULTILINE)
    assert [int(n) for n, _ in listed] == list(range(1, 11))
    assert all(len(echo) <= 40 for _, echo in listed)
    assert "…and 20 more lines like these" in response.content
    assert "Name, points, faction runemark, leader" in response.content  # how to write it instead


async def test_settings_are_hidden_from_members_without_manage_server(muster: Muster) -> None:
    w = muster.world
    (settings,) = [c for c in muster.emu.commands.all() if c["name"] == "settings"]
    assert settings["default_member_permissions"] == "32"  # Manage Server
    for sub in ("show", "reminders", "results-channel"):
        with pytest.raises(NotAllowed):
            await muster.emu.slash(w.alice, w.channel, f"settings {sub}")
    shown = await (await muster.emu.slash(w.carol, w.channel, "settings show")).response()
    assert shown.ephemeral and "Results channel" in shown.text()
    # A server may grant the command to everyone; the bot still refuses a change without Manage Server.
    refused = await (
        await muster.emu.slash(w.alice, w.channel, "settings reminders", minutes=30, bypass_checks=True)
    ).response()
    assert refused.ephemeral and "Manage Server" in refused.content
    settings_now = await muster.bot.guild_settings.get(w.guild.id)  # type: ignore[union-attr]
    assert settings_now.reminder_minutes is None
