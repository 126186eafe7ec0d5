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
from rules.fortyk.actions import (
    CaptureRelic,
    ChooseOrder,
    ChooseZone,
    DropRelic,
    EndTurn,
    FinishDeployment,
    FortyKAction,
    MarkUnit,
    RecordDestroyed,
    ReportEnd,
    RollForDeployment,
    RollForFirstTurn,
    SeizeInitiative,
)
from rules.fortyk.mission import zone_words
from rules.fortyk.models import FortyKState, Phase
from rules.fortyk.units import holder_of_relic, why_no_mark
from rules.session import NO_WORDS, Answer, InputField, Option, Params, Question
from rules.words import Marker, Words

UNIT_NAME_LIMIT = 80
NONE_WORDS = {"none", "no", "-", "0", "nothing"}
N_ = Marker("fortyk")
"""Contexts carry Discord's limits: a title 256, a button label 80, a label 45 (a form field, and an
option that opens a form, which titles it), a placeholder 100 (`option`)."""

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


def battle_step(state: FortyKState) -> str:
    """The step-id prefix of the current player turn: `r<battle round>.t<1 or 2>`."""
    return f"r{state.round}.t{state.turn + 1}"


def turn_step(state: FortyKState) -> str:
    """The step id of the active player's turn question (its "End turn" among it)."""
    return f"{battle_step(state)}.turn"


def _unit_field(placeholder: Words) -> InputField:
    return InputField(
        key="unit", label=N_.p("label", "Unit"), max_length=UNIT_NAME_LIMIT, placeholder=placeholder
    )


def _roll(
    step: str,
    topic: str,
    words: tuple[Words, Words, Words],
    players: list[int],
    params: Params,
    series: str | None = None,
) -> Question:
    """A roll-off: one button both players may press, which the bot rolls for."""
    title, label, text = words
    return Question(
        step=step,
        topic=topic,
        title=title,
        text=text,
        players=players,
        kind="done",
        series=series,
        options=[Option(value="roll", label=label, tone="main")],
        params=params,
    )


def questions(state: FortyKState) -> list[Question]:
    """Every question the game asks now, of anyone; each names the players who may answer it."""
    match state.phase:
        case Phase.BATTLE:
            return _battle_questions(state)
        case Phase.SCORING:
            return _report_questions(state)
        case Phase.FINISHED:
            return []
    return [_setup_question(state)]


def _setup_question(state: FortyKState) -> Question:
    """The one question of the set-up: roll-offs, the zone, deploying, the order and the seize."""
    both = list(state.players)
    mission = state.mission
    match state.phase:
        case Phase.DEPLOYMENT_ROLL:
            return _roll(
                "setup.deploy-roll",
                ROLL_DEPLOYMENT,
                (
                    N_.p("title", "Roll off for deployment"),
                    N_.p("button", "Roll off for deployment"),
                    N_(
                        "{mission} on {map}: the winner picks the deployment zone.",
                        mission=mission.title,
                        map=mission.deployment.map,
                    ),
                ),
                both,
                {"mission": mission.title, "map": mission.deployment.map},
            )
        case Phase.CHOOSE_ZONE:
            return _zone_question(state)
        case Phase.DEPLOYING:
            return _deployed_question(state)
        case Phase.FIRST_TURN_ROLL:
            bonuses = state.first_turn_bonuses()
            return _roll(
                "setup.first-roll",
                ROLL_FIRST_TURN,
                (
                    N_.p("title", "Roll off for the first turn"),
                    N_.p("button", "Roll off for the first turn"),
                    N_("The winner chooses to go first or second."),
                ),
                both,
                {"bonus_first_player": bonuses[0], "bonus_second_player": bonuses[1]},
                series=DEPLOYMENT_SERIES,
            )
        case Phase.CHOOSE_ORDER:
            return _order_question(state)
        case Phase.SEIZE:
            return _seize_question(state)
    raise AssertionError(state.phase)  # pragma: no cover


