"""The checks every Warcry step makes before it changes anything: the phase, the battleplan's
scoring, the players and objectives it names. Each refuses with a code the bot words."""

from __future__ import annotations

from rules.errors import RuleError
from rules.text import echo
from rules.warcry.battleplans import BattleplanInPlay
from rules.warcry.models import Champion, Phase, WarcryState
from rules.warcry.pack import Scoring
from rules.warcry.wording import listed


def require_phase(state: WarcryState, phase: Phase, code: str) -> None:
    if state.phase != phase:
        raise RuleError(code=code)


def require_battle(state: WarcryState) -> None:
    if state.phase != "battle":
        raise RuleError(code="warcry.battle_only")


def require_round_open(state: WarcryState) -> None:
    if state.round_ended:
        raise RuleError(code="warcry.round_ended", round=state.round)


def require_scoring(state: WarcryState, allowed: set[Scoring], what: str) -> BattleplanInPlay:
    """Refuse a tally the battleplan doesn't keep, saying what decides it instead (`decided_by.<scoring>`),
    and every tally once the last warband standing decides, since the victory card is not checked again."""
    require_battle(state)
    plan = state.plan()
    if plan.scoring not in allowed:
        raise RuleError(code=f"warcry.decided_by.{plan.scoring}", battleplan=plan.name, asked=what)
    if state.last_warband_decides:
        raise RuleError(code="warcry.last_warband_decides", round=state.round)
    return plan


def require_known_player(state: WarcryState, player: int) -> None:
    if player not in state.players:
        raise RuleError(code="warcry.not_a_player")


def require_at_most(count: int, limit: int) -> None:
    if count > limit:
        raise RuleError(code="warcry.too_many_fighters", limit=limit, count=count)


def objective_in_play(state: WarcryState, name: str) -> str:
    wanted = name.strip().casefold()
    for objective in state.objectives:
        if objective.casefold() == wanted:
            return objective
    raise RuleError(code="warcry.no_objective", name=echo(name, 40), in_play=listed(state.objectives))


def champion_on_field(state: WarcryState, player: int) -> Champion:
    require_known_player(state, player)
    champion = state.champions.get(player)
    if champion is None or not champion.on_battlefield:
        raise RuleError(code="warcry.no_champion", player=player)
    return champion
