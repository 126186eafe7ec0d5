"""What every game's rules pack (a server's own cards, decks or missions) shares."""

from __future__ import annotations

from rules.errors import RuleError

MAX_PACK_BYTES = 64 * 1024


class PackError(RuleError):
    """A pack that cannot be used; `errors` lists every problem found, each naming its line."""

    def __init__(self, errors: list[str]) -> None:
        shown = errors[:25]
        more = f"\n…and {len(errors) - len(shown)} more." if len(errors) > len(shown) else ""
        super().__init__("This pack has problems:\n" + "\n".join(f"- {e}" for e in shown) + more)
        self.errors = errors
