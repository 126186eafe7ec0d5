"""Warmaster's procedure: the game's steps (`game`) with the questions asked about them (`questions`).

Its own module because the questions read the game's legal plays: `game` cannot import `questions`
back, so the two meet here, and imports go one way."""

from __future__ import annotations

from rules.session import Procedure
from rules.warmaster.game import awaiting, step
from rules.warmaster.models import SYSTEM, WarmasterState
from rules.warmaster.questions import ask, to_action

PROCEDURE: Procedure[WarmasterState] = Procedure(
    SYSTEM, WarmasterState, step, awaiting, ask=ask, to_action=to_action
)
