"""Kill Team through the emulator: whole games with secrets in DMs, the closed-DM path, leaks, races."""

from __future__ import annotations

import asyncio
import json
import re

from sqlalchemy import select, update

from bot.db.models import GameResult, GameSession
from bot.nights.games import night_games
from rules.killteam import PROCEDURE, KillTeamState, prompt_for
from rules.killteam.options import BATTLE_READY
from rules.sealed import verify
from rules.session import Question
from tests.e2e.conftest import Muster
from tests.e2e.killteam_driver import (
    KillTeamTable,
    answer_reached_discord,
    board_post,
    component_ids,
    mentions_number,
    shown_text,
)
from tests.e2e.table_counts import (
    actions_marked,
    bot_posts,
    count_table,
    custom_ids_on,
    first_content,
    latest_lines,
    thread_edits_per_action,
)
from tests.e2e.test_night_games import Pairing, publish
from tests.emulator.interactions import UPDATE_MESSAGE
from tests.emulator.model import Message, User


def table_messages(muster: Muster) -> list[Message]:
    """Every message in the channel and in the game threads opened from it."""
    emu, channel = muster.emu, muster.world.channel
    return [m for c in (channel, *emu.threads(channel)) for m in emu.messages(c)]


def channel_text(muster: Muster) -> str:
    """Everything the channel and its game threads ever showed (every version of every message: the
    board's latest lines are replaced as the game goes on)."""
    return "\n".join(
        f"{v.content}\n{json.dumps(v.embeds, ensure_ascii=False)}"
        for m in table_messages(muster)
        for v in [*m.history, m.snapshot()]
    )


def reveals(muster: Muster, label: str) -> list[str]:
    """The reveals posted in full (with what to check the commitments): each once."""
    return [
        m.embed_text()
        for m in table_messages(muster)
        if f"Revealed, the {label}" in m.embed_text() and "/verify" in m.embed_text()
    ]


def question_posts(table: KillTeamTable, title: str) -> list[Message]:
    """The thread's posts that announced a question titled `title...`, oldest first (not the board,
    which carries the question's buttons): each pings its players, has nothing to click and is never
    edited."""
    board = board_post(table)
    posts = [
        m
        for m in table.muster.emu.messages(table.channel)
        if not m.ephemeral
        and m.id != board.id
        and any(str(e.get("description", "")).startswith(f"**{title}") for e in m.embeds)
    ]
    assert all(not m.components and not m.history for m in posts), posts
    return posts


def on_board(table: KillTeamTable, asked: Question) -> bool:
    """Whether the board shows `asked`, its words and every one of its components."""
    board = board_post(table)
    words = str(asked.title) in board.embed_text()
    return words and set(component_ids(table.sid, asked).values()) <= custom_ids_on(board)


def answerable(table: KillTeamTable, step: str) -> list[str]:
    """The components of step `step` still clickable anywhere in the thread."""
    return [i for m in table.muster.emu.messages(table.channel) for i in custom_ids_on(m) if f":{step}:" in i]


async def sides_at(muster: Muster, stage: str) -> tuple[KillTeamTable, KillTeamState, int, int]:
    """A random game played up to `stage`: its table, its state, the attacker and the defender."""
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "random", "random")
    state = await table.play(until=lambda s: s.stage == stage)
    assert state.attacker is not None
    return table, state, state.attacker, state.opponent(state.attacker)


async def stored_result(muster: Muster, sid: str) -> GameResult:
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        row = await db.scalar(select(GameResult).where(GameResult.session_id == sid))
    assert row is not None
    return row


