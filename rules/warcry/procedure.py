"""Warcry's procedure: the battle's steps (`battle`) with the questions asked about them (`questions`).

Its own module because the questions read the battle's state model: `battle` cannot import
`questions` back, so the two meet here, and imports go one way."""

from __future__ import annotations

from rules.session import Procedure
from rules.warcry.battle import SYSTEM, WarcryState, awaiting, step
from rules.warcry.questions import ask, to_action

PROCEDURE: Procedure[WarcryState] = Procedure(
    SYSTEM, WarcryState, step, awaiting, ask=ask, to_action=to_action
)
