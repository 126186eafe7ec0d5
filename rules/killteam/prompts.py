"""The public question of each stage of Kill Team's sequence (`prompt`): what the table is asked
now, of whom, worded once in English for the catalogue (`N_`). A question answered in private shows
here only as who still answers it (its options are in rules/killteam/private.py).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.killteam.hand import fits
from rules.killteam.labels import sealed_label
from rules.killteam.models import (
    BARRICADES_EACH,
    OPERATIVE_GROUPS_EACH,
    BidContest,
    KillTeamState,
    bid_contest,
)
from rules.killteam.options import (
    INITIATIVE_OPTIONS,
    SIDE_OPTIONS,
    archetype_options,
    battle_options,
    control_groups,
    control_missions,
    drop_zone_options,
    faction_options,
    map_group_options,
    map_options,
    mission_options,
    ops,
    question,
    scouting_options,
    tac_op_option,
)
from rules.session import NumberRange, Option, Question
from rules.words import Marker, Words

N_ = Marker("killteam")

BID_TEXT = N_(
    "Each player secretly bids some of their remaining tokens (0 is fine). The higher bid decides; a tie "
    "is cancelled and bid again, unless both bid 0, when a roll-off decides. Both bids are spent."
)


def decider(state: KillTeamState) -> list[int]:
    """The one player who answers a single-player question."""
    return [state.decider] if state.decider is not None else []


def _head(state: KillTeamState) -> list[int]:
    return state.queue[:1] if state.ordered else list(state.queue)


# ---------------------------------------------------------------------- bids


def _bid(state: KillTeamState, contest: BidContest) -> Question:
    """The public side of a sealed bid: who still bids (each answers their own private question)."""
    sealed = contest.sealed
    assert sealed is not None
    return question(
        state,
        N_("Sealed bid: {label}", label=sealed_label(contest.label)),
        BID_TEXT,
        sealed.waiting_for(),
        kind="number",
        topic="bid",
        step=sealed.step,
        sealed=True,
        private=True,
        number=NumberRange(minimum=0, maximum=max(contest.tokens.values())),
        category=contest.category,
        round=contest.round,
    )


def _bid_won(state: KillTeamState, category: str) -> tuple[Words, Words, list[Option]]:
    """What the winner of a bid for `category` decides: title, text and options."""
    if category == "mission":
        return (
            N_("Bid won: choose the mission"),
            N_("The bid winner picks any mission card."),
            mission_options(state),
        )
    if category == "map":
        return N_("Bid won: choose the map"), N_("The bid winner picks any map card."), map_options(state)
    if category == "sides":
        return N_("Bid won: attacker or defender"), N_("The bid winner decides who attacks."), SIDE_OPTIONS
    if category == "initiative":
        return (
            N_("Bid won: first initiative"),
            N_("The bid winner decides who has the initiative in the first turning point."),
            INITIATIVE_OPTIONS,
        )
    if category == "archetype":
        return (
            N_("Bid won: choose the archetype"),
            N_("The bid winner picks the one archetype both players take their Tac Ops from."),
            archetype_options(state, state.pack.archetypes_with(6)),
        )
    pair = state.tac.pairs[state.tac.pair_index]
    return (
        N_("Bid won: take a Tac Op from the pair"),
        N_("The bid winner takes one of the two; the other player gets the other."),
        [tac_op_option(op) for op in ops(state, pair)],
    )


def _bid_decide(state: KillTeamState, contest: BidContest) -> Question:
    title, text, options = _bid_won(state, contest.category)
    return question(
        state, title, text, decider(state), options=options, topic="bid_decide", category=contest.category
    )


# ---------------------------------------------------------------------- mission and map


def _side(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Attacker or defender"),
        N_("The roll-off winner chooses to attack or to defend."),
        decider(state),
        options=SIDE_OPTIONS,
    )


def _veto_missions(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Veto: put forward two missions"),
        N_("The attacker puts forward two mission cards; the defender will pick one."),
        decider(state),
        options=mission_options(state),
        count=2,
    )


def _veto_mission_pick(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Veto: pick the mission"),
        N_("The defender picks one of the two missions put forward."),
        decider(state),
        options=mission_options(state, state.veto.missions if state.veto else []),
    )


def _veto_maps(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Veto: put forward three maps"),
        N_("The defender puts forward three map cards."),
        decider(state),
        options=map_options(state),
        count=3,
    )


def _veto_map_discard(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Veto: discard a map"),
        N_("The attacker discards one of the three maps put forward."),
        decider(state),
        options=map_options(state, state.veto.maps if state.veto else []),
    )


def _veto_map_pick(state: KillTeamState) -> Question:
    veto = state.veto
    left = [m for m in veto.maps if m != veto.discarded] if veto else []
    return question(
        state,
        N_("Veto: pick the map"),
        N_("The defender picks the map from the two that are left."),
        decider(state),
        options=map_options(state, left),
    )


def _control_mission(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Control: pick the mission"),
        N_("The winner of your last game picks a mission that was not used in it."),
        decider(state),
        options=mission_options(state, control_missions(state)),
    )


def _control_map_type(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Control: pick the map type"),
        N_("The winner of your last game picks a map type that was not used in it."),
        decider(state),
        options=map_group_options(control_groups(state)),
    )


def _control_map(state: KillTeamState) -> Question:
    group = state.control.group if state.control else None
    return question(
        state,
        N_("Control: pick the map"),
        N_("The loser of your last game picks a map card of the chosen type."),
        decider(state),
        options=map_options(state, [m.id for m in state.pack.maps if group is not None and m.group == group]),
    )


# ---------------------------------------------------------------------- kill teams and Tac Ops


KILL_TEAM_RUN = "kill_teams"
"""The drop zone, then both kill teams: one run at the table, announced once, to the defender who
starts it; the board then asks both players for their kill teams in place (the attacker has just
seen the drop zone chosen across the table)."""


def _drop_zone(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Defender: choose your drop zone"),
        N_("The defender picks a drop zone; the attacker has the other."),
        decider(state),
        options=drop_zone_options(),
        series=KILL_TEAM_RUN,
    )


def _faction(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Select your kill team"),
        N_(
            "Pick your operatives from your roster and show them to your opponent, then say which "
            "faction you play (for its Tac Ops). Each player gains 3 CP."
        ),
        list(state.queue),
        options=faction_options(state),
        series=KILL_TEAM_RUN,
    )


def _tac_private(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Tac Ops: choose in private"),
        N_("Each player picks their Tac Ops in private."),
        [p for p, d in state.tac.drafts.items() if d.phase != "done"],
        private=True,
    )


def _tac_row(state: KillTeamState) -> Question:
    picker = state.queue[0]
    held = ops(state, state.tac.held.get(picker, []))
    faction = state.faction_of(picker)
    return question(
        state,
        N_("Acquired Tac Ops: take one from the row"),
        N_(
            "Take one Tac Op from the public row; a card from the deck refills it. The attacker picks "
            "first, then you alternate until each has three."
        ),
        [picker],
        options=[tac_op_option(op, fits(held, op, faction)) for op in ops(state, state.tac.row)],
    )


# ---------------------------------------------------------------------- the last steps and the battle


SETUP_RUN = "setup"
"""Equipment, barricades and operatives: one run of set-up at the table by both players, announced
once when it starts; the board then moves through its steps as they press Done."""


def _equipment(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Equipment"),
        N_(
            "Pick up to 10 points of your faction's equipment, give it to your operatives and show it "
            "to your opponent, then press Done."
        ),
        list(state.queue),
        kind="done",
        series=SETUP_RUN,
    )


def _barricades(state: KillTeamState) -> Question:
    """One question per player for the whole run (each presses Done once, when all theirs are
    down)."""
    return question(
        state,
        N_("Barricades: {each} each", each=BARRICADES_EACH),
        N_(
            "Set up your {each} barricades, taking turns with your opponent; the defender starts. Each "
            "goes near your drop zone. Press Done once all of yours are set up.",
            each=BARRICADES_EACH,
        ),
        list(state.queue),
        kind="done",
        series=SETUP_RUN,
        each=BARRICADES_EACH,
    )


def _operatives(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Operatives: {each} groups each", each=OPERATIVE_GROUPS_EACH),
        N_(
            "Set up your operatives in {each} groups, taking turns with your opponent; the defender "
            "starts. Each group goes wholly in your drop zone, each operative with an order. Press Done "
            "once all of yours are set up.",
            each=OPERATIVE_GROUPS_EACH,
        ),
        list(state.queue),
        kind="done",
        series=SETUP_RUN,
        each=OPERATIVE_GROUPS_EACH,
    )


def _scouting(state: KillTeamState) -> Question:
    scouting = state.scouting
    return question(
        state,
        N_("Scouting: pick in secret"),
        N_("Each player secretly picks a scouting option; both are revealed together."),
        scouting.waiting_for() if scouting else [],
        options=scouting_options(state),
        sealed=True,
        private=True,
        step=scouting.step if scouting else None,
    )


BATTLE_RUN = "battle"
"""From the scouting picks' reveal to the battle's end the players are at the table: the run is
announced once, by the reveal that pings the attacker to resolve first; the defender's turn, a
roll-off's initiative choice and each turning point follow on the board without pinging again."""


