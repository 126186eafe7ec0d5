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
from rules.session import Action, Answer, InputField, Option, Question
from rules.warcry import actions as act
from rules.warcry.battlegroups import GROUP_TITLES
from rules.warcry.models import WarcryState
from rules.warcry.pack import GROUPS
from rules.warcry.records import NOBODY, objective_options, short_name, slot, tally_questions
from rules.warcry.warband import MAX_FIGHTERS
from rules.warcry.wording import listed, pending_title, short
from rules.words import Marker, Words

N_ = Marker("warcry")

BATTLE_SERIES = "battle"  # "End battle round N" and the confirmations: one message for the battle


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
                title=N_("Choose red or blue deployment points"),
                players=[state.winner_of_priority],
                params={"player": state.winner_of_priority},
                options=[
                    Option(value="red", label=N_.p("button", "Take red"), tone="danger"),
                    Option(value="blue", label=N_.p("button", "Take blue"), tone="main"),
                ],
            )
        )
    elif state.phase == "deployment":
        index = next(i for i, s in enumerate(state.deployment) if not s.done)
        tag = f"deploy.{index}"
        asked.append(_deploy(state, index))
    elif state.phase == "objectives":
        tag = "objectives"
        asked.append(
            Question(
                step="objectives.begin",
                topic="warcry.begin",
                kind="done",
                title=N_("Begin battle"),
                players=list(state.players),
                options=[Option(value="begin", label=N_.p("button", "Begin battle"), tone="go")],
            )
        )
    plan = state.battleplan
    if plan is not None and (plan.objectives or plan.treasure):
        asked.append(
            Question(
                step=f"{tag}.blocked",
                topic="warcry.blocked_objective",
                kind="done",
                title=N_("Blocked objective roll-off"),
                players=list(state.players),
                optional=True,
                options=[Option(value="roll", label=N_.p("button", "Blocked objective roll-off"))],
            )
        )
    return asked


def _deploy(state: WarcryState, index: int) -> Question:
    current = state.deployment[index]
    name, group = state.label_of(current.player), GROUP_TITLES[current.group]
    return Question(
        step=f"deploy.{index}",
        topic="warcry.deploy",
        kind="done",
        title=N_("{name}: set up your {group}", name=name, group=group),
        players=[current.player],
        series="deploy",
        params={"player": current.player, "group": current.group},
        options=[
            Option(
                value=current.group,
                label=N_.p("button", "{name}: {group} set up", name=short(name), group=group),
                tone="main",
            )
        ],
    )


def _split_questions(state: WarcryState) -> list[Question]:
    first, second = state.loser_of_priority, state.winner_of_priority
    turn = first if first not in state.splits else second
    if turn in state.splits:
        return []
    form = [
        InputField(
            key=g,
            label=N_.p("label", "Fighters in your {group}", group=GROUP_TITLES[g]),
            kind="number",
            minimum=0,
            maximum=MAX_FIGHTERS,
            max_length=2,
            placeholder=Words.verbatim("3"),
        )
        for g in GROUPS
    ]
    return [
        Question(
            step=f"split.p{slot(state, turn)}",
            topic="warcry.split",
            title=N_("Split your warband into Dagger, Shield and Hammer"),
            players=[turn],
            series="split",
            params={"player": turn},
            options=[
                Option(value="split", label=N_.p("button", "Split battle groups"), tone="main", form=form)
            ],
        )
    ]


def _battle_questions(state: WarcryState) -> list[Question]:
    r = f"r{state.round}"
    if state.pending is not None:
        return [_confirmation(state, r, state.pending)]
    if state.removal_by is not None:
        return [
            Question(
                step=f"{r}.remove",
                topic="warcry.remove",
                title=N_("Remove one objective from play"),
                players=[state.removal_by],
                params={"player": state.removal_by, "round": state.round},
                options=objective_options(state, state.objectives),
            )
        ]
    if state.last_warband_claim is not None:
        return [_claim(state, r, state.last_warband_claim)]
    asked = tally_questions(state, r)
    if state.extra_rounds:
        asked.append(
            Question(
                step=f"{r}.last_warband",
                topic="warcry.last_warband",
                players=list(state.players),
                title=N_("Only one warband is left on the battlefield"),
                optional=True,
                options=[
                    Option(
                        value=str(p),
                        label=N_.p("button", "Only {name}'s warband is left", name=short_name(state, p)),
                    )
                    for p in state.players
                ],
            )
        )
    asked.append(
        Question(
            step=f"{r}.end",
            topic="warcry.end_round",
            kind="done",
            players=list(state.players),
            title=N_("End battle round {round}", round=state.round),
            series=BATTLE_SERIES,
            params={"round": state.round},
            options=[
                Option(
                    value="end",
                    label=N_.p("button", "End battle round {round}", round=state.round),
                    tone="go",
                )
            ],
        )
    )
    return asked


def _claim(state: WarcryState, r: str, claimant: int) -> Question:
    return Question(
        step=f"{r}.claim",
        topic="warcry.claim",
        players=[state.opponent(claimant)],
        title=N_("Only {name}'s warband is left: confirm or reject", name=state.label_of(claimant)),
        params={"player": claimant, "round": state.round},
        options=[
            Option(value="yes", label=N_.p("button", "Confirm: only their warband is left"), tone="go"),
            Option(value="no", label=N_.p("button", "Reject the claim"), tone="danger"),
        ],
    )


def _confirmation(state: WarcryState, r: str, pending: Request[act.Confirmable]) -> Question:
    """A step pressed by one player, offered to both: the other confirms, or its player confirms their own."""
    return confirmation.question(
        pending,
        state.players,
        prefix=f"{r}.confirm.",
        topic="warcry.confirm",
        title=pending_title(state, pending.action),
        text=Words.verbatim(""),
        series=BATTLE_SERIES,
        player=pending.by,
        round=state.round,
    )


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
        raise RuleError(code="warcry.no_objective", name=value, in_play=listed(state.objectives))
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
