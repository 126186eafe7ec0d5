"""Driving events through the emulator: making one, entering on its card, sending lists, reading
the posts back, and a hand computation of standings to hold the posted ones against."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from rules.event.state import EventState
from tests.e2e.conftest import Muster
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message, User


def when(days: float = 3.0) -> tuple[str, str]:
    moment = (datetime.now(UTC) + timedelta(days=days)).replace(second=0, microsecond=0)
    return moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M")


async def command(muster: Muster, user: User, sub: str, /, **options: Any) -> str:
    """Run `/event <sub>` as `user`; the text of the bot's answer (a deferred one's follow-up)."""
    record = await muster.emu.slash(user, muster.world.channel, f"event {sub}", **options)
    response = await record.response()
    await muster.settle()
    return said(response)


def said(response: InteractionResponse) -> str:
    if response.followups:
        return response.followups[-1].all_text()
    if response.message is not None:
        return response.message.all_text()
    return response.text()


async def create(muster: Muster, **options: Any) -> str:
    date, time = when()
    values: dict[str, Any] = {
        "name": "Winter GT",
        "system": "Necromunda",
        "date": date,
        "time": time,
        **options,
    }
    return await command(muster, muster.world.carol, "create", **values)


def card(muster: Muster) -> Message:
    for message in reversed(muster.emu.messages(muster.world.channel)):
        if any(b.get("label") == "Enter" for b in message.buttons()) or (
            message.embeds and "Players (" in message.all_text()
        ):
            return message
    raise LookupError("no event card in #games")


async def enter(muster: Muster, user: User) -> str:
    response = await (await muster.emu.click(user, card(muster), label="Enter")).response()
    await muster.settle()
    return response.text()


async def the_event(muster: Muster) -> EventState:
    assert muster.bot is not None
    events = await muster.bot.events.in_server(muster.world.guild.id, active=False)
    assert len(events) == 1, events
    return events[0][1]


def posts(muster: Muster, title: str) -> list[Message]:
    """The bot's posts in #games whose first embed's title contains `title`."""
    return [
        m
        for m in muster.emu.messages(muster.world.channel)
        if m.author.bot and m.embeds and title in str(m.embeds[0].get("title", ""))
    ]


PROOF = re.compile(
    r"Event `(?P<event>[0-9a-f]+)` · step `(?P<step>\w+)` "
    r"· choice `(?P<faction>[^|`]+)\|(?P<digest>[0-9a-f]{64})` "
    r"· nonce `(?P<nonce>[0-9a-f]+)` · commitment `(?P<commitment>[0-9a-f]{64})`"
)


# ---------------------------------------------------------------------- standings by hand


@dataclass
class Row:
    player: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    vp: int = 0
    vp_diff: int = 0
    opponents: list[int] = field(default_factory=list)


def hand_standings(
    players: list[int], results: list[tuple[int, int | None, int, int]], dropped: set[int]
) -> list[str]:
    """The standings lines a 3/1/0/3 event with tiebreakers SOS, VP difference, total VP shows,
    worked out here from the games (first, second or None for a bye, their VP) as a person would."""
    rows = {p: Row(p) for p in players}
    for first, second, first_vp, second_vp in results:
        if second is None:
            rows[first].byes += 1
            rows[first].points += 3
            continue
        for me, other, mine, theirs in (
            (first, second, first_vp, second_vp),
            (second, first, second_vp, first_vp),
        ):
            row = rows[me]
            row.vp += mine
            row.vp_diff += mine - theirs
            row.opponents.append(other)
            if mine > theirs:
                row.wins += 1
                row.points += 3
            elif mine == theirs:
                row.draws += 1
                row.points += 1
            else:
                row.losses += 1
    sos = {p: sum(rows[o].points for o in rows[p].opponents) for p in rows}
    key = {p: (rows[p].points, sos[p], rows[p].vp_diff, rows[p].vp) for p in rows}
    ordered = sorted(rows, key=lambda p: (tuple(-v for v in key[p]), p))
    lines = []
    rank = 0
    for index, player in enumerate(ordered):
        if index == 0 or key[player] != key[ordered[index - 1]]:
            rank = index + 1
        r = rows[player]
        record = f"{r.wins + r.byes}-{r.draws}-{r.losses}"
        gone = " ✖" if player in dropped else ""
        lines.append(
            f"{rank}. <@{player}> · F{player % 100} · {record} · **{r.points}** · "
            f"{sos[player]} · {r.vp_diff} · {r.vp}{gone}"
        )
    return lines
