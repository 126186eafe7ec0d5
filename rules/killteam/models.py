"""The Kill Team game state: everything decided so far and the one question being asked now.

The whole state is plain data (JSON round-trips exactly), so the store can save it after every
action and a restarted bot resumes mid-question.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import Field, model_validator

from rules.confirmation import Confirmation, Request, from_old_shape
from rules.errors import RuleError
from rules.killteam.actions import EndGame
from rules.killteam.pack import KillTeamPack, MapGroup
from rules.sealed import SealedRound
from rules.session import GameState, Model

MissionMethod = Literal["organised", "random", "veto", "control", "bid"]
TacOpsMethod = Literal["random", "constructed", "free", "acquired", "bid"]
MISSION_METHODS: tuple[MissionMethod, ...] = ("organised", "random", "veto", "control", "bid")
TACOPS_METHODS: tuple[TacOpsMethod, ...] = ("random", "constructed", "free", "acquired", "bid")

# The seed's sequence, in order. Each is entered once; its sub-stages ask the questions.
Macro = Literal[
    "mission",
    "killzone",
    "attacker",
    "drop_zone",
    "kill_team",
    "tac_ops",
    "equipment",
    "barricades",
    "operatives",
    "scouting",
    "initiative",
    "battle",
    "finished",
]
SEQUENCE: tuple[Macro, ...] = get_args(Macro)  # the seed's order, as written above

ENTER = ""  # stage value: this macro step has not been entered yet
COMPLETE = "complete"  # stage value: this macro step is over, move on

BID_TOKENS = 10
COMMAND_POINTS = 3
TURNING_POINTS = 4
TAC_OPS_HELD = 3
DROP_ZONES = ("A", "B")
BARRICADES_EACH = 2
OPERATIVE_GROUPS_EACH = 3
# Set-up steps the players take in turns at the table: the game asks each player once, for all of theirs.
TAKEN_IN_TURNS = ("barricades", "operatives")

MISSION_VP_PER_TP = 4
MISSION_VP_TOTAL = 16
TAC_OP_VP_EACH = 2
TAC_OP_VP_TOTAL = 6
BATTLE_READY_VP = 2
VP_TOTAL = 24


class PreviousGame(Model):
    """The last Kill Team game between the same two players, as the store remembers it."""

    winner: int | None
    mission: str | None = None
    map: str | None = None


class RollOffRecord(Model):
    purpose: str
    rounds: list[list[int]]
    winner: int  # player id


class BidRecord(Model):
    """One revealed round of bids; never changes once written."""

    category: str
    round: int
    bids: dict[int, int]
    winner: int | None  # None: tied and cancelled
    rolled_off: bool = False


class BidContest(Model):
    """A set of bidding tokens and the category currently being bid for."""

    prefix: str  # "bid" for mission and map, "tacbid" for Tac Ops; keeps step ids unique
    tokens: dict[int, int]
    category: str = ""
    label: str = ""
    round: int = 0
    sealed: SealedRound | None = None
    history: list[BidRecord] = Field(default_factory=list)
    winner: int | None = None  # who won the current category and now decides it


class VetoState(Model):
    missions: list[str] = Field(default_factory=list)
    maps: list[str] = Field(default_factory=list)
    discarded: str | None = None


class ControlState(Model):
    winner: int
    loser: int
    group: MapGroup | None = None


DraftPhase = Literal["archetype", "build", "pick", "draw", "done"]


class TacOpDraft(Model):
    """One player's private progress through Random, Constructed Random or Free Selection."""

    phase: DraftPhase
    archetype: str | None = None
    deck: list[str] = Field(default_factory=list)
    set_aside: list[str] = Field(default_factory=list)
    pair: list[str] = Field(default_factory=list)
    question: int = 0


class TacOpsState(Model):
    held: dict[int, list[str]] = Field(default_factory=dict)
    revealed: dict[int, list[str]] = Field(default_factory=dict)
    secret: bool = True
    drafts: dict[int, TacOpDraft] = Field(default_factory=dict)
    # Acquired: one shared deck and a public row
    deck: list[str] = Field(default_factory=list)
    row: list[str] = Field(default_factory=list)
    # Bid: the chosen archetype and its random pairs
    archetype: str | None = None
    pairs: list[list[str]] = Field(default_factory=list)
    pair_index: int = 0
    bids: BidContest | None = None


