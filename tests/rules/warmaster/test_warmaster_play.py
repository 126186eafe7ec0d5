"""Laying cards: turn order, limits, targets, restrictions, face down and face up, passing, trading."""

from __future__ import annotations

import pytest
from warmaster_helpers import (
    ALICE,
    BOB,
    TACTIC,
    act,
    card,
    character,
    confirmed,
    first_card,
    give,
    named,
    new_game,
    play,
    public,
    refused,
    terrain,
    unit,
    visible_to,
)

from rules.errors import RuleError
from rules.warmaster import (
    PROCEDURE,
    BeginBattle,
    DeckKind,
    PassTurn,
    Phase,
    RevealCard,
    TargetRef,
    TradeLuckyFind,
    awaiting,
    builtin_magic_deck,
    known_targets,
    playable_targets,
    private_view,
    prompt,
)
from rules.warmaster.cards import Special
from rules.warmaster.events import (
    CardLaidFaceUp,
    CardPhaseComplete,
    CardRevealed,
    CardsDrawn,
    LuckyFindTraded,
    TurnPassed,
)
from rules.warmaster.models import PassReason, RevealReason
from rules.warmaster.targets import Side, TargetKind

BY_NAME = {c.name: c for c in builtin_magic_deck()}


def test_first_player_lays_first_and_last_and_limits_hold() -> None:
    state, _ = new_game(first=BOB, tactics=[TACTIC])
    order: list[int] = []
    for n in range(7):
        player = state.turn
        assert player is not None
        state, events = play(state, player, first_card(state, player), unit(f"Unit {n}"))
        order.append(player)
    assert order == [BOB, ALICE, BOB, ALICE, BOB, ALICE, BOB]
    assert state.turn is None
    assert (state.side(BOB).laid, state.side(ALICE).laid) == (4, 3)
    assert state.side(ALICE).done is PassReason.LIMIT and state.side(BOB).done is PassReason.LIMIT
    assert any(isinstance(e, CardPhaseComplete) for e in events)
    # Each still holds cards, but neither may lay another.
    assert state.side(ALICE).hand and state.side(BOB).hand
    with refused("warmaster.done_laying", reason="limit"):
        play(state, ALICE, first_card(state, ALICE), unit("Late"))


def test_bigger_games_lay_more_cards_in_the_same_pattern() -> None:
    state, _ = new_game(points=(6500, 6500), tactics=[TACTIC])
    order: list[int] = []
    while state.turn is not None:
        player = state.turn
        state, _ = play(state, player, first_card(state, player), unit(f"Unit {len(order)}"))
        order.append(player)
    assert order == [ALICE, BOB] * 6 + [ALICE]


def test_out_of_turn_is_refused_and_nothing_changes() -> None:
    state, _ = new_game()
    with refused("warmaster.not_your_turn", player=ALICE):
        play(state, BOB, first_card(state, BOB), unit("Spears"))


def test_card_not_in_hand_is_refused() -> None:
    state, _ = new_game()
    with refused("warmaster.not_in_hand"):
        play(state, ALICE, first_card(state, BOB), unit("Spears"))
    with refused("warmaster.not_in_hand"):
        play(state, ALICE, "Crown of Command", unit("Spears"))


def test_a_card_can_be_named_instead_of_its_id() -> None:
    state, _ = new_game()
    state, _ = play(state, ALICE, "test sword", unit("Spears"))
    assert state.laid[0].held.card.name == "Test Sword"


def test_one_magic_and_one_tactics_card_per_target() -> None:
    state, _ = new_game(tactics=[TACTIC])
    magic = next(h.id for h in state.side(ALICE).hand if h.deck is DeckKind.MAGIC)
    state, _ = play(state, ALICE, magic, unit("Knights", unit_type="cavalry"))
    bob_magic = next(h.id for h in state.side(BOB).hand if h.deck is DeckKind.MAGIC)
    with refused("warmaster.slot_taken", deck="magic", target="Knights", owner=ALICE):
        play(state, BOB, bob_magic, named("Knights"))
    bob_tactic = next(h.id for h in state.side(BOB).hand if h.deck is DeckKind.TACTICS)
    state, events = play(state, BOB, bob_tactic, named("Knights"))
    assert isinstance(events[0], CardLaidFaceUp)  # Bob lays on Alice's unit: face up
    alice_tactic = next(h.id for h in state.side(ALICE).hand if h.deck is DeckKind.TACTICS)
    with refused("warmaster.slot_taken", deck="tactics", target="Knights"):
        play(state, ALICE, alice_tactic, named("Knights"))
    view = next(v for v in known_targets(state) if v.target.name == "Knights")
    assert view.holds_magic and view.holds_tactics


