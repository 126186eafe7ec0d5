"""Sealed choices: commitments verify, nothing leaks before the reveal, the reveal happens once."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.sealed import ChoiceSealed, ChoicesRevealed, SealedRound, commitment, seal, verify


def new_round() -> SealedRound:
    return SealedRound(step="bid:mission:1", label="bid for the mission", players=[11, 22])


def test_first_seal_shows_only_a_commitment() -> None:
    round_, events = seal(new_round(), "s1", 11, "7", "nonce-a")
    assert not round_.revealed
    assert len(events) == 1 and isinstance(events[0], ChoiceSealed)
    assert "7" not in events[0].model_dump_json().replace(events[0].commitment, "")
    with pytest.raises(RuntimeError):
        round_.choices()


def test_last_seal_reveals_everything_once() -> None:
    round_, _ = seal(new_round(), "s1", 11, "7", "na")
    round_, events = seal(round_, "s1", 22, "3", "nb")
    reveals = [e for e in events if isinstance(e, ChoicesRevealed)]
    assert len(reveals) == 1
    assert round_.choices() == {11: "7", 22: "3"}
    for entry in reveals[0].entries:
        assert verify("s1", "bid:mission:1", entry.player, entry.choice, entry.nonce, entry.commitment)


def test_refusals_never_echo_the_choice() -> None:
    round_, _ = seal(new_round(), "s1", 11, "secret-9", "na")
    with pytest.raises(RuleError) as twice:
        seal(round_, "s1", 11, "secret-1", "nc")
    assert "secret" not in twice.value.message
    with pytest.raises(RuleError):
        seal(round_, "s1", 33, "x", "nd")
    round_, _ = seal(round_, "s1", 22, "3", "nb")
    with pytest.raises(RuleError):
        seal(round_, "s1", 22, "4", "ne")


def test_commitment_binds_every_part() -> None:
    base = commitment("s", "step", 1, "choice", "nonce")
    assert verify("s", "step", 1, "choice", "nonce", base.upper())
    assert not verify("s2", "step", 1, "choice", "nonce", base)
    assert not verify("s", "step2", 1, "choice", "nonce", base)
    assert not verify("s", "step", 2, "choice", "nonce", base)
    assert not verify("s", "step", 1, "choice2", "nonce", base)
    assert not verify("s", "step", 1, "choice", "nonce2", base)


@settings(max_examples=100, deadline=None)
@given(a=st.text(min_size=1, max_size=10), b=st.text(min_size=1, max_size=10), first=st.booleans())
def test_round_trips_through_json_at_every_step(a: str, b: str, first: bool) -> None:
    order = [(11, a), (22, b)] if first else [(22, b), (11, a)]
    round_ = new_round()
    for player, choice in order:
        round_, _ = seal(round_, "s", player, choice, f"n{player}")
        assert SealedRound.model_validate_json(round_.model_dump_json()) == round_
    assert round_.choices() == {11: a, 22: b}
