"""A player's living DM: questions of one series asked at once share one message, those alike (one
per card) listed in one menu; with a `dm_header` (a hand) every private question rides on that one
message, edited only when what it shows changes; a keyed record (a reveal) rides only on the post
announcing a question on the board, which is never edited."""

from __future__ import annotations

from typing import Any

from bot.chat.messages import Embed, Outgoing
from bot.lang.languages import ENGLISH
from bot.play.games import GameAdapter, SessionInfo
from bot.play.in_place import redrawn
from bot.play.prompts import picked_dm, player_dms, says_done
from bot.play.table import table_messages
from rules.dice import Roller
from rules.session import Event, GameState, Option, Procedure, Question
from rules.words import Words

ALICE, BOB = 1001, 2002
CARDS = ["A", "B", "C"]


class HandState(GameState):
    turn: int = 0
    hand: list[str] = list(CARDS)
    tools: int = 0  # more questions on the prompt, each answered with a menu of its own


def ask(state: HandState, player: int) -> list[Question]:
    if player != ALICE or state.finished:
        return []
    lays = [
        Question(
            step=f"c{state.turn}.lay.{card}",
            topic="hand.lay",
            title=Words.verbatim(f"Lay {card}"),
            text=Words.verbatim(f"Card {card} goes anywhere."),
            players=[ALICE],
            options=[
                Option(value="here", label=Words.verbatim("Here")),
                Option(value="there", label=Words.verbatim("There")),
            ],
            private=True,
            optional=True,
            series="prompt",
        )
        for card in state.hand
    ]
    turn = Question(
        step=f"c{state.turn}.pass",
        topic="hand.pass",
        title=Words.verbatim("Your turn"),
        players=[ALICE],
        kind="done",
        options=[Option(value="pass", label=Words.verbatim("Pass"))],
        private=True,
        series="prompt",
    )
    tools = [
        Question(
            step=f"c{state.turn}.tool{index}",
            topic=f"hand.tool{index}",
            title=Words.verbatim(f"Tool {index}"),
            players=[ALICE],
            options=[Option(value=str(value), label=Words.verbatim(str(value))) for value in range(6)],
            private=True,
            optional=True,
            series="prompt",
        )
        for index in range(state.tools)
    ]
    return [*lays, turn, *tools] if state.turn % 2 == 0 else []


def step(state: HandState, action: Any, roller: Roller) -> tuple[HandState, list[Event]]:
    return state.model_copy(update={"turn": state.turn + 1, "hand": state.hand[1:]}), []


class HandAdapter(GameAdapter[HandState]):
    procedure = Procedure("hand", HandState, step, ask=ask)
    title = "Hand"
    header = False

    def dm_header(self, info: SessionInfo, state: HandState, player: int) -> Outgoing | None:
        if not self.header:
            return None
        return Outgoing(
            to="dm",
            user_id=player,
            key=f"hand.{player}",
            embeds=[Embed(title=", ".join(state.hand) if player == ALICE else "Bob's cards")],
        )


INFO = SessionInfo(
    id="s1",
    guild_id=1,
    channel_id=2,
    system="hand",
    organiser_id=ALICE,
    players=(ALICE, BOB),
    status="open",
    version=1,
    thread_id=3,
)


def dms(out: list[Outgoing], player: int = ALICE) -> list[Outgoing]:
    return [o for o in out if o.to == "dm" and o.user_id == player]


def test_questions_alike_are_listed_in_one_menu_and_the_rest_shown() -> None:
    adapter = HandAdapter()
    first = HandState(session_id="s1", players=[ALICE, BOB])
    [prompt] = dms(table_messages(adapter, INFO, None, first, []))
    assert prompt.key == f"dm.{ALICE}.prompt" and prompt.secret
    [menu] = prompt.selects
    assert menu.pick and [o.value for o in menu.options] == [f"c0.lay.{c}" for c in CARDS]
    assert [o.label for o in menu.options] == [f"Lay {c}" for c in CARDS]
    assert menu.options[0].description == "Card A goes anywhere."
    assert [b.value for b in prompt.buttons] == ["pass"]  # the one question of its kind: shown
    # Her turn over, the one message is edited: what she did said, nothing left to pick.
    second = first.model_copy(update={"turn": 1, "hand": CARDS[1:]})
    [closed] = dms(table_messages(adapter, INFO, first, second, []))
    assert closed.key == prompt.key and closed.edit_only and not closed.selects and not closed.buttons
    assert "✅ **Your turn**" in str(closed.embeds[0].description)