def _scouting_resolve(state: KillTeamState) -> Question:
    return question(
        state,
        N_("Scouting: resolve"),
        N_("Carry out your scouting pick (the attacker first), then press Done."),
        _head(state),
        kind="done",
        series=BATTLE_RUN,
    )


def _initiative_choice(state: KillTeamState) -> Question:
    return question(
        state,
        N_("First initiative"),
        N_("The roll-off winner decides who has the initiative in the first turning point."),
        decider(state),
        options=INITIATIVE_OPTIONS,
        series=BATTLE_RUN,
    )


def _battle(state: KillTeamState) -> Question:
    number = state.turning_point
    return question(
        state,
        N_("Turning point {number}", number=number),
        N_(
            "Play the turning point and record your VP as you score them; each player presses End "
            "turning point when it is over."
        ),
        list(state.queue),
        options=battle_options(number),
        step=f"battle.{number}",
        series=BATTLE_RUN,
        turning_point=number,
    )


STAGES: dict[str, Callable[[KillTeamState], Question]] = {
    "side": _side,
    "veto_missions": _veto_missions,
    "veto_mission_pick": _veto_mission_pick,
    "veto_maps": _veto_maps,
    "veto_map_discard": _veto_map_discard,
    "veto_map_pick": _veto_map_pick,
    "control_mission": _control_mission,
    "control_map_type": _control_map_type,
    "control_map": _control_map,
    "drop_zone": _drop_zone,
    "faction": _faction,
    "tac_private": _tac_private,
    "tac_row": _tac_row,
    "equipment": _equipment,
    "barricades": _barricades,
    "operatives": _operatives,
    "scouting": _scouting,
    "scouting_resolve": _scouting_resolve,
    "initiative_choice": _initiative_choice,
    "battle": _battle,
}
"""Each stage's public question, by the stage that asks it."""


def prompt(state: KillTeamState) -> Question:
    """What the game asks now, and of whom, as the channel shows it. Private questions appear only as
    who still answers in private (their options are in `private_prompt`)."""
    if state.finished:
        return question(
            state, N_("Game over"), N_("The battle is over."), [], kind="done", options=[], topic="finished"
        )
    if state.stage in ("bid", "tac_bid", "bid_decide", "tac_bid_decide"):
        contest = bid_contest(state)
        assert contest is not None
        return _bid(state, contest) if state.stage.endswith("bid") else _bid_decide(state, contest)
    builder = STAGES.get(state.stage)
    if builder is None:
        raise RuntimeError(f"no question for stage {state.stage!r}")
    return builder(state)
