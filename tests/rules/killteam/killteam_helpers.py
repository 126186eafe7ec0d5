"""Helpers for the Kill Team rules tests: a complete test pack and a table that plays moves.

The test pack's Tac Op names ("Recon op 1") are placeholders for tests only; the shipped pack holds
only public names.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from rules.dice import Roller
from rules.errors import ParamValue, RuleError
from rules.killteam import (
    Choose,
    Done,
    EndTurningPoint,
    KillTeamPack,
    KillTeamState,
    SealBid,
    SealScouting,
    parse_pack,
    prompt,
    prompt_for,
    start,
    step,
)
from rules.killteam.events import RolledOff
from rules.session import Event, Question
from rules.words import Words

ALICE, BOB = 1001, 2002
ARCHETYPES = ("Infiltration", "Recon", "Security", "Seek & Destroy")
FACTIONS = ("Alpha", "Beta")


def full_pack_text(ops_per_archetype: int = 6, faction_ops: int = 3) -> str:
    lines = ["name: Test pack", "missions:", "  - name: Loot", "  - name: Secure", "  - name: Capture"]
    lines.append("maps:")
    lines += [f"  - id: {series}{number}" for series in "AB" for number in range(1, 10)]
    lines.append("archetypes:")
    for archetype in ARCHETYPES:
        lines += [f"  - name: {archetype}", "    tac_ops:"]
        lines += [f"      - name: {archetype} op {i}" for i in range(1, ops_per_archetype + 1)]
    lines.append("factions:")
    for faction in FACTIONS:
        lines += [f"  - name: {faction}", "    archetypes: [Security, Recon]", "    tac_ops:"]
        lines += [f"      - name: {faction} op {i}" for i in range(1, faction_ops + 1)]
    return "\n".join(lines) + "\n"


FULL_PACK: KillTeamPack = parse_pack(full_pack_text())


class Table:
    """One game driven move by move, keeping every event; refusals must leave the state untouched."""

    def __init__(
        self,
        mission_method: str,
        tacops_method: str,
        seed: int = 1,
        pack: KillTeamPack | None = None,
        **options: Any,
    ) -> None:
        self.roller = Roller(random.Random(seed))
        self.nonces = itertools.count()
        self.state, self.events = start(
            "kt-test",
            [ALICE, BOB],
            mission_method,
            tacops_method,
            self.roller,
            pack=pack or FULL_PACK,
            **options,
        )

    # -------------------------------------------------------------- acting

    def act(self, action: Any) -> list[Event]:
        old = self.state
        before = old.model_dump_json()
        self.state, events = step(old, action, self.roller)
        assert old.model_dump_json() == before, "step changed its input state"
        assert KillTeamState.model_validate_json(self.state.model_dump_json()) == self.state
        self.events += events
        return events

    def refused(self, action: Any) -> tuple[str, dict[str, ParamValue]]:
        """Assert the action is refused and nothing changed; return the refusal's code and values (a
        value the rules word, as its English)."""
        before = self.state.model_dump_json()
        rolls = len(self.roller.rolls)
        with pytest.raises(RuleError) as refusal:
            step(self.state, action, self.roller)
        assert self.state.model_dump_json() == before
        assert len(self.roller.rolls) == rolls
        params = refusal.value.params
        return refusal.value.code, {k: str(v) if isinstance(v, Words) else v for k, v in params.items()}

    def asked(self, player: int) -> Question:
        asked = prompt_for(self.state, player)
        assert asked is not None, f"{player} is not asked anything at {self.state.stage}"
        return asked

    def choose(self, player: int, *values: str) -> list[Event]:
        return self.act(Choose(actor=player, step=self.asked(player).step or "", values=list(values)))

    def done(self, player: int) -> list[Event]:
        return self.act(Done(actor=player, step=self.asked(player).step or ""))

    def nonce(self) -> str:
        return f"nonce-{next(self.nonces):08d}"

    def bid(self, player: int, amount: int) -> list[Event]:
        asked = self.asked(player)
        return self.act(SealBid(actor=player, step=asked.step or "", amount=amount, nonce=self.nonce()))

    def scout(self, player: int, option: str) -> list[Event]:
        return self.act(SealScouting(actor=player, step="scouting", option=option, nonce=self.nonce()))

    def end_tp(self, player: int) -> list[Event]:
        return self.act(EndTurningPoint(actor=player, turning_point=self.state.turning_point))

    # -------------------------------------------------------------- reading

    @property
    def stage(self) -> str:
        return self.state.stage

    @property
    def attacker(self) -> int:
        assert self.state.attacker is not None
        return self.state.attacker

    @property
    def defender(self) -> int:
        return self.state.opponent(self.attacker)

    def last_rolloff(self) -> RolledOff:
        return [e for e in self.events if isinstance(e, RolledOff)][-1]

    def of(self, kind: type[Event]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    # -------------------------------------------------------------- playing on

    def auto(self, until: str) -> None:
        """Answer every question with the first allowed option (bids 0, Fortify) until `until`."""
        for _ in range(500):
            if self.state.stage == until or self.state.finished:
                return
            public = prompt(self.state)
            player = next(p for p in (ALICE, BOB) if prompt_for(self.state, p) is not None)
            asked = self.asked(player)
            if asked.kind == "number":
                self.bid(player, 0)
            elif asked.topic == "killteam.scouting":
                self.scout(player, "fortify")
            elif asked.kind == "done":
                self.done(player)
            elif asked.topic == "killteam.battle":
                self.end_tp(player)
            else:
                allowed = [o.value for o in asked.options if not o.disabled]
                self.choose(player, *self._valid_pick(player, allowed, asked.min_values))
            assert public is not None
        raise AssertionError(f"never reached {until}")

    def _valid_pick(self, player: int, allowed: list[str], count: int) -> list[str]:
        """A legal multi-pick: at most one (or three, for a deck) faction Tac Ops, one archetype."""
        if count == 1:
            return allowed[:1]
        faction_max = 3 if count == 6 else 1
        pack = self.state.pack
        archetype_ids = [v for v in allowed if (op := pack.tac_op(v)) is None or op.faction is None]
        faction_ids = [v for v in allowed if (op := pack.tac_op(v)) is not None and op.faction is not None]
        picked = faction_ids[: min(faction_max, max(0, count - len(archetype_ids)), len(faction_ids))]
        return picked + archetype_ids[: count - len(picked)]
