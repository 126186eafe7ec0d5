"""What the Warcry cog shows of a battle is said in German, French and Spanish, filled in.

The rules word the questions, the prompt, the scoreboard, every notice, verdicts and results once
(`Words`); the bot shows them through the catalogue, English being the msgid filled in. Random
battles, driven by answers to what `ask` offers, show at every step that every line the table reads
has its values filled in, in every language, and that each translated line differs from its English.
The battleplan card's sentences come from the pack (cogs/warcry/board.py) and are checked the same.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.lang.i18n import LANGUAGES, say, speaking
from bot.lang.text import refusal
from cogs.warcry import board
from cogs.warcry import questions as asked
from cogs.warcry.commands import roster_refusal, warband_answer
from rules.errors import RuleError
from rules.session import Event, Question
from rules.warcry.battlegroups import Split, split_problems
from rules.warcry.battleplans import BattleplanInPlay, draw, options_for, roll_battleplan
from rules.warcry.battleplans import given as given_plan
from rules.warcry.events import Notice
from rules.warcry.models import WarcryState
from rules.warcry.pack import core_pack
from rules.warcry.procedure import PROCEDURE
from rules.warcry.questions import questions
from rules.warcry.setup import start
from rules.warcry.views import prompt, scoreboard
from rules.warcry.warband import RosterError, check_roster
from rules.warcry.wording import OBJECTIVE_WORDS
from rules.warcry.wording import objective as named
from rules.words import Words, placeholders
from tests.rules.warcry.warcry_helpers import ALICE, BOB, PLAYERS, club_pack, legal_answer, roller

BATTLEPLANS = [b.name for b in core_pack().battleplans]
TRANSLATED = ("de", "fr", "es")
RIGHTLY_SAME = {("de", "Initiative: Alice"), ("de", "Initiative: Bob")}  # `# same` in de/warcry.po


def says_something(label: str) -> bool:
    """Whether a label has words of its own besides the players' names (`A: Alice` has none)."""
    return bool(re.search(r"[^\W\d_]{3,}", label.replace("Alice", "").replace("Bob", "")))


def name_of(player: int) -> str:
    return f"<@{player}>"


def shown_words(question: Question) -> list[Words]:
    """Every word a player reads of a question, as the rules word it."""
    found = [question.title]
    button = question.params.get("button")
    found += [button] if isinstance(button, Words) else []
    for option in question.options:
        found += [option.label, option.description, *([option.group] if option.group else [])]
        found += [f.label for f in option.form]
    return [w for w in found if w]


def filled(words: Words) -> bool:
    """Whether every placeholder of these words (and of the words inside them) has its value."""
    inside = [v for v in words.values.values() if isinstance(v, Words)]
    return placeholders(words.form()) <= set(words.values) and all(filled(w) for w in inside)


def shown(state: WarcryState, events: list[Event]) -> list[tuple[Words, str]]:
    """Every line the table reads of a battle now, as the rules word it and as shown in the language
    in force: the event lines, the scoreboard, the prompt."""
    notices = [e for e in events if isinstance(e, Notice)]
    assert len(notices) == len(events)
    lines = [(e.named(name_of), board.notice(e, name_of)) for e in notices]
    lines += [(w, say(w)) for w in scoreboard(state, name_of)]
    now = prompt(state, name_of)
    return [*lines, (now, asked.prompt(state, name_of))]


def check_state(state: WarcryState, events: list[Event]) -> None:
    """Every line is filled in and said, in every language; a translated line with words of its own differs
    from its English; questions fit Discord and are translated."""
    for lang in LANGUAGES:
        with speaking(lang):
            for words, said in shown(state, events):
                assert filled(words) and said.strip(), (lang, str(words), said)
                english = str(words)
                if lang != "en" and words.domain is not None and says_something(english):
                    assert said != english, (lang, english)
    for lang in TRANSLATED:
        with speaking(lang):
            for question in questions(state):
                assert say(question.title) != str(question.title), (lang, str(question.title))
                for option in question.options:
                    label, description = say(option.label), say(option.description)
                    assert len(label) <= 80 and len(description) <= 100
                    english = str(option.label)
                    if says_something(english) and (lang, english) not in RIGHTLY_SAME:
                        assert label != english, (lang, english)
                for words in shown_words(question):
                    if says_something(str(words)) and (lang, str(words)) not in RIGHTLY_SAME:
                        assert say(words) != str(words), (lang, str(words))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=st.sampled_from(BATTLEPLANS), seed=st.integers(0, 10_000), data=st.data())
