"""Kill Team's sealed choices checked as a suspicious player checks them, through the emulator.

What the table (the game's thread, never a DM) shows when a player seals gives the commitment; the
reveal gives each choice and its nonce; SHA-256 over `session|step|player|choice|nonce`, computed here
with hashlib alone, must give the same commitment. Both must stay readable at the table for the rest
of the game: Discord shows nobody what a message said before an edit.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from rules.killteam import KillTeamState, prompt_for
from rules.sealed import SealedRound
from rules.session import Question
from tests.e2e.conftest import Muster
from tests.e2e.killteam_driver import KillTeamTable, board_post, component_ids, default_answer
from tests.e2e.table_counts import latest_lines
from tests.emulator.interactions import UPDATE_MESSAGE
from tests.emulator.model import Message

PLAYER_DIGEST = re.compile(r"<@(\d+)>[^\n]*?`([0-9a-f]{64})`")
REVEAL_STEP = re.compile(r"/verify` with game `([0-9a-f]+)`, step `([^`]+)`")
REVEAL_LINE = re.compile(r"<@(\d+)>: choice `([^`]*)`, nonce `([^`]*)`, commitment `([0-9a-f]{64})`")


def table_now(table: KillTeamTable) -> list[Message]:
    """What the table shows now: the current version of every post where the game is played (its
    thread)."""
    return [m for m in table.muster.emu.messages(table.channel) if not m.ephemeral]


def digests_shown(table: KillTeamTable) -> set[tuple[int, str]]:
    """Each (player, digest) the table shows now, a digest counting for the player named before it."""
    return {
        (int(player), digest)
        for m in table_now(table)
        for line in m.text().splitlines()
        for player, digest in PLAYER_DIGEST.findall(line)
    }


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


def open_rounds(state: KillTeamState) -> list[SealedRound]:
    contests = [state.bids, state.tac.bids]
    rounds = [c.sealed for c in contests if c is not None and c.sealed is not None]
    if state.scouting is not None:
        rounds.append(state.scouting)
    return [r for r in rounds if not r.revealed]


@dataclass
class Suspicious:
    """A player who writes down every commitment the table shows the moment a choice is sealed."""

    table: KillTeamTable
    at_seal: dict[tuple[str, int], str] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)  # every digest the table showed before this step

    async def look(self) -> None:
        """After each step: a new seal (a round still open) must show its sealer's commitment now,
        and every commitment shown before must still be shown (until the reveal on the board, then
        in the reveal)."""
        state = await self.table.state()
        shown = digests_shown(self.table)
        for round_ in open_rounds(state):
            for player in round_.entries:
                if (round_.step, player) in self.at_seal:
                    continue
                new = {d for p, d in shown if p == player and d not in self.seen}
                assert len(new) == 1, f"the table shows no commitment for {player}'s {round_.label}: {new}"
                self.at_seal[(round_.step, player)] = new.pop()
        self.seen |= {d for _p, d in shown}
        gone = {key for key, digest in self.at_seal.items() if digest not in {d for _p, d in shown}}
        assert not gone, f"commitments no longer shown at the table: {gone}"

    def check(self) -> None:
        """Every seal written down is revealed at the table now, and the reveal's choice and nonce
        hash to the commitment the table showed at the seal."""
        revealed = reveals_shown(self.table)
        for (step, player), digest in self.at_seal.items():
            assert (step, player) in revealed, f"no reveal of {step} for {player} at the table now"
            choice, nonce, _shown = revealed[(step, player)]
            payload = f"{self.table.sid}|{step}|{player}|{choice}|{nonce}"
            assert hashlib.sha256(payload.encode()).hexdigest() == digest, (step, player)


async def play_watched(
    table: KillTeamTable,
    eye: Suspicious,
    until: Callable[[KillTeamState], bool] | None = None,
    policy: Callable[[KillTeamState, int, Question], str | None] | None = None,
) -> KillTeamState:
    """Play on (first options, Done, bids by `policy` else 0), the suspicious player looking after
    every answer."""
    for _ in range(400):
        state = await table.state()
        if state.finished or (until is not None and until(state)):
            return state
        player, asked = next((p, q) for p in state.players if (q := prompt_for(state, p)) is not None)
        chosen = policy(state, player, asked) if policy else None
        await table.answer(player, chosen if chosen is not None else default_answer(asked))
        await eye.look()
    raise AssertionError("the game did not end")


async def test_each_seal_shows_its_commitment_at_the_table_and_every_reveal_verifies(muster: Muster) -> None:
    """A whole bid game: Alice bids every token she has at once, so her later bids are made for her
    (those seals must show a commitment too)."""
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "bid", "bid")
    alice = muster.world.alice.id
    eye = Suspicious(table)

    def alice_bids_all(state: KillTeamState, player: int, asked: Question) -> str | None:
        if asked.kind == "number" and player == alice and asked.number is not None:
            return str(asked.number.maximum)
        return None

    state = await play_watched(table, eye, policy=alice_bids_all)
    assert state.finished
    steps = {step for step, _player in eye.at_seal}
    assert {"bid.mission.1", "scouting"} <= steps and any(s.startswith("tacbid.") for s in steps), steps
    eye.check()


@pytest.mark.parametrize("tac_ops", ["random", "free", "constructed"])
async def test_a_bid_game_sends_the_secret_tac_ops_once(muster: Muster, tac_ops: str) -> None:
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "bid", tac_ops)
    await table.play(until=lambda s: s.macro == "battle")
    for user in (muster.world.alice, muster.world.bob):
        sent = [m for m in muster.emu.dms(user) if m.interaction_id is None]  # not answers to clicks
        hands = [m for m in sent if "Your secret Tac Ops" in m.all_text()]
        assert len(hands) == 1, "\n----\n".join(m.all_text() for m in hands)


async def test_pressing_a_question_after_a_bid_made_for_you_answers_what_you_pressed(muster: Muster) -> None:
    """Alice spends all her tokens on the mission: her bid for the map is made for her the moment she
    picks the mission, and the board she pressed, redrawn as the answer, is about the mission she
    picked."""
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "bid", "free")
    alice, bob = muster.world.alice.id, muster.world.bob.id
    await table.answer(alice, "10")
    await table.answer(bob, "0")
    picked = await table.answer(alice, "secure")
    state = await table.state()
    assert state.bids is not None and state.bids.sealed is not None
    assert alice in state.bids.sealed.entries  # her map bid, made for her
    # answered by redrawing the board she pressed, whose latest lines start with what she picked
    assert picked.type == UPDATE_MESSAGE and picked.message is not None
    assert picked.message.id == board_post(table).id
    latest = latest_lines(picked.message)
    assert latest.startswith("Mission: **Secure**"), latest
    assert "stays hidden until your opponent" not in picked.message.text()


async def test_a_sealed_bid_is_one_pick_in_the_dm_and_a_forged_pick_is_refused(muster: Muster) -> None:
    """A bid of 0 to 10 tokens is a menu of those numbers in the bidder's DMs: one pick seals it and
    costs one Discord call, where a form cost two (opening it, then its submit's answer). A number the
    menu does not offer, sent by a modified client, is refused to the sender alone and changes nothing.
    The pick is answered by redrawing the DM it was made on."""
    w, emu = muster.world, muster.emu
    table = await KillTeamTable.open(muster, "bid", "free")
    alice = w.alice.id
    state, asked = await table.asked(alice)
    assert asked is not None and asked.kind == "number" and asked.sealed
    ids = component_ids(table.sid, asked)
    assert list(ids) == ["select"], ids  # no number buttons, no button opening a form
    dm = table.find(w.alice, ids["select"], private=True)
    assert dm.channel.is_dm
    menu = dm.select(ids["select"])
    assert [o["value"] for o in menu["options"]] == [str(n) for n in range(11)]
    assert (menu["min_values"], menu["max_values"]) == (1, 1)
    before = state.model_dump_json()
    for forged, said in (
        ("11", "11 is not allowed here: type a whole number from 0 to 10."),
        ("-1", "-1 is not allowed here: type a whole number from 0 to 10."),
        ("7 tokens", "Type a whole number from 0 to 10."),
    ):
        refused = await table.forge_bid(alice, forged)
        assert refused.ephemeral and refused.modal is None and refused.content == said
    assert (await table.state()).model_dump_json() == before
    assert "has sealed" not in "\n".join(m.all_text() for m in table_now(table))
    start = len(emu.requests)
    picked = await (await emu.select(w.alice, dm, ids["select"], ["7"])).response()
    # answered by redrawing the DM the menu was on: it says what was sealed and has no menu left
    assert picked.type == UPDATE_MESSAGE and picked.modal is None
    assert picked.message is not None and picked.message.id == dm.id and not list(dm.walk_components())
    assert "You sealed **7 tokens** for the bid to choose the mission" in dm.embed_text(), dm.text()
    answers = [r for r in emu.requests[start:] if re.match(r"/(interactions|webhooks)/", r.path)]
    assert len(answers) == 1, answers  # the pick's answer, and nothing opened before it
    await muster.settle()
    state = await table.state()
    assert state.bids is not None and state.bids.sealed is not None
    assert list(state.bids.sealed.entries) == [alice]
    assert "has sealed" in "\n".join(m.all_text() for m in table_now(table))
    assert not emu.modals
