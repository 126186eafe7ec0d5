"""How the platform plays Warcry: starts a battle, steps it, renders its board and words its lines,
questions' text and replies (bot/play/games.py `GameAdapter`).

Loading it adds the words of Warcry's refusal codes (cogs/warcry/refusals.py), so a battle played
anywhere (a `/warcry battle`, a club night's table) refuses in its reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.chat.limits import CONTENT
from bot.chat.messages import Embed, Outgoing, Reply
from bot.lang.i18n import Domain, say
from bot.play.games import GameAdapter, PackSpec, SessionInfo
from cogs.warcry import refusals  # noqa: F401  (adds the refusal codes' words)
from cogs.warcry.board import COLOUR, battleplan_embed, board_embed, describe
from cogs.warcry.questions import QUESTION_TEXT, prompt
from cogs.warcry.vocabulary import mention, summary
from rules.dice import Roller
from rules.session import Event, Question
from rules.text import clip
from rules.warcry.events import Notice
from rules.warcry.models import WarcryState
from rules.warcry.pack import WarcryPack, core_pack, parse_pack
from rules.warcry.procedure import PROCEDURE
from rules.warcry.setup import start

_ = Domain("warcry")


class WarcryAdapter(GameAdapter[WarcryState]):
    procedure = PROCEDURE
    title = "Warcry"
    start_command = "/warcry battle"
    help = _.mark(
        "`/warcry battleplan` · `/warcry battle @opponent` tracks a battle · `/warcry warband` checks "
        "a roster · `/warcry battlegroups`"
    )
    domain = "warcry"
    pack = PackSpec(parse=parse_pack, shipped=core_pack)
    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: WarcryPack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[WarcryState, list[Event]]:
        """A club night's battle, as `/warcry battle` opens it by default: a rolled matched battleplan."""
        return start(session_id, players, roller, kind="matched", pack=pack, names=dict(names or {}))

    def board(self, info: SessionInfo, state: WarcryState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: WarcryState, events: list[Event]) -> list[str]:
        return [line for event in events if (line := describe(event))]

    def moments(self, info: SessionInfo, state: WarcryState, events: list[Event]) -> list[Outgoing]:
        """The battleplan card, with every die rolled to decide it, stays readable in the thread."""
        return [
            Outgoing(embeds=[battleplan_embed(event.battleplan)])
            for event in events
            if isinstance(event, Notice) and event.battleplan is not None
        ]

    def question_text(self, state: WarcryState, asked: Question) -> str:
        lines = [f"**{say(asked.title)}**"]
        if asked.topic == "warcry.confirm" and state.pending is not None:
            lines.append(_("{player} pressed it.", player=mention(state.pending.by)))
        if asked.text:
            lines.append(say(asked.text))
        if asked.topic in QUESTION_TEXT:
            lines.append(_(QUESTION_TEXT[asked.topic]))
        return "\n".join(lines)

    def reply(self, info: SessionInfo, state: WarcryState, events: list[Event], actor: int) -> Reply:
        """What the press did ("Bob's blood tally for battle round 1: 80."), else where the battle is."""
        said = self.lines(info, state, events)
        return Reply(content=clip("\n".join(said), CONTENT) or prompt(state))

    def outcome_summary(self, state: WarcryState) -> str:
        return summary(state)

    def summary(self, info: SessionInfo, state: WarcryState) -> str:
        if state.battleplan is None:
            return _("Warcry — battleplan not drawn yet: {now}", now=prompt(state))
        return _("Warcry — {battleplan}: {now}", battleplan=state.battleplan.name, now=prompt(state))
