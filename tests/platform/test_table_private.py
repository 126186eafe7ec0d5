"""The table's DM prompts: a series of private questions keeps one DM message, edited as it moves
on; one "Open my secret prompt" stands in for a player's new prompts of a step; a moment for a
player's DMs never rides on a question's post in the thread."""

from __future__ import annotations

from typing import Any

from bot.chat.messages import Embed, Outgoing
from bot.play.games import GameAdapter, SessionInfo
from bot.play.table import BOARD_KEY, table_messages
from rules.dice import Roller
from rules.session import Event, GameState, Option, Procedure, Question
from rules.words import Words

ALICE, BOB = 1001, 2002


class CountState(GameState):
    turn: int = 0


def ask(state: CountState, player: int) -> list[Question]:
    if player != ALICE:
        return []
    asked = [
        Question(
            step=f"c{state.turn}.card",
            topic="count.card",
            title=Words.verbatim("Lay the card"),
            players=[ALICE],
            options=[Option(value="lay", label=Words.verbatim(f"Lay it (turn {state.turn})"))],
            private=True,
            optional=True,
            series="card",
        ),
        Question(
            step=f"c{state.turn}.turn",
            topic="count.turn",
            title=Words.verbatim("Your turn"),
            players=[ALICE],
            options=[
                Option(value="pass", label=Words.verbatim("Pass")),
                Option(value="wait", label=Words.verbatim("Wait")),
            ],
            private=True,
        ),
    ]
    if state.turn >= 1:
        asked.append(
            Question(
                step="go",
                topic="count.go",
                title=Words.verbatim("Go on"),
                players=[ALICE],
                kind="done",
                options=[],
            )
        )
    return asked


def step(state: CountState, action: Any, roller: Roller) -> tuple[CountState, list[Event]]:
    return state.model_copy(update={"turn": state.turn + 1}), []


class CountAdapter(GameAdapter[CountState]):
    procedure = Procedure("count", CountState, step, ask=ask)
    title = "Count"

    def moments(self, info: SessionInfo, state: CountState, events: list[Event]) -> list[Outgoing]:
        return [
            Outgoing(to="dm", user_id=ALICE, key="hand", embeds=[Embed(description="Alice's secret hand")]),
            Outgoing(embeds=[Embed(description="A reveal for everyone")]),
        ]


INFO = SessionInfo(
    id="s1",
    guild_id=1,
    channel_id=2,
    system="count",
    organiser_id=ALICE,
    players=(ALICE, BOB),
    status="open",
    version=1,
    thread_id=3,
)


def dms(out: list[Outgoing]) -> dict[str, Outgoing]:
    return {str(o.key): o for o in out if o.to == "dm" and o.key != "hand"}


def test_a_private_series_keeps_one_dm_edited_and_one_secret_prompt_per_step() -> None:
    adapter = CountAdapter()
    first = CountState(session_id="s1", players=[ALICE, BOB])
    opened = dms(table_messages(adapter, INFO, None, first, []))
    assert set(opened) == {f"dm.{ALICE}.card", f"dm.{ALICE}.c0.turn"}
    # Only the first new prompt of the step stands for the player when their DMs are closed.
    assert [o.secret for o in opened.values()] == [True, False]
    second = first.model_copy(update={"turn": 1})
    moved = dms(table_messages(adapter, INFO, first, second, []))
    card = moved[f"dm.{ALICE}.card"]  # the same message, edited with the new step's components
    assert card.edit_only and card.buttons[0].step == "c1.card" and card.buttons[0].label == "Lay it (turn 1)"
    closed = moved[f"dm.{ALICE}.c0.turn"]  # a question without a series: closed, a new one posted
    assert closed.edit_only and not closed.buttons and "✅" in str(closed.embeds[0].description)
    assert not moved[f"dm.{ALICE}.c1.turn"].edit_only


def test_a_dm_moment_never_rides_on_a_question_in_the_thread() -> None:
    adapter = CountAdapter()
    first = CountState(session_id="s1", players=[ALICE, BOB])
    out = table_messages(adapter, INFO, first, first.model_copy(update={"turn": 1}), [])
    # "Go on" rides on the board; the post announcing it (pinging Alice, nothing to click) carries
    # the public reveal that led to it, and never the hand meant for Alice's DMs.
    [board] = [o for o in out if o.key == BOARD_KEY]
    assert [b.step for b in board.buttons] == ["go"]
    [asked] = [o for o in out if o.to == "channel" and o.key is None and o.pings]
    assert asked.pings == [ALICE] and not asked.buttons and not asked.selects
    shown = [str(e.description) for e in asked.embeds]
    assert "A reveal for everyone" in shown and "Alice's secret hand" not in shown
    assert any("Go on" in text for text in shown)
    [hand] = [o for o in out if o.key == "hand"]
    assert hand.to == "dm" and hand.user_id == ALICE
    assert all("secret hand" not in str(e.description) for o in out if o.to == "channel" for e in o.embeds)
