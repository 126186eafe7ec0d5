"""What a Warcry battle asks each player now (`ask`), and how a checked answer becomes its action.

Every question is built once for the whole battle and handed to the players it names, so a question
both players may answer (the end of a round, a tally either may record) has one step id. Step ids
carry where the battle stands — the set-up step, the battle round, a champion's tally — so an answer
to a question the battle has moved past (an old button) is refused as stale before anything steps.

Step ids (players by slot, 1 or 2, in the order of `state.players`):
- `split.p<slot>`, `colours`, `deploy.<n>` (n-th set-up of a battle group, from 0), `objectives.begin`;
  `colours.blocked`, `deploy.<n>.blocked`, `objectives.blocked` (the blocked-objective roll-off);
- in battle round r: `r<r>.end`, `r<r>.confirm.<n>` (the battle's n-th confirmation, from 0),
  `r<r>.initiative`, `r<r>.<tally>.p<slot>` (tally: treasure, near,
  quarters, blood, altar), `r<r>.carrier`, `r<r>.relic_damage`, `r<r>.awaken`, `r<r>.control.<k>`,
  `r<r>.remove`, `r<r>.claim`, `r<r>.last_warband`, `r<r>.condition`, `r<r>.champion.p<slot>`,
  `r<r>.tally.p<slot>.t<tally so far>`, `r<r>.down.p<slot>`.
Option values: a player's user id (or `none`), an objective by its place on the battleplan (`o0`…),
`o<i>.<player id|none>` for who controls an objective, a colour, `yes`/`no`, `confirm`/`not_yet`, a
count for a tally short enough to list.

What the table makes of them: the tallies and records the battle goes on without are `optional` (they
sit on the board); the battle waits on the rest. Runs of one kind share a `series` and so one message:
the two splits, the set-up of the battle groups, and the battle's own run of "End battle round N" and
its confirmations.
"""

from __future__ import annotations

from collections.abc import Callable

from rules import confirmation
from rules.confirmation import Request
from rules.errors import RuleError
from rules.session import Action, Answer, InputField, NumberRange, Option, Question
from rules.warcry import actions as act
from rules.warcry.battle import GROUP_TITLES, QUARTERS, WarcryState, pending_title
from rules.warcry.models import GROUPS
from rules.warcry.views import SCORING_ACTIONS, dormant_objectives
from rules.warcry.warband import MAX_FIGHTERS, MAX_POINTS

NOBODY = "none"
MAX_TALLY_ADD = 200  # one attack's damage added to a great champion's tally
CONTROL_PER_QUESTION = 8  # objectives per control question: 3 answers each stays within 25 options
MAX_LISTED = 25  # a tally with at most this many possible counts is picked from a list, not typed
BATTLE_SERIES = "battle"  # "End battle round N" and the confirmations: one message for the battle

# number tallies: kind -> (topic, title)
TALLIES: dict[str, tuple[str, str]] = {
    "treasure": ("warcry.treasure", "Fighters carrying treasure"),
    "near": ("warcry.near", 'Fighters within 3" of the relic'),
    "quarters": ("warcry.quarters", "Quarters held"),
    "blood": ("warcry.blood", "Blood tally this round"),
    "altar": ("warcry.altar", "Fighters on the altar"),
}
# tallies picked from a list: the word after the count on its option ("Alice: 2 held")
LISTED_TALLIES: dict[str, str] = {
    "treasure": "carrying",
    "near": "near",
    "quarters": "held",
    "altar": "on altar",
}


def ask(state: WarcryState, player: int) -> list[Question]:
    """Every question `player` may answer now; options are exactly the legal answers."""
    if state.finished or player not in state.players:
        return []
    return [q for q in questions(state) if player in q.players]


