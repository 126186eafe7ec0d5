"""What a game night is made of: sign-ups, the club's tables, and the pairings made from them.

Models stay permissive about values a person types (a note's length, the points of an army): the
checks below refuse them with codes and values, so the bot can say what was wrong instead of
failing on a validation error. `pair_players` (rules/night/pairing.py) and the night's state
machine (rules/night/night.py) trust only what went through these checks.
"""

from __future__ import annotations

import re

from pydantic import Field

from rules.errors import RuleError
from rules.session import Model

# The systems Muster runs a game of (each adapter's procedure.system), with the other names players
# type for them: the same names as the adapters' aliases in cogs/, which rules may not import.
MUSTER_SYSTEMS = ("killteam", "warcry", "warmaster", "fortyk")
SYSTEM_ALIASES: dict[str, str] = {
    "kill-team": "killteam",
    "kt": "killteam",
    "40k": "fortyk",
    "40-k": "fortyk",
    "warhammer-40k": "fortyk",
    "warhammer-40-000": "fortyk",
    "warhammer-40000": "fortyk",
    "w40k": "fortyk",
}

SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?")
SLUG_MAX = 40
MAX_SYSTEMS_PER_SIGNUP = 4
MAX_POINTS = 100_000
MAX_NOTE = 200
MAX_TABLE_NAME = 60
MAX_TERRAIN = 100


def system_slug(typed: str) -> str:
    """The stored name of a typed game system: "Kill Team" and "kt" are `killteam`, "Blood Bowl" is
    `blood-bowl`. Refused (`night.system_name`) when it has no letters or digits or is too long."""
    slug = re.sub(r"[^a-z0-9]+", "-", typed.strip().lower()).strip("-")
    if not slug or len(slug) > SLUG_MAX:
        raise RuleError(code="night.system_name", name=typed.strip()[:60], limit=SLUG_MAX)
    return SYSTEM_ALIASES.get(slug, slug)


def is_slug(text: str) -> bool:
    return len(text) <= SLUG_MAX and SLUG.fullmatch(text) is not None


def pair_key(first: int, second: int) -> str:
    """The key of two players in `PairingContext` maps: the smaller id first."""
    low, high = sorted((first, second))
    return f"{low}:{high}"


def rating_key(player: int, system: str) -> str:
    return f"{player}:{system}"


class Signup(Model):
    """One player's sign-up: the systems they will play (first choice first) and how."""

    player: int
    systems: list[str]
    points: int | None = None
    can_teach: bool = False
    wants_to_learn: bool = False
    arranged_with: int | None = None
    note: str = ""
    seq: int = 0  # sign-up order, set by the state machine

    def same_wishes(self, other: Signup) -> bool:
        """Whether `other` asks for exactly this (its order in the queue aside)."""
        return self.model_dump(exclude={"seq"}) == other.model_dump(exclude={"seq"})


class Table(Model):
    """A table of the club's, with the terrain kit on it and the systems it suits."""

    table_id: str
    name: str
    systems: list[str]
    terrain: str = ""

    def suits(self, system: str) -> bool:
        return system in self.systems


class Reason(Model):
    """Why a pairing was made or a player sat out: a code and its values, never a sentence
    (cogs/night/text.py words it)."""

    code: str
    values: dict[str, int | float | str] = {}


class Pairing(Model):
    system: str
    players: list[int] = Field(min_length=2, max_length=2)
    table_id: str | None  # None only with a "night.no_table" reason
    reasons: list[Reason]
    session_id: str | None = None  # the game opened for it, once published

    def reason(self, code: str) -> Reason | None:
        return next((r for r in self.reasons if r.code == code), None)


class SatOut(Model):
    player: int
    reason: Reason


class PairingContext(Model):
    """What the store knows about the signed-up players, passed in so pairing stays pure."""

    games_between: dict[str, int] = {}  # pair_key -> games played together
    days_since: dict[str, int] = {}  # pair_key -> days since their last game
    ratings: dict[str, float] = {}  # rating_key -> Muster's rating in that system
    byes: dict[int, int] = {}  # player -> nights sat out so far

    def games(self, first: int, second: int) -> int:
        return self.games_between.get(pair_key(first, second), 0)

    def days(self, first: int, second: int) -> int | None:
        return self.days_since.get(pair_key(first, second))

    def rating(self, player: int, system: str) -> float | None:
        return self.ratings.get(rating_key(player, system))

    def byes_of(self, player: int) -> int:
        return self.byes.get(player, 0)

    def about(self, players: set[int]) -> PairingContext:
        """Only what concerns `players`: what a night keeps to explain later changes to its pairings."""

        def ids(key: str) -> list[str]:
            return key.split(":")

        def both(key: str) -> bool:
            return all(part in wanted for part in ids(key))

        wanted = {str(p) for p in players}
        return PairingContext(
            games_between={k: v for k, v in self.games_between.items() if both(k)},
            days_since={k: v for k, v in self.days_since.items() if both(k)},
            ratings={k: v for k, v in self.ratings.items() if ids(k)[0] in wanted},
            byes={k: v for k, v in self.byes.items() if k in players},
        )


class PairingResult(Model):
    pairings: list[Pairing]
    sat_out: list[SatOut]
    seed: int

    def pairing_of(self, player: int) -> int | None:
        """The index of the pairing `player` is in, if any."""
        return next((i for i, p in enumerate(self.pairings) if player in p.players), None)

    def sat_out_of(self, player: int) -> SatOut | None:
        return next((s for s in self.sat_out if s.player == player), None)


def check_signup(signup: Signup, offered: list[str]) -> Signup:
    """`signup` with its systems as slugs, or a refusal saying what to change."""
    systems = [system_slug(s) for s in signup.systems]
    if not 1 <= len(systems) <= MAX_SYSTEMS_PER_SIGNUP:
        raise RuleError(code="night.signup_systems", limit=MAX_SYSTEMS_PER_SIGNUP)
    for index, system in enumerate(systems):
        if system in systems[:index]:
            raise RuleError(code="night.system_twice", system=system)
        if system not in offered:
            raise RuleError(code="night.system_not_offered", system=system, offered=", ".join(offered))
    if signup.points is not None and not 1 <= signup.points <= MAX_POINTS:
        raise RuleError(code="night.points", minimum=1, maximum=MAX_POINTS)
    if len(signup.note) > MAX_NOTE:
        raise RuleError(code="night.note_long", limit=MAX_NOTE)
    if signup.arranged_with == signup.player:
        raise RuleError(code="night.arranged_self")
    return signup.model_copy(update={"systems": systems, "note": signup.note.strip()})


def check_table(table: Table) -> Table:
    """`table` with its systems as slugs, or a refusal (used for the club's inventory)."""
    if not is_slug(table.table_id):
        raise RuleError(code="night.table_id", limit=SLUG_MAX)
    name = table.name.strip()
    if not name or len(name) > MAX_TABLE_NAME:
        raise RuleError(code="night.table_name", limit=MAX_TABLE_NAME)
    systems = list(dict.fromkeys(system_slug(s) for s in table.systems))
    if not systems:
        raise RuleError(code="night.table_systems")
    if len(table.terrain) > MAX_TERRAIN:
        raise RuleError(code="night.terrain_long", limit=MAX_TERRAIN)
    return table.model_copy(update={"name": name, "systems": systems, "terrain": table.terrain.strip()})
