"""Read-only views of a battle for the board: what the battle waits for now (`prompt`), who may do
what, and the scoreboard (`scoreboard`), each worded once as `Words` for every language."""

from __future__ import annotations

from collections.abc import Callable

from rules.warcry.battlegroups import GROUP_TITLES
from rules.warcry.models import WarcryState
from rules.warcry.pack import Scoring
from rules.warcry.wording import joined, listed, objective, pending_title, summary
from rules.words import Marker, Words

N_ = Marker("warcry")

NameOf = Callable[[int], str]

SCORING_ACTIONS: dict[Scoring, list[str]] = {
    "treasure_hunters": ["treasure"],
    "cursed_relic": ["carrier", "near", "carrier_damage"],
    "no_quarter": ["quarters"],
    "reaper": ["blood"],
    "ley_lines": ["awaken", "control"],
    "hidden_vault": ["control"],
    "cursed_prize": ["carrier"],
    "altar_of_ascendancy": ["altar"],
    "brutal_conquest": ["champion", "champion_tally", "champion_down"],
    "manual": ["condition"],
}


def legal_actions(state: WarcryState, player: int) -> list[str]:
    """The kinds of action `player` may take now (each may still be refused for its values)."""
    if state.finished or player not in state.players:
        return []
    plan = state.battleplan
    placing = plan is not None and (plan.objectives > 0 or plan.treasure > 0)
    if state.phase == "battle_groups":
        first = state.loser_of_priority
        turn = first if first not in state.splits else state.winner_of_priority
        return ["split"] if player == turn and player not in state.splits else []
    extras = ["blocked_objective"] if placing else []
    if state.phase == "colours":
        return (["colour"] if player == state.winner_of_priority else []) + extras
    if state.phase == "deployment":
        current = next((s for s in state.deployment if not s.done), None)
        mine = ["deploy"] if current is not None and current.player == player else []
        return mine + extras
    if state.phase == "objectives":
        return ["begin", *extras]
    assert plan is not None
    if state.pending is not None:
        return ["confirm"]
    if state.removal_by is not None:
        return ["remove"] if player == state.removal_by else []
    if state.last_warband_claim is not None:
        return ["answer_last_warband"] if player != state.last_warband_claim else []
    if state.last_warband_decides:
        return ["end_round", "last_warband"]
    kinds = ["end_round", "initiative"] if plan.scoring == "ley_lines" else ["end_round"]
    for kind in SCORING_ACTIONS[plan.scoring]:
        if kind == "awaken" and (
            state.initiative is None or state.initiative == player or state.awakened_this_round is not None
        ):
            continue
        if kind == "carrier_damage" and state.carrier is None:
            continue
        kinds.append(kind)
    if state.extra_rounds:
        kinds.append("last_warband")
    return kinds


def dormant_objectives(state: WarcryState) -> list[str]:
    return [o for o in state.objectives if o not in state.awakened]


def prompt(state: WarcryState, name_of: NameOf) -> Words:
    """One line: what the battle waits for now (players named by `name_of`, as they are shown)."""
    if state.finished:
        return summary(state)
    if state.phase == "battle_groups":
        turn = (
            state.loser_of_priority
            if state.loser_of_priority not in state.splits
            else state.winner_of_priority
        )
        return N_("{player}, split your warband into Dagger, Shield and Hammer.", player=name_of(turn))
    if state.phase == "colours":
        return N_("{player}, choose red or blue deployment points.", player=name_of(state.winner_of_priority))
    if state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        return N_(
            "{player}, set up your {group}.",
            player=name_of(current.player),
            group=GROUP_TITLES[current.group],
        )
    if state.phase == "objectives":
        return N_("Place the objectives and treasure, then press Begin battle.")
    if state.pending is not None:
        by = state.pending.by
        return N_(
            "{title} {other} confirms, or {by} confirms their own.",
            title=pending_title(state, state.pending.action),
            other=name_of(state.opponent(by)),
            by=name_of(by),
        )
    if state.removal_by is not None:
        return N_("{player}, remove one objective from play.", player=name_of(state.removal_by))
    if state.last_warband_claim is not None:
        claimant = state.last_warband_claim
        return N_(
            "{player}, confirm or reject the claim that only {claimant}'s fighters are left.",
            player=name_of(state.opponent(claimant)),
            claimant=name_of(claimant),
        )
    return _round_heading(state, _round_hint(state, name_of))


def _round_heading(state: WarcryState, hint: Words) -> Words:
    rounds = state.plan().rounds
    if state.round == rounds + 1:
        return N_(
            "Battle round {round} (an extra round: the battle is tied): {hint}", round=state.round, hint=hint
        )
    if state.round > rounds + 1:
        return N_(
            "Battle round {round} (the last warband standing decides): {hint}", round=state.round, hint=hint
        )
    return N_("Battle round {round}: {hint}", round=state.round, hint=hint)


ROUND_HINTS: dict[Scoring, Words] = {
    "treasure_hunters": N_("keep the count of fighters carrying treasure up to date, then end the round."),
    "cursed_relic": N_(
        "record who carries the relic (roll its D6 damage after the carrier's activation) "
        'and the fighters within 3", then end the round.'
    ),
    "no_quarter": N_("keep the count of quarters each player holds up to date, then end the round."),
    "reaper": N_("enter each player's blood tally for this round, then end the round."),
    "hidden_vault": N_("record who controls each objective, then end the round."),
    "cursed_prize": N_("record who carries the prize, then end the round."),
    "altar_of_ascendancy": N_("keep the count of fighters on the altar up to date, then end the round."),
    "brutal_conquest": N_("name great champions and add to their tallies, then end the round."),
    "manual": N_("record who has achieved the victory card's condition, then end the round."),
}
"""What to record in a battle round, by how the battleplan is won."""