def questions(state: WarcryState) -> list[Question]:
    """Every question the battle puts to either player now."""
    if state.finished:
        return []
    if state.phase == "battle_groups":
        return _split_questions(state)
    if state.phase == "battle":
        return _battle_questions(state)
    asked: list[Question] = []
    tag = "colours"
    if state.phase == "colours":
        asked.append(
            Question(
                step="colours",
                topic="warcry.colour",
                title="Choose red or blue deployment points",
                players=[state.winner_of_priority],
                params={"player": state.winner_of_priority},
                options=[
                    Option(value="red", label="Take red", tone="danger"),
                    Option(value="blue", label="Take blue", tone="main"),
                ],
            )
        )
    elif state.phase == "deployment":
        index, current = next((i, s) for i, s in enumerate(state.deployment) if not s.done)
        tag = f"deploy.{index}"
        group = GROUP_TITLES[current.group]
        asked.append(
            Question(
                step=tag,
                topic="warcry.deploy",
                kind="done",
                title=f"{state.label_of(current.player)}: set up your {group}",
                players=[current.player],
                series="deploy",
                params={"player": current.player, "group": current.group},
                options=[
                    Option(
                        value=current.group,
                        label=f"{state.label_of(current.player)[:20]}: {group} set up",
                        tone="main",
                    )
                ],
            )
        )
    elif state.phase == "objectives":
        tag = "objectives"
        asked.append(
            Question(
                step="objectives.begin",
                topic="warcry.begin",
                kind="done",
                title="Begin battle",
                players=list(state.players),
                options=[Option(value="begin", label="Begin battle", tone="go")],
            )
        )
    plan = state.battleplan
    if plan is not None and (plan.objectives or plan.treasure):
        asked.append(
            Question(
                step=f"{tag}.blocked",
                topic="warcry.blocked_objective",
                kind="done",
                title="Blocked objective roll-off",
                players=list(state.players),
                optional=True,
                options=[Option(value="roll", label="Blocked objective roll-off")],
            )
        )
    return asked


def _split_questions(state: WarcryState) -> list[Question]:
    first, second = state.loser_of_priority, state.winner_of_priority
    turn = first if first not in state.splits else second
    if turn in state.splits:
        return []
    form = [
        InputField(
            key=g,
            label=f"Fighters in your {GROUP_TITLES[g]}",
            kind="number",
            minimum=0,
            maximum=MAX_FIGHTERS,
            max_length=2,
            placeholder="3",
        )
        for g in GROUPS
    ]
    return [
        Question(
            step=f"split.p{_slot(state, turn)}",
            topic="warcry.split",
            title="Split your warband into Dagger, Shield and Hammer",
            players=[turn],
            series="split",
            params={"player": turn},
            options=[Option(value="split", label="Split battle groups", tone="main", form=form)],
        )
    ]


def _battle_questions(state: WarcryState) -> list[Question]:
    plan = state.plan()
    r = f"r{state.round}"
    both = list(state.players)
    if state.pending is not None:
        return [_confirmation(state, r, state.pending)]
    if state.removal_by is not None:
        return [
            Question(
                step=f"{r}.remove",
                topic="warcry.remove",
                title="Remove one objective from play",
                players=[state.removal_by],
                params={"player": state.removal_by, "round": state.round},
                options=[
                    Option(value=_objective_value(state, o), label=f"Objective {o}") for o in state.objectives
                ],
            )
        ]
    if state.last_warband_claim is not None:
        claimant = state.last_warband_claim
        return [
            Question(
                step=f"{r}.claim",
                topic="warcry.claim",
                players=[state.opponent(claimant)],
                title=f"Only {state.label_of(claimant)}'s warband is left: confirm or reject",
                params={"player": claimant, "round": state.round},
                options=[
                    Option(value="yes", label="Confirm: only their warband is left", tone="go"),
                    Option(value="no", label="Reject the claim", tone="danger"),
                ],
            )
        ]
    asked: list[Question] = []
    # past the one extra round nothing is checked but the last warband standing: no tallies are asked
    kinds = [] if state.last_warband_decides else SCORING_ACTIONS[plan.scoring]
    if plan.scoring == "ley_lines" and kinds:
        asked += _initiative(state, r)
    for kind in kinds:
        if kind in TALLIES:
            asked += [_tally(state, r, kind, p) for p in state.players]
    if "carrier" in kinds:
        asked.append(
            Question(
                step=f"{r}.carrier",
                topic="warcry.carrier",
                players=both,
                title="Who carries the " + ("relic" if plan.scoring == "cursed_relic" else "prize"),
                options=_player_options(state, "Carrier", nobody=True),
                optional=True,
            )
        )
    if "carrier_damage" in kinds and state.carrier is not None:
        asked.append(
            Question(
                step=f"{r}.relic_damage",
                topic="warcry.relic_damage",
                kind="done",
                players=both,
                title="Roll the relic's D6 damage",
                optional=True,
                params={"player": state.carrier},
                options=[Option(value="roll", label="Roll carrier's D6 damage", tone="danger")],
            )
        )
    if "awaken" in kinds:
        asked += _awaken(state, r)
    if "control" in kinds:
        asked += _control(state, r)
    if "champion" in kinds:
        for player in state.players:
            asked += _champion(state, r, player)
    if "condition" in kinds:
        asked.append(
            Question(
                step=f"{r}.condition",
                topic="warcry.condition",
                players=both,
                title="Who has achieved the victory condition",
                options=_player_options(state, "Condition met", nobody=True),
                optional=True,
            )
        )
    if state.extra_rounds:
        asked.append(
            Question(
                step=f"{r}.last_warband",
                topic="warcry.last_warband",
                players=both,
                title="Only one warband is left on the battlefield",
                optional=True,
                options=[
                    Option(value=str(p), label=f"Only {state.label_of(p)[:20]}'s warband is left")
                    for p in state.players
                ],
            )
        )
    asked.append(
        Question(
            step=f"{r}.end",
            topic="warcry.end_round",
            kind="done",
            players=both,
            title=f"End battle round {state.round}",
            series=BATTLE_SERIES,
            params={"round": state.round},
            options=[Option(value="end", label=f"End battle round {state.round}", tone="go")],
        )
    )
    return asked


