"""A tracked Warcry battle, from the priority roll to the result, as a pure state machine.

Set-up follows the core rules' order: priority roll; battle groups split, priority loser first;
the battleplan rolled or dealt (so nobody splits knowing it, unless it was chosen beforehand);
the priority winner picks red or blue; Daggers, Shields then Hammers are set up, priority winner
first each time, reserves held back; objectives placed. Then battle rounds, with the tallies the
battleplan's victory condition needs, and the tied-games rule: a tie plays one extra round and is
judged again; if still tied, the battle goes on, unjudged, until only one warband is left standing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import Field, model_validator

from rules.confirmation import (
    Confirmation,
    ConfirmPending,
    Request,
    answer,
    from_old_shape,
    request,
    require_none_pending,
)
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import (
    Event,
    GameOutcome,
    GameState,
    Model,
    SideResult,
)
from rules.text import echo
from rules.warcry import actions as act
from rules.warcry.battlegroups import Split, split_problems, split_refusal
from rules.warcry.battleplans import (
    BattleplanInPlay,
    DrawOptions,
    Kind,
    RollOffShown,
    draw,
    given,
    options_for,
    require_victory_cards,
    shown_roll_off,
)
from rules.warcry.events import Notice, Verdict
from rules.warcry.models import GROUPS, Arrival, Colour, GroupName, Scoring, WarcryPack
from rules.warcry.pack import core_pack
from rules.warcry.warband import MAX_FIGHTERS, MAX_POINTS

SYSTEM = "warcry"

Phase = Literal["battle_groups", "colours", "deployment", "objectives", "battle", "finished"]

QUARTERS = 4  # No Quarter: the battlefield's quarters

GROUP_TITLES: dict[GroupName, str] = {"dagger": "Dagger", "shield": "Shield", "hammer": "Hammer"}


class DeployStep(Model):
    player: int
    group: GroupName
    arrival: Arrival = "start"
    done: bool = False


class Champion(Model):
    name: str
    tally: int = 0
    on_battlefield: bool = True


class RoundRecord(Model):
    """What happened in one finished battle round, for the scoreboard and the audit."""

    number: int
    blood: dict[int, int] = {}
    scored: dict[int, int] = {}
    initiative: int | None = None
    awakened: str | None = None


class WarcryState(GameState):
    kind: Kind | Literal["given"]
    names: dict[int, str] = {}  # display names for labels that cannot mention a user (buttons, forms)
    phase: Phase = "battle_groups"
    priority: RollOffShown
    splits: dict[int, Split] = {}
    options: DrawOptions | None = None  # kept until the battleplan is drawn, then dropped
    battleplan: BattleplanInPlay | None = None
    red: int | None = None
    deployment: list[DeployStep] = []
    round: int = 0
    round_ended: bool = False  # the round is over but an objective must still be removed
    vp: dict[int, int] = {}
    carrying: dict[int, int] = {}  # Treasure Hunters: fighters carrying treasure
    carrier: int | None = None  # Cursed Relic / Cursed Prize: whose fighter carries it
    near: dict[int, int] = {}  # Cursed Relic: fighters within 3" of it
    quarters: dict[int, int] = {}
    on_altar: dict[int, int] = {}
    blood: dict[int, int] = {}  # Reaper: this round's blood tallies
    blood_total: dict[int, int] = {}
    initiative: int | None = None  # this round
    awakened: list[str] = []
    awakened_this_round: str | None = None
    objectives: list[str] = []  # objectives still in play
    control: dict[str, int] = {}  # objective -> controlling player (absent: nobody)
    vault_first: int | None = None  # Hidden Vault: who won the roll-off after round 1
    removal_by: int | None = None
    champions: dict[int, Champion] = {}
    condition_met_by: int | None = None
    last_warband_claim: int | None = None
    # the end of a battle round, or a tally recorded for the other player, waiting to be confirmed
    confirmation: Confirmation[act.Confirmable] = Field(default_factory=Confirmation[act.Confirmable])
    history: list[RoundRecord] = []
    verdict: Verdict | None = None  # why the finished battle was won or drawn

    @model_validator(mode="before")
    @classmethod
    def _shared_confirmation(cls, data: Any) -> Any:
        """Battles saved when Warcry kept its own confirmations (`pending`, `confirmations`)."""
        return from_old_shape(data, "pending", "confirmations")

    @property
    def pending(self) -> Request[act.Confirmable] | None:
        """The step waiting for a confirmation, if any: nothing else is taken meanwhile."""
        return self.confirmation.pending

    def label_of(self, player: int) -> str:
        """A player's name for a button or a form, which can't mention a user."""
        return self.names.get(player) or f"Player {self.players.index(player) + 1}"

    @property
    def winner_of_priority(self) -> int:
        return self.priority.winner

    @property
    def loser_of_priority(self) -> int:
        return self.priority.loser

    def colour_of(self, player: int) -> Colour | None:
        if self.red is None:
            return None
        return "red" if player == self.red else "blue"

    def plan(self) -> BattleplanInPlay:
        if self.battleplan is None:
            raise RuleError(code="warcry.battleplan_pending")
        return self.battleplan

    @property
    def extra_rounds(self) -> bool:
        """Past the battleplan's last round: the battle was tied (the one extra round, and any after it)."""
        return self.battleplan is not None and self.round > self.battleplan.rounds

    @property
    def last_warband_decides(self) -> bool:
        """Past the one extra round of a tie: the victory card is never checked again, and only the last
        warband standing can win."""
        return self.battleplan is not None and self.round > self.battleplan.rounds + 1


