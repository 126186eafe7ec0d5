"""A Warmaster game outlives its players' hands' hour: each hand is one living DM, edited at every
step that changes it, and Discord allows a message older than an hour only a few edits an hour
(error 30046, retry after about an hour). A hand that old is posted afresh at the bottom of the DM,
without a notification (it asks nothing new), and its old copy points to it; the game's later
steps edit the fresh one at once."""

from __future__ import annotations

import pytest

from bot.chat import sending
from bot.chat.limits import RENEW_AGE
from bot.play import in_place
from rules.warmaster import DeckKind
from tests.e2e.conftest import Muster
from tests.e2e.test_old_board import seen_as_old
from tests.e2e.test_warmaster import game_state, hand_dm, lay, load_pack, start_game
from tests.emulator.model import FLAG_SUPPRESS_NOTIFICATIONS


async def test_a_hand_an_hour_old_is_posted_afresh_silently_and_kept_up_to_date(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu, w = muster.emu, muster.world
    await load_pack(muster)
    sid = await start_game(muster, first=w.alice)
    old = hand_dm(muster, w.bob)
    emu.age(old, seconds=3600)
    for module in (sending, in_place):  # the outbox, and an answer drawn on the hand
        seen_as_old(monkeypatch, module, old, 3600)
    state = await game_state(muster, sid)
    while state.turn is not None:  # each lay edits both hands: more edits than an old message gets
        user = w.alice if state.turn == w.alice.id else w.bob
        name = f"Unit {len(state.laid)}"
        await lay(muster, sid, user, name, kind="unit", side="mine", unit_type="infantry")
        state = await game_state(muster, sid)
    await muster.settle()
    assert len(state.laid) >= 6
    assert not [r for r in emu.rate_limited if r.response and r.response.get("code") == 30046]
    fresh = hand_dm(muster, w.bob)
    assert fresh.id != old.id and not fresh.deleted
    assert fresh.flags & FLAG_SUPPRESS_NOTIFICATIONS  # it asks nothing new: no notification
    laid = len([c for c in state.laid if c.player == w.bob.id])
    assert f"Laid {laid} of" in fresh.embed_text() and fresh.history  # renewed once, then edited
    link = f"https://discord.com/channels/@me/{old.channel.id}/{fresh.id}"
    assert old.content == f"This message has moved: {link}" and not old.embeds and not old.components


async def test_a_card_picked_from_an_old_hand_is_shown_apart(
    muster: Muster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pick on a hand near its hour is shown to the player alone, sparing the old message's edits;
    the lay it leads to is answered apart, and the outbox posts the hand afresh."""
    w = muster.world
    await load_pack(muster)
    sid = await start_game(muster, first=w.alice)
    old = hand_dm(muster, w.alice)
    for module in (sending, in_place):
        seen_as_old(monkeypatch, module, old, RENEW_AGE)
    state = await game_state(muster, sid)
    magic = next(h for h in state.side(w.alice.id).hand if h.deck is DeckKind.MAGIC)
    [menu] = [s for s in old.selects() if s["custom_id"].startswith("qp:")]
    [step] = [o["value"] for o in menu["options"] if o["value"].endswith(f".lay.{magic.id}")]
    before = old.snapshot()
    shown = await (await muster.emu.select(w.alice, old, menu["custom_id"], [step])).response()
    assert shown.ephemeral and magic.card.name in shown.text(), shown.text()
    assert old.snapshot() == before  # the old hand is left as it was
