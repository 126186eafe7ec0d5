"""Shared builders and hypothesis strategies for the game-night rules tests."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.night import NightSettings, NightState, PairingContext, PairingResult, Signup, Table, start
from rules.night.models import pair_key, rating_key
from rules.session import Event

ORGANISER = 7
NOW = 1_750_000_000  # a Sunday in June 2025
HOUR = 3600
DAY = 24 * HOUR
SYSTEMS = ["killteam", "warcry", "warmaster", "fortyk", "blood-bowl"]


def signup(player: int, *systems: str, **fields: Any) -> Signup:
    return Signup(player=player, systems=list(systems) or ["killteam"], **fields)


def table(table_id: str, *systems: str, name: str | None = None) -> Table:
    return Table(table_id=table_id, name=name or table_id.upper(), systems=list(systems))


def night_settings(**changes: Any) -> NightSettings:
    values: dict[str, Any] = {
        "title": "Thursday club night",
        "starts_at": NOW + 4 * DAY,
        "time_zone": "Europe/London",
        "systems": ["killteam", "warcry"],
        "capacity": 10,
        "cutoff": NOW + 3 * DAY,
    }
    values.update(changes)
    return NightSettings(**values)


def open_night(**changes: Any) -> NightState:
    state, _ = start("n1", ORGANISER, night_settings(**changes), NOW)
    return state


def refused(code: str, call: Any, *args: Any, **kwargs: Any) -> RuleError:
    """Call and expect the refusal `code`; the error is returned to check its values."""
    with pytest.raises(RuleError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.params
    return caught.value


def kinds(events: list[Event]) -> list[str]:
    return [str(getattr(e, "kind", type(e).__name__)) for e in events]


def placement(result: PairingResult) -> dict[int, str]:
    """Where each player ended up: "paired" or their sat-out reason code."""
    where = {p: "paired" for pairing in result.pairings for p in pairing.players}
    where.update({s.player: s.reason.code for s in result.sat_out})
    return where


# ---------------------------------------------------------------------------------- strategies


@st.composite
def signup_lists(draw: st.DrawFn, max_players: int = 30, min_players: int = 0) -> list[Signup]:
    """Sign-ups with unique players and sequence numbers; arranged games, some mutual, some one-sided,
    some naming a player who didn't sign up."""
    ids = st.integers(min_value=1, max_value=max(80, 2 * max_players))
    players = draw(st.lists(ids, min_size=min_players, max_size=max_players, unique=True))
    seqs = draw(st.permutations(range(1, len(players) + 1)))
    systems_lists = st.lists(st.sampled_from(SYSTEMS[:4]), min_size=1, max_size=4, unique=True)
    signups = []
    for player, seq in zip(players, seqs, strict=True):
        arranged = draw(st.none() | st.sampled_from([*players, 99]) if players else st.none())
        signups.append(
            Signup(
                player=player,
                systems=draw(systems_lists),
                can_teach=draw(st.booleans()),
                wants_to_learn=draw(st.booleans()),
                arranged_with=None if arranged == player else arranged,
                seq=seq,
            )
        )
    if len(signups) >= 2 and draw(st.booleans()):  # a mutual arrangement, so they occur often
        first, second = signups[0], signups[1]
        signups[0] = first.model_copy(update={"arranged_with": second.player})
        signups[1] = second.model_copy(update={"arranged_with": first.player})
    return signups


@st.composite
def table_lists(draw: st.DrawFn, max_tables: int = 12) -> list[Table]:
    count = draw(st.integers(min_value=0, max_value=max_tables))
    systems_lists = st.lists(st.sampled_from(SYSTEMS[:4]), min_size=1, max_size=3, unique=True)
    return [Table(table_id=f"t{i}", name=f"Table {i}", systems=draw(systems_lists)) for i in range(count)]


@st.composite
def contexts(draw: st.DrawFn, players: list[int]) -> PairingContext:
    games: dict[str, int] = {}
    days: dict[str, int] = {}
    if len(players) >= 2:
        pairs = draw(st.lists(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True)))
        for first, second in pairs:
            games[pair_key(first, second)] = draw(st.integers(min_value=1, max_value=30))
            days[pair_key(first, second)] = draw(st.integers(min_value=0, max_value=400))
    ratings = {
        rating_key(player, system): draw(st.floats(min_value=500, max_value=1500))
        for player in players
        for system in SYSTEMS[:4]
        if draw(st.booleans())
    }
    byes = {player: draw(st.integers(min_value=0, max_value=3)) for player in players}
    return PairingContext(games_between=games, days_since=days, ratings=ratings, byes=byes)


@st.composite
def pairing_inputs(
    draw: st.DrawFn, max_players: int = 30, min_players: int = 0
) -> tuple[list[Signup], list[Table], PairingContext, int]:
    signups = draw(signup_lists(max_players, min_players))
    tables = draw(table_lists())
    context = draw(contexts([s.player for s in signups]))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    return signups, tables, context, seed
