"""Warmaster's words in each language, without Discord: the rules' fixed English is all marked,
every question of random games reads as the rules word it in English and is translated in German,
French and Spanish, a unit type typed in the player's language reads as the rules' word,
and refusals word their values in the reader's language."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.lang.i18n import say, speaking
from bot.lang.i18n_tools import LIMITS
from bot.lang.text import ENGLISH as WORDED
from bot.lang.text import refusal
from cogs.warmaster.questions import typed
from cogs.warmaster.refusals import ENGLISH
from cogs.warmaster.vocabulary import EFFECTS, read_type
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Answer, Question
from rules.warmaster import PROCEDURE, WarmasterState, start
from rules.warmaster.cards import CardDef, builtin_magic_deck
from rules.warmaster.labels import FIXED_NAMES, KIND_WHOSE, SLOT_NAMES, type_list
from rules.warmaster.new_targets import new_target_words
from rules.warmaster.questions import LAY, NEW
from rules.warmaster.targets import NOT_LAID, RESTRICTION_TEXT, Restriction, carrier_words

ALICE, BOB = 1001, 2002
TRANSLATED = ("de", "fr", "es")
TACTICS = [
    CardDef(name=f"Ploy {carrier}", cost=5, carrier=carrier, effect="A test ploy.", copies=3)
    for carrier in (
        Restriction.UNIT,
        Restriction.ANY,
        Restriction.GENERAL,
        Restriction.SHOOTER,
        Restriction.TERRAIN,
    )
]
NAMES = ["Knights", "Orcs", "Old Wood", "Grom"]
TYPED = ["infantry", "cavalry", "general", "wizard", "hero", "dragon"]


def test_every_fixed_english_phrase_of_the_rules_is_marked_for_the_catalogue() -> None:
    assert all(w.domain == "warmaster" for w in [*RESTRICTION_TEXT.values(), NOT_LAID])
    assert {card.effect for card in builtin_magic_deck()} <= set(EFFECTS)


def played(seed: int, steps: int = 60) -> list[WarmasterState]:
    """The states of a game played by random answers to what the rules ask (forms filled in)."""
    rnd = random.Random(seed)
    state, _events = start(
        "g", [ALICE, BOB], [rnd.choice([1000, 2000, 4000]), 2000], Roller(rnd), first=ALICE, tactics=TACTICS
    )
    states = [state]
    for _turn in range(steps):
        if state.finished:
            break
        player = rnd.choice(state.players)
        asked = [q for q in PROCEDURE.ask(state, player) if any(not o.disabled for o in q.options)]
        if not asked:
            continue
        question = rnd.choice(asked)
        option = rnd.choice([o for o in question.options if not o.disabled])
        fields = {f.key: rnd.choice(NAMES) if f.key == "name" else rnd.choice(TYPED) for f in option.form}
        fields = {k: str(rnd.choice([45, 110])) if k == "points" else v for k, v in fields.items()}
        values = [] if question.kind == "done" else [option.value]
        try:
            state, _events = PROCEDURE.answer(
                state, Answer(actor=player, step=question.step, values=values, fields=fields), Roller(rnd)
            )
        except RuleError:
            continue
        states.append(state)
    return states


def words_of(asked: Question) -> list[str]:
    """Every word of a question a player reads, in the language in force."""
    said = [say(asked.title), say(asked.text)]
    for option in asked.options:
        said += [say(option.label), say(option.description)]
        said += [say(f.label) for f in option.form] + [
            say(f.placeholder) for f in option.form if f.placeholder
        ]
    return said


def english_of(asked: Question) -> list[str]:
    said = [str(asked.title), str(asked.text)]
    for option in asked.options:
        said += [str(option.label), str(option.description)]
        said += [str(f.label) for f in option.form] + [
            str(f.placeholder) for f in option.form if f.placeholder
        ]
    return said


def assert_fits(asked: Question) -> None:
    """What a player reads fits Discord's limits in the language in force."""
    for option in asked.options:
        assert say(option.label) and len(say(option.label)) <= LIMITS["option"]
        assert len(say(option.description)) <= LIMITS["option"]
        assert all(say(f.label) and len(say(f.label)) <= LIMITS["label"] for f in option.form)
        assert all(len(say(f.placeholder)) <= 100 for f in option.form if f.placeholder)
        if option.description:
            assert say(option.description), option.description


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_every_question_reads_as_worded_in_english_and_is_translated(seed: int) -> None:
    for state in played(seed):
        for player in state.players:
            for asked in PROCEDURE.ask(state, player):
                with speaking("en"):
                    assert words_of(asked) == english_of(asked)
                    assert_fits(asked)
                for lang in TRANSLATED:
                    with speaking(lang):
                        assert say(asked.title) != str(asked.title), (lang, asked.title)
                        assert say(asked.text) != str(asked.text) or not asked.text, (lang, asked.text)
                        assert_fits(asked)


