"""The catalogue and the translation functions: complete, checked, and never in the way.

`test_the_catalogue_is_complete` is the catalogue check CI runs: every marked string of every domain
in the catalogue is translated into German, French and Spanish, with the same placeholders, within
Discord's limits, compiled (.mo) from its current .po, and saying each game term the glossary's way.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from hypothesis import given
from hypothesis import strategies as st

from bot.lang import i18n, i18n_tools
from bot.lang.i18n import Domain, fill, speaking, supported
from bot.lang.text import add_words, refusal
from bot.lang.translator import localised
from cogs.pick import refusals as pick_refusals
from cogs.scores.text import ENGLISH as SCORES_WORDS
from rules.dice import Roller
from rules.errors import RuleError
from rules.pick.procedure import PROCEDURE as PICK
from rules.pick.procedure import start as pick_start
from rules.session import Answer, check_answer

_ = Domain("muster")


def test_the_catalogue_is_complete() -> None:
    assert "muster" in i18n_tools.in_catalogue()
    assert i18n_tools.check() == []


def test_discord_locales_map_to_the_shipped_languages() -> None:
    assert [supported(x) for x in ("de", "fr", "es-ES", "es-419", "en-GB", "en-US", "ja", None, "")] == [
        "de",
        "fr",
        "es",
        "es",
        "en",
        "en",
        "en",
        "en",
        "en",
    ]


def test_speaking_renders_a_block_in_a_language_and_gives_the_old_one_back() -> None:
    assert i18n.language() == "en"
    with speaking("fr"):
        with speaking("de"):
            assert _.p("field", "Latest") == "Zuletzt"
        assert _.p("field", "Latest") == "Dernièrement"
    assert _.p("field", "Latest") == "Latest"


def test_values_are_filled_in_after_translation_with_plural_forms() -> None:
    with speaking("de"):
        assert _("Page {page} of {pages}", page=2, pages=5) == "Seite 2 von 5"
        assert _.n("{count} game", "{count} games", 1) == "1 Spiel"
        assert _.n("{count} game", "{count} games", 3) == "3 Spiele"
    with speaking("fr"):
        assert _.n("{count} game", "{count} games", 0) == "0 partie"  # French: 0 is singular


def test_a_refusal_is_translated_by_its_code() -> None:
    add_words(SCORES_WORDS)  # as the scores cog does when it loads (this worker may not have loaded it)
    count = RuleError(code="answer.count", minimum=1, maximum=3)
    assert refusal(count) == "Pick 1 to 3 options here."
    with speaking("de"):
        assert refusal(count) == "Wähle hier 1 bis 3 Optionen."
        assert refusal(RuleError(code="session.gone")) == "Dieses Spiel gibt es nicht mehr."
    with speaking("es"):
        assert refusal(RuleError(code="scores.already_answered", result=4, status="confirmed")) == (
            "El resultado #4 ya está confirmado; no ha cambiado nada."
        )


def test_anything_missing_falls_back_to_english_and_never_raises() -> None:
    with speaking("de"):
        assert _("A sentence no catalogue has, {x}.", x=1) == "A sentence no catalogue has, 1."
        assert Domain("night")("Night words") == "Night words"  # a domain not translated yet
    assert fill("Hallo {nom}", "Hello {name}", {"name": "Ann"}) == "Hello Ann"  # a bad translation
    assert fill("Hallo {nom}", "Hello {who}", {"name": "Ann"}) == "Hello {who}"  # nothing fits: as written
    assert fill("{0}", "{0}", {}) == "{0}"  # no values: not formatted at all


@given(st.text(max_size=40), st.text(max_size=40), st.dictionaries(st.text(max_size=5), st.integers()))
def test_filling_never_raises(translated: str, english: str, values: dict[str, int]) -> None:
    assert isinstance(fill(translated, english, values), str)


def test_command_descriptions_come_from_the_catalogue() -> None:
    assert localised("What Muster can do", "de", "cogs.help") == "Was Muster kann"
    assert localised("What Muster can do", "es") == "Lo que Muster puede hacer"
    assert localised("A description nobody translated", "fr", "cogs.help") is None


def test_extraction_reads_the_marked_english_of_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(i18n_tools, "ROOT", tmp_path)
    source = tmp_path / "example.py"
    source.write_text(
        "from bot.lang.i18n import Domain\n"
        '_ = Domain("warcry")\n'
        'a = _("Battleplan: {name}", name=x)\n'
        'b = _.n("{count} objective", "{count} objectives", n)\n'
        'c = _.p("board", "Latest")\n'
        'd = _.mark("Red " + "team")\n'
        "e = _(variable)\n"
        'f = other("not marked")\n'
    )
    found = [(e.domain, e.context, e.msgid, e.plural) for e in i18n_tools.source_entries(source)]
    assert sorted(found, key=str) == sorted(
        [
            ("warcry", None, "Battleplan: {name}", None),
            ("warcry", None, "{count} objective", "{count} objectives"),
            ("warcry", "board", "Latest", None),
            ("warcry", None, "Red team", None),
        ],
        key=str,
    )


def test_the_check_finds_every_kind_of_gap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n_tools, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n_tools, "ROOT", tmp_path)
    pot = Catalog(domain="demo")
    for context, msgid in [
        ("command", "Roll some dice"),
        (None, "Hello {name}"),
        (None, "Board words"),
        (None, "Missing words"),
        (None, "Muster"),
    ]:
        pot.add(msgid, context=context)
    pot.add(("{count} die", "{count} dice"))
    i18n_tools.write(i18n_tools.pot_path("demo"), pot)
    de = Catalog(locale="de", domain="demo", fuzzy=False)
    de.add("Roll some dice", "Würfle " * 20, context="command")  # over Discord's 100
    de.add("Hello {name}", "Hallo {nom}")  # a placeholder renamed
    de.add("Board words", "Board words")  # still English
    de.add("Muster", "Muster", user_comments=[i18n_tools.SAME])  # a proper name, marked as rightly the same
    de.add(
        ("{count} die", "{count} dice"), ("ein Würfel", "{count} Würfel")
    )  # "ein": fine, a form may omit it
    i18n_tools.write(i18n_tools.po_path("de", "demo"), de)
    found = "\n".join(i18n_tools.problems("demo", "de"))
    assert "is stale" in found  # never compiled
    assert "'Roll some dice': 140 characters, over Discord's 100" in found
    assert "placeholders ['nom'] instead of ['name']" in found
    assert "'Board words' is still English" in found
    assert "'Missing words' is missing" in found
    assert "Muster" not in found and "die" not in found
    assert i18n_tools.problems("demo", "fr") == ["fr/LC_MESSAGES/demo.po is missing"]
    i18n_tools.po_path("de", "demo").with_suffix(".mo").write_bytes(
        i18n_tools.compiled(i18n_tools.read(i18n_tools.po_path("de", "demo"), "de"))
    )
    assert "is stale" not in "\n".join(i18n_tools.problems("demo", "de"))


def test_the_glossary_check_finds_a_term_said_another_way_and_an_avoided_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real glossary, held against a planted catalogue: each slip is named, the right words pass."""
    glossary = i18n_tools.glossary_path().read_text(encoding="utf-8")
    monkeypatch.setattr(i18n_tools, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n_tools, "ROOT", tmp_path)
    i18n_tools.glossary_path().write_text(glossary, encoding="utf-8")
    said = {
        "Kill points: {points}": {"de": "Killpunkte: {points}", "es": "Puntos de baja: {points}"},
        "{player} scores {count} kill points": {"de": "{player} erhält {count} Abschusspunkte"},
        "Ratings": {"fr": "Cotes"},
        "Place the objectives, then press Begin battle.": {
            "es": "Colocad los objetivos y luego pulsad Empezar la batalla.",
            "de": "Platziere die Missionsziele und drücke dann Schlacht beginnen.",
        },
        "Pick a mission": {"de": "Wählen Sie eine Mission", "es": "Elige una misión"},
        "Matched battleplan": {"es": "Plan de batalla de Matched Play"},  # an English name, not vosotros
        "A short id, like kz1 or table-3": {"de": "Eine kurze ID, z. B. kz1 oder table-3"},  # an id, no table
    }
    pot = Catalog(domain="night")
    for english in said:
        pot.add(english)
    i18n_tools.write(i18n_tools.pot_path("night"), pot)
    for lang in ("de", "fr", "es"):
        po = Catalog(locale=lang, domain="night", fuzzy=False)
        for english, words in said.items():
            if lang in words:
                po.add(english, words[lang])
        i18n_tools.write(i18n_tools.po_path(lang, "night"), po)
    found = {lang: "\n".join(i18n_tools.problems("night", lang)) for lang in ("de", "fr", "es")}
    assert "'Kill points: {points}': glossary: 'kill points' is Abschusspunkt" in found["de"]
    assert "'kill points' is never 'Killpunkt'" in found["de"]
    assert "scores {count} kill points" not in found["de"]
    assert "'Ratings': glossary: 'rating' is never 'Cotes'" in found["fr"]
    assert "'Colocad' is a form of address the catalogue avoids" in found["es"]
    assert "'pulsad' is a form of address" in found["es"]
    assert "'Wählen Sie' is a form of address" in found["de"]
    for fine in ("Kill points", "Pick a mission", "Matched battleplan"):
        assert fine not in found["es"]
    for fine in ("table-3", "Place the objectives"):
        assert fine not in found["de"]


