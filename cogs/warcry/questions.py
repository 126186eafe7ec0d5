"""A Warcry battle's questions in the language in force (`WarcryAdapter.localise`).

The rules word each question in English (rules/warcry/questions.py); this says the same by its
`topic`, its `params` and the battle's state: the title, option labels and descriptions, form labels
and a number button's label. Every `step`, `value` and `key` is kept, so answers are checked against
the rules' own questions. In English a question is shown exactly as the rules ask it.

Beside them: what a question's message says under its title (`QUESTION_TEXT`), and what the battle
waits for now in one line (`prompt`, the board's "Now").
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat.limits import BUTTON_LABEL
from bot.lang.i18n import Domain
from cogs.warcry.vocabulary import NameOf, group, mention, objective, pending_title, summary
from rules.session import Option, Question
from rules.text import clip
from rules.warcry.battle import WarcryState
from rules.warcry.models import Scoring
from rules.warcry.questions import NOBODY
from rules.warcry.views import dormant_objectives

_ = Domain("warcry")
NAME_IN_BUTTON = 20  # of a player's name in a button label, so the words around it still fit
CHAMPION_IN_BUTTON = 40  # of a champion's name, the only words of its button besides a few

Labels = Callable[[Option], str]


def localise(state: WarcryState, asked: Question) -> Question:
    """`asked` with its words in the language in force (as asked for a topic this doesn't know)."""
    words = _TOPICS.get(asked.topic)
    return words(state, asked) if words is not None else asked


def _reworded(
    asked: Question,
    title: str,
    label: Labels | None = None,
    *,
    description: Labels | None = None,
    option_group: Labels | None = None,
    button: str | None = None,
) -> Question:
    options = [
        o.model_copy(
            update={
                "label": label(o) if label else o.label,
                "description": description(o) if description and o.description else o.description,
                "group": option_group(o) if option_group and o.group else o.group,
                "form": [f.model_copy(update={"label": _field_label(f.key, f.label)}) for f in o.form],
            }
        )
        for o in asked.options
    ]
    params = {**asked.params, "button": button} if button is not None else asked.params
    return asked.model_copy(update={"title": title, "options": options, "params": params})


def _field_label(key: str, english: str) -> str:
    if key == "name":
        return _.p("label", "Which fighter is the great champion?")
    if key in ("dagger", "shield", "hammer"):
        return _.p("label", "Fighters in your {group}", group=group(key))
    return english


def _player(asked: Question) -> int:
    player = asked.params.get("player")
    return player if isinstance(player, int) else 0


def _name(state: WarcryState, value: str) -> str | None:
    """The short name of the player an option's value names (None: nobody)."""
    return (
        clip(state.label_of(int(value)), NAME_IN_BUTTON)
        if value.isdigit() and int(value) in state.players
        else None
    )


def _objective_of(state: WarcryState, value: str) -> str:
    """An objective by the option value the rules give it (`o2`), as shown."""
    labels = state.plan().objective_labels
    index = value[1:].split(".", 1)[0]
    return objective(labels[int(index)]) if index.isdigit() and int(index) < len(labels) else value


def _players_or_nobody(state: WarcryState, named: Callable[[str], str], nobody: Callable[[], str]) -> Labels:
    def label(option: Option) -> str:
        name = _name(state, option.value)
        return named(name) if name is not None else nobody()

    return label


# ---------------------------------------------------------------- by topic


def _colour(state: WarcryState, asked: Question) -> Question:
    takes = {"red": _.p("button", "Take red"), "blue": _.p("button", "Take blue")}
    return _reworded(asked, _("Choose red or blue deployment points"), lambda o: takes.get(o.value, o.label))


def _deploy(state: WarcryState, asked: Question) -> Question:
    name, shown = state.label_of(_player(asked)), group(asked.params.get("group"))
    return _reworded(
        asked,
        _("{name}: set up your {group}", name=name, group=shown),
        lambda o: _.p("button", "{name}: {group} set up", name=clip(name, NAME_IN_BUTTON), group=shown),
    )


def _split(state: WarcryState, asked: Question) -> Question:
    return _reworded(
        asked,
        _("Split your warband into Dagger, Shield and Hammer"),
        lambda o: _.p("button", "Split battle groups"),
    )


def _objective_options(state: WarcryState, asked: Question, title: str) -> Question:
    return _reworded(
        asked,
        title,
        lambda o: _.p("button", "Objective {objective}", objective=_objective_of(state, o.value)),
    )


def _remove(state: WarcryState, asked: Question) -> Question:
    return _objective_options(state, asked, _("Remove one objective from play"))


def _awaken(state: WarcryState, asked: Question) -> Question:
    return _objective_options(state, asked, _("Awaken a dormant objective"))


def _claim(state: WarcryState, asked: Question) -> Question:
    labels = {
        "yes": _.p("button", "Confirm: only their warband is left"),
        "no": _.p("button", "Reject the claim"),
    }
    return _reworded(
        asked,
        _("Only {name}'s warband is left: confirm or reject", name=state.label_of(_player(asked))),
        lambda o: labels.get(o.value, o.label),
    )


def _carrier(state: WarcryState, asked: Question) -> Question:
    relic = state.plan().scoring == "cursed_relic"
    title = _("Who carries the relic") if relic else _("Who carries the prize")
    return _reworded(
        asked,
        title,
        _players_or_nobody(
            state,
            lambda name: _.p("button", "Carrier: {name}", name=name),
            lambda: _.p("button", "Carrier: nobody"),
        ),
    )


def _condition(state: WarcryState, asked: Question) -> Question:
    return _reworded(
        asked,
        _("Who has achieved the victory condition"),
        _players_or_nobody(
            state,
            lambda name: _.p("button", "Condition met: {name}", name=name),
            lambda: _.p("button", "Condition met: nobody"),
        ),
    )


def _last_warband(state: WarcryState, asked: Question) -> Question:
    return _reworded(
        asked,
        _("Only one warband is left on the battlefield"),
        lambda o: _.p("button", "Only {name}'s warband is left", name=_name(state, o.value) or o.value),
    )


def _end_round(state: WarcryState, asked: Question) -> Question:
    number = asked.params.get("round", state.round)
    return _reworded(
        asked,
        _("End battle round {round}", round=number),
        lambda o: _.p("button", "End battle round {round}", round=number),
    )


def _initiative(state: WarcryState, asked: Question) -> Question:
    def why(option: Option) -> str:
        if option.value == str(state.initiative):
            return _.p("option", "They already have the initiative.")
        return _.p(
            "option",
            "Objective {objective} was awakened this round: the initiative is fixed.",
            objective=objective(state.awakened_this_round),
        )

    return _reworded(
        asked,
        _("Who has the initiative"),
        lambda o: _.p("button", "Initiative: {name}", name=_name(state, o.value) or o.value),
        description=why,
    )


TALLY_TITLES: dict[str, str] = {
    "warcry.treasure": _.mark("Fighters carrying treasure: {name}"),
    "warcry.near": _.mark('Fighters within 3" of the relic: {name}'),
    "warcry.quarters": _.mark("Quarters held: {name}"),
    "warcry.blood": _.mark("Blood tally this round: {name}"),
    "warcry.altar": _.mark("Fighters on the altar: {name}"),
}
TALLY_COUNTS: dict[str, Callable[[str, str], str]] = {
    "warcry.treasure": lambda name, count: _.p("button", "{name}: {count} carrying", name=name, count=count),
    "warcry.near": lambda name, count: _.p("button", "{name}: {count} near", name=name, count=count),
    "warcry.quarters": lambda name, count: _.p("button", "{name}: {count} held", name=name, count=count),
    "warcry.altar": lambda name, count: _.p("button", "{name}: {count} on altar", name=name, count=count),
}


def _tally(state: WarcryState, asked: Question) -> Question:
    name = state.label_of(_player(asked))
    title = _(TALLY_TITLES[asked.topic], name=name)
    counts = TALLY_COUNTS.get(asked.topic)
    if asked.kind == "number" or counts is None:
        return _reworded(asked, title, button=clip(title, BUTTON_LABEL) if "button" in asked.params else None)
    return _reworded(asked, title, lambda o: counts(clip(name, NAME_IN_BUTTON), o.value))


def _confirm(state: WarcryState, asked: Question) -> Question:
    labels = {"confirm": _.p("button", "Confirm"), "not_yet": _.p("button", "Not yet")}
    title = pending_title(state) if state.pending is not None else asked.title
    return _reworded(asked, title, lambda o: labels.get(o.value, o.label))


def _control(state: WarcryState, asked: Question) -> Question:
    def label(option: Option) -> str:
        who = option.value.split(".", 1)[-1]
        name = _name(state, who)
        place = _objective_of(state, option.value)
        if who == NOBODY or name is None:
            return _.p("button", "{objective}: nobody", objective=place)
        return _.p("button", "{objective}: {name}", objective=place, name=name)

    return _reworded(
        asked,
        _("Who controls an objective"),
        label,
        option_group=lambda o: _.p(
            "option", "Objective {objective}", objective=_objective_of(state, o.value)
        ),
    )


def _champion(state: WarcryState, asked: Question) -> Question:
    name = state.label_of(_player(asked))
    return _reworded(
        asked,
        _("Great champion: {name}", name=name),
        lambda o: _.p("button", "Name champion: {name}", name=clip(name, NAME_IN_BUTTON)),
    )


def _champion_name(state: WarcryState, asked: Question) -> str:
    champion = state.champions.get(_player(asked))
    return champion.name if champion is not None else state.label_of(_player(asked))


def _champion_tally(state: WarcryState, asked: Question) -> Question:
    champion = _champion_name(state, asked)
    return _reworded(
        asked,
        _("Add to {champion}'s tally", champion=champion),
        button=_.p("button", "Add to {champion}'s tally", champion=clip(champion, CHAMPION_IN_BUTTON)),
    )


def _champion_down(state: WarcryState, asked: Question) -> Question:
    name = state.label_of(_player(asked))
    return _reworded(
        asked,
        _("{champion} is taken down", champion=_champion_name(state, asked)),
        lambda o: _.p("button", "Champion down: {name}", name=clip(name, NAME_IN_BUTTON)),
    )


def _begin(state: WarcryState, asked: Question) -> Question:
    return _reworded(asked, _("Begin battle"), lambda o: _.p("button", "Begin battle"))


def _blocked(state: WarcryState, asked: Question) -> Question:
    return _reworded(
        asked, _("Blocked objective roll-off"), lambda o: _.p("button", "Blocked objective roll-off")
    )


def _relic_damage(state: WarcryState, asked: Question) -> Question:
    return _reworded(
        asked, _("Roll the relic's D6 damage"), lambda o: _.p("button", "Roll carrier's D6 damage")
    )


_TOPICS: dict[str, Callable[[WarcryState, Question], Question]] = {
    "warcry.colour": _colour,
    "warcry.deploy": _deploy,
    "warcry.begin": _begin,
    "warcry.blocked_objective": _blocked,
    "warcry.split": _split,
    "warcry.remove": _remove,
    "warcry.awaken": _awaken,
    "warcry.claim": _claim,
    "warcry.carrier": _carrier,
    "warcry.relic_damage": _relic_damage,
    "warcry.condition": _condition,
    "warcry.last_warband": _last_warband,
    "warcry.end_round": _end_round,
    "warcry.initiative": _initiative,
    **dict.fromkeys(TALLY_TITLES, _tally),
    "warcry.confirm": _confirm,
    "warcry.control": _control,
    "warcry.champion": _champion,
    "warcry.champion_tally": _champion_tally,
    "warcry.champion_down": _champion_down,
}


# What a question's message says under its title, by topic (the title is the battle's own).
QUESTION_TEXT: dict[str, str] = {
    "warcry.split": _.mark(
        "Type how many fighters go in each battle group. The player who lost the priority roll splits first."
    ),
    "warcry.colour": _.mark("The winner of the priority roll picks the deployment points."),
    "warcry.deploy": _.mark(
        "Set up each battle group at its deployment point, taking turns; press the button once it is set up."
    ),
    "warcry.begin": _.mark(
        "Place the objectives and treasure the battleplan shows, then either player begins the battle."
    ),
    "warcry.end_round": _.mark(
        "Record the round on the board as you play; press this when the round is over. The other player "
        "confirms (or you confirm your own)."
    ),
    "warcry.confirm": _.mark(
        "Either player answers: the other player confirms, or the player who pressed it confirms their "
        "own. Not yet leaves everything as it was."
    ),
    "warcry.remove": _.mark("The battle waits for this before the next battle round."),
    "warcry.claim": _.mark("Confirm if only their fighters are left on the battlefield; they then win."),
}


# ---------------------------------------------------------------- what the battle waits for


def _round_heading(state: WarcryState, hint: str) -> str:
    plan = state.plan()
    if state.round == plan.rounds + 1:
        return _(
            "Battle round {round} (an extra round: the battle is tied): {hint}", round=state.round, hint=hint
        )
    if state.round > plan.rounds + 1:
        return _(
            "Battle round {round} (the last warband standing decides): {hint}", round=state.round, hint=hint
        )
    return _("Battle round {round}: {hint}", round=state.round, hint=hint)


ROUND_HINTS: dict[Scoring, str] = {
    "treasure_hunters": _.mark(
        "keep the count of fighters carrying treasure up to date, then end the round."
    ),
    "cursed_relic": _.mark(
        "record who carries the relic (roll its D6 damage after the carrier's activation) "
        'and the fighters within 3", then end the round.'
    ),
    "no_quarter": _.mark("keep the count of quarters each player holds up to date, then end the round."),
    "reaper": _.mark("enter each player's blood tally for this round, then end the round."),
    "hidden_vault": _.mark("record who controls each objective, then end the round."),
    "cursed_prize": _.mark("record who carries the prize, then end the round."),
    "altar_of_ascendancy": _.mark("keep the count of fighters on the altar up to date, then end the round."),
    "brutal_conquest": _.mark("name great champions and add to their tallies, then end the round."),
    "manual": _.mark("record who has achieved the victory card's condition, then end the round."),
}


def _hint(state: WarcryState, name_of: NameOf) -> str:
    plan = state.plan()
    if state.last_warband_decides:
        return _(
            "the victory card is no longer checked. Fight on, ending each round, and declare the last "
            "warband "
            "standing once only one player's fighters are left on the battlefield."
        )
    if plan.scoring != "ley_lines":
        return _(ROUND_HINTS[plan.scoring])
    if state.initiative is None:
        return _("record who has the initiative; the other player may then awaken a dormant objective.")
    if state.awakened_this_round is None and dormant_objectives(state):
        return _(
            "{other} may awaken a dormant objective; record who controls the awakened ones, then end the "
            "round.",
            other=name_of(state.opponent(state.initiative)),
        )
    return _("record who controls the awakened objectives, then end the round.")


def prompt(state: WarcryState, name_of: NameOf = mention) -> str:
    """One line: what the battle waits for now."""
    if state.finished:
        return summary(state)
    if state.phase == "battle_groups":
        turn = (
            state.loser_of_priority
            if state.loser_of_priority not in state.splits
            else state.winner_of_priority
        )
        return _("{player}, split your warband into Dagger, Shield and Hammer.", player=name_of(turn))
    if state.phase == "colours":
        return _("{player}, choose red or blue deployment points.", player=name_of(state.winner_of_priority))
    if state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        return _("{player}, set up your {group}.", player=name_of(current.player), group=group(current.group))
    if state.phase == "objectives":
        return _("Place the objectives and treasure, then press Begin battle.")
    if state.pending is not None:
        by = state.pending.by
        return _(
            "{title} {other} confirms, or {by} confirms their own.",
            title=pending_title(state),
            other=name_of(state.opponent(by)),
            by=name_of(by),
        )
    if state.removal_by is not None:
        return _("{player}, remove one objective from play.", player=name_of(state.removal_by))
    if state.last_warband_claim is not None:
        claimant = state.last_warband_claim
        return _(
            "{player}, confirm or reject the claim that only {claimant}'s fighters are left.",
            player=name_of(state.opponent(claimant)),
            claimant=name_of(claimant),
        )
    return _round_heading(state, _hint(state, name_of))
