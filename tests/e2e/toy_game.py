"""A minimal sealed-choice game used to test the session platform itself, apart from any real game.

Both players secretly pick 1, 2 or 3 in their DMs; the higher pick wins. It goes through exactly
the same platform code as the real games: DM prompts with the closed-DM fallback, commitments,
the versioned store, the outbox and the router.
"""

from __future__ import annotations

from typing import Literal

from bot.games import Click, GameAdapter, SessionInfo
from bot.messages import Button, Outgoing, Reply
from rules.dice import Roller
from rules.errors import RuleError
from rules.sealed import ChoiceSealed, ChoicesRevealed, SealedRound, seal
from rules.session import Action, Event, GameOutcome, GameState, Procedure, SideResult


class PickState(GameState):
    round: SealedRound


class Pick(Action):
    kind: Literal["pick"] = "pick"
    value: int
    nonce: str


def start(session_id: str, players: list[int], roller: Roller) -> tuple[PickState, list[Event]]:
    round_ = SealedRound(step="pick", label="pick", players=players)
    return PickState(session_id=session_id, players=players, round=round_), []


def step(state: PickState, action: Pick, roller: Roller) -> tuple[PickState, list[Event]]:
    if not 1 <= action.value <= 3:
        raise RuleError("Pick 1, 2 or 3.")
    round_, events = seal(state.round, state.session_id, action.actor, str(action.value), action.nonce)
    update: dict[str, object] = {"round": round_}
    if round_.revealed:
        picks = {p: int(c) for p, c in round_.choices().items()}
        a, b = state.players
        winner = None if picks[a] == picks[b] else (a if picks[a] > picks[b] else b)
        update.update(
            finished=True,
            outcome=GameOutcome(
                sides=[SideResult(player=p, score=picks[p]) for p in state.players],
                winner=winner,
                mission="Pick",
            ),
        )
    return state.model_copy(update=update), events


def awaiting(state: PickState) -> list[int]:
    return state.round.waiting_for()


PROCEDURE = Procedure("toy", PickState, step, awaiting)


class ToyAdapter(GameAdapter[PickState]):
    procedure = PROCEDURE
    title = "Pick"

    def action_for(self, info: SessionInfo, state: PickState, click: Click) -> Pick | None:
        if click.action == "boom":
            raise RuntimeError("a bug in a game adapter")
        if click.action != "pick":
            return None
        return Pick(actor=click.user_id, value=int(click.arg), nonce=click.nonce)

    def _prompt(self) -> list[Button]:
        return [Button(label=str(n), action="pick", arg=str(n)) for n in (1, 2, 3)]

    def render(self, info: SessionInfo, state: PickState, events: list[Event]) -> list[Outgoing]:
        out: list[Outgoing] = []
        if state.round.entries == {} and not state.finished:
            out.append(Outgoing(content=f"Pick game: <@{state.players[0]}> vs <@{state.players[1]}>."))
            out.extend(
                Outgoing(
                    to="dm",
                    user_id=p,
                    secret=True,
                    content="Pick a number in secret:",
                    buttons=self._prompt(),
                )
                for p in state.players
            )
        for event in events:
            if isinstance(event, ChoiceSealed):
                out.append(Outgoing(content=f"<@{event.player}> has sealed their pick `{event.commitment}`"))
            elif isinstance(event, ChoicesRevealed):
                lines = [f"<@{e.player}> picked {e.choice} (nonce `{e.nonce}`)" for e in event.entries]
                out.append(Outgoing(content="Revealed:\n" + "\n".join(lines)))
        return out

    def reply(self, info: SessionInfo, state: PickState, events: list[Event], actor: int) -> Reply:
        return Reply(content=f"Your pick {state.round.entries[actor].choice} is sealed.")

    def private_prompt(self, info: SessionInfo, state: PickState, user_id: int) -> Reply | None:
        if user_id in state.round.entries:
            return Reply(content=f"You picked {state.round.entries[user_id].choice}; waiting for the reveal.")
        return Reply(content="Pick a number in secret:", buttons=self._prompt())