@pytest.mark.parametrize(
    ("card_name", "target", "ok"),
    [
        ("Crown of Command", character("Karl", role="general"), True),
        ("Crown of Command", character("Magnus", role="wizard"), False),
        ("Crown of Command", unit("Spears"), False),
        ("Wand of Power", character("Magnus", role="wizard"), True),
        ("Wand of Power", character("Thorek", role="runesmith"), False),
        ("Scroll of Dispelling", character("Thorek", role="runesmith"), True),
        ("Scroll of Dispelling", character("Magnus", role="wizard"), True),
        ("Scroll of Dispelling", character("Karl", role="hero"), False),
        ("Scrying Glass", character("Karl", role="general"), True),
        ("Scrying Glass", character("Hans", role="hero"), False),
        ("Horn of Gthank", character("Hans", role="hero"), True),
        ("Horn of Gthank", unit("Spears"), False),
        ("Hammer of Pain", character("Hans", role="hero"), True),
        ("Hammer of Pain", unit("Spears"), True),
        ("Hammer of Pain", terrain("Old Wood"), False),
        ("Banner of Hoohaa!", unit("Spears"), True),
        ("Banner of Hoohaa!", unit("Knights", unit_type="cavalry"), False),
        ("Banner of Dust", unit("Chariots", unit_type="chariot"), True),
        ("Banner of Dust", unit("Cannon", unit_type="artillery"), False),
        ("Banner of Fervour", unit("Knights", unit_type="cavalry"), True),
        ("Banner of Fervour", unit("Giant", unit_type="monster"), False),
        ("Range Limiter", unit("Cannon", unit_type="artillery"), True),
        ("Range Limiter", unit("Knights", unit_type="cavalry"), False),
        ("Technology Advance", unit("Tank", unit_type="machine"), True),
        ("Technology Advance", unit("Cannon", unit_type="artillery"), False),
        ("Bow of Power", unit("Archers", shooting=True), True),
        ("Bow of Power", unit("Cannon", unit_type="artillery"), True),
        ("Bow of Power", unit("Spears"), False),
        ("Place of Power", terrain("Stone Circle"), True),
        ("Place of Power", unit("Spears"), False),
        ("Sword of Might", unit("Spears"), True),
        ("Sword of Might", character("Karl", role="general"), False),
        ("Bad Luck! It's the Blank!", TargetRef(kind=TargetKind.TABLE), True),
        ("Bad Luck! It's the Blank!", TargetRef(kind=TargetKind.PLAYER, side=Side.ENEMY), True),
        ("Sword of Weakness", TargetRef(kind=TargetKind.ARMY, side=Side.ENEMY), False),
    ],
)
def test_restrictions_are_checked_against_the_target(card_name: str, target: TargetRef, ok: bool) -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME[card_name])
    if ok:
        state, _ = play(state, ALICE, card_name, target)
        assert state.laid[0].held.card.name == card_name
    else:
        with refused("warmaster.wrong_carrier", card=card_name, carrier=BY_NAME[card_name].carrier):
            play(state, ALICE, card_name, target)


def test_reveal_by_owner_only() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Sword of Might"])
    state, _ = play(state, ALICE, "Sword of Might", unit("Spears"))
    with refused("warmaster.not_your_card", placement=1):
        act(state, RevealCard(actor=BOB, placement=1))
    with refused("warmaster.no_such_card", placement=9):
        act(state, RevealCard(actor=ALICE, placement=9))
    state, events = act(state, RevealCard(actor=ALICE, placement=1))
    assert isinstance(events[0], CardRevealed) and events[0].card.name == "Sword of Might"
    assert events[0].reason is RevealReason.OWNER and events[0].private_to is None
    with refused("warmaster.already_face_up", placement=1):
        act(state, RevealCard(actor=ALICE, placement=1))