def test_a_unit_type_typed_in_the_players_language_is_the_rules_word() -> None:
    words = new_target_words(Restriction.ANY)
    with speaking("de"):
        assert [read_type(t, words) for t in ("Kavallerie", " kriegsmaschine ", "Held", "cavalry")] == [
            "cavalry",
            "machine",
            "hero",
            "cavalry",
        ]
        assert read_type("Drache", words) == "Drache"  # left for the rules to refuse
    with speaking("fr"):
        assert [read_type(t, words) for t in ("Général", "general", "heros", "Forgeron des runes")] == [
            "general",
            "general",
            "hero",
            "runesmith",
        ]
    with speaking("es"):
        assert read_type("Caballería", ["cavalry", "infantry"]) == "cavalry"
        assert (
            read_type("general", [w for w in words if w != "general"]) == "general"
        )  # not offered: refused later


def test_a_form_answer_is_read_back_for_the_card_it_lays() -> None:
    [state] = played(7, steps=0)
    hand = {h.id: h for h in state.side(ALICE).hand}
    lay = next(
        q
        for q in PROCEDURE.ask(state, ALICE)
        if q.topic == LAY and "cavalry" in new_target_words(hand[str(q.params["card"])].card.carrier)  # type: ignore[arg-type]
    )
    option = next(o for o in lay.options if o.value == f"{NEW}mine")
    assert [f.key for f in option.form] == ["name", "type"]
    with speaking("de"):
        read = typed(state, lay, {"name": "Ritter", "type": "Kavallerie"})
    assert read == {"name": "Ritter", "type": "cavalry"}
    answer = Answer(actor=ALICE, step=lay.step, values=[option.value], fields=read)
    after, _events = PROCEDURE.answer(state, answer, Roller(random.Random(1)))
    assert next(t for t in after.targets if t.name == "Ritter").unit_type == "cavalry"


def test_a_refusal_words_its_values_in_the_readers_language() -> None:
    assert ENGLISH.items() <= WORDED.items()  # the words register themselves wherever they are imported
    slot = RuleError(
        code="warmaster.slot_taken",
        deck=SLOT_NAMES["magic"],
        target=FIXED_NAMES["table"],
        target_kind="table",
        owner=None,
    )
    whose = RuleError(code="warmaster.target_whose", kind=KIND_WHOSE["unit"])
    kinds = RuleError(
        code="warmaster.type_unknown", typed="dragon", allowed=type_list(["infantry", "cavalry"])
    )
    carrier = RuleError(
        code="warmaster.wrong_carrier",
        card="Ring of Magic",
        carrier="wizard",
        allowed=carrier_words("a Wizard only"),
        target="Orcs",
    )
    with speaking("en"):
        assert [refusal(e) for e in (slot, whose, kinds, carrier)] == [
            "**the table** already holds a card from the magic deck; a target takes at most one magic item "
            "card and one tactics card.",
            "Say whose unit you mean: yours or your opponent's.",
            "Please type one of these: infantry, cavalry.",
            "**Ring of Magic** can go on a Wizard only; **Orcs** is not one.",
        ]
    with speaking("de"):
        assert [refusal(e) for e in (slot, whose, kinds, carrier)] == [
            "**Spieltisch** trägt schon eine Gegenstandskarte; ein Ziel trägt höchstens eine "
            "Gegenstandskarte und eine Taktikkarte.",
            "Sag, wem die Einheit gehört: dir oder deinem Gegner.",
            "Bitte tippe eines davon: Infanterie, Kavallerie.",
            "Träger von **Ring of Magic**: nur ein Zauberer; **Orcs** passt nicht.",
        ]
    with speaking("es"):
        assert refusal(whose) == "Di a quién pertenece la unidad: a ti o a tu rival."
