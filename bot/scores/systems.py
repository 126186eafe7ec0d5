"""Game system names as results store them, and their titles.

The one place that knows them: when they come from the game registry instead, only this module
changes. `system_key` turns what a player typed into the stored key; `system_title` shows a key.
"""

from __future__ import annotations

import re

SYSTEM_TITLES: dict[str, str] = {
    "killteam": "Kill Team",
    "warcry": "Warcry",
    "warmaster": "Warmaster",
    "fortyk": "Warhammer 40,000",
}
_ALIASES: dict[str, str] = {
    "kill-team": "killteam",
    "kt": "killteam",
    "40k": "fortyk",
    "40-k": "fortyk",
    "warhammer-40k": "fortyk",
    "warhammer-40-000": "fortyk",
    "warhammer-40000": "fortyk",
    "w40k": "fortyk",
}
KEY_MAX = 32


def system_key(text: str) -> str:
    """The stored name of a game system: lower case words joined by hyphens, common aliases merged.

    Empty when `text` has no letters or digits.
    """
    slug = re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")[:KEY_MAX].strip("-")
    return _ALIASES.get(slug, slug)


def system_title(key: str) -> str:
    """A key's display name: a known system's title, else the key's words capitalised."""
    return SYSTEM_TITLES.get(key, key.replace("-", " ").title() if key else "Game")