def _zone_question(state: FortyKState) -> Question:
    assert state.deployment_roll is not None
    chooser = state.deployment_roll.winner
    return Question(
        step="setup.zone",
        topic=ZONE,
        title=N_.p("title", "Choose your deployment zone"),
        text=N_("You won the deployment roll-off: your opponent takes the opposite zone."),
        players=[chooser],
        series=DEPLOYMENT_SERIES,
        params={"player": chooser},
        options=[
            Option(
                value=str(i),
                label=zone_words(z.name),
                description=N_("The opponent deploys in the {zone}.", zone=zone_words(z.opposite)),
            )
            for i, z in enumerate(state.mission.deployment.zones)
        ],
    )


def _deployed_question(state: FortyKState) -> Question:
    waiting = [p for p in state.players if p not in state.setup_done]
    bonus = state.mission.first_turn.setup_first_bonus
    return Question(
        step="setup.deployed",
        topic=DEPLOYED,
        title=N_.p("title", "My army is deployed"),
        text=N_(
            "Set up unit by unit, taking turns; the first to finish adds {bonus} to the first-turn roll-off.",
            bonus=bonus,
        ),
        players=waiting,
        kind="done",
        series=DEPLOYMENT_SERIES,
        options=[Option(value="done", label=N_.p("button", "My army is deployed"), tone="go")],
        params={"first": state.deploys_first, "bonus": bonus},
    )


def _order_question(state: FortyKState) -> Question:
    assert state.first_turn_roll is not None
    chooser = state.first_turn_roll.winner
    return Question(
        step="setup.order",
        topic=ORDER,
        title=N_.p("title", "Go first or second?"),
        text=N_("You won the first-turn roll-off."),
        players=[chooser],
        params={"player": chooser},
        options=[
            Option(value="first", label=N_.p("button", "Go first"), tone="main"),
            Option(value="second", label=N_.p("button", "Go second")),
        ],
    )


def _seize_question(state: FortyKState) -> Question:
    assert state.first_turn_roll is not None and state.mission.first_turn.seize_on is not None
    seizer = state.opponent(state.first_turn_roll.winner)
    needs = state.mission.first_turn.seize_on
    return Question(
        step="setup.seize",
        topic=SEIZE,
        title=N_.p("title", "Seize the initiative?"),
        text=N_("The bot rolls a D6: {needs}+ gives you the first turn.", needs=needs),
        players=[seizer],
        params={"player": seizer, "needs": needs},
        options=[
            Option(value="yes", label=N_.p("button", "Try to seize"), tone="main"),
            Option(value="no", label=N_.p("button", "Let them go first")),
        ],
    )


def _why_no_mark(closed: RuleError | None) -> Words:
    """Why the mark option is closed now, in the option's own words (shorter than the refusal)."""
    if closed is None:
        return NO_WORDS
    if closed.code == "fortyk.marked_this_turn":
        return N_(
            "You marked {unit} this turn: one mark per turn.", unit=str(closed.params.get("unit") or "")
        )
    return N_("Marks are declared at the start of the turn, before anything is recorded.")


def _turn_options(state: FortyKState, active: int) -> list[Option]:
    """The active player's turn: mark, take or drop the enemy relic, end the turn; an option that
    can't be taken now is shown closed, with why."""
    mission = state.mission
    options: list[Option] = []
    if mission.marks is not None:
        closed = why_no_mark(state, active)
        options.append(
            Option(
                value="mark",
                label=N_.p("label", "Mark a unit"),
                tone="danger",
                disabled=closed is not None,
                description=_why_no_mark(closed),
                form=[_unit_field(N_.p("option", "The enemy unit to mark for death"))],
            )
        )
    if mission.relics is not None:
        carrier = holder_of_relic(state, state.opponent(active))
        options.append(
            Option(
                value="take-relic",
                label=N_.p("label", "Take the enemy relic"),
                disabled=carrier is not None,
                description=N_("Your {unit} already carries the enemy relic.", unit=carrier.unit)
                if carrier
                else NO_WORDS,
                form=[_unit_field(N_.p("option", "Your unit taking the relic"))],
            )
        )
        if carrier is not None:
            options.append(_drop_option("drop-relic", carrier.unit))
    options.append(Option(value="end-turn", label=N_.p("button", "End turn"), tone="go"))
    return options


def _drop_option(value: str, unit: str) -> Option:
    return Option(
        value=value,
        label=N_.p("button", "Drop the relic"),
        description=N_("{unit} drops the enemy relic.", unit=unit),
    )