def test_private_view_shows_own_hand_and_face_down_cards_only() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Sword of Might"], BY_NAME["Orb of Majesty"])
    state, _ = play(state, ALICE, "Sword of Might", unit("Spears"))
    alice = private_view(state, ALICE)
    assert [c.name for c in alice.hand] == ["Orb of Majesty"]
    assert [(v.placement, v.card.name, v.target.name) for v in alice.face_down] == [
        (1, "Sword of Might", "Spears")
    ]
    bob = private_view(state, BOB)
    assert bob.face_down == [] and "Sword of Might" not in bob.model_dump_json()
    assert bob.your_turn and not alice.your_turn
    with pytest.raises(RuleError):
        private_view(state, 42)


def test_prompt_and_awaiting() -> None:
    state, _ = new_game()
    assert awaiting(state) == [ALICE] and PROCEDURE.awaiting(state) == [ALICE]
    assert (prompt(state).turn, prompt(state).laid, prompt(state).limit) == (ALICE, 0, 4)
    while state.turn is not None:
        state, _ = play(state, state.turn, first_card(state, state.turn), unit(f"U{len(state.laid)}"))
    assert awaiting(state) == [] and prompt(state).turn is None and prompt(state).phase is Phase.CARDS
    state, _ = confirmed(state, BeginBattle(actor=BOB))
    assert state.phase is Phase.BATTLE and prompt(state).turn is None


def test_pass_refused_when_a_known_target_is_open() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Blank Scroll"], BY_NAME["Sword of Might"])
    state = give(state, BOB, (card("Wizard Trick", carrier="wizard"), DeckKind.TACTICS))
    state, _ = play(state, ALICE, "Sword of Might", unit("Spears"))
    state, _ = play(state, BOB, "Wizard Trick", character("Magnus", side="enemy", role="wizard"))
    with refused("warmaster.must_lay", card="Blank Scroll", target="Magnus", owner=ALICE):
        act(state, PassTurn(actor=ALICE))


@pytest.mark.parametrize(
    ("card_name", "code"),
    [
        ("Sword of Might", "warmaster.must_lay_on_a_unit"),
        ("Hammer of Pain", "warmaster.must_lay_on_a_unit"),
        ("Crown of Command", "warmaster.must_lay_on_a_general"),
        ("Lucky Charm", "warmaster.must_lay_on_a_general"),
        ("Bad Luck! It's the Blank!", "warmaster.must_lay"),  # the table and both players are known
    ],
)
def test_pass_refused_for_cards_every_army_can_take(card_name: str, code: str) -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME[card_name])
    with refused(code, card=card_name):
        act(state, PassTurn(actor=ALICE))


def test_general_only_card_can_be_passed_when_both_generals_are_taken() -> None:
    state, _ = new_game()
    state = give(
        state, ALICE, BY_NAME["Orb of Majesty"], BY_NAME["Crown of Command"], BY_NAME["Helm of Dominion"]
    )
    state = give(state, BOB, BY_NAME["Sword of Might"], BY_NAME["Orb of Majesty"])
    state, _ = play(state, ALICE, "Orb of Majesty", character("Karl", role="general"))
    state, _ = play(state, BOB, "Sword of Might", unit("Orcs", side="mine"))
    with refused("warmaster.must_lay_on_a_general", card="Crown of Command"):
        act(state, PassTurn(actor=ALICE))  # Bob's General has not been named yet
    state, _ = play(state, ALICE, "Crown of Command", character("Grom", side="enemy", role="general"))
    # Both Generals now hold a magic item: Bob's Orb and Alice's Helm fit nowhere.
    state, events = act(state, PassTurn(actor=BOB))
    assert isinstance(events[0], TurnPassed) and events[0].reason is PassReason.NO_FIT
    state, events = act(state, PassTurn(actor=ALICE))
    assert isinstance(events[0], TurnPassed) and events[0].reason is PassReason.NO_FIT
    assert state.turn is None and isinstance(events[-1], CardPhaseComplete)


