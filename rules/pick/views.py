"""Read-only facts of a Pick game for the board: who has picked, and how it ended."""

from __future__ import annotations

from rules.pick.models import PickState


def picked(state: PickState) -> list[int]:
    """The players who have sealed their pick, in seat order (never what they picked)."""
    return [p for p in state.players if p in state.round.entries]


def picks(state: PickState) -> dict[int, int]:
    """Each player's pick, once revealed (empty before: a pick is secret until both have picked)."""
    if not state.round.revealed:
        return {}
    return {p: int(choice) for p, choice in state.round.choices().items()}


def winner(state: PickState) -> int | None:
    """The higher pick's player once revealed; None before, for equal picks, or an agreed draw."""
    return state.outcome.winner if state.outcome is not None else None


def draw_called_by(state: PickState) -> int | None:
    """Who called a draw that waits for a confirmation, if anyone."""
    pending = state.confirmation.pending
    return pending.by if pending is not None else None