def round_note(rounds: int, number: int) -> str:
    """What kind of round `number` is, for a battleplan of `rounds` rounds (empty for an ordinary one)."""
    if number == rounds + 1:
        return " (an extra round: the battle is tied)"
    if number > rounds + 1:
        return " (the last warband standing decides)"
    return ""


Result = tuple[WarcryState, list[Event]]


# ---------------------------------------------------------------- start


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
            text="{winner} wins the priority roll. {loser} splits their warband first.",
        )
    )
    if plan_in_play is not None:
        events.append(_reveal(plan_in_play))
    return state, events


# ---------------------------------------------------------------- step


def step(state: WarcryState, action: Any, roller: Roller) -> Result:
    state.require_open()
    state.require_player(action.actor)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise RuleError(code="warcry.unknown_action")
    if not isinstance(action, ConfirmPending):
        require_none_pending(state.confirmation)
    if isinstance(action, act.EndRound):
        return _ask_to_confirm(state, action, roller)
    if isinstance(action, TALLY_ACTIONS) and action.player != action.actor:
        return _ask_to_confirm(state, action, roller)
    return handler(state, action, roller)


def awaiting(state: WarcryState) -> list[int]:
    """Warcry has no sealed choices, so no one is ever awaited in private."""
    return []


# ---------------------------------------------------------------- set-up handlers


def _split(state: WarcryState, action: act.SplitBattleGroups, roller: Roller) -> Result:
    _require_phase(state, "battle_groups", "warcry.split_closed")
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
            values={
                "fighters": split.fighters,
                "dagger": split.dagger,
                "shield": split.shield,
                "hammer": split.hammer,
            },
            text=f"{{player}} splits {split.fighters} fighters: Dagger {split.dagger}, "
            f"Shield {split.shield}, Hammer {split.hammer}.",
        )
    ]
    state = state.model_copy(update={"splits": splits})
    if len(splits) < 2:
        events.append(
            Notice(
                code="prompt",
                who={"player": order[1]},
                text="{player}, split your warband into Dagger, Shield and Hammer.",
            )
        )
        return state, events
    plan = state.battleplan
    if plan is None:
        assert state.options is not None
        plan = draw(state.options, roller)
        events.append(_reveal(plan))
    state = state.model_copy(update={"battleplan": plan, "options": None, "phase": "colours"})
    events.append(
        Notice(
            code="prompt",
            who={"winner": state.winner_of_priority},
            text="{winner} won the priority roll: choose red or blue deployment points.",
        )
    )
    return state, events


def _colour(state: WarcryState, action: act.ChooseColour, roller: Roller) -> Result:
    _require_phase(state, "colours", "warcry.colour_closed")
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
            text="{red} takes the red deployment points, {blue} the blue.",
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
                        values={"group": group, "round": int(arrival[-1]), "arrival": arrival},
                        text=f"{{player}}'s {GROUP_TITLES[group]} waits in reserve and arrives "
                        f"in battle round {arrival[-1]} ({arrival}).",
                    )
                )
    state = state.model_copy(update={"deployment": steps, "phase": "deployment"})
    return _advance_deployment(state, events)


def _deploy(state: WarcryState, action: act.Deploy, roller: Roller) -> Result:
    _require_phase(state, "deployment", "warcry.deploy_closed")
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
            values={"group": current.group},
            text=f"{{player}} has set up their {GROUP_TITLES[current.group]}.",
        )
    ]
    return _advance_deployment(state.model_copy(update={"deployment": steps}), events)


