"""The 40K mission's questions in the reader's language, and the words on each question's message.

The rules (rules/fortyk/questions.py) word each question in English; here every title, text, option
label and description and form field is worded again by its `topic`, option `value` and field `key`,
with the values the question carries in `params`, so the rules stay English and pure. Read in English,
a question comes out exactly as the rules asked it (a test holds the two together). `question_text`
says what a question's message shows: what is asked, of whom, and why a shown option can't be taken now.

Contexts carry Discord's limits: a title 256, a button label 80, a label 45 (a form field, and an
option that opens a form, which titles it), a placeholder 100 (`option`).
"""

from __future__ import annotations

from bot.lang.i18n import Domain
from cogs.fortyk.vocabulary import who, zone_name
from rules.fortyk.models import FortyKState
from rules.fortyk.questions import (
    DEPLOYED,
    DROP_RELIC,
    KILL,
    ORDER,
    REPORT,
    ROLL_DEPLOYMENT,
    ROLL_FIRST_TURN,
    SEIZE,
    TURN,
    ZONE,
)
from rules.session import InputField, Option, Question

_ = Domain("fortyk")


def _title(asked: Question) -> str:
    titles = {
        ROLL_DEPLOYMENT: _.p("title", "Roll off for deployment"),
        ZONE: _.p("title", "Choose your deployment zone"),
        DEPLOYED: _.p("title", "My army is deployed"),
        ROLL_FIRST_TURN: _.p("title", "Roll off for the first turn"),
        ORDER: _.p("title", "Go first or second?"),
        SEIZE: _.p("title", "Seize the initiative?"),
        TURN: _.p("title", "Your turn"),
        KILL: _.p("title", "Record a kill"),
        DROP_RELIC: _.p("title", "Drop the relic"),
        REPORT: _.p("title", "Correct my report") if asked.optional else _.p("title", "Report quarters"),
    }
    return titles.get(asked.topic, asked.title)


def _text(asked: Question) -> str:
    params = asked.params
    report = (
        _("Your report stands until your opponent reports; until then you may correct it.")
        if asked.optional
        else _(
            "The battle ended after round {round}. Claim the table quarters where you have more units "
            "wholly inside than the enemy (flyers do not count; {quarters} in all) and name your marked "
            "units still alive. You may correct it until your opponent has reported.",
            round=params.get("round"),
            quarters=params.get("quarters"),
        )
    )
    texts = {
        ROLL_DEPLOYMENT: _(
            "{mission} on {map}: the winner picks the deployment zone.",
            mission=params.get("mission"),
            map=params.get("map"),
        ),
        ZONE: _("You won the deployment roll-off: your opponent takes the opposite zone."),
        DEPLOYED: _(
            "Set up unit by unit, taking turns; the first to finish adds {bonus} to the first-turn roll-off.",
            bonus=params.get("bonus"),
        ),
        ROLL_FIRST_TURN: _("The winner chooses to go first or second."),
        ORDER: _("You won the first-turn roll-off."),
        SEIZE: _("The bot rolls a D6: {needs}+ gives you the first turn.", needs=params.get("needs")),
        TURN: _(
            "Battle round {round}. Mark a unit before moving; a marked unit is worth its bonus only in the "
            "turn it was marked.",
            round=params.get("round"),
        ),
        KILL: _("Record kills as they happen."),
        REPORT: report,
    }
    return texts.get(asked.topic, asked.text)


def _label(asked: Question, option: Option) -> str:
    if asked.topic == ZONE:
        return zone_name(option.label)
    labels = {
        (ROLL_DEPLOYMENT, "roll"): _.p("button", "Roll off for deployment"),
        (DEPLOYED, "done"): _.p("button", "My army is deployed"),
        (ROLL_FIRST_TURN, "roll"): _.p("button", "Roll off for the first turn"),
        (ORDER, "first"): _.p("button", "Go first"),
        (ORDER, "second"): _.p("button", "Go second"),
        (SEIZE, "yes"): _.p("button", "Try to seize"),
        (SEIZE, "no"): _.p("button", "Let them go first"),
        (TURN, "mark"): _.p("label", "Mark a unit"),
        (TURN, "take-relic"): _.p("label", "Take the enemy relic"),
        (TURN, "drop-relic"): _.p("button", "Drop the relic"),
        (TURN, "end-turn"): _.p("button", "End turn"),
        (KILL, "kill"): _.p("label", "Record a kill"),
        (DROP_RELIC, "drop"): _.p("button", "Drop the relic"),
        (REPORT, "report"): _.p("label", "Correct my report")
        if asked.optional
        else _.p("label", "Report quarters"),
    }
    return labels.get((asked.topic, option.value), option.label)