def test_with_a_header_every_private_question_rides_on_one_dm_edited_only_on_change() -> None:
    adapter = HandAdapter()
    adapter.header = True
    first = HandState(session_id="s1", players=[ALICE, BOB])
    opened = table_messages(adapter, INFO, None, first, [])
    [alice] = dms(opened)
    [bob] = dms(opened, BOB)  # Bob is asked nothing: his hand alone, posted all the same
    assert alice.key == f"hand.{ALICE}" and alice.secret and not alice.edit_only
    assert alice.embeds[0].title == "A, B, C" and alice.selects[0].pick and len(alice.embeds) == 2
    assert bob.key == f"hand.{BOB}" and len(bob.embeds) == 1 and not (bob.buttons or bob.selects)
    second = first.model_copy(update={"turn": 1, "hand": CARDS[1:]})
    moved = table_messages(adapter, INFO, first, second, [])
    [alice] = dms(moved)
    assert alice.edit_only and alice.embeds[0].title == "B, C" and not alice.selects
    assert "✅ **Your turn**" in str(alice.embeds[1].description)
    assert dms(moved, BOB) == []  # nothing of Bob's changed: no edit at all
    third = second.model_copy(update={"turn": 2})
    over = third.model_copy(update={"finished": True})
    [ended] = dms(table_messages(adapter, INFO, third, over, []))  # the game ended on her turn
    assert ended.edit_only and not ended.selects and not ended.buttons
    assert ended.embeds[0].title == "B, C" and "✅" in str(ended.embeds[1].description)


def test_a_question_picked_from_the_menu_is_shown_on_the_prompt_when_it_fits() -> None:
    """A pick answered on the prompt itself (bot/play/in_place.py `pick_in_place`): the prompt as
    it stands, with the picked question's words, and its components under the menu; None where it
    isn't that prompt's listed question, or its components don't fit beside the prompt's own."""
    adapter = HandAdapter()
    state = HandState(session_id="s1", players=[ALICE, BOB])
    lay_b = next(q for q in ask(state, ALICE) if q.step == "c0.lay.B")
    key = f"dm.{ALICE}.prompt"
    look = picked_dm(adapter, INFO, state, ALICE, key, lay_b)
    assert look is not None and look.key == key
    assert [s.pick for s in look.selects] == [True] and len(look.selects[0].options) == len(CARDS)
    assert [(b.step, b.value) for b in look.buttons] == [
        ("c0.lay.B", "here"),
        ("c0.lay.B", "there"),
        ("c0.pass", "pass"),
    ]
    assert "Card B goes anywhere." in str(look.embeds[0].description)
    turn = next(q for q in ask(state, ALICE) if q.topic == "hand.pass")
    assert picked_dm(adapter, INFO, state, ALICE, key, turn) is None  # shown already, not listed
    assert picked_dm(adapter, INFO, state, ALICE, f"dm.{BOB}.prompt", lay_b) is None
    # A menu and three more of them, and a row of buttons: five rows, as many as a message holds.
    crowded = state.model_copy(update={"tools": 3})
    assert picked_dm(adapter, INFO, crowded, ALICE, key, lay_b) is not None
    assert picked_dm(adapter, INFO, crowded.model_copy(update={"tools": 4}), ALICE, key, lay_b) is None
    # With a header (a hand), the pick rides under it, on the one living DM.
    adapter.header = True
    headed = picked_dm(adapter, INFO, state, ALICE, f"hand.{ALICE}", lay_b)
    assert headed is not None and headed.key == f"hand.{ALICE}" and headed.embeds[0].title == "A, B, C"
    assert (
        "Card B goes anywhere." in str(headed.embeds[1].description) and headed.buttons[0].step == "c0.lay.B"
    )
    assert picked_dm(adapter, INFO, state, ALICE, key, lay_b) is None  # not that DM's key any more


def test_a_click_redraws_its_dm_only_when_the_dm_then_says_what_was_done() -> None:
    """A click is answered by its DM redrawn (bot/play/in_place.py) only if the DM then holds a
    "✅" line; a DM that changes without one (a card gone, a tool added) leaves the answer apart,
    which says what the player did."""
    adapter = HandAdapter()
    adapter.header = True
    first = HandState(session_id="s1", players=[ALICE, BOB])
    key = f"hand.{ALICE}"
    done = first.model_copy(update={"turn": 1, "hand": CARDS[1:]})
    redraw = redrawn(adapter, INFO, (first, done, [], None), ENGLISH, key, ALICE)
    assert redraw is not None and redraw.key == key and says_done(redraw)
    assert "✅ **Your turn**" in str(redraw.embeds[1].description)
    for after in (first.model_copy(update={"hand": CARDS[1:]}), first.model_copy(update={"tools": 1})):
        [changed] = [m for m in player_dms(adapter, INFO, first, after, [], ALICE) if m.key == key]
        assert not says_done(changed)  # edited all the same, by the outbox
        assert redrawn(adapter, INFO, (first, after, [], None), ENGLISH, key, ALICE) is None
    in_a_field = Outgoing(to="dm", user_id=ALICE, embeds=[Embed().add("Cards", "✅ **Laid**")])
    assert says_done(in_a_field) and not says_done(Outgoing(to="dm", user_id=ALICE, content="✅"))
