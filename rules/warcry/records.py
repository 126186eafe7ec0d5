"""The questions of what players record in a Warcry battle round: the tallies and records the
battleplan's victory card needs (rules/warcry/tallies.py takes their answers), asked of both players
and optional, so the battle goes on without them.

Step ids and option values are those rules/warcry/questions.py lists.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.session import InputField, NumberRange, Option, Question
from rules.warcry.models import QUARTERS, WarcryState
from rules.warcry.views import SCORING_ACTIONS, dormant_objectives
from rules.warcry.warband import MAX_FIGHTERS, MAX_POINTS
from rules.warcry.wording import CHAMPION_IN_BUTTON, objective, short
from rules.words import Marker, Words

N_ = Marker("warcry")

NOBODY = "none"
MAX_TALLY_ADD = 200  # one attack's damage added to a great champion's tally
CONTROL_PER_QUESTION = 8  # objectives per control question: 3 answers each stays within 25 options
MAX_LISTED = 25  # a tally with at most this many possible counts is picked from a list, not typed

Named = Callable[[str], Words]


Counted = Callable[[str, int], Words]


# number tallies: kind -> (topic, title naming whose tally it is)
TALLIES: dict[str, tuple[str, Named]] = {
    "treasure": ("warcry.treasure", lambda name: N_("Fighters carrying treasure: {name}", name=name)),
    "near": ("warcry.near", lambda name: N_('Fighters within 3" of the relic: {name}', name=name)),
    "quarters": ("warcry.quarters", lambda name: N_("Quarters held: {name}", name=name)),
    "blood": ("warcry.blood", lambda name: N_("Blood tally this round: {name}", name=name)),
    "altar": ("warcry.altar", lambda name: N_("Fighters on the altar: {name}", name=name)),
}


# tallies picked from a list: an option names whose count it is ("Alice: 2 held")
LISTED_TALLIES: dict[str, Counted] = {
    "treasure": lambda name, n: N_.p("button", "{name}: {count} carrying", name=name, count=n),
    "near": lambda name, n: N_.p("button", "{name}: {count} near", name=name, count=n),
    "quarters": lambda name, n: N_.p("button", "{name}: {count} held", name=name, count=n),
    "altar": lambda name, n: N_.p("button", "{name}: {count} on altar", name=name, count=n),
}


def tally_questions(state: WarcryState, r: str) -> list[Question]:
    """The tallies and records this battleplan's victory card needs, this round. Past the one extra
    round nothing is checked but the last warband standing, so none are asked."""
    plan = state.plan()
    kinds = [] if state.last_warband_decides else SCORING_ACTIONS[plan.scoring]
    asked: list[Question] = []
    if plan.scoring == "ley_lines" and kinds:
        asked += _initiative(state, r)
    for kind in kinds:
        if kind in TALLIES:
            asked += [_tally(state, r, kind, p) for p in state.players]
    if "carrier" in kinds:
        relic = plan.scoring == "cursed_relic"
        asked.append(
            Question(
                step=f"{r}.carrier",
                topic="warcry.carrier",
                players=list(state.players),
                title=N_("Who carries the relic") if relic else N_("Who carries the prize"),
                options=[
                    *(
                        Option(
                            value=str(p), label=N_.p("button", "Carrier: {name}", name=short_name(state, p))
                        )
                        for p in state.players
                    ),
                    Option(value=NOBODY, label=N_.p("button", "Carrier: nobody")),
                ],
                optional=True,
            )
        )
    if "carrier_damage" in kinds and state.carrier is not None:
        asked.append(
            Question(
                step=f"{r}.relic_damage",
                topic="warcry.relic_damage",
                kind="done",
                players=list(state.players),
                title=N_("Roll the relic's D6 damage"),
                optional=True,
                params={"player": state.carrier},
                options=[
                    Option(value="roll", label=N_.p("button", "Roll carrier's D6 damage"), tone="danger")
                ],
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
        asked.append(_condition(state, r))
    return asked


def _condition(state: WarcryState, r: str) -> Question:
    return Question(
        step=f"{r}.condition",
        topic="warcry.condition",
        players=list(state.players),
        title=N_("Who has achieved the victory condition"),
        options=[
            *(
                Option(value=str(p), label=N_.p("button", "Condition met: {name}", name=short_name(state, p)))
                for p in state.players
            ),
            Option(value=NOBODY, label=N_.p("button", "Condition met: nobody")),
        ],
        optional=True,
    )


def _initiative(state: WarcryState, r: str) -> list[Question]:
    options = []
    for player in state.players:
        why = Words.verbatim("")
        if player == state.initiative:
            why = N_.p("option", "They already have the initiative.")
        elif state.awakened_this_round is not None:
            why = N_.p(
                "option",
                "Objective {objective} was awakened this round: the initiative is fixed.",
                objective=objective(state.awakened_this_round),
            )
        options.append(
            Option(
                value=str(player),
                label=N_.p("button", "Initiative: {name}", name=short_name(state, player)),
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
            title=N_("Who has the initiative"),
            players=list(state.players),
            options=options,
            optional=True,
            params={"round": state.round},
        )
    ]


def _tally(state: WarcryState, r: str, kind: str, player: int) -> Question:
    topic, titled = TALLIES[kind]
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
    step, title = f"{r}.{kind}.p{slot(state, player)}", titled(name)
    params: dict[str, str | int | Words | None] = {"player": player, "round": state.round}
    counted = LISTED_TALLIES.get(kind)
    if counted is not None and maximum < MAX_LISTED:
        # a short list of counts: buttons or a menu naming whose count it is, so they read on the board
        return Question(
            step=step,
            topic=topic,
            title=title,
            players=list(state.players),
            options=[Option(value=str(n), label=counted(short(name), n)) for n in range(maximum + 1)],
            optional=True,
            params=params,
        )
    return Question(
        step=step,
        topic=topic,
        kind="number",
        title=title,
        players=list(state.players),
        number=NumberRange(minimum=0, maximum=maximum),
        optional=True,
        params={**params, "button": title},
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
            title=N_("Awaken a dormant objective"),
            players=[awakener],
            optional=True,
            params={"player": awakener, "round": state.round},
            options=objective_options(state, dormant),
        )
    ]


def objective_options(state: WarcryState, labels: list[str]) -> list[Option]:
    return [
        Option(
            value=objective_value(state, o),
            label=N_.p("button", "Objective {objective}", objective=objective(o)),
        )
        for o in labels
    ]


def _control(state: WarcryState, r: str) -> list[Question]:
    plan = state.plan()
    scoring = [o for o in state.objectives if plan.scoring != "ley_lines" or o in state.awakened]
    chunks = [scoring[i : i + CONTROL_PER_QUESTION] for i in range(0, len(scoring), CONTROL_PER_QUESTION)]
    asked = []
    for number, chunk in enumerate(chunks, start=1):
        options = [
            Option(value=f"{objective_value(state, o)}.{who}", label=label, group=group)
            for o in chunk
            for group in [N_.p("option", "Objective {objective}", objective=objective(o))]
            for who, label in (
                *(
                    (
                        str(p),
                        N_.p(
                            "button",
                            "{objective}: {name}",
                            objective=objective(o),
                            name=short_name(state, p),
                        ),
                    )
                    for p in state.players
                ),
                (NOBODY, N_.p("button", "{objective}: nobody", objective=objective(o))),
            )
        ]
        asked.append(
            Question(
                step=f"{r}.control.{number}",
                topic="warcry.control",
                title=N_("Who controls an objective"),
                players=list(state.players),
                options=options,
                optional=True,
                params={"round": state.round},
            )
        )
    return asked


def _champion(state: WarcryState, r: str, player: int) -> list[Question]:
    number, name = slot(state, player), state.label_of(player)
    champion = state.champions.get(player)
    both = list(state.players)
    if champion is None or not champion.on_battlefield:
        field = InputField(
            key="name", label=N_.p("label", "Which fighter is the great champion?"), max_length=60
        )
        return [
            Question(
                step=f"{r}.champion.p{number}",
                topic="warcry.champion",
                players=both,
                title=N_("Great champion: {name}", name=name),
                optional=True,
                params={"player": player},
                options=[
                    Option(
                        value="name",
                        label=N_.p("button", "Name champion: {name}", name=short(name)),
                        form=[field],
                    )
                ],
            )
        ]
    return [
        Question(
            step=f"{r}.tally.p{number}.t{champion.tally}",
            topic="warcry.champion_tally",
            kind="number",
            players=both,
            title=N_("Add to {champion}'s tally", champion=champion.name),
            optional=True,
            params={
                "player": player,
                "button": N_.p(
                    "button", "Add to {champion}'s tally", champion=short(champion.name, CHAMPION_IN_BUTTON)
                ),
            },
            number=NumberRange(minimum=1, maximum=MAX_TALLY_ADD),
        ),
        Question(
            step=f"{r}.down.p{number}",
            topic="warcry.champion_down",
            kind="done",
            players=both,
            title=N_("{champion} is taken down", champion=champion.name),
            optional=True,
            params={"player": player},
            options=[Option(value="down", label=N_.p("button", "Champion down: {name}", name=short(name)))],
        ),
    ]


def short_name(state: WarcryState, player: int) -> str:
    return short(state.label_of(player))


def slot(state: WarcryState, player: int) -> int:
    return state.players.index(player) + 1


def objective_value(state: WarcryState, objective: str) -> str:
    return f"o{state.plan().objective_labels.index(objective)}"
