"""The 40K mission as the platform plays it: how a game starts (a club night's quick start), what the
shared table (bot/play/table.py) shows after a step (the board, a line per event, a question's words),
what a player's action replies and how a finished game is summed up for the score store. The rules
live in rules/fortyk; the words in the fortyk catalogue (bot/lang/i18n.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.chat.limits import CONTENT
from bot.chat.messages import Embed, Reply
from bot.lang.i18n import Domain
from bot.lang.text import add_words
from bot.play.games import SUMMARY, GameAdapter, PackSpec, SessionInfo
from cogs.fortyk.board import COLOUR, board_embed, describe, now_text
from cogs.fortyk.questions import question_text
from cogs.fortyk.refusals import ENGLISH
from cogs.fortyk.vocabulary import tier_name, who
from rules.dice import Roller
from rules.fortyk import PROCEDURE, FortyKState, Mission, Pack, Phase, builtin_pack, parse_pack, start
from rules.fortyk.procedure import DEFAULT_MISSION
from rules.fortyk.scoring import score
from rules.session import Event, Question
from rules.text import clip

_ = Domain("fortyk")

add_words(ENGLISH)


def missions_of(pack: Pack | None) -> dict[str, Mission]:
    """Built-in missions, then the server's own pack (its keys replace built-in ones)."""
    missions = {m.key: m for m in builtin_pack().missions}
    missions.update({m.key: m for m in (pack.missions if pack else [])})
    return missions


class FortyKAdapter(GameAdapter[FortyKState]):
    procedure = PROCEDURE
    title = "40K"
    start_command = "/40k start"
    aliases = ("40k", "40-k", "warhammer-40k", "warhammer-40-000", "warhammer-40000", "w40k")
    help = _.mark("`/40k start @opponent` runs Marked for Death: roll-offs, seize, marks and kill points")
    domain = "fortyk"
    pack = PackSpec(parse=parse_pack, shipped=builtin_pack)
    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: Pack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[FortyKState, list[Event]]:
        """A club night's game, as `/40k start` opens it by default: Marked for Death (the server's
        own version of it if its pack has one)."""
        return start(session_id, list(players), missions_of(pack)[DEFAULT_MISSION])

    def board(self, info: SessionInfo, state: FortyKState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: FortyKState, events: list[Event]) -> list[str]:
        return [line for e in events if (line := describe(e, state.players))]

    def question_text(self, state: FortyKState, asked: Question) -> str:
        return question_text(state, asked)

    def reply(self, info: SessionInfo, state: FortyKState, events: list[Event], actor: int) -> Reply:
        """What the player's action did, in the game's own lines (a kill says its KP and the total)."""
        said = self.lines(info, state, events) or [_("Recorded. {now}", now=now_text(state))]
        return Reply(content=clip("\n".join(said), CONTENT))

    def outcome_summary(self, state: FortyKState) -> str:
        """The score store's plain record (rules: scoring.summary), in the language in force."""
        lines = [
            _(
                "{mission}, ended after battle round {round}.",
                mission=state.mission.title,
                round=state.ended_after_round,
            )
        ]
        for result in score(state)[0]:
            points = "–".join(str(result.points_for(p)) for p in state.players)
            lines.append(f"{tier_name(result.tier)} — {result.name}: {points}")
        return "\n".join(lines)

    def summary(self, info: SessionInfo, state: FortyKState) -> str:
        if state.phase is Phase.BATTLE:
            return _(
                "{mission}: battle round {round}, {player}'s turn",
                mission=state.mission.name,
                round=state.round,
                player=who(state.active_player),
            )
        return clip(f"{state.mission.name}: {now_text(state)}", SUMMARY)
