"""Sealed army lists: a player's list is committed to when they submit it and shown only later.

The commitment is rules/sealed.py's: SHA-256 over (session, step, player, choice, nonce), with the
event's id as the session, `LIST_STEP` as the step, and as the choice the faction and the SHA-256
of the list's text: `"<faction>|<sha256 of the text>"`. The list itself can be longer than any
Discord message or command option (`MAX_LIST_CHARS`), so it is revealed as a file (its bytes are
`normalise_list(text)` in UTF-8): anyone can hash the file (`sha256sum list.txt`) and check the
revealed commitment with `/verify` (game = event id, step = `list`, choice = `faction|digest`).
"""

from __future__ import annotations

import hashlib

from rules.errors import RuleError
from rules.sealed import commitment, verify

MAX_LIST_CHARS = 10_000  # longer than a message: shown in pages or as a file
MAX_FACTION_CHARS = 60
MAX_REASON_CHARS = 300  # an organiser's reason for rejecting a list
LIST_STEP = "list"


def normalise_list(text: str) -> str:
    """The text as sealed: line ends as `\\n`, no blank edges (a pasted list and a file agree)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def list_digest(text: str) -> str:
    """SHA-256 (hex) of the list's text as sealed."""
    return hashlib.sha256(normalise_list(text).encode("utf-8")).hexdigest()


def list_choice(faction: str, text: str) -> str:
    """What the commitment seals: `faction|digest` (short enough for /verify's choice option)."""
    return f"{faction.strip()}|{list_digest(text)}"


def check_list(faction: str, text: str) -> tuple[str, str]:
    """(faction, text) tidied, or a refusal: `event.faction_missing`, `event.faction_long` (limit),
    `event.list_empty`, `event.list_too_long` (limit, length). Never echoes the list."""
    faction = " ".join(faction.replace("|", "/").split())  # `|` separates the sealed choice's parts
    if not faction:
        raise RuleError(code="event.faction_missing")
    if len(faction) > MAX_FACTION_CHARS:
        raise RuleError(code="event.faction_long", limit=MAX_FACTION_CHARS)
    text = normalise_list(text)
    if not text:
        raise RuleError(code="event.list_empty")
    if len(text) > MAX_LIST_CHARS:
        raise RuleError(code="event.list_too_long", limit=MAX_LIST_CHARS, length=len(text))
    return faction, text


def check_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise RuleError(code="event.reason_missing")
    if len(reason) > MAX_REASON_CHARS:
        raise RuleError(code="event.reason_long", limit=MAX_REASON_CHARS)
    return reason


def seal_list(event_id: str, player: int, faction: str, text: str, nonce: str) -> str:
    """The commitment (hex SHA-256) to `player`'s list for `event_id`."""
    return commitment(event_id, LIST_STEP, player, list_choice(faction, text), nonce)


def verify_list(event_id: str, player: int, faction: str, text: str, nonce: str, digest: str) -> bool:
    """Whether the revealed list (faction, text, nonce) is the one `digest` sealed."""
    return verify(event_id, LIST_STEP, player, list_choice(faction, text), nonce, digest)
