"""What players record during a Warcry battle round: the tallies and records each battleplan's
victory condition needs (treasure, the relic, quarters, blood, objectives, the altar, great
champions, a victory card the players judge)."""

from __future__ import annotations

from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event
from rules.warcry import actions as act
from rules.warcry.events import Notice
from rules.warcry.guards import (
    champion_on_field,
    objective_in_play,
    require_at_most,
    require_known_player,
    require_round_open,
    require_scoring,
)
from rules.warcry.models import QUARTERS, Champion, Result, WarcryState
from rules.warcry.rounds import start_round
from rules.warcry.warband import MAX_FIGHTERS, MAX_POINTS
from rules.warcry.wording import objective as named
from rules.words import Marker

N_ = Marker("warcry")


def initiative(state: WarcryState, action: act.SetInitiative, roller: Roller) -> Result:
    require_scoring(state, {"ley_lines"}, "a record of who has the initiative")
    require_known_player(state, action.player)
    if state.awakened_this_round is not None and action.player != state.initiative:
        raise RuleError(code="warcry.initiative_fixed", objective=named(state.awakened_this_round))
    state = state.model_copy(update={"initiative": action.player})
    return state, [
        Notice(
            code="initiative",
            who={"player": action.player},
            text=N_("{player} has the initiative in battle round {round}.", round=state.round),
        )
    ]


def treasure(state: WarcryState, action: act.SetTreasureCarriers, roller: Roller) -> Result:
    plan = require_scoring(state, {"treasure_hunters"}, "fighters carrying treasure")
    require_known_player(state, action.player)
    other = state.carrying.get(state.opponent(action.player), 0)
    if action.count + other > plan.treasure:
        raise RuleError(
            code="warcry.treasure_too_many", tokens=plan.treasure, count=action.count, other=other
        )
    state = state.model_copy(update={"carrying": {**state.carrying, action.player: action.count}})
    return state, [
        Notice(
            code="treasure",
            who={"player": action.player},
            text=N_.n(
                "{player} has {count} fighter carrying treasure.",
                "{player} has {count} fighters carrying treasure.",
                action.count,
            ),
        )
    ]


def carrier(state: WarcryState, action: act.SetCarrier, roller: Roller) -> Result:
    plan = require_scoring(state, {"cursed_relic", "cursed_prize"}, "a treasure carrier")
    relic = plan.scoring == "cursed_relic"
    if action.player is None:
        nobody = N_("Nobody carries the relic now.") if relic else N_("Nobody carries the prize now.")
        return state.model_copy(update={"carrier": None}), [Notice(code="carrier_none", text=nobody)]
    require_known_player(state, action.player)
    return (
        state.model_copy(update={"carrier": action.player}),
        [
            Notice(
                code="carrier",
                who={"player": action.player},
                text=N_("{player}'s fighter carries the relic.")
                if relic
                else N_("{player}'s fighter carries the prize."),
            )
        ],
    )


def near(state: WarcryState, action: act.SetFightersNear, roller: Roller) -> Result:
    require_scoring(state, {"cursed_relic"}, 'fighters within 3" of the treasure')
    require_known_player(state, action.player)
    require_at_most(action.count, MAX_FIGHTERS)
    state = state.model_copy(update={"near": {**state.near, action.player: action.count}})
    return state, [
        Notice(
            code="near",
            who={"player": action.player},
            text=N_.n(
                '{player} has {count} fighter within 3" of the relic.',
                '{player} has {count} fighters within 3" of the relic.',
                action.count,
            ),
        )
    ]


def carrier_damage(state: WarcryState, action: act.RollCarrierDamage, roller: Roller) -> Result:
    require_scoring(state, {"cursed_relic"}, "the relic's D6 damage")
    if state.carrier is None:
        raise RuleError(code="warcry.no_carrier")
    damage = roller.d6("Cursed Relic damage")
    return state, [
        Notice(
            code="carrier_damage",
            who={"player": state.carrier},
            dice=[damage],
            text=N_("The relic burns {player}'s carrier: {damage} damage points (D6).", damage=damage),
        )
    ]


def quarters(state: WarcryState, action: act.SetQuarters, roller: Roller) -> Result:
    require_scoring(state, {"no_quarter"}, "captured quarters")
    require_known_player(state, action.player)
    other = state.quarters.get(state.opponent(action.player), 0)
    if action.count + other > QUARTERS:
        raise RuleError(code="warcry.quarters_too_many", quarters=QUARTERS, count=action.count, other=other)
    state = state.model_copy(update={"quarters": {**state.quarters, action.player: action.count}})
    return state, [
        Notice(
            code="quarters",
            who={"player": action.player},
            text=N_.n("{player} holds {count} quarter.", "{player} holds {count} quarters.", action.count),
        )
    ]


def blood(state: WarcryState, action: act.SetBloodTally, roller: Roller) -> Result:
    require_scoring(state, {"reaper"}, "blood tallies")
    require_known_player(state, action.player)
    require_round_open(state)
    before = state.blood_total.get(action.player, 0)
    if before + action.points > MAX_POINTS:
        raise RuleError(code="warcry.blood_too_much", limit=MAX_POINTS, before=before, points=action.points)
    state = state.model_copy(update={"blood": {**state.blood, action.player: action.points}})
    return state, [
        Notice(
            code="blood",
            who={"player": action.player},
            text=N_(
                "{player}'s blood tally for battle round {round}: {points}.",
                round=state.round,
                points=action.points,
            ),
        )
    ]