async def test_bid_game_start_to_finish_with_secrets_in_dms(muster: Muster) -> None:
    w = muster.world
    loaded = await KillTeamTable.load_pack(muster)
    assert "Loaded **Club pack**" in loaded and "Bid" in loaded
    table = await KillTeamTable.open(muster, "bid", "bid")
    alice, bob = w.alice.id, w.bob.id
    # both get their sealed bid prompt in DMs; the channel only says to check them
    assert "bid to choose the mission" in muster.emu.dms(w.alice)[-1].text()
    assert "bid to choose the mission" in muster.emu.dms(w.bob)[-1].text()
    assert "check your DMs" in channel_text(muster)
    await table.answer(alice, "7")
    assert "has sealed their bid to choose the mission" in channel_text(muster)
    # before Bob seals, Alice's 7 appears nowhere Bob (or anyone in the channel) can read
    assert not mentions_number(shown_text(muster, w.bob), 7)
    assert not mentions_number(channel_text(muster), 7)
    await table.answer(bob, "2")
    (reveal,) = reveals(muster, "bid to choose the mission")
    assert "**7 tokens**" in reveal and "**2 tokens**" in reveal
    # the reveal carries what /verify needs, and the commitments check out
    checks = {}
    for player in (alice, bob):
        found = re.search(rf"<@{player}>: choice `(\d+)`, nonce `(\w+)`, commitment `(\w+)`", reveal)
        assert found, reveal
        checks[player] = found.groups()
        assert verify(table.sid, "bid.mission.1", player, *checks[player])
    choice, nonce, commitment = checks[alice]
    record = await muster.emu.slash(
        w.bob,
        w.channel,
        "verify",
        game=table.sid,
        step="bid.mission.1",
        player=w.alice,
        choice=choice,
        nonce=nonce,
        commitment=commitment,
    )
    assert "matches" in (await record.response()).content
    # the winner picks the mission on the channel's buttons
    await table.answer(alice, "secure")
    # map: a tie is cancelled and bid again; 0-0 goes to a roll-off
    await table.answer(alice, "3")
    await table.answer(bob, "3")
    assert "that bid is cancelled" in channel_text(muster)
    await table.answer(alice, "0")
    await table.answer(bob, "0")
    state = await table.state()
    assert state.stage == "bid_decide"
    winner = state.decider
    assert winner is not None
    await table.answer(winner, "B7")  # eighteen maps: a menu
    state = await table.play(until=lambda s: s.macro == "tac_ops")
    assert (state.mission, state.map) == ("secure", "B7")
    # Tac Ops by bid: Alice outbids for the archetype, then the pairs
    await table.answer(alice, "4")
    await table.answer(bob, "1")
    await table.answer(alice, "recon")
    state = await table.play(until=lambda s: s.macro == "battle")
    assert sorted(state.tac.held[alice] + state.tac.held[bob]) == [f"recon-op-{i}" for i in range(1, 7)]
    # scoring by command; caps are refused with the cap named
    over = await table.slash(alice, "killteam score", mission_vp=5)
    assert over.ephemeral and "the cap is 4 mission VP per turning point" in over.content
    scored = await table.slash(alice, "killteam score", mission_vp=3)
    assert (
        scored.ephemeral and "+3 VP" in scored.content and "total 3" in scored.content
    )  # says what was recorded
    card = state.tac.held[alice][0]
    await table.slash(alice, "killteam score", tacop=card, tacop_vp=2)
    state = await table.play()
    assert state.finished and state.outcome is not None and state.outcome.winner == alice
    result = await stored_result(muster, table.sid)
    assert (result.score_a, result.score_b, result.winner_id, result.mission) == (5, 0, alice, "Secure")
    board = [m for m in muster.emu.messages(table.channel) if "Kill Team: Secure on Map B7" in m.embed_text()]
    assert len(board) == 1 and "wins" in board[0].embed_text()  # one scoreboard, edited in place


async def test_veto_game_with_secret_random_tac_ops(muster: Muster) -> None:
    w = muster.world
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "veto", "random")
    alice, bob = w.alice.id, w.bob.id
    state = await table.state()
    winner = state.decider
    assert winner is not None
    await table.answer(winner, "attack")
    attacker, defender = winner, bob if winner == alice else alice
    await table.answer(attacker, ["loot", "capture"])
    await table.answer(defender, "capture")
    await table.answer(defender, ["A1", "A5", "B9"])
    await table.answer(attacker, "A5")
    await table.answer(defender, "B9")
    await table.answer(defender, "B")
    await table.answer(alice, "alpha")
    await table.answer(bob, "beta")
    state = await table.play(until=lambda s: s.macro != "tac_ops" and s.stage != "faction")
    hands = {p: list(state.tac.held[p]) for p in state.players}
    # each hand reached its owner in DMs, and no one else ever saw it
    for player, user, other in ((alice, w.alice, w.bob), (bob, w.bob, w.alice)):
        mine = " ".join(m.text() for m in muster.emu.dms(user))
        assert "Your secret Tac Ops" in mine
        others = shown_text(muster, other, own_dms=False)
        for card in hands[player]:
            op = state.pack.tac_op(card)
            assert op is not None and op.name in mine and op.name not in others
    revealed = await table.slash(alice, "killteam reveal-tacop", tacop=hands[alice][0])
    assert revealed.ephemeral
    name = state.pack.tac_op(hands[alice][0]).name  # type: ignore[union-attr]
    assert f"reveals the Tac Op **{name}**" in channel_text(muster)
    again = await table.slash(alice, "killteam reveal-tacop", tacop=hands[alice][0])
    assert again.ephemeral and "already revealed" in again.content
    state = await table.play(until=lambda s: s.macro == "battle")
    await table.slash(bob, "killteam score", mission_vp=2)
    state = await table.play()
    assert state.finished and state.outcome is not None and state.outcome.mission == "Capture"
    result = await stored_result(muster, table.sid)
    assert result.winner_id == bob and result.faction_a == "Alpha" and result.faction_b == "Beta"
    # Control next time: the store's last game decides who picks, among what was not used
    control = await KillTeamTable.open(muster, "control", "free")
    state = await control.state()
    asked = prompt_for(state, bob)
    assert state.stage == "control_mission" and asked is not None
    assert [o.value for o in asked.options] == ["loot", "secure"]
    await control.answer(bob, "loot")
    asked = prompt_for(await control.state(), bob)
    assert asked is not None and [o.value for o in asked.options] == ["1-3", "4-6"]  # B9 was type 7-9


