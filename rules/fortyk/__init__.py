"""The 40K mission procedure ("fortyk"): missions as data, a state machine, and views for the bot."""

from rules.fortyk.actions import FortyKAction
from rules.fortyk.buttons import action_for_button, prompt
from rules.fortyk.mission import Mission, Pack, PackError, builtin_mission, builtin_pack, parse_pack
from rules.fortyk.models import FortyKState, Phase
from rules.fortyk.procedure import PROCEDURE, awaiting, parse_action, start, step
from rules.fortyk.questions import ask, parse_unit_list, questions, to_action
from rules.fortyk.units import known_units
from rules.fortyk.views import scoreboard, unit_suggestions

__all__ = [
    "PROCEDURE",
    "FortyKAction",
    "FortyKState",
    "Mission",
    "Pack",
    "PackError",
    "Phase",
    "action_for_button",
    "ask",
    "awaiting",
    "builtin_mission",
    "builtin_pack",
    "known_units",
    "parse_action",
    "parse_pack",
    "parse_unit_list",
    "prompt",
    "questions",
    "scoreboard",
    "start",
    "step",
    "to_action",
    "unit_suggestions",
]
