"""The state of a 40K mission session and the records it keeps; all JSON-serialisable pydantic models.

What players do is in actions.py, what happened in events.py."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import model_validator

from rules.fortyk.mission import Mission
from rules.session import GameState, Model


class Phase(StrEnum):
    DEPLOYMENT_ROLL = "deployment_roll"  # roll off: the winner picks the deployment zone
    CHOOSE_ZONE = "choose_zone"
    DEPLOYING = "deploying"  # alternate deploying; each says when they are done
    FIRST_TURN_ROLL = "first_turn_roll"
    CHOOSE_ORDER = "choose_order"  # the roll-off winner goes first or second
    SEIZE = "seize"  # the opponent may try to seize the initiative
    BATTLE = "battle"
    SCORING = "scoring"  # each side reports its table quarters and surviving marked units
    FINISHED = "finished"


class RollOffRecord(Model):
    """Every round of a roll-off, ties included, so the channel can show all the dice."""

    rolls: list[tuple[int, int]]  # the dice, in player order
    totals: list[tuple[int, int]]  # dice plus bonuses
    bonuses: tuple[int, int] = (0, 0)
    winner: int  # a player id


class ZoneChoice(Model):
    chooser: int
    zone: str
    opponent_zone: str


class SeizeRecord(Model):
    player: int
    die: int | None  # None: the player chose not to try
    seized: bool


class Mark(Model):
    """`by` marked `owner`'s unit `unit` in battle round `round`, turn `turn` (0 first, 1 second)."""

    by: int
    owner: int
    unit: str
    round: int
    turn: int


class KillReason(StrEnum):
    UNMARKED = "unmarked"
    MARKED_THIS_TURN = "marked_this_turn"
    MARKED_EARLIER = "marked_earlier"  # survived the turn it was marked in: no kill points


class Kill(Model):
    by: int
    owner: int
    unit: str
    round: int
    turn: int
    kill_points: int
    reason: KillReason


class RelicHolder(Model):
    """`relic_owner`'s relic is carried by the enemy unit `unit`."""

    relic_owner: int
    unit: str


class ContinueRollRecord(Model):
    after_round: int
    player: int
    die: int
    needs: int
    continues: bool


class EndReport(Model):
    player: int
    quarters: int
    marked_alive: list[str]


class Award(Model):
    player: int
    points: int


class ConditionResult(Model):
    """How one victory condition came out, as values the bot words: `counts` and `units` are per
    player in player order (kill points, table quarters, 1 for holding the enemy relic, or marked units
    alive; the unit carrying the relic or the marked units alive)."""

    key: str
    tier: str
    name: str
    points: int  # what the condition is worth (per unit for the quaternary)
    outcome: Literal["won", "split", "none", "per_unit"]
    counts: list[int] = []
    units: list[list[str]] = []
    winner: int | None = None  # who took it, when `outcome` is "won"
    awards: list[Award]

    @model_validator(mode="before")
    @classmethod
    def _drop_worded_detail(cls, data: Any) -> Any:
        """Games saved before results were values carry a ready sentence; the values replace it."""
        if isinstance(data, dict) and "detail" in data:
            data = {k: v for k, v in data.items() if k != "detail"}
        return data

    def points_for(self, player: int) -> int:
        return sum(a.points for a in self.awards if a.player == player)


class FortyKState(GameState):
    """A whole mission in progress; the mission itself is copied in so a saved game never depends on
    a pack that may change later."""

    mission: Mission
    phase: Phase = Phase.DEPLOYMENT_ROLL
    deployment_roll: RollOffRecord | None = None
    zone: ZoneChoice | None = None
    deploys_first: int | None = None
    setup_done: list[int] = []  # in the order the players finished deploying
    first_turn_roll: RollOffRecord | None = None
    seize: SeizeRecord | None = None
    first_player: int | None = None
    round: int = 0
    turn: int = 0  # 0: the first player's turn of the round, 1: the second player's
    marking_open: bool = False  # before movement: the active player may still mark
    marks: list[Mark] = []
    kills: list[Kill] = []
    named_units: list[tuple[int, str]] = []  # (owner, name) in the order they were first named
    relic_holders: list[RelicHolder] = []
    continue_rolls: list[ContinueRollRecord] = []
    ended_after_round: int | None = None
    reports: list[EndReport] = []
    results: list[ConditionResult] = []

    @property
    def second_player(self) -> int | None:
        return None if self.first_player is None else self.opponent(self.first_player)

    def first_turn_bonuses(self) -> tuple[int, int]:
        """The bonus each player (in player order) adds to the first-turn roll-off: the first to finish
        deploying gets the mission's bonus."""
        bonus = self.mission.first_turn.setup_first_bonus
        if not self.setup_done:
            return (0, 0)
        first = self.setup_done[0]
        return (bonus if self.players[0] == first else 0, bonus if self.players[1] == first else 0)

    @property
    def active_player(self) -> int | None:
        """Whose turn it is during the battle."""
        if self.phase is not Phase.BATTLE or self.first_player is None:
            return None
        return self.first_player if self.turn == 0 else self.opponent(self.first_player)
