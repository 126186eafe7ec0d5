"""The 40K mission's names shown to players: the built-in deployment zones, the victory-condition
tiers, the set-up stages and the players themselves (as mentions, which the table shows in embeds so
they name players without pinging them). A server's own pack names its zones and tiers as it likes,
shown as written.
"""

from __future__ import annotations

from bot.lang.i18n import Domain
from rules.fortyk.models import Phase

_ = Domain("fortyk")

# The built-in mission's zones and victory-condition tiers are plain words, translated where they are
# shown; a server's own pack names its zones and tiers as it likes, shown as written.
ZONES = frozenset(
    {
        _.mark("North-west quarter"),
        _.mark("South-east quarter"),
        _.mark("North-east quarter"),
        _.mark("South-west quarter"),
    }
)
TIERS = frozenset({_.mark("Primary"), _.mark("Secondary"), _.mark("Tertiary"), _.mark("Quaternary")})


def zone_name(name: str) -> str:
    """A deployment zone as the reader calls it (a built-in zone translated, a pack's as written)."""
    return _(name) if name in ZONES else name


def tier_name(tier: str) -> str:
    return _(tier) if tier in TIERS else tier


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
