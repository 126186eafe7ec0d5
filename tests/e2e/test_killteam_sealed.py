"""Kill Team's sealed choices checked as a suspicious player checks them, through the emulator.

What the table (the channel and the game's thread, never a DM) shows when a player seals gives the
commitment; the reveal gives each choice and its nonce; SHA-256 over `session|step|player|choice|nonce`,
computed here with hashlib alone, must give the same commitment. Both must stay readable at the table
for the rest of the game: Discord shows nobody what a message said before an edit.
"""

from __future__ import annotations

import hashlib
import re

from tests.e2e.conftest import Muster
from tests.e2e.killteam_driver import KillTeamTable
from tests.emulator.model import Message

REVEAL_STEP = re.compile(r"/verify` with game `([0-9a-f]+)`, step `([^`]+)`")
REVEAL_LINE = re.compile(r"<@(\d+)>: choice `([^`]*)`, nonce `([^`]*)`, commitment `([0-9a-f]{64})`")


def table_now(table: KillTeamTable) -> list[Message]:
    """What the table shows now: the current version of every post in the channel and the thread."""
    emu, channel = table.muster.emu, table.muster.world.channel
    places = [channel] if table.channel.id == channel.id else [channel, table.channel]
    return [m for place in places for m in emu.messages(place) if not m.ephemeral]


def reveals_shown(table: KillTeamTable) -> dict[tuple[str, int], tuple[str, str, str]]:
    """(step, player) -> (choice, nonce, commitment) from every reveal the table shows now."""
    found: dict[tuple[str, int], tuple[str, str, str]] = {}
    for m in table_now(table):
        text = m.text()
        head = REVEAL_STEP.search(text)
        if head is None:
            continue
        assert head.group(1) == table.sid, text
        for player, choice, nonce, digest in REVEAL_LINE.findall(text):
            found[(head.group(2), int(player))] = (choice, nonce, digest)
    return found


def check_reveal(table: KillTeamTable, step: str, players: list[int]) -> None:
    """The table shows `step`'s reveal now, and each choice and nonce hash to its commitment."""
    revealed = reveals_shown(table)
    for player in players:
        assert (step, player) in revealed, f"no reveal of {step} for {player} at the table now"
        choice, nonce, digest = revealed[(step, player)]
        payload = f"{table.sid}|{step}|{player}|{choice}|{nonce}"
        assert hashlib.sha256(payload.encode()).hexdigest() == digest, (step, player)


async def test_the_scouting_reveal_stays_readable_after_the_attacker_is_done(muster: Muster) -> None:
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "random", "free")
    state = await table.play(until=lambda s: s.stage == "scouting_resolve")
    assert state.attacker is not None
    check_reveal(table, "scouting", list(state.players))
    await table.answer(state.attacker)  # Done: the question moves on to the defender
    assert (await table.state()).queue == [state.opponent(state.attacker)]
    check_reveal(table, "scouting", list(state.players))
    assert (await table.play()).finished
    check_reveal(table, "scouting", list(state.players))