def _advance_deployment(state: WarcryState, events: list[Event]) -> Result:
    pending = [s for s in state.deployment if not s.done]
    if pending:
        nxt = pending[0]
        colour = state.colour_of(nxt.player)
        events.append(
            Notice(
                code="prompt",
                who={"player": nxt.player},
                values={"group": nxt.group, "colour": colour or ""},
                text=f'{{player}}, set up your {GROUP_TITLES[nxt.group]} wholly within 3" '
                f"horizontally of your {colour} {GROUP_TITLES[nxt.group]} point.",
            )
        )
        return state, events
    plan = state.plan()
    state = state.model_copy(update={"phase": "objectives"})
    events.append(
        Notice(
            code="prompt",
            values={"objectives": plan.objectives, "treasure": plan.treasure},
            text=_objectives_prompt(plan),
        )
    )
    return state, events


def _objectives_prompt(plan: BattleplanInPlay) -> str:
    things = []
    if plan.objectives:
        things.append(f"{plan.objectives} objective{'s' if plan.objectives > 1 else ''}")
    if plan.treasure:
        things.append(f"{plan.treasure} treasure token{'s' if plan.treasure > 1 else ''}")
    if not things:
        return "Nothing to place for this battleplan. Press Begin battle when you are ready."
    return (
        f"Place {' and '.join(things)} where the battleplan shows. If terrain blocks a spot, roll off: "
        'the winner places it within 1" horizontally. Then press Begin battle.'
    )


def _blocked_objective(state: WarcryState, action: act.RollBlockedObjective, roller: Roller) -> Result:
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
            text="{winner} wins the roll-off and places the blocked objective or treasure "
            'within 1" horizontally of its spot, on the floor or a platform.',
        )
    ]


def _begin(state: WarcryState, action: act.BeginBattle, roller: Roller) -> Result:
    _require_phase(state, "objectives", "warcry.begin_closed")
    plan = state.plan()
    labels = list(plan.objective_labels)
    awakened = labels[:1] if plan.scoring == "ley_lines" else []
    state = state.model_copy(update={"phase": "battle", "objectives": labels, "awakened": awakened})
    events: list[Event] = [
        Notice(code="battle", values={"battleplan": plan.name}, text=f"The battle begins: {plan.name}.")
    ]
    if awakened:
        events.append(
            Notice(
                code="awakened_centre",
                values={"objective": awakened[0]},
                text=f"Objective {awakened[0]} (the central one) is awakened; the others are dormant.",
            )
        )
    return _start_round(state, 1, events)


# ---------------------------------------------------------------- battle handlers


def _initiative(state: WarcryState, action: act.SetInitiative, roller: Roller) -> Result:
    _require_scoring(state, {"ley_lines"}, "a record of who has the initiative")
    _require_known_player(state, action.player)
    if state.awakened_this_round is not None and action.player != state.initiative:
        raise RuleError(code="warcry.initiative_fixed", objective=state.awakened_this_round)
    state = state.model_copy(update={"initiative": action.player})
    return state, [
        Notice(
            code="initiative",
            who={"player": action.player},
            values={"round": state.round},
            text=f"{{player}} has the initiative in battle round {state.round}.",
        )
    ]


def _treasure(state: WarcryState, action: act.SetTreasureCarriers, roller: Roller) -> Result:
    plan = _require_scoring(state, {"treasure_hunters"}, "fighters carrying treasure")
    _require_known_player(state, action.player)
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
            values={"count": action.count},
            text=f"{{player}} has {action.count} fighter{_s(action.count)} carrying treasure.",
        )
    ]


def _carrier(state: WarcryState, action: act.SetCarrier, roller: Roller) -> Result:
    plan = _require_scoring(state, {"cursed_relic", "cursed_prize"}, "a treasure carrier")
    thing = "relic" if plan.scoring == "cursed_relic" else "prize"
    if action.player is None:
        return (
            state.model_copy(update={"carrier": None}),
            [Notice(code="carrier_none", values={"thing": thing}, text=f"Nobody carries the {thing} now.")],
        )
    _require_known_player(state, action.player)
    return (
        state.model_copy(update={"carrier": action.player}),
        [
            Notice(
                code="carrier",
                who={"player": action.player},
                values={"thing": thing},
                text=f"{{player}}'s fighter carries the {thing}.",
            )
        ],
    )


def _near(state: WarcryState, action: act.SetFightersNear, roller: Roller) -> Result:
    _require_scoring(state, {"cursed_relic"}, 'fighters within 3" of the treasure')
    _require_known_player(state, action.player)
    _require_at_most(action.count, MAX_FIGHTERS)
    state = state.model_copy(update={"near": {**state.near, action.player: action.count}})
    return state, [
        Notice(
            code="near",
            who={"player": action.player},
            values={"count": action.count},
            text=f'{{player}} has {action.count} fighter{_s(action.count)} within 3" of the relic.',
        )
    ]