def _initiative(state: WarcryState, r: str) -> list[Question]:
    options = []
    for player in state.players:
        why = ""
        if player == state.initiative:
            why = "They already have the initiative."
        elif state.awakened_this_round is not None:
            why = f"Objective {state.awakened_this_round} was awakened this round: the initiative is fixed."
        options.append(
            Option(
                value=str(player),
                label=f"Initiative: {state.label_of(player)[:20]}",
                disabled=bool(why),
                description=why,
            )
        )
    if all(o.disabled for o in options):
        return []
    return [
        Question(
            step=f"{r}.initiative",
            topic="warcry.initiative",
            title="Who has the initiative",
            players=list(state.players),
            options=options,
            optional=True,
            params={"round": state.round},
        )
    ]


def _tally(state: WarcryState, r: str, kind: str, player: int) -> Question:
    topic, title = TALLIES[kind]
    other = state.opponent(player)
    plan = state.plan()
    maximum = {
        "treasure": plan.treasure - state.carrying.get(other, 0),
        "near": MAX_FIGHTERS,
        "quarters": QUARTERS - state.quarters.get(other, 0),
        "blood": MAX_POINTS - state.blood_total.get(player, 0),
        "altar": MAX_FIGHTERS,
    }[kind]
    maximum = max(0, maximum)
    name = state.label_of(player)
    step, titled = f"{r}.{kind}.p{_slot(state, player)}", f"{title}: {name}"
    params: dict[str, str | int | None] = {"player": player, "round": state.round}
    if kind in LISTED_TALLIES and maximum < MAX_LISTED:
        # a short list of counts: buttons or a menu naming whose count it is, so they read on the board
        return Question(
            step=step,
            topic=topic,
            title=titled,
            players=list(state.players),
            options=[
                Option(value=str(n), label=f"{name[:20]}: {n} {LISTED_TALLIES[kind]}")
                for n in range(maximum + 1)
            ],
            optional=True,
            params=params,
        )
    return Question(
        step=step,
        topic=topic,
        kind="number",
        title=titled,
        players=list(state.players),
        number=NumberRange(minimum=0, maximum=maximum),
        optional=True,
        params={**params, "button": titled[:80]},
    )


def _confirmation(state: WarcryState, r: str, pending: Request[act.Confirmable]) -> Question:
    """A step pressed by one player, offered to both: the other confirms, or its player confirms their own."""
    return confirmation.question(
        pending,
        state.players,
        prefix=f"{r}.confirm.",
        topic="warcry.confirm",
        title=pending_title(state, pending),
        text="",
        series=BATTLE_SERIES,
        player=pending.by,
        round=state.round,
    )