def _battle_questions(state: FortyKState) -> list[Question]:
    """The active player's turn, recording a kill (either player, any time) and, in the enemy's turn,
    dropping the relic the player's unit carries."""
    active = state.active_player
    assert active is not None
    other = state.opponent(active)
    prefix = battle_step(state)
    params: Params = {"round": state.round, "player": active}
    asked = [
        Question(
            step=f"{prefix}.turn",
            topic=TURN,
            title=N_.p("title", "Your turn"),
            text=N_(
                "Battle round {round}. Mark a unit before moving; a marked unit is worth its bonus only in "
                "the turn it was marked.",
                round=state.round,
            ),
            players=[active],
            options=_turn_options(state, active),
            series=BATTLE_SERIES,
            params=params,
        ),
        Question(
            step=f"{prefix}.kill",
            topic=KILL,
            title=N_.p("title", "Record a kill"),
            text=N_("Record kills as they happen."),
            players=list(state.players),
            optional=True,
            params=params,
            options=[
                Option(
                    value="kill",
                    label=N_.p("label", "Record a kill"),
                    form=[_unit_field(N_.p("option", "The enemy unit destroyed"))],
                )
            ],
        ),
    ]
    carried = holder_of_relic(state, active) if state.mission.relics is not None else None
    if carried is not None:
        asked.append(
            Question(
                step=f"{prefix}.drop",
                topic=DROP_RELIC,
                title=N_.p("title", "Drop the relic"),
                players=[other],
                optional=True,
                params=params,
                options=[_drop_option("drop", carried.unit)],
            )
        )
    return asked


def _quarters_label(quarters: int) -> Words:
    return N_.p("label", "Table quarters you claim (0-{quarters})", quarters=quarters)


def _report_form(quarters: int) -> list[InputField]:
    return [
        InputField(
            key="quarters",
            label=_quarters_label(quarters),
            kind="number",
            minimum=0,
            maximum=quarters,
            max_length=1,
            placeholder=N_.p("option", "More units wholly inside than the enemy; no flyers"),
        ),
        InputField(
            key="marked_alive",
            label=N_.p("label", "Your marked units still alive"),
            required=False,
            max_length=1000,
            placeholder=N_.p("option", "Empty: every marked unit not recorded destroyed"),
        ),
    ]


def _report_questions(state: FortyKState) -> list[Question]:
    """The end report, awaited from each player who hasn't reported; a player who has may still
    correct theirs until the opponent reports, a tool the game doesn't wait for."""
    quarters = state.mission.table_quarters
    reported = [r.player for r in state.reports]
    waiting = [p for p in state.players if p not in reported]
    form = _report_form(quarters)
    params: Params = {"round": state.ended_after_round, "quarters": quarters}
    asked = []
    if waiting:
        asked.append(
            Question(
                step="end.report",
                topic=REPORT,
                title=N_.p("title", "Report quarters"),
                text=N_(
                    "The battle ended after round {round}. Claim the table quarters where you have more "
                    "units wholly inside than the enemy (flyers do not count; {quarters} in all) and name "
                    "your marked units still alive. You may correct it until your opponent has reported.",
                    round=state.ended_after_round,
                    quarters=quarters,
                ),
                players=waiting,
                params=params,
                options=[
                    Option(value="report", label=N_.p("label", "Report quarters"), tone="main", form=form)
                ],
            )
        )
    if reported:
        asked.append(
            Question(
                step="end.correct",
                topic=REPORT,
                title=N_.p("title", "Correct my report"),
                text=N_("Your report stands until your opponent reports; until then you may correct it."),
                players=reported,
                optional=True,
                params=params,
                options=[Option(value="report", label=N_.p("label", "Correct my report"), form=form)],
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
            quarters=_whole_number(
                answer.fields.get("quarters", ""), _quarters_label(state.mission.table_quarters)
            ),
            marked_alive=parse_unit_list(answer.fields.get("marked_alive")),
        )
    raise RuleError(code="answer.not_offered")  # pragma: no cover - ask offers nothing else


def _whole_number(text: str, field: Words) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RuleError(code="answer.field_number", field=field) from None
