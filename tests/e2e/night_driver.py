"""Driving game nights through the emulator: making one, signing up on its card, reading it back."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from bot.chat import custom_ids
from bot.nights.service import NightInfo
from bot.play.questions import components
from bot.play.table import waited_for
from cogs.night.commands import NightCog
from rules.night.night import NightState
from rules.session import Question
from tests.e2e.conftest import Muster
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message, User


def night_cog(muster: Muster) -> NightCog:
    assert muster.bot is not None
    return cast(NightCog, muster.bot.get_cog("Night"))


def when(days: float = 3.0) -> tuple[str, str, datetime]:
    """A date and time `days` ahead (UTC, on the minute), as typed, and as a moment."""
    moment = (datetime.now(UTC) + timedelta(days=days)).replace(second=0, microsecond=0)
    return moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M"), moment


async def create(muster: Muster, user: User | None = None, **options: Any) -> InteractionResponse:
    """`/night create` in #games (carol organises by default)."""
    date, time, _moment = when()
    values: dict[str, Any] = {"date": date, "time": time, "systems": "Kill Team, Warcry", **options}
    record = await muster.emu.slash(
        user or muster.world.carol, muster.world.channel, "night create", **values
    )
    response = await record.response()
    await muster.settle()
    return response


async def the_night(muster: Muster) -> tuple[NightInfo, NightState]:
    """The one night coming up in the server, fresh from the store."""
    nights = await night_cog(muster).nights.in_server(muster.world.guild.id)
    assert len(nights) == 1, nights
    return nights[0]


def card(muster: Muster) -> Message:
    """The night's card: the latest message in #games with a Sign up button."""
    for message in reversed(muster.emu.messages(muster.world.channel)):
        if any(b.get("label") == "Sign up" for b in message.buttons()):
            return message
    raise LookupError("no night card in #games")


async def sign_up(
    muster: Muster,
    user: User,
    systems: str,
    *,
    points: str = "",
    teaching: list[str] | None = None,
    arranged: User | None = None,
    note: str = "",
    button: str = "Sign up",
) -> InteractionResponse:
    """Press a card button that opens the form, fill it in and submit it; the bot's answer."""
    opened = await (await muster.emu.click(user, card(muster), label=button)).response()
    if opened.modal is None:
        return opened  # refused before any form
    values: dict[str, Any] = {"systems": systems, "points": points, "note": note}
    values["teaching"] = teaching or []
    values["arranged"] = [arranged] if arranged is not None else []
    record = await muster.emu.submit_modal(user, opened.modal, values)
    response = await record.response()
    await muster.settle()
    return response


async def leave(muster: Muster, user: User) -> InteractionResponse:
    response = await (await muster.emu.click(user, card(muster), label="Leave")).response()
    await muster.settle()
    return response


# ---------------------------------------------------------------------- playing a night's games


def _holding(muster: Muster, user: User, custom_id: str, sid_channel: int) -> Message:
    """The newest message holding component `custom_id`: in the game's table, else the user's DMs."""
    emu = muster.emu
    places = [*reversed(emu.messages(emu.channels[sid_channel])), *reversed(emu.dms(user))]
    for message in places:
        if any(c.get("custom_id") == custom_id for c in message.walk_components()):
            return message
    raise LookupError(f"no component {custom_id!r} for {user.name}")


def _choice(asked: Question) -> tuple[str, list[str]]:
    """The first allowed answer to `asked`: (button value, select values)."""
    if asked.kind == "number":
        assert asked.number is not None
        return str(asked.number.minimum), []
    allowed = [o.value for o in asked.options if not o.disabled]
    if asked.kind == "done" or not allowed:
        return (asked.options[0].value if asked.options else custom_ids.DONE_VALUE), []
    return allowed[0], allowed[: max(asked.min_values, 1)]


async def play_out(muster: Muster, sid: str, optional: dict[str, str] | None = None, limit: int = 120) -> Any:
    """Play game `sid` to its end through its components: each awaited question answered with its
    first allowed answer (a number's minimum) by the player it waits on; an optional question whose
    step matches a pattern of `optional` is answered once with its value first (a Warcry tally, so
    a battle has a winner). Returns the finished state."""
    bot, emu = muster.bot, muster.emu
    assert bot is not None
    answered: set[str] = set()
    for _ in range(limit):
        info, state = await bot.sessions.load(sid, fresh=True)
        if state.finished:
            return state
        procedure = bot.games.get(info.system).procedure
        extra = [
            (player, asked, value)
            for player in state.players
            for asked in procedure.ask(state, player)
            for pattern, value in (optional or {}).items()
            if asked.optional and asked.step not in answered and re.search(pattern, asked.step)
        ]
        if extra:
            player, asked, value = extra[0]
            answered.add(asked.step)
        else:
            waits = waited_for(procedure, state)
            assert waits, f"game {sid} waits for nobody"
            player, asked = waits[0]
            value = ""
        await _answer(muster, sid, info.table_id, emu.users[player], asked, value)
    raise AssertionError(f"game {sid} did not end in {limit} answers")


async def _answer(muster: Muster, sid: str, table_id: int, user: User, asked: Question, value: str) -> None:
    """Answer `asked` on the component the bot drew for it (`value`, else the first allowed answer)."""
    emu = muster.emu
    first, picks = _choice(asked)
    value = value or first
    buttons, selects = components(asked)
    if selects:
        picks = [value] if asked.kind == "number" else picks  # a menu of the range's numbers
        custom_id = custom_ids.select(sid, selects[0].step)
        record = await emu.select(user, _holding(muster, user, custom_id, table_id), custom_id, picks)
    else:
        button = next((b for b in buttons if b.value == value), None) or buttons[0]
        custom_id = custom_ids.button(sid, button.step, button.value, button.form)
        record = await emu.click(user, _holding(muster, user, custom_id, table_id), custom_id=custom_id)
        opened = await record.response()
        if opened.modal is not None:
            filled = {f.custom_id: value if asked.kind == "number" else "1" for f in opened.modal.fields}
            record = await emu.submit_modal(user, opened.modal, filled)
    await record.response()
    await muster.settle()
