"""The one pack reader (rules/packs.py): hostile files are refused in the same words by every game,
nothing in them can crash the reader, and a real pack still reads as before."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from rules import fortyk, killteam, warcry, warmaster
from rules.packs import (
    MAX_NUMBER_DIGITS,
    MAX_PACK_BYTES,
    MAX_PACK_DEPTH,
    MAX_PROBLEM_CHARS,
    UNREADABLE,
    PackError,
    nesting_depth,
    read_pack,
    too_deep_line,
)

PARSERS: dict[str, Callable[[str], BaseModel]] = {
    "killteam": killteam.parse_pack,
    "warcry": warcry.parse_pack,
    "warmaster": warmaster.parse_pack,
    "fortyk": fortyk.parse_pack,
}
SHIPPED = {
    "killteam": ("rules.killteam", "data/default.yaml"),
    "warcry": ("rules.warcry", "data/core.yaml"),
    "warmaster": ("rules.warmaster", "data/magic_items.yaml"),
    "fortyk": ("rules.fortyk", "data/missions.yaml"),
}
GOOD = {
    "killteam": "name: Club\nmissions:\n  - name: Loot\nmaps:\n  - id: A1\n",
    "warcry": "name: Club\ndecks:\n  twist:\n    - {name: Club Fog}\n",
    "warmaster": "name: Club\ntactics:\n  - {name: Ambush, cost: 0, carrier: table, effect: Lurks.}\n",
    "fortyk": """missions:
  - key: short-war
    name: Short War
    deployment:
      map: Dawn of War
      zones:
        - {name: North, opposite: South}
        - {name: South, opposite: North}
    battle_length: {max_rounds: 3}
    conditions:
      - {key: kp, tier: Primary, name: Kill points, kind: most_kill_points, points: 10}
