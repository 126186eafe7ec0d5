"""Driving game nights through the emulator: making one, signing up on its card, reading it back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, cast

from bot.nights import NightInfo
from cogs.night import NightCog
from rules.night.night import NightState
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
    record = await muster.emu.slash(user or muster.world.carol, muster.world.channel, "night create", **values)
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
