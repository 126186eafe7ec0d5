"""Warband muster checks from a typed roster.

Roster format, one fighter a line (commas, semicolons, tabs or `|` between fields):
    Name, points, faction runemark[, leader]
e.g. `Iron Golem Ogor Breacher, 190, Iron Golem` or `Dominar, 135pts, Iron Golem, leader`.
A `3x ` in front counts the line three times. Blank lines and lines starting with `#` are skipped.
"""

from __future__ import annotations

import re

from rules.errors import RuleError
from rules.session import Model
from rules.text import echo

MIN_FIGHTERS = 3
MAX_FIGHTERS = 15
MAX_POINTS = 1000
MAX_ROSTER_CHARS = 8000
MAX_ROSTER_LINES = 100
LISTED_PROBLEMS = 10
"""A refusal names this many unreadable lines, then counts the rest: enough to see the pattern."""


_LEADER_WORDS = {"leader", "l", "yes", "y", "true", "1", "x", "*", "★", "(leader)", "[leader]"}
_NOT_LEADER_WORDS = {"", "no", "n", "false", "0", "-", "—"}
_COUNT = re.compile(r"^(\d{1,2})\s*[x×]\s+(.+)$", re.IGNORECASE)
_POINTS = re.compile(r"^(\d{1,4})\s*(?:pts?|points?|p)?\.?$", re.IGNORECASE)
_SEPARATOR = re.compile(r"\s*[,;|\t]\s*")
_BULLET = re.compile(r"^(?:[-*•]\s+|\d{1,2}[.)]\s+)")


class Problem(Model):
    """One muster rule a warband breaks, or why a roster line can't be read: a code (`warcry.muster.*`,
    `warcry.line.*`) and the values its words need; the English beside it is the rules' own."""

    code: str
    values: dict[str, str | int] = {}


class UnreadableLine(Model):
    number: int
    text: str  # the line as typed, shortened
    problem: Problem


class LineError(ValueError):
    """Why one roster line can't be read: the English, and the same as a code and values."""

    def __init__(self, english: str, code: str, **values: str | int) -> None:
        super().__init__(english)
        self.problem = Problem(code=f"warcry.line.{code}", values=values)


class Fighter(Model):
    name: str
    points: int
    faction: str
    leader: bool = False
    line: int = 0


class WarbandReport(Model):
    fighters: list[Fighter]
    total_points: int
    factions: list[str]
    leaders: list[str]
    violations: list[str]
    problems: list[Problem] = []  # the violations, as codes and values

    @property
    def ok(self) -> bool:
        return not self.violations


class RosterError(RuleError):
    """Lines that could not be read; `problems` names every one with its line number.

    The refusal carries the first few as one listing and counts the rest.
    """

    def __init__(self, problems: list[str], lines: list[UnreadableLine] | None = None) -> None:
        listed = "\n".join(f"- {p}" for p in problems[:LISTED_PROBLEMS])
        more = len(problems) - LISTED_PROBLEMS
        if more > 0:
            super().__init__(code="warcry.roster_unreadable_more", lines=listed, more=more)
        else:
            super().__init__(code="warcry.roster_unreadable", lines=listed)
        self.problems = problems
        self.lines = lines or []


def parse_roster(text: str) -> list[Fighter]:
    """Read a roster; raise RosterError naming every unreadable line."""
    if len(text) > MAX_ROSTER_CHARS:
        raise RuleError(code="warcry.roster_long", limit=MAX_ROSTER_CHARS, fighters=MAX_FIGHTERS)
    lines = text.splitlines()
    if len(lines) > MAX_ROSTER_LINES:
        raise RuleError(code="warcry.roster_lines", limit=MAX_ROSTER_LINES, fighters=MAX_FIGHTERS)
    fighters: list[Fighter] = []
    problems: list[str] = []
    unreadable: list[UnreadableLine] = []
    for number, raw in enumerate(lines, start=1):
        line = _BULLET.sub("", raw.strip())
        if not line or line.startswith("#"):
            continue
        try:
            fighters += _parse_line(line, number)
        except LineError as exc:
            problems.append(f"line {number} (`{echo(raw, 40)}`): {exc}")
            unreadable.append(UnreadableLine(number=number, text=echo(raw, 40), problem=exc.problem))
    if problems:
        raise RosterError(problems, unreadable)
    if not fighters:
        raise RuleError(code="warcry.roster_empty")

    return fighters


