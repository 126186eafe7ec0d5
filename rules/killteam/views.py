"""Read-only views of a Kill Team game: what is asked now and of whom (as the shared `Question`s of
rules/session.py), each player's private question and hand, and the scoreboard. Public views never
contain a secret.

Every question's `params` carry the Kill Team `phase` (the step of the sequence) and `stage` (the
question within it); option values are ids that fit a component (mission, map and Tac Op ids,
scouting ids, or the pack's slugs for faction and archetype names).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Literal

from rules import confirmation
from rules.confirmation import Request
from rules.killteam.actions import EndGame
from rules.killteam.hand import constructed_archetypes, fits, free_archetypes
from rules.killteam.pack import MAP_GROUPS, MapGroup, TacOp, slug
from rules.killteam.state import (
    BARRICADES_EACH,
    BATTLE_READY_VP,
    DROP_ZONES,
    MISSION_VP_PER_TP,
    OPERATIVE_GROUPS_EACH,
    TAC_OP_VP_EACH,
    BidContest,
    KillTeamState,
    TacOpDraft,
)
from rules.session import VALUE_PATTERN, Model, NumberRange, Option, Question, QuestionKind

DONE_OPTION = Option(value="done", label="Done", tone="go")
NO_FACTION = "_none"  # the faction option for "other"; never a slug, so it can't clash with a faction
BATTLE_END, BATTLE_READY, BATTLE_NOT_READY = "end", "ready", "not_ready"


class HeldTacOp(Model):
    id: str
    name: str
    archetype: str | None
    faction: str | None
    revealed: bool
    vp: int


class PrivateView(Model):
    """What only `player` may see: their own question, their Tac Ops, what they sealed."""

    player: int
    prompt: Question | None
    tac_ops: list[HeldTacOp]
    sealed_choice: str | None
    tokens: int | None


class TacOpLine(Model):
    name: str
    vp: int


class SideLine(Model):
    player: int
    role: Literal["attacker", "defender"] | None
    faction: str | None
    cp: int
    mission_vp: list[int]
    mission_total: int
    tac_ops: list[TacOpLine]  # revealed ones only
    hidden_tac_ops: int
    battle_ready: bool
    total: int


class Commitment(Model):
    """A sealed choice as the table sees it before the reveal: who sealed, for what, and the digest
    (the choice and its nonce stay secret)."""

    step: str
    label: str
    player: int
    commitment: str


class Scoreboard(Model):
    mission: str | None
    map: str | None
    turning_point: int
    first_initiative: int | None
    sides: list[SideLine]
    finished: bool
    winner: int | None
    draw: bool
    sealed: list[Commitment] = []  # the commitments of the rounds still waiting for their reveal


# ---------------------------------------------------------------------- labels


def mission_name(state: KillTeamState, mission_id: str | None = None) -> str | None:
    key = mission_id or state.mission
    mission = state.pack.mission(key) if key else None
    return mission.name if mission else key


def map_label(state: KillTeamState, map_id: str | None = None) -> str | None:
    key = map_id or state.map
    card = state.pack.map(key) if key else None
    return card.label if card else key


def tac_op_option(op: TacOp, reason: str | None = None) -> Option:
    return Option(
        value=op.id,
        label=op.name,
        group=op.archetype or f"{op.faction} (faction)",
        description=reason or "",
        disabled=reason is not None,
    )


def _ops(state: KillTeamState, ids: list[str]) -> list[TacOp]:
    return [op for op in (state.pack.tac_op(i) for i in ids) if op is not None]


SIDE_OPTIONS = [Option(value="attack", label="Attack"), Option(value="defend", label="Defend")]
INITIATIVE_OPTIONS = [
    Option(value="take", label="Take the initiative"),
    Option(value="give", label="Give it to my opponent"),
]


def _mission_options(state: KillTeamState, ids: list[str] | None = None) -> list[Option]:
    missions = state.pack.missions if ids is None else [m for m in state.pack.missions if m.id in ids]
    return [Option(value=m.id, label=m.name, description=m.summary) for m in missions]


def _map_options(state: KillTeamState, ids: list[str] | None = None) -> list[Option]:
    maps = state.pack.maps if ids is None else [m for m in state.pack.maps if m.id in ids]
    return [Option(value=m.id, label=m.label, group=f"Maps {m.group}") for m in maps]


def control_missions(state: KillTeamState) -> list[str]:
    previous = state.previous.mission if state.previous else None
    used = state.pack.mission(previous) if previous else None
    ids = [m.id for m in state.pack.missions if used is None or m.id != used.id]
    return ids or [m.id for m in state.pack.missions]


def control_groups(state: KillTeamState) -> list[MapGroup]:
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
        Option(value=value, label=name, description=f"{len(faction.tac_ops)} faction Tac Ops")
        for (value, name), faction in zip(values.items(), state.pack.factions, strict=True)
    ]
    return [*options, Option(value=NO_FACTION, label="Other (no faction Tac Ops)")]


def archetype_options(state: KillTeamState, names: list[str]) -> list[Option]:
    values = archetype_values(state)
    return [Option(value=value_of_name(values, name), label=name) for name in names]


def bid_contest(state: KillTeamState) -> BidContest | None:
    return state.tac.bids if state.stage in ("tac_bid", "tac_bid_decide") else state.bids


# ---------------------------------------------------------------------- public question


def _question(
    state: KillTeamState,
    title: str,
    text: str,
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
    optional: bool = False,
    **params: str | int | None,
) -> Question:
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
        optional=optional,
        params={"phase": state.macro, "stage": state.stage, **params},
    )


def _decider(state: KillTeamState) -> list[int]:
    return [state.decider] if state.decider is not None else []


def _head(state: KillTeamState) -> list[int]:
    return state.queue[:1] if state.ordered else list(state.queue)


def _bid_question(state: KillTeamState, contest: BidContest) -> Question:
    """The public side of a sealed bid: who still bids (each answers their own private question)."""
    sealed = contest.sealed
    assert sealed is not None
    return _question(
        state,
        f"Sealed bid: {contest.label}",
        "Each player secretly bids some of their remaining tokens (0 is fine). The higher bid decides; "
        "a tie is cancelled and bid again, unless both bid 0, when a roll-off decides. Both bids are spent.",
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


def _bid_decide_question(state: KillTeamState, contest: BidContest) -> Question:
    category = contest.category
    ask: dict[str, tuple[str, str, list[Option]]] = {
        "mission": ("Bid won: choose the mission", "The bid winner picks any mission card.", []),
        "map": ("Bid won: choose the map", "The bid winner picks any map card.", []),
        "sides": ("Bid won: attacker or defender", "The bid winner decides who attacks.", SIDE_OPTIONS),
        "initiative": (
            "Bid won: first initiative",
            "The bid winner decides who has the initiative in the first turning point.",
            INITIATIVE_OPTIONS,
        ),
        "archetype": (
            "Bid won: choose the archetype",
            "The bid winner picks the one archetype both players take their Tac Ops from.",
            [],
        ),
    }
    if category in ask:
        title, text, options = ask[category]
        if category == "mission":
            options = _mission_options(state)
        elif category == "map":
            options = _map_options(state)
        elif category == "archetype":
            options = archetype_options(state, state.pack.archetypes_with(6))
        return _question(
            state, title, text, _decider(state), options=options, topic="bid_decide", category=category
        )
    pair = state.tac.pairs[state.tac.pair_index]
    return _question(
        state,
        "Bid won: take a Tac Op from the pair",
        "The bid winner takes one of the two; the other player gets the other.",
        _decider(state),
        options=[tac_op_option(op) for op in _ops(state, pair)],
        topic="bid_decide",
        category=category,
    )


def _row_question(state: KillTeamState) -> Question:
    picker = state.queue[0]
    held = _ops(state, state.tac.held.get(picker, []))
    faction = state.faction_of(picker)
    options = [tac_op_option(op, fits(held, op, faction)) for op in _ops(state, state.tac.row)]
    return _question(
        state,
        "Acquired Tac Ops: take one from the row",
        "Take one Tac Op from the public row; a card from the deck refills it. The attacker "
        "picks first, then you alternate until each has three.",
        [picker],
        options=options,
    )


def battle_options(turning_point: int) -> list[Option]:
    return [
        Option(value=BATTLE_END, label=f"End turning point {turning_point}", tone="go"),
        Option(value=BATTLE_READY, label=f"Battle Ready painted (+{BATTLE_READY_VP})"),
        Option(value=BATTLE_NOT_READY, label="Not Battle Ready"),
    ]


def prompt(state: KillTeamState) -> Question:
    """What the game asks now, and of whom, as the channel shows it. Private questions appear only as
    who still answers in private (their options are in `private_prompt`)."""
    stage = state.stage
    if state.finished:
        return _question(
            state, "Game over", "The battle is over.", [], kind="done", options=[], topic="finished"
        )
    builders: dict[str, Callable[[], Question]] = {
        "side": lambda: _question(
            state,
            "Attacker or defender",
            "The roll-off winner chooses to attack or to defend.",
            _decider(state),
            options=SIDE_OPTIONS,
        ),
        "veto_missions": lambda: _question(
            state,
            "Veto: put forward two missions",
            "The attacker puts forward two mission cards; the defender will pick one.",
            _decider(state),
            options=_mission_options(state),
            count=2,
        ),
        "veto_mission_pick": lambda: _question(
            state,
            "Veto: pick the mission",
            "The defender picks one of the two missions put forward.",
            _decider(state),
            options=_mission_options(state, state.veto.missions if state.veto else []),
        ),
        "veto_maps": lambda: _question(
            state,
            "Veto: put forward three maps",
            "The defender puts forward three map cards.",
            _decider(state),
            options=_map_options(state),
            count=3,
        ),
        "veto_map_discard": lambda: _question(
            state,
            "Veto: discard a map",
            "The attacker discards one of the three maps put forward.",
            _decider(state),
            options=_map_options(state, state.veto.maps if state.veto else []),
        ),
        "veto_map_pick": lambda: _question(
            state,
            "Veto: pick the map",
            "The defender picks the map from the two that are left.",
            _decider(state),
            options=_map_options(
                state,
                [
                    m
                    for m in (state.veto.maps if state.veto else [])
                    if state.veto and m != state.veto.discarded
                ],
            ),
        ),
        "control_mission": lambda: _question(
            state,
            "Control: pick the mission",
            "The winner of your last game picks a mission that was not used in it.",
            _decider(state),
            options=_mission_options(state, control_missions(state)),
        ),
        "control_map_type": lambda: _question(
            state,
            "Control: pick the map type",
            "The winner of your last game picks a map type that was not used in it.",
            _decider(state),
            options=[Option(value=g, label=f"Maps {g}") for g in control_groups(state)],
        ),
        "control_map": lambda: _question(
            state,
            "Control: pick the map",
            "The loser of your last game picks a map card of the chosen type.",
            _decider(state),
            options=_map_options(
                state, [m.id for m in state.pack.maps if state.control and m.group == state.control.group]
            ),
        ),
        "drop_zone": lambda: _question(
            state,
            "Defender: choose your drop zone",
            "The defender picks a drop zone; the attacker has the other.",
            _decider(state),
            options=[Option(value=z, label=f"Drop zone {z}") for z in DROP_ZONES],
        ),
        "faction": lambda: _question(
            state,
            "Select your kill team",
            "Pick your operatives from your roster and show them to your opponent, "
            "then say which faction you play (for its Tac Ops). Each player gains "
            "3 CP.",
            list(state.queue),
            options=faction_options(state),
        ),
        "tac_private": lambda: _question(
            state,
            "Tac Ops: choose in private",
            "Each player picks their Tac Ops in private.",
            [p for p, d in state.tac.drafts.items() if d.phase != "done"],
            private=True,
        ),
        "tac_row": lambda: _row_question(state),
        "equipment": lambda: _question(
            state,
            "Equipment",
            "Pick up to 10 points of your faction's equipment, give it to your "
            "operatives and show it to your opponent, then press Done.",
            list(state.queue),
            kind="done",
        ),
        # One question per player for the whole run (each presses Done once, when all theirs are
        # down); its series keeps the message of games saved when it was one Done per item.
        "barricades": lambda: _question(
            state,
            f"Barricades: {BARRICADES_EACH} each",
            f"Set up your {BARRICADES_EACH} barricades, taking turns with your opponent; the defender "
            "starts. Each goes near your drop zone. Press Done once all of yours are set up.",
            list(state.queue),
            kind="done",
            series="barricades",
            each=BARRICADES_EACH,
        ),
        "operatives": lambda: _question(
            state,
            f"Operatives: {OPERATIVE_GROUPS_EACH} groups each",
            f"Set up your operatives in {OPERATIVE_GROUPS_EACH} groups, taking turns with your "
            "opponent; the defender starts. Each group goes wholly in your drop zone, each operative "
            "with an order. Press Done once all of yours are set up.",
            list(state.queue),
            kind="done",
            series="operatives",
            each=OPERATIVE_GROUPS_EACH,
        ),
        "scouting": lambda: _question(
            state,
            "Scouting: pick in secret",
            "Each player secretly picks a scouting option; both are revealed together.",
            state.scouting.waiting_for() if state.scouting else [],
            options=scouting_options(state),
            sealed=True,
            private=True,
            step=state.scouting.step if state.scouting else None,
        ),
        "scouting_resolve": lambda: _question(
            state,
            "Scouting: resolve",
            "Carry out your scouting pick (the attacker first), then press Done.",
            _head(state),
            kind="done",
            series="scouting_resolve",
        ),
        "initiative_choice": lambda: _question(
            state,
            "First initiative",
            "The roll-off winner decides who has the initiative in the first turning point.",
            _decider(state),
            options=INITIATIVE_OPTIONS,
        ),
        "battle": lambda: _question(
            state,
            f"Turning point {state.turning_point}",
            "Play the turning point and record your VP as you score them; each "
            "player presses End turning point when it is over.",
            list(state.queue),
            options=battle_options(state.turning_point),
            step=f"battle.{state.turning_point}",
            series="battle",
            turning_point=state.turning_point,
        ),
    }
    if stage in ("bid", "tac_bid"):
        contest = bid_contest(state)
        assert contest is not None
        return _bid_question(state, contest)
    if stage in ("bid_decide", "tac_bid_decide"):
        contest = bid_contest(state)
        assert contest is not None
        return _bid_decide_question(state, contest)
    builder = builders.get(stage)
    if builder is None:
        raise RuntimeError(f"no question for stage {stage!r}")
    return builder()


def scouting_options(state: KillTeamState) -> list[Option]:
    return [Option(value=s.id, label=s.name, description=s.effect) for s in state.pack.scouting]


# ---------------------------------------------------------------------- private question


def _draft_question(state: KillTeamState, player: int, draft: TacOpDraft) -> Question | None:
    faction = state.faction_of(player)
    step = f"tac.{player}.{draft.question}"
    faction_ops = state.pack.faction_ops(faction)

    def draft_question(title: str, text: str, options: list[Option], count: int = 1) -> Question:
        return _question(
            state,
            title,
            text,
            [player],
            options=options,
            count=count,
            topic="tac_draft",
            step=step,
            private=True,
            draft=draft.phase,
        )

    if draft.phase == "archetype":
        names = (constructed_archetypes if state.tacops_method == "constructed" else free_archetypes)(
            state.pack, faction
        )
        return draft_question(
            "Tac Ops: choose your archetype",
            "Pick the archetype your Tac Ops come from (only you see it).",
            archetype_options(state, names),
        )
    if draft.phase in ("build", "pick"):
        assert draft.archetype is not None
        pool = state.pack.archetype_ops(draft.archetype) + faction_ops
        options = [tac_op_option(op) for op in pool]
        if draft.phase == "build":
            return draft_question(
                "Tac Ops: build your deck of six",
                "Pick six Tac Ops: up to three of your faction's, the rest from your archetype.",
                options,
                6,
            )
        return draft_question(
            "Tac Ops: pick your three",
            "Pick three Tac Ops: at most one of your faction's, the rest from your archetype.",
            options,
            3,
        )
    if draft.phase == "draw":
        held = _ops(state, state.tac.held.get(player, []))
        options = [tac_op_option(op, fits(held, op, faction)) for op in _ops(state, draft.pair)]
        return draft_question(
            f"Tac Ops: keep one ({len(held) + 1} of 3)",
            "You drew these; keep one and discard the other.",
            options,
        )
    return None


def private_prompt(state: KillTeamState, player: int) -> Question | None:
    """The player's own secret question, if the game is waiting for one from them."""
    if state.finished:
        return None
    if state.stage in ("bid", "tac_bid"):
        contest = bid_contest(state)
        if contest is None or contest.sealed is None or player not in contest.sealed.waiting_for():
            return None
        left = contest.tokens[player]
        return _question(
            state,
            f"Your sealed bid: {contest.label}",
            f"You have {left} token{'s' if left != 1 else ''}. Bid 0 to {left}; only you see it "
            "until both have bid.",
            [player],
            kind="number",
            topic="bid",
            step=contest.sealed.step,
            number=NumberRange(minimum=0, maximum=left),
            sealed=True,
            private=True,
            category=contest.category,
            round=contest.round,
            tokens=left,
        )
    if state.stage == "scouting" and state.scouting and player in state.scouting.waiting_for():
        return _question(
            state,
            "Your scouting pick",
            "Pick in secret; both picks are revealed together.",
            [player],
            options=scouting_options(state),
            step=state.scouting.step,
            sealed=True,
            private=True,
        )
    if state.stage == "tac_private":
        draft = state.tac.drafts.get(player)
        return _draft_question(state, player, draft) if draft else None
    return None