def _carrier_damage(state: WarcryState, action: act.RollCarrierDamage, roller: Roller) -> Result:
    _require_scoring(state, {"cursed_relic"}, "the relic's D6 damage")
    if state.carrier is None:
        raise RuleError(code="warcry.no_carrier")
    damage = roller.d6("Cursed Relic damage")
    return state, [
        Notice(
            code="carrier_damage",
            who={"player": state.carrier},
            values={"damage": damage},
            dice=[damage],
            text=f"The relic burns {{player}}'s carrier: {damage} damage points (D6).",
        )
    ]


def _quarters(state: WarcryState, action: act.SetQuarters, roller: Roller) -> Result:
    _require_scoring(state, {"no_quarter"}, "captured quarters")
    _require_known_player(state, action.player)
    other = state.quarters.get(state.opponent(action.player), 0)
    if action.count + other > QUARTERS:
        raise RuleError(code="warcry.quarters_too_many", quarters=QUARTERS, count=action.count, other=other)
    state = state.model_copy(update={"quarters": {**state.quarters, action.player: action.count}})
    return state, [
        Notice(
            code="quarters",
            who={"player": action.player},
            values={"count": action.count},
            text=f"{{player}} holds {action.count} quarter{_s(action.count)}.",
        )
    ]


def _blood(state: WarcryState, action: act.SetBloodTally, roller: Roller) -> Result:
    _require_scoring(state, {"reaper"}, "blood tallies")
    _require_known_player(state, action.player)
    _require_round_open(state)
    before = state.blood_total.get(action.player, 0)
    if before + action.points > MAX_POINTS:
        raise RuleError(code="warcry.blood_too_much", limit=MAX_POINTS, before=before, points=action.points)
    state = state.model_copy(update={"blood": {**state.blood, action.player: action.points}})
    return state, [
        Notice(
            code="blood",
            who={"player": action.player},
            values={"round": state.round, "points": action.points},
            text=f"{{player}}'s blood tally for battle round {state.round}: {action.points}.",
        )
    ]


def _awaken(state: WarcryState, action: act.AwakenObjective, roller: Roller) -> Result:
    _require_scoring(state, {"ley_lines"}, "awakening objectives")
    _require_round_open(state)
    if state.initiative is None:
        raise RuleError(code="warcry.initiative_first")
    if action.actor == state.initiative:
        raise RuleError(code="warcry.awaken_by_other", player=state.opponent(state.initiative))
    if state.awakened_this_round is not None:
        raise RuleError(code="warcry.awaken_once", objective=state.awakened_this_round)
    objective = _objective(state, action.objective)
    if objective in state.awakened:
        raise RuleError(code="warcry.already_awake", objective=objective)
    state = state.model_copy(
        update={"awakened": [*state.awakened, objective], "awakened_this_round": objective}
    )
    return state, [
        Notice(
            code="awakened",
            who={"player": action.actor},
            values={"objective": objective},
            text=f"{{player}} awakens objective {objective}.",
        )
    ]


def _control(state: WarcryState, action: act.SetControl, roller: Roller) -> Result:
    plan = _require_scoring(state, {"ley_lines", "hidden_vault"}, "objective control")
    objective = _objective(state, action.objective)
    if plan.scoring == "ley_lines" and objective not in state.awakened:
        raise RuleError(code="warcry.dormant", objective=objective)
    control = {k: v for k, v in state.control.items() if k != objective}
    if action.player is None:
        return (
            state.model_copy(update={"control": control}),
            [
                Notice(
                    code="control_none",
                    values={"objective": objective},
                    text=f"Nobody controls objective {objective}.",
                )
            ],
        )
    _require_known_player(state, action.player)
    control[objective] = action.player
    return (
        state.model_copy(update={"control": control}),
        [
            Notice(
                code="control",
                who={"player": action.player},
                values={"objective": objective},
                text=f"{{player}} controls objective {objective}.",
            )
        ],
    )


def _remove(state: WarcryState, action: act.RemoveObjective, roller: Roller) -> Result:
    _require_scoring(state, {"hidden_vault"}, "removing objectives")
    if state.removal_by is None:
        raise RuleError(code="warcry.remove_closed")
    if action.actor != state.removal_by:
        raise RuleError(code="warcry.remove_turn", player=state.removal_by)
    objective = _objective(state, action.objective)
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
            values={"objective": objective},
            text=f"{{player}} removes objective {objective} from play.",
        )
    ]
    return _start_round(state, state.round + 1, events)


