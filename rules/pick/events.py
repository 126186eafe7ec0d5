"""What happened in Pick, beside the sealed round's own `ChoiceSealed` and `ChoicesRevealed`."""

from __future__ import annotations

from rules.session import Event


class DrawCalled(Event):
    """`by` called the game a draw; it waits for a confirmation."""

    by: int


class DrawAnswered(Event):
    """The draw call was answered by `player`: agreed (the game ends drawn) or withdrawn."""

    by: int
    player: int
    agreed: bool


class Decided(Event):
    """The picks are revealed: `winner` picked higher (None: equal picks)."""

    winner: int | None
    picks: dict[int, int]