def private_view(state: KillTeamState, player: int) -> PrivateView:
    held = state.tac.held.get(player, [])
    revealed = state.tac.revealed.get(player, [])
    score = state.scores.get(player)
    cards = [
        HeldTacOp(
            id=op.id,
            name=op.name,
            archetype=op.archetype,
            faction=op.faction,
            revealed=op.id in revealed,
            vp=score.tac_ops.get(op.id, 0) if score else 0,
        )
        for op in _ops(state, held)
    ]
    sealed_choice: str | None = None
    tokens: int | None = None
    contest = bid_contest(state)
    if contest is not None:
        tokens = contest.tokens.get(player)
        if contest.sealed and not contest.sealed.revealed and player in contest.sealed.entries:
            sealed_choice = contest.sealed.entries[player].choice
    if state.scouting and not state.scouting.revealed and player in state.scouting.entries:
        sealed_choice = state.scouting.entries[player].choice
    return PrivateView(
        player=player,
        prompt=private_prompt(state, player),
        tac_ops=cards,
        sealed_choice=sealed_choice,
        tokens=tokens,
    )


def end_question(state: KillTeamState, pending: Request[EndGame]) -> Question:
    """A request to end the game, asked of both: the other player confirms, or its player confirms
    their own; Not yet from either withdraws it."""
    return confirmation.question(
        pending,
        state.players,
        prefix="end.",
        topic="killteam.end",
        title="End the game now?",
        text="Ending the game can't be undone; the higher total wins. The other player confirms, or the "
        "player who asked may confirm their own. Not yet withdraws the request and play goes on.",
    )


