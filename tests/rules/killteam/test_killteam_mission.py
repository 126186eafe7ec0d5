"""Step 1 (mission and map) by every method, and choosing sides."""

from __future__ import annotations

import pytest

from rules.errors import RuleError
from rules.killteam import Choose, PreviousGame, SealBid, load_default_pack, prompt, scoreboard
from rules.killteam.events import (
    BidRoundOpened,
    BidTied,
    BidWon,
    InitiativeDecided,
    KillzoneReady,
    MapChosen,
    MapDiscarded,
    MapGroupChosen,
    MapsPutForward,
    MissionChosen,
    MissionsPutForward,
    Notice,
    RolledOff,
    SideChosen,
)
from rules.sealed import ChoiceSealed, ChoicesRevealed, verify
from tests.rules.killteam.killteam_helpers import ALICE, BOB, FULL_PACK, Table


def test_organised_uses_the_given_mission_and_map() -> None:
    table = Table("organised", "free", pack=load_default_pack(), mission="Loot", map="strait")
    mission, chosen_map = table.of(MissionChosen)[0], table.of(MapChosen)[0]
    assert (mission.mission, mission.how, mission.by) == ("loot", "organised", None)
    assert (chosen_map.map, chosen_map.group) == ("A4", "4-6")
    assert table.of(KillzoneReady)[0].map == "Strait (A4)"
    assert table.stage == "side"  # step 3: the roll-off winner picks a side


@pytest.mark.parametrize(("mission", "map_"), [(None, "A4"), ("Loot", None), ("Nope", "A4"), ("Loot", "Z9")])
def test_organised_needs_a_known_mission_and_map(mission: str | None, map_: str | None) -> None:
    with pytest.raises(RuleError) as refused:
        Table("organised", "free", mission=mission, map=map_)
    assert refused.value.code == "killteam.organised_needs"
    assert refused.value.params == {"missions": "Loot, Secure, Capture", "example_map": "A1"}


def test_random_deals_one_mission_and_one_map_reproducibly() -> None:
    first, again = Table("random", "free", seed=7), Table("random", "free", seed=7)
    assert first.state.mission == again.state.mission and first.state.map == again.state.map
    assert first.of(MissionChosen)[0].how == "random"
    reasons = [r.reason for r in first.roller.rolls]
    assert "Kill Team: deal a mission card" in reasons and "Kill Team: deal a map card" in reasons
    dealt = {(Table("random", "free", seed=s).state.mission) for s in range(30)}
    assert dealt == {"loot", "secure", "capture"}


def test_veto_sequence() -> None:
    table = Table("veto", "free", seed=3)
    rolled = table.of(RolledOff)[0]
    assert rolled.purpose == "Veto: attacker and defender"
    winner, loser = rolled.winner, ALICE if rolled.winner == BOB else BOB
    assert prompt(table.state).players == [winner]
    assert table.refused(Choose(actor=loser, step=table.state.step_id(), values=["attack"])) == (
        "killteam.opponents_choice",
        {},
    )
    table.choose(winner, "defend")
    assert table.of(SideChosen)[0].attacker == loser
    attacker, defender = loser, winner
    # the attacker puts forward exactly two missions
    step_id = table.asked(attacker).step or ""
    assert table.refused(Choose(actor=attacker, step=step_id, values=["loot"])) == (
        "answer.count",
        {"minimum": 2, "maximum": 2},
    )
    assert table.refused(Choose(actor=attacker, step=step_id, values=["loot", "loot"])) == (
        "answer.repeated",
        {},
    )
    assert table.refused(Choose(actor=attacker, step=step_id, values=["loot", "nope"])) == (
        "answer.not_offered",
        {},
    )
    table.choose(attacker, "loot", "capture")
    assert table.of(MissionsPutForward)[0].missions == ["Loot", "Capture"]
    assert [o.value for o in table.asked(defender).options] == ["loot", "capture"]
    table.choose(defender, "capture")
    assert table.state.mission == "capture"
    # the defender puts forward three maps, the attacker discards one, the defender picks
    table.choose(defender, "A1", "A5", "B9")
    assert table.of(MapsPutForward)[0].maps == ["Map A1", "Map A5", "Map B9"]
    table.choose(attacker, "A5")
    assert table.of(MapDiscarded)[0].map == "Map A5"
    assert [o.value for o in table.asked(defender).options] == ["A1", "B9"]
    assert table.refused(Choose(actor=defender, step=table.state.step_id(), values=["A5"])) == (
        "answer.not_offered",
        {},
    )
    table.choose(defender, "B9")
    assert table.state.map == "B9"
    # sides are already decided, so step 3 only asks the defender for a drop zone
    assert table.stage == "drop_zone" and prompt(table.state).players == [defender]
    assert len(table.of(RolledOff)) == 1