class PlayerScore(Model):
    mission: list[int] = Field(default_factory=lambda: [0] * TURNING_POINTS)
    tac_ops: dict[str, int] = Field(default_factory=dict)
    battle_ready: bool = False

    @property
    def mission_total(self) -> int:
        return sum(self.mission)

    @property
    def tac_op_total(self) -> int:
        return sum(self.tac_ops.values())

    @property
    def total(self) -> int:
        return self.mission_total + self.tac_op_total + (BATTLE_READY_VP if self.battle_ready else 0)


class KillTeamState(GameState):
    system: Literal["killteam"] = "killteam"
    pack: KillTeamPack
    mission_method: MissionMethod
    tacops_method: TacOpsMethod
    previous: PreviousGame | None = None
    macro: Macro = "mission"
    stage: str = ENTER
    question: int = 0  # bumped for every new public question, so stale buttons are refused
    queue: list[int] = Field(default_factory=list)  # who still answers the current question
    ordered: bool = False  # the queue is a turn order: only its head may answer
    decider: int | None = None  # the one player who answers a single-player question
    # what has been decided
    mission: str | None = None
    map: str | None = None
    attacker: int | None = None
    drop_zone: str | None = None
    factions: dict[int, str | None] = Field(default_factory=dict)
    cp: dict[int, int] = Field(default_factory=dict)
    first_initiative: int | None = None
    initiative_decider: int | None = None  # the Bid winner of "first initiative"
    scouting_picks: dict[int, str] = Field(default_factory=dict)
    # working state of the steps
    veto: VetoState | None = None
    control: ControlState | None = None
    bids: BidContest | None = None
    tac: TacOpsState = Field(default_factory=TacOpsState)
    scouting: SealedRound | None = None
    rolloffs: list[RollOffRecord] = Field(default_factory=list)
    # the battle
    turning_point: int = 0
    scores: dict[int, PlayerScore] = Field(default_factory=dict)
    # ending early is not one player's step alone: nothing else is taken while an end waits
    confirmation: Confirmation[EndGame] = Field(default_factory=Confirmation[EndGame])

    @model_validator(mode="before")
    @classmethod
    def _one_done_per_player(cls, data: Any) -> Any:
        """Games saved while barricades or operatives were one Done per item kept a turn order
        ([defender, attacker] repeated, its head answering). Whoever is still in it has items left to
        set up, so it becomes the players still to press their one Done."""
        if isinstance(data, dict) and data.get("stage") in TAKEN_IN_TURNS and data.get("ordered"):
            data = {**data, "queue": list(dict.fromkeys(data.get("queue") or [])), "ordered": False}
        return data

    @model_validator(mode="before")
    @classmethod
    def _shared_confirmation(cls, data: Any) -> Any:
        """Games saved when Kill Team kept its own request to end (`pending_end`, `ends_asked`)."""
        return from_old_shape(
            data, "pending_end", "ends_asked", lambda old: {"kind": "end", "actor": old["by"]}
        )

    @property
    def pending(self) -> Request[EndGame] | None:
        """The request to end the game waiting for its confirmation, if any."""
        return self.confirmation.pending

    @property
    def defender(self) -> int | None:
        return None if self.attacker is None else self.opponent(self.attacker)

    def step_id(self) -> str:
        """The id an answer to the current public question must carry (no ':' so it fits a custom id)."""
        return f"{self.stage}.{self.question}"

    def faction_of(self, player: int) -> str | None:
        return self.factions.get(player)

    def require_player(self, actor: int) -> None:
        if actor not in self.players:
            raise RuleError(code="killteam.not_a_player")

    def require_open(self) -> None:
        if self.finished:
            raise RuleError(code="killteam.finished")


def bid_contest(state: KillTeamState) -> BidContest | None:
    """The bidding under way: the Tac Ops bid while it is asked, else the mission and map bid."""
    return state.tac.bids if state.stage in ("tac_bid", "tac_bid_decide") else state.bids
