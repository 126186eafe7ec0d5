"""A tracked Warcry battle's state: where set-up and the battle rounds stand, and every tally.

Set-up follows the core rules' order: priority roll; battle groups split, priority loser first;
the battleplan rolled or dealt (so nobody splits knowing it, unless it was chosen beforehand);
the priority winner picks red or blue; Daggers, Shields then Hammers are set up, priority winner
first each time, reserves held back; objectives placed. Then battle rounds, with the tallies the
battleplan's victory condition needs, and the tied-games rule: a tie plays one extra round and is
judged again; if still tied, the battle goes on, unjudged, until only one warband is left standing.
How it steps is rules/warcry/procedure.py.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from rules.confirmation import Confirmation, Request, from_old_shape
from rules.errors import RuleError
from rules.session import Event, GameState, Model
from rules.warcry import actions as act
from rules.warcry.battlegroups import Split
from rules.warcry.battleplans import BattleplanInPlay, DrawOptions, Kind, RollOffShown
from rules.warcry.events import Verdict
from rules.warcry.pack import Arrival, Colour, GroupName

SYSTEM = "warcry"

Phase = Literal["battle_groups", "colours", "deployment", "objectives", "battle", "finished"]

QUARTERS = 4  # No Quarter: the battlefield's quarters


class DeployStep(Model):
    player: int
    group: GroupName
    arrival: Arrival = "start"
    done: bool = False


class Champion(Model):
    name: str
    tally: int = 0
    on_battlefield: bool = True


class RoundRecord(Model):
    """What happened in one finished battle round, for the scoreboard and the audit."""

    number: int
    blood: dict[int, int] = {}
    scored: dict[int, int] = {}
    initiative: int | None = None
    awakened: str | None = None


class WarcryState(GameState):
    kind: Kind | Literal["given"]
    names: dict[int, str] = {}  # display names for labels that cannot mention a user (buttons, forms)
    phase: Phase = "battle_groups"
    priority: RollOffShown
    splits: dict[int, Split] = {}
    options: DrawOptions | None = None  # kept until the battleplan is drawn, then dropped
    battleplan: BattleplanInPlay | None = None
    red: int | None = None
    deployment: list[DeployStep] = []
    round: int = 0
    round_ended: bool = False  # the round is over but an objective must still be removed
    vp: dict[int, int] = {}
    carrying: dict[int, int] = {}  # Treasure Hunters: fighters carrying treasure
    carrier: int | None = None  # Cursed Relic / Cursed Prize: whose fighter carries it
    near: dict[int, int] = {}  # Cursed Relic: fighters within 3" of it
    quarters: dict[int, int] = {}
    on_altar: dict[int, int] = {}
    blood: dict[int, int] = {}  # Reaper: this round's blood tallies
    blood_total: dict[int, int] = {}
    initiative: int | None = None  # this round
    awakened: list[str] = []
    awakened_this_round: str | None = None
    objectives: list[str] = []  # objectives still in play
    control: dict[str, int] = {}  # objective -> controlling player (absent: nobody)
    vault_first: int | None = None  # Hidden Vault: who won the roll-off after round 1
    removal_by: int | None = None
    champions: dict[int, Champion] = {}
    condition_met_by: int | None = None
    last_warband_claim: int | None = None
    # the end of a battle round, or a tally recorded for the other player, waiting to be confirmed
    confirmation: Confirmation[act.Confirmable] = Field(default_factory=Confirmation[act.Confirmable])
    history: list[RoundRecord] = []
    verdict: Verdict | None = None  # why the finished battle was won or drawn

    @model_validator(mode="before")
    @classmethod
    def _shared_confirmation(cls, data: Any) -> Any:
        """Battles saved when Warcry kept its own confirmations (`pending`, `confirmations`)."""
        return from_old_shape(data, "pending", "confirmations")

    @property
    def pending(self) -> Request[act.Confirmable] | None:
        """The step waiting for a confirmation, if any: nothing else is taken meanwhile."""
        return self.confirmation.pending

    def label_of(self, player: int) -> str:
        """A player's name for a button or a form, which can't mention a user."""
        return self.names.get(player) or f"Player {self.players.index(player) + 1}"

    @property
    def winner_of_priority(self) -> int:
        return self.priority.winner

    @property
    def loser_of_priority(self) -> int:
        return self.priority.loser

    def colour_of(self, player: int) -> Colour | None:
        if self.red is None:
            return None
        return "red" if player == self.red else "blue"

    def plan(self) -> BattleplanInPlay:
        if self.battleplan is None:
            raise RuleError(code="warcry.battleplan_pending")
        return self.battleplan

    @property
    def extra_rounds(self) -> bool:
        """Past the battleplan's last round: the battle was tied (the one extra round, and any after it)."""
        return self.battleplan is not None and self.round > self.battleplan.rounds

    @property
    def last_warband_decides(self) -> bool:
        """Past the one extra round of a tie: the victory card is never checked again, and only the last
        warband standing can win."""
        return self.battleplan is not None and self.round > self.battleplan.rounds + 1


Result = tuple[WarcryState, list[Event]]
