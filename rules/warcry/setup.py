"""A Warcry battle's opening and set-up: the priority roll, the battle groups split, the
battleplan revealed, red or blue chosen, the battle groups set up in turn, objectives placed, and
the battle begun."""

from __future__ import annotations

from collections.abc import Sequence

from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event
from rules.text import echo
from rules.warcry import actions as act
from rules.warcry.battlegroups import GROUP_TITLES, Split, split_problems, split_refusal
from rules.warcry.battleplans import (
    BattleplanInPlay,
    DrawOptions,
    Kind,
    draw,
    given,
    options_for,
    require_victory_cards,
    shown_roll_off,
)
from rules.warcry.events import Notice
from rules.warcry.guards import require_phase
from rules.warcry.models import DeployStep, Result, WarcryState
from rules.warcry.pack import GROUPS, Arrival, WarcryPack, core_pack
from rules.warcry.rounds import start_round
from rules.warcry.wording import objective
from rules.words import Marker

N_ = Marker("warcry")


def start(
    session_id: str,
    players: Sequence[int],
    roller: Roller,
    kind: Kind = "matched",
    pack: WarcryPack | None = None,
    battleplan: str | None = None,
    names: dict[int, str] | None = None,
) -> Result:
    """Open a battle: make the priority roll; a chosen battleplan is fixed now, a random one later."""
    pack = pack or core_pack()
    if len(players) != 2 or players[0] == players[1]:
        raise RuleError(code="warcry.two_players")
    events: list[Event] = []
    plan_in_play: BattleplanInPlay | None = None
    options: DrawOptions | None = None
    if battleplan:
        plan = pack.battleplan(battleplan)
        if plan is None:
            known = ", ".join(b.name for b in pack.battleplans)
            raise RuleError(code="warcry.unknown_battleplan", name=echo(battleplan), known=known)
        plan_in_play = given(
            plan, options_for("matched" if plan.table == "matched" else "champions", pack), roller
        )
    else:
        options = options_for(kind, pack)
        require_victory_cards(options)
    priority = shown_roll_off(roller, players, "priority roll")
    state = WarcryState(
        session_id=session_id,
        players=list(players),
        kind="given" if battleplan else kind,
        names={p: n[:40] for p, n in (names or {}).items() if p in players},
        priority=priority,
        options=options,
        battleplan=plan_in_play,
    )
    events.append(
        Notice(
            code="priority",
            roll_off=priority,
            who={"winner": priority.winner, "loser": priority.loser},
            text=N_("{winner} wins the priority roll. {loser} splits their warband first."),
        )
    )
    if plan_in_play is not None:
        events.append(reveal(plan_in_play))
    return state, events


def split(state: WarcryState, action: act.SplitBattleGroups, roller: Roller) -> Result:
    require_phase(state, "battle_groups", "warcry.split_closed")
    order = [state.loser_of_priority, state.winner_of_priority]
    if action.actor in state.splits:
        raise RuleError(code="warcry.already_split")
    if action.actor != order[0] and order[0] not in state.splits:
        raise RuleError(code="warcry.split_first", player=order[0])
    split = Split(dagger=action.dagger, shield=action.shield, hammer=action.hammer)
    problems = split_problems(split.fighters, split)
    if problems:
        raise split_refusal(problems)
    splits = {**state.splits, action.actor: split}
    events: list[Event] = [
        Notice(
            code="split",
            who={"player": action.actor},
            text=N_(
                "{player} splits {fighters} fighters: Dagger {dagger}, Shield {shield}, Hammer {hammer}.",
                fighters=split.fighters,
                dagger=split.dagger,
                shield=split.shield,
                hammer=split.hammer,
            ),
        )
    ]
    state = state.model_copy(update={"splits": splits})
    if len(splits) < 2:
        return state, events
    plan = state.battleplan
    if plan is None:
        assert state.options is not None
        plan = draw(state.options, roller)
        events.append(reveal(plan))
    state = state.model_copy(update={"battleplan": plan, "options": None, "phase": "colours"})
    return state, events


