"""Kill Team matched play: the eleven-step pre-game sequence, Tac Ops and scoring, as pure rules."""

from rules.confirmation import ConfirmPending
from rules.killteam.actions import (
    ACTION_ADAPTER,
    Choose,
    Done,
    EndGame,
    EndTurningPoint,
    KillTeamAction,
    RevealTacOp,
    Score,
    SealBid,
    SealScouting,
    SetBattleReady,
)
from rules.killteam.hand import supported_methods
from rules.killteam.models import KillTeamState, PreviousGame
from rules.killteam.pack import KillTeamPack, PackError, TacOp, load_default_pack, parse_pack
from rules.killteam.private import private_prompt
from rules.killteam.procedure import PROCEDURE, start, step
from rules.killteam.prompts import prompt
from rules.killteam.questions import awaiting, prompt_for, questions
from rules.killteam.views import PrivateView, Scoreboard, private_view, scoreboard

__all__ = [
    "ACTION_ADAPTER",
    "PROCEDURE",
    "Choose",
    "ConfirmPending",
    "Done",
    "EndGame",
    "EndTurningPoint",
    "KillTeamAction",
    "KillTeamPack",
    "KillTeamState",
    "PackError",
    "PreviousGame",
    "PrivateView",
    "RevealTacOp",
    "Score",
    "Scoreboard",
    "SealBid",
    "SealScouting",
    "SetBattleReady",
    "TacOp",
    "awaiting",
    "load_default_pack",
    "parse_pack",
    "private_prompt",
    "private_view",
    "prompt",
    "prompt_for",
    "questions",
    "scoreboard",
    "start",
    "step",
    "supported_methods",
]
