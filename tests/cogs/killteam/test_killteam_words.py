"""Kill Team in every language (cogs/killteam/): games of every method, played on the rules with
seeded random answers, have every question, event line, board and private prompt rendered in German,
French and Spanish. Each must differ from its English (only the pack's proper names stay as they
are), and the English must be the rules' own.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator, Set
from typing import Any

import pytest

from bot.lang.i18n import TRANSLATED, say, speaking
from bot.lang.i18n_tools import SAME, po_path, read
from cogs.killteam.board import board_embed, caps, describe, describe_briefly, describe_private
from cogs.killteam.questions import private_reply, question_text
from cogs.killteam.vocabulary import _pattern
from rules.errors import RuleError
from rules.killteam import (
    PROCEDURE,
    ConfirmPending,
    EndGame,
    KillTeamState,
    PreviousGame,
    RevealTacOp,
    Score,
    SetBattleReady,
    prompt,
    prompt_for,
)
from rules.killteam.events import Notice
from rules.killteam.labels import CAPS
from rules.session import Event, Question
from rules.words import Words
from tests.rules.killteam.killteam_helpers import ALICE, BOB, Table

MISSION_METHODS = ("organised", "random", "veto", "control", "bid")
TACOPS_METHODS = ("random", "constructed", "free", "acquired", "bid")


def _answer(table: Table, rng: random.Random) -> None:
    """One answer from whoever is asked: random bids and picks, and in the battle some scoring."""
    player = next(p for p in (ALICE, BOB) if prompt_for(table.state, p) is not None)
    asked = table.asked(player)
    if asked.kind == "number" and asked.number is not None:
        table.bid(player, rng.randint(asked.number.minimum, asked.number.maximum))
    elif asked.topic == "killteam.scouting":
        table.scout(player, rng.choice([o.value for o in asked.options]))
    elif asked.topic == "killteam.end":
        table.act(ConfirmPending(actor=player, serial=asked.params["serial"], confirm=rng.random() < 0.5))
    elif asked.kind == "done":
        table.done(player)
    elif asked.topic == "killteam.battle":
        _battle_turn(table, player, rng)
    else:
        allowed = [o.value for o in asked.options if not o.disabled]
        picks = (
            [rng.choice(allowed)]
            if asked.min_values == 1
            else table._valid_pick(player, allowed, asked.min_values)
        )
        table.choose(player, *picks)


def _battle_turn(table: Table, player: int, rng: random.Random) -> None:
    state = table.state
    secret = [op for op in state.tac.held.get(player, []) if op not in state.tac.revealed.get(player, [])]
    tries = [
        Score(actor=player, mission_vp=rng.randint(1, 3)),
        SetBattleReady(actor=player, painted=rng.random() < 0.7),
        RevealTacOp(actor=player, tac_op=secret[0]) if secret else None,
        Score(actor=player, tac_op=state.tac.held[player][0], tac_op_vp=1)
        if state.tac.held.get(player)
        else None,
        EndGame(actor=player) if state.turning_point == 3 and rng.random() < 0.3 else None,
    ]
    for action in [a for a in tries if a is not None]:
        if rng.random() < 0.5:
            try:
                table.act(action)
            except RuleError:
                pass  # over a cap, not yet revealed...: nothing changed
            if table.state.pending is not None:
                return
    table.end_tp(player)


def games() -> Iterator[tuple[Table, list[KillTeamState]]]:
    """A game of each pair of methods (and the fallbacks of Control), with every state it passed."""
    for index, (mission_method, tacops_method) in enumerate(
        (m, t) for m in MISSION_METHODS for t in TACOPS_METHODS
    ):
        options: dict[str, Any] = {}
        if mission_method == "organised":
            options = {"mission": "secure", "map": "A4"}
        if mission_method == "control":
            winner = (ALICE, None, 9)[index % 3]  # a winner; a draw; nobody among these two
            options = {"previous": PreviousGame(winner=winner, mission="loot", map="B9")}
        table = Table(mission_method, tacops_method, seed=index, **options)
        rng = random.Random(index)
        states = [table.state]
        for _turn in range(600):
            if table.state.finished:
                break
            _answer(table, rng)
            states.append(table.state)
        assert table.state.finished
        yield table, states


GAMES = list(games())


def shown_words(state: KillTeamState) -> list[Question]:
    return [prompt(state)] + [q for p in state.players for q in PROCEDURE.ask(state, p)]


def proper_names(state: KillTeamState) -> set[str]:
    """Words of the pack, shown as the pack has them."""
    pack = state.pack
    names = {m.name for m in pack.missions} | {m.summary for m in pack.missions if m.summary}
    names |= {m.label for m in pack.maps if m.name}
    names |= {a.name for a in pack.archetypes} | {f.name for f in pack.factions}
    return names | {op.name for op in pack.all_tac_ops()} | {s.name for s in pack.scouting}


@functools.cache
def marked_same(lang: str) -> list[re.Pattern[str]]:
    """What the catalogue says reads the same in `lang` (`# same`: "Mission: **{name}**." in German)."""
    po = read(po_path(lang, "killteam"), lang)
    return [
        _pattern(english)
        for m in po
        if m.id and SAME in m.user_comments
        for english in ([m.id] if isinstance(m.id, str) else m.id)
    ]


def said(lang: str, shown: str | None, english: str | None, names: Set[str] = frozenset()) -> bool:
    """Whether `shown` is `english` said in `lang`: different, or rightly the same."""
    if shown != english or not english or english in names:
        return True
    return any(p.fullmatch(english) for p in marked_same(lang))


def test_the_games_pass_every_kind_of_event() -> None:
    kinds = {type(e).__name__ for table, _states in GAMES for e in table.events}
    assert {"ChoicesRevealed", "BidTied", "BidWon", "TacOpRow", "TacOpPairOffered", "TacOpsDrawn"} <= kinds
    assert {"Notice", "VictoryPointsScored", "TacOpRevealed", "EndAsked", "EndAnswered", "GameEnded"} <= kinds
    notices = {e.text for table, _states in GAMES for e in table.events if isinstance(e, Notice)}
    assert len(notices) >= 4, notices


def words_of(asked: Question) -> Iterator[tuple[Words, bool]]:
    """Every text of a question, each with whether it may be a name of the pack (an option's)."""
    yield asked.title, False
    yield asked.text, False
    for option in asked.options:
        yield option.label, True
        yield option.description, True
        if option.group is not None:
            yield option.group, True


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_question_is_said_in_each_language(lang: str) -> None:
    """The rules word every question, and every word of it is in the catalogue but the pack's names."""
    for _table, states in GAMES:
        names = proper_names(states[0])
        for state in states:
            for asked in shown_words(state):
                for words, named in words_of(asked):
                    english = str(words)
                    assert words.domain is not None or not english or english in names, english
                    with speaking(lang):
                        seen = say(words)
                    assert said(lang, seen, english, names if named else frozenset()), (lang, english)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_line_board_and_prompt_is_said_in_each_language(lang: str) -> None:
    for table, states in GAMES:
        final = states[-1]
        for event in table.events:
            english = _lines(event, final)
            with speaking(lang):
                lines = _lines(event, final)
            for mine, theirs in zip(lines, english, strict=True):
                assert (mine is None) == (theirs is None) and said(lang, mine, theirs), (lang, theirs)
        for state in [*states[:: max(1, len(states) // 25)], final]:
            for player in state.players:
                english_reply = private_reply(state, player)
                with speaking(lang):
                    reply = private_reply(state, player)
                assert (reply is None) == (english_reply is None)
                if reply is not None and english_reply is not None:
                    assert reply.embeds[0].description != english_reply.embeds[0].description
            with speaking(lang):
                board = board_embed(state)
                texts = [question_text(state, q) for q in shown_words(state)]
            english_board = board_embed(state)
            assert board.title != english_board.title and board.description != english_board.description
            assert [f.name for f in board.fields] != [f.name for f in english_board.fields]
            assert texts != [question_text(state, q) for q in shown_words(state)]


def _lines(event: Event, state: KillTeamState) -> list[str | None]:
    return [describe(event, state), describe_briefly(event, state), describe_private(event)]


def test_the_english_is_the_rules_own() -> None:
    """English is the source: each question reads as the rules word it, and the caps too."""
    assert caps() == str(CAPS)
    for _table, states in GAMES:
        for state in states:
            for asked in shown_words(state):
                assert all(say(words) == str(words) for words, _named in words_of(asked))
                assert question_text(state, asked).startswith(f"**{asked.title}**\n{asked.text}")