def _description(state: FortyKState, asked: Question, option: Option) -> str:
    params = asked.params
    carrier = params.get("relic_carrier")
    where = (asked.topic, option.value)
    zones = state.mission.deployment.zones
    if asked.topic == ZONE and option.value.isdigit() and int(option.value) < len(zones):
        opposite = zone_name(zones[int(option.value)].opposite)
        return _("The opponent deploys in the {zone}.", zone=opposite)
    if where == (TURN, "mark") and params.get("mark_closed") == "fortyk.marked_this_turn":
        return _("You marked {unit} this turn: one mark per turn.", unit=params.get("marked"))
    if where == (TURN, "mark") and params.get("mark_closed") == "fortyk.marking_closed":
        return _("Marks are declared at the start of the turn, before anything is recorded.")
    if where == (TURN, "take-relic") and carrier:
        return _("Your {unit} already carries the enemy relic.", unit=carrier)
    if where in {(TURN, "drop-relic"), (DROP_RELIC, "drop")} and carrier:
        return _("{unit} drops the enemy relic.", unit=carrier)
    return option.description


def _field(asked: Question, option: Option, field: InputField) -> InputField:
    placeholders = {
        "mark": _.p("option", "The enemy unit to mark for death"),
        "take-relic": _.p("option", "Your unit taking the relic"),
        "kill": _.p("option", "The enemy unit destroyed"),
    }
    match field.key:
        case "unit":
            label = _.p("label", "Unit")
            placeholder = placeholders.get(option.value, field.placeholder)
        case "quarters":
            label = _.p(
                "label", "Table quarters you claim (0-{quarters})", quarters=asked.params.get("quarters")
            )
            placeholder = _.p("option", "More units wholly inside than the enemy; no flyers")
        case "marked_alive":
            label = _.p("label", "Your marked units still alive")
            placeholder = _.p("option", "Empty: every marked unit not recorded destroyed")
        case _other:
            return field
    return field.model_copy(update={"label": label, "placeholder": placeholder})


def localise(state: FortyKState, asked: Question) -> Question:
    """`asked` in the language in force: only words change (every step, value and key is kept)."""
    options = [
        option.model_copy(
            update={
                "label": _label(asked, option),
                "description": _description(state, asked, option),
                "form": [_field(asked, option, f) for f in option.form],
            }
        )
        for option in asked.options
    ]
    return asked.model_copy(update={"title": _title(asked), "text": _text(asked), "options": options})


def question_text(state: FortyKState, asked: Question) -> str:
    """A question's message: what is asked and of whom (named, not pinged: the table pings once, when
    the message is posted), and why a shown option can't be taken now. The battle's one message
    follows the turns, so it says whose turn it is first. `asked` is already in the reader's words."""
    asking = ", ".join(who(p) for p in asked.players)
    lines = [f"**{asked.title}** · {asking}", asked.text]
    if asked.topic == TURN:
        lines = [
            _(
                "**Battle round {round}: {player}'s turn**",
                round=state.round,
                player=who(state.active_player),
            ),
            _(
                "Mark a unit before moving: a marked unit is worth its bonus only in the turn it was marked. "
                "Record kills with the board's button as they happen; press End turn when your turn is over."
            ),
        ]
    elif asked.topic == DEPLOYED:
        lines.append(
            _("{player} sets up a unit first; then take turns unit by unit.", player=who(state.deploys_first))
        )
        lines += [_("{player} has finished deploying.", player=who(p)) for p in state.setup_done]
    lines += [f"• {o.label}: {o.description}" for o in asked.options if o.disabled and o.description]
    return "\n".join(line for line in lines if line)
