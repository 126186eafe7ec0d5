"""Scores and leagues through the emulator: record, confirm, dispute, resolve, void, announce, rank,
page, export and seasons, with servers kept apart and session results counted without extra steps."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import func, select

from bot.db.models import GameResult, utcnow
from bot.play.games import SessionInfo
from bot.scores import ScoreService
from bot.scores.cache import bump_generation
from cogs.pick.adapter import PickAdapter
from rules.pick.procedure import start
from rules.scores import ResultStatus, parse_csv, replay, standings
from tests.e2e.conftest import Muster
from tests.emulator import Channel, InteractionRecord, InteractionResponse, Message, User

T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)


# ---------------------------------------------------------------- helpers


def service(muster: Muster) -> ScoreService:
    assert muster.bot is not None
    cog = muster.bot.get_cog("Scores")
    assert cog is not None
    return cog.service  # type: ignore[attr-defined, no-any-return]


async def rows(muster: Muster) -> list[GameResult]:
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        return list(await db.scalars(select(GameResult).order_by(GameResult.id)))


async def announced(muster: Muster) -> None:
    """Everything owed to Discord so far has been sent: outbox messages and announcements."""
    await muster.announced()


async def slash(
    muster: Muster, who: User, command: str, where: Channel | None = None, /, **options: Any
) -> InteractionResponse:
    record = await muster.emu.slash(who, where or muster.world.channel, command, **options)
    return await record.response()


async def results_channel(muster: Muster) -> Channel:
    w = muster.world
    channel = muster.emu.add_channel(w.guild, "results")
    done = await slash(muster, w.carol, "settings results-channel", channel=channel)
    assert done.ephemeral
    return channel


async def record(
    muster: Muster,
    reporter: User,
    opponent: User,
    mine: int,
    theirs: int,
    system: str = "warcry",
    **extra: object,
) -> GameResult:
    answer = await slash(
        muster,
        reporter,
        "scores record",
        opponent=opponent,
        system=system,
        my_score=mine,
        their_score=theirs,
        **extra,
    )
    assert "recorded" in answer.text() or "confirm" in answer.text(), answer.text()
    await muster.settle()  # the confirm prompt and the DM go out after the answer
    return (await rows(muster))[-1]


def msg(response: InteractionResponse) -> Message:
    assert response.message is not None
    return response.message


async def settled(record: InteractionRecord) -> Message:
    await record.response()
    message = await record.settled()
    assert message is not None
    return message


def mentions(text: str) -> list[int]:
    return [int(m) for m in re.findall(r"<@(\d+)>", text)]


def last_with(messages: list[Message], needle: str) -> Message:
    found = [m for m in messages if needle in m.text()]
    assert found, f"no message with {needle!r}"
    return found[-1]


async def seed(
    muster: Muster,
    games: list[tuple[int, int, int, int, int | None]],
    *,
    system: str = "warcry",
    guild_id: int | None = None,
    season_id: int | None = None,
) -> None:
    """Confirmed, already announced results written straight to the store (a league's past)."""
    assert muster.bot is not None
    async with muster.bot.store.write() as db:
        for i, (a, b, sa, sb, winner) in enumerate(games):
            db.add(
                GameResult(
                    guild_id=guild_id or muster.world.guild.id,
                    channel_id=muster.world.channel.id,
                    system=system,
                    player_a=a,
                    player_b=b,
                    score_a=sa,
                    score_b=sb,
                    winner_id=winner,
                    played_at=T0 + timedelta(days=i),
                    status="confirmed",
                    announced=True,
                    season_id=season_id,
                    reported_by=a,
                )
            )
        await bump_generation(db, guild_id or muster.world.guild.id)  # written behind the service's back


# ---------------------------------------------------------------- recording and confirming


async def test_a_recorded_result_is_pending_until_the_opponent_confirms_then_rated_and_announced(
    muster: Muster,
) -> None:
    emu, w = muster.emu, muster.world
    results = await results_channel(muster)
    answer = await slash(
        muster,
        w.alice,
        "scores record",
        opponent=w.bob,
        system="Warcry",
        my_score=20,
        their_score=15,
        mission="Dominate",
        my_faction="Iron Golems",
        their_faction="Untamed Beasts",
    )
    assert answer.ephemeral and "pending" in answer.content and f"<#{results.id}>" in answer.content
    await muster.settle()
    [row] = await rows(muster)
    assert (row.status, row.system, row.player_a, row.player_b, row.winner_id) == (
        "pending",
        "warcry",
        w.alice.id,
        w.bob.id,
        w.alice.id,
    )
    in_channel = emu.last_message(results)
    assert in_channel is not None and f"<@{w.bob.id}>, please confirm" in in_channel.content
    in_dm = emu.dms(w.bob)[-1]
    assert in_dm.button(label="Confirm") and in_dm.button(label="Dispute")

    # Pending results don't count.
    board = await slash(muster, w.alice, "scores leaderboard")
    assert "No confirmed games yet" in board.text()

    # Only the opponent may confirm.
    own = await (await emu.click(w.alice, in_channel, label="Confirm")).response()
    assert own.ephemeral and "has to confirm" in own.content
    stranger = await (await emu.click(w.carol, in_channel, label="Confirm")).response()
    assert stranger.ephemeral and "Only <@" in stranger.content
    meddler = await (await emu.click(w.carol, in_channel, label="Dispute")).response()
    assert (
        meddler.ephemeral and f"Only <@{w.bob.id}>, the opponent in this game, can dispute" in meddler.content
    )
    assert (await rows(muster))[0].status == "pending"

    done = await (await emu.click(w.bob, in_dm, label="Confirm")).response()
    assert "Confirmed" in done.content and not msg(done).buttons()
    again = await (await emu.click(w.bob, in_channel, label="Confirm")).response()
    assert again.ephemeral and "already confirmed" in again.content

    await announced(muster)
    [row] = await rows(muster)
    assert row.status == "confirmed" and row.announced and row.confirmed_at is not None
    post = last_with(emu.messages(results), "Warcry result")
    text = post.embed_text()
    assert "Dominate" in text and "Iron Golems vs Untamed Beasts" in text and "Result #1" in text
    # The rating changes, as computed by replaying the confirmed results.
    ledger = replay(await service(muster).results.records(w.guild.id), "warcry")
    change = ledger.change(row.id)
    assert change is not None
    for c in change:
        assert f"<@{c.player}> {c.before.display} → {c.after.display}" in text
    assert change[0].after.display > 1000 > change[1].after.display
    board = await slash(muster, w.carol, "scores leaderboard")
    assert mentions(board.text()) == [w.alice.id, w.bob.id]


async def test_without_a_results_channel_the_prompt_and_announcement_go_to_the_games_channel(
    muster: Muster,
) -> None:
    emu, w = muster.emu, muster.world
    rec = await emu.slash(
        w.alice, w.channel, "scores record", opponent=w.bob, system="killteam", my_score=10, their_score=10
    )
    answer = await rec.response()
    assert answer.ephemeral and "pending" in answer.content and f"<#{w.channel.id}>" in answer.content
    prompt = await emu.wait_for_message(w.channel, lambda m: "please confirm" in m.content, after=rec)
    await (await emu.click(w.bob, prompt, label="Confirm")).response()
    await announced(muster)
    post = last_with(emu.messages(w.channel), "Kill Team result")
    assert "a draw" in post.embed_text()


async def test_a_disputed_result_counts_only_once_resolved_by_manage_server(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    results = await results_channel(muster)
    row = await record(muster, w.alice, w.bob, 30, 2)
    prompt = emu.last_message(results)
    assert prompt is not None
    disputed = await (await emu.click(w.bob, prompt, label="Dispute")).response()
    assert "Disputed" in disputed.content
    await announced(muster)
    flag = last_with(emu.messages(results), "was disputed")
    assert f"/scores resolve result:{row.id}" in flag.content
    assert (await rows(muster))[0].status == "disputed"
    assert "No confirmed games yet" in (await slash(muster, w.carol, "scores leaderboard")).text()
    # The DM copy is stale now: confirming a disputed result is refused.
    late = await (await emu.click(w.bob, emu.dms(w.bob)[-1], label="Confirm")).response()
    assert late.ephemeral and "already disputed" in late.content

    refused = await slash(muster, w.alice, "scores resolve", result=row.id, decision="confirm")
    assert refused.ephemeral and "Manage Server" in refused.content
    assert (await rows(muster))[0].status == "disputed"

    # The organiser corrects the scores (it was 3 – 2, not 30 – 2) and confirms.
    fixed = await slash(
        muster,
        w.carol,
        "scores resolve",
        result=row.id,
        decision="confirm",
        score_a=3,
        score_b=2,
        note="typo",
    )
    assert fixed.ephemeral and "corrected" in fixed.content
    await announced(muster)
    [stored] = await rows(muster)
    assert (stored.status, stored.score_a, stored.score_b, stored.winner_id) == (
        "confirmed",
        3,
        2,
        w.alice.id,
    )
    assert "3 – 2" in last_with(emu.messages(results), "Warcry result").embed_text()
    board = await slash(muster, w.carol, "scores leaderboard")
    assert "3–2" in board.text()


async def test_voiding_replays_ratings_to_exactly_the_values_without_the_result(muster: Muster) -> None:
    w = muster.world
    alice, bob, carol = w.alice.id, w.bob.id, w.carol.id
    await seed(
        muster,
        [
            (alice, bob, 5, 3, alice),
            (bob, carol, 4, 4, None),
            (carol, alice, 6, 1, carol),
            (alice, bob, 2, 7, bob),
            (bob, carol, 3, 1, bob),
        ],
    )
    before = await service(muster).results.records(w.guild.id)
    victim = before[1].id
    without = [r for r in before if r.id != victim]
    await slash(muster, w.carol, "scores leaderboard")  # warms the rating memo with the result in it
    refused = await slash(muster, w.alice, "scores void", result=victim)
    assert refused.ephemeral and "Manage Server" in refused.content
    done = await slash(muster, w.carol, "scores void", result=victim, reason="played the wrong mission")
    assert done.ephemeral and "void" in done.content
    await announced(muster)
    assert f"Result #{victim} " in last_with(muster.emu.messages(w.channel), "was voided by").content
    book, records = await service(muster).results.book(w.guild.id)
    assert [r.id for r in records] == [r.id for r in without]
    assert book.ledger(None).ratings() == replay(without).ratings()
    assert book.ledger("warcry").ratings() == replay(without, "warcry").ratings()
    text = (await slash(muster, w.alice, "scores leaderboard")).text()
    table = standings(without, replay(without))
    assert mentions(text) == [s.player for s in table]
    for s in table:
        assert f"**{s.rating.display}**" in text
    assert (await rows(muster))[1].status == "void"


async def test_a_reporter_may_withdraw_a_pending_result(muster: Muster) -> None:
    w = muster.world
    row = await record(muster, w.alice, w.bob, 1, 0)
    bob_try = await slash(muster, w.bob, "scores void", result=row.id)
    assert bob_try.ephemeral and "Manage Server" in bob_try.content
    done = await slash(muster, w.alice, "scores void", result=row.id)
    assert done.ephemeral and "void" in done.content
    assert (await rows(muster))[0].status == "void"


async def test_a_pending_result_confirms_itself_after_24_hours(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    row = await record(muster, w.alice, w.bob, 12, 9)
    scores = service(muster)
    assert await scores.auto_confirm(now=utcnow() + timedelta(hours=23)) == []
    assert await scores.auto_confirm(now=utcnow() + timedelta(hours=25)) == [row.id]
    await announced(muster)
    post = last_with(emu.messages(w.channel), "Warcry result")
    assert "auto-confirmed" in post.embed_text()
    assert (await rows(muster))[0].status == "confirmed"


async def test_confirm_buttons_keep_working_after_a_restart(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    row = await record(muster, w.alice, w.bob, 6, 4)
    await muster.restart()
    done = await (await emu.click(w.bob, emu.dms(w.bob)[-1], label="Confirm")).response()
    assert "Confirmed" in done.content
    await announced(muster)
    assert (await rows(muster))[0].status == "confirmed"
    assert f"Result #{row.id}" in last_with(emu.messages(w.channel), "Warcry result").embed_text()


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("who", "options", "message"),
    [
        ("alice", {"opponent": "alice"}, "against yourself"),
        ("alice", {"opponent": "robot"}, "Bots don't play"),
        ("alice", {"my_score": -1}, "can't be negative"),
        ("alice", {"their_score": 123456}, "looks like a typo"),
        ("alice", {"system": "!!!"}, "game system"),
    ],
)
async def test_bad_records_are_refused_ephemerally_and_store_nothing(
    muster: Muster, who: str, options: dict[str, object], message: str
) -> None:
    emu, w = muster.emu, muster.world
    robot = emu.add_user("Robo", bot=True)
    emu.add_member(w.guild, robot)
    users = {"alice": w.alice, "bob": w.bob, "robot": robot}
    values: dict[str, object] = {"opponent": w.bob, "system": "warcry", "my_score": 3, "their_score": 1}
    values.update(
        {k: users.get(v, v) if isinstance(v, str) and k == "opponent" else v for k, v in options.items()}
    )
    answer = await slash(muster, users[who], "scores record", **values)
    assert answer.ephemeral and message in answer.content
    assert await rows(muster) == []
    assert not emu.messages(w.channel)


async def test_unknown_results_and_seasons_are_refused(muster: Muster) -> None:
    w = muster.world
    gone = await slash(muster, w.carol, "scores resolve", result=999, decision="void")
    assert gone.ephemeral and "no result #999" in gone.content
    season = await slash(muster, w.alice, "scores leaderboard", season="Winter 1999")
    assert season.ephemeral and "no season called **Winter 1999**" in season.content
    export = await slash(muster, w.alice, "scores export", season="nope")
    assert export.ephemeral and "no season called" in export.content
    for command in ("scores leaderboard", "scores history", "scores player"):
        odd = await slash(muster, w.alice, command, system="!!!")
        assert odd.ephemeral and "letters or digits" in odd.content, (command, odd.text())


# ---------------------------------------------------------------- seasons


async def test_seasons_need_manage_server_and_split_the_standings(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    refused = await slash(muster, w.alice, "scores season start", name="Spring")
    assert refused.ephemeral and "Manage Server" in refused.content
    await seed(muster, [(w.alice.id, w.bob.id, 9, 1, w.alice.id)])  # before any season
    started = await slash(muster, w.carol, "scores season start", name="Spring 2025")
    assert not started.ephemeral and "Spring 2025" in started.content
    twice = await slash(muster, w.carol, "scores season start", name="Summer")
    assert twice.ephemeral and "still running" in twice.content
    row = await record(muster, w.bob, w.alice, 8, 2)
    await (await emu.click(w.alice, emu.dms(w.alice)[-1], label="Confirm")).response()
    [_, stored] = await rows(muster)
    assert stored.id == row.id and stored.season_id is not None
    # Default: the running season; `all` for all time.
    this_season = (await slash(muster, w.alice, "scores leaderboard")).text()
    assert "Season: Spring 2025" in this_season and mentions(this_season) == [w.bob.id, w.alice.id]
    all_time = (await slash(muster, w.alice, "scores leaderboard", season="all")).text()
    assert "All time" in all_time and "· 1-0-1 ·" in all_time
    ended = await slash(muster, w.carol, "scores season end")
    assert "has ended" in ended.content
    none_left = await slash(muster, w.carol, "scores season end")
    assert none_left.ephemeral and "No season is running" in none_left.content
    by_name = (await slash(muster, w.alice, "scores leaderboard", season="spring 2025")).text()
    assert mentions(by_name) == [w.bob.id, w.alice.id]
    reused = await slash(muster, w.carol, "scores season start", name="Spring 2025")
    assert reused.ephemeral and "already had a season" in reused.content


# ---------------------------------------------------------------- leaderboard, history, player, export

ALICE, BOB, CARA, DAN, EVE = range(5)


async def test_the_leaderboard_ranks_a_hand_worked_league_and_pages_past_one_embed(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    players = [w.alice, w.bob, w.carol] + [emu.add_user(n) for n in ("dan", "eve")]
    for extra in players[3:]:
        emu.add_member(w.guild, extra)
    p = [u.id for u in players]
    league = [  # the first nine games of tests/rules/scores/test_scores_league.py
        (p[ALICE], p[BOB], 20, 10, p[ALICE]),
        (p[ALICE], p[CARA], 18, 12, p[ALICE]),
        (p[BOB], p[DAN], 15, 5, p[BOB]),
        (p[CARA], p[DAN], 14, 13, p[CARA]),
        (p[ALICE], p[DAN], 10, 10, None),
        (p[BOB], p[CARA], 16, 15, p[BOB]),
        (p[CARA], p[BOB], 11, 9, p[CARA]),
        (p[ALICE], p[EVE], 21, 3, p[ALICE]),
        (p[EVE], p[BOB], 14, 12, p[EVE]),
        (p[EVE], p[CARA], 10, 10, None),
        (p[DAN], p[EVE], 7, 7, None),
        (p[BOB], p[ALICE], 11, 11, None),
    ]
    await seed(muster, league)
    board = await slash(muster, w.alice, "scores leaderboard", system="warcry", season="all")
    text = board.text()
    # Alice 3W 2D = 11; Bob 2W 1D 3L = 7; Cara 2W 1D 2L = 7 (Cara ahead on rating: one defeat fewer;
    # Bob also lost to Eve); Eve 1W 2D 1L = 5; Dan 0W 2D 2L = 2.
    assert mentions(text) == [p[ALICE], p[CARA], p[BOB], p[EVE], p[DAN]]
    assert f"`  1` <@{p[ALICE]}> — 5 · 3-2-0 · 80–46 ·" in text
    assert f"`  5` <@{p[DAN]}> — 4 · 0-2-2 · 35–46 ·" in text
    assert msg(board).buttons() == []  # one page: no buttons

    # Twenty newcomers with one game each push the table past one embed page.
    crowd = [emu.add_user(f"player{i:02}") for i in range(20)]
    for user in crowd:
        emu.add_member(w.guild, user)
    await seed(muster, [(crowd[i].id, crowd[i + 1].id, 3, 1, crowd[i].id) for i in range(0, 20, 2)])
    board = await slash(muster, w.alice, "scores leaderboard", season="all")
    first = msg(board)
    assert "Page 1 of 2 · 25 players" in first.embed_text()
    assert len(mentions(first.embed_text())) == 15
    nxt = await (await emu.click(w.bob, first, label="Next ▶")).response()
    assert nxt.type == 7  # the same message, edited in place
    assert "Page 2 of 2" in first.embed_text() and len(mentions(first.embed_text())) == 10
    back = await (await emu.click(w.bob, first, label="◀ Previous")).response()
    assert back.type == 7 and "Page 1 of 2" in first.embed_text()
    picture = await emu.click(w.bob, first, label="As image")
    shown = await settled(picture)
    assert shown.ephemeral and shown.attachments and shown.attachments[0].filename == "leaderboard.png"
    image = Image.open(io.BytesIO(shown.attachments[0].data))
    assert image.format == "PNG" and image.height > 25 * 20

    # Asked for as an image: a PNG, with names fetched from the server.
    rec = await emu.slash(w.alice, w.channel, "scores leaderboard", season="all", image=True)
    posted = await settled(rec)
    assert not posted.ephemeral and posted.attachments[0].data.startswith(b"\x89PNG")


async def test_history_and_player_summary(muster: Muster) -> None:
    w = muster.world
    a, b, c = w.alice.id, w.bob.id, w.carol.id
    await seed(muster, [(a, b, 5, 3, a), (b, c, 4, 4, None), (c, a, 6, 1, c), (a, b, 2, 7, b)])
    await seed(muster, [(a, c, 9, 0, a)], system="killteam")
    everything = (await slash(muster, w.alice, "scores history")).text()
    assert everything.count("<t:") == 5
    assert everything.index("#5 ") < everything.index("#1 ")  # newest first
    between = (await slash(muster, w.alice, "scores history", user=w.alice, vs=w.bob)).text()
    assert re.findall(r"#(\d+) <t:", between) == ["4", "1"]
    kill_team = (await slash(muster, w.alice, "scores history", system="Kill Team")).text()
    assert re.findall(r"#(\d+) <t:", kill_team) == ["5"] and ":d> Kill Team: **<@" in kill_team
    summary = await slash(muster, w.bob, "scores player", user=w.alice)
    text = summary.text()
    assert "4 games · 2 won, 0 drawn, 2 lost · points 17–16 (+1)" in text
    assert f"<@{b}>: 2 games · 1-0-1 · 7–10" in text and f"<@{c}>: 2 games · 1-0-1 · 10–6" in text
    assert "Warcry" in text and "Kill Team" in text
    nobody = await slash(muster, w.bob, "scores player", user=muster.emu.add_user("zed"))
    assert "no confirmed games" in nobody.text()


async def test_export_round_trips_to_the_same_rows(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    a, b, c = w.alice.id, w.bob.id, w.carol.id
    await seed(muster, [(a, b, 5, 3, a), (b, c, 4, 4, None), (c, a, 6, 1, c)])
    await record(
        muster, w.alice, w.bob, 2, 1, mission='=SUM("x"), with, commas', my_faction="Orks “Ere we go”"
    )
    rec = await emu.slash(w.bob, w.channel, "scores export")
    sent = await settled(rec)
    assert sent.ephemeral and sent.attachments[0].filename == "results-all.csv"
    data = sent.attachments[0].data
    exported = parse_csv(data)
    stored = await service(muster).results.records(w.guild.id, confirmed_only=False)
    assert exported == stored and len(exported) == 4
    assert exported[-1].status is ResultStatus.PENDING
    assert data.decode("utf-8").splitlines()[0].startswith("id,played_at,system,mission,player_a")
    assert ",Alice," in data.decode("utf-8")  # names fetched for the people reading the file


async def test_a_second_server_sees_none_of_the_first_servers_data(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    a, b = w.alice.id, w.bob.id
    await seed(muster, [(a, b, 5, 3, a), (b, a, 4, 4, None)])
    await slash(muster, w.carol, "scores season start", name="Spring")
    other = emu.add_guild("Other Club")
    hall = emu.add_channel(other, "hall")
    boss = emu.add_user("dora")
    emu.add_member(other, boss, manage_guild=True)
    emu.add_member(other, w.alice)
    emu.add_member(other, w.bob)
    await emu.wait_until(
        lambda: muster.bot is not None and muster.bot.get_guild(other.id) is not None,
        5,
        "the second server is known to the bot",
    )
    assert (
        "No confirmed games yet"
        in (await slash(muster, w.alice, "scores leaderboard", hall, season="all")).text()
    )
    assert "No confirmed games match" in (await slash(muster, w.alice, "scores history", hall)).text()
    assert "no confirmed games" in (await slash(muster, w.alice, "scores player", hall)).text()
    season = await slash(muster, w.alice, "scores leaderboard", hall, season="Spring")
    assert season.ephemeral and "no seasons yet" in season.content
    for command, options in (
        ("scores resolve", {"result": 1, "decision": "void"}),
        ("scores void", {"result": 1}),
    ):
        refused = await slash(muster, boss, command, hall, **options)
        assert refused.ephemeral and "no result #1 in this server" in refused.content
    rec = await emu.slash(w.alice, hall, "scores export")
    sent = await settled(rec)
    assert parse_csv(sent.attachments[0].data) == []
    choices = await (
        await emu.autocomplete(boss, hall, "scores void", focused="result", result="")
    ).response()
    assert choices.choices == []
    assert [r.status for r in await rows(muster)] == ["confirmed", "confirmed"]


# ---------------------------------------------------------------- permissions


async def test_a_results_channel_the_bot_cannot_post_in_is_reported_not_an_error(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    results = await results_channel(muster)
    emu.deny_bot(results, "send_messages")
    answer = await emu.slash(
        w.alice, w.channel, "scores record", opponent=w.bob, system="warcry", my_score=4, their_score=1
    )
    assert (await answer.response()).ephemeral
    prompt = await emu.wait_for_message(w.channel, lambda m: "please confirm" in m.content, after=answer)
    assert f"couldn't post in <#{results.id}>" in prompt.content  # asked here instead, and said why
    await (await emu.click(w.bob, prompt, label="Confirm")).response()
    await announced(muster)
    assert not [m for m in emu.messages(results) if m.embeds]
    post = last_with(emu.messages(w.channel), "Warcry result")
    assert post.embeds
    warning = last_with(emu.messages(w.channel), "I couldn't announce result")
    assert warning.content.startswith(f"<@{w.alice.id}>")  # the organiser (here, the reporter) is told
    assert (await rows(muster))[0].announced


# ---------------------------------------------------------------- results from game sessions


@pytest.fixture
async def toy(muster: Muster) -> AsyncIterator[Muster]:
    muster.extra_adapters.append(PickAdapter())
    await muster.restart()
    yield muster


async def played_pick(toy: Muster, alice_picks: str, bob_picks: str) -> str:
    """A Pick game opened by Carol between Alice and Bob, and both picks made; its session id."""
    emu, w = toy.emu, toy.world
    assert toy.bot is not None
    opened = await toy.bot.sessions.open(
        guild_id=w.guild.id,
        channel_id=w.channel.id,
        organiser_id=w.carol.id,
        system="pick",
        build=lambda sid, r: start(sid, [w.alice.id, w.bob.id], r),
    )
    await toy.settle()
    for user, pick in ((w.alice, alice_picks), (w.bob, bob_picks)):
        prompt = [m for m in emu.dms(user) if "Pick a number" in m.all_text()][-1]
        await (await emu.click(user, prompt, label=pick)).response()
    return opened.info.id


async def test_a_finished_session_is_confirmed_rated_and_announced_without_extra_steps(toy: Muster) -> None:
    emu, w = toy.emu, toy.world
    assert toy.bot is not None
    results = await results_channel(toy)
    await slash(toy, w.carol, "scores season start", name="League")
    sid = await played_pick(toy, "3", "1")
    await announced(toy)
    [row] = await rows(toy)
    assert row.session_id == sid
    assert (row.status, row.winner_id, row.announced) == ("confirmed", w.alice.id, True)
    assert row.season_id is not None
    post = last_with(emu.messages(results), "result")
    assert "from the game session" in post.embed_text() and "1000 →" in post.embed_text()
    board = (await slash(toy, w.bob, "scores leaderboard")).text()
    assert "Season: League" in board and mentions(board) == [w.alice.id, w.bob.id]
    assert toy.bot is not None
    async with toy.bot.store.read() as db:
        assert await db.scalar(select(func.count()).select_from(GameResult)) == 1


async def test_a_session_result_is_announced_once_its_last_messages_are_queued_not_on_a_timer(
    toy: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's last step stores its result before its messages are rendered, so the result waits;
    the render itself wakes the announcer. Here the last render waits until the announcer has looked
    once and left the result waiting; with the sweeps an hour apart nothing else would wake it."""
    emu, w = toy.emu, toy.world
    toy.overrides["sweep_seconds"] = 3600.0
    bot = await toy.restart()
    results = await results_channel(toy)
    renderer, render = bot.sessions.renderer, bot.sessions.renderer.after_step

    async def after_the_announcer_looked(info: SessionInfo, *args: Any, **kwargs: Any) -> None:
        if info.status != "open":
            await service(toy).idle()
            assert not (await rows(toy))[0].announced  # left waiting for the game's last messages
        await render(info, *args, **kwargs)

    monkeypatch.setattr(renderer, "after_step", after_the_announcer_looked)
    await played_pick(toy, "3", "1")
    await emu.wait_until(
        lambda: any("Pick result" in m.embed_text() for m in emu.messages(results)), 5, "the announcement"
    )
    [row] = await rows(toy)
    assert row.announced and row.winner_id == w.alice.id
    assert "Revealed" in emu.messages(w.channel)[0].embed_text()  # the game's own last messages first


async def test_a_warcry_battle_appears_in_the_standings(muster: Muster) -> None:
    from tests.e2e.test_warcry import open_battle

    w = muster.world
    alice, bob = w.alice.id, w.bob.id
    battle = await open_battle(muster, battleplan="Reaper")
    await battle.set_up()
    await battle.number("blood", alice, 120)
    await battle.number("blood", bob, 80)
    await battle.end_round(bob)
    for _ in range(3):
        state = await battle.end_round(alice)
    assert state.finished
    await announced(muster)
    post = last_with(muster.emu.messages(w.channel), "Warcry result")
    assert "Reaper" in post.embed_text()
    board = (await slash(muster, w.bob, "scores leaderboard", system="warcry")).text()
    assert mentions(board) == [alice, bob] and "1-0-0" in board


async def test_a_session_result_is_stored_confirmed_with_the_last_step_and_announced_once_after_a_restart(
    toy: Muster,
) -> None:
    emu, w = toy.emu, toy.world
    assert toy.bot is not None
    assert len(toy.bot.sessions.result_hooks) == 1  # one hook stores and confirms the result
    await service(toy).stop()  # the bot goes down before it can announce anything
    await played_pick(toy, "1", "2")
    await toy.settle()
    [row] = await rows(toy)
    assert (row.status, row.winner_id, row.announced) == ("confirmed", w.bob.id, False)
    assert row.confirmed_at is not None and row.reported_by is None

    await toy.restart()
    await announced(toy)
    await toy.restart()  # a second start finds nothing left to announce
    await announced(toy)
    posts = [m for m in emu.messages(w.channel) if "Pick result" in m.embed_text()]
    assert len(posts) == 1 and f"Result #{row.id}" in posts[0].embed_text()
    [row] = await rows(toy)
    assert row.announced
