"""The words a player reads for a refusal, made from its code and values in this one place.

Rules raise `RuleError(code=..., **params)`; this registry says them in English, and the catalogue
(bot/lang/i18n.py) translates each by its code: the entry of the code's domain whose context is the code.
A code missing here falls back to a plain, still polite sentence.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from bot.lang.i18n import DOMAINS, Domain, code_domain, placeholders
from rules.errors import ParamValue, Refusals, RuleError

log = logging.getLogger(__name__)

ENGLISH: dict[str, str] = {
    "answer.stale": "That question was already answered: the game is now at **{now}**.",
    "answer.not_asked": "The game isn't asking you anything right now.",
    "answer.number_missing": "Type a whole number from {minimum} to {maximum}.",
    "answer.number_range": "{number} is not allowed here: type a whole number from {minimum} to {maximum}.",
    "answer.repeated": "Pick each option only once.",
    "answer.count": "Pick {count_text} here.",
    "answer.not_offered": "That option isn't available for this question.",
    "answer.disabled": "**{label}** isn't allowed now. {why}",
    "answer.field_missing": "Please fill in {field}.",
    "answer.field_long": "{field} can be at most {limit} characters long.",
    "answer.field_number": "{field} must be a whole number.",
    "answer.field_range": "{field} must be from {minimum} to {maximum}.",
    "game.not_player": "Only the two players of this game can do that.",
    "game.finished": "This game has already finished.",
    "confirm.pending": "A request by <@{by}> waits for a confirmation: answer it first, with Confirm or "
    "Not yet.",
    "confirm.stale": "That confirmation was already answered; answer the one the game asks now.",
    "confirm.nothing_pending": "Nothing is waiting for a confirmation.",
    "session.other_server": "That button belongs to a game in another server.",
    "session.not_player": "This is a game between <@{first}> and <@{second}>: only they can play it.",
    "session.prompt_of_other": "That prompt is for <@{player}> only.",
    "answer.invalid": "I can't use that as `{field}`: please pick one of the offered choices.",
    "session.gone": "That game no longer exists.",
    "session.cancelled": "That game was cancelled; nothing more can be done in it.",
    "session.finished": "That game has already finished; nothing more can be done in it.",
    "session.none_here": "You have no {game} game in this channel; start one with `{start}`.",
    "session.several_here": "You have more than one {game} game in this channel: use the buttons on that "
    "game's latest message instead.",
    "session.second_game": "You already have a {game} game with <@{opponent}> in this channel (`{session}`); "
    "finish or cancel it first.",
    "session.busy": "That game is very busy right now; please try again.",
    "session.cancel_not_allowed": "Only the organiser of this game or someone with Manage Server can "
    "cancel it.",
}

SOURCE_OF: dict[str, str] = dict.fromkeys(ENGLISH, __name__)
"""The module that worded each code (where the catalogue says it comes from)."""

Values = dict[str, ParamValue]
VALUE_WORDS: dict[str, Callable[[str, Values], Values]] = {}
"""A game's own words for the values its codes carry (a deck, a kind of target), by area."""

_ = Domain("muster")
FALLBACK = _.mark("That isn't allowed right now.")
BY_AREA = {name: Domain(name) for name in DOMAINS}


def add_words(catalogue: dict[str, str], values: Callable[[str, Values], Values] | None = None) -> None:
    """Add a game's own refusal codes (`<system>.<what>`) to the catalogue; its cog calls this once.

    A code may be worded once only, so two games can't silently disagree about one. A code is
    translated in its game's domain (`warcry.*` in warcry's catalogue), any other in muster's.
    `values(code, params)` words the values that are words (an id the rules carry) in the
    language in force, for the codes of the catalogue's areas.
    """
    caller = sys._getframe(1).f_globals.get("__name__", "")
    if values is not None:
        VALUE_WORDS.update(dict.fromkeys({code.split(".", 1)[0] for code in catalogue}, values))
    for code, template in catalogue.items():
        if ENGLISH.get(code, template) != template:
            raise ValueError(f"refusal code {code} is already worded differently")
        ENGLISH[code] = template
        SOURCE_OF.setdefault(code, caller)


def domain_of(code: str) -> Domain:
    """The catalogue domain a refusal code is translated in."""
    return BY_AREA[code_domain(code)]


def _words() -> dict[str, str]:
    """The plain words some codes carry as values (a result's status, what was asked of a player)."""
    return {
        "confirm": _.p("action", "confirm"),
        "dispute": _.p("action", "dispute"),
        "pending": _.p("status", "pending"),
        "confirmed": _.p("status", "confirmed"),
        "disputed": _.p("status", "disputed"),
        "void": _.p("status", "void"),
    }


def _derived(code: str, params: dict[str, ParamValue]) -> dict[str, ParamValue]:
    """Values some sentences need: plain arithmetic on the code's own values, or its words translated."""
    own = VALUE_WORDS.get(code.split(".", 1)[0])
    if own is not None:
        params = own(code, params)
    if code.startswith("scores.") and ("action" in params or "status" in params):
        words = _words()
        for name in ("action", "status"):
            if isinstance(params.get(name), str):
                params = {**params, name: words.get(str(params[name]), params[name])}
    if code == "answer.count":
        low, high = params.get("minimum"), params.get("maximum")
        count = high if isinstance(high, int) else 2
        if low == high:
            text = _.n("{count} option", "{count} options", count)
        else:
            text = _.n("{low} to {count} option", "{low} to {count} options", count, low=low)
        return {**params, "count_text": text}
    return params


def refusal(error: RuleError) -> str:
    """The sentence shown to the player for a refusal; for several reasons, the heading and every
    reason, one a line."""
    said = _sentence(error)
    if isinstance(error, Refusals):
        return "\n".join([said, *(f"• {refusal(reason)}" for reason in error.reasons)])
    return said


def _sentence(error: RuleError) -> str:
    if error.code == "text":
        return str(error.params.get("text") or _(FALLBACK))
    template = ENGLISH.get(error.code)
    if template is None:
        log.warning("no words for refusal code %s", error.code)
        return _(FALLBACK)
    values = _derived(error.code, error.params)
    missing = placeholders(template) - values.keys()
    if missing:
        log.warning("refusal %s lacks %s", error.code, sorted(missing))
        return _(FALLBACK)
    return domain_of(error.code).p(error.code, template, **values).strip()