async def test_closed_dms_use_the_ephemeral_prompt_path(muster: Muster) -> None:
    w = muster.world
    await KillTeamTable.load_pack(muster)
    muster.emu.close_dms(w.bob)
    table = await KillTeamTable.open(muster, "bid", "random")
    table.closed.add(w.bob.id)
    alice, bob = w.alice.id, w.bob.id
    assert not muster.emu.dms(w.bob)
    fallback = [
        m
        for m in muster.emu.messages(table.channel)
        if f"p:{table.sid}:{bob}" in {c.get("custom_id") for c in m.walk_components()}
    ]
    assert fallback and "DMs are closed" in fallback[-1].content
    await table.answer(bob, "6")  # through "Open my secret prompt"
    # Bob's bid was only ever shown to Bob
    assert not mentions_number(shown_text(muster, w.alice), 6)
    await table.answer(alice, "1")
    (reveal,) = reveals(muster, "bid to choose the mission")
    assert "**6 tokens**" in reveal
    state = await table.play(until=lambda s: s.macro == "battle")
    assert len(state.tac.held[bob]) == 3  # Bob's secret Tac Ops were picked behind the button too
    hand = await table.slash(bob, "killteam hand")
    assert hand.ephemeral
    for card in state.tac.held[bob]:
        assert state.pack.tac_op(card).name in hand.text()  # type: ignore[union-attr]
    # Bob's roster is Battle Ready: a button on the channel's battle prompt
    asked = prompt_for(state, bob)
    assert asked is not None
    ready = component_ids(table.sid, asked)[BATTLE_READY]
    post = table.find(w.bob, ready, private=False)
    assert "Battle Ready painted (+2)" in [b["label"] for b in post.buttons()]
    pressed = await (await muster.emu.click(w.bob, post, custom_id=ready)).response()
    # answered by redrawing the board pressed, whose latest line says what the press did
    assert pressed.type == UPDATE_MESSAGE and pressed.message is post
    assert f"<@{bob}>: +2 VP (Battle Ready painted roster)" in latest_lines(post), latest_lines(post)
    state = await table.play()
    assert state.finished and state.scores[bob].battle_ready
    assert (await stored_result(muster, table.sid)).score_b == 2
    assert not muster.emu.dms(w.bob)
    seen_by_alice = shown_text(muster, w.alice, own_dms=False)
    for card in state.tac.held[bob]:
        op = state.pack.tac_op(card)
        assert op is not None and op.name not in seen_by_alice
    assert all(f"<@{bob}>" not in m.text() for m in muster.emu.dms(w.alice))
    # Bob's DMs were asked once: each refusal is an invalid request Discord counts against the bot.
    assert sum(r.status == 403 for r in muster.emu.requests) == 1


async def test_concurrent_seals_reveal_once(muster: Muster) -> None:
    w = muster.world
    table = await KillTeamTable.open(muster, "bid", "free")
    emu = muster.emu
    state = await table.state()
    picks = []
    for user, amount in zip((w.alice, w.bob), ("4", "5"), strict=True):
        asked = prompt_for(state, user.id)
        assert asked is not None
        menu = component_ids(table.sid, asked)["select"]
        picks.append(emu.select(user, table.find(user, menu, private=True), menu, [amount]))
    records = await asyncio.gather(*picks)
    for record in records:
        assert (await record.response()).ephemeral is not None
    await muster.settle()
    assert len(reveals(muster, "bid to choose the mission")) == 1
    state = await table.state()
    assert state.bids is not None and [r.bids for r in state.bids.history] == [{w.alice.id: 4, w.bob.id: 5}]
    assert state.bids.tokens == {w.alice.id: 6, w.bob.id: 5}


async def test_a_restart_between_the_seals_reveals_once(muster: Muster) -> None:
    w = muster.world
    table = await KillTeamTable.open(muster, "bid", "free")
    await table.answer(w.alice.id, "8")
    await muster.restart()
    assert not reveals(muster, "bid to choose the mission")
    await table.answer(w.bob.id, "1")  # the DM's buttons still work after the restart
    (reveal,) = reveals(muster, "bid to choose the mission")
    assert "**8 tokens**" in reveal


