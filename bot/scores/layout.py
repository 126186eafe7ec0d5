"""Scores as Discord text: leaderboard pages, history and score lines, rating changes.

Mentions (`<@id>`) and timestamp tags (`<t:…>`) are made here, and Discord's embed limits (a
title, description, field, footer, the count of fields and the total, from bot/chat/limits.py) are
checked here, so a page can never be refused whatever names the players chose. The numbers come
from `rules.scores`; this module only lays them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.chat.limits import (
    EMBED_DESCRIPTION,
    EMBED_FOOTER,
    EMBED_TITLE,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    FIELDS,
)
from bot.lang.i18n import Domain
from rules.scores.model import ResultRecord
from rules.scores.ratings import RatingChange
from rules.scores.standings import Standing
from rules.text import clip as clip  # the shared helpers, importable from here with the rest
from rules.text import fit_lines as fit_lines

ROWS_PER_PAGE = 15
MAX_EMBED_PAGES = 10
"""Beyond this many pages a table is sent as a PNG instead: nobody clicks through 11 pages."""

NAME_WIDTH = 32
PLAYER_SHOWN = 40  # of a player's name in a score line
SUBTITLE_SHOWN = 200  # of a board's subtitle (a season, a system): a line above the table
MISSION_SHOWN = 60  # of a mission's name in a history line, which holds much else
SYSTEM_SHOWN = 40  # of a game system's name in a history line
FACTION_SHOWN = 100  # of each side's faction (the game_results faction columns' own length)
_ = Domain("muster")


@dataclass(frozen=True, slots=True)
class EmbedField:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True, slots=True)
class EmbedPage:
    title: str
    description: str
    footer: str = ""
    fields: tuple[EmbedField, ...] = field(default_factory=tuple)

    def total_chars(self) -> int:
        return (
            len(self.title)
            + len(self.description)
            + len(self.footer)
            + sum(len(f.name) + len(f.value) for f in self.fields)
        )

    def within_limits(self) -> bool:
        return (
            len(self.title) <= EMBED_TITLE
            and len(self.description) <= EMBED_DESCRIPTION
            and len(self.footer) <= EMBED_FOOTER
            and len(self.fields) <= FIELDS
            and all(0 < len(f.name) <= FIELD_NAME and 0 < len(f.value) <= FIELD_VALUE for f in self.fields)
            and self.total_chars() <= EMBED_TOTAL
        )


def plain_name(name: str, width: int = NAME_WIDTH) -> str:
    """A name as one plain line (no backticks, no line breaks) of at most `width` characters."""
    cleaned = " ".join(name.replace("`", "ˋ").split())
    return clip(cleaned or "?", width)


def name_of(names: Mapping[int, str], player: int) -> str:
    return names.get(player) or f"user {player}"


def leaderboard_header() -> str:
    return "`  #` " + _("player — games · W-D-L · points for–against · **rating**")


def leaderboard_line(standing: Standing) -> str:
    """One row; the mention shows as the member's name inside an embed, and pings nobody there."""
    return (
        f"`{standing.rank:>3}` <@{standing.player}> — {standing.games} · "
        f"{standing.wins}-{standing.draws}-{standing.losses} · "
        f"{standing.points_for}–{standing.points_against} · **{standing.rating.display}**"
    )


def paginate(
    lines: Sequence[str], *, per_page: int = ROWS_PER_PAGE, budget: int = EMBED_DESCRIPTION, overhead: int = 0
) -> list[list[str]]:
    """Split lines into pages of at most `per_page` lines whose joined text (plus `overhead`) fits `budget`.

    A line longer than the budget is clipped, so every page holds at least one line and paging ends.
    """
    room = budget - overhead
    if room < 2:
        raise ValueError("no room for any line")
    pages: list[list[str]] = []
    page: list[str] = []
    used = 0
    for raw in lines:
        line = clip(raw, room)
        cost = len(line) + (1 if page else 0)
        if page and (len(page) >= per_page or used + cost > room):
            pages.append(page)
            page, used, cost = [], 0, len(line)
        page.append(line)
        used += cost
    if page or not pages:
        pages.append(page)
    return pages


def leaderboard_pages(
    standings: Sequence[Standing], *, title: str, subtitle: str = "", per_page: int = ROWS_PER_PAGE
) -> list[EmbedPage]:
    """The table as embed pages, each within every embed limit; an empty table is one page."""
    title = clip(title, EMBED_TITLE)
    subtitle = clip(" ".join(subtitle.split()), SUBTITLE_SHOWN)
    head = subtitle + "\n" if subtitle else ""
    if not standings:
        return [EmbedPage(title=title, description=head + _("No confirmed games yet."))]
    head += leaderboard_header() + "\n"
    footer_room = 60  # "Page 999 of 999 · 9999 players" with room to spare
    budget = min(EMBED_DESCRIPTION, EMBED_TOTAL - len(title) - footer_room)
    chunks = paginate(
        [leaderboard_line(s) for s in standings], per_page=per_page, budget=budget, overhead=len(head)
    )
    count = len(chunks)
    return [
        EmbedPage(
            title=title,
            description=head + "\n".join(chunk),
            footer=clip(
                _("Page {page} of {pages}", page=i, pages=count)
                + " · "
                + _.n("{count} player", "{count} players", len(standings)),
                footer_room,
            ),
        )
        for i, chunk in enumerate(chunks, start=1)
    ]


def needs_image(pages: Sequence[EmbedPage]) -> bool:
    return len(pages) > MAX_EMBED_PAGES


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "±0"


def format_change(change: RatingChange) -> str:
    """E.g. `1000 → 1072 (+72)`."""
    return f"{change.before.display} → {change.after.display} ({signed(change.delta)})"


def timestamp(result: ResultRecord, style: str = "d") -> str:
    """A Discord timestamp tag, shown in each reader's own time zone."""
    return f"<t:{int(result.played_at.timestamp())}:{style}>"


def score_line(result: ResultRecord, names: Mapping[int, str] | None = None) -> str:
    """`<@a> 20 – 15 <@b>` with the winner in bold; mentions render as names inside embeds."""

    def who(player: int) -> str:
        label = f"<@{player}>" if names is None else clip(name_of(names, player), PLAYER_SHOWN)
        return f"**{label}**" if result.winner == player else label

    return f"{who(result.player_a)} {result.score_a} – {result.score_b} {who(result.player_b)}"


def history_line(result: ResultRecord, system_name: str | None = None) -> str:
    """`<t:…:d> Warcry · Dominate: **<@a>** 20 – 15 <@b>`; `system_name` is the system's display name."""
    mission = f" · {clip(result.mission, MISSION_SHOWN)}" if result.mission else ""
    draw = " " + _("(draw)") if result.winner is None else ""
    system = clip(system_name or result.system, SYSTEM_SHOWN)
    return f"{timestamp(result)} {system}{mission}: {score_line(result)}{draw}"


def factions_line(result: ResultRecord) -> str | None:
    """`Iron Golems vs Untamed Beasts`, with a dash for a side not given; None if neither was."""
    if not (result.faction_a or result.faction_b):
        return None
    return f"{clip(result.faction_a or '—', FACTION_SHOWN)} vs {clip(result.faction_b or '—', FACTION_SHOWN)}"
