"""The English of Pick's refusal codes (`pick.<what>`), added to the one registry with `add_words`;
each is translated in the `pick` catalogue by its code."""

from __future__ import annotations

from bot.lang.text import add_words

ENGLISH: dict[str, str] = {
    "pick.range": "Pick a number from {low} to {high}.",
}

add_words(ENGLISH)  # here, so whatever imports the words has them