async def test_bad_input_is_refused_ephemerally_and_changes_nothing(muster: Muster) -> None:
    w, emu = muster.world, muster.emu
    table = await KillTeamTable.open(muster, "bid", "free")
    before = (await table.state()).model_dump_json()
    # over the tokens, non-numeric and negative bids, sent from the bid's menu by a modified client
    for text, expected in (
        ("11", "11 is not allowed here: type a whole number from 0 to 10."),
        ("ab", "Type a whole number from 0 to 10."),
        ("-2", "-2 is not allowed here: type a whole number from 0 to 10."),
    ):
        answered = await table.forge_bid(w.alice.id, text)
        assert answered.ephemeral and answered.content == expected
    assert (await table.state()).model_dump_json() == before
    # a second game between the same players in the same channel
    second = await (
        await emu.slash(
            w.bob,
            w.channel,
            "killteam start",
            opponent=w.alice,
            mission_method="random",
            tacops_method="free",
        )
    ).response()
    assert second.ephemeral and "already have a Kill Team game" in second.content
    # a Tac Ops method the server's cards can't run
    unable = await (
        await emu.slash(
            w.carol,
            w.channel,
            "killteam start",
            opponent=w.alice,
            mission_method="random",
            tacops_method="random",
        )
    ).response()
    assert unable.ephemeral and "can't run Random Tac Ops" in unable.content
    # sealing twice: a second pick on the bid's menu lands before the redraw that removes it (the
    # first pick's answer) reaches the DM
    state = await table.state()
    asked = prompt_for(state, w.alice.id)
    assert isinstance(asked, Question)
    menu = component_ids(table.sid, asked)["select"]
    bid_dm = table.find(w.alice, menu, private=True)
    emu.inject("POST", r"/interactions/\d+/[^/]+/callback", status=None, delay=1.5)
    picked = await emu.select(w.alice, bid_dm, menu, ["3"])
    await answer_reached_discord(emu, picked)
    sealed = (await table.state()).model_dump_json()
    twice = await (await emu.select(w.alice, bid_dm, menu, ["4"])).response()
    first = await picked.response()
    await muster.settle()
    assert first.type == UPDATE_MESSAGE and first.message is bid_dm
    assert twice.ephemeral and "waiting for your opponent" in twice.content.lower(), twice.content
    assert not list(bid_dm.walk_components()) and "You sealed **3 tokens**" in bid_dm.embed_text()
    assert (await table.state()).model_dump_json() == sealed
    # scoring before the battle
    early = await table.slash(w.bob.id, "killteam score", mission_vp=1)
    assert early.ephemeral and "once the battle has begun" in early.content
    # a pack with problems is listed line by line; loading needs Manage Server
    refused = await (
        await emu.slash(
            w.alice,
            w.channel,
            "killteam pack load",
            bypass_checks=True,
            file=emu.upload("p.yaml", b"name: x\nmaps: []\n"),
        )
    ).response()
    assert refused.ephemeral and "Manage Server" in refused.content
    broken = await KillTeamTable.load_pack(
        muster, "name: Broken\nmissions: [{name: Loot}]\nmaps:\n  - id: Q\n"
    )
    assert "was not loaded" in broken and "line 4: maps[0]" in broken
    state = await table.state()
    assert isinstance(state, KillTeamState) and state.bids is not None
    assert state.bids.sealed is not None and list(state.bids.sealed.entries) == [w.alice.id]
    # the winner's choice: a stranger and the other player are refused, nothing changes
    await table.answer(w.bob.id, "1")
    state = await table.state()
    asked = prompt_for(state, w.alice.id)
    assert asked is not None and asked.params["stage"] == "bid_decide"
    ids = component_ids(table.sid, asked)
    post = table.find(w.alice, ids["loot"], private=False)
    before = state.model_dump_json()
    stranger = await (await emu.click(w.carol, post, custom_id=ids["loot"])).response()
    assert stranger.ephemeral and "This is a game between" in stranger.content
    opponent = await (await emu.click(w.bob, post, custom_id=ids["loot"])).response()
    assert opponent.ephemeral and "your opponent's to make" in opponent.content
    assert (await table.state()).model_dump_json() == before


async def test_an_old_button_pressed_after_the_game_moved_on_is_refused_and_changes_nothing(
    muster: Muster,
) -> None:
    """Answered questions lose their buttons (the pick's, on the board, redrawn as the pick's
    answer); a click that races the redraw is refused, changing nothing, and the board says what was
    picked."""
    w, emu = muster.world, muster.emu
    assert muster.bot is not None
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "bid", "free")
    alice = w.alice.id
    asked = prompt_for(await table.state(), alice)
    assert asked is not None and asked.step == "bid.mission.1"
    old_bid_dm = table.find(w.alice, component_ids(table.sid, asked)["select"], private=True)
    await table.answer(alice, "3")
    await table.answer(w.bob.id, "1")
    assert not list(old_bid_dm.walk_components()), "a sealed prompt keeps its buttons"
    assert "You sealed **3 tokens** for the bid to choose the mission" in old_bid_dm.embed_text()
    asked = prompt_for(await table.state(), alice)
    assert asked is not None and asked.params["stage"] == "bid_decide"
    ids = component_ids(table.sid, asked)
    old_pick_post = table.find(w.alice, ids["loot"], private=False)
    assert old_pick_post.id == board_post(table).id  # the question rides on the board
    # The redraw that removes the pick's buttons (the pick's answer) is slow: a second click lands on
    # the old buttons.
    emu.inject("POST", r"/interactions/\d+/[^/]+/callback", status=None, delay=1.5)
    clicked = await emu.click(w.alice, old_pick_post, custom_id=ids["secure"])
    await answer_reached_discord(emu, clicked)
    _info, before = await muster.bot.sessions.load(table.sid)
    now = prompt_for(before, alice)
    assert now is not None and now.step == "bid.map.1"
    posts = [m.id for m in emu.messages(table.channel) if not m.ephemeral]
    refused = await (await emu.click(w.alice, old_pick_post, custom_id=ids["loot"])).response()
    assert refused.ephemeral and refused.modal is None
    assert refused.content == f"That question was already answered: the game is now at **{now.title}**."
    picked = await clicked.response()
    assert picked.type == UPDATE_MESSAGE and picked.message is old_pick_post
    await muster.settle()
    _info, after = await muster.bot.sessions.load(table.sid)
    assert after.model_dump() == before.model_dump()
    assert not set(ids.values()) & custom_ids_on(old_pick_post), "an answered question keeps its buttons"
    assert not answerable(table, asked.step)
    assert "Mission: **Secure**" in latest_lines(old_pick_post)
    new_posts = [m for m in emu.messages(table.channel) if not m.ephemeral and m.id not in posts]
    assert all("Loot" not in m.embed_text() for m in new_posts)