def awaken(state: WarcryState, action: act.AwakenObjective, roller: Roller) -> Result:
    require_scoring(state, {"ley_lines"}, "awakening objectives")
    require_round_open(state)
    if state.initiative is None:
        raise RuleError(code="warcry.initiative_first")
    if action.actor == state.initiative:
        raise RuleError(code="warcry.awaken_by_other", player=state.opponent(state.initiative))
    if state.awakened_this_round is not None:
        raise RuleError(code="warcry.awaken_once", objective=named(state.awakened_this_round))
    objective = objective_in_play(state, action.objective)
    if objective in state.awakened:
        raise RuleError(code="warcry.already_awake", objective=named(objective))
    state = state.model_copy(
        update={"awakened": [*state.awakened, objective], "awakened_this_round": objective}
    )
    return state, [
        Notice(
            code="awakened",
            who={"player": action.actor},
            text=N_("{player} awakens objective {objective}.", objective=named(objective)),
        )
    ]


def control(state: WarcryState, action: act.SetControl, roller: Roller) -> Result:
    plan = require_scoring(state, {"ley_lines", "hidden_vault"}, "objective control")
    objective = objective_in_play(state, action.objective)
    if plan.scoring == "ley_lines" and objective not in state.awakened:
        raise RuleError(code="warcry.dormant", objective=named(objective))
    control = {k: v for k, v in state.control.items() if k != objective}
    if action.player is None:
        return (
            state.model_copy(update={"control": control}),
            [
                Notice(
                    code="control_none",
                    text=N_("Nobody controls objective {objective}.", objective=named(objective)),
                )
            ],
        )
    require_known_player(state, action.player)
    control[objective] = action.player
    return (
        state.model_copy(update={"control": control}),
        [
            Notice(
                code="control",
                who={"player": action.player},
                text=N_("{player} controls objective {objective}.", objective=named(objective)),
            )
        ],
    )


def remove(state: WarcryState, action: act.RemoveObjective, roller: Roller) -> Result:
    require_scoring(state, {"hidden_vault"}, "removing objectives")
    if state.removal_by is None:
        raise RuleError(code="warcry.remove_closed")
    if action.actor != state.removal_by:
        raise RuleError(code="warcry.remove_turn", player=state.removal_by)
    objective = objective_in_play(state, action.objective)
    control = {k: v for k, v in state.control.items() if k != objective}
    state = state.model_copy(
        update={
            "objectives": [o for o in state.objectives if o != objective],
            "control": control,
            "removal_by": None,
        }
    )
    events: list[Event] = [
        Notice(
            code="removed",
            who={"player": action.actor},
            text=N_("{player} removes objective {objective} from play.", objective=named(objective)),
        )
    ]
    return start_round(state, state.round + 1, events)


def altar(state: WarcryState, action: act.SetOnAltar, roller: Roller) -> Result:
    require_scoring(state, {"altar_of_ascendancy"}, "fighters on the altar")
    require_known_player(state, action.player)
    require_at_most(action.count, MAX_FIGHTERS)
    state = state.model_copy(update={"on_altar": {**state.on_altar, action.player: action.count}})
    return state, [
        Notice(
            code="altar",
            who={"player": action.player},
            text=N_.n(
                "{player} has {count} fighter on the altar.",
                "{player} has {count} fighters on the altar.",
                action.count,
            ),
        )
    ]


def nominate(state: WarcryState, action: act.NominateChampion, roller: Roller) -> Result:
    require_scoring(state, {"brutal_conquest"}, "great champions")
    require_known_player(state, action.player)
    current = state.champions.get(action.player)
    if current is not None and current.on_battlefield:
        raise RuleError(code="warcry.champion_standing", champion=current.name)
    champion = Champion(name=action.name.strip() or "Great champion")
    state = state.model_copy(update={"champions": {**state.champions, action.player: champion}})
    return state, [
        Notice(
            code="champion",
            who={"player": action.player},
            text=N_(
                "{player} names {champion} their great champion. Add the damage of the attack that made "
                "them champion to their tally.",
                champion=champion.name,
            ),
        )
    ]


def champion_tally(state: WarcryState, action: act.AddChampionTally, roller: Roller) -> Result:
    require_scoring(state, {"brutal_conquest"}, "great champion tallies")
    champion = champion_on_field(state, action.player)
    updated = champion.model_copy(update={"tally": champion.tally + action.amount})
    state = state.model_copy(update={"champions": {**state.champions, action.player: updated}})
    return state, [
        Notice(
            code="champion_tally",
            who={"player": action.player},
            text=N_(
                "{player}'s great champion {champion}: tally {tally} (+{amount}).",
                champion=updated.name,
                tally=updated.tally,
                amount=action.amount,
            ),
        )
    ]


def champion_down(state: WarcryState, action: act.ChampionTakenDown, roller: Roller) -> Result:
    require_scoring(state, {"brutal_conquest"}, "great champions")
    champion = champion_on_field(state, action.player)
    updated = champion.model_copy(update={"on_battlefield": False})
    state = state.model_copy(update={"champions": {**state.champions, action.player: updated}})
    return state, [
        Notice(
            code="champion_down",
            who={"player": action.player},
            text=N_("{player}'s great champion {champion} is taken down.", champion=updated.name),
        )
    ]


def condition(state: WarcryState, action: act.SetConditionMet, roller: Roller) -> Result:
    require_scoring(state, {"manual"}, "reporting the victory condition")
    if action.player is None:
        return (
            state.model_copy(update={"condition_met_by": None}),
            [Notice(code="condition_none", text=N_("Nobody has achieved the victory condition now."))],
        )
    require_known_player(state, action.player)
    return (
        state.model_copy(update={"condition_met_by": action.player}),
        [
            Notice(
                code="condition",
                who={"player": action.player},
                text=N_("{player} has achieved the victory condition on the card."),
            )
        ],
    )