def _altar(state: WarcryState, action: act.SetOnAltar, roller: Roller) -> Result:
    _require_scoring(state, {"altar_of_ascendancy"}, "fighters on the altar")
    _require_known_player(state, action.player)
    _require_at_most(action.count, MAX_FIGHTERS)
    state = state.model_copy(update={"on_altar": {**state.on_altar, action.player: action.count}})
    return state, [
        Notice(
            code="altar",
            who={"player": action.player},
            values={"count": action.count},
            text=f"{{player}} has {action.count} fighter{_s(action.count)} on the altar.",
        )
    ]


def _nominate(state: WarcryState, action: act.NominateChampion, roller: Roller) -> Result:
    _require_scoring(state, {"brutal_conquest"}, "great champions")
    _require_known_player(state, action.player)
    current = state.champions.get(action.player)
    if current is not None and current.on_battlefield:
        raise RuleError(code="warcry.champion_standing", champion=current.name)
    champion = Champion(name=action.name.strip() or "Great champion")
    state = state.model_copy(update={"champions": {**state.champions, action.player: champion}})
    return state, [
        Notice(
            code="champion",
            who={"player": action.player},
            values={"champion": champion.name},
            text=f"{{player}} names {champion.name} their great champion. Add the damage of "
            "the attack that made them champion to their tally.",
        )
    ]


def _champion_tally(state: WarcryState, action: act.AddChampionTally, roller: Roller) -> Result:
    _require_scoring(state, {"brutal_conquest"}, "great champion tallies")
    champion = _champion_on_field(state, action.player)
    updated = champion.model_copy(update={"tally": champion.tally + action.amount})
    state = state.model_copy(update={"champions": {**state.champions, action.player: updated}})
    return state, [
        Notice(
            code="champion_tally",
            who={"player": action.player},
            values={"champion": updated.name, "tally": updated.tally, "amount": action.amount},
            text=f"{{player}}'s great champion {updated.name}: tally {updated.tally} (+{action.amount}).",
        )
    ]


def _champion_down(state: WarcryState, action: act.ChampionTakenDown, roller: Roller) -> Result:
    _require_scoring(state, {"brutal_conquest"}, "great champions")
    champion = _champion_on_field(state, action.player)
    updated = champion.model_copy(update={"on_battlefield": False})
    state = state.model_copy(update={"champions": {**state.champions, action.player: updated}})
    return state, [
        Notice(
            code="champion_down",
            who={"player": action.player},
            values={"champion": updated.name},
            text=f"{{player}}'s great champion {updated.name} is taken down.",
        )
    ]


def _condition(state: WarcryState, action: act.SetConditionMet, roller: Roller) -> Result:
    _require_scoring(state, {"manual"}, "reporting the victory condition")
    if action.player is None:
        return (
            state.model_copy(update={"condition_met_by": None}),
            [Notice(code="condition_none", text="Nobody has achieved the victory condition now.")],
        )
    _require_known_player(state, action.player)
    return (
        state.model_copy(update={"condition_met_by": action.player}),
        [
            Notice(
                code="condition",
                who={"player": action.player},
                text="{player} has achieved the victory condition on the card.",
            )
        ],
    )


def _check_end_round(state: WarcryState, action: act.EndRound) -> None:
    _require_battle(state)
    if action.round != state.round or state.round_ended:
        over = action.round < state.round or state.round_ended
        raise RuleError(
            code="warcry.round_over" if over else "warcry.round_not_yet", round=action.round, now=state.round
        )
    if state.last_warband_claim is not None:
        raise RuleError(code="warcry.claim_pending", player=state.last_warband_claim)