def _awaken(state: WarcryState, r: str) -> list[Question]:
    dormant = dormant_objectives(state)
    if state.initiative is None or state.awakened_this_round is not None or not dormant:
        return []
    awakener = state.opponent(state.initiative)
    return [
        Question(
            step=f"{r}.awaken",
            topic="warcry.awaken",
            title="Awaken a dormant objective",
            players=[awakener],
            optional=True,
            params={"player": awakener, "round": state.round},
            options=[Option(value=_objective_value(state, o), label=f"Objective {o}") for o in dormant],
        )
    ]


def _control(state: WarcryState, r: str) -> list[Question]:
    plan = state.plan()
    scoring = [o for o in state.objectives if plan.scoring != "ley_lines" or o in state.awakened]
    chunks = [scoring[i : i + CONTROL_PER_QUESTION] for i in range(0, len(scoring), CONTROL_PER_QUESTION)]
    asked = []
    for number, chunk in enumerate(chunks, start=1):
        options = [
            Option(value=f"{_objective_value(state, o)}.{who}", label=f"{o}: {name}", group=f"Objective {o}")
            for o in chunk
            for who, name in (*((str(p), state.label_of(p)[:20]) for p in state.players), (NOBODY, "nobody"))
        ]
        asked.append(
            Question(
                step=f"{r}.control.{number}",
                topic="warcry.control",
                title="Who controls an objective",
                players=list(state.players),
                options=options,
                optional=True,
                params={"round": state.round},
            )
        )
    return asked


def _champion(state: WarcryState, r: str, player: int) -> list[Question]:
    slot, name = _slot(state, player), state.label_of(player)
    champion = state.champions.get(player)
    both = list(state.players)
    if champion is None or not champion.on_battlefield:
        field = InputField(key="name", label="Which fighter is the great champion?", max_length=60)
        return [
            Question(
                step=f"{r}.champion.p{slot}",
                topic="warcry.champion",
                players=both,
                title=f"Great champion: {name}",
                optional=True,
                params={"player": player},
                options=[Option(value="name", label=f"Name champion: {name[:20]}", form=[field])],
            )
        ]
    return [
        Question(
            step=f"{r}.tally.p{slot}.t{champion.tally}",
            topic="warcry.champion_tally",
            kind="number",
            players=both,
            title=f"Add to {champion.name}'s tally",
            optional=True,
            params={"player": player, "button": f"Add to {champion.name[:40]}'s tally"},
            number=NumberRange(minimum=1, maximum=MAX_TALLY_ADD),
        ),
        Question(
            step=f"{r}.down.p{slot}",
            topic="warcry.champion_down",
            kind="done",
            players=both,
            title=f"{champion.name} is taken down",
            optional=True,
            params={"player": player},
            options=[Option(value="down", label=f"Champion down: {name[:20]}")],
        ),
    ]


def _player_options(state: WarcryState, label: str, nobody: bool) -> list[Option]:
    options = [Option(value=str(p), label=f"{label}: {state.label_of(p)[:20]}") for p in state.players]
    return options + ([Option(value=NOBODY, label=f"{label}: nobody")] if nobody else [])


def _slot(state: WarcryState, player: int) -> int:
    return state.players.index(player) + 1


def _objective_value(state: WarcryState, objective: str) -> str:
    return f"o{state.plan().objective_labels.index(objective)}"


# ---------------------------------------------------------------- answers into actions


def to_action(state: WarcryState, question: Question, answer: Answer) -> Action:
    """The battle's own action for an answer `check_answer` has passed against `question`."""
    build = _BUILDERS.get(question.topic)
    if build is None:
        raise RuleError(code="warcry.unknown_action")
    return build(state, question, answer)


def _player(state: WarcryState, value: str) -> int | None:
    if value == NOBODY:
        return None
    if not value.isdigit() or int(value) not in state.players:
        raise RuleError(code="warcry.not_a_player")
    return int(value)


def _someone(state: WarcryState, value: str) -> int:
    player = _player(state, value)
    if player is None:
        raise RuleError(code="warcry.not_a_player")
    return player


def _objective(state: WarcryState, value: str) -> str:
    labels = state.plan().objective_labels
    index = value[1:]
    if not (value.startswith("o") and index.isdigit() and int(index) < len(labels)):
        raise RuleError(code="warcry.no_objective", name=value, in_play=", ".join(state.objectives))
    return labels[int(index)]


