"""Plain-text cutting shared by every game and the bot: one clip, one list fit, one echo.

Pure string work with no idea of where the text goes; the callers pass the sizes they need.
"""

from __future__ import annotations

from collections.abc import Sequence

ELLIPSIS = "…"
ECHO_CHARS = 100
"""How much of a user's own input a refusal repeats: enough to recognise it, short enough to read."""


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when anything was cut."""
    if limit <= 0:
        return ""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def clip_start(text: str, limit: int) -> str:
    """`text` cut from its start to `limit` characters: for a log whose latest lines matter most."""
    if limit <= 0:
        return ""
    return text if len(text) <= limit else ELLIPSIS + text[len(text) - limit + 1 :]


def fit_lines(lines: Sequence[str], limit: int, *, more: str = "…and {n} more") -> str:
    """As many whole lines as fit in `limit`, then a note of how many were left out."""
    clipped = [clip(line, limit) for line in lines]
    whole = "\n".join(clipped)
    if not whole.strip():
        return "—"  # Discord refuses an empty or blank field value
    if len(whole) <= limit:
        return whole
    # prefix[k]: length of the first k lines joined, each followed by a newline.
    prefix = [0]
    for line in clipped:
        prefix.append(prefix[-1] + len(line) + 1)
    for keep in range(len(clipped) - 1, 0, -1):
        note = more.format(n=len(clipped) - keep)
        if prefix[keep] + len(note) <= limit:
            return "\n".join([*clipped[:keep], note])
    return clip(more.format(n=len(clipped)), limit)


def echo(value: str, limit: int = ECHO_CHARS) -> str:
    """A user's input as one short line that is safe between backticks.

    Refusals repeat what was typed so the user sees what was not understood; a pasted essay, line
    breaks or a stray backtick would make that repeat unreadable or break the code span around it.
    """
    return clip(" ".join(value.replace("`", "ˋ").split()), limit)