def _end_round(state: WarcryState, action: act.EndRound, roller: Roller) -> Result:
    """The round ends (once confirmed): score it, and judge the battle where the rules say so."""
    _check_end_round(state, action)
    plan = state.plan()
    scored: dict[int, int] = {}
    events: list[Event] = []
    # once the last warband standing decides, the victory card is not checked again, so nothing scores
    scoring = None if state.last_warband_decides else plan.scoring
    if scoring == "reaper":
        a, b = (state.blood.get(p, 0) for p in state.players)
        if a != b:
            top = state.players[0] if a > b else state.players[1]
            scored[top] = 1
            events.append(
                Notice(
                    code="blood_scored",
                    who={"player": top},
                    values={"first": a, "second": b},
                    text=f"Blood tallies {a} – {b}: {{player}} scores 1 victory point.",
                )
            )
        else:
            events.append(
                Notice(
                    code="blood_level",
                    values={"tally": a},
                    text=f"Blood tallies level at {a}: nobody scores.",
                )
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
                        values={"count": len(held), "objectives": ", ".join(held)},
                        text=f"{{player}} scores {len(held)} victory point{_s(len(held))} "
                        f"(awakened objectives {', '.join(held)}).",
                    )
                )
        if not scored:
            events.append(Notice(code="ley_none", text="Nobody controls an awakened objective: no points."))
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
    events.insert(
        0, Notice(code="round_end", values={"round": state.round}, text=f"Battle round {state.round} ends.")
    )
    if plan.scoring == "hidden_vault" and state.round in (1, 2) and len(state.objectives) > 1:
        if state.round == 1:
            roll = shown_roll_off(roller, state.players, "Hidden Vault roll-off")
            remover, first = roll.winner, roll.winner
            events.append(
                Notice(
                    code="vault_roll",
                    roll_off=roll,
                    who={"player": remover},
                    text="{player} wins the roll-off and removes one objective from play.",
                )
            )
        else:
            first = state.vault_first if state.vault_first is not None else state.players[0]
            remover = state.opponent(first)
            events.append(
                Notice(
                    code="vault_turn",
                    who={"player": remover},
                    text="{player}, remove one objective from play.",
                )
            )
        state = state.model_copy(update={"removal_by": remover, "vault_first": first, "round_ended": True})
        return state, events
    if plan.rounds <= state.round <= plan.rounds + 1:
        return _judge(state, events)
    return _start_round(state, state.round + 1, events)


def _last_warband(state: WarcryState, action: act.DeclareLastWarband, roller: Roller) -> Result:
    _require_battle(state)
    _require_known_player(state, action.player)
    if not state.extra_rounds:
        raise RuleError(code="warcry.last_warband_extra_only")
    if action.player != action.actor:
        text = "{actor} declares that only {player}'s fighters are left on the battlefield."
        who = {"actor": action.actor, "player": action.player}
        events: list[Event] = [Notice(code="last_warband_declared", who=who, text=text)]
        return _finish(state, action.player, Verdict(code="last_warband"), events)
    state = state.model_copy(update={"last_warband_claim": action.actor})
    return state, [
        Notice(
            code="last_warband_claim",
            who={"player": action.actor, "other": state.opponent(action.actor)},
            text="{player} says only their fighters are left on the battlefield. {other}, confirm or reject.",
        )
    ]


def _answer_last_warband(state: WarcryState, action: act.AnswerLastWarband, roller: Roller) -> Result:
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
                text="{player} rejects the claim; the battle goes on.",
            )
        ]
    return _finish(
        state,
        claimant,
        Verdict(code="last_warband"),
        [
            Notice(
                code="last_warband_confirmed",
                who={"player": claimant, "actor": action.actor},
                text="{actor} confirms that only {player}'s fighters are left.",
            )
        ],
    )


# ---------------------------------------------------------------- confirmations

# Tallies that count for a player: recorded by the other player, they wait for a confirmation.
TALLY_ACTIONS = (
    act.SetTreasureCarriers,
    act.SetFightersNear,
    act.SetQuarters,
    act.SetBloodTally,
    act.SetOnAltar,
    act.AddChampionTally,
)


def _ask_to_confirm(state: WarcryState, action: act.Confirmable, roller: Roller) -> Result:
    """Hold a step pressed by one player until it is confirmed. It is checked now, so a step the
    battle would refuse is refused at once rather than offered for confirmation."""
    if isinstance(action, act.EndRound):
        _check_end_round(state, action)
    else:
        _HANDLERS[type(action)](state, action, roller)
    state = state.model_copy(update={"confirmation": request(state.confirmation, action.actor, action)})
    assert state.pending is not None
    pending, other = state.pending, state.opponent(action.actor)
    return state, [
        Notice(
            code="confirm_asked",
            who={"player": action.actor, "other": other},
            values={"what": pending_what(state, pending), "round": state.round},
            action=action,
        )
    ]


def _confirm(state: WarcryState, action: ConfirmPending, roller: Roller) -> Result:
    """Take the waiting step as it was pressed, or leave everything as it was."""
    confirmation, answered = answer(state.confirmation, action)
    pending = answered.request
    what = pending_what(state, pending)
    state = state.model_copy(update={"confirmation": confirmation})
    if not answered.confirmed:
        return state, [
            Notice(
                code="confirm_declined",
                who={"player": action.actor, "by": pending.by},
                values={"what": what, "round": state.round},
                action=pending.action,
            )
        ]
    confirmed = Notice(
        code="confirmed",
        who={"player": action.actor, "by": pending.by},
        values={"what": what, "round": state.round},
        action=pending.action,
    )
    state, events = _HANDLERS[type(pending.action)](state, pending.action, roller)
    return state, [confirmed, *events]


