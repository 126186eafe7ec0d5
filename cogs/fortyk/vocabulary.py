"""The 40K mission's names shown to players: the built-in deployment zones, the victory-condition
tiers, the set-up stages and the players themselves (as mentions, which the table shows in embeds so
they name players without pinging them). A server's own pack names its zones and tiers as it likes,
shown as written (the rules word the zones and tiers: rules/fortyk/mission.py).
"""

from __future__ import annotations

from bot.lang.i18n import Domain, say
from rules.fortyk.mission import tier_words, zone_words
from rules.fortyk.models import Phase

_ = Domain("fortyk")


def zone_name(name: str) -> str:
    """A deployment zone as the reader calls it (a built-in zone translated, a pack's as written)."""
    return say(zone_words(name))


def tier_name(tier: str) -> str:
    return say(tier_words(tier))


def who(player: int | None) -> str:
    return f"<@{player}>" if player is not None else _("nobody")


SETUP_STAGES: dict[Phase, str] = {
    Phase.DEPLOYMENT_ROLL: _.mark("the deployment roll-off"),
    Phase.CHOOSE_ZONE: _.mark("choosing the deployment zones"),
    Phase.DEPLOYING: _.mark("deploying the armies"),
    Phase.FIRST_TURN_ROLL: _.mark("the first-turn roll-off"),
    Phase.CHOOSE_ORDER: _.mark("choosing who goes first"),
    Phase.SEIZE: _.mark("seizing the initiative"),
}
"""Where the set-up is, in English: translate with `_(SETUP_STAGES[phase])` where shown."""