async def test_a_tac_op_hand_breaking_the_rules_is_refused(muster: Muster) -> None:
    w = muster.world
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "random", "free")
    await table.play(until=lambda s: s.stage == "faction")
    await table.answer(w.alice.id, "alpha")
    await table.answer(w.bob.id, "beta")
    await table.answer(w.alice.id, "recon")
    refused = await table.answer(w.alice.id, ["alpha-op-1", "alpha-op-2", "recon-op-1"])
    assert refused.ephemeral and refused.content == "Pick at most 1 faction Tac Op."
    picked = await table.answer(w.alice.id, ["alpha-op-1", "recon-op-2", "recon-op-3"])
    # answered by redrawing the DM prompt picked on; the hand picked follows in a DM of its own
    assert picked.type == UPDATE_MESSAGE and picked.message is not None and picked.message.channel.is_dm
    assert not list(picked.message.walk_components())
    hand = "Your secret Tac Ops: **Alpha op 1** (Alpha), **Recon op 2** (Recon), **Recon op 3** (Recon)."
    assert any(
        hand in m.text() for m in muster.emu.dms(w.alice) if m is not picked.message and not m.ephemeral
    )
    state = await table.state()
    assert state.tac.held[w.alice.id] == ["alpha-op-1", "recon-op-2", "recon-op-3"]
    assert "Recon op 2" not in shown_text(muster, w.bob)


async def test_dm_route_faults_delay_sealed_prompts_but_never_leak_or_reveal_twice(muster: Muster) -> None:
    w, emu = muster.world, muster.emu
    alice_dm, bob_dm = emu.dm_channel(w.alice), emu.dm_channel(w.bob)
    faults = [
        emu.inject("POST", rf"/channels/{bob_dm.id}/messages", status=429, count=2),
        emu.inject("POST", rf"/channels/{alice_dm.id}/messages", status=500, count=1),
    ]
    table = await KillTeamTable.open(muster, "bid", "free")

    def prompted(user: User) -> bool:
        return any("bid to choose the mission" in m.text() for m in emu.dms(user))

    await emu.wait_until(lambda: prompted(w.alice) and prompted(w.bob), 10, "both sealed prompts")
    assert not any("Open my secret prompt" in m.all_text() for m in emu.messages(table.channel))
    await table.answer(w.alice.id, "6")
    assert not mentions_number(shown_text(muster, w.bob), 6)
    assert not mentions_number(channel_text(muster), 6)
    # the posts that follow the second seal meet faults too; the game still reveals exactly once
    faults.append(emu.inject("POST", rf"/channels/{table.channel.id}/messages", status=429, count=1))
    await table.answer(w.bob.id, "2")
    await emu.wait_until(lambda: reveals(muster, "bid to choose the mission"), 10, "the reveal")
    await muster.settle()
    assert [f.hits for f in faults] == [2, 1, 1]
    (reveal,) = reveals(muster, "bid to choose the mission")
    assert "**6 tokens**" in reveal and "**2 tokens**" in reveal
    state = await table.state()
    assert state.bids is not None and state.bids.tokens == {w.alice.id: 4, w.bob.id: 8}


async def test_rolls_recent_never_shows_a_secret_tac_ops_deck_order(muster: Muster) -> None:
    w = muster.world
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "random", "random")
    await table.play(until=lambda s: s.stage == "faction")
    await table.answer(w.alice.id, "alpha")
    await table.answer(w.bob.id, "beta")
    assert (await table.state()).stage == "tac_private"
    recent = await table.slash(w.bob.id, "rolls recent")
    shuffles = [line for line in recent.text().splitlines() if "shuffle a Tac Ops deck" in line]
    assert len(shuffles) == 2, recent.text()
    assert all("`shuffle 27 (hidden)` → []" in line for line in shuffles), shuffles


