"""The battle: beginning it, recording what was destroyed, and scoring the game at its end."""

from __future__ import annotations

from rules.errors import RuleError
from rules.session import Event, GameOutcome, SideResult
from rules.warmaster.actions import (
    BeginBattle,
    FinishGame,
    RecordLoss,
)
from rules.warmaster.card_phase import turn_up
from rules.warmaster.events import (
    BattleBegun,
    GameFinished,
    LossRecorded,
    SideVp,
    VpSummary,
)
from rules.warmaster.labels import target_values
from rules.warmaster.models import LossRecord, Phase, RevealReason, WarmasterState
from rules.warmaster.targeting import all_targets, cards_on, resolve_target
from rules.warmaster.targets import (
    LOSABLE_KINDS,
)

MAX_UNIT_POINTS = 10_000


def begin(state: WarmasterState, action: BeginBattle) -> tuple[WarmasterState, list[Event]]:
    if state.phase is not Phase.CARDS:
        raise RuleError(code="warmaster.already_begun")
    if state.turn is not None:
        raise RuleError(code="warmaster.cards_still_laid", player=state.turn)
    return state.model_copy(update={"phase": Phase.BATTLE}), [BattleBegun()]


def record_loss(state: WarmasterState, action: RecordLoss) -> tuple[WarmasterState, list[Event]]:
    if state.phase is not Phase.BATTLE:
        raise RuleError(code="warmaster.losses_before_battle")
    if not 1 <= action.base_points <= MAX_UNIT_POINTS:
        raise RuleError(code="warmaster.unit_points", points=action.base_points, maximum=MAX_UNIT_POINTS)
    target, is_new = resolve_target(state, action.actor, action.target, for_play=False)
    if target.kind not in LOSABLE_KINDS or target.owner is None:
        raise RuleError(code="warmaster.not_losable", **target_values(target))
    if any(loss.target_key == target.key for loss in state.losses):
        raise RuleError(code="warmaster.already_lost", **target_values(target))
    if is_new:
        state = state.model_copy(update={"targets": [*state.targets, target]})
    on_it = cards_on(state, target.key)
    state, events = turn_up(state, {c.placement for c in on_it}, RevealReason.LOST)
    costs = sum(c.held.card.value for c in on_it)
    adjusted = action.base_points + costs
    vp = max(0, adjusted) + sum(c.held.card.vp_if_lost for c in on_it)
    to_player = state.opponent(target.owner)
    record = LossRecord(
        target_key=target.key,
        owner=target.owner,
        base_points=action.base_points,
        card_costs=costs,
        adjusted=adjusted,
        vp=vp,
        to_player=to_player,
        recorded_by=action.actor,
    )
    state = state.model_copy(update={"losses": [*state.losses, record]})
    events.append(
        LossRecorded(
            target=target,
            base_points=action.base_points,
            card_costs=costs,
            adjusted=adjusted,
            vp=vp,
            to_player=to_player,
        )
    )
    return state, events


def vp_summary(state: WarmasterState) -> VpSummary:
    """Each side's VP from the adjusted values of what it destroyed; survival bonuses once the game ends."""
    final = state.phase is Phase.OVER
    lost_keys = {loss.target_key for loss in state.losses}
    owners = {t.key: t.owner for t in all_targets(state)}
    sides: list[SideVp] = []
    for player in state.players:
        earned = [loss for loss in state.losses if loss.to_player == player]
        bonus = 0
        if final:
            bonus = sum(
                c.held.card.vp_if_survives
                for c in state.laid
                if c.target_key not in lost_keys and owners.get(c.target_key) == player
            )
        from_losses = sum(loss.vp for loss in earned)
        sides.append(
            SideVp(
                player=player,
                from_losses=from_losses,
                survival_bonus=bonus,
                total=from_losses + bonus,
                destroyed=len(earned),
            )
        )
    return VpSummary(sides=sides, final=final)


def finish(state: WarmasterState, action: FinishGame) -> tuple[WarmasterState, list[Event]]:
    if state.phase is not Phase.BATTLE:
        raise RuleError(code="warmaster.battle_not_begun")
    hidden = {c.placement for c in state.laid if not c.face_up}
    state, events = turn_up(state, hidden, RevealReason.GAME_END)
    state = state.model_copy(update={"phase": Phase.OVER})
    summary = vp_summary(state)
    a, b = summary.sides
    winner = None if a.total == b.total else (a.player if a.total > b.total else b.player)
    outcome = GameOutcome(
        sides=[SideResult(player=s.player, score=s.total) for s in summary.sides],
        winner=winner,
        summary=f"{a.total} VP to {b.total} VP" + (", a draw" if winner is None else ""),
    )
    state = state.model_copy(update={"finished": True, "outcome": outcome})
    events.append(GameFinished(summary=summary, outcome=outcome))
    return state, events
