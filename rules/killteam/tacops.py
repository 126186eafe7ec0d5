"""Step 5, Tac Ops: Random, Constructed Random, Free Selection, Acquired and Bid; and revealing them.

Random and Constructed Random leave one gap the rules text does not cover: a drawn pair in which
neither card fits the hand (say, two faction Tac Ops when one is held). Such a pair is set aside and
two more are drawn; set-aside and discarded cards are reshuffled when the deck runs out. Acquired has
the same gap when no card in the row fits the picker: cards from the deck join the row until one
does. Archetypes are only dealt from when they hold enough cards, so a fitting card always exists.
"""

from __future__ import annotations

from typing import Any

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam.actions import Choose, RevealTacOp, SealBid
from rules.killteam.bidding import new_contest, open_round, place_bid, settled
from rules.killteam.common import ask, complete, expect
from rules.killteam.events import (
    ArchetypeChosen,
    Notice,
    SecretAsked,
    TacOpKept,
    TacOpPairOffered,
    TacOpRevealed,
    TacOpRow,
    TacOpsChosen,
    TacOpsDrawn,
    TacOpsHand,
    TacOpsSetAside,
    TacOpTaken,
)
from rules.killteam.hand import acquired_pool, fits, hand_problem, random_pool
from rules.killteam.labels import ARCHETYPE_BID, pair_label
from rules.killteam.models import TAC_OPS_HELD, BidContest, KillTeamState, TacOpDraft, TacOpsState
from rules.killteam.options import archetype_values
from rules.killteam.pack import TacOp
from rules.session import Event

Step = tuple[KillTeamState, list[Event]]
ROW_SIZE = 6
BID_PAIRS = 3
MAX_DRAWS = 400


def _ops(state: KillTeamState, ids: list[str]) -> list[TacOp]:
    found = [state.pack.tac_op(i) for i in ids]
    return [op for op in found if op is not None]


# ---------------------------------------------------------------------- entering step 5


def enter(state: KillTeamState, roller: Roller) -> Step:
    method = state.tacops_method
    players = list(state.players)
    empty: dict[int, list[str]] = {p: [] for p in players}
    if method == "acquired":
        return _enter_acquired(state, roller)
    if method == "bid":
        contest = new_contest("tacbid", players)
        contest, opened = open_round(contest, "archetype", str(ARCHETYPE_BID), roller)
        tac = TacOpsState(held=empty, revealed=dict(empty), secret=False, bids=contest)
        return _bid_stage(state.model_copy(update={"tac": tac}), contest), opened
    events: list[Event] = []
    tac = TacOpsState(held=empty, revealed=dict(empty), secret=True)
    state = ask(state, "tac_private", tac=tac)
    for player in players:
        if method == "random":
            deck = roller.shuffled(
                random_pool(state.pack, state.faction_of(player)), "Kill Team: shuffle a Tac Ops deck"
            )
            draft, drawn = _draw(state, player, TacOpDraft(phase="draw", deck=deck), roller)
            events += drawn
        else:
            draft = TacOpDraft(phase="archetype")
            events.append(_asked(player, draft))
        state = _with_draft(state, player, draft)
    return state, events


def _asked(player: int, draft: TacOpDraft) -> SecretAsked:
    return SecretAsked(step=f"tac.{player}.{draft.question}", private_to=player)


def _with_draft(state: KillTeamState, player: int, draft: TacOpDraft, **tac_update: Any) -> KillTeamState:
    tac = state.tac.model_copy(update={"drafts": {**state.tac.drafts, player: draft}, **tac_update})
    return state.model_copy(update={"tac": tac})


def _draw(
    state: KillTeamState, player: int, draft: TacOpDraft, roller: Roller
) -> tuple[TacOpDraft, list[Event]]:
    """Draw the next pair that holds at least one card the player may keep."""
    held = _ops(state, state.tac.held.get(player, []))
    faction = state.faction_of(player)
    deck, aside = list(draft.deck), list(draft.set_aside)
    events: list[Event] = []
    for _ in range(MAX_DRAWS):
        if not deck:
            if not aside:
                break
            deck = roller.shuffled(aside, "Kill Team: reshuffle set-aside Tac Ops")
            aside = []
            events.append(
                Notice(
                    text="Your Tac Ops deck ran out, so the set-aside cards were reshuffled into it.",
                    private_to=player,
                )
            )
        pair, deck = deck[:2], deck[2:]
        cards = _ops(state, pair)
        if any(fits(held, card, faction) is None for card in cards):
            events.append(TacOpsDrawn(cards=cards, private_to=player))
            drawn = draft.model_copy(
                update={"deck": deck, "set_aside": aside, "pair": pair, "question": draft.question + 1}
            )
            return drawn, [*events, _asked(player, drawn)]
        aside += pair
        events.append(
            TacOpsSetAside(
                cards=cards,
                private_to=player,
                reason="Neither card fits the Tac Ops you hold, so both go aside and you draw again.",
            )
        )
    # dealable archetypes always leave a fitting card in the deck or among those set aside
    raise RuntimeError("no Tac Op left that fits the hand")  # pragma: no cover


