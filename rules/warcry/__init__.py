"""Warcry: battleplans, the generator decks, warband and battle-group checks, and a tracked battle."""

from rules.warcry.models import WarcryState
from rules.warcry.pack import PackError, core_pack, parse_pack
from rules.warcry.procedure import PROCEDURE, awaiting, step
from rules.warcry.setup import start

__all__ = ["PROCEDURE", "PackError", "WarcryState", "awaiting", "core_pack", "parse_pack", "start", "step"]