def check_warband(fighters: list[Fighter]) -> WarbandReport:
    """Every muster rule the warband breaks (all of them, not just the first)."""
    broken: list[tuple[str, Problem]] = []

    def breaks(english: str, code: str, **values: str | int) -> None:
        broken.append((english, Problem(code=f"warcry.muster.{code}", values=values)))

    count = len(fighters)
    if count < MIN_FIGHTERS:
        breaks(
            f"A warband needs at least {MIN_FIGHTERS} fighters; this one has {count}.",
            "too_few",
            minimum=MIN_FIGHTERS,
            count=count,
        )
    if count > MAX_FIGHTERS:
        breaks(
            f"A warband can have at most {MAX_FIGHTERS} fighters; this one has {count}.",
            "too_many",
            maximum=MAX_FIGHTERS,
            count=count,
        )
    total = sum(f.points for f in fighters)
    if total > MAX_POINTS:
        breaks(
            f"A warband can cost at most {MAX_POINTS} points; this one costs {total} "
            f"({total - MAX_POINTS} over).",
            "too_costly",
            limit=MAX_POINTS,
            total=total,
            over=total - MAX_POINTS,
        )
    factions: dict[str, str] = {}
    for fighter in fighters:
        factions.setdefault(_key(fighter.faction), fighter.faction)
    if len(factions) > 1:
        named = ", ".join(factions.values())
        breaks(
            f"All fighters must share one faction runemark; this roster has {len(factions)}: {named}.",
            "factions",
            count=len(factions),
            factions=named,
        )
    leaders = [f.name for f in fighters if f.leader]
    if not leaders:
        breaks(
            "A warband needs exactly one leader; none is marked (add `, leader` to one line).", "no_leader"
        )
    elif len(leaders) > 1:
        named = ", ".join(leaders)
        breaks(
            f"A warband can have only one leader; {len(leaders)} are marked: {named}.",
            "leaders",
            count=len(leaders),
            leaders=named,
        )
    return WarbandReport(
        fighters=fighters,
        total_points=total,
        factions=list(factions.values()),
        leaders=leaders,
        violations=[english for english, _problem in broken],
        problems=[problem for _english, problem in broken],
    )


def check_roster(text: str) -> WarbandReport:
    return check_warband(parse_roster(text))


# ---------------------------------------------------------------- internals


def _parse_line(line: str, number: int) -> list[Fighter]:
    copies = 1
    counted = _COUNT.match(line)
    if counted:
        copies, line = int(counted.group(1)), counted.group(2)
        if copies < 1:
            raise LineError("a fighter count must be at least 1", "count")
    fields = [f.strip() for f in _SEPARATOR.split(line)]
    if len(fields) < 3:
        raise LineError(
            "expected at least a name, points and a faction runemark separated by commas", "too_few_fields"
        )
    if len(fields) > 4:
        raise LineError(
            "too many fields; expected name, points, faction runemark and optionally `leader`",
            "too_many_fields",
        )
    name, points_text, faction = fields[0], fields[1], fields[2]
    leader_text = fields[3].casefold() if len(fields) == 4 else ""
    if not name:
        raise LineError("the fighter has no name", "no_name")
    if len(name) > 80:
        raise LineError("the name is longer than 80 characters", "name_long", limit=80)
    points_match = _POINTS.match(points_text)
    if not points_match:
        shown = echo(points_text, 40)
        raise LineError(f"`{shown}` is not a points value (a whole number such as 120)", "points", text=shown)
    points = int(points_match.group(1))
    if points < 1:
        raise LineError("a fighter costs at least 1 point", "free")
    if not faction:
        raise LineError("the faction runemark is missing", "no_faction")
    if len(faction) > 60:
        raise LineError("the faction runemark is longer than 60 characters", "faction_long", limit=60)
    if leader_text in _LEADER_WORDS:
        leader = True
    elif leader_text in _NOT_LEADER_WORDS or leader_text in {"fighter", "follower"}:
        leader = False
    else:
        shown = echo(fields[3], 40)
        raise LineError(f"`{shown}` should be `leader` or left out", "leader", text=shown)
    fighter = Fighter(name=name, points=points, faction=" ".join(faction.split()), leader=leader, line=number)
    return [fighter] * copies


def _key(faction: str) -> str:
    return " ".join(faction.casefold().split())