def test_a_stale_button_is_refused() -> None:
    table = Table("veto", "free", seed=3)
    winner = table.of(RolledOff)[0].winner
    old_step = table.state.step_id()
    table.choose(winner, "attack")
    refusal = table.refused(Choose(actor=winner, step=old_step, values=["loot", "secure"]))
    assert refusal == ("answer.stale", {"now": "Veto: put forward two missions"})


def test_control_winner_picks_unused_mission_and_type_loser_picks_map() -> None:
    previous = PreviousGame(winner=BOB, mission="Loot", map="A4")
    table = Table("control", "free", previous=previous)
    assert prompt(table.state).players == [BOB]
    assert [o.value for o in table.asked(BOB).options] == ["secure", "capture"]
    table.choose(BOB, "secure")
    assert [o.value for o in table.asked(BOB).options] == ["1-3", "7-9"]
    refusal = table.refused(Choose(actor=BOB, step=table.state.step_id(), values=["4-6"]))
    assert refusal == ("answer.not_offered", {})
    table.choose(BOB, "7-9")
    assert table.of(MapGroupChosen)[0].group == "7-9"
    assert [o.value for o in table.asked(ALICE).options] == ["A7", "A8", "A9", "B7", "B8", "B9"]
    table.choose(ALICE, "B7")
    assert (table.state.mission, table.state.map) == ("secure", "B7")
    assert table.of(MapChosen)[0].how == "control"


@pytest.mark.parametrize(
    ("previous", "reason"),
    [
        (None, "no earlier Kill Team game between you two"),
        (PreviousGame(winner=None, mission="loot", map="A4"), "was a draw"),
        (PreviousGame(winner=999, mission="loot", map="A4"), "no winner among you two"),
    ],
)
def test_control_without_a_usable_previous_game_falls_back_to_random(
    previous: PreviousGame | None, reason: str
) -> None:
    table = Table("control", "free", previous=previous)
    notice = table.of(Notice)[0]
    assert reason in notice.text and "random mission and map instead" in notice.text
    assert notice.private_to is None
    assert table.state.mission_method == "random"
    assert table.of(MissionChosen)[0].how == "random"


def test_bid_categories_in_order_tokens_spent_winner_decides() -> None:
    table = Table("bid", "free", seed=5)
    assert table.of(BidRoundOpened)[0].step == "bid.mission.1"
    assert sorted(prompt(table.state).players) == sorted([ALICE, BOB])
    table.bid(ALICE, 3)
    sealed = table.of(ChoiceSealed)[-1]
    assert sealed.player == ALICE and "3" not in sealed.model_dump_json().replace(sealed.commitment, "")
    assert table.state.mission is None and table.stage == "bid"
    table.bid(BOB, 1)
    won = table.of(BidWon)[-1]
    assert (won.winner, won.bids, won.tokens) == (ALICE, {ALICE: 3, BOB: 1}, {ALICE: 7, BOB: 9})
    revealed = table.of(ChoicesRevealed)[-1]
    for entry in revealed.entries:
        assert verify("kt-test", revealed.step, entry.player, entry.choice, entry.nonce, entry.commitment)
    # the winner decides from all missions
    assert prompt(table.state).players == [ALICE]
    assert len(table.asked(ALICE).options) == 3
    table.choose(ALICE, "secure")
    assert table.state.mission == "secure"
    # map
    table.bid(ALICE, 0)
    table.bid(BOB, 4)
    assert len(table.asked(BOB).options) == 18
    table.choose(BOB, "B2")
    # attacker and defender
    table.bid(ALICE, 7)
    table.bid(BOB, 5)
    assert table.state.bids is not None and table.state.bids.tokens == {ALICE: 0, BOB: 0}
    table.choose(ALICE, "defend")
    assert table.attacker == BOB
    # first initiative: no tokens left anywhere, so a roll-off settles it without bids
    rolled = table.of(RolledOff)[-1]
    assert rolled.purpose == "bid to choose who has the first initiative"
    table.choose(rolled.winner, "give")
    loser = BOB if rolled.winner == ALICE else ALICE
    assert table.state.first_initiative == loser
    assert table.of(InitiativeDecided)[-1].how == "bid"
    assert table.state.map == "B2" and table.stage == "drop_zone"
    history = table.state.bids.history if table.state.bids else []
    assert [(r.category, r.winner) for r in history] == [
        ("mission", ALICE),
        ("map", BOB),
        ("sides", ALICE),
        ("initiative", rolled.winner),
    ]


