"""English that players read, marked for the catalogue where it is written, with its values.

rules/ words what it asks in English: a question's title, an option's label, a form's field. A
module binds a marker for its game's catalogue domain once and writes each sentence there, once:

    N_ = Marker("warcry")
    N_("End battle round {round}", round=3)
    N_.p("button", "Take red")                        # a context, as gettext's pgettext
    N_.n("{count} fighter", "{count} fighters", n)    # plural forms; `{count}` is filled in

Each call is a `Words`: the msgid as written, its context and plural, and the values to fill in.
The catalogue is extracted from these calls (bot/lang/i18n_tools.py reads rules/ as it reads bot/
and cogs/), and the bot shows `Words` in a reader's language by looking its msgid up
(`bot.lang.i18n.say`). English is the msgid filled in: the same text by construction, not by a test
holding two copies equal. A value may be `Words` itself (a group's name inside a sentence), shown in
the same language first. Text that is nobody's to translate (a player's name, a unit someone typed)
is `Words.verbatim(text)`; a plain `str` given to a question is taken as verbatim.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any, Union

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

Value = Union[str, int, float, None, "Words"]


class _Blank(dict[str, object]):
    """Values for `format_map`: None shows as nothing."""

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key)
        return "" if value is None else value


def fill(text: str, values: Mapping[str, object]) -> str | None:
    """`text` with `values` filled in; None if they don't fit its placeholders."""
    if not values:
        return text
    try:
        return text.format_map(_Blank(values))
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return None


def placeholders(text: str) -> set[str]:
    """The `{name}`s a text fills in (`{{` is a brace, not a placeholder)."""
    try:
        return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return set()


class Words:
    """A msgid of a catalogue `domain` (None: verbatim, never looked up) with its values.

    Immutable and compared by what it says and means, so questions built twice compare equal."""

    __slots__ = ("context", "count", "domain", "english", "plural", "values")

    def __init__(
        self,
        english: str,
        domain: str | None,
        *,
        context: str | None = None,
        plural: str | None = None,
        count: int | None = None,
        values: Mapping[str, Value] | None = None,
    ) -> None:
        self.english = english
        self.domain = domain
        self.context = context
        self.plural = plural
        self.count = count
        self.values: dict[str, Value] = dict(values or {})
        if plural is not None:
            self.values.setdefault("count", count)

    @classmethod
    def verbatim(cls, text: str) -> Words:
        """Text shown as it is in every language (a name, something a player typed)."""
        return cls(text, None)

    def form(self) -> str:
        """The English msgid for this count (singular or plural)."""
        return self.plural if self.plural is not None and self.count != 1 else self.english

    def __str__(self) -> str:
        """The English, filled in (what every language falls back to)."""
        english = self.form()
        values = {k: str(v) if isinstance(v, Words) else v for k, v in self.values.items()}
        filled = fill(english, values)
        return english if filled is None else filled

    def __repr__(self) -> str:
        return f"Words({str(self)!r})"

    def __bool__(self) -> bool:
        return bool(self.english)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Words):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.english, self.domain, self.context, self.plural, self.count))

    def _key(self) -> tuple[object, ...]:
        return (self.english, self.domain, self.context, self.plural, self.count, self.values)

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """In a model: `Words` as given, a plain `str` as verbatim. Dumped as its msgid, domain,
        context, plural and values (verbatim text as a plain string), and loaded back the same, so
        something stored and shown later is still said in the reader's language."""
        return core_schema.no_info_before_validator_function(
            _coerce,
            core_schema.is_instance_schema(cls),
            serialization=core_schema.plain_serializer_function_ser_schema(_dumped),
        )


def _dumped(words: Words) -> object:
    if words.domain is None and not words.values:
        return words.english
    data: dict[str, object] = {"words": words.english, "domain": words.domain}
    data.update({k: v for k, v in (("context", words.context), ("plural", words.plural)) if v is not None})
    if words.plural is not None:
        data["count"] = words.count
    if words.values:
        data["values"] = {k: _dumped(v) if isinstance(v, Words) else v for k, v in words.values.items()}
    return data


def _loaded(value: object) -> Value:
    if isinstance(value, dict) and "words" in value:
        coerced = _coerce(value)
        assert isinstance(coerced, Words)
        return coerced
    return value if isinstance(value, str | int | float) or value is None else str(value)


def _coerce(value: object) -> object:
    """A stored or plain value as `Words` (a `str`: verbatim; a dump of `Words`: as it was)."""
    if isinstance(value, str):
        return Words.verbatim(value)
    if isinstance(value, dict) and isinstance(value.get("words"), str):
        values = value.get("values") or {}
        count = value.get("count")
        return Words(
            value["words"],
            value.get("domain"),
            context=value.get("context"),
            plural=value.get("plural"),
            count=count if isinstance(count, int) else None,
            values={str(k): _loaded(v) for k, v in values.items()} if isinstance(values, dict) else None,
        )
    return value


class Marker:
    """Marks English of one catalogue domain where it is written (gettext's `N_`, with values)."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def __repr__(self) -> str:
        return f"Marker({self.domain!r})"

    def __call__(self, english: str, /, **values: Value) -> Words:
        return Words(english, self.domain, values=values)

    def p(self, context: str, english: str, /, **values: Value) -> Words:
        """`english` in `context` (a place like `button`), as gettext's pgettext."""
        return Words(english, self.domain, context=context, values=values)

    def n(self, singular: str, plural: str, count: int, /, **values: Value) -> Words:
        """The singular or plural form for `count`; `{count}` is filled in."""
        return Words(singular, self.domain, plural=plural, count=count, values=values)

    def np(self, context: str, singular: str, plural: str, count: int, /, **values: Value) -> Words:
        return Words(singular, self.domain, context=context, plural=plural, count=count, values=values)