def test_the_real_catalogue_keeps_to_its_glossary() -> None:
    """Every entry of every domain says each game term the glossary's way, and only du, vous and tú."""
    rules = i18n_tools.glossary()
    terms = {term.name: term for term in rules.terms}
    for name, lang, word in [
        ("kill points", "de", "Abschusspunkte"),
        ("kill points", "fr", "points de destruction"),
        ("kill points", "es", "puntos de baja"),
        ("warband", "de", "Kriegerschar"),
        ("organiser", "de", "Organisator"),
        ("organiser", "fr", "organisateur"),
        ("organiser", "es", "organizador"),
        ("rating", "fr", "classement"),
        ("turning point", "fr", "tournant"),
        ("command points", "de", "BP"),
    ]:
        assert any(p.search(word) for p in terms[name].use[lang]), (name, lang)
    assert any(p.search("Organisation") for p in terms["organiser"].avoid["de"])
    assert any(p.search("cote") for p in terms["rating"].avoid["fr"])
    assert any(p.search("KP") for p in terms["command points"].avoid["de"])
    found = []
    for domain in i18n_tools.in_catalogue():
        pot = i18n_tools.read(i18n_tools.pot_path(domain))
        for lang in i18n.TRANSLATED:
            po = i18n_tools.read(i18n_tools.po_path(lang, domain), lang)
            for message in po:
                wanted = pot.get(message.id, message.context)
                if not message.id or wanted is None:
                    continue
                englishes = list(wanted.id) if isinstance(wanted.id, (list, tuple)) else [wanted.id]
                forms = i18n_tools._forms(message)
                found += i18n_tools.worded(f"{domain}/{lang}", domain, lang, englishes, forms, rules)
    assert found == []