async def test_a_bid_game_stays_in_its_thread_and_pings_a_player_only_to_act(muster: Muster) -> None:
    """A whole bid game, counted as the players see it. Before game threads one such game made 48
    posts in the channel, 44 of them pinging a player. Measured now: 2 posts in the channel (the
    start card and the result), 25 in the thread, 90 edits, pings 13 and 7 for 25 and 20 answers.
    9 of the thread's posts are the records of its 9 sealed rounds (ties and roll-offs included),
    never redrawn, so every reveal stays readable; when a reveal rode on the question it led to (16
    posts in the thread) a question redrawn as it moved on lost it.
    Before barricades and operatives asked each player once (one Done per item, in turns): 102 edits,
    pings 11 and 7 for 28 and 23 answers; the two set-up questions now ping both players when they
    are posted, where the run of turns pinged only the defender, once.
    Since the questions ride on the board (a post with nothing to click announces each): 25 posts in
    the thread, 63 edits (45 in the thread, from 69), pings 13 and 7, at most one thread edit per
    action.
    Since a reveal rides on the post announcing the question it led to (that post is never edited,
    so the reveal stays readable): 16 posts in the thread, 168 Discord calls for the game (177).
    Since a bid is picked from a menu of its numbers (one interaction answer, where a form took two:
    opening it, then its submit's answer): 152 Discord calls (168), 47 interaction answers (63).
    Since a click on the board or on a DM prompt is answered by redrawing that message (its
    UPDATE_MESSAGE, where an ephemeral answer was followed by the outbox's edit): 105 Discord calls
    (150 the old way, measured the same way in the same run), of them 18 message edits (63); the 63
    edits the players see and the 46 interaction answers are the same.
    Since the drop zone and the kill teams, and the scouting's resolution and the battle, are runs
    announced once (as the set-up was already): 12 posts in the thread (14), pings 9 and 3 (11 and 5),
    103 Discord calls (105)."""
    w, emu = muster.world, muster.emu
    await KillTeamTable.load_pack(muster)
    since = emu.ids.next()
    table = await KillTeamTable.open(muster, "bid", "bid")
    assert table.channel.id != w.channel.id and table.channel.parent_id == w.channel.id
    assert {w.alice.id, w.bob.id} <= set(table.channel.member_ids)
    marks: list[int] = []
    with actions_marked(emu, marks):
        state = await table.play()
    assert state.finished
    await muster.announced()
    counts = count_table(emu, w.channel, table.channel, [w.alice, w.bob], since=since)
    print(f"Kill Team bid game: {counts.line()}; acted {table.acted}")
    assert counts.parent_posts <= 3, counts
    assert counts.thread_posts <= 12, counts
    reveals = [m for m in bot_posts(emu, table.channel, since) if "/verify" in m.embed_text()]
    assert len(reveals) == 9 and not any(m.history or m.components for m in reveals), reveals
    for player, pings in counts.pings.items():
        assert pings <= table.acted.get(player, 0), (player, counts)
    assert sum(table.acted.values()) <= 45, table.acted  # 51 when each barricade and group took a Done
    assert not counts.live_questions, counts.live_questions
    assert counts.repeated_edits == 0, counts  # no edit re-sends what a message shows
    per_action = thread_edits_per_action(emu, marks)
    assert len(per_action) >= sum(table.acted.values()) and max(per_action) <= 1, per_action
    card = next(m for m in emu.messages(w.channel) if m.thread is not None)
    assert "<@" not in card.content  # the card names the players without pinging them


async def test_ending_early_waits_for_the_other_player_to_confirm(muster: Muster) -> None:
    w = muster.world
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "random", "random")
    alice, bob = w.alice.id, w.bob.id
    await table.play(until=lambda s: s.macro == "battle")
    await table.slash(alice, "killteam score", mission_vp=3)
    asked = await table.slash(alice, "killteam end")
    assert asked.ephemeral and "waiting for a confirmation" in asked.content, asked.content
    state = await table.state()
    assert not state.finished and state.pending is not None and state.pending.by == alice
    # both are asked on the board, the other player pinged to answer by a post that says what waits
    (post,) = question_posts(table, "End the game now?")
    assert f"<@{bob}>" in first_content(post) and f"<@{alice}> asked to end the game." in post.embed_text()
    (end,) = [q for q in PROCEDURE.ask(state, bob) if q.topic == "killteam.end"]
    assert on_board(table, end) and f"<@{alice}> asked to end the game." in board_post(table).embed_text()
    labels = [board_post(table).button(custom_id=i)["label"] for i in component_ids(table.sid, end).values()]
    assert labels == ["Confirm", "Not yet"]
    assert "waiting for a confirmation" in board_post(table).embed_text()
    # meanwhile nothing else is taken, by command or by the battle's own buttons
    scored = await table.slash(bob, "killteam score", mission_vp=1)
    assert scored.ephemeral and "answer it first, with Confirm or Not yet" in scored.content
    of_bob = PROCEDURE.ask(state, bob)
    assert [q.topic for q in of_bob] == ["killteam.end", "killteam.battle"]
    end_tp = component_ids(table.sid, of_bob[1])["end"]  # the battle's "End turning point 1"
    pressed = await (
        await muster.emu.click(w.bob, table.find(w.bob, end_tp, private=False), custom_id=end_tp)
    ).response()
    assert pressed.ephemeral and "answer it first" in pressed.content
    assert (await table.state()).model_dump() == state.model_dump()
    # the other player confirms: the game is over and its result stored
    await table.answer(bob, "confirm")
    state = await table.state()
    assert state.finished and state.outcome is not None and state.outcome.winner == alice
    assert "ended early in turning point 1" in state.outcome.summary
    result = await stored_result(muster, table.sid)
    assert (result.score_a, result.score_b, result.winner_id) == (3, 0, alice)
    assert not answerable(table, end.step) and not post.components and not post.history
    assert f"<@{bob}> confirms: the game ends now." in latest_lines(board_post(table))
    assert f"<@{alice}> wins" in board_post(table).embed_text()
    await muster.announced()
    assert not count_table(muster.emu, w.channel, table.channel, [w.alice, w.bob]).live_questions


