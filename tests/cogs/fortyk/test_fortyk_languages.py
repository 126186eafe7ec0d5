"""The 40K mission in German, French and Spanish: the rules' question words and the cog's words.

Random games are played through the rules' own questions; at every step each question is shown in
every language. The rules word each question once, in English (`Words`): shown in English it is that
English, and in a translation every word of the built-in mission is in the reader's language and fits
where Discord shows it (an option with a form titles that form: 45 characters).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.chat.limits import BUTTON_LABEL, FIELD_VALUE
from bot.lang.i18n import say, speaking
from cogs.fortyk.board import board_embed, describe, now_text, result_text
from cogs.fortyk.questions import question_text
from rules.dice import Roller
from rules.errors import RuleError
from rules.fortyk import PROCEDURE, FortyKState
from rules.fortyk.events import GameOpened
from rules.session import Answer, Event, Question
from rules.words import Words
from tests.rules.fortyk.fortyk_helpers import ALICE, BOB, new_game

TRANSLATED = ("de", "fr", "es")
NAMES = ["Scouts", "Terminators", "Rhino", "Bikers"]
TITLE = 256
FORM_TITLE = 45  # a modal's title: the label of the option that opens it
FIELD_LABEL = 45
PLACEHOLDER = 100


def _answers(state: FortyKState, rng: random.Random) -> list[Answer]:
    """One answer per enabled option the game offers now, with a unit name or a report typed."""
    found = []
    for player in state.players:
        for asked in PROCEDURE.ask(state, player):
            if asked.kind == "done":
                found.append(Answer(actor=player, step=asked.step))
                continue
            for option in (o for o in asked.options if not o.disabled):
                fields = {
                    f.key: str(rng.randint(0, f.maximum or 0)) if f.kind == "number" else rng.choice(NAMES)
                    for f in option.form
                }
                fields.pop("marked_alive", None)
                found.append(Answer(actor=player, step=asked.step, values=[option.value], fields=fields))
    return found


def _game(seed: int) -> list[tuple[FortyKState, list[Event]]]:
    """A random whole game: every state it passed through, with the events that led to it."""
    rng = random.Random(seed)
    roller = Roller(random.Random(seed))
    state = new_game()
    seen: list[tuple[FortyKState, list[Event]]] = [
        (state, [GameOpened(mission="Marked for Death", players=state.players)])
    ]
    for _attempt in range(400):
        if state.finished:
            break
        answers = _answers(state, rng)
        ends = [a for a in answers if a.values == ["end-turn"]]
        answer = rng.choice(ends if ends and rng.random() < 0.4 else answers)
        try:
            state, events = PROCEDURE.answer(state, answer, roller)
        except RuleError:
            continue  # a typed name the rules refuse: nothing changed
        seen.append((state, events))
    return seen


def _shown_everywhere(state: FortyKState) -> list[Question]:
    return [asked for player in state.players for asked in PROCEDURE.ask(state, player)]


def _words(asked: Question) -> list[tuple[Words, int]]:
    """Every text a question shows, with the most characters Discord shows of it there."""
    found = [(asked.title, TITLE), (asked.text, 4000)]
    for option in asked.options:
        found += [(option.label, FORM_TITLE if option.form else BUTTON_LABEL), (option.description, 100)]
        for field in option.form:
            found += [(field.label, FIELD_LABEL), (field.placeholder or Words.verbatim(""), PLACEHOLDER)]
    return [(words, limit) for words, limit in found if words]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_question_of_a_game_in_every_language(seed: int) -> None:
    """English is the rules' own words; every translation words each of them (nothing of the built-in
    mission is left in English) within Discord's limits, and the question's message fits."""
    for state, _events in _game(seed):
        for asked in _shown_everywhere(state):
            for words, _limit in _words(asked):
                assert words.domain == "fortyk", words  # the catalogue's, never verbatim
                assert say(words) == str(words)
            for lang in TRANSLATED:
                with speaking(lang):
                    shown = [(say(words), str(words), limit) for words, limit in _words(asked)]
                    text = question_text(state, asked)
                for said, english, limit in shown:
                    assert said != english, (lang, english)
                    assert len(said) <= limit, (lang, said)
                assert len(text) <= 4000  # the table cuts a question's words there


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_line_and_board_of_a_game_speaks_the_readers_language(seed: int) -> None:
    """Each event's line, what the game waits for and the board read differently in each language
    (nothing left in English), and the board fits an embed."""
    game = _game(seed)
    for state, events in game:
        english_lines = [describe(e, state.players) for e in events]
        english_now = now_text(state)
        english_board = board_embed(state)
        for lang in TRANSLATED:
            with speaking(lang):
                lines = [describe(e, state.players) for e in events]
                now = now_text(state)
                board = board_embed(state)
            for line, english, event in zip(lines, english_lines, events, strict=True):
                if english and not isinstance(event, GameOpened):  # "Mission: @a vs @b." has no words
                    assert line != english, (lang, english)
            assert now != english_now
            assert board.title == english_board.title or state.finished  # mission and map: proper names
            assert board.description != english_board.description
            assert [f.name for f in board.fields] != [f.name for f in english_board.fields]
            for field, english_field in zip(board.fields, english_board.fields, strict=True):
                assert len(field.value) <= FIELD_VALUE
                if field.value.count("\n") > 0:
                    assert field.value != english_field.value
    final, _events = game[-1]
    if final.finished:
        with speaking("es"):
            assert "Primario — Marked for Death (15)" in result_text(final)


def test_a_servers_own_zones_and_tiers_are_shown_as_written() -> None:
    """A pack's own words are not the catalogue's: a zone or tier it names stays as the pack wrote it."""
    state = new_game()
    zones = state.mission.deployment.zones
    renamed = [  # Edge 0 faces Edge 1, Edge 2 faces Edge 3
        z.model_copy(update={"name": f"Edge {i}", "opposite": f"Edge {i ^ 1}"}) for i, z in enumerate(zones)
    ]
    deployment = state.mission.deployment.model_copy(update={"zones": renamed})
    custom = state.model_copy(update={"mission": state.mission.model_copy(update={"deployment": deployment})})
    rolled, _events = PROCEDURE.answer(
        custom, Answer(actor=ALICE, step="setup.deploy-roll"), Roller(random.Random(1))
    )
    [zone] = [q for p in (ALICE, BOB) for q in PROCEDURE.ask(rolled, p)]
    with speaking("de"):
        labels = [say(o.label) for o in zone.options]
        description = say(zone.options[0].description)
        title = say(zone.title)
    assert labels == ["Edge 0", "Edge 1", "Edge 2", "Edge 3"]
    assert description == "Der Gegner stellt in der Zone Edge 1 auf."
    assert title == "Wähle deine Aufstellungszone"
