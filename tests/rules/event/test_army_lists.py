"""Sealed army lists: the commitment is rules/sealed.py's, so `/verify` checks it; the file revealed
hashes to the digest sealed; the checks refuse without repeating the list."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.event.lists import (
    LIST_STEP,
    MAX_FACTION_CHARS,
    MAX_LIST_CHARS,
    check_list,
    check_reason,
    list_choice,
    list_digest,
    normalise_list,
    seal_list,
    verify_list,
)
from rules.sealed import commitment, verify

LIST = "Kommandos\r\n\r\nBoss Nob – Power Klaw\r\nBurna Boy\r\n"


def test_the_commitment_is_the_sealed_scheme_over_faction_and_the_lists_digest() -> None:
    digest = seal_list("ev1", 42, "Orks", LIST, "nonce-1")
    text_digest = hashlib.sha256(normalise_list(LIST).encode("utf-8")).hexdigest()
    assert digest == commitment("ev1", LIST_STEP, 42, f"Orks|{text_digest}", "nonce-1")
    # what /verify does with the values shown at the reveal (it strips the choice it is given)
    assert verify("ev1", "list", 42, f"  Orks|{text_digest} ".strip(), "nonce-1", digest.upper())
    assert verify_list("ev1", 42, "Orks", LIST, "nonce-1", digest)


def test_a_file_of_the_normalised_list_hashes_to_the_digest_sealed() -> None:
    revealed_file = normalise_list(LIST).encode("utf-8")
    assert hashlib.sha256(revealed_file).hexdigest() == list_digest(LIST)
    assert list_digest(LIST) == list_digest(LIST.replace("\r\n", "\n") + "\n\n")


@pytest.mark.parametrize(
    ("event_id", "player", "faction", "text", "nonce"),
    [
        ("ev2", 42, "Orks", LIST, "nonce-1"),
        ("ev1", 43, "Orks", LIST, "nonce-1"),
        ("ev1", 42, "Orkz", LIST, "nonce-1"),
        ("ev1", 42, "Orks", LIST + "Grot", "nonce-1"),
        ("ev1", 42, "Orks", LIST, "nonce-2"),
    ],
)
def test_any_change_fails_verification(
    event_id: str, player: int, faction: str, text: str, nonce: str
) -> None:
    digest = seal_list("ev1", 42, "Orks", LIST, "nonce-1")
    assert not verify_list(event_id, player, faction, text, nonce, digest)


@given(st.text(min_size=1, max_size=300), st.text(min_size=1, max_size=300), st.text(min_size=1, max_size=20))
def test_any_list_verifies_against_its_own_commitment(faction: str, text: str, nonce: str) -> None:
    try:
        faction, text = check_list(faction, text)
    except RuleError:
        return
    digest = seal_list("ev", 7, faction, text, nonce)
    assert verify_list("ev", 7, faction, text, nonce, digest)
    assert verify("ev", LIST_STEP, 7, list_choice(faction, text), nonce, digest)


def test_checks_refuse_with_codes_and_never_the_list() -> None:
    cases = [
        (("", LIST), "event.faction_missing"),
        (("x" * (MAX_FACTION_CHARS + 1), LIST), "event.faction_long"),
        (("Orks", "  \n "), "event.list_empty"),
        (("Orks", "secret unit " * 1000), "event.list_too_long"),
    ]
    for (faction, text), code in cases:
        with pytest.raises(RuleError) as refused:
            check_list(faction, text)
        assert refused.value.code == code
        assert "secret" not in str(refused.value.params)
    with pytest.raises(RuleError) as refused:
        check_list("Orks", "a" * (MAX_LIST_CHARS + 1))
    assert refused.value.params == {"limit": MAX_LIST_CHARS, "length": MAX_LIST_CHARS + 1}


def test_a_list_of_the_limit_is_taken_and_the_faction_tidied() -> None:
    faction, text = check_list("  Adeptus   Mechanicus | Skitarii ", "a" * MAX_LIST_CHARS)
    assert faction == "Adeptus Mechanicus / Skitarii"  # `|` separates the sealed choice's parts
    assert len(text) == MAX_LIST_CHARS


def test_a_rejection_needs_a_short_reason() -> None:
    assert check_reason("  Too many points  ") == "Too many points"
    for reason, code in (("   ", "event.reason_missing"), ("x" * 301, "event.reason_long")):
        with pytest.raises(RuleError) as refused:
            check_reason(reason)
        assert refused.value.code == code
