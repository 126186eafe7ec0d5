"""Properties of pairing that hold for any sign-ups, tables, history and seed."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from night_helpers import contexts, pairing_inputs, signup_lists

from rules.night import PairingContext, PairingResult, Signup, Table, pair_players
from rules.night.pairing import JITTER, SPARSE_ABOVE, arrange, pair_weight, shared_system

SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SAT_OUT_CODES = {"night.bye_rotation", "night.no_opponent"}
Inputs = tuple[list[Signup], list[Table], PairingContext, int]


def check_placed(signups: list[Signup], result: PairingResult) -> None:
    paired = [p for pairing in result.pairings for p in pairing.players]
    assert len(paired) == len(set(paired)), "someone is paired twice"
    assert all(len(set(pairing.players)) == 2 for pairing in result.pairings)
    sat_out = [s.player for s in result.sat_out]
    assert len(sat_out) == len(set(sat_out))
    assert not set(paired) & set(sat_out)
    assert set(paired) | set(sat_out) == {s.player for s in signups}
    assert {s.reason.code for s in result.sat_out} <= SAT_OUT_CODES
    by_player = {s.player: s for s in signups}
    for pairing in result.pairings:  # each plays a system both listed, and is told why
        assert all(pairing.system in by_player[p].systems for p in pairing.players)
        assert pairing.reasons


@SLOW
@given(pairing_inputs())
def test_everyone_is_paired_once_or_sits_out_with_a_reason(inputs: Inputs) -> None:
    signups, tables, context, seed = inputs
    check_placed(signups, pair_players(signups, tables, context, seed))


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(pairing_inputs(max_players=200, min_players=130))
def test_a_big_night_places_everyone_once_too(inputs: Inputs) -> None:
    """Most play Warcry first, so its pool passes SPARSE_ABOVE and is matched over its best edges
    only: everyone is still placed once."""
    signups, tables, context, seed = inputs
    signups = [
        s.model_copy(update={"systems": ["warcry", *[x for x in s.systems if x != "warcry"]][:4]})
        if s.player % 4
        else s
        for s in signups
    ]
    assert sum(1 for s in signups if s.systems[0] == "warcry") > SPARSE_ABOVE
    check_placed(signups, pair_players(signups, tables, context, seed))


@SLOW
@given(pairing_inputs())
def test_no_pair_is_on_a_table_that_does_not_suit_its_system(inputs: Inputs) -> None:
    signups, tables, context, seed = inputs
    result = pair_players(signups, tables, context, seed)
    by_id = {t.table_id: t for t in tables}
    used = [p.table_id for p in result.pairings if p.table_id is not None]
    assert len(used) == len(set(used)), "a table holds two pairings"
    for pairing in result.pairings:
        codes = [r.code for r in pairing.reasons]
        if pairing.table_id is None:
            assert "night.no_table" in codes
            free = [t for t in tables if t.table_id not in used]
            assert not [t for t in free if t.suits(pairing.system)], "a free table suited it"
        else:
            assert by_id[pairing.table_id].suits(pairing.system)
            assert "night.table" in codes and "night.no_table" not in codes


@SLOW
@given(pairing_inputs())
def test_arranged_games_are_honoured_when_both_signed_up_and_share_a_system(inputs: Inputs) -> None:
    """An arrangement stands unless its opponent named someone else; of two naming one opponent who
    named nobody, the earlier sign-up gets the game."""
    signups, tables, context, seed = inputs
    result = pair_players(signups, tables, context, seed)
    by_player = {s.player: s for s in signups}
    together = {frozenset(p.players): p for p in result.pairings}
    claims: dict[int, Signup] = {}  # the earliest valid claim on each player
    for claimant in sorted(signups, key=lambda s: s.seq):
        target = by_player.get(claimant.arranged_with or -1)
        if target is None or target.arranged_with not in (None, claimant.player):
            continue
        if shared_system(claimant, target) is None:
            continue
        claims.setdefault(target.player, claimant)
    for target, claimant in claims.items():
        pairing = together.get(frozenset((target, claimant.player)))
        assert pairing is not None, f"{claimant.player} arranged a game with {target}"
        assert pairing.reason("night.arranged") is not None
        assert pairing.system == shared_system(*sorted((claimant, by_player[target]), key=lambda s: s.seq))
    assert sum(1 for p in result.pairings if p.reason("night.arranged")) == len(
        arrange(sorted(signups, key=lambda s: s.seq))
    )


@SLOW
@given(pairing_inputs(), st.randoms(use_true_random=False))
def test_deterministic_for_the_same_inputs_and_seed(inputs: Inputs, shuffler: random.Random) -> None:
    signups, tables, context, seed = inputs
    first = pair_players(signups, tables, context, seed)
    shuffled = list(signups)
    shuffler.shuffle(shuffled)  # the order sign-ups are handed over in does not matter; their seq does
    again = pair_players(shuffled, tables, context, seed)
    assert again == first
    assert PairingResult.model_validate_json(first.model_dump_json()) == first


@SLOW
@given(pairing_inputs())
def test_sitting_out_rotates_to_whoever_has_sat_out_least(inputs: Inputs) -> None:
    """The player sitting out an odd system has sat out no more nights than any other player of that
    system who could have sat out instead (anyone in a pairing of it not arranged beforehand)."""
    signups, tables, context, seed = inputs
    result = pair_players(signups, tables, context, seed)
    for out in result.sat_out:
        system = str(out.reason.values["system"])
        others = [
            player
            for pairing in result.pairings
            if pairing.system == system and pairing.reason("night.arranged") is None
            for player in pairing.players
        ]
        if out.reason.code == "night.no_opponent":
            assert not others
        else:
            assert out.reason.values["byes"] == context.byes_of(out.player)
            assert all(context.byes_of(other) >= context.byes_of(out.player) for other in others)
    per_system = [str(out.reason.values["system"]) for out in result.sat_out]
    assert len(per_system) == len(set(per_system)), "two sit out one system"


@SLOW
@given(pairing_inputs())
def test_no_one_sits_out_who_could_have_played_another_system_they_listed(inputs: Inputs) -> None:
    """A player sitting out their first choice listed no other system someone sits out of (they
    would have moved there and played that one); a player alone in their system listed no other
    system anyone else plays (they would have joined it)."""
    signups, tables, context, seed = inputs
    result = pair_players(signups, tables, context, seed)
    by_player = {s.player: s for s in signups}
    sat_out_of = {str(out.reason.values["system"]) for out in result.sat_out}
    played = {p.system for p in result.pairings if p.reason("night.arranged") is None}
    for out in result.sat_out:
        signup = by_player[out.player]
        if out.reason.values["system"] != signup.systems[0]:
            continue  # moved to another choice already, so not free to move again
        others = set(signup.systems[1:])
        assert not others & sat_out_of
        if out.reason.code == "night.no_opponent":
            assert not others & played


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(signup_lists(max_players=8).filter(lambda s: len(s) % 2 == 0), st.data())
def test_the_matching_is_the_best_one_up_to_the_seed_jitter(
    signups: list[Signup], data: st.DataObject
) -> None:
    """One system, nothing arranged, an even count: no perfect matching is better (bar the jitter)."""
    signups = [s.model_copy(update={"systems": ["warcry"], "arranged_with": None}) for s in signups]
    context = data.draw(contexts([s.player for s in signups]))
    result = pair_players(signups, [], context, data.draw(st.integers(0, 1000)))
    by_player = {s.player: s for s in signups}

    def total(pairs: list[tuple[int, int]]) -> int:
        return sum(pair_weight(by_player[a], by_player[b], "warcry", context) for a, b in pairs)

    found = total([(p.players[0], p.players[1]) for p in result.pairings])
    best = max(total(m) for m in perfect_matchings([s.player for s in signups]))
    assert found >= best - JITTER * len(result.pairings)


def perfect_matchings(players: list[int]) -> list[list[tuple[int, int]]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    found = []
    for partner in rest:
        remaining = [p for p in rest if p != partner]
        found.extend([(first, partner), *m] for m in perfect_matchings(remaining))
    return found
