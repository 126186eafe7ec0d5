"""Warcry: battleplans, the generator decks, warband and battle-group checks, and a tracked battle."""

from rules.warcry.battle import WarcryState, awaiting, start, step
from rules.warcry.pack import PackError, core_pack, parse_pack
from rules.warcry.procedure import PROCEDURE

__all__ = ["PROCEDURE", "PackError", "WarcryState", "awaiting", "core_pack", "parse_pack", "start", "step"]