def questions(state: KillTeamState, player: int) -> list[Question]:
    """Every question `player` can answer now: their private one, else the public one if it is
    theirs (a public question answered in private is never answered in the channel).

    While a request to end the game waits, its confirmation comes first; the other questions stay
    asked (their messages and DM prompts stay up) but answers to them are refused until it is
    answered, which changes nothing else.
    """
    if state.finished or player not in state.players:
        return []
    end = [end_question(state, state.pending)] if state.pending is not None else []
    private = private_prompt(state, player)
    if private is not None:
        return [*end, private]
    public = prompt(state)
    return [*end, public] if player in public.players and not public.private else end


def prompt_for(state: KillTeamState, player: int) -> Question | None:
    """The question `player` can answer now, if any."""
    asked = questions(state, player)
    return asked[0] if asked else None


def awaiting(state: KillTeamState) -> list[int]:
    """Players whose sealed or private answer the game waits for (for reminders)."""
    if state.finished:
        return []
    if state.stage in ("bid", "tac_bid"):
        contest = bid_contest(state)
        return contest.sealed.waiting_for() if contest and contest.sealed else []
    if state.stage == "scouting" and state.scouting:
        return state.scouting.waiting_for()
    if state.stage == "tac_private":
        return [p for p in state.players if state.tac.drafts.get(p) and state.tac.drafts[p].phase != "done"]
    return []