def colour(state: WarcryState, action: act.ChooseColour, roller: Roller) -> Result:
    require_phase(state, "colours", "warcry.colour_closed")
    if action.actor != state.winner_of_priority:
        raise RuleError(code="warcry.colour_by_winner", player=state.winner_of_priority)
    red = action.actor if action.colour == "red" else state.opponent(action.actor)
    state = state.model_copy(update={"red": red})
    plan = state.plan()
    steps: list[DeployStep] = []
    events: list[Event] = [
        Notice(
            code="colours",
            who={"red": red, "blue": state.opponent(red)},
            text=N_("{red} takes the red deployment points, {blue} the blue."),
        )
    ]
    for group in GROUPS:
        for player in (state.winner_of_priority, state.loser_of_priority):
            colour = state.colour_of(player)
            assert colour is not None
            points = plan.deployment_map.points(colour) if plan.deployment_map else None
            arrival: Arrival = points.arrival(group) if points else "start"
            steps.append(DeployStep(player=player, group=group, arrival=arrival, done=arrival != "start"))
            if arrival != "start":
                events.append(
                    Notice(
                        code="reserve",
                        who={"player": player},
                        text=N_(
                            "{player}'s {group} waits in reserve and arrives in battle round {round} "
                            "({arrival}).",
                            group=GROUP_TITLES[group],
                            round=int(arrival[-1]),
                            arrival=arrival,
                        ),
                    )
                )
    state = state.model_copy(update={"deployment": steps, "phase": "deployment"})
    return _advance_deployment(state, events)


def deploy(state: WarcryState, action: act.Deploy, roller: Roller) -> Result:
    require_phase(state, "deployment", "warcry.deploy_closed")
    index = next(i for i, s in enumerate(state.deployment) if not s.done)
    current = state.deployment[index]
    if action.actor != current.player:
        raise RuleError(code="warcry.deploy_turn", player=current.player, group=GROUP_TITLES[current.group])
    if action.group != current.group:
        raise RuleError(code="warcry.deploy_order", group=GROUP_TITLES[current.group])
    steps = [s.model_copy(update={"done": True}) if i == index else s for i, s in enumerate(state.deployment)]
    events: list[Event] = [
        Notice(
            code="deployed",
            who={"player": action.actor},
            text=N_("{player} has set up their {group}.", group=GROUP_TITLES[current.group]),
        )
    ]
    return _advance_deployment(state.model_copy(update={"deployment": steps}), events)


def _advance_deployment(state: WarcryState, events: list[Event]) -> Result:
    """Once every battle group is set up, the objectives and treasure are placed."""
    if all(s.done for s in state.deployment):
        state = state.model_copy(update={"phase": "objectives"})
    return state, events


def blocked_objective(state: WarcryState, action: act.RollBlockedObjective, roller: Roller) -> Result:
    if state.phase not in ("colours", "deployment", "objectives"):
        raise RuleError(code="warcry.placing_closed")
    plan = state.plan()
    if not plan.objectives and not plan.treasure:
        raise RuleError(code="warcry.nothing_to_place", battleplan=plan.name)
    roll = shown_roll_off(roller, state.players, "blocked objective roll-off")
    return state, [
        Notice(
            code="blocked_objective",
            roll_off=roll,
            who={"winner": roll.winner},
            text=N_(
                '{winner} wins the roll-off and places the blocked objective or treasure within 1" '
                "horizontally of its spot, on the floor or a platform."
            ),
        )
    ]


def begin(state: WarcryState, action: act.BeginBattle, roller: Roller) -> Result:
    require_phase(state, "objectives", "warcry.begin_closed")
    plan = state.plan()
    labels = list(plan.objective_labels)
    awakened = labels[:1] if plan.scoring == "ley_lines" else []
    state = state.model_copy(update={"phase": "battle", "objectives": labels, "awakened": awakened})
    events: list[Event] = [
        Notice(code="battle", text=N_("The battle begins: {battleplan}.", battleplan=plan.name))
    ]
    if awakened:
        events.append(
            Notice(
                code="awakened_centre",
                text=N_(
                    "Objective {objective} (the central one) is awakened; the others are dormant.",
                    objective=objective(awakened[0]),
                ),
            )
        )
    return start_round(state, 1, events)


def reveal(plan: BattleplanInPlay) -> Notice:
    return Notice(
        code="battleplan",
        battleplan=plan,
        dice=[d.result for d in plan.dice],
        text=N_("The battleplan is {battleplan}.", battleplan=plan.name),
    )