def _round_hint(state: WarcryState, name_of: NameOf) -> Words:
    plan = state.plan()
    if state.last_warband_decides:
        return N_(
            "the victory card is no longer checked. Fight on, ending each round, and declare the last "
            "warband "
            "standing once only one player's fighters are left on the battlefield."
        )
    if plan.scoring != "ley_lines":
        return ROUND_HINTS[plan.scoring]
    if state.initiative is None:
        return N_("record who has the initiative; the other player may then awaken a dormant objective.")
    if state.awakened_this_round is None and dormant_objectives(state):
        return N_(
            "{other} may awaken a dormant objective; record who controls the awakened ones, then end the "
            "round.",
            other=name_of(state.opponent(state.initiative)),
        )
    return N_("record who controls the awakened objectives, then end the round.")


def scoreboard(state: WarcryState, name_of: NameOf) -> list[Words]:
    """The board's lines for this battleplan's tallies (the first is the battleplan and round, which
    the board may set off); players named by `name_of`, as they are shown."""
    plan = state.battleplan
    if plan is None:
        return [N_("Battleplan: drawn once both warbands are split.")]
    lines = [_heading(state)]
    names = {p: name_of(p) for p in state.players}
    if state.red is not None:
        lines.append(
            N_("Red: {red} · Blue: {blue}", red=names[state.red], blue=names[state.opponent(state.red)])
        )
    lines += _tallies(state, names)
    if plan.scoring in ("ley_lines", "hidden_vault") and state.objectives:
        held = [
            N_("{objective}: {player}", objective=objective(o), player=names[state.control[o]])
            if o in state.control
            else N_("{objective}: nobody", objective=objective(o))
            for o in state.objectives
        ]
        lines.append(N_("Objectives in play — {held}", held=joined(held)))
    if state.initiative is not None:
        lines.append(N_("Initiative this round: {player}", player=names[state.initiative]))
    return lines


def _heading(state: WarcryState) -> Words:
    plan = state.plan()
    if not state.round:
        return Words.verbatim(plan.name)
    if state.round == plan.rounds + 1:
        return N_(
            "{battleplan} — battle round {round} (an extra round: the battle is tied)",
            battleplan=plan.name,
            round=state.round,
        )
    if state.round > plan.rounds + 1:
        return N_(
            "{battleplan} — battle round {round} (the last warband standing decides)",
            battleplan=plan.name,
            round=state.round,
        )
    return N_("{battleplan} — battle round {round}", battleplan=plan.name, round=state.round)


def _tallies(state: WarcryState, names: dict[int, str]) -> list[Words]:
    """The lines of what this battleplan's victory condition counts."""
    scoring = state.plan().scoring

    def per_player(label: Words, values: dict[int, int]) -> Words:
        scores = " · ".join(f"{names[p]} {values.get(p, 0)}" for p in state.players)
        return N_("{label}: {scores}", label=label, scores=scores)

    if scoring == "treasure_hunters":
        return [per_player(N_("Fighters carrying treasure"), state.carrying)]
    if scoring in ("cursed_relic", "cursed_prize"):
        carrier = state.carrier
        carried = (
            N_("Carried by: nobody") if carrier is None else N_("Carried by: {player}", player=names[carrier])
        )
        lines = [carried]
        if scoring == "cursed_relic":
            lines.append(per_player(N_('Fighters within 3"'), state.near))
        return lines
    if scoring == "no_quarter":
        return [per_player(N_("Quarters held"), state.quarters)]
    if scoring == "reaper":
        vp = per_player(N_("Victory points"), state.vp)
        if state.last_warband_decides:
            return [vp]
        return [vp, per_player(N_("Blood tally, round {round}", round=state.round), state.blood)]
    if scoring == "ley_lines":
        dormant = dormant_objectives(state)
        return [
            per_player(N_("Victory points"), state.vp),
            N_(
                "Awakened: {awakened} · Dormant: {dormant}",
                awakened=listed(state.awakened) if state.awakened else N_("none"),
                dormant=listed(dormant) if dormant else N_("none"),
            ),
        ]
    if scoring == "altar_of_ascendancy":
        return [per_player(N_("Fighters on the altar"), state.on_altar)]
    if scoring == "brutal_conquest":
        return [_champion_line(state, p, names[p]) for p in state.players]
    if scoring == "manual":
        met = state.condition_met_by
        if met is None:
            return [N_("Victory condition achieved by: nobody")]
        return [N_("Victory condition achieved by: {player}", player=names[met])]
    return []


def _champion_line(state: WarcryState, player: int, name: str) -> Words:
    """Brutal Conquest: a player's great champion and tally."""
    champion = state.champions.get(player)
    if champion is None:
        return N_("{player}: no great champion yet", player=name)
    if champion.on_battlefield:
        return N_(
            "{player}: {champion}, tally {tally} (on the battlefield)",
            player=name,
            champion=champion.name,
            tally=champion.tally,
        )
    return N_(
        "{player}: {champion}, tally {tally} (taken down)",
        player=name,
        champion=champion.name,
        tally=champion.tally,
    )
