"""Everything a player does in a tracked Warcry battle, one model per kind of action."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from rules.confirmation import ConfirmPending
from rules.session import Action
from rules.warcry.pack import Colour, GroupName

Count = Annotated[int, Field(ge=0, le=1000)]


class SplitBattleGroups(Action):
    kind: Literal["split"] = "split"
    dagger: int = Field(ge=0, le=15)
    shield: int = Field(ge=0, le=15)
    hammer: int = Field(ge=0, le=15)


class ChooseColour(Action):
    """The priority winner says which colour of deployment points they take."""

    kind: Literal["colour"] = "colour"
    colour: Colour


class Deploy(Action):
    """The acting player has set up this battle group (named, so a double click cannot skip a step)."""

    kind: Literal["deploy"] = "deploy"
    group: GroupName


class RollBlockedObjective(Action):
    kind: Literal["blocked_objective"] = "blocked_objective"


class BeginBattle(Action):
    kind: Literal["begin"] = "begin"


class SetInitiative(Action):
    kind: Literal["initiative"] = "initiative"
    player: int


class SetTreasureCarriers(Action):
    kind: Literal["treasure"] = "treasure"
    player: int
    count: Count


class SetCarrier(Action):
    """Whose fighter carries the relic or the prize now (None: nobody)."""

    kind: Literal["carrier"] = "carrier"
    player: int | None


class SetFightersNear(Action):
    kind: Literal["near"] = "near"
    player: int
    count: Count


class RollCarrierDamage(Action):
    """The D6 damage for a fighter ending an activation with the Cursed Relic."""

    kind: Literal["carrier_damage"] = "carrier_damage"


class SetQuarters(Action):
    kind: Literal["quarters"] = "quarters"
    player: int
    count: Count


class SetBloodTally(Action):
    """Points of enemy fighters this player took down in the current battle round."""

    kind: Literal["blood"] = "blood"
    player: int
    points: Count


class AwakenObjective(Action):
    kind: Literal["awaken"] = "awaken"
    objective: str = Field(max_length=40)


class SetControl(Action):
    kind: Literal["control"] = "control"
    objective: str = Field(max_length=40)
    player: int | None


class RemoveObjective(Action):
    kind: Literal["remove"] = "remove"
    objective: str = Field(max_length=40)


class SetOnAltar(Action):
    kind: Literal["altar"] = "altar"
    player: int
    count: Count


class NominateChampion(Action):
    kind: Literal["champion"] = "champion"
    player: int
    name: str = Field(min_length=1, max_length=60)


class AddChampionTally(Action):
    kind: Literal["champion_tally"] = "champion_tally"
    player: int
    amount: int = Field(ge=1, le=200)


class ChampionTakenDown(Action):
    kind: Literal["champion_down"] = "champion_down"
    player: int


class SetConditionMet(Action):
    """For a victory card the bot cannot score: who has achieved its condition now (None: nobody)."""

    kind: Literal["condition"] = "condition"
    player: int | None


class EndRound(Action):
    """Ends battle round `round`; naming it keeps a repeated click from ending the next one too."""

    kind: Literal["end_round"] = "end_round"
    round: int = Field(ge=1)


class DeclareLastWarband(Action):
    """In the extra rounds of a tied game: only `player`'s fighters are left on the battlefield."""

    kind: Literal["last_warband"] = "last_warband"
    player: int


class AnswerLastWarband(Action):
    kind: Literal["answer_last_warband"] = "answer_last_warband"
    accept: bool


# Steps one player's press does not take alone: the other player confirms, or the player confirms their own.
Confirmable = Annotated[
    EndRound
    | SetTreasureCarriers
    | SetFightersNear
    | SetQuarters
    | SetBloodTally
    | SetOnAltar
    | AddChampionTally,
    Field(discriminator="kind"),
]


WarcryAction = Annotated[
    SplitBattleGroups
    | ChooseColour
    | Deploy
    | RollBlockedObjective
    | BeginBattle
    | SetInitiative
    | SetTreasureCarriers
    | SetCarrier
    | SetFightersNear
    | RollCarrierDamage
    | SetQuarters
    | SetBloodTally
    | AwakenObjective
    | SetControl
    | RemoveObjective
    | SetOnAltar
    | NominateChampion
    | AddChampionTally
    | ChampionTakenDown
    | SetConditionMet
    | EndRound
    | DeclareLastWarband
    | AnswerLastWarband
    | ConfirmPending,
    Field(discriminator="kind"),
]

_ADAPTER: TypeAdapter[WarcryAction] = TypeAdapter(WarcryAction)


def parse_action(data: dict[str, Any] | str) -> WarcryAction:
    """An action from its JSON form (as stored or sent by the bot)."""
    if isinstance(data, str):
        return _ADAPTER.validate_json(data)
    return _ADAPTER.validate_python(data)
