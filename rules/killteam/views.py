"""Read-only views of a Kill Team game for the board and a player's DMs: each player's private
question and hand, the scoreboard, and the commitments sealed and not yet revealed. Public views
never contain a secret.
"""

from __future__ import annotations

from typing import Literal

from rules.killteam.labels import map_label, mission_name
from rules.killteam.models import KillTeamState, bid_contest
from rules.killteam.options import ops
from rules.killteam.private import private_prompt
from rules.session import Model, Question


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
        for op in ops(state, held)
    ]
    contest = bid_contest(state)
    return PrivateView(
        player=player,
        prompt=private_prompt(state, player),
        tac_ops=cards,
        sealed_choice=sealed_choice(state, player),
        tokens=contest.tokens.get(player) if contest is not None else None,
    )


def sealed_choice(state: KillTeamState, player: int) -> str | None:
    """What `player` has sealed and is not revealed yet (a bid, a scouting pick), if anything: their
    DM says it back to them once they sealed, without building the rest of their view."""
    if state.scouting and not state.scouting.revealed and player in state.scouting.entries:
        return state.scouting.entries[player].choice
    contest = bid_contest(state)
    if contest is not None and contest.sealed and not contest.sealed.revealed:
        entry = contest.sealed.entries.get(player)
        return entry.choice if entry is not None else None
    return None


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
            for op in ops(state, [i for i in held if i in revealed])
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
