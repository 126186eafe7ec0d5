"""A night's Discord scheduled event kept in step with it (made once, edited, deleted with the
night), found again after a crash by its marker, and a server where the bot may not make events."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from bot.db.models import Night
from tests.e2e.conftest import Muster
from tests.e2e.night_driver import create, night_cog, sign_up, the_night
from tests.emulator.events import ACTIVE, COMPLETED, SCHEDULED
from tests.emulator.model import permissions


async def test_the_event_follows_the_night_and_goes_with_it(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    await create(muster, title="Club night")
    cog = night_cog(muster)
    await cog.events.idle()
    [event] = emu.events_of(w.guild)
    info, state = await the_night(muster)

    moved = await (
        await emu.slash(w.carol, w.channel, "night edit", time="21:30", title="Late club night")
    ).response()
    assert moved.ephemeral and "Late club night" in moved.content
    await cog.events.idle()
    [same] = emu.events_of(w.guild)
    _info, state = await the_night(muster)
    assert same.id == event.id and same.name == "Late club night"
    assert int(same.scheduled_start_time.timestamp()) == state.settings.starts_at
    assert same.scheduled_start_time.strftime("%H:%M") == "21:30"

    # After a crash between making the event and recording it, the next sync finds it by its marker.
    assert muster.bot is not None
    async with muster.bot.store.write() as db:
        await db.execute(update(Night).where(Night.id == info.id).values(event_id=None, event_version=0))
    await cog.events.sync_all()
    assert [e.id for e in emu.events_of(w.guild)] == [event.id]
    assert len(emu.requests_to("POST", r"/guilds/\d+/scheduled-events")) == 1

    gone = await (await emu.slash(w.carol, w.channel, "night cancel")).response()
    assert gone.ephemeral and "cancelled" in gone.content
    await cog.events.idle()
    await muster.settle()
    assert emu.events_of(w.guild) == []
    assert "cancelled" in emu.last_message(w.channel).content


async def test_without_create_events_the_night_goes_on_and_the_channel_is_told_once(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    bot_role = next(r for r in w.guild.roles.values() if r.bot_id == emu.bot_user.id)
    bot_role.permissions &= ~permissions("create_events")
    await create(muster, title="First")
    await create(muster, title="Second", date="2030-01-05")
    cog = night_cog(muster)
    await cog.events.idle()
    await muster.settle()
    assert emu.events_of(w.guild) == []
    told = [m for m in emu.messages(w.channel) if "Create Events" in m.content]
    assert len(told) == 1
    nights = await cog.nights.in_server(w.guild.id)
    assert len(nights) == 2
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        for info, _state in nights:
            row = await db.get(Night, info.id)
            assert row is not None and row.event_version == row.version and row.event_id is None


async def test_a_finished_night_completes_its_event_and_makes_the_next_one_once(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    await create(muster, systems="Kill Team", title="Weekly league", repeat="weekly")
    for user in (w.alice, w.bob):
        await sign_up(muster, user, "Kill Team")
    for command in ("night pair", "night publish"):
        await (await emu.slash(w.carol, w.channel, command)).settled()
        await muster.settle()
    cog = night_cog(muster)
    await cog.events.idle()
    [event] = emu.events_of(w.guild)
    assert event.status == SCHEDULED
    info, state = await the_night(muster)

    finished = await (await emu.slash(w.carol, w.channel, "night finish")).response()
    assert finished.ephemeral and "is over" in finished.content
    await cog.events.idle()
    assert event.status == COMPLETED  # through "active", the only way Discord lets it end
    assert [e["status"] for e in event.history][-1] == ACTIVE
    [(following, next_state)] = await cog.nights.in_server(w.guild.id)  # made at the finish
    assert next_state.settings.starts_at == state.settings.starts_at + 7 * 24 * 3600
    assert next_state.settings.title == "Weekly league"

    await cog.clock.sweep(now=info.starts_at + timedelta(minutes=1))  # the sweep finds it made
    await muster.settle()
    assert [n[0].id for n in await cog.nights.in_server(w.guild.id)] == [following.id]
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        assert await db.scalar(select(func.count()).select_from(Night)) == 2
    await cog.events.idle()
    assert [e.status for e in emu.events_of(w.guild)] == [COMPLETED, SCHEDULED]
