"""A Warcry battle round's start and end: reserves arriving, the round's scoring, the Hidden
Vault's removals, the victory card judged at the end of the last round (and of the one extra round
of a tie), the last warband standing, and the result."""

from __future__ import annotations

from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event, GameOutcome, SideResult
from rules.warcry import actions as act
from rules.warcry.battlegroups import GROUP_TITLES
from rules.warcry.battleplans import shown_roll_off
from rules.warcry.events import Notice, Verdict
from rules.warcry.guards import require_battle, require_known_player
from rules.warcry.models import Result, RoundRecord, WarcryState
from rules.warcry.wording import listed, reason, result
from rules.words import Marker, Words

N_ = Marker("warcry")


def start_round(state: WarcryState, number: int, events: list[Event]) -> Result:
    plan = state.plan()
    state = state.model_copy(
        update={
            "round": number,
            "round_ended": False,
            "blood": {},
            "initiative": None,
            "awakened_this_round": None,
        }
    )
    events.append(Notice(code="round_start", text=_round_begins(number, plan.rounds)))
    arriving = "RND2" if number == 2 else "RND3" if number == 3 else None
    for reserve in state.deployment:
        if arriving and reserve.arrival == arriving:
            events.append(
                Notice(
                    code="reserve_arrives",
                    who={"player": reserve.player},
                    text=N_(
                        "{player}'s {group} arrives from reserve this round ({arrival}).",
                        group=GROUP_TITLES[reserve.group],
                        arrival=arriving,
                    ),
                )
            )
    return state, events


def _round_begins(number: int, rounds: int) -> Words:
    if number <= rounds:
        return N_("Battle round {round} begins.", round=number)
    if number == rounds + 1:
        return N_("Battle round {round} begins (an extra round: the battle is tied).", round=number)
    return N_("Battle round {round} begins (the last warband standing decides).", round=number)


def check_end_round(state: WarcryState, action: act.EndRound) -> None:
    require_battle(state)
    if action.round != state.round or state.round_ended:
        over = action.round < state.round or state.round_ended
        raise RuleError(
            code="warcry.round_over" if over else "warcry.round_not_yet", round=action.round, now=state.round
        )
    if state.last_warband_claim is not None:
        raise RuleError(code="warcry.claim_pending", player=state.last_warband_claim)


def end_round(state: WarcryState, action: act.EndRound, roller: Roller) -> Result:
    """The round ends (once confirmed): score it, and judge the battle where the rules say so."""
    check_end_round(state, action)
    plan = state.plan()
    scored, events = _score_round(state)
    vp = {p: state.vp.get(p, 0) + scored.get(p, 0) for p in state.players}
    record = RoundRecord(
        number=state.round,
        blood=dict(state.blood),
        scored=scored,
        initiative=state.initiative,
        awakened=state.awakened_this_round,
    )
    blood_total = {p: state.blood_total.get(p, 0) + state.blood.get(p, 0) for p in state.players}
    state = state.model_copy(
        update={"vp": vp, "history": [*state.history, record], "blood_total": blood_total}
    )
    events.insert(0, Notice(code="round_end", text=N_("Battle round {round} ends.", round=state.round)))
    if plan.scoring == "hidden_vault" and state.round in (1, 2) and len(state.objectives) > 1:
        return _vault_removal(state, events, roller)
    if plan.rounds <= state.round <= plan.rounds + 1:
        return _judge(state, events)
    return start_round(state, state.round + 1, events)


