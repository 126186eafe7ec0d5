"""Warmaster cards through the emulator: a whole game from /warmaster game to a stored result, no
face-down card leaking to the opponent before it is turned up, a restart mid-phase, closed DMs,
autocomplete, server packs and refusals."""

from __future__ import annotations

from sqlalchemy import select

from bot.db.models import GameResult
from rules.warmaster import Phase, WarmasterState
from rules.warmaster.cards import DeckKind
from tests.e2e.conftest import Muster
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message, User

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


async def slash(muster: Muster, user: User, command: str, **options: object) -> InteractionResponse:
    response = await (await muster.emu.slash(user, muster.world.channel, command, **options)).response()
    await muster.settle()
    return response


async def load_pack(muster: Muster) -> None:
    w = muster.world
    file = muster.emu.upload("cards.yaml", pack_yaml())
    response = await slash(muster, w.carol, "warmaster pack load", file=file)
    assert response.ephemeral and "Tactics: 8 cards" in response.content, response.content


async def start_game(muster: Muster, first: User | None = None) -> str:
    w = muster.world
    options: dict[str, object] = {"opponent": w.bob, "my_points": 2000, "their_points": 2000}
    if first is not None:
        options["first"] = first
    response = await slash(muster, w.alice, "warmaster game", **options)
    assert response.ephemeral and "Cards dealt" in response.content, response.content
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="warmaster")
    return info.id


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


def latest_with(muster: Muster, label: str) -> Message:
    for message in reversed(muster.emu.messages(muster.world.channel)):
        if any(b.get("label") == label for b in message.buttons()):
            return message
    raise LookupError(f"no message with a {label!r} button")


async def lay(
    muster: Muster, sid: str, user: User, target: str, deck: DeckKind | None = None, **details: object
) -> InteractionResponse:
    state = await game_state(muster, sid)
    held = next(h for h in state.side(user.id).hand if deck is None or h.deck is deck)
    response = await slash(muster, user, "warmaster play", card=held.id, target=target, **details)
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
    state = await game_state(muster, sid)
    assert [len(s.hand) for s in state.sides] == [7, 7] and state.first == w.alice.id
    # Each hand went to its owner by DM, and only there.
    for user in (w.alice, w.bob):
        dm = emu.dms(user)[-1].all_text()
        assert all(h.card.name in dm for h in state.side(user.id).hand)
    assert_no_leaks(muster, state)

    # The card chosen through autocomplete shows only Alice's own cards.
    card_choices = await (
        await emu.autocomplete(w.alice, w.channel, "warmaster play", focused="card", card="")
    ).response()
    offered = {c["value"] for c in card_choices.choices}
    assert offered == {h.id for h in state.side(w.alice.id).hand}

    reply = await lay(
        muster, sid, w.alice, "Knights", deck=DeckKind.MAGIC, kind="unit", side="mine", unit_type="cavalry"
    )
    assert "you laid" in reply.content  # the owner's own answer names the card
    assert any("face-down magic item card on Knights" in m.all_text() for m in emu.messages(w.channel))
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
    posted_before = latest_with(muster, "Show my cards")
    await muster.restart()
    assert (await game_state(muster, sid)).model_dump_json() == before
    # A button posted before the restart still works.
    shown = await (await emu.click(w.alice, posted_before, label="Show my cards")).response()
    assert shown.ephemeral and "Spears" in shown.text()
    hand = await slash(muster, w.bob, "warmaster hand")
    assert hand.ephemeral and "Old Wood" in hand.text()

    # Bob lays on Alice's Knights (already known: picked from autocomplete), with the other deck.
    choices = await (
        await emu.autocomplete(w.bob, w.channel, "warmaster play", focused="target", target="Kni")
    ).response()
    knights = next(c["value"] for c in choices.choices if c["name"].startswith("Knights"))
    state = await game_state(muster, sid)
    await lay(muster, sid, w.bob, knights, deck=DeckKind.TACTICS)
    state = await game_state(muster, sid)
    assert state.laid[5].face_up and state.laid[5].target_key == state.laid[0].target_key
    await lay(muster, sid, w.alice, "Archers", kind="unit", side="mine", unit_type="infantry", shoots=True)

    state = await game_state(muster, sid)
    assert state.turn is None and [c.player for c in state.laid] == [w.alice.id, w.bob.id] * 3 + [w.alice.id]
    assert (state.side(w.alice.id).laid, state.side(w.bob.id).laid) == (4, 3)
    begun = await (
        await emu.click(w.bob, latest_with(muster, "Begin the battle"), label="Begin the battle")
    ).response()
    await muster.settle()
    assert begun.ephemeral and (await game_state(muster, sid)).phase is Phase.BATTLE
    late = await slash(muster, w.bob, "warmaster play", card=state.side(w.bob.id).hand[0].id, target="Orcs")
    assert late.ephemeral and "battle has begun" in late.content

    # Alice turns her Knights card face up; now Bob may see it.
    knights_card = state.laid[0].held.card.name
    assert knights_card not in emu.text_visible_to(w.bob)
    revealed = await slash(muster, w.alice, "warmaster reveal", card=1)
    assert revealed.ephemeral and knights_card in emu.text_visible_to(w.bob)
    assert_no_leaks(muster, await game_state(muster, sid))

    # Losses: cards on a destroyed unit adjust what it is worth.
    lost = await slash(muster, w.bob, "warmaster lost", target=knights, points=110)
    assert lost.ephemeral
    orcs = next(v for v in (await game_state(muster, sid)).targets if v.name == "Orcs")
    await slash(muster, w.alice, "warmaster lost", target=orcs.key, points=45)
    await slash(muster, w.alice, "warmaster lost", target="Wolves", points=60, side="enemy")
    state = await game_state(muster, sid)
    knights_costs = COSTS[state.laid[0].held.card.name] + COSTS[state.laid[5].held.card.name]
    orcs_costs = COSTS[state.laid[1].held.card.name]
    bob_vp = max(0, 110 + knights_costs)
    alice_vp = max(0, 45 + orcs_costs) + 60
    assert_no_leaks(muster, state)

    finished = await slash(muster, w.alice, "warmaster finish")
    assert finished.ephemeral
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult).where(GameResult.session_id == sid))).all()
    assert (row.system, row.player_a, row.player_b) == ("warmaster", w.alice.id, w.bob.id)
    assert (row.score_a, row.score_b) == (alice_vp, bob_vp)
    assert row.winner_id == (w.alice.id if alice_vp > bob_vp else w.bob.id if bob_vp > alice_vp else None)
    channel = "\n".join(m.all_text() for m in emu.messages(w.channel))
    assert f"{alice_vp} VP" in channel and f"{bob_vp} VP" in channel