# ---------------------------------------------------------------------- scoreboard


def commitments(state: KillTeamState) -> list[Commitment]:
    """Every commitment sealed and not yet revealed, in the order sealed. Public from the moment of
    the seal: a player checks the reveal against what the table showed before it."""
    contests = (state.bids, state.tac.bids)
    rounds = [c.sealed for c in contests if c is not None and c.sealed is not None]
    rounds += [state.scouting] if state.scouting is not None else []
    return [
        Commitment(step=r.step, label=r.label, player=player, commitment=entry.commitment)
        for r in rounds
        if not r.revealed
        for player, entry in r.entries.items()
    ]


def scoreboard(state: KillTeamState) -> Scoreboard:
    sides: list[SideLine] = []
    for player in state.players:
        score = state.scores.get(player)
        revealed = state.tac.revealed.get(player, [])
        held = state.tac.held.get(player, [])
        role: Literal["attacker", "defender"] | None = None
        if state.attacker is not None:
            role = "attacker" if player == state.attacker else "defender"
        lines = [
            TacOpLine(name=op.name, vp=score.tac_ops.get(op.id, 0) if score else 0)
            for op in _ops(state, [i for i in held if i in revealed])
        ]
        sides.append(
            SideLine(
                player=player,
                role=role,
                faction=state.faction_of(player),
                cp=state.cp.get(player, 0),
                mission_vp=list(score.mission) if score else [0, 0, 0, 0],
                mission_total=score.mission_total if score else 0,
                tac_ops=lines,
                hidden_tac_ops=len(held) - len(lines),
                battle_ready=bool(score and score.battle_ready),
                total=score.total if score else 0,
            )
        )
    winner = state.outcome.winner if state.outcome else None
    return Scoreboard(
        mission=mission_name(state),
        map=map_label(state),
        turning_point=state.turning_point,
        first_initiative=state.first_initiative,
        sides=sides,
        finished=state.finished,
        winner=winner,
        draw=state.finished and winner is None,
        sealed=commitments(state),
    )


CAPS_TEXT = (
    f"Caps: mission {MISSION_VP_PER_TP} VP per turning point and 16 in all; each Tac Op "
    f"{TAC_OP_VP_EACH} VP (6 in all); {BATTLE_READY_VP} VP for a Battle Ready painted roster; 24 at most."
)