def _score_round(state: WarcryState) -> tuple[dict[int, int], list[Event]]:
    """The victory points the round scores (Reaper, Ley Lines), and what says so. Once the last
    warband standing decides, the victory card is not checked again, so nothing scores."""
    scoring = None if state.last_warband_decides else state.plan().scoring
    scored: dict[int, int] = {}
    events: list[Event] = []
    if scoring == "reaper":
        a, b = (state.blood.get(p, 0) for p in state.players)
        if a != b:
            top = state.players[0] if a > b else state.players[1]
            scored[top] = 1
            events.append(
                Notice(
                    code="blood_scored",
                    who={"player": top},
                    text=N_(
                        "Blood tallies {first} – {second}: {player} scores 1 victory point.",
                        first=a,
                        second=b,
                    ),
                )
            )
        else:
            events.append(
                Notice(code="blood_level", text=N_("Blood tallies level at {tally}: nobody scores.", tally=a))
            )
    elif scoring == "ley_lines":
        for player in state.players:
            held = [o for o in state.awakened if state.control.get(o) == player]
            if held:
                scored[player] = len(held)
                events.append(
                    Notice(
                        code="ley_scored",
                        who={"player": player},
                        text=N_.n(
                            "{player} scores {count} victory point (awakened objectives {objectives}).",
                            "{player} scores {count} victory points (awakened objectives {objectives}).",
                            len(held),
                            objectives=listed(held),
                        ),
                    )
                )
        if not scored:
            events.append(
                Notice(code="ley_none", text=N_("Nobody controls an awakened objective: no points."))
            )
    return scored, events


def _vault_removal(state: WarcryState, events: list[Event], roller: Roller) -> Result:
    """Hidden Vault, after rounds 1 and 2: the roll-off winner, then the other player, removes an
    objective before the next round begins."""
    if state.round == 1:
        roll = shown_roll_off(roller, state.players, "Hidden Vault roll-off")
        remover, first = roll.winner, roll.winner
        events.append(
            Notice(
                code="vault_roll",
                roll_off=roll,
                who={"player": remover},
                text=N_("{player} wins the roll-off and removes one objective from play."),
            )
        )
    else:
        first = state.vault_first if state.vault_first is not None else state.players[0]
        remover = state.opponent(first)
        events.append(
            Notice(
                code="vault_turn",
                who={"player": remover},
                text=N_("{player}, remove one objective from play."),
            )
        )
    state = state.model_copy(update={"removal_by": remover, "vault_first": first, "round_ended": True})
    return state, events


def last_warband(state: WarcryState, action: act.DeclareLastWarband, roller: Roller) -> Result:
    require_battle(state)
    require_known_player(state, action.player)
    if not state.extra_rounds:
        raise RuleError(code="warcry.last_warband_extra_only")
    if action.player != action.actor:
        text = N_("{actor} declares that only {player}'s fighters are left on the battlefield.")
        who = {"actor": action.actor, "player": action.player}
        events: list[Event] = [Notice(code="last_warband_declared", who=who, text=text)]
        return finish(state, action.player, Verdict(code="last_warband"), events)
    state = state.model_copy(update={"last_warband_claim": action.actor})
    return state, [
        Notice(
            code="last_warband_claim",
            who={"player": action.actor, "other": state.opponent(action.actor)},
            text=N_(
                "{player} says only their fighters are left on the battlefield. {other}, confirm or reject."
            ),
        )
    ]


def answer_last_warband(state: WarcryState, action: act.AnswerLastWarband, roller: Roller) -> Result:
    claimant = state.last_warband_claim
    if claimant is None:
        raise RuleError(code="warcry.no_claim")
    if action.actor == claimant:
        raise RuleError(code="warcry.own_claim", player=state.opponent(claimant))
    state = state.model_copy(update={"last_warband_claim": None})
    if not action.accept:
        return state, [
            Notice(
                code="last_warband_rejected",
                who={"player": action.actor},
                text=N_("{player} rejects the claim; the battle goes on."),
            )
        ]
    return finish(
        state,
        claimant,
        Verdict(code="last_warband"),
        [
            Notice(
                code="last_warband_confirmed",
                who={"player": claimant, "actor": action.actor},
                text=N_("{actor} confirms that only {player}'s fighters are left."),
            )
        ],
    )


