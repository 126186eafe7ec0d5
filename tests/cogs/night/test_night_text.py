"""Every game-night refusal and reason code has its English, and reasons read as short phrases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.lang.i18n import speaking
from bot.lang.text import add_words, refusal
from cogs.night.text import ENGLISH, REASONS, REFUSALS, reason_text, reasons_text, word
from rules.errors import RuleError
from rules.night import NightSettings, PairingContext, Reason, Signup, pair_players, start
from rules.night.review import BY_ORGANISER

ROOT = Path(__file__).resolve().parents[3]
SOURCES = sorted((ROOT / "rules" / "night").glob("*.py"))
NOW = 1_750_000_000


def night_settings(**changes: object) -> NightSettings:
    values: dict[str, object] = {
        "title": "Club night",
        "starts_at": NOW + 86_400,
        "time_zone": "Europe/London",
        "systems": ["warcry"],
        "capacity": 10,
        "cutoff": NOW + 3600,
        **changes,
    }
    return NightSettings.model_validate(values)


def codes_in_sources(pattern: str) -> set[str]:
    return {code for source in SOURCES for code in re.findall(pattern, source.read_text(encoding="utf-8"))}


def test_every_refusal_raised_is_worded_and_every_word_is_used() -> None:
    raised = codes_in_sources(r'RuleError\(\s*code="(night\.[a-z_]+)"')
    assert len(raised) > 40
    assert raised == set(REFUSALS)


def test_every_reason_given_is_worded_and_every_word_is_used() -> None:
    given = codes_in_sources(r'Reason\(\s*code="(night\.[a-z_]+)"') | {BY_ORGANISER}
    assert given == set(REASONS)
    assert not set(REASONS) & set(REFUSALS)
    assert ENGLISH == {**REFUSALS, **REASONS}


def test_refusals_read_as_sentences_once_added() -> None:
    add_words(ENGLISH)
    with pytest.raises(RuleError) as caught:
        start("n1", 1, night_settings(capacity=0), NOW)
    assert refusal(caught.value) == "A night takes from 2 to 200 players."
    with pytest.raises(RuleError) as caught:
        start("n1", 1, night_settings(time_zone="Mars/Base"), NOW)
    assert refusal(caught.value) == "`Mars/Base` isn't a time zone I know. Use a name like `Europe/London`."
    assert refusal(RuleError(code="night.table_taken", table_id="kz", name="Killzone", number=2)) == (
        "**Killzone** is taken by pairing 2; move that one first."
    )


def titles(system: str) -> str:
    return {"killteam": "Kill Team", "warcry": "Warcry"}.get(system, system)


@pytest.mark.parametrize(
    ("reason", "text"),
    [
        (Reason(code="night.first_game"), "first game between you"),
        (Reason(code="night.ratings", values={"first": 1012, "second": 998}), "ratings 1012 vs 998"),
        (
            Reason(code="night.played_before", values={"times": 1, "days_ago": 40}),
            "played each other once, last 40 days ago",
        ),
        (Reason(code="night.played_before", values={"times": 3}), "played each other 3 times"),
        (Reason(code="night.teach", values={"teacher": 5, "learner": 6}), "<@5> teaches <@6>"),
        (
            Reason(code="night.other_system", values={"player": 5, "system": "warcry"}),
            "<@5> plays Warcry, another system they listed",
        ),
        (Reason(code="night.table", values={"table_id": "kz", "name": "Killzone 1"}), "on Killzone 1"),
        (Reason(code="night.no_table", values={"system": "killteam"}), "no free table suits Kill Team"),
        (
            Reason(code="night.bye_rotation", values={"system": "warcry", "byes": 1}),
            "odd numbers in Warcry; sitting out goes round (sat out 1 night before)",
        ),
        (
            Reason(code="night.no_opponent", values={"system": "killteam"}),
            "no one else is playing Kill Team tonight",
        ),
        (
            Reason(code="night.opponent_dropped", values={"player": 9}),
            "<@9> dropped out and no one was free to stand in",
        ),
        (Reason(code="night.unheard_of"), "night.unheard_of"),
        (
            Reason(code="night.ratings", values={"first": 1}),
            "night.ratings",
        ),  # a value missing: the bare code
    ],
)
def test_reasons_read_as_short_phrases(reason: Reason, text: str) -> None:
    assert reason_text(reason, titles) == text


def test_a_typed_system_is_shown_in_capitalised_words_and_reasons_join_into_a_line() -> None:
    assert reason_text(Reason(code="night.no_opponent", values={"system": "blood-bowl"})) == (
        "no one else is playing Blood Bowl tonight"
    )
    result = pair_players(
        [Signup(player=1, systems=["warcry"], seq=1), Signup(player=2, systems=["warcry"], seq=2)],
        [],
        PairingContext(ratings={"1:warcry": 1012.4, "2:warcry": 998.0}),
        0,
    )
    assert reasons_text(result.pairings[0].reasons, titles) == (
        "first game between you; ratings 1012 vs 998; no free table suits Warcry"
    )


def test_reasons_and_refusals_speak_the_language_in_force() -> None:
    add_words(ENGLISH)
    with speaking("fr"):
        played = Reason(code="night.played_before", values={"times": 3, "days_ago": 40})
        assert reason_text(played, titles) == "déjà joué ensemble 3 fois, la dernière il y a 40 jours"
        assert reason_text(Reason(code="night.played_before", values={"times": 1}), titles) == (
            "déjà joué ensemble une fois"
        )
    with speaking("de"):
        rotation = Reason(code="night.bye_rotation", values={"system": "warcry", "byes": 2})
        assert reason_text(rotation, titles) == (
            "ungerade Zahl bei Warcry; Aussetzen geht reihum (vorher ausgesetzt: 2 Abende)"
        )
        assert refusal(RuleError(code="night.capacity", minimum=2, maximum=200)) == (
            "Ein Spieleabend hat 2 bis 200 Plätze."
        )
        assert word("card.signed_up", count=3, capacity=8) == "Angemeldet (3/8)"
    with speaking("es"):
        assert word("status.finished") == "terminada" and word("line.points", points=500) == "500 ptos"
    assert word("card.signed_up", count=3, capacity=8) == "Signed up (3/8)"  # English again after


def test_counts_of_players_and_games_agree_with_their_number() -> None:
    """/night history and the published reply say "1 player, 1 game", not "1 players, 1 games"."""
    from bot.lang.i18n import speaking
    from cogs.night.text import games_count, players_count

    assert (players_count(1), games_count(1)) == ("1 player", "1 game")
    assert (players_count(12), games_count(0)) == ("12 players", "0 games")
    with speaking("de"):
        assert (players_count(1), games_count(3)) == ("1 Spieler", "3 Spiele")
