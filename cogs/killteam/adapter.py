"""How the platform (bot/play/table.py) runs a Kill Team game: start it, step it, and show it.

A thin adapter: the rules live in rules/killteam. It hands the platform the game's words: the board
and the event lines (cogs/killteam/board.py), a question's message and the secret prompts
(cogs/killteam/questions.py), the names shown to players (cogs/killteam/vocabulary.py) and the words
of its refusal codes (cogs/killteam/refusals.py). The platform decides what is posted and edited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.chat.limits import CONTENT, EMBED_DESCRIPTION
from bot.chat.messages import Embed, Outgoing, Reply
from bot.lang.i18n import Domain, say
from bot.lang.text import add_words
from bot.play.games import GameAdapter, PackSpec, SessionInfo
from bot.play.table import sealed_line
from cogs.killteam.board import board_embed, describe, describe_briefly, describe_private, reveal_value
from cogs.killteam.questions import private_reply, question_text
from cogs.killteam.refusals import ENGLISH
from cogs.killteam.vocabulary import COLOUR, sealed_label, who
from cogs.killteam.vocabulary import summary as word_summary
from rules.dice import Roller
from rules.killteam import (
    PROCEDURE,
    KillTeamPack,
    KillTeamState,
    load_default_pack,
    parse_pack,
    prompt,
    start,
    supported_methods,
)
from rules.killteam import events as ev
from rules.killteam.models import TacOpsMethod
from rules.killteam.views import sealed_choice
from rules.sealed import ChoiceSealed, ChoicesRevealed
from rules.session import Event, Question
from rules.text import clip

add_words(ENGLISH)

SYSTEM = PROCEDURE.system
QUICK_MISSIONS = "random"  # a game opened without options (a night's pairing): Random mission and map
QUICK_TACOPS: TacOpsMethod = "free"  # and Free Selection of Tac Ops
_ = Domain("killteam")


# ---------------------------------------------------------------------- the adapter


def record(step: str, line: str) -> Outgoing:
    """A post of its own at the table, never edited: what a player checks a sealed choice with.
    Keyed by its step, it never rides on a question's message (bot/play/table.py), which is redrawn as
    the question changes."""
    return Outgoing(
        key=f"reveal.{step}", embeds=[Embed(description=clip(line, EMBED_DESCRIPTION), colour=COLOUR)]
    )


def own_seal(events: list[Event], actor: int) -> ChoiceSealed | None:
    """The seal the actor's own answer made, if it made one. A seal is the first thing its step
    says (rules/sealed.py); a seal of the actor's later in the step was made for them (a bid with no
    tokens left) after whatever they pressed, and their reply is about what they pressed."""
    first = events[0] if events else None
    return first if isinstance(first, ChoiceSealed) and first.player == actor else None


def seal_note(events: list[Event]) -> str:
    """What became of a seal just made: hidden still, or revealed with the other (said where the
    player sealed: their DM prompt, or the answer apart)."""
    if any(isinstance(e, ChoicesRevealed) for e in events):
        return _("Both choices are now revealed in the game's channel.")
    return _("It stays hidden until your opponent has sealed too.")


class KillTeamAdapter(GameAdapter[KillTeamState]):
    procedure = PROCEDURE
    title = "Kill Team"
    start_command = "/killteam start"
    aliases = ("kill-team", "kt")
    help = _.mark(
        "`/killteam start @opponent` runs the matched-play sequence: mission and map, sealed bids "
        "and scouting in DMs, Tac Ops, scoring with the caps"
    )
    domain = "killteam"
    pack = PackSpec(parse=parse_pack, shipped=load_default_pack)

    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: KillTeamPack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[KillTeamState, list[Event]]:
        """A club night's game, as `/killteam start` opens it: mission and map dealt at random, and
        Tac Ops chosen freely, the core sequence's own way (else the first way this pack allows)."""
        pack = pack or load_default_pack()
        methods = supported_methods(pack)
        tacops = QUICK_TACOPS if QUICK_TACOPS in methods or not methods else methods[0]
        return start(session_id, list(players), QUICK_MISSIONS, tacops, roller, pack=pack)

    def outcome_summary(self, state: KillTeamState) -> str:
        return word_summary(state.outcome.summary) if state.outcome is not None else ""

    def board(self, info: SessionInfo, state: KillTeamState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: KillTeamState, events: list[Event]) -> list[str]:
        return [line for e in events if e.private_to is None and (line := describe_briefly(e, state))]

    def moments(self, info: SessionInfo, state: KillTeamState, events: list[Event]) -> list[Outgoing]:
        """A reveal stays readable in the thread, with what anyone needs to check the commitments."""
        return [
            record(e.step, line)
            for e in events
            if isinstance(e, ChoicesRevealed) and (line := describe(e, state))
        ]

    def private_lines(
        self, info: SessionInfo, state: KillTeamState, player: int, events: list[Event]
    ) -> list[str]:
        return [line for e in events if e.private_to == player and (line := describe_private(e))]

    def tells_privately(
        self, info: SessionInfo, state: KillTeamState, events: list[Event], actor: int
    ) -> bool:
        """Only what the answer would say privately (a Tac Op drawn), not a sealed prompt's notice."""
        return bool(self.private_lines(info, state, actor, events))

    def question_text(self, state: KillTeamState, asked: Question) -> str:
        return question_text(state, asked)

    def answered_privately(
        self, info: SessionInfo, state: KillTeamState, player: int, asked: Question, events: list[Event]
    ) -> str | None:
        sealed = next((e for e in events if isinstance(e, ChoiceSealed) and e.player == player), None)
        if sealed is None:
            return None
        revealed = next((e for e in events if isinstance(e, ChoicesRevealed) and e.step == asked.step), None)
        mine = next((e for e in revealed.entries if e.player == player), None) if revealed else None
        choice = mine.choice if mine else sealed_choice(state, player)
        shown = reveal_value(state, asked.step, str(choice)) if choice is not None else None
        line = sealed_line([sealed], player, shown, label=sealed_label(sealed.label))  # says only it
        return f"{line}\n{seal_note(events)}" if line else line

    def reply(self, info: SessionInfo, state: KillTeamState, events: list[Event], actor: int) -> Reply:
        if own_seal(events, actor) is not None:
            return Reply(content=f"{_('Sealed.')} {seal_note(events)}")
        if any(isinstance(e, ev.EndAsked) and e.by == actor for e in events):
            return Reply(
                content=_(
                    "Your request to end the game is waiting for a confirmation: {player} presses "
                    "{confirm} in the game's thread, or you may confirm it yourself there. {not_yet} "
                    "withdraws it.",
                    player=who(state.opponent(actor)),
                    confirm=_.p("button", "Confirm"),
                    not_yet=_.p("button", "Not yet"),
                )
            )
        mine = [line for e in events if e.private_to == actor and (line := describe_private(e))]
        said = mine or self.lines(info, state, events)  # what the action did ("… +2 VP …; total 9")
        return Reply(content=clip("\n".join(said), CONTENT) or _("Recorded."))

    def private_prompt(self, info: SessionInfo, state: KillTeamState, user_id: int) -> Reply | None:
        return private_reply(state, user_id)

    def summary(self, info: SessionInfo, state: KillTeamState) -> str:
        return say(prompt(state).title)
