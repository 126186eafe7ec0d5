"""Server packs: a valid file loads; a broken one lists every problem with its line."""

from __future__ import annotations

import pytest

from rules.warmaster import PackError, Restriction, parse_pack
from rules.warmaster.cards import MAX_PACK_BYTES

TACTICS = """\
name: Club night tactics
tactics:
  - name: Nervous
    cost: -15
    carrier: unit
    copies: 2
    effect: The unit is jumpy.
  - name: Ambush
    cost: 0
    carrier: table
    effect: Something lurks.
"""


def test_a_tactics_pack_loads() -> None:
    pack = parse_pack(TACTICS)
    assert pack.name == "Club night tactics"
    assert pack.magic is None
    assert pack.tactics is not None
    assert [(c.name, c.cost, c.carrier, c.copies) for c in pack.tactics] == [
        ("Nervous", -15, Restriction.UNIT, 2),
        ("Ambush", 0, Restriction.TABLE, 1),
    ]


BROKEN = """\
tactics:
  - name: Nervous
    cost: lots
    carrier: unit
    effect: jumpy
  - name: Drilled
    carrier: dragon
    effect: neat
  - name: Nervous
    carrier: unit
    effect: again
  - cost: 5
    carrier: unit
    effect: nameless
colour: blue
"""


def test_every_problem_is_listed_with_its_line() -> None:
    with pytest.raises(PackError) as caught:
        parse_pack(BROKEN)
    errors = caught.value.errors
    assert any(e.startswith("line 3: tactics[0].cost:") for e in errors), errors
    assert any(e.startswith("line 7: tactics[1].carrier:") for e in errors), errors
    assert any(e.startswith("line 12: tactics[3].name:") for e in errors), errors
    assert "line 15: colour: unknown field (check the spelling)" in errors
    assert len(errors) == 4
    assert [int(e.split(":")[0].removeprefix("line ")) for e in errors] == sorted(
        int(e.split(":")[0].removeprefix("line ")) for e in errors
    )


def test_a_card_listed_twice_is_named_at_its_line_once_the_cards_are_well_formed() -> None:
    fixed = (
        BROKEN.replace("lots", "5")
        .replace("dragon", "unit")
        .replace("  - cost: 5", "  - name: X\n    cost: 5")
    )
    with pytest.raises(PackError) as caught:
        parse_pack(fixed.replace("colour: blue\n", ""))
    assert caught.value.errors == [
        "line 9: tactics[2].name: card `Nervous` appears more than once; raise its `copies` instead"
    ]


def test_size_limit() -> None:
    big = TACTICS + "#" * MAX_PACK_BYTES
    with pytest.raises(PackError) as caught:
        parse_pack(big)
    assert "at most" in caught.value.errors[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tactics: [\n", "not valid YAML"),
        ("- just\n- a list\n", "YAML mapping"),
        ("name: nothing\n", "no `magic` or `tactics`"),
        ("tactics: []\n", "is empty"),
        ("tactics: hello\n", "Input should be a valid list"),
        ("tactics:\n  - &a {name: X, carrier: unit, effect: e}\n  - *a\n", "aliases"),
        (
            "tactics:\n  - {name: X, carrier: unit, effect: e}\n"
            "tactics:\n  - {name: Y, carrier: unit, effect: e}\n",
            "`tactics` appears more than once in this mapping",
        ),
        ("tactics:\n  - {name: X, effect: e}\n", "carrier"),
        ("tactics:\n  - {name: X, carrier: unit, effect: e, special: lucky_find}\n", "no carrier"),
        ("tactics:\n  - {name: X, carrier: unit, effect: e, copies: 0}\n", "copies"),
        (
            "tactics:\n  - {name: X, carrier: unit, effect: e, copies: 50}\n"
            "  - {name: Y, carrier: unit, effect: e, copies: 50}\n"
            "  - {name: Z, carrier: unit, effect: e, copies: 50}\n"
            "  - {name: W, carrier: unit, effect: e, copies: 50}\n"
            "  - {name: V, carrier: unit, effect: e, copies: 50}\n",
            "at most 200",
        ),
    ],
)
def test_bad_packs_are_refused(text: str, expected: str) -> None:
    with pytest.raises(PackError) as caught:
        parse_pack(text)
    assert any(expected in e for e in caught.value.errors), caught.value.errors


def test_a_pack_may_replace_the_magic_deck() -> None:
    pack = parse_pack("magic:\n  - {name: Club Sword, cost: 5, carrier: unit, effect: sharp, copies: 9}\n")
    assert pack.magic is not None and pack.magic[0].copies == 9
    assert pack.tactics is None