def judge(state: WarcryState) -> tuple[int | None, dict[int, int], Verdict]:
    """Who achieves the victory condition now, each side's measure, and why (as a code and values)."""
    plan = state.plan()
    a, b = state.players
    scoring = plan.scoring

    def higher(values: dict[int, int], measure: str) -> tuple[int | None, dict[int, int], Verdict]:
        scores = {p: values.get(p, 0) for p in state.players}
        if scores[a] == scores[b]:
            return None, scores, Verdict(code="level", values={"measure": measure, "count": scores[a]})
        top = a if scores[a] > scores[b] else b
        counts = {"measure": measure, "count": scores[top], "other": scores[state.opponent(top)]}
        return top, scores, Verdict(code="most", values=counts)

    def holder(player: int | None, held: str, nobody: str) -> tuple[int | None, dict[int, int], Verdict]:
        scores = {p: int(p == player) for p in state.players}
        return player, scores, Verdict(code=held if player is not None else nobody)

    if scoring == "treasure_hunters":
        return higher(state.carrying, "treasure")
    if scoring == "cursed_relic":
        if state.carrier is not None:
            return holder(state.carrier, "relic_carried", "relic_carried")
        return higher(state.near, "near")
    if scoring == "no_quarter":
        return higher(state.quarters, "quarters")
    if scoring in ("reaper", "ley_lines"):
        return higher(state.vp, "vp")
    if scoring == "hidden_vault":
        held = state.control.get(state.objectives[0]) if len(state.objectives) == 1 else None
        return holder(held, "vault_held", "vault_nobody")
    if scoring == "cursed_prize":
        return holder(state.carrier, "prize_carried", "prize_nobody")
    if scoring == "altar_of_ascendancy":
        scores = {p: state.on_altar.get(p, 0) for p in state.players}
        holders = [p for p in state.players if scores[p] > 0]
        if len(holders) == 1:
            return holders[0], scores, Verdict(code="altar_alone")
        return None, scores, Verdict(code="altar_both" if holders else "altar_empty")
    if scoring == "brutal_conquest":
        standing = {p: c.tally for p, c in state.champions.items() if c.on_battlefield}
        scores = {p: standing.get(p, 0) for p in state.players}
        if not standing:
            return None, scores, Verdict(code="no_champion")
        best = max(standing.values())
        leaders = [p for p, t in standing.items() if t == best]
        if len(leaders) > 1:
            return None, scores, Verdict(code="champions_level", values={"best": best})
        return leaders[0], scores, Verdict(code="champion_highest", values={"best": best})
    return holder(state.condition_met_by, "condition_met", "condition_nobody")


def evaluate(state: WarcryState) -> tuple[int | None, dict[int, int], str]:
    """Who achieves the victory condition now, each side's measure, and why (in English)."""
    winner, scores, verdict = judge(state)
    return winner, scores, str(reason(verdict))


def _judge(state: WarcryState, events: list[Event]) -> Result:
    """Check the victory card at the end of the battleplan's last round and of the one extra round only."""
    plan = state.plan()
    winner, _, verdict = judge(state)
    if winner is not None:
        return finish(state, winner, verdict, events)
    if plan.otherwise_draw:
        return finish(state, None, verdict.model_copy(update={"draw_rule": True}), events)
    why = reason(verdict)
    if state.extra_rounds:
        events.append(
            Notice(
                code="last_warband_decides",
                text=N_(
                    "Still nobody has won after the extra round ({reason}): the battle goes on, round after "
                    "round, until only one player's fighters are left on the battlefield; that player wins.",
                    reason=why,
                ),
            )
        )
        return start_round(state, state.round + 1, events)
    events.append(
        Notice(
            code="tied",
            text=N_(
                "Nobody has won yet ({reason}): the battle goes on for another battle round.", reason=why
            ),
        )
    )
    return start_round(state, state.round + 1, events)


def finish(state: WarcryState, winner: int | None, verdict: Verdict, events: list[Event]) -> Result:
    plan = state.plan()
    _, scores, _ = judge(state)
    summary = result(plan.name, state.round, winner is not None, verdict)
    outcome = GameOutcome(
        sides=[SideResult(player=p, score=scores.get(p, 0)) for p in state.players],
        winner=winner,
        mission=plan.name,
        summary=str(summary),
    )
    state = state.model_copy(
        update={
            "finished": True,
            "outcome": outcome,
            "verdict": verdict,
            "phase": "finished",
            "last_warband_claim": None,
        }
    )
    if winner is None:
        events.append(Notice(code="finished", text=N_("The battle is a draw: {summary}", summary=summary)))
    else:
        text = N_("{winner} wins: {summary}", summary=summary)
        events.append(Notice(code="finished", who={"winner": winner}, text=text))
    return state, events
