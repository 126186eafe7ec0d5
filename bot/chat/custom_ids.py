"""The one encoding of a component's custom_id (at most 100 characters), and its parsing.

A question's components carry the session, the question's step id and the option's value, so a
click after a restart, or on a message the game has moved past, is still understood (and refused
as stale by the rules' `check_answer`, never applied to the current question):

- `q:<session>:<step>:<value>`   a button answering `step` with `value`
- `qf:<session>:<step>:<value>`  a button that first opens the form of `value` (or the number field)
- `qs:<session>:<step>`          a select answering `step` with the picked values
- `qm:<session>:<step>:<value>`  the modal a `qf` button or a select's form opened
- `qp:<session>:<step>`          a menu of questions (the first one's step): shows the one picked
- `p:<session>:<user>`           "Open my secret prompt", the stand-in for a refused DM

Step and value are limited by `rules.session` to 40 characters of `[A-Za-z0-9_.-]`, so the longest
id is 2 + 1 + 12 + 1 + 40 + 1 + 40 = 97 characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SID = r"(?P<sid>[0-9a-f]{12})"
STEP = r"(?P<step>[A-Za-z0-9_.\-]{1,40})"
VALUE = r"(?P<value>[A-Za-z0-9_.\-]{1,40})"

BUTTON = re.compile(rf"q(?P<form>f?):{SID}:{STEP}:{VALUE}")
SELECT = re.compile(rf"qs:{SID}:{STEP}")
PICK = re.compile(rf"qp:{SID}:{STEP}")
MODAL = re.compile(rf"qm:{SID}:{STEP}:{VALUE}")
PROMPT = re.compile(rf"p:{SID}:(?P<user>\d{{1,20}})")

ROUTED = re.compile(r"(q|qf|qs|qm|qp|p):")  # a button with its own custom_id must not start so

NUMBER_VALUE = "n"  # the value a number question's button carries
DONE_VALUE = "ok"  # the value a `done` question's button carries


@dataclass(frozen=True)
class QuestionId:
    """What a question component's custom_id says."""

    session_id: str
    step: str
    value: str = ""


def button(session_id: str, step: str, value: str, opens_form: bool = False) -> str:
    return f"{'qf' if opens_form else 'q'}:{session_id}:{step}:{value}"


def select(session_id: str, step: str) -> str:
    return f"qs:{session_id}:{step}"


def pick(session_id: str, step: str) -> str:
    return f"qp:{session_id}:{step}"


def modal(session_id: str, step: str, value: str) -> str:
    return f"qm:{session_id}:{step}:{value}"


def prompt(session_id: str, user_id: int) -> str:
    return f"p:{session_id}:{user_id}"


def parse_modal(custom_id: str) -> QuestionId | None:
    match = MODAL.fullmatch(custom_id)
    return QuestionId(match["sid"], match["step"], match["value"]) if match else None
