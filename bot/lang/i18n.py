"""The one place English and its translations come from (gettext catalogues read with Babel's tools).

Source text is English, written where it is used and marked for the catalogue:

    from bot.lang.i18n import Domain

    _ = Domain("warcry")              # one domain per area: muster (bot/, the shared cogs), killteam,
                                      # warcry, warmaster, fortyk, night, pick: one .po file each
    _("Battleplan: {name}", name=plan.name)               # gettext, values filled in after translation
    _.n("{count} objective", "{count} objectives", count) # plural forms (the count is a value too)
    _.p("board", "Latest")                                # a context, for one English word used twice
    _.mark("Red")                                         # marked for extraction, translated later: _(text)

Which language is in force is a context variable: `speaking(lang)` renders a block in a language
(the table's, one player's); an interaction starts in the language of the player who made it
(bot/lang/languages.py). A missing catalogue, entry or value never raises: the English is used, and a
translation whose placeholders don't match its English falls back to the English too.

Refusal codes (`RuleError(code=...)`) are worded in English in code-keyed dicts (bot/lang/text.py,
cogs/<game>/refusals.py); their translation is the catalogue entry whose context is the code (`_.p(code,
english)`), so one English sentence may mean two things in two codes without clashing.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
import importlib
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from rules import words
from rules.words import Words
from rules.words import placeholders as placeholders

log = logging.getLogger(__name__)

SOURCE = "en"
LANGUAGES = ("en", "de", "fr", "es")
"""The languages shipped: English (the source) and its translations."""
TRANSLATED = LANGUAGES[1:]
DOMAINS = ("muster", "killteam", "warcry", "warmaster", "fortyk", "night", "pick", "event", "web")
"""One catalogue per area (bot/locale/<lang>/LC_MESSAGES/<domain>.po)."""
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
COMMAND_CONTEXT = "command"
"""The context of slash-command descriptions and choice names (Discord's 100-character limit)."""

Value = str | int | float | Words | None

_language: contextvars.ContextVar[str] = contextvars.ContextVar("muster_language", default=SOURCE)


def supported(locale: object) -> str:
    """The shipped language for a Discord locale (`de`, `es-ES`, `es-419`, `en-GB`...) or one of
    ours; anything else is English."""
    try:
        return _supported(locale)
    except TypeError:  # unhashable: not kept
        return _supported.__wrapped__(locale)


@functools.lru_cache(maxsize=256)
def _supported(locale: object) -> str:
    """`supported`, kept: every interaction asks it once or more, of the same few locales."""
    code = str(getattr(locale, "value", locale) or "").strip().lower().replace("_", "-")
    base = code.split("-", 1)[0]
    return base if base in LANGUAGES else SOURCE


def language() -> str:
    """The language in force here."""
    return _language.get()


@contextmanager
def speaking(lang: object) -> Iterator[str]:
    """Render the block in `lang` (a Discord locale or one of ours); the language before is back after."""
    token = _language.set(supported(lang))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def use(lang: object) -> contextvars.Token[str]:
    """Speak `lang` from here on in this context (an interaction's task); `reset` undoes it."""
    return _language.set(supported(lang))


def reset(token: contextvars.Token[str]) -> None:
    _language.reset(token)


@functools.cache
def catalogue(lang: str, domain: str) -> gettext.NullTranslations:
    """A domain's compiled catalogue in `lang` (English and anything missing: no translation)."""
    if lang == SOURCE:
        return gettext.NullTranslations()
    try:
        with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as compiled:
            return gettext.GNUTranslations(compiled)
    except OSError:
        log.debug("no %s catalogue for %s; English is used", domain, lang)
        return gettext.NullTranslations()


def fill(translated: str, english: str, values: Mapping[str, Value]) -> str:
    """`translated` with its values (a `Words` value shown in the language in force first); the
    English with them if the translation's placeholders are wrong; the bare text if even the
    English can't be filled (never an exception)."""
    if not values:
        return translated
    shown = {k: say(v) if isinstance(v, Words) else v for k, v in values.items()}
    for text in (translated, english):
        filled = words.fill(text, shown)
        if filled is not None:
            return filled
        log.warning("could not fill %r with %s", text, sorted(values))
    return english


def say(text: Words | str) -> str:
    """What the rules word (`Words`, rules/words.py) in the language in force: the catalogue's
    translation of its msgid, filled in. English is the msgid filled in; verbatim text and a plain
    `str` are shown as they are."""
    if isinstance(text, str):
        return text
    english = text.form()
    if text.domain is None:
        return fill(english, english, text.values)
    book = catalogue(_language.get(), text.domain)
    if text.plural is not None:
        count = text.count if text.count is not None else 0
        found = (
            book.npgettext(text.context, text.english, text.plural, count)
            if text.context is not None
            else book.ngettext(text.english, text.plural, count)
        )
    else:
        found = book.pgettext(text.context, english) if text.context is not None else book.gettext(english)
    return fill(found, english, text.values)


class Domain:
    """The translation functions of one catalogue domain, in the language in force when called."""

    def __init__(self, name: str) -> None:
        if name not in DOMAINS:
            raise ValueError(f"unknown message domain {name!r}; add it to bot.lang.i18n.DOMAINS")
        self.name = name

    def __repr__(self) -> str:
        return f"Domain({self.name!r})"

    def _catalogue(self) -> gettext.NullTranslations:
        return catalogue(_language.get(), self.name)

    def __call__(self, message: str, /, **values: Value) -> str:
        """`message` in the language in force, with `values` filled in."""
        return fill(self._catalogue().gettext(message), message, values)

    def n(self, singular: str, plural: str, count: int, /, **values: Value) -> str:
        """The form of `singular`/`plural` for `count` in the language in force; `{count}` is filled in."""
        translated = self._catalogue().ngettext(singular, plural, count)
        return fill(translated, singular if count == 1 else plural, {"count": count, **values})

    def p(self, context: str, message: str, /, **values: Value) -> str:
        """`message` in `context` (a refusal's code, a place like `board`), with `values` filled in."""
        return fill(self._catalogue().pgettext(context, message), message, values)

    def np(self, context: str, singular: str, plural: str, count: int, /, **values: Value) -> str:
        translated = self._catalogue().npgettext(context, singular, plural, count)
        return fill(translated, singular if count == 1 else plural, {"count": count, **values})

    @staticmethod
    def mark(message: str) -> str:
        """Mark English for the catalogue without translating it now (a module-level table):
        translate it where it is shown, with `_(text)`."""
        return message


def translated(lang: str, domain: str, message: str, context: str | None = None) -> str | None:
    """The catalogue's own translation of `message` in `lang`, or None if it has none (the
    command translator must tell Discord "no localisation" rather than repeat the English)."""
    book = catalogue(supported(lang), domain)
    found = book.pgettext(context, message) if context is not None else book.gettext(message)
    return None if found == message else found


def code_domain(code: str) -> str:
    """A refusal code's domain: its area when that is a game's domain (`warcry.split_total`), else muster."""
    area = code.split(".", 1)[0]
    return area if area in DOMAINS else "muster"


def module_domain(module: str) -> str:
    """The domain of a module's commands: the `Domain` it declares, else the game its name says."""
    found = vars(importlib.import_module(module))
    for value in [found.get("_"), *found.values()]:
        if isinstance(value, Domain):
            return value.name
    parts = module.split(".")
    named = parts[1] if parts[0] == "cogs" and len(parts) > 1 else parts[-1]  # a game's package names it
    return next((d for d in DOMAINS if named.startswith(d)), "muster")