def test_a_compiled_catalogue_is_judged_by_what_it_says_not_by_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another Babel release stamps its own "Generated-By" and may lay the file out anew: not stale."""
    monkeypatch.setattr(i18n_tools, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n_tools, "ROOT", tmp_path)
    pot = Catalog(domain="demo")
    pot.add("Roll some dice", context="command")
    i18n_tools.write(i18n_tools.pot_path("demo"), pot)
    de = Catalog(locale="de", domain="demo", fuzzy=False)
    de.add("Roll some dice", "Würfle", context="command")
    i18n_tools.write(i18n_tools.po_path("de", "demo"), de)
    mo = i18n_tools.po_path("de", "demo").with_suffix(".mo")
    ours = i18n_tools.compiled(i18n_tools.read(i18n_tools.po_path("de", "demo"), "de"))
    version = re.search(rb"Generated-By: Babel (\S+)", ours)
    assert version is not None
    mo.write_bytes(ours.replace(version.group(1), b"9" * len(version.group(1))))  # same layout, older tool
    assert mo.read_bytes() != i18n_tools.compiled(i18n_tools.read(i18n_tools.po_path("de", "demo"), "de"))
    assert i18n_tools.problems("demo", "de") == []
    assert i18n_tools.do_compile(["demo"]) == []  # nothing rewritten either
    de.get("Roll some dice", "command").string = "Würfeln"  # type: ignore[union-attr]
    i18n_tools.write(i18n_tools.po_path("de", "demo"), de)
    assert any("is stale" in line for line in i18n_tools.problems("demo", "de"))


def test_a_refused_answer_names_the_question_as_the_player_sees_it() -> None:
    """Pick's rules word its question once (rules/pick/questions.py); a refusal naming it carries
    those Words, so the player reads it in their language, from the pick catalogue."""
    state, _events = pick_start("0123456789ab", [1, 2], Roller(random.Random(1)))
    with pytest.raises(RuleError) as caught:
        check_answer(PICK.ask(state, 1), Answer(actor=1, step="old.step"))
    stale = caught.value
    assert str(stale.params["now"]) == "Pick a number in secret"  # English: as the rules say it
    assert "Pick a number in secret" in refusal(stale)
    assert "pick.range" in pick_refusals.ENGLISH  # the code's words, added by importing them
    with speaking("fr"):
        assert "Choisissez un nombre en secret" in refusal(stale)
        own = RuleError(code="pick.range", low=1, high=3)
        assert refusal(own) == "Choisissez un nombre de 1 à 3."


def test_words_from_the_rules_are_looked_up_by_their_english() -> None:
    """rules/ write their English once (rules/words.py); the catalogue translates it by that msgid,
    a value that is `Words` too, and English is the msgid filled in."""
    from bot.lang.i18n import say
    from rules.confirmation import HOW
    from rules.words import Marker, Words

    n_ = Marker("muster")
    confirm = n_.p("button", "Confirm")
    with speaking("de"):
        assert say(confirm) == "Bestätigen"
        assert say(Words.verbatim("Confirm")) == "Confirm"
        assert say(HOW).startswith("Der andere Spieler bestätigt")
    with speaking("en"):
        assert say(confirm) == "Confirm"
        assert say(HOW) == str(HOW)
