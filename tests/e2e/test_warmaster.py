"""Warmaster cards through the emulator: a whole game from /warmaster game to a stored result, by
slash commands and by the questions' buttons, selects and forms (in DMs and in the game's thread),
no face-down card leaking to the opponent before it is turned up, a restart mid-phase, a stale
button, closed DMs, autocomplete, server packs and refusals; what the players see of a whole game
counted (posts, edits, pings, live components), and living DMs (a hand edited in place, a card's
prompt showing where it went); a 6,500-point hand shows every card."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from bot.db.models import GameResult
from rules.warmaster import Phase, WarmasterState
from rules.warmaster.cards import DeckKind
from tests.e2e.conftest import Muster
from tests.e2e.table_counts import (
    actions_marked,
    bot_posts,
    count_table,
    first_content,
    latest_lines,
    thread_edits_per_action,
)
from tests.emulator.interactions import UPDATE_MESSAGE, InteractionRecord, InteractionResponse, NotAllowed
from tests.emulator.model import Channel, Message, User

MAGIC = [
    "Amber Blade",
    "Brass Banner",
    "Cobalt Charm",
    "Dusk Pennant",
    "Ember Spear",
    "Frost Sigil",
    "Gilded Horn",
    "Hollow Crown",
    "Ivory Mace",
    "Jade Standard",
]
TACTICS = [
    "Quick March",
    "Steady Ranks",
    "Feigned Flight",
    "Night Raid",
    "Hidden Reserve",
    "Forced March",
    "Stubborn Hold",
    "Scout Report",
]
COSTS = {name: 5 * (i + 1) for i, name in enumerate(MAGIC)} | {
    name: -5 * (i + 1) for i, name in enumerate(TACTICS)
}


def pack_yaml() -> bytes:
    lines = ["name: Test club cards", "magic:"]
    lines += [f"  - {{name: {n}, cost: {COSTS[n]}, carrier: any, effect: A test item.}}" for n in MAGIC]
    lines.append("tactics:")
    lines += [f"  - {{name: {n}, cost: {COSTS[n]}, carrier: unit, effect: A test ploy.}}" for n in TACTICS]
    return ("\n".join(lines) + "\n").encode()


async def slash(
    muster: Muster, user: User, command: str, *, where: Channel | None = None, **options: Any
) -> InteractionResponse:
    """A slash command in the club's channel, or `where` (a game's thread)."""
    channel = where or muster.world.channel
    response = await (await muster.emu.slash(user, channel, command, **options)).response()
    await muster.settle()
    return response


async def load_pack(muster: Muster) -> None:
    w = muster.world
    file = muster.emu.upload("cards.yaml", pack_yaml())
    response = await slash(muster, w.carol, "warmaster pack load", file=file)
    assert response.ephemeral and "Tactics: 8 cards" in response.content, response.content


async def start_game(muster: Muster, first: User | None = None) -> str:
    w = muster.world
    options: dict[str, Any] = {"opponent": w.bob, "my_points": 2000, "their_points": 2000}
    if first is not None:
        options["first"] = first
    response = await slash(muster, w.alice, "warmaster game", **options)
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="warmaster")
    assert await muster.game_of_card(response) == info.id  # the answer is the game's start card
    return info.id


def redrawn(answer: InteractionResponse) -> Message:
    """The kept message a click was answered with (the board, or the player's own DM prompt): redrawn
    by the answer itself (UPDATE_MESSAGE, not an ephemeral answer), so what the click did is read
    there."""
    assert answer.type == UPDATE_MESSAGE and not answer.ephemeral, answer
    assert answer.message is not None
    return answer.message


async def game_state(muster: Muster, sid: str) -> WarmasterState:
    assert muster.bot is not None
    _info, state = await muster.bot.sessions.load(sid)
    assert isinstance(state, WarmasterState)
    return state


def hidden_from(state: WarmasterState, viewer: int) -> set[str]:
    """Names the viewer must not have seen: the other player's hand and unrevealed face-down cards."""
    other = state.opponent(viewer)
    names = {h.card.name for h in state.side(other).hand}
    names |= {c.held.card.name for c in state.laid if c.player == other and not c.face_up}
    known = {h.card.name for h in state.side(viewer).hand}  # the built-in deck has copies
    known |= {c.held.card.name for c in state.laid if c.player == viewer or c.face_up}
    return names - known


def assert_no_leaks(muster: Muster, state: WarmasterState) -> None:
    w = muster.world
    for user in (w.alice, w.bob):
        seen = muster.emu.text_visible_to(user)
        leaked = {name for name in hidden_from(state, user.id) if name in seen}
        assert not leaked, f"{user.name} saw {leaked}"


async def latest_with(muster: Muster, sid: str, label: str) -> Message:
    """The latest message in the game's thread with a button labelled `label`."""
    for message in reversed(muster.emu.messages(await muster.table(sid))):
        if any(b.get("label") == label for b in message.buttons()):
            return message
    raise LookupError(f"no message with a {label!r} button")


def hand_dm(muster: Muster, user: User) -> Message:
    """The DM showing the user's hand (their one living DM, edited as the hand changes)."""
    [hand] = [m for m in muster.emu.dms(user) if "Your Warmaster cards" in m.embed_text()]
    return hand


def descriptions(message: Message) -> list[str]:
    """The embed descriptions of every version of a message (a DM prompt is edited as it goes)."""
    return [str(e.get("description") or "") for v in [*message.history, message.snapshot()] for e in v.embeds]


def prompt_dm(muster: Muster, user: User) -> Message:
    """The user's one living DM: their hand, then their turn's cards and their tools, edited as the
    game goes."""
    [prompt] = [m for m in muster.emu.dms(user) if m.interaction_id is None and not m.ephemeral]
    return prompt


async def card_dm(muster: Muster, user: User, card_id: str, prompt: Message | None = None) -> Message:
    """The question asking where to lay one card, picked from the card menu of the user's prompt
    (or of `prompt`): shown on their DM prompt itself, or to them alone when picked from an
    ephemeral stand-in (DMs closed)."""
    message = prompt or prompt_dm(muster, user)
    [menu] = [s for s in message.selects() if s["custom_id"].startswith("qp:")]
    [step] = [o["value"] for o in menu["options"] if o["value"].endswith(f".lay.{card_id}")]
    shown = await (await muster.emu.select(user, message, menu["custom_id"], [step])).response()
    if message.ephemeral:
        assert shown.ephemeral and shown.message is not None, shown.text()
        return shown.message
    assert shown.type_name == "UPDATE_MESSAGE" and shown.message is message, shown.text()
    return message


def dm_asking(muster: Muster, user: User, step: str) -> Message:
    """The user's DM whose components answer a question whose step ends with `step`."""

    def steps(message: Message) -> list[str]:
        return [[*str(c.get("custom_id", "")).split(":"), "", "", ""][2] for c in message.walk_components()]

    [prompt] = [m for m in muster.emu.dms(user) if any(s.endswith(step) for s in steps(m))]
    return prompt


async def answer(
    muster: Muster, user: User, message: Message, label: str, fields: dict[str, str] | None = None
) -> InteractionResponse:
    """Pick the option labelled `label` in the message's select that offers it (or press its button),
    and fill in the form it opens."""
    emu = muster.emu
    selects = [s for s in message.selects() if any(o["label"].startswith(label) for o in s["options"])]
    if selects:
        [select] = selects
        value = next(o["value"] for o in select["options"] if o["label"].startswith(label))
        record = await emu.select(user, message, select["custom_id"], [value])
    else:
        button = next(b for b in message.buttons() if b.get("label", "").startswith(label))
        record = await emu.click(user, message, custom_id=button["custom_id"])
    response = await record.response()
    if response.modal is not None:
        assert fields is not None, f"{label} opened a form"
        response = await (await emu.submit_modal(user, response.modal, fields)).response()
    await muster.settle()
    return response


async def lay(
    muster: Muster, sid: str, user: User, target: str, deck: DeckKind | None = None, **details: object
) -> InteractionResponse:
    """Lay the user's first card (of `deck`) by `/warmaster play` in the game's thread."""
    state = await game_state(muster, sid)
    held = next(h for h in state.side(user.id).hand if deck is None or h.deck is deck)
    table = await muster.table(sid)
    response = await slash(
        muster, user, "warmaster play", where=table, card=held.id, target=target, **details
    )
    assert response.ephemeral, response.text()
    after = await game_state(muster, sid)
    assert len(after.laid) == len(state.laid) + 1, response.content
    assert_no_leaks(muster, after)
    return response


async def test_a_whole_game_hides_face_down_cards_until_revealed_and_survives_a_restart(
    muster: Muster,
) -> None:
    emu, w = muster.emu, muster.world
    await load_pack(muster)
    sid = await start_game(muster, first=w.alice)
    table = await muster.table(sid)
    assert table.is_thread and table.parent_id == w.channel.id
    state = await game_state(muster, sid)
    assert [len(s.hand) for s in state.sides] == [7, 7] and state.first == w.alice.id
    # Each hand went to its owner by DM, and only there.
    for user in (w.alice, w.bob):
        dm = hand_dm(muster, user).all_text()
        assert all(h.card.name in dm for h in state.side(user.id).hand)
    assert_no_leaks(muster, state)
    # Alice, whose turn it is, has one prompt listing her cards; each card picked shows its question
    # on that prompt, under the menu, answered by components with `q` ids for that card only.
    alice_cards = [h for h in state.side(w.alice.id).hand if h.card.carrier is not None]
    prompt = prompt_dm(muster, w.alice)
    assert "Your turn to lay a card" in prompt.embed_text()
    for held in alice_cards:
        shown = await card_dm(muster, w.alice, held.id)
        assert shown is prompt and held.card.name in shown.embed_text()
        ids = [c["custom_id"] for c in [*shown.buttons(), *shown.selects()]]
        lays = [i for i in ids if ".lay." in i and not i.startswith(f"qp:{sid}:")]
        assert lays and all(i.split(":")[0] in {"q", "qf", "qs"} for i in lays), ids
        assert all(i.split(":")[1:3] == [sid, f"c0.lay.{held.id}"] for i in lays), ids
    assert [e for e in emu.dms(w.alice) if e.ephemeral] == []  # nothing stacked up in her DM

    # The card chosen through autocomplete shows only Alice's own cards.
    card_choices = await (
        await emu.autocomplete(w.alice, table, "warmaster play", focused="card", card="")
    ).response()
    offered = {c["value"] for c in card_choices.choices}
    assert offered == {h.id for h in state.side(w.alice.id).hand}

    # Alice lays her first magic item card from its DM: a new unit of hers, named in the form.
    magic = next(h for h in state.side(w.alice.id).hand if h.deck is DeckKind.MAGIC)
    reply = await answer(
        muster,
        w.alice,
        await card_dm(muster, w.alice, magic.id),
        "A new unit",
        {"name": "Knights", "type": "cavalry"},
    )
    # The owner's own answer is their prompt, redrawn to say where the card went (no message apart).
    assert reply.type_name == "UPDATE_MESSAGE" and reply.message is prompt, reply.text()
    assert f"You laid **{magic.card.name}** face down on Knights" in prompt.embed_text()
    state = await game_state(muster, sid)
    assert [c.held.id for c in state.laid] == [magic.id] and state.turn == w.bob.id
    knights_target = next(t for t in state.targets if t.name == "Knights")
    assert (knights_target.owner, knights_target.unit_type) == (w.alice.id, "cavalry")
    assert_no_leaks(muster, state)
    assert any("face-down magic item card on Knights" in m.all_text() for m in emu.messages(table))
    # Her prompt, edited, now says where the card went, with no card left to pick until her next
    # turn; her hand message was edited, not posted again.
    laid_prompt = prompt_dm(muster, w.alice)
    assert laid_prompt.id == prompt.id
    assert "face down on Knights" in laid_prompt.embed_text(), laid_prompt.embed_text()
    assert not any(
        c.get("custom_id", "").startswith(("qp:", f"qs:{sid}:c1.lay")) for c in laid_prompt.walk_components()
    )
    assert magic.card.name not in hand_dm(muster, w.alice).embeds[0]["fields"][0]["value"]
    await lay(muster, sid, w.bob, "Orcs", kind="unit", side="mine", unit_type="infantry")
    face_up = await lay(muster, sid, w.alice, "Goblins", kind="unit", side="enemy", unit_type="infantry")
    state = await game_state(muster, sid)
    goblin_card = state.laid[2].held.card.name
    assert state.laid[2].face_up and goblin_card in emu.text_visible_to(w.bob)
    assert "face up" in face_up.content
    await lay(muster, sid, w.bob, "Old Wood", deck=DeckKind.MAGIC, kind="terrain")
    await lay(muster, sid, w.alice, "Spears", kind="unit", side="mine", unit_type="infantry")

    # A restart mid-phase loses nothing: same state, and the game carries on.
    before = (await game_state(muster, sid)).model_dump_json()
    state = await game_state(muster, sid)
    bob_tactics = next(h for h in state.side(w.bob.id).hand if h.deck is DeckKind.TACTICS)
    posted_before = await card_dm(muster, w.bob, bob_tactics.id)  # Bob's turn: asked before the restart
    await muster.restart()
    assert (await game_state(muster, sid)).model_dump_json() == before
    hand = await slash(muster, w.bob, "warmaster hand", where=table)
    assert hand.ephemeral and "Old Wood" in hand.text()
    lays = [h.id for h in state.side(w.bob.id).hand]  # each card comes with its own question
    await emu.wait_until(lambda: len(hand.followups) == len(lays), what="a question per card")
    assert [m.content.split("`")[1] for m in hand.followups] == lays

    # Autocomplete knows Alice's Knights, and so does Bob's question posted before the restart: he
    # lays his tactics card on them with it.
    choices = await (
        await emu.autocomplete(w.bob, table, "warmaster play", focused="target", target="Kni")
    ).response()
    knights = next(c["value"] for c in choices.choices if c["name"].startswith("Knights"))
    laid = await answer(muster, w.bob, posted_before, "Knights")
    assert laid.type_name == "UPDATE_MESSAGE" and laid.message is posted_before, laid.text()
    assert f"You laid **{bob_tactics.card.name}**" in posted_before.embed_text()
    state = await game_state(muster, sid)
    assert len(state.laid) == 6 and state.laid[5].held.id == bob_tactics.id
    assert_no_leaks(muster, state)
    assert state.laid[5].face_up and state.laid[5].target_key == state.laid[0].target_key
    await lay(muster, sid, w.alice, "Archers", kind="unit", side="mine", unit_type="infantry", shoots=True)

    state = await game_state(muster, sid)
    assert state.turn is None and [c.player for c in state.laid] == [w.alice.id, w.bob.id] * 3 + [w.alice.id]
    assert (state.side(w.alice.id).laid, state.side(w.bob.id).laid) == (4, 3)
    begin = await latest_with(muster, sid, "Begin the battle")
    assert all(b["custom_id"] == f"q:{sid}:begin:begin" for b in begin.buttons())
    stranger = await (await emu.click(w.carol, begin, label="Begin the battle")).response()
    assert stranger.ephemeral and "only they can play it" in stranger.content
    assert (await game_state(muster, sid)).model_dump_json() == state.model_dump_json()
    # Bob's press waits for Alice's confirmation, asked in the same message.
    pressed = await (await emu.click(w.bob, begin, label="Begin the battle")).response()
    await muster.settle()
    assert redrawn(pressed).id == begin.id and "waits for" in latest_lines(begin), latest_lines(begin)
    assert (await game_state(muster, sid)).phase is Phase.CARDS
    assert (await latest_with(muster, sid, "Confirm")).id == begin.id
    begun = await (await emu.click(w.alice, begin, label="Confirm")).response()
    await muster.settle()
    assert redrawn(begun).id == begin.id and (await game_state(muster, sid)).phase is Phase.BATTLE
    # The battle's question is the same message, edited (an edit pings nobody).
    assert (await latest_with(muster, sid, "Finish and score the game")).id == begin.id
    late = await slash(
        muster, w.bob, "warmaster play", where=table, card=state.side(w.bob.id).hand[0].id, target="Orcs"
    )
    assert late.ephemeral and "battle has begun" in late.content

    # Alice turns her Knights card face up; now Bob may see it.
    knights_card = state.laid[0].held.card.name
    assert knights_card not in emu.text_visible_to(w.bob)
    revealed = await slash(muster, w.alice, "warmaster reveal", where=table, card=1)
    assert revealed.ephemeral and knights_card in emu.text_visible_to(w.bob)
    assert_no_leaks(muster, await game_state(muster, sid))

    # Losses: cards on a destroyed unit adjust what it is worth.
    lost = await slash(muster, w.bob, "warmaster lost", where=table, target=knights, points=110)
    assert lost.ephemeral and "Knights" in lost.content, lost.content
    orcs = next(v for v in (await game_state(muster, sid)).targets if v.name == "Orcs")
    losses_prompt = dm_asking(muster, w.alice, "b1.lost")  # her DM prompt follows the losses
    orcs_lost = await slash(muster, w.alice, "warmaster lost", where=table, target=orcs.key, points=45)
    assert orcs_lost.ephemeral and "Orcs" in orcs_lost.content, orcs_lost.content
    # The same DM prompt now asks with the losses as they stand: she records the Wolves with it.
    assert dm_asking(muster, w.alice, "b2.lost").id == losses_prompt.id
    wolves = await answer(
        muster, w.alice, losses_prompt, "Another unit of the enemy's", {"name": "Wolves", "points": "60"}
    )
    # A loss recorded with the DM's tool is ticked there, so the DM redrawn is the answer.
    assert wolves.type_name == "UPDATE_MESSAGE" and wolves.message is losses_prompt, wolves.text()
    assert "✅ Wolves" in losses_prompt.embed_text() and "scores 60 VP" in losses_prompt.embed_text()
    state = await game_state(muster, sid)
    knights_costs = COSTS[state.laid[0].held.card.name] + COSTS[state.laid[5].held.card.name]
    orcs_costs = COSTS[state.laid[1].held.card.name]
    bob_vp = max(0, 110 + knights_costs)
    alice_vp = max(0, 45 + orcs_costs) + 60
    assert_no_leaks(muster, state)

    battle = await latest_with(muster, sid, "Finish and score the game")
    pressed = await (await emu.click(w.alice, battle, label="Finish and score the game")).response()
    await muster.settle()
    assert redrawn(pressed).id == battle.id and "waits for" in latest_lines(battle), latest_lines(battle)
    assert not (await game_state(muster, sid)).finished
    finished = await (await emu.click(w.bob, battle, label="Confirm")).response()
    await muster.announced()
    assert redrawn(finished).id == battle.id and "Game over" in latest_lines(battle), latest_lines(battle)
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult).where(GameResult.session_id == sid))).all()
    assert (row.system, row.player_a, row.player_b) == ("warmaster", w.alice.id, w.bob.id)
    assert (row.score_a, row.score_b) == (alice_vp, bob_vp)
    assert row.winner_id == (w.alice.id if alice_vp > bob_vp else w.bob.id if bob_vp > alice_vp else None)
    board = "\n".join(m.all_text() for m in emu.messages(table))
    assert f"{alice_vp} VP" in board and f"{bob_vp} VP" in board
    # Nothing is left to click, in the thread or in either player's DMs.
    assert not count_table(emu, w.channel, table, [w.alice, w.bob]).live_questions