async def test_closed_dms_get_the_secret_prompt_button(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    emu.close_dms(w.bob)
    sid = await start_game(muster, first=w.bob)
    state = await game_state(muster, sid)
    prompt_message = next(m for m in emu.messages(w.channel) if "DMs are closed" in m.all_text())
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


async def test_refusals_are_ephemeral_and_change_nothing(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
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
    for user, options, expected in [
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
            "can go only",
        ),
    ]:
        response = await slash(muster, user, "warmaster play", **options)
        assert response.ephemeral and expected in response.content, (expected, response.content)
    assert (await game_state(muster, sid)).model_dump_json() == state.model_dump_json()
    reveal = await slash(muster, w.bob, "warmaster reveal", card=1)
    assert reveal.ephemeral and "No card was laid" in reveal.content
    early = await slash(muster, w.alice, "warmaster begin")
    assert early.ephemeral and "still being laid" in early.content
    stranger = await (
        await emu.click(w.carol, latest_with(muster, "Show my cards"), label="Show my cards")
    ).response()
    assert stranger.ephemeral and "only they can use" in stranger.content
    outsider = await slash(muster, w.carol, "warmaster hand")
    assert outsider.ephemeral and "no Warmaster game" in outsider.content
    assert (await game_state(muster, sid)).model_dump_json() == state.model_dump_json()
    assert_no_leaks(muster, state)


async def test_pass_button_is_refused_while_a_card_fits(muster: Muster) -> None:
    w = muster.world
    sid = await start_game(muster, first=w.alice)
    refused = await (
        await muster.emu.click(
            w.alice, latest_with(muster, "Nothing I hold fits: pass"), label="Nothing I hold fits: pass"
        )
    ).response()
    assert refused.ephemeral and "must be" in refused.content
    assert (await game_state(muster, sid)).turn == w.alice.id


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
    assert any("only magic item cards are dealt" in m.all_text() for m in emu.messages(w.channel))
    assert_no_leaks(muster, state)
