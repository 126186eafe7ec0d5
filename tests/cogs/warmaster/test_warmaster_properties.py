"""Property tests: random games, random (often illegal) actions; the rules' invariants always hold."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.lang.text import add_words
from bot.lang.text import refusal as english
from cogs.warmaster.board import event_text
from cogs.warmaster.refusals import ENGLISH
from rules.confirmation import ConfirmPending
from rules.errors import RuleError
from rules.warmaster import (
    BeginBattle,
    FinishGame,
    PassTurn,
    PlayCard,
    RecordLoss,
    RevealCard,
    TargetRef,
    TradeLuckyFind,
    start,
    vp_summary,
)
from rules.warmaster.events import CardLaidFaceDown, CardLaidFaceUp, LuckyFindTraded, TurnPassed
from rules.warmaster.models import Phase, WarmasterState
from rules.warmaster.targeting import all_targets
from rules.warmaster.targets import CharacterRole, Restriction, Side, TargetKind, UnitType
from rules.warmaster.turns import legal_plays, tradable_lucky_finds
from tests.rules.warmaster.warmaster_helpers import (
    ALICE,
    BOB,
    act,
    card,
    roller,
)

TACTICS = [
    card("Drilled", "unit", 10, copies=6),
    card("Ambush", "table", 0, copies=3),
    card("Fog", "terrain", 0, copies=3),
    card("Rivalry", "player", -5, copies=3),
    card("Supply Lines", "army", 5, copies=3),
    card("Inspired", "character", 15, copies=3),
]
add_words(ENGLISH)
NAMES = ["Spears", "Knights", "Archers", "Karl", "Magnus", "Old Wood", "Bolt Thrower"]


def target_refs() -> st.SearchStrategy[TargetRef]:
    new = st.builds(
        TargetRef,
        name=st.sampled_from(NAMES),
        kind=st.sampled_from([TargetKind.UNIT, TargetKind.CHARACTER, TargetKind.TERRAIN, None]),
        side=st.sampled_from([Side.MINE, Side.ENEMY, Side.NEUTRAL, None]),
        unit_type=st.one_of(st.none(), st.sampled_from(list(UnitType))),
        role=st.one_of(st.none(), st.sampled_from(list(CharacterRole))),
        shooting=st.one_of(st.none(), st.booleans()),
    )
    fixed = st.builds(
        TargetRef,
        kind=st.sampled_from([TargetKind.TABLE, TargetKind.PLAYER, TargetKind.ARMY]),
        side=st.sampled_from([Side.MINE, Side.ENEMY]),
    )
    return st.one_of(new, fixed)


def fitting_ref(data: st.DataObject, carrier: Restriction) -> TargetRef:
    """A new target of a kind the carrier allows (its name may clash with a known one)."""
    name = data.draw(st.sampled_from(NAMES)) + data.draw(st.sampled_from(["", " 2", " 3"]))
    side = data.draw(st.sampled_from([Side.MINE, Side.ENEMY]))
    roles = {
        Restriction.GENERAL: [CharacterRole.GENERAL],
        Restriction.WIZARD: [CharacterRole.WIZARD],
        Restriction.WIZARD_OR_RUNESMITH: [CharacterRole.WIZARD, CharacterRole.RUNESMITH],
        Restriction.WIZARD_OR_GENERAL: [CharacterRole.WIZARD, CharacterRole.GENERAL],
        Restriction.CHARACTER: list(CharacterRole),
    }
    types = {
        Restriction.INFANTRY: [UnitType.INFANTRY],
        Restriction.INFANTRY_CAVALRY_CHARIOT: [UnitType.INFANTRY, UnitType.CAVALRY, UnitType.CHARIOT],
        Restriction.INFANTRY_OR_ARTILLERY: [UnitType.INFANTRY, UnitType.ARTILLERY],
        Restriction.MACHINE: [UnitType.MACHINE],
        Restriction.SHOOTER: [UnitType.ARTILLERY, UnitType.MACHINE],
        Restriction.UNIT: list(UnitType),
        Restriction.CHARACTER_OR_UNIT: list(UnitType),
        Restriction.ANY: list(UnitType),
    }
    if carrier in roles:
        role = data.draw(st.sampled_from(roles[carrier]))
        return TargetRef(name=name, kind=TargetKind.CHARACTER, side=side, role=role)
    if carrier in types:
        unit_type = data.draw(st.sampled_from(types[carrier]))
        return TargetRef(name=name, kind=TargetKind.UNIT, side=side, unit_type=unit_type)
    if carrier is Restriction.TERRAIN:
        return TargetRef(name=name, kind=TargetKind.TERRAIN)
    kind = {Restriction.TABLE: TargetKind.TABLE, Restriction.PLAYER: TargetKind.PLAYER}.get(
        carrier, TargetKind.ARMY
    )
    return TargetRef(kind=kind, side=side)


def sensible_action(data: st.DataObject, state: WarmasterState) -> Any:
    """What a player following the rules might do next."""
    if state.pending is not None:
        # Either player answers; mostly a confirmation, sometimes not yet.
        return ConfirmPending(
            actor=data.draw(st.sampled_from(state.players)),
            serial=state.pending.serial,
            confirm=data.draw(st.integers(0, 3)) > 0,
        )
    if state.phase is Phase.CARDS:
        if state.turn is None:
            return BeginBattle(actor=data.draw(st.sampled_from(state.players)))
        side = state.side(state.turn)
        if tradable_lucky_finds(state, side):
            return TradeLuckyFind(actor=side.player)
        plays = legal_plays(state, side.player)
        if plays and data.draw(st.booleans()):
            held, target = data.draw(st.sampled_from(plays))
            return PlayCard(actor=side.player, card=held.id, target=TargetRef(key=target.key))
        cards = [h for h in side.hand if h.card.carrier is not None]
        if cards and data.draw(st.integers(0, 9)) > 0:
            held = data.draw(st.sampled_from(cards))
            assert held.card.carrier is not None
            return PlayCard(actor=side.player, card=held.id, target=fitting_ref(data, held.card.carrier))
        return PassTurn(actor=side.player)
    actor = data.draw(st.sampled_from(state.players))
    hidden = [c.placement for c in state.laid if c.player == actor and not c.face_up]
    if hidden and data.draw(st.integers(0, 3)) == 0:
        return RevealCard(actor=actor, placement=data.draw(st.sampled_from(hidden)))
    lost = {loss.target_key for loss in state.losses}
    standing = [
        t for t in state.targets if t.kind in (TargetKind.UNIT, TargetKind.CHARACTER) and t.key not in lost
    ]
    if standing and data.draw(st.integers(0, 4)) > 0:
        target = data.draw(st.sampled_from(standing))
        return RecordLoss(
            actor=actor, target=TargetRef(key=target.key), base_points=data.draw(st.integers(1, 300))
        )
    return FinishGame(actor=actor)


def choose_action(data: st.DataObject, state: WarmasterState) -> Any:
    if data.draw(st.integers(0, 9)) < 7:
        return sensible_action(data, state)
    actor = data.draw(st.sampled_from([ALICE, BOB, state.turn or ALICE, state.turn or BOB]))
    kind = data.draw(
        st.sampled_from(
            ["play"] * 8 + ["pass", "trade", "reveal", "begin", "lost", "lost", "finish", "confirm"]
        )
    )
    if kind == "play":
        hand = [h.id for h in state.side(actor).hand] or ["M999"]
        target: TargetRef = data.draw(
            st.one_of(target_refs(), st.sampled_from([TargetRef(key=t.key) for t in all_targets(state)]))
        )
        return PlayCard(actor=actor, card=data.draw(st.sampled_from(hand)), target=target)
    if kind == "pass":
        return PassTurn(actor=actor)
    if kind == "trade":
        return TradeLuckyFind(actor=actor)
    if kind == "reveal":
        return RevealCard(actor=actor, placement=data.draw(st.integers(1, len(state.laid) + 1)))
    if kind == "begin":
        return BeginBattle(actor=actor)
    if kind == "confirm":
        return ConfirmPending(
            actor=actor,
            serial=data.draw(st.integers(0, state.confirmation.asked)),
            confirm=data.draw(st.booleans()),
        )
    if kind == "lost":
        return RecordLoss(
            actor=actor, target=data.draw(target_refs()), base_points=data.draw(st.integers(-5, 300))
        )
    return PassTurn(actor=actor)


def check_invariants(state: WarmasterState, total_cards: int, traded: int) -> None:
    targets = {t.key: t for t in all_targets(state)}
    per_player = Counter(c.player for c in state.laid)
    for side in state.sides:
        assert side.laid == per_player[side.player] <= side.limit
    slots = Counter((c.target_key, c.held.deck) for c in state.laid)
    assert all(n == 1 for n in slots.values()), "a target holds two cards of one deck"
    for laid in state.laid:
        target = targets[laid.target_key]
        assert laid.held.card.carrier is not None and laid.held.card.carrier.allows(target)
        if laid.revealed is None and not any(s.exposed for s in state.sides):
            assert laid.face_up == (target.owner == state.opponent(laid.player))
    if state.laid:
        assert state.laid[0].player == state.first
    held = [h for s in state.sides for h in s.hand] + [c.held for c in state.laid] + state.draw_pile
    assert len(held) + traded == total_cards
    assert len({h.id for h in held}) == len(held)
    summary = vp_summary(state)
    assert sum(s.from_losses for s in summary.sides) == sum(loss.vp for loss in state.losses)
    if state.phase is Phase.CARDS and state.turn is not None:
        assert state.side(state.turn).done is None


def secret_names(state: WarmasterState) -> set[str]:
    hidden = {h.card.name for s in state.sides for h in s.hand}
    hidden |= {c.held.card.name for c in state.laid if not c.face_up}
    shown = {c.held.card.name for c in state.laid if c.face_up}
    return hidden - shown


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seed=st.integers(0, 10_000),
    points=st.tuples(st.sampled_from([1000, 2000, 3999, 4000, 6500]), st.sampled_from([1500, 3000, 5200])),
    with_tactics=st.booleans(),
    first=st.sampled_from([ALICE, BOB, None]),
)
def test_random_games_keep_every_rule(
    data: st.DataObject, seed: int, points: tuple[int, int], with_tactics: bool, first: int | None
) -> None:
    state, events = start(
        "prop",
        [ALICE, BOB],
        list(points),
        roller(seed),
        first=first,
        tactics=TACTICS if with_tactics else None,
    )
    total_cards = len([h for s in state.sides for h in s.hand]) + len(state.draw_pile)
    traded = 0
    first_player = state.first
    lays: list[int] = []
    passed_first: set[int] = set()  # who passed before any card was laid (no card of theirs fitted)
    for _ in range(60):
        if state.finished:
            break
        action = choose_action(data, state)
        secrets_before = secret_names(state)
        try:
            new_state, events = act(state, action)
        except RuleError as refusal:
            # A refusal shown to one player never names the other player's hidden cards.
            other = state.opponent(action.actor) if action.actor in state.players else None
            if other is not None:
                theirs = {h.card.name for h in state.side(other).hand}
                theirs |= {c.held.card.name for c in state.laid if c.player == other and not c.face_up}
                mine = {h.card.name for h in state.side(action.actor).hand} | {
                    c.held.card.name for c in state.laid if c.face_up or c.player == action.actor
                }
                for name in theirs - mine:
                    assert name not in refusal.message and name not in english(refusal)
            continue
        # Beginning, finishing and saying not yet change nothing but the confirmation waiting.
        if isinstance(action, (BeginBattle, FinishGame)) or (
            isinstance(action, ConfirmPending) and not action.confirm
        ):
            kept = {"confirmation"}
            assert new_state.model_dump(exclude=kept) == state.model_dump(exclude=kept)
            assert (new_state.pending is None) == isinstance(action, ConfirmPending)
        else:
            assert state.pending is None or isinstance(action, ConfirmPending), "taken while one waited"
        secrets_after = secret_names(new_state)
        for event in events:
            if event.private_to is not None:
                continue
            # A card's name may appear publicly only once it is face up.
            text = event.model_dump_json() + event_text(event)
            for name in secrets_before & secrets_after:
                assert name not in text, (name, event)
            if isinstance(event, (CardLaidFaceDown, CardLaidFaceUp)):
                lays.append(event.player)
            if isinstance(event, TurnPassed) and not lays:
                passed_first.add(event.player)
            if isinstance(event, LuckyFindTraded):
                traded += 1
        state = new_state
        check_invariants(state, total_cards, traded)
    if lays:  # the first player lays first, unless they had to pass
        assert lays[0] == first_player or first_player in passed_first
    # Whenever both players laid their full limit, the first player laid the last card too.
    if all(s.laid == s.limit for s in state.sides):
        assert lays[-1] == first_player