def pending_title(state: WarcryState, pending: Request[act.Confirmable]) -> str:
    """What a confirmation asks, as its question's title: `Confirm: end battle round 2?`."""
    return f"Confirm: {pending_what(state, pending)}?"


def pending_what(state: WarcryState, pending: Request[act.Confirmable]) -> str:
    """The step waiting for a confirmation, in a few words: `end battle round 2`."""
    action = pending.action
    if isinstance(action, act.EndRound):
        return f"end battle round {action.round}"
    name = state.label_of(action.player)
    if isinstance(action, act.SetTreasureCarriers):
        return f"{name} has {action.count} fighter{_s(action.count)} carrying treasure"
    if isinstance(action, act.SetFightersNear):
        return f'{name} has {action.count} fighter{_s(action.count)} within 3" of the relic'
    if isinstance(action, act.SetQuarters):
        return f"{name} holds {action.count} quarter{_s(action.count)}"
    if isinstance(action, act.SetBloodTally):
        return f"{name}'s blood tally for battle round {state.round} is {action.points}"
    if isinstance(action, act.SetOnAltar):
        return f"{name} has {action.count} fighter{_s(action.count)} on the altar"
    champion = state.champions.get(action.player)
    return f"add {action.amount} to {champion.name if champion else name}'s tally"


# ---------------------------------------------------------------- rounds and the result


def _start_round(state: WarcryState, number: int, events: list[Event]) -> Result:
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
    events.append(
        Notice(
            code="round_start",
            values={"round": number, "rounds": plan.rounds},
            text=f"Battle round {number} begins{round_note(plan.rounds, number)}.",
        )
    )
    arriving = "RND2" if number == 2 else "RND3" if number == 3 else None
    for reserve in state.deployment:
        if arriving and reserve.arrival == arriving:
            events.append(
                Notice(
                    code="reserve_arrives",
                    who={"player": reserve.player},
                    values={"group": reserve.group, "arrival": arriving},
                    text=f"{{player}}'s {GROUP_TITLES[reserve.group]} arrives from reserve "
                    f"this round ({arriving}).",
                )
            )
    return state, events


MEASURES: dict[str, str] = {
    "treasure": "fighters carrying treasure",
    "near": 'fighters within 3" of the relic',
    "quarters": "quarters captured",
    "vp": "victory points",
}
"""What a battleplan counts, by the id a `level`/`most` verdict carries."""

REASONS: dict[str, str] = {
    "level": "level on {what} ({count} each)",
    "most": "most {what} ({count} to {other})",
    "relic_carried": "their fighter carries the relic",
    "vault_held": "they control the last objective",
    "vault_nobody": "nobody controls the last objective",
    "prize_carried": "their fighter carries the prize",
    "prize_nobody": "nobody carries the prize",
    "altar_alone": "only they have fighters on the altar",
    "altar_both": "both players have fighters on the altar",
    "altar_empty": "the altar is empty",
    "no_champion": "no great champion is on the battlefield",
    "champions_level": "the great champions' tallies are level ({best})",
    "champion_highest": "their great champion has the highest tally ({best})",
    "condition_met": "they achieved the victory condition",
    "condition_nobody": "nobody achieved the victory condition",
    "last_warband": "only their warband is left on the battlefield",
}
"""The English of each verdict's code (the bot words them in every language from the code)."""


def reason(verdict: Verdict) -> str:
    """A verdict in the rules' English: `most victory points (2 to 1)`."""
    values: dict[str, str | int] = dict(verdict.values)
    if "measure" in values:
        values["what"] = MEASURES[str(values["measure"])]
    text = REASONS[verdict.code].format(**values)
    return f"{text}: any other result is a draw" if verdict.draw_rule else text


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
    return winner, scores, reason(verdict)


def _judge(state: WarcryState, events: list[Event]) -> Result:
    """Check the victory card at the end of the battleplan's last round and of the one extra round only."""
    plan = state.plan()
    winner, _, verdict = judge(state)
    if winner is not None:
        return _finish(state, winner, verdict, events)
    if plan.otherwise_draw:
        return _finish(state, None, verdict.model_copy(update={"draw_rule": True}), events)
    why = reason(verdict)
    if state.extra_rounds:
        events.append(
            Notice(
                code="last_warband_decides",
                verdict=verdict,
                text=f"Still nobody has won after the extra round ({why}): the battle goes on, round "
                "after round, until only one player's fighters are left on the battlefield; that player "
                "wins.",
            )
        )
        return _start_round(state, state.round + 1, events)
    events.append(
        Notice(
            code="tied",
            verdict=verdict,
            text=f"Nobody has won yet ({why}): the battle goes on for another battle round.",
        )
    )
    return _start_round(state, state.round + 1, events)


