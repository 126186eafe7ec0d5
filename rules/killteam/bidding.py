"""Sealed token bids (the Bid methods of steps 1 and 5).

Both players seal a bid of 0..their remaining tokens; the higher bid wins the category and both bids
are spent. Equal bids are cancelled and bid again (nothing spent), except 0-0, which a roll-off
settles. Revealed rounds go into the history and never change.
"""

from __future__ import annotations

from rules.dice import Roller
from rules.errors import RuleError
from rules.killteam.common import fresh_nonce, roll_off_players
from rules.killteam.events import BidRoundOpened, BidTied, BidWon, Notice, SecretAsked
from rules.killteam.models import BID_TOKENS, BidContest, BidRecord
from rules.sealed import SealedRound, seal
from rules.session import Event


def new_contest(prefix: str, players: list[int]) -> BidContest:
    return BidContest(prefix=prefix, tokens={p: BID_TOKENS for p in players})


def open_round(
    contest: BidContest, category: str, label: str, roller: Roller
) -> tuple[BidContest, list[Event]]:
    """Ask both players to bid for `category`; with no tokens left anywhere, roll off at once."""
    players = list(contest.tokens)
    round_no = contest.round + 1 if category == contest.category else 1
    if all(tokens == 0 for tokens in contest.tokens.values()):
        winner, rolled = roll_off_players(players, roller, label)
        record = BidRecord(
            category=category, round=round_no, bids={p: 0 for p in players}, winner=winner, rolled_off=True
        )
        return contest.model_copy(
            update={
                "category": category,
                "label": label,
                "round": round_no,
                "sealed": None,
                "winner": winner,
                "history": [*contest.history, record],
            }
        ), [
            Notice(text=f"Neither player has tokens left for the {label}, so a roll-off decides."),
            rolled,
            BidWon(
                category=category,
                label=label,
                bids=record.bids,
                winner=winner,
                rolled_off=True,
                tokens=dict(contest.tokens),
            ),
        ]
    step = f"{contest.prefix}.{category}.{round_no}"
    sealed = SealedRound(step=step, label=label, players=players)
    opened: list[Event] = [
        BidRoundOpened(step=step, category=category, label=label, round=round_no, tokens=dict(contest.tokens))
    ]
    opened += [SecretAsked(step=step, private_to=player) for player in players]
    update = {"category": category, "label": label, "round": round_no, "sealed": sealed, "winner": None}
    return contest.model_copy(update=update), opened


def place_bid(
    contest: BidContest, session_id: str, actor: int, step: str, amount: int, nonce: str, roller: Roller
) -> tuple[BidContest, list[Event]]:
    """Seal one bid; the second seal reveals both and settles the category (or re-opens it).

    Without a nonce, one is drawn from the roller once the bid is accepted."""
    sealed = contest.sealed
    if sealed is None or contest.winner is not None:
        raise RuleError(code="killteam.no_bid")
    if step != sealed.step:
        raise RuleError(code="killteam.bid_stale")
    if actor in sealed.entries:
        raise RuleError(code="killteam.bid_sealed")
    left = contest.tokens[actor]
    if amount < 0:
        raise RuleError(code="killteam.bid_negative")
    if amount > left:
        raise RuleError(code="killteam.bid_over_one" if left == 1 else "killteam.bid_over", tokens=left)
    new_sealed, events = seal(sealed, session_id, actor, str(amount), nonce or fresh_nonce(roller))
    contest = contest.model_copy(update={"sealed": new_sealed})
    if not new_sealed.revealed:
        return contest, events
    bids = {p: int(choice) for p, choice in new_sealed.choices().items()}
    first, second = list(contest.tokens)
    if bids[first] == bids[second]:
        if bids[first] == 0:
            winner, rolled = roll_off_players([first, second], roller, contest.label)
            record = BidRecord(
                category=contest.category, round=contest.round, bids=bids, winner=winner, rolled_off=True
            )
            events += [
                rolled,
                BidWon(
                    category=contest.category,
                    label=contest.label,
                    bids=bids,
                    winner=winner,
                    rolled_off=True,
                    tokens=dict(contest.tokens),
                ),
            ]
            return contest.model_copy(
                update={"winner": winner, "history": [*contest.history, record]}
            ), events
        record = BidRecord(category=contest.category, round=contest.round, bids=bids, winner=None)
        contest = contest.model_copy(update={"history": [*contest.history, record]})
        events.append(BidTied(category=contest.category, label=contest.label, amount=bids[first]))
        contest, reopened = open_round(contest, contest.category, contest.label, roller)
        return contest, events + reopened
    winner = first if bids[first] > bids[second] else second
    tokens = {p: contest.tokens[p] - bids[p] for p in contest.tokens}
    record = BidRecord(category=contest.category, round=contest.round, bids=bids, winner=winner)
    events.append(
        BidWon(
            category=contest.category,
            label=contest.label,
            bids=bids,
            winner=winner,
            rolled_off=False,
            tokens=tokens,
        )
    )
    return contest.model_copy(
        update={"tokens": tokens, "winner": winner, "history": [*contest.history, record]}
    ), events


def settled(contest: BidContest) -> BidContest:
    """The winner has decided: the category is closed."""
    return contest.model_copy(update={"winner": None, "sealed": None})
