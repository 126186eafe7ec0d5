"""What the mission asks each player now (`ask`), and the action a checked answer stands for
(`to_action`): the prompt contract of rules/session.py for the 40K mission.

Step ids name the moment a question belongs to: `setup.zone`, `r3.t2.turn` (battle round 3, the
second player's turn), `end.report`. An answer carries the step id it was asked under, so an answer to
a question the game has moved past is refused as stale instead of acting on the present: an "End
turn" from an earlier turn can't end a later one.

How the table shows them: every player turn's question is one `series` ("battle"), so a whole battle
is one message that follows the turns (nobody is pinged turn after turn); the zone choice, deploying
and the first-turn roll-off that follow it are one series ("deployment"). Recording a kill and
dropping the relic are `optional`: tools the game goes on without, shown on the board. The roll-off
winners' choices and the seize are questions of their own, so the player who must decide is told.
"""

from __future__ import annotations

from rules.errors import RuleError
from rules.fortyk.models import (
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    DropRelic,
    EndTurn,
    FinishDeployment,
    FortyKAction,
    FortyKState,
    MarkUnit,
    Phase,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.units import holder_of_relic, why_no_mark
from rules.session import Answer, InputField, Option, Question

UNIT_NAME_LIMIT = 80
NONE_WORDS = {"none", "no", "-", "0", "nothing"}

# Topics: stable codes for what is asked.
ROLL_DEPLOYMENT = "fortyk.roll_deployment"
ZONE = "fortyk.zone"
DEPLOYED = "fortyk.deployed"
ROLL_FIRST_TURN = "fortyk.roll_first_turn"
ORDER = "fortyk.order"
SEIZE = "fortyk.seize"
TURN = "fortyk.turn"
KILL = "fortyk.kill"
DROP_RELIC = "fortyk.drop_relic"
REPORT = "fortyk.report"

# Series: runs of questions the table shows as one message each.
DEPLOYMENT_SERIES = "deployment"
BATTLE_SERIES = "battle"

# Why a shown option can't be taken now, in the question's own words.
_WHY_NO_MARK = {
    "fortyk.marked_this_turn": "You marked {unit} this turn: one mark per turn.",
    "fortyk.marking_closed": "Marks are declared at the start of the turn, before anything is recorded.",
}


def battle_step(state: FortyKState) -> str:
    """The step-id prefix of the current player turn: `r<battle round>.t<1 or 2>`."""
    return f"r{state.round}.t{state.turn + 1}"


def turn_step(state: FortyKState) -> str:
    """The step id of the active player's turn question (its "End turn" among it)."""
    return f"{battle_step(state)}.turn"


def _unit_field(placeholder: str) -> InputField:
    return InputField(key="unit", label="Unit", max_length=UNIT_NAME_LIMIT, placeholder=placeholder)


def _roll(
    step: str,
    topic: str,
    label: str,
    text: str,
    players: list[int],
    params: dict[str, str | int | None],
    series: str | None = None,
) -> Question:
    return Question(
        step=step,
        topic=topic,
        title=label,
        text=text,
        players=players,
        kind="done",
        series=series,
        options=[Option(value="roll", label=label, tone="main")],
        params=params,
    )


def questions(state: FortyKState) -> list[Question]:
    """Every question the game asks now, of anyone; each names the players who may answer it."""
    both = list(state.players)
    mission = state.mission
    match state.phase:
        case Phase.DEPLOYMENT_ROLL:
            return [
                _roll(
                    "setup.deploy-roll",
                    ROLL_DEPLOYMENT,
                    "Roll off for deployment",
                    f"{mission.title} on {mission.deployment.map}: the winner picks the deployment zone.",
                    both,
                    {"mission": mission.title, "map": mission.deployment.map},
                )
            ]
        case Phase.CHOOSE_ZONE:
            assert state.deployment_roll is not None
            chooser = state.deployment_roll.winner
            return [
                Question(
                    step="setup.zone",
                    topic=ZONE,
                    title="Choose your deployment zone",
                    text="You won the deployment roll-off: your opponent takes the opposite zone.",
                    players=[chooser],
                    series=DEPLOYMENT_SERIES,
                    params={"player": chooser},
                    options=[
                        Option(
                            value=str(i),
                            label=z.name,
                            description=f"The opponent deploys in the {z.opposite}.",
                        )
                        for i, z in enumerate(mission.deployment.zones)
                    ],
                )
            ]
        case Phase.DEPLOYING:
            waiting = [p for p in both if p not in state.setup_done]
            bonus = mission.first_turn.setup_first_bonus
            return [
                Question(
                    step="setup.deployed",
                    topic=DEPLOYED,
                    title="My army is deployed",
                    text=f"Set up unit by unit, taking turns; the first to finish adds {bonus} to the "
                    "first-turn roll-off.",
                    players=waiting,
                    kind="done",
                    series=DEPLOYMENT_SERIES,
                    options=[Option(value="done", label="My army is deployed", tone="go")],
                    params={"first": state.deploys_first, "bonus": bonus},
                )
            ]
        case Phase.FIRST_TURN_ROLL:
            bonuses = state.first_turn_bonuses()
            return [
                _roll(
                    "setup.first-roll",
                    ROLL_FIRST_TURN,
                    "Roll off for the first turn",
                    "The winner chooses to go first or second.",
                    both,
                    {"bonus_first_player": bonuses[0], "bonus_second_player": bonuses[1]},
                    series=DEPLOYMENT_SERIES,
                )
            ]
        case Phase.CHOOSE_ORDER:
            assert state.first_turn_roll is not None
            chooser = state.first_turn_roll.winner
            return [
                Question(
                    step="setup.order",
                    topic=ORDER,
                    title="Go first or second?",
                    text="You won the first-turn roll-off.",
                    players=[chooser],
                    params={"player": chooser},
                    options=[
                        Option(value="first", label="Go first", tone="main"),
                        Option(value="second", label="Go second"),
                    ],
                )
            ]
        case Phase.SEIZE:
            assert state.first_turn_roll is not None and mission.first_turn.seize_on is not None
            seizer = state.opponent(state.first_turn_roll.winner)
            needs = mission.first_turn.seize_on
            return [
                Question(
                    step="setup.seize",
                    topic=SEIZE,
                    title="Seize the initiative?",
                    text=f"The bot rolls a D6: {needs}+ gives you the first turn.",
                    players=[seizer],
                    params={"player": seizer, "needs": needs},
                    options=[
                        Option(value="yes", label="Try to seize", tone="main"),
                        Option(value="no", label="Let them go first"),
                    ],
                )
            ]
        case Phase.BATTLE:
            return _battle_questions(state)
        case Phase.SCORING:
            return _report_questions(state)
        case Phase.FINISHED:
            return []
    raise AssertionError(state.phase)  # pragma: no cover


def _battle_questions(state: FortyKState) -> list[Question]:
    active = state.active_player
    assert active is not None
    other = state.opponent(active)
    mission = state.mission
    prefix = battle_step(state)
    params: dict[str, str | int | None] = {"round": state.round, "player": active}
    # The turn's question also carries why an option is closed, as values: its English description is
    # made from them here, and a translation (the cog's localise) words them again.
    turn_params = dict(params)
    options: list[Option] = []
    if mission.marks is not None:
        closed = why_no_mark(state, active)
        turn_params["mark_closed"] = closed.code if closed is not None else None
        turn_params["marked"] = str(closed.params.get("unit") or "") if closed is not None else None
        why = _WHY_NO_MARK[closed.code].format(**closed.params) if closed is not None else ""
        options.append(
            Option(
                value="mark",
                label="Mark a unit",
                tone="danger",
                disabled=closed is not None,
                description=why,
                form=[_unit_field("The enemy unit to mark for death")],
            )
        )
    if mission.relics is not None:
        carrier = holder_of_relic(state, other)
        turn_params["relic_carrier"] = carrier.unit if carrier is not None else None
        options.append(
            Option(
                value="take-relic",
                label="Take the enemy relic",
                disabled=carrier is not None,
                description=f"Your {carrier.unit} already carries the enemy relic." if carrier else "",
                form=[_unit_field("Your unit taking the relic")],
            )
        )
        if carrier is not None:
            options.append(
                Option(
                    value="drop-relic",
                    label="Drop the relic",
                    description=f"{carrier.unit} drops the enemy relic.",
                )
            )
    options.append(Option(value="end-turn", label="End turn", tone="go"))
    asked = [
        Question(
            step=f"{prefix}.turn",
            topic=TURN,
            title="Your turn",
            text=f"Battle round {state.round}. Mark a unit before moving; a marked unit is worth its bonus "
            "only in the turn it was marked.",
            players=[active],
            options=options,
            series=BATTLE_SERIES,
            params=turn_params,
        ),
        Question(
            step=f"{prefix}.kill",
            topic=KILL,
            title="Record a kill",
            text="Record kills as they happen.",
            players=list(state.players),
            optional=True,
            params=params,
            options=[
                Option(value="kill", label="Record a kill", form=[_unit_field("The enemy unit destroyed")])
            ],
        ),
    ]
    if mission.relics is not None:
        carried = holder_of_relic(state, active)
        if carried is not None:
            asked.append(
                Question(
                    step=f"{prefix}.drop",
                    topic=DROP_RELIC,
                    title="Drop the relic",
                    players=[other],
                    optional=True,
                    params={**params, "relic_carrier": carried.unit},
                    options=[
                        Option(
                            value="drop",
                            label="Drop the relic",
                            description=f"{carried.unit} drops the enemy relic.",
                        )
                    ],
                )
            )
    return asked


def _report_questions(state: FortyKState) -> list[Question]:
    """The end report, awaited from each player who hasn't reported; a player who has may still
    correct theirs until the opponent reports, a tool the game doesn't wait for."""
    quarters = state.mission.table_quarters
    reported = [r.player for r in state.reports]
    waiting = [p for p in state.players if p not in reported]
    form = [
        InputField(
            key="quarters",
            label=f"Table quarters you claim (0-{quarters})",
            kind="number",
            minimum=0,
            maximum=quarters,
            max_length=1,
            placeholder="More units wholly inside than the enemy; no flyers",
        ),
        InputField(
            key="marked_alive",
            label="Your marked units still alive",
            required=False,
            max_length=1000,
            placeholder="Empty: every marked unit not recorded destroyed",
        ),
    ]
    params: dict[str, str | int | None] = {"round": state.ended_after_round, "quarters": quarters}
    asked = []
    if waiting:
        asked.append(
            Question(
                step="end.report",
                topic=REPORT,
                title="Report quarters",
                text=f"The battle ended after round {state.ended_after_round}. Claim the table quarters "
                f"where you have more units wholly inside than the enemy (flyers do not count; {quarters} "
                "in all) and name your marked units still alive. You may correct it until your opponent "
                "has reported.",
                players=waiting,
                params=params,
                options=[Option(value="report", label="Report quarters", tone="main", form=form)],
            )
        )
    if reported:
        asked.append(
            Question(
                step="end.correct",
                topic=REPORT,
                title="Correct my report",
                text="Your report stands until your opponent reports; until then you may correct it.",
                players=reported,
                optional=True,
                params=params,
                options=[Option(value="report", label="Correct my report", form=form)],
            )
        )
    return asked


def ask(state: FortyKState, player: int) -> list[Question]:
    """The questions `player` may answer now."""
    return [q for q in questions(state) if player in q.players]


def parse_unit_list(text: str | None) -> list[str] | None:
    """Comma- or line-separated unit names; empty means "work it out", a word like "none" means none."""
    if text is None or not text.strip():
        return None
    if text.strip().casefold() in NONE_WORDS:
        return []
    names = [part.strip() for chunk in text.splitlines() for part in chunk.split(",")]
    names = [n for n in names if n]
    if any(len(n) > UNIT_NAME_LIMIT for n in names):
        raise RuleError(code="fortyk.unit_long", limit=UNIT_NAME_LIMIT)
    return names


def to_action(state: FortyKState, question: Question, answer: Answer) -> FortyKAction:
    """The action a checked answer to `question` stands for."""
    actor = answer.actor
    topic = question.topic
    value = answer.values[0] if answer.values else ""
    unit = answer.fields.get("unit", "")
    simple: dict[str, FortyKAction] = {
        ROLL_DEPLOYMENT: RollForDeployment(actor=actor),
        DEPLOYED: FinishDeployment(actor=actor),
        ROLL_FIRST_TURN: RollForFirstTurn(actor=actor),
        DROP_RELIC: DropRelic(actor=actor),
    }
    if topic in simple:
        return simple[topic]
    if topic == ZONE:
        return ChooseZone(actor=actor, zone=state.mission.deployment.zones[int(value)].name)
    if topic == ORDER:
        return ChooseOrder(actor=actor, go_first=value == "first")
    if topic == SEIZE:
        return SeizeInitiative(actor=actor, attempt=value == "yes")
    if topic == KILL:
        return RecordDestroyed(actor=actor, unit=unit)
    if topic == TURN:
        if value == "mark":
            return MarkUnit(actor=actor, unit=unit)
        if value == "take-relic":
            return CaptureRelic(actor=actor, unit=unit)
        if value == "drop-relic":
            return DropRelic(actor=actor)
        if value == "end-turn":
            return EndTurn(actor=actor)
    if topic == REPORT:
        return ReportEnd(
            actor=actor,
            quarters=_whole_number(answer.fields.get("quarters", ""), "Table quarters"),
            marked_alive=parse_unit_list(answer.fields.get("marked_alive")),
        )
    raise RuleError(code="answer.not_offered")  # pragma: no cover - ask offers nothing else


def _whole_number(text: str, field: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RuleError(code="answer.field_number", field=field) from None