def _finish(state: WarcryState, winner: int | None, verdict: Verdict, events: list[Event]) -> Result:
    plan = state.plan()
    _, scores, _ = judge(state)
    why = reason(verdict)
    summary = f"{plan.name} after {state.round} battle round{_s(state.round)}: " + (
        f"won because {why}." if winner is not None else f"a draw, {why}."
    )
    outcome = GameOutcome(
        sides=[SideResult(player=p, score=scores.get(p, 0)) for p in state.players],
        winner=winner,
        mission=plan.name,
        summary=summary,
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
    text = ("{winner} wins: " + summary) if winner is not None else "The battle is a draw: " + summary
    events.append(
        Notice(
            code="finished",
            who={"winner": winner} if winner is not None else {},
            verdict=verdict,
            values={"battleplan": plan.name, "round": state.round},
            text=text,
        )
    )
    return state, events


# ---------------------------------------------------------------- guards


def _require_phase(state: WarcryState, phase: Phase, code: str) -> None:
    if state.phase != phase:
        raise RuleError(code=code)


def _require_battle(state: WarcryState) -> None:
    if state.phase != "battle":
        raise RuleError(code="warcry.battle_only")


def _require_round_open(state: WarcryState) -> None:
    if state.round_ended:
        raise RuleError(code="warcry.round_ended", round=state.round)


def _require_scoring(state: WarcryState, allowed: set[Scoring], what: str) -> BattleplanInPlay:
    """Refuse a tally the battleplan doesn't keep, saying what decides it instead (`decided_by.<scoring>`),
    and every tally once the last warband standing decides, since the victory card is not checked again."""
    _require_battle(state)
    plan = state.plan()
    if plan.scoring not in allowed:
        raise RuleError(code=f"warcry.decided_by.{plan.scoring}", battleplan=plan.name, asked=what)
    if state.last_warband_decides:
        raise RuleError(code="warcry.last_warband_decides", round=state.round)
    return plan


def _require_known_player(state: WarcryState, player: int) -> None:
    if player not in state.players:
        raise RuleError(code="warcry.not_a_player")


def _require_at_most(count: int, limit: int) -> None:
    if count > limit:
        raise RuleError(code="warcry.too_many_fighters", limit=limit, count=count)


def _objective(state: WarcryState, name: str) -> str:
    wanted = name.strip().casefold()
    for objective in state.objectives:
        if objective.casefold() == wanted:
            return objective
    raise RuleError(code="warcry.no_objective", name=echo(name, 40), in_play=", ".join(state.objectives))


def _champion_on_field(state: WarcryState, player: int) -> Champion:
    _require_known_player(state, player)
    champion = state.champions.get(player)
    if champion is None or not champion.on_battlefield:
        raise RuleError(code="warcry.no_champion", player=player)
    return champion


def _reveal(plan: BattleplanInPlay) -> Notice:
    return Notice(
        code="battleplan",
        battleplan=plan,
        values={"battleplan": plan.name},
        dice=[d.result for d in plan.dice],
        text=f"The battleplan is {plan.name}.",
    )


def _s(count: int) -> str:
    return "" if count == 1 else "s"


Handler = Callable[[WarcryState, Any, Roller], tuple[WarcryState, list[Event]]]

_HANDLERS: dict[type, Handler] = {
    act.SplitBattleGroups: _split,
    act.ChooseColour: _colour,
    act.Deploy: _deploy,
    act.RollBlockedObjective: _blocked_objective,
    act.BeginBattle: _begin,
    act.SetInitiative: _initiative,
    act.SetTreasureCarriers: _treasure,
    act.SetCarrier: _carrier,
    act.SetFightersNear: _near,
    act.RollCarrierDamage: _carrier_damage,
    act.SetQuarters: _quarters,
    act.SetBloodTally: _blood,
    act.AwakenObjective: _awaken,
    act.SetControl: _control,
    act.RemoveObjective: _remove,
    act.SetOnAltar: _altar,
    act.NominateChampion: _nominate,
    act.AddChampionTally: _champion_tally,
    act.ChampionTakenDown: _champion_down,
    act.SetConditionMet: _condition,
    act.EndRound: _end_round,
    act.DeclareLastWarband: _last_warband,
    act.AnswerLastWarband: _answer_last_warband,
    ConfirmPending: _confirm,
}
