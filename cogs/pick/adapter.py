"""How the platform plays Pick (bot/play/games.py `GameAdapter`): its declaration in the game
registry (system, title, /help line, pack), and how a step is rendered and worded.

Loading it adds the words of Pick's refusal codes (cogs/pick/refusals.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.chat.messages import Embed, Reply
from bot.lang.i18n import Domain
from bot.play.games import GameAdapter, PackSpec, SessionInfo
from cogs.pick import refusals  # noqa: F401  (adds the refusal codes' words)
from cogs.pick.board import COLOUR, board_embed, describe
from cogs.pick.questions import private_prompt, question_text, sealed_text
from cogs.pick.vocabulary import TITLE
from rules.dice import Roller
from rules.pick.models import PickPack, PickState
from rules.pick.pack import parse_pack, shipped_pack
from rules.pick.procedure import PROCEDURE, start
from rules.sealed import ChoiceSealed
from rules.session import Event, Question

_ = Domain("pick")


class PickAdapter(GameAdapter[PickState]):
    procedure = PROCEDURE
    title = TITLE
    start_command = "/pick start"
    help = _.mark("`/pick start @opponent`: both pick a number in secret, the higher pick wins")
    domain = "pick"
    pack = PackSpec(parse=parse_pack, shipped=shipped_pack)
    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: PickPack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[PickState, list[Event]]:
        """Pick has no options: a night's game is the game `/pick start` opens, with the server's pack."""
        return start(session_id, list(players), roller, pack)

    def board(self, info: SessionInfo, state: PickState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: PickState, events: list[Event]) -> list[str]:
        return [line for event in events if (line := describe(event))]

    def question_text(self, state: PickState, asked: Question) -> str:
        return question_text(state, asked)

    def answered_privately(
        self, info: SessionInfo, state: PickState, player: int, asked: Question, events: list[Event]
    ) -> str | None:
        entry = state.round.entries.get(player)
        return sealed_text(events, player, entry.choice if entry else None)

    def reply(self, info: SessionInfo, state: PickState, events: list[Event], actor: int) -> Reply:
        """A sealed pick's own answer says what was sealed; anything else, what it did."""
        entry = state.round.entries.get(actor)
        if entry is not None and any(isinstance(e, ChoiceSealed) and e.player == actor for e in events):
            return Reply(content=_("Your pick {choice} is sealed.", choice=entry.choice))
        return super().reply(info, state, events, actor)

    def private_prompt(self, info: SessionInfo, state: PickState, user_id: int) -> Reply | None:
        return private_prompt(state, user_id)
