"""Game nights through the emulator: making a night, its card and scheduled event, signing up, and
bad input (a night in the past, capacity 0, an unknown time zone, signing up twice), each refused
ephemerally with nothing changed."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from bot.db.models import Night
from tests.e2e.conftest import Muster
from tests.e2e.night_driver import card, create, night_cog, sign_up, the_night, when


async def count_nights(muster: Muster) -> int:
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        return int(await db.scalar(select(func.count()).select_from(Night)) or 0)


async def test_a_night_gets_a_card_and_a_scheduled_event(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    answer = await create(muster, capacity=8, place="The Old Hall", title="Thursday club night")
    assert answer.ephemeral and "Thursday club night" in answer.content
    info, state = await the_night(muster)
    assert state.settings.systems == ["killteam", "warcry"] and state.settings.capacity == 8
    shown = card(muster)
    text = shown.all_text()
    assert f"<t:{state.settings.starts_at}:F>" in text and "The Old Hall" in text
    assert "Kill Team" in text and "Warcry" in text

    await night_cog(muster).events.idle()
    events = emu.events_of(w.guild)
    assert [e.name for e in events] == ["Thursday club night"]
    assert events[0].location == "The Old Hall"
    assert int(events[0].scheduled_start_time.timestamp()) == state.settings.starts_at

    answer = await sign_up(muster, w.alice, "Kill Team", points="1000")
    assert answer.ephemeral and "place 1 of 8" in answer.content
    _info, state = await the_night(muster)
    assert [s.player for s in state.signups] == [w.alice.id]
    assert "1000 pts" in card(muster).all_text()
    assert info.id == _info.id


async def test_bad_input_is_refused_and_nothing_changes(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    past_date, past_time, _moment = when(days=-1)
    answer = await create(muster, date=past_date, time=past_time)
    assert answer.ephemeral and "already passed" in answer.content
    answer = await create(muster, capacity=0)
    assert answer.ephemeral and "from 2 to 200 players" in answer.content
    assert await count_nights(muster) == 0

    refused = await (
        await emu.slash(w.carol, w.channel, "settings time-zone", zone="Mars/Olympus_Mons")
    ).response()
    assert refused.ephemeral and "isn't a time zone I know" in refused.content
    assert muster.bot is not None
    assert (await muster.bot.guild_settings.get(w.guild.id)).time_zone is None

    await create(muster)
    await sign_up(muster, w.bob, "Warcry")
    _info, before = await the_night(muster)
    twice = await sign_up(muster, w.bob, "Warcry")
    assert twice.ephemeral and "already signed up" in twice.content
    _info, after = await the_night(muster)
    assert after == before
    assert await count_nights(muster) == 1


async def test_times_are_read_in_the_servers_time_zone_and_a_sign_up_can_change(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    said = await (await emu.slash(w.carol, w.channel, "settings time-zone", zone="europe/london")).response()
    assert said.ephemeral and "Europe/London" in said.content
    answer = await create(muster, date="2030-07-01", time="7pm", systems="Kill Team, Warcry, Blood Bowl")
    assert answer.ephemeral
    _info, state = await the_night(muster)
    assert state.settings.starts_at == int(datetime(2030, 7, 1, 18, 0, tzinfo=UTC).timestamp())  # BST
    assert state.settings.systems == ["killteam", "warcry", "blood-bowl"]
    assert f"<t:{state.settings.starts_at}:F>" in card(muster).all_text()

    await sign_up(muster, w.alice, "Warcry")
    changed = await sign_up(
        muster, w.alice, "Blood Bowl, Kill Team", teaching=["learn"], button="Change my sign-up"
    )
    assert changed.ephemeral and "updated" in changed.content
    _info, state = await the_night(muster)
    [mine] = state.signups
    assert mine.systems == ["blood-bowl", "killteam"] and mine.wants_to_learn
    unknown = await sign_up(muster, w.bob, "Necromunda")
    assert unknown.ephemeral and "doesn't offer" in unknown.content
    not_yet = await (await emu.click(w.bob, card(muster), label="Change my sign-up")).response()
    assert not_yet.ephemeral and "aren't signed up" in not_yet.content
    _info, after = await the_night(muster)
    assert after == state


async def test_the_night_option_offers_each_night_in_the_servers_time_zone(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    await (await emu.slash(w.carol, w.channel, "settings time-zone", zone="Europe/Berlin")).response()
    await create(muster, date="2030-12-02", time="18:30", title="Advent night")
    typed = await (
        await emu.autocomplete(w.carol, w.channel, "night show", focused="night", night="advent")
    ).response()
    [offered] = typed.choices
    assert offered["name"] == "Advent night · 2030-12-02 18:30 Europe/Berlin"
    info, _state = await the_night(muster)
    assert offered["value"] == info.id