""",
}
LAUGHS = "lol: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"lol{n}: &{c} [{', '.join(['*' + p] * 9)}]\n"
    for n, (p, c) in enumerate(zip("abcdefgh", "bcdefghi", strict=True))
)
DEEP = f"this is nested more than {MAX_PACK_DEPTH} levels deep; no pack needs that"
ALIASES = "anchors and aliases (& and *) are not allowed in a pack; write each entry out"

games = pytest.mark.parametrize("game", list(PARSERS))


def problems(game: str, text: str) -> list[str]:
    with pytest.raises(PackError) as caught:
        PARSERS[game](text)
    assert caught.value.errors, "a PackError must list its problems"
    return caught.value.errors


def shipped(game: str) -> str:
    package, path = SHIPPED[game]
    return resources.files(package).joinpath(path).read_text(encoding="utf-8")


# ---------------------------------------------------------------------- hostile input, every game


@games
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 5000 + "]" * 5000, [f"line 1: {DEEP}"]),
        ("{a: " * 2500 + "1" + "}" * 2500, [f"line 1: {DEEP}"]),
        ("".join("  " * level + "a:\n" for level in range(200)), [f"line {MAX_PACK_DEPTH + 1}: {DEEP}"]),
        ("- " * 3000 + "x\n", [f"line 1: {DEEP}"]),
        (
            "name: !!python/object/apply:os.system [ls]\n",
            [
                "line 1: YAML tags like `!!python/object/apply:os.system` are not allowed in a pack; "
                "write values plainly"
            ],
        ),
        (
            "a: !!timestamp nope\nb: !!int x\n",
            [
                "line 1: YAML tags like `!!timestamp` are not allowed in a pack; write values plainly",
                "line 2: YAML tags like `!!int` are not allowed in a pack; write values plainly",
            ],
        ),
        ("a: 1\n---\na: 2\n", ["line 2: a pack is one YAML document; remove the second `---`"]),
        ("? [a, b]\n: 1\n", ["line 1: a key must be plain text, not a list or a mapping"]),
        (
            "a: 1\nb: {c: 1, c: 2}\n",
            ["line 2: `c` appears more than once in this mapping; give each key once"],
        ),
        ("name: \ud800\n", ["the file is not UTF-8 text; save it as plain YAML text"]),
        ("name: a\x00b\n", ["line 1: this is not valid YAML (control characters are not allowed #x0000)"]),
    ],
    ids=[
        "lists",
        "maps",
        "block-maps",
        "block-lists",
        "python-tag",
        "tags",
        "documents",
        "list-key",
        "duplicate-key",
        "surrogate",
        "nul",
    ],
)
def test_hostile_files_get_the_same_listed_problems_in_every_game(
    game: str, text: str, expected: list[str]
) -> None:
    assert problems(game, text) == expected


@games
def test_an_alias_bomb_is_refused_before_anything_expands_it(game: str) -> None:
    found = problems(game, LAUGHS)
    assert found[0] == f"line 1: {ALIASES}"
    assert set(found) == {f"line {n}: {ALIASES}" for n in range(1, 10)}


@games
def test_an_anchor_or_alias_is_refused_even_in_a_good_pack(game: str) -> None:
    text = GOOD[game].replace("name: ", "name: &n ", 1)
    assert f"{ALIASES}" in problems(game, text)[0]


@games
def test_a_huge_number_is_a_listed_problem_not_a_crash(game: str) -> None:
    lines = GOOD[game].count("\n")
    found = problems(game, GOOD[game] + "size: " + "9" * 5000 + "\nother: 0x" + "f" * 40 + "\n")
    too_long = f"is too long for a pack (at most {MAX_NUMBER_DIGITS} digits)"
    assert found == [
        f"line {lines + 1}: the number `{'9' * 39}…` {too_long}",
        f"line {lines + 2}: the number `0x{'f' * 37}…` {too_long}",
    ]


@games
def test_an_impossible_date_is_just_text(game: str) -> None:
    lines = GOOD[game].count("\n")
    found = problems(game, GOOD[game] + "played_on: 2001-13-45\n")
    assert found == [f"line {lines + 1}: played_on: unknown field (check the spelling)"]


@games
def test_the_size_limit_and_the_empty_file_read_the_same_in_every_game(game: str) -> None:
    too_big = GOOD[game] + "#" * MAX_PACK_BYTES
    size = len(too_big.encode())
    assert problems(game, too_big) == [
        f"the file is {size:,} bytes; a pack may be at most {MAX_PACK_BYTES:,} bytes (64 KiB)"
    ]
    assert problems(game, "# nothing here\n")[0].startswith(
        "line 1: the pack is empty; it must be a YAML mapping"
    )
    assert problems(game, "- a list\n")[0].startswith("line 1: the pack must be a YAML mapping with the key")
    assert problems(game, "a: [\n")[0].startswith("line 2: this is not valid YAML")


# ---------------------------------------------------------------------- what still reads


def test_dates_keep_their_text() -> None:
    text = (
        "name: 2001-13-45\nmissions:\n  - name: 2001-12-14\n  - name: 2001-02-29 10:00\nmaps:\n  - id: A1\n"
    )
    pack = killteam.parse_pack(text)
    assert pack.name == "2001-13-45"
    assert [m.name for m in pack.missions] == ["2001-12-14", "2001-02-29 10:00"]


def test_numbers_of_a_real_size_still_read_as_numbers() -> None:
    pack = warmaster.parse_pack(
        "tactics:\n  - {name: A, cost: -15, carrier: unit, effect: e, copies: 0x3}\n"
        "  - {name: B, cost: 1_000, carrier: unit, effect: e}\n"
    )
    assert pack.tactics is not None
    assert [(c.cost, c.copies) for c in pack.tactics] == [(-15, 3), (1000, 1)]
    found = problems("warmaster", "tactics:\n  - {name: A, cost: 1e400, carrier: unit, effect: e}\n")
    assert found[0].startswith("line 2: tactics[0].cost:")


@pytest.mark.parametrize("game", list(SHIPPED))
def test_the_depth_limit_leaves_every_shipped_pack_a_margin(game: str) -> None:
    assert 2 * nesting_depth(shipped(game)) <= MAX_PACK_DEPTH


@pytest.mark.parametrize("game", list(SHIPPED))
def test_the_plain_depth_scan_passes_every_shipped_pack(game: str) -> None:
    assert too_deep_line(shipped(game)) is None


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000 + "]" * 5000,
        "{a: " * 2500 + "1" + "}" * 2500,
        "- " * 3000 + "x",
        "".join(" " * i + "a:\n" for i in range(300)),
    ],
)
def test_deep_nesting_is_refused_before_any_parser_reads_it(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever limit a YAML release has of its own, Muster refuses first and in its own words."""

    def no_parser(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the parser was reached")

    monkeypatch.setattr("rules.packs.yaml.parse", no_parser)
    assert too_deep_line(text) is not None
    assert problems("warmaster", text)[0].endswith(DEEP)


def test_the_plain_depth_scan_ignores_brackets_in_quotes_and_comments() -> None:
    text = "name: '[[[[[[[[[[[[[[[[['\nnote: \"{{{{{{{{{{{{{{{{{\" # [[[[[[[[[[[[[[[[[[[\n"
    assert too_deep_line(text) is None


def test_nesting_up_to_the_limit_is_read_and_judged_by_the_model() -> None:
    at_limit = "a: " + "[" * (MAX_PACK_DEPTH - 1) + "]" * (MAX_PACK_DEPTH - 1) + "\n"
    assert problems("warmaster", at_limit) == ["line 1: a: unknown field (check the spelling)"]
    beyond = "a: " + "[" * MAX_PACK_DEPTH + "]" * MAX_PACK_DEPTH + "\n"
    assert problems("warmaster", beyond) == [f"line 1: {DEEP}"]


def test_problems_are_listed_in_file_order_and_long_echoes_are_cut() -> None:
    text = "x" * 500 + ": 1\ntactics:\n  - {name: A, carrier: dragon, effect: e}\nname: ''\n"
    found = problems("warmaster", text)
    assert [e.split(":")[0] for e in found] == ["line 1", "line 3", "line 4"]
    assert found[0] == "line 1: " + "x" * 39 + "…: unknown field (check the spelling)"
    assert found[1].startswith("line 3: tactics[0].carrier: Input should be")
    assert found[2].startswith("line 4: name: String should have at least 1 character")
    assert all(len(e) <= MAX_PROBLEM_CHARS for e in found)


def test_a_failure_inside_a_check_becomes_a_polite_pack_error() -> None:
    class Tiny(BaseModel):
        name: str

    def broken_check(pack: Tiny) -> list[Any]:
        return [][int(pack.name)]  # an IndexError, as a bug in a game's own check would raise

    with pytest.raises(PackError) as caught:
        read_pack("name: '3'\n", Tiny, check=broken_check)
    assert caught.value.errors == [UNREADABLE]
    assert isinstance(caught.value.__cause__, IndexError)


# ---------------------------------------------------------------------- property: never a crash

ODD_SCALARS = st.sampled_from(
    [
        "9" * 5000,
        "-" + "1" * 30,
        "0x" + "f" * 60,
        "0b" + "1" * 80,
        "1:2:3:4:5:6:7:8:9",
        "1_" * 40 + "1",
        "2001-13-45",
        "2001-02-29 25:61:61",
        "1e400",
        ".nan",
        "-.inf",
        "~",
        "yes",
        "off",
        "<<",
        "=",
        "'2001-13-45'",
        '"\\x00"',
        "!!int x",
        "!!float x",
        "!!timestamp x",
        "!!binary @@@",
        "!!python/name:os.system",
        "!!set {a}",
        "!!omap [a]",
        "!custom x",
        "&a x",
        "*a",
        "name",
        "missions",
        "maps",
        "decks",
        "tactics",
        "magic",
        "scouting",
        "mode",
        "",
    ]
)
SCALARS = ODD_SCALARS | st.text(max_size=12)


def _flow(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    lists = st.lists(children, max_size=4).map(lambda items: "[" + ", ".join(items) + "]")
    maps = st.lists(st.tuples(SCALARS, children), max_size=4).map(
        lambda pairs: "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    )
    return lists | maps


VALUES = st.recursive(SCALARS, _flow, max_leaves=40)


@st.composite
def pack_like(draw: st.DrawFn) -> str:
    """Text a hostile or careless organiser might upload: real packs bent, odd YAML, deep nesting."""
    kind = draw(st.sampled_from(["text", "mapping", "bent", "deep"]))
    if kind == "text":
        return draw(st.text(max_size=300))
    if kind == "deep":
        n = draw(st.integers(1, 4000))
        return draw(
            st.sampled_from(
                [
                    "[" * n + "]" * n,
                    "{a: " * n + "1" + "}" * n,
                    "- " * n + "x",
                    "".join(" " * i + "a:\n" for i in range(min(n, 300))),
                ]
            )
        )
    if kind == "mapping":
        pairs = draw(st.lists(st.tuples(SCALARS, VALUES), min_size=1, max_size=6))
        return "".join(f"{k}: {v}\n" for k, v in pairs)
    base = draw(st.sampled_from([*GOOD.values(), *(shipped(g) for g in SHIPPED)]))
    lines = base.splitlines(keepends=True)
    at = draw(st.integers(0, len(lines)))
    indent = " " * draw(st.integers(0, 8))
    fragment = draw(st.one_of(VALUES, st.tuples(SCALARS, VALUES).map(lambda kv: f"{kv[0]}: {kv[1]}")))
    return "".join(lines[:at]) + indent + fragment + "\n" + "".join(lines[at:])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=pack_like(), game=st.sampled_from(list(PARSERS)))
def test_any_text_gives_a_pack_or_a_listed_problem(text: str, game: str) -> None:
    try:
        pack = PARSERS[game](text)
    except PackError as error:
        assert error.errors and all(isinstance(e, str) and e for e in error.errors)
        assert all(len(e) <= MAX_PROBLEM_CHARS for e in error.errors)
        assert UNREADABLE not in error.errors, error.__cause__
    else:
        assert isinstance(pack, BaseModel)
