"""What Pick's cog shows (cogs/pick/): its board, event lines, questions and refusals in the
reader's language, and that a real server never offers it."""

from __future__ import annotations

import random

from bot.app import EXAMPLE_COGS, discover_cogs
from bot.lang.i18n import say, speaking
from bot.lang.text import refusal
from bot.play.games import SessionInfo
from cogs.pick.adapter import PickAdapter
from cogs.pick.board import board_embed
from cogs.pick.questions import question_text
from rules.confirmation import CONFIRM
from rules.dice import Roller
from rules.errors import RuleError
from rules.pick.actions import CallDraw
from rules.pick.models import PickState
from rules.pick.procedure import PROCEDURE, start
from rules.session import Answer, Event

ALICE, BOB = 1, 2
ROLLER = Roller(random.Random(1))
INFO = SessionInfo(
    id="0123456789ab",
    guild_id=9,
    channel_id=8,
    system="pick",
    organiser_id=ALICE,
    players=(ALICE, BOB),
    status="open",
    version=1,
)


def played(*moves: tuple[int, str, str]) -> tuple[PickState, list[Event]]:
    state, events = start(INFO.id, [ALICE, BOB], ROLLER)
    for player, step, value in moves:
        state, events = PROCEDURE.answer(
            state, Answer(actor=player, step=step, values=[value], nonce="n"), ROLLER
        )
    return state, events


def test_the_board_and_the_reveal_in_english_and_german() -> None:
    adapter = PickAdapter()
    state, events = played((ALICE, "pick", "3"))
    assert board_embed(state).description == "<@1> has picked"
    assert adapter.reply(INFO, state, events, ALICE).content == "Your pick 3 is sealed."
    state, events = played((ALICE, "pick", "3"), (BOB, "pick", "1"))
    lines = adapter.lines(INFO, state, events)
    assert lines[0].startswith("<@2> has sealed their pick `") and lines[-1] == "<@1> wins with 3."
    assert "<@1> picked 3 (nonce `n`)" in lines[1]
    with speaking("de"):
        lines = adapter.lines(INFO, state, events)
        assert lines[1].startswith("Aufgedeckt:\n<@1> wählte 3") and lines[-1] == "<@1> gewinnt mit 3."
        assert board_embed(state).title == "Pick: <@1> gegen <@2>"


def test_a_question_and_its_words_in_the_readers_language() -> None:
    state, _events = played()
    [asked] = PROCEDURE.ask(state, ALICE)
    assert question_text(state, asked) == "**Pick a number in secret**"
    with speaking("de"):
        assert say(asked.title) == "Wähle heimlich eine Zahl"
    with speaking("es"):
        assert say(asked.title) == "Elige un número en secreto"
    called, _events = PROCEDURE.step(state, CallDraw(actor=ALICE), ROLLER)
    confirm = PROCEDURE.ask(called, BOB)[-1]
    assert [say(o.label) for o in confirm.options] == ["Confirm", "Not yet"]
    with speaking("fr"):
        assert question_text(called, confirm).startswith("**Déclarer la partie nulle ?**\n<@1> l'a demandé.")
        assert [say(o.label) for o in confirm.options] == ["Confirmer", "Pas encore"]


def test_an_agreed_draw_reads_as_one() -> None:
    state, _events = played()
    called, events = PROCEDURE.step(state, CallDraw(actor=ALICE), ROLLER)
    assert PickAdapter().lines(INFO, called, events) == [
        "<@1> calls the game a draw: it waits for a Confirm."
    ]
    step = PROCEDURE.ask(called, BOB)[-1].step
    drawn, events = PROCEDURE.answer(
        called, Answer(actor=BOB, step=step, values=[CONFIRM], nonce="n"), ROLLER
    )
    with speaking("de"):
        assert PickAdapter().lines(INFO, drawn, events) == [
            "<@2> hat bestätigt: Das Spiel endet unentschieden."
        ]


def test_a_refusal_and_the_help_line_are_worded_per_language() -> None:
    refused = RuleError(code="pick.range", low=1, high=3)
    assert refusal(refused) == "Pick a number from 1 to 3."
    with speaking("de"):
        assert refusal(refused) == "Wähle eine Zahl von 1 bis 3."
        assert PickAdapter().help_line().startswith("`/pick start @opponent`: Beide wählen")


def test_pick_is_an_example_a_real_server_never_loads() -> None:
    assert "cogs.pick" in EXAMPLE_COGS
    found = discover_cogs()
    assert "cogs.pick" not in found and {"cogs.killteam", "cogs.warcry"} <= set(found)
