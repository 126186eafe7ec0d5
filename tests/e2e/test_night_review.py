"""The organiser's part of a game night: who may organise (Manage Server or the organiser role),
pairing on demand, the review (swap two players, move a table, drop a no-show) and publishing;
a change after the cut-off passed to the organiser; reminders a player turned off; the next night
of a weekly one."""

from __future__ import annotations

from datetime import timedelta

from tests.e2e.conftest import Muster
from tests.e2e.night_driver import card, create, leave, night_cog, sign_up, the_night, when
from tests.emulator.model import User


async def run(muster: Muster, user: User, command: str, **options: object) -> str:
    record = await muster.emu.slash(user, muster.world.channel, command, **options)
    response = await record.response()
    assert response.ephemeral, response.text()
    text = (await record.settled()).text() if response.deferred else response.text()
    await muster.settle()
    return text


def players(muster: Muster, count: int) -> list[User]:
    made = []
    for index in range(1, count + 1):
        user = muster.emu.add_user(f"member{index}")
        muster.emu.add_member(muster.world.guild, user)
        made.append(user)
    return made


async def test_organisers_review_swap_move_drop_and_publish(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    p = players(muster, 5)
    refused = await create(muster, user=w.alice)
    assert refused.ephemeral and "Manage Server" in refused.content
    role = emu.add_role(w.guild, "Night organisers")
    emu.give_role(w.guild, w.bob, role)
    said = await run(muster, w.carol, "settings organiser-role", role=role)
    assert "Night organisers" in said or str(role.id) in said
    await create(muster, user=w.bob, systems="Kill Team")  # the organiser role may make nights
    for table, name, systems in (
        ("kz1", "Killzone 1", "Kill Team"),
        ("kz2", "Killzone 2", "Kill Team"),
        ("kz3", "Killzone 3", "Kill Team"),
        ("wc1", "Warcry board", "Warcry"),
    ):
        await run(muster, w.carol, "night tables add", table=table, name=name, systems=systems)
    for user in p:
        await sign_up(muster, user, "Kill Team")

    not_yours = await run(muster, w.alice, "night pair")
    assert "organiser" in not_yours
    draft = await run(muster, w.bob, "night pair")
    assert "Draft pairings" in draft
    _info, state = await the_night(muster)
    assert state.status == "review" and state.result is not None
    first, second = state.result.pairings
    [sat] = state.result.sat_out
    assert {first.table_id, second.table_id} <= {"kz1", "kz2", "kz3"}

    # Swap one player of each pairing.
    a, b = first.players[0], second.players[0]
    await run(muster, w.bob, "night swap", first=emu.users[a], second=emu.users[b])
    _info, state = await the_night(muster)
    assert state.result is not None
    assert b in state.result.pairings[0].players and a in state.result.pairings[1].players

    # Move the first pairing to the free killzone; a Warcry board doesn't suit it.
    free = ({"kz1", "kz2", "kz3"} - {p.table_id for p in state.result.pairings}).pop()
    await run(muster, w.bob, "night move", pairing=1, table=free)
    unsuited = await run(muster, w.bob, "night move", pairing=1, table="wc1")
    assert "doesn't suit" in unsuited
    _info, state = await the_night(muster)
    assert state.result is not None and state.result.pairings[0].table_id == free

    # A no-show: their opponent plays the one who sat out instead.
    no_show = state.result.pairings[1].players[0]
    opponent = state.result.pairings[1].players[1]
    await run(muster, w.bob, "night drop", player=emu.users[no_show])
    _info, state = await the_night(muster)
    assert state.result is not None
    assert any(set(pr.players) == {opponent, sat.player} for pr in state.result.pairings)
    assert state.result.sat_out_of(no_show) is not None

    before = state
    refused_publish = await run(muster, w.alice, "night publish")
    assert "organiser" in refused_publish
    _info, state = await the_night(muster)
    assert state == before
    published = await run(muster, w.bob, "night publish")
    assert "2 games opened" in published
    assert len(emu.threads(w.channel)) == 2
    assert "Pairings:" in "\n".join(m.all_text() for m in emu.messages(w.channel))


async def test_after_the_cut_off_a_change_goes_to_the_organiser(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    await create(muster, systems="Warcry", cutoff_hours=0)
    await sign_up(muster, w.alice, "Warcry")
    info, state = await the_night(muster)
    await run(muster, w.carol, "night pair")  # closes sign-ups (too few to pair: it stays closed)
    _info, state = await the_night(muster)
    assert state.status in ("closed", "review")
    late = await sign_up(muster, w.bob, "Warcry")
    assert "passed your request to the organiser" in late.content
    asked = [m for m in emu.dms(w.carol) if "asks about" in m.content]
    assert len(asked) == 1 and f"<@{w.bob.id}>" in asked[0].content
    _info, after = await the_night(muster)
    assert [s.player for s in after.signups] == [w.alice.id]
    gone = await leave(muster, w.alice)
    assert "passed your request" in gone.content
    assert info.id == _info.id


async def test_reminders_once_unless_turned_off_and_a_weekly_night_makes_the_next(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    await create(muster, systems="Kill Team", repeat="weekly", title="Weekly league")
    await sign_up(muster, w.alice, "Kill Team")
    await sign_up(muster, w.bob, "Kill Team")
    info, state = await the_night(muster)
    clock = night_cog(muster).clock
    remind_at = info.starts_at - timedelta(hours=24)
    await clock.sweep(now=remind_at + timedelta(minutes=1))
    await muster.settle()
    [to_alice] = [m for m in emu.dms(w.alice) if "Reminder" in m.content]
    assert "Weekly league" in to_alice.content and f"<t:{state.settings.starts_at}:R>" in to_alice.content
    stop = await (await emu.click(w.alice, to_alice, label="Stop game-night reminders")).response()
    assert stop.ephemeral and "won't get game-night reminders" in stop.content
    await clock.sweep(now=remind_at + timedelta(minutes=2))
    await muster.settle()
    assert len([m for m in emu.dms(w.bob) if "Reminder" in m.content]) == 1  # once only

    # When the night starts, its next one is made: a week on, with a card of its own.
    await clock.sweep(now=info.starts_at + timedelta(minutes=1))
    await muster.settle()
    nights = await night_cog(muster).nights.in_server(w.guild.id)
    later = [n for n in nights if n[0].id != info.id]
    assert len(later) == 1
    assert later[0][1].settings.starts_at == state.settings.starts_at + 7 * 24 * 3600
    assert later[0][1].settings.title == "Weekly league" and not later[0][1].signups
    assert "Weekly league" in card(muster).all_text()
    await clock.sweep(now=info.starts_at + timedelta(minutes=2))
    assert len(await night_cog(muster).nights.in_server(w.guild.id)) == 2

    # Alice turned reminders off: the next night reminds Bob only.
    next_info = later[0][0]
    await sign_up(muster, w.alice, "Kill Team")
    await sign_up(muster, w.bob, "Kill Team")
    await clock.sweep(now=next_info.starts_at - timedelta(hours=23))
    await muster.settle()
    assert len([m for m in emu.dms(w.alice) if "Reminder" in m.content]) == 1
    assert len([m for m in emu.dms(w.bob) if "Reminder" in m.content]) == 2


async def test_with_two_nights_coming_up_a_command_takes_the_next_and_says_which(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    later_date, _time, _moment = when(days=10)
    await create(muster, title="Club night", systems="Kill Team")
    await create(muster, title="Club night", systems="Kill Team", date=later_date)
    nights = await night_cog(muster).nights.in_server(w.guild.id)
    (soon, soon_state), (later, later_state) = nights
    start = f"<t:{soon_state.settings.starts_at}:F>"

    edited = await run(muster, w.carol, "night edit", capacity=10)
    assert "the next one" in edited and start in edited  # which night, when several could be meant
    shown = await (await emu.slash(w.carol, w.channel, "night show")).response()
    assert shown.ephemeral and start in shown.content and "Club night" in shown.text()
    cancelled = await run(muster, w.carol, "night cancel")
    assert "the next one" in cancelled and start in cancelled
    soon_after = await night_cog(muster).nights.load(soon.id)
    later_after = await night_cog(muster).nights.load(later.id)
    assert soon_after[1].status == "cancelled" and soon_after[1].settings.capacity == 10
    assert later_after[1] == later_state  # the later night is untouched

    alone = await run(muster, w.carol, "night edit", capacity=12)  # one night left: no need to say
    assert "the next one" not in alone


async def test_refusals_name_each_system_by_its_title(muster: Muster) -> None:
    w = muster.world
    await create(muster, systems="Kill Team")
    await run(muster, w.carol, "night tables add", table="wc1", name="Warcry board", systems="Warcry")
    not_offered = await sign_up(muster, w.alice, "Warcry")
    assert not_offered.content == "This night doesn't offer Warcry. It offers: Kill Team."
    w.bob.locale = "de"
    auf_deutsch = await sign_up(muster, w.bob, "Warcry")
    assert "Warcry" in auf_deutsch.content and "Kill Team" in auf_deutsch.content
    assert "warcry" not in auf_deutsch.content and "killteam" not in auf_deutsch.content
    w.bob.locale = "en-US"
    for user in (w.alice, w.bob):
        await sign_up(muster, user, "Kill Team")
    await run(muster, w.carol, "night pair")
    unsuited = await run(muster, w.carol, "night move", pairing=1, table="wc1")
    assert unsuited == "**Warcry board** doesn't suit Kill Team."


async def test_a_drop_stays_between_the_organiser_and_the_player(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    p = players(muster, 3)
    await create(muster, systems="Kill Team", title="Club night")
    for user in p:
        await sign_up(muster, user, "Kill Team")
    await run(muster, w.carol, "night pair")
    _info, state = await the_night(muster)
    assert state.result is not None
    no_show = emu.users[state.result.pairings[0].players[0]]
    draft = await run(muster, w.carol, "night drop", player=no_show)
    assert "dropped by the organiser" in draft  # the organiser's own draft says why
    [told] = [m for m in emu.dms(no_show) if "Club night" in m.content]
    assert "taken you out of the pairings" in told.content

    await run(muster, w.carol, "night publish")
    [posted] = [
        m for m in emu.messages(w.channel) if any(e.get("title") == "Pairings: Club night" for e in m.embeds)
    ]
    public = posted.all_text()
    assert f"<@{no_show.id}>" not in public and "dropped by the organiser" not in public
    assert "below" not in public  # the start cards aren't laid out under it
    assert "start card" in public


async def test_history_shows_a_cancelled_night_played_no_games(muster: Muster) -> None:
    w = muster.world
    await create(muster, systems="Kill Team", title="Rained off")
    for user in players(muster, 4):
        await sign_up(muster, user, "Kill Team")
    await run(muster, w.carol, "night pair")  # two games in the draft ...
    await run(muster, w.carol, "night cancel")  # ... never played
    history = await run(muster, w.alice, "night history")
    [line] = [line for line in history.splitlines() if "Rained off" in line]
    assert "cancelled" in line and "no games" in line
    assert "2 games" not in line and "4 players" not in line