def test_an_army_has_one_general() -> None:
    state, _ = new_game()
    state, _ = play(state, ALICE, first_card(state, ALICE), unit("Spears"))
    state = give(state, BOB, BY_NAME["Orb of Majesty"], BY_NAME["Helm of Dominion"])
    state, _ = play(state, BOB, "Orb of Majesty", character("Grom", side="mine", role="general"))
    state, _ = play(state, ALICE, first_card(state, ALICE), unit("Halberds"))
    with refused("warmaster.general_taken", name="Grom", owner=BOB):
        play(state, BOB, "Helm of Dominion", character("Other", side="mine", role="general"))


def test_new_targets_need_their_kind_and_details() -> None:
    state, _ = new_game()
    cid = first_card(state, ALICE)
    for ref, code in [
        (TargetRef(name="Spears"), "warmaster.new_target_kind"),
        (TargetRef(name="Spears", kind=TargetKind.UNIT), "warmaster.new_target_whose"),
        (TargetRef(name="Spears", kind=TargetKind.UNIT, side=Side.MINE), "warmaster.unit_type_missing"),
        (TargetRef(name="Karl", kind=TargetKind.CHARACTER, side=Side.MINE), "warmaster.role_missing"),
        (TargetRef(name="Wood", kind=TargetKind.TERRAIN, side=Side.MINE), "warmaster.terrain_side"),
        (TargetRef(kind=TargetKind.PLAYER), "warmaster.target_whose"),
        (TargetRef(name="  "), "warmaster.name_empty"),
        (TargetRef(name="<@123>", kind=TargetKind.TERRAIN), "warmaster.name_markup"),
        (TargetRef(name="x" * 61, kind=TargetKind.TERRAIN), "warmaster.name_too_long"),
        (TargetRef(key="force:1:nothing"), "warmaster.target_unknown"),
    ]:
        with refused(code):
            play(state, ALICE, cid, ref)


def test_known_targets_are_found_by_name_and_conflicts_refused() -> None:
    state, _ = new_game(points=(4000, 4000))
    state, _ = play(state, ALICE, first_card(state, ALICE), unit("Spears"))
    state, _ = play(state, BOB, first_card(state, BOB), unit("Spears", side="mine"))
    with refused("warmaster.target_ambiguous", name="spears"):
        play(state, ALICE, first_card(state, ALICE), named("spears"))
    with refused("warmaster.target_known_as", name="Spears", unit_type="infantry"):
        play(state, ALICE, first_card(state, ALICE), unit("Spears", side="enemy", unit_type="cavalry"))
    keys = {v.target.key for v in known_targets(state)}
    assert {"table", f"player:{ALICE}", f"army:{BOB}", f"force:{ALICE}:spears", f"force:{BOB}:spears"} <= keys
    targets = playable_targets(state, ALICE, first_card(state, ALICE))
    assert [t.name for t in targets] == []  # both Spears hold a magic item; swords need units


def test_lucky_find_is_traded_for_two_cards_and_not_counted() -> None:
    state, _ = new_game()
    lucky = BY_NAME["Lucky Find!"]
    state = give(state, ALICE, lucky, BY_NAME["Sword of Might"])
    with refused("warmaster.lucky_find_not_laid", card="Lucky Find!", draws=2):
        play(state, ALICE, "Lucky Find!", unit("Spears"))
    with refused("warmaster.trade_first", card="Lucky Find!"):
        act(state, PassTurn(actor=ALICE))
    pile = len(state.draw_pile)
    state, events = act(state, TradeLuckyFind(actor=ALICE))
    assert isinstance(events[0], LuckyFindTraded) and events[0].drawn == 2 and events[0].private_to is None
    assert isinstance(events[1], CardsDrawn) and events[1].private_to == ALICE and len(events[1].cards) == 2
    assert len(state.draw_pile) == pile - 2
    assert [h.card.name for h in state.side(ALICE).hand] == ["Sword of Might", "Test Sword", "Test Sword"]
    assert state.side(ALICE).laid == 0 and state.turn == ALICE  # not a laid card, not a turn
    with refused("warmaster.nothing_to_trade"):
        act(state, TradeLuckyFind(actor=ALICE))