def test_random_battles_read_filled_in_and_translated(plan: str, seed: int, data: st.DataObject) -> None:
    dice = roller(seed)
    state, events = start("w", PLAYERS, dice, battleplan=plan, names={ALICE: "Alice", BOB: "Bob"})
    check_state(state, events)
    for _ in range(60):
        if state.finished:
            break
        offers = [(p, q) for p in state.players for q in PROCEDURE.ask(state, p)]
        player, question = data.draw(st.sampled_from(offers))
        state, events = PROCEDURE.answer(state, legal_answer(data, question, player), dice)
        check_state(state, events)


def english_card(plan: BattleplanInPlay) -> dict[str, str]:
    with speaking("en"):
        card = board.battleplan_embed(plan)
    return {f.name: f.value for f in card.fields} | {"footer": card.footer or ""}


def plans() -> list[BattleplanInPlay]:
    """Every shipped battleplan, dealt with and without terrain cards, and the generators."""
    found = []
    for pack in (core_pack(), club_pack()):
        for battleplan in core_pack().battleplans:
            for kind in ("matched", "champions"):
                found.append(given_plan(battleplan, options_for(kind, pack), roller(1)))  # type: ignore[arg-type]
        for kind in ("generator", "generator-matched"):
            found.append(draw(options_for(kind, pack), roller(2)))  # type: ignore[arg-type]
    found.append(roll_battleplan("matched", core_pack(), roller(3)))
    return found


@pytest.mark.parametrize("plan", plans(), ids=lambda p: f"{p.kind}:{p.name}:{len(p.cards)}")
def test_the_battleplan_card_says_the_rules_english_and_is_translated(plan: BattleplanInPlay) -> None:
    card = english_card(plan)
    assert card["Victory condition"] == (plan.victory or "—")
    assert card["Terrain"] == (plan.terrain or "—") and card["Twist"] == plan.twist
    assert card["Deployment"].split("\n")[0] == (plan.deployment or "—")
    assert card["footer"] == " ".join(plan.notes)
    if plan.dice:
        assert card["Dice"] == "\n".join(f"{board.DICE} {d.describe()}" for d in plan.dice)
    with speaking("en"):
        english = board.battleplan_embed(plan)
    for lang in TRANSLATED:
        with speaking(lang):
            shown = board.battleplan_embed(plan)
        assert shown.title != english.title
        for said, field in zip(english.fields, shown.fields, strict=True):
            if said.name in ("Dice", "Victory condition", "Deployment", "Terrain", "Twist"):
                assert field.name != said.name, (lang, said.name)
            first = said.value.split("\n")[0]
            if first in board.CORE or "Terrain card: " in first:
                assert field.value.split("\n")[0] != first, (lang, said)
        assert (shown.footer or "") != (english.footer or "") or not plan.notes


def test_every_sentence_the_shipped_pack_shows_is_in_the_catalogue() -> None:
    pack = core_pack()
    shown = [t for b in pack.battleplans for t in (b.victory, b.terrain, b.deployment_note) if t]
    shown += [a.summary for b in pack.battleplans for a in b.abilities]
    assert [t for t in shown if t not in board.CORE] == []
    labels = {label for b in pack.battleplans for label in b.objective_labels if len(label) > 1}
    assert labels <= set(OBJECTIVE_WORDS)


def test_warband_answers_say_the_rules_english_and_each_language() -> None:
    bad = "A, 600, Cult, leader\nB, 500, Other, leader\n"
    report = check_roster(bad)
    with speaking("en"):
        said = warband_answer(bad)
    assert said.startswith("❌ This warband breaks 4 muster rules:")
    assert all(v in said for v in report.violations)
    assert "(2 fighters, 1100 points, runemarks Cult, Other, leaders: A, B.)" in said
    with speaking("de"):
        german = warband_answer(bad)
    assert not any(v in german for v in report.violations) and "1100" in german

    unreadable = "A, 100, Cult, leader\nB hundred Cult\nC, lots, Cult\n"
    with pytest.raises(RosterError) as caught:
        check_roster(unreadable)
    with speaking("en"):
        assert roster_refusal(caught.value) == refusal(caught.value)
    with speaking("fr"):
        french = roster_refusal(caught.value)
    assert "line 2" not in french and "`B hundred Cult`" in french and "`lots`" in french


def test_a_refusals_words_are_said_in_the_language_too() -> None:
    [large] = split_problems(15, Split(dagger=8, shield=5, hammer=2))
    with speaking("en"):
        assert "The Dagger has 8" in refusal(large.error())
    with speaking("de"):
        assert "Dagger" not in refusal(large.error()) and "Dolch" in refusal(large.error())
    with speaking("es"):
        objective = refusal(RuleError(code="warcry.dormant", objective=named("Centre")))
    assert "Centre" not in objective and "Centro" in objective
    with speaking("es"):
        table = refusal(
            RuleError(code="warcry.table_incomplete", kind=Words("champions", "warcry", context="table"))
        )
    assert table == "La tabla de planes de batalla de Test of Champions está incompleta."
