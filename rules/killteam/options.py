"""What Kill Team's questions offer, worded once in English for the catalogue (`N_`): sides and
initiative, missions and maps, factions and archetypes, Tac Ops, scouting and the battle's buttons;
and the frame every question is built in (`question`), so public and private ones carry the same
params.

Option values are ids that fit a component (mission, map and Tac Op ids, scouting ids, or the pack's
slugs for faction and archetype names). The pack's own names (missions, factions, Tac Ops) are shown
as the pack has them; a shipped scouting card's effect is looked up in the catalogue by its English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rules.killteam.labels import card_label, map_group
from rules.killteam.models import BATTLE_READY_VP, DROP_ZONES, KillTeamState
from rules.killteam.pack import MAP_GROUPS, MapGroup, TacOp, slug
from rules.session import VALUE_PATTERN, NumberRange, Option, Question, QuestionKind
from rules.words import Marker, Words

N_ = Marker("killteam")

DONE_OPTION = Option(value="done", label=N_.p("button", "Done"), tone="go")
NO_FACTION = "_none"  # the faction option for "other"; never a slug, so it can't clash with a faction
BATTLE_END, BATTLE_READY, BATTLE_NOT_READY = "end", "ready", "not_ready"
SIDE_OPTIONS = [
    Option(value="attack", label=N_.p("button", "Attack")),
    Option(value="defend", label=N_.p("button", "Defend")),
]
INITIATIVE_OPTIONS = [
    Option(value="take", label=N_.p("button", "Take the initiative")),
    Option(value="give", label=N_.p("button", "Give it to my opponent")),
]
SHIPPED_SCOUTING = (
    N_("Place one extra barricade wholly within your territory; this one may go on a Vantage Point."),
    N_(
        "Once in the first turning point, when you pick a ready operative to activate, you may switch "
        "its order."
    ),
    N_("One of your operatives wholly within your drop zone makes a free Dash, moving as if it could FLY."),
)
"""The shipped pack's scouting effects (data/default.yaml), in the catalogue; a server's own pack is
shown as written."""


def question(
    state: KillTeamState,
    title: Words,
    text: Words,
    players: list[int],
    kind: QuestionKind = "choose",
    options: list[Option] | None = None,
    count: int = 1,
    *,
    topic: str | None = None,
    step: str | None = None,
    sealed: bool = False,
    private: bool = False,
    number: NumberRange | None = None,
    series: str | None = None,
    **params: str | int | None,
) -> Question:
    """A Kill Team question: its `params` carry the `phase` (the step of the sequence) and `stage`
    (the question within it); its step id is the state's unless given."""
    if kind == "done" and options is None:
        options = [DONE_OPTION]
    return Question(
        step=step or state.step_id(),
        topic=f"killteam.{topic or state.stage}",
        title=title,
        text=text,
        players=players,
        kind=kind,
        options=options or [],
        min_values=count,
        max_values=count,
        number=number,
        sealed=sealed,
        private=private,
        series=series,
        params={"phase": state.macro, "stage": state.stage, **params},
    )


def tac_op_option(op: TacOp, reason: Words | None = None) -> Option:
    """A Tac Op to pick, grouped by its archetype or faction; `reason` disables it and says why."""
    return Option(
        value=op.id,
        label=Words.verbatim(op.name),
        group=Words.verbatim(op.archetype) if op.archetype else N_("{faction} (faction)", faction=op.faction),
        description=reason or Words.verbatim(""),
        disabled=reason is not None,
    )


def ops(state: KillTeamState, ids: list[str]) -> list[TacOp]:
    """The pack's Tac Ops with these ids, in order (an unknown id is skipped)."""
    return [op for op in (state.pack.tac_op(i) for i in ids) if op is not None]


def mission_options(state: KillTeamState, ids: list[str] | None = None) -> list[Option]:
    missions = state.pack.missions if ids is None else [m for m in state.pack.missions if m.id in ids]
    return [
        Option(value=m.id, label=Words.verbatim(m.name), description=Words.verbatim(m.summary))
        for m in missions
    ]