async def test_closed_dms_get_the_secret_prompt_button(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    emu.close_dms(w.bob)
    sid = await start_game(muster, first=w.bob)
    state = await game_state(muster, sid)
    table = await muster.table(sid)
    # One button for the deal and Bob's first turn, not one per card.
    [prompt_message] = [m for m in emu.messages(table) if "DMs are closed" in m.all_text()]
    assert f"<@{w.bob.id}>" in prompt_message.content
    opened = await (
        await emu.click(w.bob, prompt_message, custom_id=prompt_message.buttons()[0]["custom_id"])
    ).response()
    assert opened.ephemeral and all(h.card.name in opened.text() for h in state.side(w.bob.id).hand)
    refused = await (
        await emu.click(w.alice, prompt_message, custom_id=prompt_message.buttons()[0]["custom_id"])
    ).response()
    assert refused.ephemeral and "only" in refused.content
    assert_no_leaks(muster, state)
    # His next turn puts one more button at the table; Alice's turn, in her open DMs, none.
    await lay(muster, sid, w.bob, "Orcs", kind="unit", side="mine", unit_type="infantry")
    assert len([m for m in emu.messages(table) if "DMs are closed" in m.all_text()]) == 1
    await lay(muster, sid, w.alice, "Knights", kind="unit", side="mine", unit_type="cavalry")
    buttons = [m for m in emu.messages(table) if "DMs are closed" in m.all_text()]
    assert len(buttons) == 2 and f"<@{w.bob.id}>" in buttons[1].content
    assert_no_leaks(muster, await game_state(muster, sid))


async def test_refusals_are_ephemeral_and_change_nothing(muster: Muster) -> None:
    w = muster.world
    bad_points = await slash(
        muster, w.alice, "warmaster game", opponent=w.bob, my_points=-5, their_points=2000
    )
    assert bad_points.ephemeral and "positive whole number" in bad_points.content
    zero = await slash(muster, w.alice, "warmaster game", opponent=w.bob, my_points=2000, their_points=0)
    assert zero.ephemeral and "positive whole number" in zero.content
    stranger_first = await slash(
        muster, w.alice, "warmaster game", opponent=w.bob, my_points=2000, their_points=2000, first=w.carol
    )
    assert stranger_first.ephemeral and "first turn" in stranger_first.content
    assert muster.bot is not None
    assert not await muster.bot.sessions.open_sessions(w.guild.id, system="warmaster")

    await load_pack(muster)
    sid = await start_game(muster, first=w.alice)
    again = await slash(muster, w.bob, "warmaster game", opponent=w.alice, my_points=2000, their_points=2000)
    assert again.ephemeral and "already have a Warmaster game" in again.content
    state = await game_state(muster, sid)
    bob_card = state.side(w.bob.id).hand[0]
    cases: list[tuple[User, dict[str, Any], str]] = [
        (
            w.bob,
            {"card": bob_card.id, "target": "Orcs", "kind": "unit", "side": "mine", "unit_type": "infantry"},
            "turn",
        ),
        (
            w.alice,
            {
                "card": bob_card.id,
                "target": "Spears",
                "kind": "unit",
                "side": "mine",
                "unit_type": "infantry",
            },
            "not in your hand",
        ),
        (w.alice, {"card": state.side(w.alice.id).hand[0].id, "target": "Spears"}, "new target"),
        (
            w.alice,
            {
                "card": next(h.id for h in state.side(w.alice.id).hand if h.deck is DeckKind.TACTICS),
                "target": "Stones",
                "kind": "terrain",
            },
            "can go on a unit",
        ),
    ]
    for user, options, expected in cases:
        response = await slash(muster, user, "warmaster play", **options)
        assert response.ephemeral and expected in response.content, (expected, response.content)
    assert (await game_state(muster, sid)).model_dump_json() == state.model_dump_json()
    reveal = await slash(muster, w.bob, "warmaster reveal", card=1)
    assert reveal.ephemeral and "No card was laid" in reveal.content
    early = await slash(muster, w.alice, "warmaster begin")
    assert early.ephemeral and "still being laid" in early.content
    outsider = await slash(muster, w.carol, "warmaster hand")
    assert outsider.ephemeral and "This is a game between" in outsider.content  # not invited to start one
    assert (await game_state(muster, sid)).model_dump_json() == state.model_dump_json()
    assert_no_leaks(muster, state)


async def test_pass_is_disabled_and_refused_while_a_card_fits(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    sid = await start_game(muster, first=w.alice)
    turn = dm_asking(muster, w.alice, "c0.pass")  # her turn's own DM prompt
    assert "Your turn to lay a card" in turn.embed_text()
    pass_button = turn.button(label="Nothing I hold fits: pass")
    assert pass_button["disabled"] and pass_button["custom_id"] == f"q:{sid}:c0.pass:pass"
    with pytest.raises(NotAllowed):
        await emu.click(w.alice, turn, label="Nothing I hold fits: pass")
    refused = await slash(muster, w.alice, "warmaster pass")
    assert refused.ephemeral and "must be" in refused.content
    assert (await game_state(muster, sid)).turn == w.alice.id


async def test_a_card_picked_from_a_menu_the_game_moved_past_is_refused(muster: Muster) -> None:
    """The card menu of a living DM names each card's question; a pick that lands on the menu of a
    turn already played (its edit still on its way) shows nothing to answer and changes nothing."""
    emu, w = muster.emu, muster.world
    sid = await start_game(muster, first=w.alice)
    table = await muster.table(sid)
    prompt = prompt_dm(muster, w.alice)
    [menu] = [s for s in prompt.selects() if s["custom_id"].startswith(f"qp:{sid}:")]
    step = menu["options"][0]["value"]
    state = await game_state(muster, sid)
    card = state.side(w.alice.id).hand[0].id
    slow_edits(muster, prompt)
    played = await (
        await emu.slash(
            w.alice,
            table,
            "warmaster play",
            card=card,
            target="Knights",
            kind="unit",
            side="mine",
            unit_type="cavalry",
        )
    ).response()
    assert played.ephemeral, played.text()
    after = (await game_state(muster, sid)).model_dump_json()
    picked = await (await emu.select(w.alice, prompt, menu["custom_id"], [step])).response()
    assert picked.ephemeral and not picked.components, picked.text()
    assert "That question was already answered" in picked.content, picked.content
    await muster.settle()
    assert (await game_state(muster, sid)).model_dump_json() == after
    assert not any(
        c.get("custom_id", "").startswith("qp:") for c in prompt_dm(muster, w.alice).walk_components()
    )


async def test_a_button_from_an_earlier_turn_is_refused_and_changes_nothing(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    await load_pack(muster)
    sid = await start_game(muster, first=w.alice)
    table = await muster.table(sid)
    state = await game_state(muster, sid)
    magic = [h for h in state.side(w.alice.id).hand if h.deck is DeckKind.MAGIC]
    tactics = next(h for h in state.side(w.alice.id).hand if h.deck is DeckKind.TACTICS)
    # On her first turn Alice also asks for her cards with /warmaster hand: those answers are hers
    # to keep, and are never edited.
    hand = await slash(muster, w.alice, "warmaster hand", where=table)
    await emu.wait_until(lambda: len(hand.followups) == len(state.side(w.alice.id).hand), what="cards")
    old = next(m for m in hand.followups if m.content.startswith(f"`{magic[1].id}`"))  # a select
    old_buttons = next(m for m in hand.followups if m.content.startswith(f"`{tactics.id}`"))  # forms
    prompt = prompt_dm(muster, w.alice)
    await lay(
        muster, sid, w.alice, "Knights", deck=DeckKind.MAGIC, kind="unit", side="mine", unit_type="cavalry"
    )
    await lay(muster, sid, w.bob, "Orcs", kind="unit", side="mine", unit_type="infantry")
    # Her new turn asks again in the same DM message, edited with this turn's questions.
    assert prompt_dm(muster, w.alice).id == prompt.id
    shown = await card_dm(muster, w.alice, magic[1].id)
    assert f"qs:{sid}:c2.lay.{magic[1].id}" in [s["custom_id"] for s in shown.selects()]
    assert magic[1].id in {h.id for h in (await game_state(muster, sid)).side(w.alice.id).hand}

    assert muster.bot is not None
    _info, before = await muster.bot.sessions.load(sid)
    posts = len(emu.messages(table))

    def posted_dms() -> list[int]:  # what the bot sent, not its ephemeral answers in the DM
        return [len([m for m in emu.dms(user) if not m.ephemeral]) for user in (w.alice, w.bob)]

    dms = posted_dms()
    [menu] = old.selects()
    assert menu["custom_id"] == f"qs:{sid}:c0.lay.{magic[1].id}"
    for value in ("t0", "new.mine"):  # a target, and one whose form would open first
        record = await emu.select(w.alice, old, menu["custom_id"], [value])
        refused = await record.response()
        await muster.settle()
        assert refused.ephemeral and refused.modal is None
        assert "That question was already answered: the game is now at" in refused.content, refused.content
    pressed = await (await emu.click(w.alice, old_buttons, label="A new unit of yours")).response()
    await muster.settle()
    assert pressed.ephemeral and pressed.modal is None
    assert "That question was already answered" in pressed.content, pressed.content
    _info, after = await muster.bot.sessions.load(sid)
    assert after.model_dump() == before.model_dump()
    assert len(emu.messages(table)) == posts
    assert posted_dms() == dms


async def test_packs_need_manage_server_and_list_every_problem(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    file = emu.upload("cards.yaml", pack_yaml())
    denied = await (
        await emu.slash(w.alice, w.channel, "warmaster pack load", file=file, bypass_checks=True)
    ).response()
    assert denied.ephemeral and "Manage Server" in denied.content
    broken = emu.upload(
        "broken.yaml",
        b"tactics:\n  - name: Nervous\n    cost: lots\n    carrier: dragon\n"
        b"    effect: jumpy\ncolour: blue\n",
    )
    response = await slash(muster, w.carol, "warmaster pack load", file=broken)
    assert response.ephemeral
    assert "line 3" in response.content and "line 4" in response.content and "line 6" in response.content
    shown = await slash(muster, w.carol, "warmaster pack show")
    assert "Tactics: none" in shown.content and "magic item cards only" in shown.content
    await load_pack(muster)
    shown = await slash(muster, w.carol, "warmaster pack show")
    assert "Tactics: 8 cards" in shown.content and "Magic items: 10 cards" in shown.content


async def test_without_a_tactics_pack_games_deal_magic_items_and_say_so(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    sid = await start_game(muster, first=w.bob)
    state = await game_state(muster, sid)
    assert all(h.deck is DeckKind.MAGIC for s in state.sides for h in s.hand)
    assert [len(s.hand) for s in state.sides] == [4, 4]
    table = await muster.table(sid)
    assert any("only magic item cards are dealt" in m.embed_text() for m in emu.messages(table))
    assert_no_leaks(muster, state)


def restricted_pack_yaml() -> bytes:
    """Magic items for the General only and tactics for any unit, so every hand holds both kinds."""
    return (
        b"name: Restricted cards\n"
        b"magic:\n"
        b"  - {name: War Banner, cost: 25, carrier: general, copies: 20, effect: A banner for the General.}\n"
        b"tactics:\n"
        b"  - {name: Quick March, cost: -5, carrier: unit, copies: 20, effect: A test ploy.}\n"
    )


async def target_choices(muster: Muster, user: User, typed: str, card: str | None = None) -> dict[str, str]:
    """What the target autocomplete offers the user for what they typed: label -> value."""
    options = {"target": typed} | ({"card": card} if card is not None else {})
    asked = await muster.emu.autocomplete(
        user, muster.world.channel, "warmaster play", focused="target", **options
    )
    return {c["name"]: c["value"] for c in (await asked.response()).choices}


async def test_a_new_target_is_laid_on_with_one_autocomplete_choice(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    loaded = await slash(
        muster, w.carol, "warmaster pack load", file=emu.upload("cards.yaml", restricted_pack_yaml())
    )
    assert loaded.ephemeral and "Tactics: 1 cards" in loaded.content, loaded.content
    sid = await start_game(muster, first=w.alice)
    state = await game_state(muster, sid)
    banner = next(h.id for h in state.side(w.alice.id).hand if h.deck is DeckKind.MAGIC)

    # A card for the General only: the new name is offered as each side's General, nothing else.
    offered = await target_choices(muster, w.alice, "Grom", card=banner)
    assert list(offered) == ["New: Grom (my General)", "New: Grom (enemy General)"]
    # The choice alone lays the card: no kind, side or role given.
    laid = await slash(
        muster, w.alice, "warmaster play", card=banner, target=offered["New: Grom (my General)"]
    )
    assert laid.ephemeral and "you laid **War Banner** face down on Grom" in laid.content, laid.content
    state = await game_state(muster, sid)
    [grom] = state.targets
    assert (grom.name, grom.kind, grom.role, grom.owner) == ("Grom", "character", "general", w.alice.id)
    assert [c.target_key for c in state.laid] == [grom.key] and state.turn == w.bob.id
    assert_no_leaks(muster, state)
    # A choice already picked is offered back as itself.
    picked = offered["New: Grom (enemy General)"]
    assert await target_choices(muster, w.alice, picked, card=banner) == {"New: Grom (enemy General)": picked}

    # A card for any unit: every unit type on both sides, no character or terrain. The options given
    # with the choice win over what it carries.
    march = next(h.id for h in state.side(w.bob.id).hand if h.deck is DeckKind.TACTICS)
    offered = await target_choices(muster, w.bob, "Orcs", card=march)
    types = ["infantry", "cavalry", "chariot", "monster", "artillery", "machine"]
    assert list(offered) == [f"New: Orcs ({whose} {t} unit)" for whose in ("my", "enemy") for t in types]
    laid = await slash(
        muster,
        w.bob,
        "warmaster play",
        card=march,
        target=offered["New: Orcs (my cavalry unit)"],
        unit_type="infantry",
    )
    assert laid.ephemeral, laid.content
    state = await game_state(muster, sid)
    orcs = next(t for t in state.targets if t.name == "Orcs")
    assert (orcs.kind, orcs.unit_type, orcs.owner) == ("unit", "infantry", w.bob.id)
    assert state.laid[-1].target_key == orcs.key and state.turn == w.alice.id

    # Alice's General is named: only the enemy's can be new now.
    banner = next(h.id for h in state.side(w.alice.id).hand if h.deck is DeckKind.MAGIC)
    assert list(await target_choices(muster, w.alice, "Thorgrim", card=banner)) == [
        "New: Thorgrim (enemy General)"
    ]
    # Before a card is chosen, a new name is offered as anything, its type or role still to give.
    anything = await target_choices(muster, w.alice, "Wolves")
    assert list(anything) == [
        "New: Wolves (my unit) + unit_type",
        "New: Wolves (enemy unit) + unit_type",
        "New: Wolves (my character) + role",
        "New: Wolves (enemy character) + role",
        "New: Wolves (terrain)",
    ]

    # A typed value that looks like a choice but does not read back is refused politely.
    before = (await game_state(muster, sid)).model_dump_json()
    for value in ("new|dragon|mine|||Smaug", "new|unit|mine|wizard||Wolves"):
        refused = await slash(muster, w.alice, "warmaster play", card=banner, target=value)
        assert refused.ephemeral and "could not read that new-target choice" in refused.content, (
            refused.content
        )
        assert "error id" not in refused.text()
    missing = await slash(
        muster,
        w.alice,
        "warmaster play",
        card=banner,
        target=anything["New: Wolves (enemy unit) + unit_type"],
    )
    assert missing.ephemeral and "Say what kind of unit **Wolves** is" in missing.content, missing.content
    assert (await game_state(muster, sid)).model_dump_json() == before

    # The choice that still needs a type lays the card once the type is given.
    march = next(h.id for h in state.side(w.alice.id).hand if h.deck is DeckKind.TACTICS)
    laid = await slash(
        muster,
        w.alice,
        "warmaster play",
        card=march,
        target=anything["New: Wolves (enemy unit) + unit_type"],
        unit_type="cavalry",
    )
    assert laid.ephemeral and "face up" in laid.content, laid.content
    state = await game_state(muster, sid)
    wolves = next(t for t in state.targets if t.name == "Wolves")
    assert (wolves.kind, wolves.unit_type, wolves.owner) == ("unit", "cavalry", w.bob.id)
    assert state.laid[-1].target_key == wolves.key
    assert_no_leaks(muster, state)


async def test_a_whole_game_stays_in_its_thread_and_pings_a_player_only_to_act(muster: Muster) -> None:
    """A whole game, laid from the DM prompts, counted as the players see it.

    Measured (2,000 v 2,000 points, the test pack, 7 cards laid, a reveal, two losses, begin and
    finish each pressed by one player and confirmed by the other): the channel 2 posts (the start
    card and the result), the thread 2 posts (the board, edited at every step, and the battle's one
    question: begin, its confirmation, finish, its confirmation), 128 edits in all (18 in the
    thread), one ping to each player (when the battle can begin), no component left clickable; DMs:
    14 for Alice and 13 for Bob (a hand, a prompt per card, a "your turn" per turn, her tools), 110
    edits (their tools are paused while a confirmation waits). Before the confirmations: 116 edits
    (14 in the thread), 102 of them in DMs; posts and pings the same. Before the shared table the
    same game made 16 posts in the channel with 12 edits, pinged Alice 4 times and Bob 3 times,
    posted 27 and 23 DMs and left 84 question components clickable.
    Since the battle's question rides on the board (a post with nothing to click pings both when the
    battle can begin): thread 2 posts, 14 edits in the thread (124 in all), at most one per action.
    Since each player has one living DM (their hand, their turn's cards in a menu, their tools): 1 DM
    each, 27 DM edits (41 edits in all); 81 Discord calls for the game, 182 before (a card picked
    from the menu is one more interaction, shown to the player alone).
    Since a click on the board is answered by redrawing it (UPDATE_MESSAGE): the same posts and 41
    edits, 77 calls (begin, finish and their confirmations are each one call; a tool used from the DM
    and a card laid from the prompt picked from the menu are still answered apart).
    Since a card picked from the menu is shown on the prompt itself, and its lay answered there: 70
    calls (77); the DM shows 34 looks (27), 20 of them the outbox's edits (27) and 14 the answers to
    a pick or a lay, where those were 14 ephemeral messages left stacking up in the DM. Since a card
    turned up from the hand is ticked there, that click is answered by the hand too: 69 calls, 19
    of the DM's looks the outbox's edits. Since a loss recorded from the hand is ticked there too:
    68 calls, 18 of the DM's looks the outbox's edits.
    """
    emu, w = muster.emu, muster.world
    await load_pack(muster)
    since = 0  # nothing was posted before the game: the pack's answer is ephemeral
    first_call = len(emu.requests)
    sid = await start_game(muster, first=w.alice)
    table = await muster.table(sid)
    must_act = {w.alice.id: 0, w.bob.id: 0}

    async def lay_from_dm(
        user: User, deck: DeckKind, label: str, fields: dict[str, str] | None = None
    ) -> None:
        state = await game_state(muster, sid)
        held = next(h for h in state.side(user.id).hand if h.deck is deck)
        reply = await answer(muster, user, await card_dm(muster, user, held.id), label, fields)
        assert reply.type_name == "UPDATE_MESSAGE" and reply.message is prompt_dm(muster, user), reply.text()
        assert len((await game_state(muster, sid)).laid) == len(state.laid) + 1
        # The player's prompt says where it went, and no card is left to pick.
        laid_prompt = prompt_dm(muster, user)
        assert "✅" in laid_prompt.embed_text() and " face " in laid_prompt.embed_text()
        assert held.card.name in laid_prompt.embed_text()
        assert not any(c.get("custom_id", "").startswith("qp:") for c in laid_prompt.walk_components())
        must_act[user.id] += 1

    marks: list[int] = []
    with actions_marked(emu, marks):
        await lay_from_dm(w.alice, DeckKind.MAGIC, "A new unit", {"name": "Knights", "type": "cavalry"})
        await lay_from_dm(w.bob, DeckKind.MAGIC, "A new unit", {"name": "Orcs", "type": "infantry"})
        await lay_from_dm(w.alice, DeckKind.TACTICS, "Orcs")
        await lay_from_dm(
            w.bob, DeckKind.TACTICS, "A new unit of yours", {"name": "Wolves", "type": "cavalry"}
        )
        await lay_from_dm(
            w.alice,
            DeckKind.MAGIC,
            "A new unit or character of yours",
            {"name": "Spears", "type": "infantry"},
        )
        await lay_from_dm(
            w.bob, DeckKind.MAGIC, "A new unit or character of yours", {"name": "Trolls", "type": "monster"}
        )
        await lay_from_dm(
            w.alice, DeckKind.TACTICS, "A new unit of yours", {"name": "Archers", "type": "infantry"}
        )
        assert (await game_state(muster, sid)).turn is None

        # The battle's one question rides on the board; a post with nothing to click pinged both.
        battle = await latest_with(muster, sid, "Begin the battle")
        assert battle.id == bot_posts(emu, table)[0].id and "Begin the battle" in battle.embed_text()
        (pinged,) = [m for m in bot_posts(emu, table) if "<@" in first_content(m)]
        assert f"<@{w.alice.id}>" in pinged.content and f"<@{w.bob.id}>" in pinged.content
        assert not pinged.components and "Begin the battle" in pinged.embed_text()
        await (await emu.click(w.bob, battle, label="Begin the battle")).response()
        await muster.settle()
        must_act[w.bob.id] += 1
        await (await emu.click(w.alice, battle, label="Confirm")).response()
        await muster.settle()
        must_act[w.alice.id] += 1
        assert (await game_state(muster, sid)).phase is Phase.BATTLE
        knights_card = (await game_state(muster, sid)).laid[0].held.card.name
        # Her tools are on her one living DM. A card she turns up, and a loss she records, are
        # ticked there, so each click is answered by the hand redrawn. Both are said on the board
        # for both players.
        hand = dm_asking(muster, w.alice, ".reveal")
        turned = await answer(muster, w.alice, hand, "#1")
        assert turned.type_name == "UPDATE_MESSAGE" and turned.message is hand, turned.text()
        assert f"✅ #1: **{knights_card}** on Knights" in hand.embed_text(), hand.embed_text()
        assert knights_card in latest_lines(battle) and knights_card in emu.text_visible_to(w.bob)
        lost = await answer(muster, w.alice, dm_asking(muster, w.alice, "b0.lost"), "Orcs", {"points": "45"})
        assert lost.type_name == "UPDATE_MESSAGE" and lost.message is hand, lost.text()
        assert "✅ Orcs" in hand.embed_text() and "destroyed: 45 pts" in hand.embed_text(), hand.embed_text()
        knights = next(t for t in (await game_state(muster, sid)).targets if t.name == "Knights")
        await slash(muster, w.bob, "warmaster lost", where=table, target=knights.key, points=110)
        await (await emu.click(w.alice, battle, label="Finish and score the game")).response()
        await muster.settle()
        must_act[w.alice.id] += 1
        await (await emu.click(w.bob, battle, label="Confirm")).response()
        must_act[w.bob.id] += 1
    await muster.announced()
    assert (await game_state(muster, sid)).finished
    # What was answered is said on the board (no question message of its own to mark answered).
    confirmed = f"<@{w.bob.id}> confirms <@{w.alice.id}>'s request to finish and score the game."
    assert confirmed in latest_lines(battle) and "Game over." in latest_lines(battle)

    counts = count_table(emu, w.channel, table, [w.alice, w.bob], since=since)
    dms = [[m for m in emu.dms(u) if m.id > since and m.interaction_id is None] for u in (w.alice, w.bob)]
    thread_edits = sum(len(m.history) for m in bot_posts(emu, table, since))
    print(
        f"warmaster: {counts.line()} ({thread_edits} in the thread); DMs {len(dms[0])} and "
        f"{len(dms[1])} ({sum(len(m.history) for m in dms[0] + dms[1])} edits); "
        f"live components {len(counts.live_questions)}; {len(emu.requests) - first_call} calls"
    )
    assert len(emu.requests) - first_call <= 68  # every call the game made to Discord
    assert [len(d) for d in dms] == [1, 1] and sum(len(m.history) for m in dms[0] + dms[1]) <= 34
    dm_paths = tuple(f"/channels/{d[0].channel.id}/messages/" for d in dms)
    dm_edits = [r for r in emu.requests[first_call:] if r.method == "PATCH" and r.path.startswith(dm_paths)]
    assert len(dm_edits) <= 18, len(dm_edits)  # the outbox's; the rest of the looks were answers
    assert not [m for u in (w.alice, w.bob) for m in emu.dms(u) if m.ephemeral and "you laid" in m.text()]
    assert counts.parent_posts <= 3  # the start card and the result
    assert counts.thread_posts <= 16
    assert all(counts.pings[player] <= times for player, times in must_act.items()), (counts.pings, must_act)
    assert not counts.live_questions, counts.live_questions
    assert counts.repeated_edits == 0, counts  # no edit re-sends what a message shows
    assert counts.pings == {w.alice.id: 1, w.bob.id: 1}, counts.pings  # when the battle can begin
    per_action = thread_edits_per_action(emu, marks)
    assert len(per_action) >= sum(must_act.values()) and max(per_action) <= 1, per_action
    assert_no_leaks(muster, await game_state(muster, sid))


def slow_edits(muster: Muster, message: Message, delay: float = 1.5) -> None:
    """Make the next edit of `message` slow, so a press can land on its old buttons."""
    muster.emu.inject(
        "PATCH", rf"/channels/{message.channel.id}/messages/{message.id}", status=None, delay=delay
    )


async def held_answer(muster: Muster, user: User, message: Message, custom_id: str) -> InteractionRecord:
    """Press a button on `message` and hold back its answer (the message redrawn): returns once the
    press is stored and its answer is on its way, while `message` still shows its old buttons."""
    emu = muster.emu
    slow = emu.inject("POST", r"/interactions/\d+/[^/]+/callback", status=None, delay=1.5)
    record = await emu.click(user, message, custom_id=custom_id)
    await emu.wait_until(lambda: slow.hits, 3.0, "the press's answer to be on its way")
    return record


async def test_begin_and_finish_wait_for_a_confirmation(muster: Muster) -> None:
    """Begin and Finish, pressed by one player, wait in the battle's message for a confirmation:
    Not yet changes nothing, the player who pressed may confirm their own, a stale Confirm confirms
    nothing, and a confirmation waiting survives a restart."""
    emu, w = muster.emu, muster.world
    await load_pack(muster)
    sid = await start_game(muster, first=w.alice)
    table = await muster.table(sid)
    state = await game_state(muster, sid)
    while state.turn is not None:
        user = w.alice if state.turn == w.alice.id else w.bob
        await lay(
            muster, sid, user, f"Unit {len(state.laid)}", kind="unit", side="mine", unit_type="infantry"
        )
        state = await game_state(muster, sid)
    battle = await latest_with(muster, sid, "Begin the battle")
    posts, pinged = len(bot_posts(emu, table)), count_table(emu, w.channel, table, [w.alice, w.bob]).pings

    # Alice asks; the same message asks both of them to confirm, and the game waits.
    pressed = await (await emu.click(w.alice, battle, label="Begin the battle")).response()
    await muster.settle()
    assert redrawn(pressed).id == battle.id, "the press is answered by the battle's message redrawn"
    assert f"It waits for <@{w.bob.id}> to confirm" in latest_lines(battle), latest_lines(battle)
    asking = await game_state(muster, sid)
    assert asking.phase is Phase.CARDS and asking.pending is not None
    assert "Begin the battle?" in battle.embed_text()
    assert [b["label"] for b in battle.buttons()] == ["Confirm", "Not yet"]
    [board] = [m for m in bot_posts(emu, table) if m.embeds and m.embeds[0].get("title") == "Warmaster"]
    assert "Waiting for a confirmation" in board.text()
    # Nothing else is taken meanwhile: her reveal prompt is paused, the command is refused.
    reveal_prompt = dm_asking(muster, w.alice, ".reveal")
    assert reveal_prompt.buttons() and all(b.get("disabled") for b in reveal_prompt.buttons())
    assert "Paused" in reveal_prompt.text()
    refused = await slash(muster, w.alice, "warmaster reveal", where=table, card=1)
    assert refused.ephemeral and "waits for a confirmation" in refused.content, refused.content
    assert (await game_state(muster, sid)).model_dump_json() == asking.model_dump_json()

    # Bob says not yet: nothing changes but the count of confirmations asked; Begin is back.
    declined = await (await emu.click(w.bob, battle, label="Not yet")).response()
    await muster.settle()
    assert redrawn(declined).id == battle.id
    assert "Nothing changes" in latest_lines(battle), latest_lines(battle)
    after = await game_state(muster, sid)
    assert after.pending is None and after.confirmation.asked == 1
    assert after.model_dump(exclude={"confirmation"}) == state.model_dump(exclude={"confirmation"})
    assert [b["label"] for b in battle.buttons()] == ["Begin the battle"]
    assert not any(b.get("disabled") for b in reveal_prompt.buttons())

    # Asked again by command: Bob asking too is refused, as one already waits.
    pressed = await slash(muster, w.alice, "warmaster begin", where=table)
    assert pressed.ephemeral and "waits for" in pressed.content, pressed.content
    assert "Begin the battle?" in battle.embed_text()
    again = await slash(muster, w.bob, "warmaster begin", where=table)
    assert again.ephemeral and "waits for a confirmation" in again.content, again.content
    # Bob says not yet and Alice asks once more while the answer redrawing the message is slow: the
    # Confirm still shown belongs to the answered request, so it confirms nothing.
    old_confirm = f"q:{sid}:confirm.1:confirm"
    assert old_confirm in [b["custom_id"] for b in battle.buttons()]
    not_yet = await held_answer(muster, w.bob, battle, f"q:{sid}:confirm.1:not_yet")
    await (await emu.slash(w.alice, table, "warmaster begin")).response()
    assert old_confirm in [b["custom_id"] for b in battle.buttons()]
    stale = await (await emu.click(w.bob, battle, custom_id=old_confirm)).response()
    assert stale.ephemeral and "already answered" in stale.content, stale.content
    waiting = await game_state(muster, sid)
    assert waiting.phase is Phase.CARDS and waiting.pending is not None and waiting.pending.serial == 2
    assert redrawn(await not_yet.response()).id == battle.id
    await muster.settle()
    assert [b["custom_id"] for b in battle.buttons()] == [
        f"q:{sid}:confirm.2:{v}" for v in ("confirm", "not_yet")
    ]

    # A restart keeps the confirmation waiting; Alice confirms her own.
    await muster.restart()
    waiting = await game_state(muster, sid)
    assert waiting.pending is not None and waiting.pending.serial == 2 and waiting.phase is Phase.CARDS
    begun = await (await emu.click(w.alice, battle, label="Confirm")).response()
    await muster.settle()
    assert redrawn(begun).id == battle.id
    assert "confirms their own request to begin the battle" in latest_lines(battle), latest_lines(battle)
    assert (await game_state(muster, sid)).phase is Phase.BATTLE
    assert [b["label"] for b in battle.buttons()] == ["Finish and score the game"]

    # Finish: Bob's Not yet changes nothing, then Bob asks and Alice confirms; the game is scored.
    lost = await slash(muster, w.bob, "warmaster lost", where=table, target="Unit 0", points=100)
    assert lost.ephemeral and "Unit 0" in lost.content, lost.content
    battle_state = await game_state(muster, sid)
    await (await emu.click(w.alice, battle, label="Finish and score the game")).response()
    await muster.settle()
    assert "Finish and score?" in battle.embed_text()
    await (await emu.click(w.bob, battle, label="Not yet")).response()
    await muster.settle()
    kept = {"confirmation"}
    assert (await game_state(muster, sid)).model_dump(exclude=kept) == battle_state.model_dump(exclude=kept)
    await (await emu.click(w.bob, battle, label="Finish and score the game")).response()
    await muster.settle()
    assert not (await game_state(muster, sid)).finished
    scored = await (await emu.click(w.alice, battle, label="Confirm")).response()
    await muster.announced()
    assert redrawn(scored).id == battle.id and "Game over" in latest_lines(battle), latest_lines(battle)
    over = await game_state(muster, sid)
    assert over.finished and over.outcome is not None and over.outcome.winner == w.bob.id
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult).where(GameResult.session_id == sid))).all()
    bob_vp = 100 + COSTS[over.laid[0].held.card.name]
    assert (row.score_a, row.score_b, row.winner_id) == (0, bob_vp, w.bob.id)

    # Every press edited the battle's one message: no post, no ping beyond the first.
    counts = count_table(emu, w.channel, table, [w.alice, w.bob])
    assert len(bot_posts(emu, table)) == posts and counts.pings == pinged
    assert not counts.live_questions, counts.live_questions


WORDY_EFFECT = "A long-winded effect that the players' society printed on the card, " * 3


async def test_a_6500_point_hand_shows_every_card_in_its_dm(muster: Muster) -> None:
    """Thirteen cards with long effects are more than one embed field holds: the hand message
    splits them into as many fields as they need, so every card reaches its owner."""
    emu, w = muster.emu, muster.world
    tactics = "\n".join(
        f'  - {{name: Ploy {chr(64 + n)}, cost: 10, carrier: unit, effect: "{WORDY_EFFECT.strip()}"}}'
        for n in range(1, 13)
    )
    loaded = await slash(
        muster,
        w.carol,
        "warmaster pack load",
        file=emu.upload("wordy.yaml", f"tactics:\n{tactics}\n".encode()),
    )
    assert loaded.ephemeral and "Tactics: 12 cards" in loaded.content, loaded.content
    response = await slash(
        muster, w.alice, "warmaster game", opponent=w.bob, my_points=6500, their_points=6500, first=w.alice
    )
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="warmaster")
    assert await muster.game_of_card(response) == info.id
    state = await game_state(muster, info.id)
    hand = state.side(w.bob.id).hand
    assert len(hand) == 13 and sum(len(h.card.effect) for h in hand) > 1024
    shown = hand_dm(muster, w.bob)
    fields = shown.embeds[0]["fields"]
    assert [f["name"] for f in fields][:2] == ["In your hand", "In your hand (continued)"]
    text = "\n".join(f["value"] for f in fields)
    assert all(f"`{h.id}` **{h.card.name}**" in text for h in hand), text
    assert all(len(f["value"]) <= 1024 for f in fields)
    # /warmaster hand shows them all too.
    asked = await slash(muster, w.bob, "warmaster hand", where=await muster.table(info.id))
    assert all(f"**{h.card.name}**" in asked.text() for h in hand)
    assert_no_leaks(muster, state)