def _number(answer: Answer) -> int:
    """A typed number, or a count picked from a list (both already checked against the question)."""
    if answer.number is not None:
        return answer.number
    return int(answer.values[0])


def _tally_player(question: Question) -> int:
    player = question.params.get("player")
    assert isinstance(player, int)
    return player


def _split_action(state: WarcryState, question: Question, answer: Answer) -> Action:
    sizes = {g: int(answer.fields[g].strip()) for g in GROUPS}
    return act.SplitBattleGroups(
        actor=answer.actor, dagger=sizes["dagger"], shield=sizes["shield"], hammer=sizes["hammer"]
    )


def _control_action(state: WarcryState, question: Question, answer: Answer) -> Action:
    objective, _, who = answer.values[0].partition(".")
    return act.SetControl(
        actor=answer.actor, objective=_objective(state, objective), player=_player(state, who)
    )


Builder = Callable[[WarcryState, Question, Answer], Action]

_BUILDERS: dict[str, Builder] = {
    "warcry.split": _split_action,
    "warcry.colour": lambda s, q, a: act.ChooseColour(
        actor=a.actor, colour="red" if a.values[0] == "red" else "blue"
    ),
    "warcry.deploy": lambda s, q, a: act.Deploy(
        actor=a.actor, group=next(g for g in GROUPS if g == q.params.get("group"))
    ),
    "warcry.blocked_objective": lambda s, q, a: act.RollBlockedObjective(actor=a.actor),
    "warcry.begin": lambda s, q, a: act.BeginBattle(actor=a.actor),
    "warcry.remove": lambda s, q, a: act.RemoveObjective(actor=a.actor, objective=_objective(s, a.values[0])),
    "warcry.claim": lambda s, q, a: act.AnswerLastWarband(actor=a.actor, accept=a.values[0] == "yes"),
    "warcry.initiative": lambda s, q, a: act.SetInitiative(actor=a.actor, player=_someone(s, a.values[0])),
    "warcry.treasure": lambda s, q, a: act.SetTreasureCarriers(
        actor=a.actor, player=_tally_player(q), count=_number(a)
    ),
    "warcry.near": lambda s, q, a: act.SetFightersNear(
        actor=a.actor, player=_tally_player(q), count=_number(a)
    ),
    "warcry.quarters": lambda s, q, a: act.SetQuarters(
        actor=a.actor, player=_tally_player(q), count=_number(a)
    ),
    "warcry.blood": lambda s, q, a: act.SetBloodTally(
        actor=a.actor, player=_tally_player(q), points=_number(a)
    ),
    "warcry.altar": lambda s, q, a: act.SetOnAltar(actor=a.actor, player=_tally_player(q), count=_number(a)),
    "warcry.carrier": lambda s, q, a: act.SetCarrier(actor=a.actor, player=_player(s, a.values[0])),
    "warcry.relic_damage": lambda s, q, a: act.RollCarrierDamage(actor=a.actor),
    "warcry.awaken": lambda s, q, a: act.AwakenObjective(actor=a.actor, objective=_objective(s, a.values[0])),
    "warcry.control": _control_action,
    "warcry.champion": lambda s, q, a: act.NominateChampion(
        actor=a.actor, player=_tally_player(q), name=a.fields["name"].strip()[:60]
    ),
    "warcry.champion_tally": lambda s, q, a: act.AddChampionTally(
        actor=a.actor, player=_tally_player(q), amount=_number(a)
    ),
    "warcry.champion_down": lambda s, q, a: act.ChampionTakenDown(actor=a.actor, player=_tally_player(q)),
    "warcry.condition": lambda s, q, a: act.SetConditionMet(actor=a.actor, player=_player(s, a.values[0])),
    "warcry.last_warband": lambda s, q, a: act.DeclareLastWarband(
        actor=a.actor, player=_someone(s, a.values[0])
    ),
    "warcry.end_round": lambda s, q, a: act.EndRound(actor=a.actor, round=s.round),
    "warcry.confirm": lambda s, q, a: confirmation.to_action(q, a.actor, a.values),
}

TOPICS = frozenset(_BUILDERS)
"""Every question topic a Warcry battle asks."""