def map_options(state: KillTeamState, ids: list[str] | None = None) -> list[Option]:
    maps = state.pack.maps if ids is None else [m for m in state.pack.maps if m.id in ids]
    return [Option(value=m.id, label=card_label(m), group=map_group(m.group or "")) for m in maps]


def map_group_options(groups: list[MapGroup]) -> list[Option]:
    return [Option(value=g, label=map_group(g)) for g in groups]


def drop_zone_options() -> list[Option]:
    return [Option(value=z, label=N_.p("button", "Drop zone {zone}", zone=z)) for z in DROP_ZONES]


def control_missions(state: KillTeamState) -> list[str]:
    """Control: the missions the last game's winner may pick (any but the one used in it)."""
    previous = state.previous.mission if state.previous else None
    used = state.pack.mission(previous) if previous else None
    ids = [m.id for m in state.pack.missions if used is None or m.id != used.id]
    return ids or [m.id for m in state.pack.missions]


def control_groups(state: KillTeamState) -> list[MapGroup]:
    """Control: the map types the last game's winner may pick (any stocked but the one used in it)."""
    previous = state.previous.map if state.previous else None
    used = state.pack.map(previous) if previous else None
    stocked = [g for g in MAP_GROUPS if any(m.group == g for m in state.pack.maps)]
    groups = [g for g in stocked if used is None or g != used.group]
    return groups or stocked


def name_values(names: Iterable[str]) -> dict[str, str]:
    """Option values for names that have no id (factions, archetypes): their slugs when those are
    distinct and fit a component, else their positions ("n0", "n1", ...); value -> name."""
    names = list(names)
    slugs = [slug(name) for name in names]
    if len(set(slugs)) == len(slugs) and all(re.fullmatch(VALUE_PATTERN, s) for s in slugs):
        return dict(zip(slugs, names, strict=True))
    return {f"n{index}": name for index, name in enumerate(names)}


def faction_values(state: KillTeamState) -> dict[str, str]:
    return name_values(f.name for f in state.pack.factions)


def archetype_values(state: KillTeamState) -> dict[str, str]:
    return name_values(a.name for a in state.pack.archetypes)


def value_of_name(values: dict[str, str], name: str) -> str:
    return next(value for value, named in values.items() if named == name)


def faction_options(state: KillTeamState) -> list[Option]:
    values = faction_values(state)
    options = [
        Option(
            value=value,
            label=Words.verbatim(name),
            description=N_.n("{count} faction Tac Op", "{count} faction Tac Ops", len(faction.tac_ops)),
        )
        for (value, name), faction in zip(values.items(), state.pack.factions, strict=True)
    ]
    return [*options, Option(value=NO_FACTION, label=N_.p("button", "Other (no faction Tac Ops)"))]


def archetype_options(state: KillTeamState, names: list[str]) -> list[Option]:
    values = archetype_values(state)
    return [Option(value=value_of_name(values, name), label=Words.verbatim(name)) for name in names]


def battle_options(turning_point: int) -> list[Option]:
    return [
        Option(
            value=BATTLE_END,
            label=N_.p("button", "End turning point {number}", number=turning_point),
            tone="go",
        ),
        Option(value=BATTLE_READY, label=N_.p("button", "Battle Ready painted (+{vp})", vp=BATTLE_READY_VP)),
        Option(value=BATTLE_NOT_READY, label=N_.p("button", "Not Battle Ready")),
    ]


def scouting_options(state: KillTeamState) -> list[Option]:
    """The pack's scouting cards: named as the pack has them, their effects from the catalogue."""
    return [
        Option(
            value=s.id,
            label=Words.verbatim(s.name),
            description=N_(s.effect) if s.effect else Words.verbatim(""),
        )
        for s in state.pack.scouting
    ]
