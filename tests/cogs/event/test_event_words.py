"""What the event cog reads and writes without Discord: the tiebreakers an organiser types, and the
standings lines (rank, player, faction once revealed, W-D-L, points, each tiebreaker in order)."""

from __future__ import annotations

import pytest

from cogs.event.commands import tiebreakers_typed
from cogs.event.render import standings_lines
from rules.errors import RuleError
from rules.event.models import Entrant, Game, Scoring, Tiebreaker
from rules.event.standings import standings
from rules.event.state import ArmyList, EventSettings, EventState


def test_tiebreakers_are_read_in_order_and_each_once() -> None:
    assert tiebreakers_typed("SOS, vp-difference , total vp") == (
        Tiebreaker.SOS,
        Tiebreaker.VP_DIFFERENCE,
        Tiebreaker.TOTAL_VP,
    )
    for typed in ("", "sos, sos", "sos, luck"):
        with pytest.raises(RuleError) as caught:
            tiebreakers_typed(typed)
        assert caught.value.code == "event.tiebreakers"


def test_standings_lines_show_the_configured_tiebreakers_and_revealed_factions() -> None:
    scoring = Scoring(tiebreakers=(Tiebreaker.TOTAL_VP, Tiebreaker.SOS))
    settings = EventSettings(name="GT", system="necromunda", starts_at=0, scoring=scoring)
    entry = ArmyList(player=1, faction="Goliath", text="x", nonce="n", commitment="c", submitted_at=0)
    state = EventState(
        event_id="e",
        organiser=9,
        settings=settings,
        entrants=[Entrant(player=1), Entrant(player=2, dropped=True), Entrant(player=3)],
        lists={1: entry.model_copy(update={"status": "revealed"}), 3: entry.model_copy(update={"player": 3})},
        games=[
            Game(round=1, table=1, first=1, second=2, first_vp=12, second_vp=7),
            Game(round=1, table=0, first=3),
        ],
    )
    table = standings(state.entrants, state.games, scoring)
    assert standings_lines(state, table) == [
        "1. <@1> · Goliath · 1-0-0 · **3** · 12 · 0",
        "2. <@3> · 1-0-0 · **3** · 0 · 0",  # behind on total VP; a sealed list's faction stays hidden
        "3. <@2> · 0-0-1 · **0** · 7 · 3 ✖",
    ]
