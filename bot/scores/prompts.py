"""The opponent's Confirm / Dispute prompt for a hand-entered result.

Posted through the outbox with plain-data buttons; the scores cog's persistent item answers them
after any restart, since the custom_id carries all it needs.
"""

from __future__ import annotations

import re

from bot.chat.limits import GUILD_NAME
from bot.chat.messages import Button, Embed, Outgoing
from bot.db.models import GameResult
from bot.lang.i18n import Domain, speaking
from bot.lang.languages import Languages
from bot.scores.layout import clip, factions_line, score_line
from bot.scores.rows import record_of
from bot.scores.systems import system_title

PROMPT_COLOUR = 0xD4A017
MISSION_SHOWN = 200  # the game_results.mission column's own length: a mission shown whole
_ = Domain("muster")

RESULT_BUTTON = re.compile(r"score:(?P<rid>\d{1,18}):(?P<action>confirm|dispute)")


def result_buttons(result_id: int) -> list[Button]:
    return [
        Button(label=_.p("button", "Confirm"), style="success", custom_id=f"score:{result_id}:confirm"),
        Button(label=_.p("button", "Dispute"), style="danger", custom_id=f"score:{result_id}:dispute"),
    ]


def result_lines(row: GameResult) -> list[str]:
    """Score (winner in bold), mission and factions: what both the prompt and the announcement show."""
    record = record_of(row)
    lines = [score_line(record) + (" — " + _("a draw") if record.winner is None else "")]
    if record.mission:
        lines.append(_("Mission: {mission}", mission=clip(record.mission, MISSION_SHOWN)))
    factions = factions_line(record)
    if factions:
        lines.append(factions)
    return lines


def prompt_embed(row: GameResult) -> Embed:
    """The result a hand-entered game's opponent is asked to confirm."""
    lines = result_lines(row)
    lines.append(
        _(
            "Recorded by {reporter}. It counts once {opponent} confirms it (or by itself after 24 hours).",
            reporter=f"<@{row.reported_by}>",
            opponent=f"<@{row.player_b}>",
        )
    )
    return Embed(
        title=_.p("title", "{game}: confirm this result?", game=system_title(row.system)),
        description="\n".join(lines),
        colour=PROMPT_COLOUR,
        footer=_("Result #{id}", id=row.id),
    )


def confirm_prompts(row: GameResult, asked_in: int, guild_name: str, languages: Languages) -> list[Outgoing]:
    """The opponent's Confirm / Dispute: where results go (else the game's channel) in the server's
    language, and by DM in the opponent's."""
    with speaking(languages.table):
        moved = asked_in != row.channel_id
        note = _(
            "I couldn't post in {channel} (I'm missing permission there), so I asked here instead; someone "
            "with Manage Server should fix the permissions or pick another channel with "
            "`/settings results-channel`.",
            channel=f"<#{asked_in}>",
        )
        public = Outgoing(
            channel_id=asked_in,
            content=_("{opponent}, please confirm or dispute this result.", opponent=f"<@{row.player_b}>"),
            pings=[row.player_b],
            embeds=[prompt_embed(row)],
            buttons=result_buttons(row.id),
            fallback_channel_id=row.channel_id if moved else None,
            failure_note=note if moved else None,
        )
    with speaking(languages.of(row.player_b)):
        private = Outgoing(
            to="dm",
            user_id=row.player_b,
            content=_(
                "{reporter} recorded a game against you in {server}. Please confirm or dispute it.",
                reporter=f"<@{row.reported_by}>",
                server=f"**{clip(guild_name, GUILD_NAME)}**",
            ),
            embeds=[prompt_embed(row)],
            buttons=result_buttons(row.id),
        )
    return [public, private]
