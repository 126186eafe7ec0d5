"""The public questions a game waits on ride on its board: a step edits one message in the thread.
A question is announced by a post with nothing to click that pings its players once; one that does
not fit on the board (five component rows) keeps a message of its own, closed once it moves onto
the board, so no button is left clickable twice."""

from __future__ import annotations

from typing import Any

from bot.chat.messages import Outgoing
from bot.play.games import GameAdapter, SessionInfo
from bot.play.table import BOARD_KEY, DONE_MARK, table_messages
from rules.dice import Roller
from rules.session import Event, GameState, Option, Procedure, Question
from rules.words import Words

ALICE, BOB = 1001, 2002


class RowsState(GameState):
    asked: list[int] = []


def ask(state: RowsState, player: int) -> list[Question]:
    """One question per index asked of both players, each a row of two buttons."""
    return [
        Question(
            step=f"q{i}",
            topic="rows.q",
            title=Words.verbatim(f"Question {i}"),
            players=[ALICE, BOB],
            options=[
                Option(value="yes", label=Words.verbatim("Yes")),
                Option(value="no", label=Words.verbatim("No")),
            ],
        )
        for i in state.asked
    ]


def step(state: RowsState, action: Any, roller: Roller) -> tuple[RowsState, list[Event]]:
    return state, []


class RowsAdapter(GameAdapter[RowsState]):
    procedure = Procedure("rows", RowsState, step, ask=ask)
    title = "Rows"

    def lines(self, info: SessionInfo, state: RowsState, events: list[Event]) -> list[str]:
        return ["Alice answers yes."]


INFO = SessionInfo(
    id="s1",
    guild_id=1,
    channel_id=2,
    system="rows",
    organiser_id=ALICE,
    players=(ALICE, BOB),
    status="open",
    version=1,
    thread_id=3,
)


def board_of(out: list[Outgoing]) -> Outgoing:
    [board] = [o for o in out if o.key == BOARD_KEY]
    return board


def announced(out: list[Outgoing]) -> list[Outgoing]:
    return [o for o in out if o.to == "channel" and o.key is None and o.pings]


def test_questions_ride_on_the_board_and_one_that_does_not_fit_has_its_own_message() -> None:
    adapter = RowsAdapter()
    start = RowsState(session_id="s1", players=[ALICE, BOB], asked=list(range(6)))
    out = table_messages(adapter, INFO, None, start, [])
    board = board_of(out)
    assert [b.step for b in board.buttons] == [f"q{i}" for i in range(5) for _ in range(2)]
    assert [str(e.description).split("\n")[0] for e in board.embeds[1:]] == [
        f"**Question {i}**" for i in range(5)
    ]
    posts = announced(out)
    assert len(posts) == 5 and all(not p.buttons and not p.selects and p.pings == [ALICE, BOB] for p in posts)
    [own] = [o for o in out if o.key == "ask.q5"]  # five rows are taken: q5 keeps a message of its own
    assert own.pings == [ALICE, BOB] and [b.step for b in own.buttons] == ["q5", "q5"]


def test_a_question_moved_onto_the_board_closes_its_own_message_and_pings_nobody() -> None:
    adapter = RowsAdapter()
    before = RowsState(session_id="s1", players=[ALICE, BOB], asked=list(range(6)))
    after = before.model_copy(update={"asked": list(range(1, 6))})
    out = table_messages(adapter, INFO, before, after, [])
    assert [b.step for b in board_of(out).buttons][-2:] == ["q5", "q5"]
    assert "Alice answers yes." in str(board_of(out).embeds[0].fields)
    [closed] = [o for o in out if o.key == "ask.q5"]
    assert closed.edit_only and not closed.buttons and closed.content == f"{DONE_MARK} Alice answers yes."
    assert not [o for o in out if o.pings]  # nothing newly asked: nobody pinged
    # The same state again: the board is where it was, nothing closed or announced.
    again = table_messages(adapter, INFO, after, after, [])
    assert [o.key for o in again if o.to == "channel"] == [BOARD_KEY]