def test_the_board_shows_a_commitment_from_its_seal_until_the_reveal_and_never_the_choice() -> None:
    table = Table("bid", "free")
    assert scoreboard(table.state).sealed == []
    table.bid(ALICE, 3)
    sealed = table.of(ChoiceSealed)[-1]
    (shown,) = scoreboard(table.state).sealed
    assert (shown.step, shown.player, shown.commitment) == ("bid.mission.1", ALICE, sealed.commitment)
    assert "3" not in scoreboard(table.state).model_dump_json().replace(sealed.commitment, "")
    table.bid(BOB, 1)
    assert scoreboard(table.state).sealed == []  # the reveal shows both, with their nonces


def test_a_tie_is_cancelled_and_bid_again_without_spending() -> None:
    table = Table("bid", "free")
    table.bid(ALICE, 4)
    table.bid(BOB, 4)
    tie = table.of(BidTied)[-1]
    assert (tie.category, tie.amount) == ("mission", 4)
    assert table.stage == "bid" and table.state.bids is not None
    assert table.state.bids.tokens == {ALICE: 10, BOB: 10}
    assert table.of(BidRoundOpened)[-1].step == "bid.mission.2"
    # a bid for the cancelled round is refused
    stale = SealBid(actor=ALICE, step="bid.mission.1", amount=2, nonce="nonce-stale-1")
    assert table.refused(stale) == ("killteam.bid_stale", {})
    table.bid(ALICE, 2)
    table.bid(BOB, 6)
    assert table.state.bids.tokens == {ALICE: 8, BOB: 4}
    assert [r.winner for r in table.state.bids.history] == [None, BOB]


def test_zero_zero_is_settled_by_a_roll_off() -> None:
    table = Table("bid", "free", seed=11)
    table.bid(ALICE, 0)
    table.bid(BOB, 0)
    rolled = table.of(RolledOff)[-1]
    won = table.of(BidWon)[-1]
    assert won.rolled_off and won.winner == rolled.winner
    assert table.stage == "bid_decide" and prompt(table.state).players == [rolled.winner]
    assert table.state.bids is not None and table.state.bids.tokens == {ALICE: 10, BOB: 10}


def test_bad_bids_are_refused_specifically() -> None:
    table = Table("bid", "free")
    step_id = "bid.mission.1"
    assert table.refused(SealBid(actor=ALICE, step=step_id, amount=11, nonce="nonce-0001")) == (
        "killteam.bid_over",
        {"tokens": 10},
    )
    assert table.refused(SealBid(actor=ALICE, step=step_id, amount=-1, nonce="nonce-0002")) == (
        "killteam.bid_negative",
        {},
    )
    assert table.refused(SealBid(actor=4242, step=step_id, amount=1, nonce="nonce-0003")) == (
        "killteam.not_a_player",
        {},
    )
    table.bid(ALICE, 9)
    again = table.refused(SealBid(actor=ALICE, step=step_id, amount=1, nonce="nonce-0004"))
    assert again == ("killteam.bid_sealed", {})
    # Bob's refusal never mentions Alice's sealed 9
    code, params = table.refused(SealBid(actor=BOB, step=step_id, amount=12, nonce="nonce-0005"))
    assert (code, params) == ("killteam.bid_over", {"tokens": 10})
    # a menu answer to the number question: no number given
    assert table.refused(Choose(actor=BOB, step=step_id, values=["loot"])) == (
        "answer.number_missing",
        {"minimum": 0, "maximum": 10},
    )


def test_bid_first_initiative_overrides_scouting() -> None:
    table = Table("bid", "free", seed=2)
    for category in ("mission", "map", "sides"):
        table.bid(ALICE, 1)
        table.bid(BOB, 0)
        table.choose(ALICE, table.asked(ALICE).options[0].value)
        assert table.state.bids is not None and table.state.bids.history[-1].category == category
    table.bid(ALICE, 0)
    table.bid(BOB, 2)
    table.choose(BOB, "take")
    assert table.state.first_initiative == BOB
    table.auto(until="battle")
    decided = table.of(InitiativeDecided)
    assert [d.how for d in decided] == ["bid", "bid"]
    assert table.state.first_initiative == BOB
    assert not any(r.purpose == "the first initiative" for r in table.of(RolledOff))


def test_veto_needs_enough_cards() -> None:
    small = FULL_PACK.model_copy(update={"missions": FULL_PACK.missions[:1]})
    with pytest.raises(RuleError) as refused:
        Table("veto", "free", pack=small)
    assert refused.value.code == "killteam.veto_pack"


def test_unknown_methods_are_refused() -> None:
    with pytest.raises(RuleError) as refused:
        Table("draft", "free")
    assert refused.value.code == "killteam.mission_method"
    assert refused.value.params == {"methods": "organised, random, veto, control, bid"}
    with pytest.raises(RuleError) as refused:
        Table("random", "draft")
    assert refused.value.code == "killteam.tacops_method"
