"""Pick's names shown to players: a player, and a pack as a server reads it."""

from __future__ import annotations

from bot.lang.i18n import Domain
from rules.pick.models import LOWEST, PickPack

_ = Domain("pick")

TITLE = "Pick"
"""The game's name: a proper name, the same in every language."""


def mention(player: int) -> str:
    return f"<@{player}>"


def pack_line(pack: PickPack) -> str:
    """'Classic: pick a number from 1 to 3.'"""
    return _("{name}: pick a number from {low} to {high}.", name=pack.name, low=LOWEST, high=pack.highest)
