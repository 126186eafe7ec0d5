"""Sealed simultaneous choices with hash commitments.

Each player seals a choice privately; the game announces a commitment, SHA-256 over
(session, step, player, choice, nonce), and reveals every choice together, with the nonces, once
all have sealed. Anyone can then recompute the commitments (`verify`). The nonce is random and
injected by the caller, so a commitment says nothing about the choice before the reveal.
"""

from __future__ import annotations

import hashlib

from rules.errors import RuleError
from rules.session import Event, Model


def commitment(session_id: str, step: str, player: int, choice: str, nonce: str) -> str:
    payload = "|".join([session_id, step, str(player), choice, nonce])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def verify(session_id: str, step: str, player: int, choice: str, nonce: str, digest: str) -> bool:
    return commitment(session_id, step, player, choice, nonce) == digest.strip().lower()


class SealedEntry(Model):
    choice: str
    nonce: str
    commitment: str


class SealedRound(Model):
    """One sealed step: who must choose, what each chose (kept secret until all have)."""

    step: str  # unique within the session, e.g. "bid:mission:1" or "scouting"
    label: str  # what is being chosen, for messages: "bid for the mission"
    players: list[int]
    entries: dict[int, SealedEntry] = {}
    revealed: bool = False

    def waiting_for(self) -> list[int]:
        return [p for p in self.players if p not in self.entries]

    def choices(self) -> dict[int, str]:
        if not self.revealed:
            raise RuntimeError("sealed choices read before the reveal")
        return {p: e.choice for p, e in self.entries.items()}


class ChoiceSealed(Event):
    """Public: a player has sealed; shows the commitment only."""

    step: str
    label: str
    player: int
    commitment: str


class RevealedEntry(Model):
    player: int
    choice: str
    nonce: str
    commitment: str


class ChoicesRevealed(Event):
    """Public: every choice of the round, with nonces so the commitments can be checked."""

    step: str
    label: str
    entries: list[RevealedEntry]


def seal(
    round_: SealedRound, session_id: str, player: int, choice: str, nonce: str
) -> tuple[SealedRound, list[Event]]:
    """Seal one player's choice; the last seal reveals the round. Refusals never echo the choice."""
    if player not in round_.players:
        raise RuleError("You are not part of this sealed choice.")
    if round_.revealed:
        raise RuleError("These choices have already been revealed and can no longer change.")
    if player in round_.entries:
        raise RuleError("You have already sealed your choice for this step; it cannot be changed.")
    digest = commitment(session_id, round_.step, player, choice, nonce)
    entries = {**round_.entries, player: SealedEntry(choice=choice, nonce=nonce, commitment=digest)}
    events: list[Event] = [
        ChoiceSealed(step=round_.step, label=round_.label, player=player, commitment=digest)
    ]
    revealed = len(entries) == len(round_.players)
    new_round = round_.model_copy(update={"entries": entries, "revealed": revealed})
    if revealed:
        events.append(
            ChoicesRevealed(
                step=round_.step,
                label=round_.label,
                entries=[
                    RevealedEntry(
                        player=p,
                        choice=entries[p].choice,
                        nonce=entries[p].nonce,
                        commitment=entries[p].commitment,
                    )
                    for p in round_.players
                ],
            )
        )
    return new_round, events