async def test_not_yet_plays_on_and_the_player_who_asked_may_confirm_their_own(muster: Muster) -> None:
    w = muster.world
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "random", "random")
    alice, bob = w.alice.id, w.bob.id
    before = await table.play(until=lambda s: s.macro == "battle")
    await table.slash(alice, "killteam end")
    (end,) = [q for q in PROCEDURE.ask(await table.state(), bob) if q.topic == "killteam.end"]
    await table.answer(bob, "not_yet")
    state = await table.state()
    assert not state.finished and state.model_dump() == {
        **before.model_dump(),
        "confirmation": {"pending": None, "asked": 1},
    }
    (first,) = question_posts(table, "End the game now?")
    assert f"<@{bob}>" in first_content(first)
    assert not answerable(table, end.step) and f"<@{bob}> says not yet" in latest_lines(board_post(table))
    # play goes on on the battle's own buttons
    await table.answer(bob)  # End turning point 1
    assert (await table.state()).queue == [alice]
    # a new request; this time the player who asked confirms it
    reply = await table.slash(bob, "killteam end")
    assert "waiting for a confirmation" in reply.content
    newer = question_posts(table, "End the game now?")[-1]
    assert newer.id != first.id and f"<@{alice}>" in first_content(newer)
    (again,) = [q for q in PROCEDURE.ask(await table.state(), bob) if q.topic == "killteam.end"]
    assert again.step != end.step and on_board(table, again)
    await table.answer(bob, "confirm")
    state = await table.state()
    assert state.finished and state.outcome is not None and state.outcome.winner is None
    assert not answerable(table, again.step)
    assert f"<@{bob}> confirms their own request" in latest_lines(board_post(table))
    assert (await stored_result(muster, table.sid)).winner_id is None


async def test_barricades_and_operatives_ask_each_player_once_and_show_who_is_done(muster: Muster) -> None:
    """Equipment, barricades and operatives are one run of set-up at the table: the players are
    pinged once, when it starts; the board then moves through its steps as they press Done."""
    table, state, attacker, defender = await sides_at(muster, "barricades")
    (post,) = question_posts(table, "Equipment")
    assert f"<@{attacker}>" in first_content(post) and f"<@{defender}>" in first_content(post)
    assert question_posts(table, "Barricades: 2 each") == []  # the run goes on: nobody pinged again
    words = "Set up your 2 barricades, taking turns with your opponent; the defender starts."
    assert words in board_post(table).embed_text()
    barricades = prompt_for(state, defender)
    assert barricades is not None and on_board(table, barricades)
    await table.answer(defender)
    board = board_post(table)
    assert f"Done: <@{defender}>" in board.embed_text() and answerable(
        table, barricades.step
    )  # the attacker's
    waiting = board_post(table).embed_text()
    assert f"<@{attacker}>: Barricades: 2 each" in waiting and f"<@{defender}>: Barricades" not in waiting
    still = prompt_for(await table.state(), attacker)
    assert still is not None
    done = component_ids(table.sid, still)["done"]
    again = await (await muster.emu.click(table.user(defender), board, custom_id=done)).response()
    assert again.ephemeral and "waiting for your opponent" in again.content
    await table.answer(attacker)
    assert not answerable(table, barricades.step) and latest_lines(board)
    assert question_posts(table, "Equipment") == [post]  # one post, never edited
    assert question_posts(table, "Operatives: 3 groups each") == []
    groups = "Set up your operatives in 3 groups, taking turns with your opponent"
    assert groups in board_post(table).embed_text()
    operatives = prompt_for(await table.state(), attacker)
    assert operatives is not None and on_board(table, operatives)
    await table.answer(attacker)
    await table.answer(defender)
    assert (await table.state()).stage == "scouting"
    assert not answerable(table, operatives.step)


