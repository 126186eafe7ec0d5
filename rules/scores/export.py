"""CSV export of a server's results, and the parser that reads it back to the same records.

One row per game, a header row, UTF-8, fixed column order (`COLUMNS`); times are ISO 8601 in UTC.
Free text (missions, factions, names) that a spreadsheet could take for a formula (starting with
= + - @, a tab or a carriage return) is written with a leading apostrophe, as spreadsheets expect;
a text that itself starts with an apostrophe gets one more, so `parse_csv` can undo it exactly.
The two name columns are for people reading the file; the parser ignores them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from datetime import datetime

from pydantic import ValidationError

from rules.scores.model import ResultRecord, ResultStatus

COLUMNS: tuple[str, ...] = (
    "id",
    "played_at",
    "system",
    "mission",
    "player_a",
    "player_a_name",
    "faction_a",
    "score_a",
    "player_b",
    "player_b_name",
    "faction_b",
    "score_b",
    "winner",
    "season_id",
    "status",
)

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


class CsvError(ValueError):
    """The text is not a results export; the message says which line and column."""


def _guard(text: str | None) -> str:
    if not text:
        return ""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _unguard(text: str) -> str | None:
    if text == "":
        return None
    return text[1:] if text.startswith("'") else text


def to_csv(results: Iterable[ResultRecord], names: Mapping[int, str] | None = None) -> str:
    """The export text, rows in the order given (the service passes them oldest first)."""
    names = names or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for r in results:
        writer.writerow(
            [
                r.id,
                r.played_at.isoformat(),
                _guard(r.system),
                _guard(r.mission),
                r.player_a,
                _guard(names.get(r.player_a)),
                _guard(r.faction_a),
                r.score_a,
                r.player_b,
                _guard(names.get(r.player_b)),
                _guard(r.faction_b),
                r.score_b,
                "" if r.winner is None else r.winner,
                "" if r.season_id is None else r.season_id,
                r.status.value,
            ]
        )
    return out.getvalue()


def to_csv_bytes(results: Iterable[ResultRecord], names: Mapping[int, str] | None = None) -> bytes:
    return to_csv(results, names).encode("utf-8")


def parse_csv(text: str | bytes) -> list[ResultRecord]:
    """Read an export back; raises `CsvError` naming the first bad line and column."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CsvError("The file is not UTF-8 text.") from exc
    elif text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None or tuple(header) != COLUMNS:
        raise CsvError(f"Line 1: the header must be exactly: {','.join(COLUMNS)}")
    records: list[ResultRecord] = []
    for row in reader:
        line = reader.line_num
        if not row:
            continue
        if len(row) != len(COLUMNS):
            raise CsvError(f"Line {line}: expected {len(COLUMNS)} columns, found {len(row)}.")
        cell = dict(zip(COLUMNS, row, strict=True))
        try:
            records.append(
                ResultRecord(
                    id=_int(cell, "id", line),
                    played_at=_time(cell["played_at"], line),
                    system=_unguard(cell["system"]) or "",
                    mission=_unguard(cell["mission"]),
                    player_a=_int(cell, "player_a", line),
                    faction_a=_unguard(cell["faction_a"]),
                    score_a=_int(cell, "score_a", line),
                    player_b=_int(cell, "player_b", line),
                    faction_b=_unguard(cell["faction_b"]),
                    score_b=_int(cell, "score_b", line),
                    winner=_optional_int(cell, "winner", line),
                    season_id=_optional_int(cell, "season_id", line),
                    status=_status(cell, line),
                )
            )
        except ValidationError as exc:
            problem = exc.errors()[0]
            where = ".".join(str(part) for part in problem["loc"]) or "row"
            raise CsvError(f"Line {line}, {where}: {problem['msg']}") from exc
    return records


_STATUSES = {s.value for s in ResultStatus}


def _status(cell: dict[str, str], line: int) -> ResultStatus:
    if cell["status"] in _STATUSES:
        return ResultStatus(cell["status"])
    raise CsvError(f"Line {line}, status: {cell['status']!r} is not one of {', '.join(sorted(_STATUSES))}.")


def _int(cell: dict[str, str], column: str, line: int) -> int:
    try:
        return int(cell[column])
    except ValueError as exc:
        raise CsvError(f"Line {line}, {column}: {cell[column]!r} is not a whole number.") from exc


def _optional_int(cell: dict[str, str], column: str, line: int) -> int | None:
    return None if cell[column] == "" else _int(cell, column, line)


def _time(text: str, line: int) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise CsvError(f"Line {line}, played_at: {text!r} is not an ISO 8601 time.") from exc
