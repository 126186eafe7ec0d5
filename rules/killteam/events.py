"""What happened in a Kill Team game, for the bot to post. Secrets carry `private_to`."""

from __future__ import annotations

from typing import Literal

from rules.killteam.pack import TacOp
from rules.session import Event, GameOutcome


class GameStarted(Event):
    kind: Literal["started"] = "started"
    mission_method: str
    tacops_method: str
    pack: str


class Notice(Event):
    """A short public explanation (e.g. why Control fell back to Random)."""

    kind: Literal["notice"] = "notice"
    text: str


class RolledOff(Event):
    kind: Literal["rolled_off"] = "rolled_off"
    purpose: str
    players: list[int]
    rounds: list[list[int]]
    winner: int


class SideChosen(Event):
    kind: Literal["side_chosen"] = "side_chosen"
    attacker: int
    defender: int
    by: int | None


class MissionsPutForward(Event):
    kind: Literal["missions_put_forward"] = "missions_put_forward"
    by: int
    missions: list[str]


class MapsPutForward(Event):
    kind: Literal["maps_put_forward"] = "maps_put_forward"
    by: int
    maps: list[str]


class MapDiscarded(Event):
    kind: Literal["map_discarded"] = "map_discarded"
    by: int
    map: str


class MapGroupChosen(Event):
    kind: Literal["map_group_chosen"] = "map_group_chosen"
    by: int
    group: str


class MissionChosen(Event):
    kind: Literal["mission_chosen"] = "mission_chosen"
    mission: str
    name: str
    by: int | None
    how: str


class MapChosen(Event):
    kind: Literal["map_chosen"] = "map_chosen"
    map: str
    label: str
    group: str
    by: int | None
    how: str


class KillzoneReady(Event):
    """Step 2: the map to set objective markers and terrain from."""

    kind: Literal["killzone"] = "killzone"
    mission: str
    map: str
    group: str


class DropZoneChosen(Event):
    kind: Literal["drop_zone"] = "drop_zone"
    defender: int
    zone: str


class FactionChosen(Event):
    kind: Literal["faction"] = "faction"
    player: int
    faction: str | None


class CommandPointsAdded(Event):
    kind: Literal["command_points"] = "command_points"
    amount: int
    totals: dict[int, int]


class SecretAsked(Event):
    """Private: a new sealed or private question is waiting for `private_to` (send them the prompt)."""

    kind: Literal["secret_asked"] = "secret_asked"
    step: str


class BidRoundOpened(Event):
    kind: Literal["bid_opened"] = "bid_opened"
    step: str
    category: str
    label: str
    round: int
    tokens: dict[int, int]


class BidTied(Event):
    kind: Literal["bid_tied"] = "bid_tied"
    category: str
    label: str
    amount: int


class BidWon(Event):
    kind: Literal["bid_won"] = "bid_won"
    category: str
    label: str
    bids: dict[int, int]
    winner: int
    rolled_off: bool
    tokens: dict[int, int]


class TacOpsDrawn(Event):
    """Private: the two cards a player drew and must keep one of."""

    kind: Literal["tacops_drawn"] = "tacops_drawn"
    cards: list[TacOp]


class TacOpsSetAside(Event):
    kind: Literal["tacops_set_aside"] = "tacops_set_aside"
    cards: list[TacOp]
    reason: str


class TacOpKept(Event):
    kind: Literal["tacop_kept"] = "tacop_kept"
    card: TacOp
    discarded: list[TacOp]


class TacOpsChosen(Event):
    """Public: a player has their three Tac Ops (which ones stays secret)."""

    kind: Literal["tacops_chosen"] = "tacops_chosen"
    player: int


class TacOpsHand(Event):
    """Private: the owner's three secret Tac Ops."""

    kind: Literal["tacops_hand"] = "tacops_hand"
    cards: list[TacOp]


class TacOpRow(Event):
    kind: Literal["tacop_row"] = "tacop_row"
    row: list[TacOp]
    added: list[TacOp]


class TacOpTaken(Event):
    kind: Literal["tacop_taken"] = "tacop_taken"
    player: int
    card: TacOp


class ArchetypeChosen(Event):
    kind: Literal["archetype_chosen"] = "archetype_chosen"
    by: int
    archetype: str


class TacOpPairOffered(Event):
    kind: Literal["tacop_pair"] = "tacop_pair"
    number: int
    pair: list[TacOp]


class TacOpRevealed(Event):
    kind: Literal["tacop_revealed"] = "tacop_revealed"
    player: int
    card: TacOp


class PlayerDone(Event):
    kind: Literal["player_done"] = "player_done"
    player: int
    what: str


class ScoutingRevealed(Event):
    kind: Literal["scouting_revealed"] = "scouting_revealed"
    picks: dict[int, str]
    order: list[int]


class InitiativeDecided(Event):
    kind: Literal["initiative"] = "initiative"
    player: int
    how: str


class TurningPointStarted(Event):
    kind: Literal["turning_point"] = "turning_point"
    turning_point: int


class VictoryPointsScored(Event):
    kind: Literal["vp"] = "vp"
    player: int
    turning_point: int
    what: str
    amount: int
    total: int


class TurningPointEnded(Event):
    kind: Literal["turning_point_ended"] = "turning_point_ended"
    player: int
    turning_point: int
    complete: bool


class EndAsked(Event):
    """A player asked to end the game; it waits for a confirmation."""

    kind: Literal["end_asked"] = "end_asked"
    by: int


class EndAnswered(Event):
    """`player` answered the request `by` made to end the game: confirmed (the game ends) or not yet."""

    kind: Literal["end_answered"] = "end_answered"
    player: int
    by: int
    confirmed: bool


class GameEnded(Event):
    kind: Literal["ended"] = "ended"
    outcome: GameOutcome
    totals: dict[int, int]


class GameAbandoned(Event):
    """The game was ended before its battle began: nothing was played, so there is no result."""

    kind: Literal["abandoned"] = "abandoned"
