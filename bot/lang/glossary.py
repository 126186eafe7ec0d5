"""The catalogue's glossary: one game term said one way in each language, and the forms of address
a language avoids (bot/locale/glossary.toml), so a player meets the same word on the board, in a
refusal and in the command picker. `bot/lang/i18n_tools.py`'s check holds every entry to it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from bot.lang.i18n import TRANSLATED


@dataclass(frozen=True)
class Term:
    """One game term: where its English is, and how each language must (and must not) say it."""

    name: str
    english: re.Pattern[str]
    use: dict[str, tuple[re.Pattern[str], ...]]
    avoid: dict[str, tuple[re.Pattern[str], ...]]
    domains: frozenset[str] = frozenset()  # only these domains (a term of one game); empty: all


@dataclass(frozen=True)
class Glossary:
    """The terms, and per language the forms no translation uses (the forms of address it avoids)."""

    terms: tuple[Term, ...] = ()
    never: dict[str, tuple[re.Pattern[str], ...]] | None = None


def _patterns(value: str | list[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(v, re.IGNORECASE) for v in ([value] if isinstance(value, str) else value))


def glossary(path: Path) -> Glossary:
    """The glossary (bot/locale/glossary.toml); none (nothing to hold to) where there is no file.

    One term is said one way in each language, so a player meets the same word on the board, in a
    refusal and in the command picker; the catalogue check holds every entry to it.
    """
    if not path.exists():
        return Glossary()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    terms = []
    for name, term in data.get("term", {}).items():
        wording = {lang: term[lang] for lang in TRANSLATED if lang in term}
        terms.append(
            Term(
                name,
                re.compile(rf"\b(?:{term['english']})\b", re.IGNORECASE),
                {lang: _patterns(said["use"]) for lang, said in wording.items() if "use" in said},
                {lang: _patterns(said.get("avoid", [])) for lang, said in wording.items()},
                frozenset(term.get("domains", [])),
            )
        )
    never = {lang: _patterns(said.get("avoid", [])) for lang, said in data.get("address", {}).items()}
    return Glossary(tuple(terms), never)


def bare(text: str) -> str:
    """A text without what no translator words: values, mentions, code spans and links."""
    return re.sub(r"\{[^{}]*\}|<[@#:!&t][^>]*>|`[^`]*`|https?://\S+", " ", text)


def worded(
    name: str, domain: str, lang: str, englishes: list[str], forms: list[str], rules: Glossary
) -> list[str]:
    """Where one entry strays from the glossary: a term not said its way, or a form of address avoided.

    A term applies where its English is in the entry's English (any plural form); each translated
    form must then say it one of the accepted ways and none of the avoided ones. A form of address
    that is also a word of the English (an English proper name) is not counted.
    """
    found: list[str] = []
    english = " ".join(bare(e) for e in englishes)
    for form in map(bare, forms):
        for term in rules.terms:
            if (term.domains and domain not in term.domains) or not term.english.search(english):
                continue
            use = term.use.get(lang, ())
            if use and not any(p.search(form) for p in use):
                found.append(f"{name}: glossary: {term.name!r} is {' or '.join(p.pattern for p in use)}")
            for avoided in term.avoid.get(lang, ()):
                if hit := avoided.search(form):
                    found.append(f"{name}: glossary: {term.name!r} is never {hit.group(0)!r}")
        for avoided in (rules.never or {}).get(lang, ()):
            for hit in avoided.finditer(form):
                if not re.search(rf"\b{re.escape(hit.group(0))}\b", english, re.IGNORECASE):
                    found.append(f"{name}: {hit.group(0)!r} is a form of address the catalogue avoids")
    return found
