"""Game system names as results store them, and their titles, from the game registry.

A game Muster runs declares its title and the other names players type for it on its adapter
(bot/play/games.py); any other system a player types by hand (`/scores record system:Blood Bowl`) is
stored as its slug and shown with its words capitalised. `system_key` turns what a player typed into
the stored key; `system_title` shows a key.
"""

from __future__ import annotations

import re

from bot.play.games import DECLARED

KEY_MAX = 32


def system_key(text: str) -> str:
    """The stored name of a game system: lower case words joined by hyphens, a game's aliases merged.

    Empty when `text` has no letters or digits.
    """
    slug = re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")[:KEY_MAX].strip("-")
    return DECLARED.system_for(slug) or slug


def system_title(key: str) -> str:
    """A key's display name: a game's own title, else the key's words capitalised."""
    return DECLARED.title(key) or (key.replace("-", " ").title() if key else "Game")


def known_systems() -> list[tuple[str, str]]:
    """(title, key) of every game Muster runs, for choosing a system."""
    return [(game.title, game.procedure.system) for game in DECLARED]
