"""A whole game night through the emulator (issue 14's "Done when"): 11 sign-ups across Kill Team
and Warcry on the card's form, 5 club tables, an arranged game, a teacher with a learner, a late
drop-out whose place goes to the waitlist, a restart in the middle, pairing at the cut-off, the
organiser publishing, each pairing's game opened in its thread, results recorded, and the summary
posted in the results channel."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from bot.db.models import GameResult, GameSession
from bot.nights.service import at
from tests.e2e.conftest import Muster
from tests.e2e.night_driver import card, create, leave, night_cog, play_out, sign_up, the_night
from tests.emulator.model import User

# A Warcry battle's optional tallies, answered once a round with their first answer (the first
# player holds the objectives, carries the treasure...) so that the battle has a winner.
FIRST_PLAYER_SCORES = {r"^r\d+\.blood\.p1$": "100", r"^r\d+\.(?!blood|end|confirm)": ""}
TABLES = [
    ("kz1", "Killzone 1", "Kill Team", "Octarius ruins"),
    ("kz2", "Killzone 2", "Kill Team", "Bheta-Decima hab"),
    ("kz3", "Killzone 3", "Kill Team", "Gallowdark"),
    ("wc1", "Warcry board 1", "Warcry", "Ravaged lands"),
    ("wc2", "Warcry board 2", "Warcry", "Dreadfane"),
]


async def slash(muster: Muster, user: User, command: str, **options: object) -> str:
    record = await muster.emu.slash(user, muster.world.channel, command, **options)
    response = await record.response()
    assert response.ephemeral, response.text()
    text = (await record.settled()).text() if response.deferred else response.text()
    await muster.settle()
    return text


def players(muster: Muster, count: int) -> list[User]:
    emu, guild = muster.emu, muster.world.guild
    made = []
    for index in range(1, count + 1):
        user = emu.add_user(f"player{index}", global_name=f"Player {index}")
        emu.add_member(guild, user)
        made.append(user)
    return made


async def test_a_whole_night_from_sign_ups_to_the_summary(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    results = emu.add_channel(w.guild, "results")
    p = players(muster, 12)
    await slash(muster, w.carol, "settings results-channel", channel=results)
    for table, name, systems, terrain in TABLES:
        said = await slash(
            muster, w.carol, "night tables add", table=table, name=name, systems=systems, terrain=terrain
        )
        assert f"`{table}`" in said
    listed = await slash(muster, w.alice, "night tables list")
    assert all(name in listed for _t, name, _s, _k in TABLES)

    answer = await create(muster, capacity=11, title="Thursday club night")
    assert "Thursday club night" in answer.content
    info, state = await the_night(muster)

    # Eleven sign-ups fill the night; a twelfth waits.
    kill_team, warcry = p[:6], p[6:11]
    await sign_up(muster, p[0], "Kill Team", points="1000", arranged=p[1])  # an arranged game
    await sign_up(muster, p[1], "Kill Team", arranged=p[0])
    await sign_up(muster, p[2], "Kill Team", teaching=["teach"])  # a teacher ...
    await sign_up(muster, p[3], "Kill Team", teaching=["learn"], note="first game!")  # ... and a learner
    for user in kill_team[4:]:
        await sign_up(muster, user, "kt")
    for user in warcry:
        assert "place" in (await sign_up(muster, user, "Warcry")).content
    waiting = await sign_up(muster, p[11], "Warcry, Kill Team")
    assert "waitlist, place 1" in waiting.content
    _info, state = await the_night(muster)
    assert len(state.signups) == 11 and [s.player for s in state.waitlist] == [p[11].id]
    assert "Signed up (11/11)" in card(muster).all_text() and "Waitlist (1)" in card(muster).all_text()
    await slash(muster, p[4], "night reminders", enabled="off")  # one player wants no reminder

    # A late drop-out: the waitlist's first takes the place and is told by DM.
    gone = await leave(muster, p[10])
    assert "left" in gone.content
    [promoted] = [m for m in emu.dms(p[11]) if "you're in" in m.content]
    assert "Thursday club night" in promoted.content

    # A restart in the middle: everything is read back from the store.
    await muster.restart()
    _info, state = await the_night(muster)
    assert [s.player for s in state.signups][-1] == p[11].id and not state.waitlist
    cog = night_cog(muster)
    await cog.events.idle()
    [event] = emu.events_of(w.guild)
    assert event.name == "Thursday club night" and f"muster-night:{info.id}" in (event.description or "")

    # The cut-off passes: sign-ups close, the night is paired, the players reminded once.
    cutoff = at(state.settings.cutoff)
    await cog.clock.sweep(now=cutoff + timedelta(seconds=1))
    await cog.clock.sweep(now=cutoff + timedelta(seconds=2))  # a second sweep finds it all done
    await muster.settle()
    _info, state = await the_night(muster)
    assert state.status == "review" and state.result is not None
    result = state.result
    pairs = {frozenset(pairing.players): pairing for pairing in result.pairings}
    assert frozenset((p[0].id, p[1].id)) in pairs  # the arranged game is kept
    assert frozenset((p[2].id, p[3].id)) in pairs  # the learner plays the teacher
    tables = {t.table_id: t for t in state.tables}
    for pairing in result.pairings:
        assert pairing.table_id is not None and pairing.system in tables[pairing.table_id].systems
    seated = [pl for pairing in result.pairings for pl in pairing.players] + [
        s.player for s in result.sat_out
    ]
    assert sorted(seated) == sorted(s.player for s in state.signups)  # everyone paired once or told why
    assert len(result.pairings) == 5 and len(result.sat_out) == 1
    draft = [m for m in emu.dms(w.carol) if any("Draft pairings" in (e.get("title") or "") for e in m.embeds)]
    assert len(draft) == 1 and "paired because" in draft[0].all_text()
    reminded = {u.name for u in p if any("Reminder" in m.content for m in emu.dms(u))}
    assert reminded == {u.name for u in p if u.id in {s.player for s in state.signups}} - {p[4].name}

    # The organiser publishes: each pairing's game opens in its own thread with its two players.
    published = await slash(muster, w.carol, "night publish")
    assert "5 games opened" in published
    _info, state = await the_night(muster)
    assert state.status == "published" and all(pr.session_id for pr in state.result.pairings)  # type: ignore[union-attr]
    threads = emu.threads(w.channel)
    assert len(threads) == 5
    for pairing in state.result.pairings:  # type: ignore[union-attr]
        assert pairing.session_id is not None
        table = await muster.table(pairing.session_id)
        assert table.is_thread and set(table.thread_members) >= set(pairing.players)
    assert "Pairings: Thursday club night" in emu.messages(w.channel)[-6].all_text() or any(
        "Pairings: Thursday club night" in m.all_text() for m in emu.messages(w.channel)
    )
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        sessions = list(await db.scalars(select(GameSession).where(GameSession.night_id == info.id)))
    assert len(sessions) == 5

    # The games are played to their results; the summary follows in the results channel.
    for pairing in state.result.pairings:  # type: ignore[union-attr]
        assert pairing.session_id is not None
        finished = await play_out(muster, pairing.session_id, optional=FIRST_PLAYER_SCORES)
        assert finished.finished
    await muster.announced()
    async with muster.bot.store.read() as db:
        recorded = list(await db.scalars(select(GameResult).where(GameResult.night_id == info.id)))
    assert len(recorded) == 5
    await night_cog(muster).clock.sweep(now=at(state.settings.starts_at) + timedelta(hours=3))
    await muster.settle()
    _info, state = await the_night_past(muster, info.id)
    assert state.status == "finished"
    summary = [
        m for m in emu.messages(results) if any("Night summary" in (e.get("title") or "") for e in m.embeds)
    ]
    assert len(summary) == 1
    text = summary[0].all_text()
    for pairing in state.result.pairings:  # type: ignore[union-attr]
        first, second = pairing.players
        assert f"<@{first}>" in text and f"<@{second}>" in text
    assert "Sitting out" in text
    history = await slash(muster, w.alice, "night history")
    assert "Thursday club night" in history


async def the_night_past(muster: Muster, night_id: str) -> tuple[object, object]:
    return await night_cog(muster).nights.load(night_id)
