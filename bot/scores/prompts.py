"""The opponent's Confirm / Dispute prompt for a hand-entered result.

Posted through the outbox with plain-data buttons; the scores cog's persistent item answers them
after any restart, since the custom_id carries all it needs.
"""

from __future__ import annotations

import re

from bot.db.models import GameResult
from bot.messages import Button, Embed, Outgoing
from bot.scores.layout import clip, factions_line, score_line
from bot.scores.rows import record_of
from bot.scores.systems import system_title

PROMPT_COLOUR = 0xD4A017

RESULT_BUTTON = re.compile(r"score:(?P<rid>\d{1,18}):(?P<action>confirm|dispute)")


def result_buttons(result_id: int) -> list[Button]:
    return [
        Button(label="Confirm", style="success", custom_id=f"score:{result_id}:confirm"),
        Button(label="Dispute", style="danger", custom_id=f"score:{result_id}:dispute"),
    ]


def result_lines(row: GameResult) -> list[str]:
    """Score (winner in bold), mission and factions: what both the prompt and the announcement show."""
    record = record_of(row)
    lines = [score_line(record) + (" — a draw" if record.winner is None else "")]
    if record.mission:
        lines.append(f"Mission: {clip(record.mission, 200)}")
    factions = factions_line(record)
    if factions:
        lines.append(factions)
    return lines


def prompt_embed(row: GameResult) -> Embed:
    """The result a hand-entered game's opponent is asked to confirm."""
    lines = result_lines(row)
    lines.append(
        f"Recorded by <@{row.reported_by}>. It counts once <@{row.player_b}> confirms it "
        "(or by itself after 24 hours)."
    )
    return Embed(
        title=f"{system_title(row.system)}: confirm this result?",
        description="\n".join(lines),
        colour=PROMPT_COLOUR,
        footer=f"Result #{row.id}",
    )


def confirm_prompts(row: GameResult, asked_in: int, guild_name: str) -> list[Outgoing]:
    """The opponent's Confirm / Dispute: where results go (else the game's channel), and by DM."""
    embed, buttons = prompt_embed(row), result_buttons(row.id)
    moved = asked_in != row.channel_id
    note = (
        f"I couldn't post in <#{asked_in}> (I'm missing permission there), so I asked here "
        "instead; someone with Manage Server should fix the permissions or pick another channel "
        "with `/settings results-channel`."
    )
    return [
        Outgoing(
            channel_id=asked_in,
            content=f"<@{row.player_b}>, please confirm or dispute this result.",
            embeds=[embed],
            buttons=buttons,
            fallback_channel_id=row.channel_id if moved else None,
            failure_note=note if moved else None,
        ),
        Outgoing(
            to="dm",
            user_id=row.player_b,
            content=(
                f"<@{row.reported_by}> recorded a game against you in **{clip(guild_name, 100)}**. "
                "Please confirm or dispute it."
            ),
            embeds=[embed],
            buttons=buttons,
        ),
    ]