def test_lucky_find_out_of_turn_and_with_an_empty_deck() -> None:
    state, _ = new_game()
    state = give(state, BOB, BY_NAME["Lucky Find!"])
    state, _ = act(state, TradeLuckyFind(actor=BOB))  # any time during the card phase
    assert len(state.side(BOB).hand) == 2
    empty = give(state.model_copy(update={"draw_pile": []}), BOB, BY_NAME["Lucky Find!"])
    with refused("warmaster.deck_empty"):
        act(empty, TradeLuckyFind(actor=BOB))


def test_a_hand_of_only_a_lucky_find_must_trade_before_the_turn_moves_on() -> None:
    state, _ = new_game()
    state = give(state, BOB, BY_NAME["Lucky Find!"])
    state, _ = play(state, ALICE, first_card(state, ALICE), unit("Spears"))
    assert state.turn == BOB
    assert private_view(state, BOB).can_trade
    state, _ = act(state, TradeLuckyFind(actor=BOB, card="Lucky Find!"))
    state, _ = play(state, BOB, first_card(state, BOB), unit("Orcs", side="mine"))
    assert state.turn == ALICE


def test_begin_ends_the_card_phase() -> None:
    state, _ = new_game()
    with refused("warmaster.cards_still_laid", player=ALICE):
        act(state, BeginBattle(actor=ALICE))
    while state.turn is not None:
        state, _ = play(state, state.turn, first_card(state, state.turn), unit(f"U{len(state.laid)}"))
    state, _ = confirmed(state, BeginBattle(actor=ALICE))
    with refused("warmaster.already_begun"):
        act(state, BeginBattle(actor=BOB))
    with refused("warmaster.battle_begun"):
        act(state, TradeLuckyFind(actor=ALICE))
    state = give(state, ALICE, BY_NAME["Sword of Might"])
    with refused("warmaster.battle_begun"):
        play(state, ALICE, "Sword of Might", unit("Late"))
    with refused("warmaster.battle_begun"):
        act(state, PassTurn(actor=ALICE))


def test_strangers_cannot_act() -> None:
    state, _ = new_game()
    with pytest.raises(RuleError, match=r"game\.not_player"):
        act(state, BeginBattle(actor=7))


def test_scrying_glass_turns_up_the_enemy_cards_and_their_later_cards() -> None:
    state, _ = new_game()
    state = give(state, ALICE, BY_NAME["Scrying Glass"], BY_NAME["Sword of Might"])
    state = give(state, BOB, BY_NAME["Sword of Cleaving"], BY_NAME["Sword of Fate"])
    state, _ = play(state, ALICE, "Scrying Glass", character("Magnus", role="wizard"))
    state, _ = play(state, BOB, "Sword of Cleaving", unit("Orcs", side="mine"))
    assert not state.laid[1].face_up
    state, events = act(state, RevealCard(actor=ALICE, placement=1))
    assert [type(e) for e in events] == [CardRevealed, CardRevealed]
    assert events[1].card.name == "Sword of Cleaving" and events[1].reason is RevealReason.SCRYING  # type: ignore[attr-defined]
    state, _ = play(state, ALICE, "Sword of Might", unit("Spears"))
    state, events = play(state, BOB, "Sword of Fate", unit("Wolves", side="mine", unit_type="cavalry"))
    assert isinstance(events[0], CardLaidFaceUp)  # Bob now lays face up, even on his own unit
    assert not state.laid[2].face_up  # Alice still lays face down


def test_public_events_never_carry_hidden_card_names() -> None:
    state, events = new_game(tactics=[card("Secret Plan", cost=0, copies=30)], seed=7)
    seen = list(events)
    while state.turn is not None:
        player = state.turn
        state, more = play(state, player, first_card(state, player), unit(f"U{len(state.laid)}"))
        seen += more
    for event in public(seen):
        assert "Test Sword" not in event.model_dump_json() and "Secret Plan" not in event.model_dump_json()
    # The opponent's view of the events holds no hidden name of the other player either.
    for event in visible_to(seen, BOB):
        if event.private_to is None:
            continue
        assert event.private_to == BOB


def test_special_enum_roundtrip() -> None:
    assert Special("lucky_find") is Special.LUCKY_FIND
