"""The leaderboard as a PNG table, for when it is asked for or is too long for embeds.

Pure: returns the PNG bytes. Uses Pillow's built-in default font, so no font files are needed
(characters that font lacks, such as some emoji, show as boxes).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from bot.lang.i18n import Domain
from bot.scores.layout import NAME_WIDTH, clip, name_of
from rules.scores.standings import Standing

FONT_SIZE = 16
PADDING = 12
CELL_GAP = 18
ROW_HEIGHT = 24
MAX_IMAGE_ROWS = 500
TITLE_SHOWN = 200  # of a board's title drawn over the table: one line at the image's width
"""Rows drawn at most (about 12,000 pixels tall); the rest are counted in a last line."""

BACKGROUND = (32, 34, 37)
TEXT = (230, 230, 230)
MUTED = (150, 155, 160)
STRIPE = (43, 45, 49)
RULE = (90, 94, 99)

Align = Literal["left", "right"]

_ = Domain("muster")


def leaderboard_columns() -> tuple[tuple[str, Align], ...]:
    """The table's headers, in the language in force (W/D/L: won, drawn, lost; PF/PA: points for, against)."""
    return (
        ("#", "right"),
        (_.p("column", "Player"), "left"),
        (_.p("column", "Games"), "right"),
        (_.p("column", "W"), "right"),
        (_.p("column", "D"), "right"),
        (_.p("column", "L"), "right"),
        (_.p("column", "PF"), "right"),
        (_.p("column", "PA"), "right"),
        (_.p("column", "Rating"), "right"),
    )


def render_table(
    title: str, columns: Sequence[tuple[str, Align]], rows: Sequence[Sequence[str]], *, note: str = ""
) -> bytes:
    """A striped table with a title, one header row and `rows`; returns PNG bytes."""
    font = ImageFont.load_default(size=FONT_SIZE)
    bold = ImageFont.load_default(size=FONT_SIZE + 4)
    shown = list(rows[:MAX_IMAGE_ROWS])
    if len(rows) > MAX_IMAGE_ROWS:
        left_out = len(rows) - MAX_IMAGE_ROWS
        note = (note + " · " if note else "") + _.n(
            "{count} more row not shown", "{count} more rows not shown", left_out
        )
    widths = [int(font.getlength(header)) for header, _ in columns]
    for row in shown:
        if len(row) != len(columns):
            raise ValueError("every row needs one cell per column")
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], int(font.getlength(cell)) + 1)
    table_width = sum(widths) + CELL_GAP * (len(columns) - 1)
    title_width = int(bold.getlength(title))
    note_width = int(font.getlength(note)) if note else 0
    width = 2 * PADDING + max(table_width, title_width, note_width)
    title_height = FONT_SIZE + 4 + PADDING
    height = PADDING + title_height + ROW_HEIGHT * (len(shown) + 1) + PADDING + (ROW_HEIGHT if note else 0)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((PADDING, PADDING), title, font=bold, fill=TEXT)
    top = PADDING + title_height

    def draw_row(y: int, cells: Sequence[str], colour: tuple[int, int, int]) -> None:
        x = PADDING
        for (_, align), cell, w in zip(columns, cells, widths, strict=True):
            offset = w - int(font.getlength(cell)) if align == "right" else 0
            draw.text((x + offset, y + (ROW_HEIGHT - FONT_SIZE) // 2), cell, font=font, fill=colour)
            x += w + CELL_GAP

    draw_row(top, [header for header, _ in columns], MUTED)
    draw.line([(PADDING, top + ROW_HEIGHT - 2), (width - PADDING, top + ROW_HEIGHT - 2)], fill=RULE)
    for i, row in enumerate(shown):
        y = top + ROW_HEIGHT * (i + 1)
        if i % 2:
            draw.rectangle([(PADDING // 2, y), (width - PADDING // 2, y + ROW_HEIGHT - 1)], fill=STRIPE)
        draw_row(y, row, TEXT)
    if note:
        draw.text((PADDING, top + ROW_HEIGHT * (len(shown) + 1) + 4), note, font=font, fill=MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def leaderboard_rows(standings: Sequence[Standing], names: Mapping[int, str]) -> list[list[str]]:
    return [
        [
            str(s.rank),
            clip(" ".join(name_of(names, s.player).split()) or "?", NAME_WIDTH),
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            str(s.points_for),
            str(s.points_against),
            str(s.rating.display),
        ]
        for s in standings
    ]


def leaderboard_png(
    standings: Sequence[Standing], names: Mapping[int, str], *, title: str, note: str = ""
) -> bytes:
    """The whole leaderboard as one PNG."""
    if not standings:
        return render_table(
            clip(title, TITLE_SHOWN), leaderboard_columns(), [], note=note or _("No confirmed games yet.")
        )
    return render_table(
        clip(title, TITLE_SHOWN), leaderboard_columns(), leaderboard_rows(standings, names), note=note
    )