async def test_the_kill_teams_and_the_battle_follow_their_announcement_without_pinging_again(
    muster: Muster,
) -> None:
    """The drop zone and both kill teams are one run at the table, and so are the scouting's
    resolution and the turning points: each is announced once, pinging who starts it; the board
    then asks the next step in place, and no post pings the players who are already at it."""
    table, state, attacker, defender = await sides_at(muster, "drop_zone")
    (zone,) = question_posts(table, "Defender: choose your drop zone")
    assert first_content(zone) == f"<@{defender}>"
    await table.answer(defender, "A")
    state = await table.state()
    kill_team = prompt_for(state, attacker)
    assert state.stage == "faction" and kill_team is not None and on_board(table, kill_team)
    assert question_posts(table, "Select your kill team") == []  # the run goes on: nobody pinged again
    state = await table.play(until=lambda s: s.stage == "scouting_resolve")
    (revealed,) = question_posts(table, "Scouting: resolve")
    assert first_content(revealed) == f"<@{attacker}>"  # the attacker resolves first
    state = await table.play(until=lambda s: s.macro == "battle")
    first = prompt_for(state, attacker)
    assert first is not None and on_board(table, first)
    assert "Turning point 1" in board_post(table).embed_text()
    assert question_posts(table, "Turning point 1") == []
    assert question_posts(table, "First initiative") == []  # a roll-off's choice, if any, on the board too
    assert (await table.play()).finished
    assert question_posts(table, "Turning point") == []


async def test_a_game_saved_mid_barricades_in_the_old_turn_order_resumes(muster: Muster) -> None:
    """Saved when each barricade took its own Done (an ordered queue of turns): after a restart the
    players still to set up one press the Done already posted once each, and the game goes on."""
    assert muster.bot is not None
    table, state, attacker, defender = await sides_at(muster, "barricades")
    old = json.loads(state.model_dump_json())
    del old["confirmation"]
    old.update(queue=[attacker, defender, attacker], ordered=True)  # the defender had set up one
    board = board_post(table)
    async with muster.bot.store.write() as db:
        await db.execute(update(GameSession).where(GameSession.id == table.sid).values(state=json.dumps(old)))
    await muster.restart()
    state = await table.state()
    assert (state.queue, state.ordered) == ([attacker, defender], False)
    assert len(question_posts(table, "Equipment")) == 1  # the set-up announced once, before the restart
    barricades = prompt_for(state, defender)
    assert barricades is not None and on_board(table, barricades) and board_post(table).id == board.id
    await table.answer(defender)  # on the button posted before the restart
    await table.answer(attacker)
    assert (await table.state()).stage == "operatives" and not answerable(table, barricades.step)
    state = await table.play()
    assert state.finished


async def test_a_game_ended_before_its_battle_is_cancelled_not_recorded_or_rated(muster: Muster) -> None:
    """Ending during set-up leaves nothing to score: the game is cancelled (a night lists it as not
    played), with no result, no rating and no announcement; the table is told so."""
    w = muster.world
    assert muster.bot is not None
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "random", "random")
    assert (await table.state()).turning_point == 0
    await table.slash(w.alice.id, "killteam end")
    await table.answer(w.bob.id, "confirm")
    await muster.announced()
    info, state = await muster.bot.sessions.load(table.sid, fresh=True)
    assert info.status == "cancelled" and state.finished and state.outcome is None
    async with muster.bot.store.read() as db:
        assert await db.scalar(select(GameResult).where(GameResult.session_id == table.sid)) is None
    said = channel_text(muster)
    assert "ended before the battle began" in said and "nothing is recorded" in said, said
    assert "a draw" not in said and "+16" not in said


async def test_a_nights_game_ended_before_its_battle_is_listed_as_not_played(muster: Muster) -> None:
    w = muster.world
    assert muster.bot is not None
    opened = await publish(
        muster,
        "night-kt",
        [Pairing(system="killteam", players=[w.alice.id, w.bob.id])],
        organiser_id=w.carol.id,
    )
    await muster.settle()
    table = KillTeamTable(muster, opened[0])
    table.channel = await muster.table(table.sid)
    await table.slash(w.bob.id, "killteam end")
    await table.answer(w.alice.id, "confirm")
    await muster.announced()
    (game,) = await night_games(muster.bot.store, "night-kt")
    assert (game.status, game.result_id, game.winner, game.rating_changes) == ("cancelled", None, None, [])


async def test_the_first_dm_prompts_name_the_games_thread_not_its_channel(muster: Muster) -> None:
    """The first bid prompts are written as the game opens, before its thread exists; sent once the
    thread is open, they point the players to it, as every later prompt does."""
    w = muster.world
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "bid", "bid")
    await muster.announced()
    for player in (w.alice, w.bob):
        [first] = muster.emu.dms(player)
        assert f"<#{table.channel.id}>" in first.content and f"<#{w.channel.id}>" not in first.content