# ---------------------------------------------------------------------- Random, Constructed Random, Free


def private_choice(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = expect(state, action, Choose)
    player = choice.actor
    draft = state.tac.drafts[player]
    faction = state.faction_of(player)
    if draft.phase == "archetype":
        phase = "build" if state.tacops_method == "constructed" else "pick"
        archetype = archetype_values(state)[choice.values[0]]
        draft = draft.model_copy(
            update={"phase": phase, "archetype": archetype, "question": draft.question + 1}
        )
        return _with_draft(state, player, draft), [_asked(player, draft)]
    cards = _ops(state, choice.values)
    if draft.phase == "build":
        problem = hand_problem(cards, faction, 6, 3)
        if problem:
            raise problem
        deck = roller.shuffled(list(choice.values), "Kill Team: shuffle a constructed Tac Ops deck")
        draft, drawn = _draw(state, player, draft.model_copy(update={"phase": "draw", "deck": deck}), roller)
        return _with_draft(state, player, draft), drawn
    if draft.phase == "pick":
        problem = hand_problem(cards, faction, TAC_OPS_HELD, 1)
        if problem:
            raise problem
        return _hand_done(state, player, draft, list(choice.values))
    # draw: keep one of the pair, the other is discarded (and may come back in a reshuffle)
    kept = choice.values[0]
    discarded = [card for card in draft.pair if card != kept]
    held = [*state.tac.held.get(player, []), kept]
    kept_card = _ops(state, [kept])[0]
    events: list[Event] = [TacOpKept(card=kept_card, discarded=_ops(state, discarded), private_to=player)]
    draft = draft.model_copy(update={"pair": [], "set_aside": [*draft.set_aside, *discarded]})
    if len(held) == TAC_OPS_HELD:
        state, done = _hand_done(state, player, draft, held)
        return state, events + done
    state = state.model_copy(
        update={"tac": state.tac.model_copy(update={"held": {**state.tac.held, player: held}})}
    )
    draft, drawn = _draw(state, player, draft, roller)
    return _with_draft(state, player, draft), events + drawn


def _hand_done(state: KillTeamState, player: int, draft: TacOpDraft, held: list[str]) -> Step:
    draft = draft.model_copy(update={"phase": "done", "pair": [], "question": draft.question + 1})
    state = _with_draft(state, player, draft, held={**state.tac.held, player: held})
    events: list[Event] = [
        TacOpsHand(cards=_ops(state, held), private_to=player),
        TacOpsChosen(player=player),
    ]
    if all(d.phase == "done" for d in state.tac.drafts.values()):
        state = complete(state)
    return state, events


# ---------------------------------------------------------------------- Acquired


def _enter_acquired(state: KillTeamState, roller: Roller) -> Step:
    attacker = state.attacker
    assert attacker is not None
    defender = state.opponent(attacker)
    pool = acquired_pool(state.pack, [state.faction_of(p) for p in state.players])
    deck = roller.shuffled(pool, "Kill Team: shuffle the Acquired Tac Ops deck")
    empty: dict[int, list[str]] = {p: [] for p in state.players}
    tac = TacOpsState(
        held=empty, revealed=dict(empty), secret=False, row=deck[:ROW_SIZE], deck=deck[ROW_SIZE:]
    )
    state = ask(state, "tac_row", queue=[attacker, defender] * TAC_OPS_HELD, ordered=True, tac=tac)
    events: list[Event] = [TacOpRow(row=_ops(state, tac.row), added=[])]
    state, more = _fit_row(state)
    return state, events + more


def _fit_row(state: KillTeamState) -> Step:
    """Deal from the deck into the row until the next picker has a card they may take."""
    picker = state.queue[0]
    held = _ops(state, state.tac.held[picker])
    faction = state.faction_of(picker)
    row, deck = list(state.tac.row), list(state.tac.deck)
    added: list[str] = []
    while deck and not any(fits(held, card, faction) is None for card in _ops(state, row)):
        added.append(deck[0])
        row, deck = [*row, deck[0]], deck[1:]
    if not added:
        return state, []
    state = state.model_copy(update={"tac": state.tac.model_copy(update={"row": row, "deck": deck})})
    return state, [
        Notice(text="No card in the row fits the next picker's Tac Ops, so cards were added from the deck."),
        TacOpRow(row=_ops(state, row), added=_ops(state, added)),
    ]


def take_from_row(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = expect(state, action, Choose)
    player, card = choice.actor, choice.values[0]
    row = [c for c in state.tac.row if c != card]
    deck = list(state.tac.deck)
    added = deck[:1]
    row, deck = row + added, deck[1:]
    held = {**state.tac.held, player: [*state.tac.held[player], card]}
    revealed = {**state.tac.revealed, player: [*state.tac.revealed[player], card]}
    tac = state.tac.model_copy(update={"row": row, "deck": deck, "held": held, "revealed": revealed})
    events: list[Event] = [TacOpTaken(player=player, card=_ops(state, [card])[0])]
    queue = state.queue[1:]
    if not queue:
        return complete(state, tac=tac), events
    state = ask(state, "tac_row", queue=queue, ordered=True, tac=tac)
    events.append(TacOpRow(row=_ops(state, row), added=_ops(state, added)))
    state, more = _fit_row(state)
    return state, events + more


# ---------------------------------------------------------------------- Bid


def _bid_stage(state: KillTeamState, contest: BidContest) -> KillTeamState:
    tac = state.tac.model_copy(update={"bids": contest})
    if contest.winner is not None:
        return ask(state, "tac_bid_decide", decider=contest.winner, tac=tac)
    return ask(state, "tac_bid", tac=tac)


def bid(state: KillTeamState, action: Any, roller: Roller) -> Step:
    sealed = expect(state, action, SealBid)
    assert state.tac.bids is not None
    contest, events = place_bid(
        state.tac.bids, state.session_id, sealed.actor, sealed.step, sealed.amount, sealed.nonce, roller
    )
    if contest.winner is None:
        return state.model_copy(update={"tac": state.tac.model_copy(update={"bids": contest})}), events
    return _bid_stage(state, contest), events


def _open_pair(state: KillTeamState, contest: BidContest, roller: Roller) -> Step:
    index = state.tac.pair_index
    pair = _ops(state, state.tac.pairs[index])
    label = str(pair_label(index + 1, pair))
    contest, opened = open_round(contest, f"pair{index + 1}", label, roller)
    return _bid_stage(state, contest), [TacOpPairOffered(number=index + 1, pair=pair), *opened]


def bid_decide(state: KillTeamState, action: Any, roller: Roller) -> Step:
    choice = expect(state, action, Choose)
    assert state.tac.bids is not None
    contest = settled(state.tac.bids)
    value, actor = choice.values[0], choice.actor
    if contest.category == "archetype":
        value = archetype_values(state)[value]
        ids = [op.id for op in state.pack.archetype_ops(value)]
        dealt = roller.shuffled(ids, "Kill Team: pair the archetype's Tac Ops")[: 2 * BID_PAIRS]
        pairs = [dealt[i : i + 2] for i in range(0, len(dealt), 2)]
        state = state.model_copy(
            update={"tac": state.tac.model_copy(update={"archetype": value, "pairs": pairs, "pair_index": 0})}
        )
        state, opened = _open_pair(state, contest, roller)
        return state, [ArchetypeChosen(by=actor, archetype=value), *opened]
    pair = state.tac.pairs[state.tac.pair_index]
    other = next(card for card in pair if card != value)
    loser = state.opponent(actor)
    held = {actor: [*state.tac.held[actor], value], loser: [*state.tac.held[loser], other]}
    tac = state.tac.model_copy(
        update={"held": held, "revealed": dict(held), "pair_index": state.tac.pair_index + 1, "bids": contest}
    )
    state = state.model_copy(update={"tac": tac})
    events: list[Event] = [
        TacOpTaken(player=actor, card=_ops(state, [value])[0]),
        TacOpTaken(player=loser, card=_ops(state, [other])[0]),
    ]
    if tac.pair_index == len(tac.pairs):
        return complete(state), events
    state, more = _open_pair(state, contest, roller)
    return state, events + more


# ---------------------------------------------------------------------- revealing


def reveal(state: KillTeamState, action: RevealTacOp) -> Step:
    player = action.actor
    held = state.tac.held.get(player, [])
    draft = state.tac.drafts.get(player)
    if len(held) < TAC_OPS_HELD or (draft is not None and draft.phase != "done"):
        raise RuleError(code="killteam.no_tac_ops_yet")
    if not state.tac.secret:
        raise RuleError(code="killteam.tac_ops_public")
    card = state.pack.find_tac_op(action.tac_op, held)
    if card is None:
        raise RuleError(code="killteam.tac_op_not_held")
    revealed = state.tac.revealed.get(player, [])
    if card.id in revealed:
        raise RuleError(code="killteam.tac_op_revealed", tac_op=card.name)
    tac = state.tac.model_copy(update={"revealed": {**state.tac.revealed, player: [*revealed, card.id]}})
    return state.model_copy(update={"tac": tac}), [TacOpRevealed(player=player, card=card)]
