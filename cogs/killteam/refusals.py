"""The English for Kill Team's refusal codes; the adapter (cogs/killteam/adapter.py) adds them to the
bot's one catalogue."""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # who may answer
    "killteam.not_a_player": "Only the two players of this game can do that.",
    "killteam.finished": "This game has already finished.",
    "killteam.waiting_for_opponent": "You have already answered this; waiting for your opponent.",
    "killteam.opponents_choice": "This choice is your opponent's to make; please wait for them.",
    "killteam.opponents_turn": "It's your opponent's turn; yours comes next.",
    "killteam.not_that": "The game is waiting for something else: {now}.",
    "killteam.nothing_asked": "Nothing to answer now: {now}.",
    # starting a game
    "killteam.two_players": "A Kill Team game needs two different players.",
    "killteam.mission_method": "Choose a mission method from: {methods}.",
    "killteam.tacops_method": "Choose a Tac Ops method from: {methods}.",
    "killteam.organised_needs": (
        "Organised needs a mission and a map from the pack: missions are {missions}; maps are given by "
        "id, such as {example_map}."
    ),
    "killteam.veto_pack": "Veto needs at least two mission cards and three map cards in the pack.",
    "killteam.method_archetype": (
        "The Kill Team pack in use ({pack}) can't run {method} Tac Ops: that needs an archetype with at "
        "least {minimum} Tac Ops, and its largest has {largest}."
    ),
    "killteam.method_deck": (
        "The Kill Team pack in use ({pack}) can't run {method} Tac Ops: its deck would hold fewer than "
        "{minimum} cards."
    ),
    # sealed bids and scouting
    "killteam.no_bid": "No bid is being asked for right now.",
    "killteam.bid_stale": "That bid belongs to an earlier round; please bid in the current one.",
    "killteam.bid_sealed": "You have already sealed your bid for this round; it can't be changed.",
    "killteam.bid_negative": "A bid can't be negative: bid 0 or more tokens.",
    "killteam.bid_over": "You have {tokens} tokens left, so bid from 0 to {tokens}.",
    "killteam.bid_over_one": "You have {tokens} token left, so bid 0 or 1.",
    "killteam.already_sealed": "You have already sealed your choice for this step; it cannot be changed.",
    "killteam.scouting_option": "Pick one of the scouting options: {options}.",
    # Tac Ops
    "killteam.hand_repeated": "Pick each Tac Op only once.",
    "killteam.hand_size": "Pick exactly {size} Tac Ops.",
    "killteam.hand_foreign": "{tac_op} is not one of your faction's Tac Ops.",
    "killteam.hand_one_faction_op": "Pick at most 1 faction Tac Op.",
    "killteam.hand_faction_max": "Pick at most {maximum} faction Tac Ops.",
    "killteam.hand_archetypes": "All your archetype Tac Ops must come from one archetype.",
    "killteam.no_tac_ops_yet": "You don't have your Tac Ops yet.",
    "killteam.tac_ops_public": "Tac Ops are public in this game, so there is nothing to reveal.",
    "killteam.tac_op_not_held": "You don't hold a Tac Op by that name.",
    "killteam.tac_op_revealed": "You have already revealed {tac_op}.",
    "killteam.tac_op_unrevealed": "Reveal {tac_op} before you score it.",
    # the battle
    "killteam.battle_not_begun": "Victory points are recorded once the battle has begun.",
    "killteam.battle_not_begun_yet": "The battle hasn't begun yet.",
    "killteam.turning_point_ended": (
        "You have ended turning point {turning_point}; record further VP in the next one."
    ),
    "killteam.turning_point_already_ended": (
        "You have already ended turning point {turning_point}; waiting for your opponent."
    ),
    "killteam.turning_point_not_current": (
        "Turning point {given} is not the current one (this is turning point {turning_point})."
    ),
    "killteam.score_turning_point": (
        "That score is for turning point {given}, but this is turning point {turning_point}."
    ),
    "killteam.score_which_tac_op": "Say which Tac Op scored those VP.",
    "killteam.score_nothing": "Give the victory points to record (mission VP, Tac Op VP or both).",
    "killteam.mission_vp_negative": (
        "That would take your mission VP for turning point {turning_point} below 0."
    ),
    "killteam.mission_vp_turning_point_cap": (
        "That would make {vp} mission VP in turning point {turning_point}; the cap is {cap} mission VP per "
        "turning point."
    ),
    "killteam.mission_vp_cap": "That would make {vp} mission VP; the cap is {cap} mission VP in a battle.",
    "killteam.tac_op_vp_negative": "That would take your VP from {tac_op} below 0.",
    "killteam.tac_op_vp_each_cap": (
        "That would make {vp} VP from {tac_op}; the cap is {cap} VP from each Tac Op."
    ),
    "killteam.tac_op_vp_cap": "That would make {vp} VP from Tac Ops; the cap is {cap} VP from Tac Ops.",
    "killteam.vp_cap": "That would make {vp} VP; the cap is {cap} VP in all.",
    "killteam.battle_ready_counts": "Your Battle Ready painted roster already counts.",
    "killteam.battle_ready_not_counted": "Your Battle Ready painted roster is not counted.",
}
