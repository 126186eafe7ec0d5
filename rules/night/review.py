"""The organiser's changes to a night's pairings before publishing: swap two players, move a pairing
to another table, drop a no-show (their opponent gets a stand-in when one is free)."""

from __future__ import annotations

from rules.errors import RuleError
from rules.night.models import Pairing, PairingContext, PairingResult, Reason, SatOut, Signup, Table
from rules.night.pairing import STAND_IN_CODES, explain, pair_weight, shared_system
from rules.night.tables import TABLE_CODES, with_table

BY_ORGANISER = "night.by_organiser"


def rebuilt(
    pairing: Pairing, players: list[int], signups: dict[int, Signup], context: PairingContext, *extra: Reason
) -> Pairing:
    """`pairing` with new players (in sign-up order), its reasons said afresh, its table kept."""
    first, second = sorted((signups[p] for p in players), key=lambda s: (s.seq, s.player))
    kept = [r for r in pairing.reasons if r.code in TABLE_CODES]
    reasons = [*explain(first, second, pairing.system, context), *extra, *kept]
    return pairing.model_copy(update={"players": [first.player, second.player], "reasons": reasons})


def _sorted_out(sat_out: list[SatOut], signups: dict[int, Signup]) -> list[SatOut]:
    return sorted(sat_out, key=lambda s: (signups[s.player].seq, s.player))


def swap(
    result: PairingResult, first: int, second: int, signups: dict[int, Signup], context: PairingContext
) -> PairingResult:
    """Two players change places: both in pairings of one system, or one paired and one sitting out
    who lists that pairing's system (the one paired then sits out, set aside by the organiser)."""
    if first == second:
        raise RuleError(code="night.same_player")
    where = {player: result.pairing_of(player) for player in (first, second)}
    for player in (first, second):
        if where[player] is None and result.sat_out_of(player) is None:
            raise RuleError(code="night.not_paired", player=player)
    if where[first] is None and where[second] is None:
        raise RuleError(code="night.both_sat_out", first=first, second=second)
    if where[first] is None:  # the one paired first, the one sitting out second
        first, second = second, first
    pairings = list(result.pairings)
    one = where[first]
    assert one is not None
    other = where[second]
    system = pairings[one].system
    if other is None:
        if system not in signups[second].systems:
            raise RuleError(code="night.swap_plays", player=second, system=system)
        players = [second if p == first else p for p in pairings[one].players]
        pairings[one] = rebuilt(pairings[one], players, signups, context, Reason(code=BY_ORGANISER))
        out = [s for s in result.sat_out if s.player != second]
        out.append(SatOut(player=first, reason=Reason(code="night.set_aside")))
        return result.model_copy(update={"pairings": pairings, "sat_out": _sorted_out(out, signups)})
    if one == other:
        raise RuleError(code="night.same_pairing", first=first, second=second)
    if pairings[other].system != system:
        raise RuleError(
            code="night.swap_system", first=first, second=second, first_system=system,
            second_system=pairings[other].system,
        )  # fmt: skip
    for index, leaving, joining in ((one, first, second), (other, second, first)):
        players = [joining if p == leaving else p for p in pairings[index].players]
        pairings[index] = rebuilt(pairings[index], players, signups, context, Reason(code=BY_ORGANISER))
    return result.model_copy(update={"pairings": pairings})


def move_table(result: PairingResult, index: int, table_id: str, tables: list[Table]) -> PairingResult:
    """Pairing `index` (0-based) to a free table that suits its system."""
    if not 0 <= index < len(result.pairings):
        raise RuleError(code="night.no_pairing", number=index + 1, count=len(result.pairings))
    table = next((t for t in tables if t.table_id == table_id), None)
    if table is None:
        raise RuleError(code="night.no_such_table", table_id=table_id)
    pairing = result.pairings[index]
    if not table.suits(pairing.system):
        raise RuleError(
            code="night.table_unsuited", table_id=table_id, name=table.name, system=pairing.system
        )
    if pairing.table_id == table_id:
        raise RuleError(code="night.table_already", table_id=table_id, name=table.name)
    holder = next((i for i, p in enumerate(result.pairings) if p.table_id == table_id), None)
    if holder is not None:
        raise RuleError(code="night.table_taken", table_id=table_id, name=table.name, number=holder + 1)
    pairings = list(result.pairings)
    pairings[index] = with_table(pairing, table)
    return result.model_copy(update={"pairings": pairings})


def drop(
    result: PairingResult,
    player: int,
    signups: dict[int, Signup],
    context: PairingContext,
    tables: list[Table],
) -> tuple[PairingResult, int | None, int | None]:
    """A no-show sits out (`night.dropped`). Their opponent plays a stand-in from those sitting out
    for want of an opponent: one who lists the pairing's system (keeping its table), else one who
    shares another system with them (on a free table that suits it, if any); the best game for the
    opponent, the earliest sign-up among equals. With no one free the opponent sits out too.

    Also returns the opponent and the stand-in (None where there is none)."""
    dropped = SatOut(player=player, reason=Reason(code="night.dropped"))
    index = result.pairing_of(player)
    if index is None:
        waiting = result.sat_out_of(player)
        if waiting is None:
            raise RuleError(code="night.not_signed_up", player=player)
        if waiting.reason.code == "night.dropped":
            raise RuleError(code="night.already_dropped", player=player)
        out = [dropped if s.player == player else s for s in result.sat_out]
        return result.model_copy(update={"sat_out": out}), None, None
    pairing = result.pairings[index]
    opponent = signups[next(p for p in pairing.players if p != player)]
    free = [signups[s.player] for s in result.sat_out if s.reason.code in STAND_IN_CODES]
    choice = _stand_in(opponent, pairing.system, free, context)
    pairings = list(result.pairings)
    out = [*result.sat_out, dropped]
    if choice is None:
        del pairings[index]
        left = Reason(code="night.opponent_dropped", values={"player": player})
        out.append(SatOut(player=opponent.player, reason=left))
        update = {"pairings": pairings, "sat_out": _sorted_out(out, signups)}
        return result.model_copy(update=update), opponent.player, None
    stand_in, system = choice
    stands_in = Reason(code="night.stands_in", values={"player": player})
    fresh = pairing.model_copy(update={"system": system})
    if system != pairing.system:
        used = {p.table_id for i, p in enumerate(pairings) if i != index and p.table_id is not None}
        table = next((t for t in tables if t.suits(system) and t.table_id not in used), None)
        fresh = with_table(fresh, table)
    pairings[index] = rebuilt(fresh, [opponent.player, stand_in.player], signups, context, stands_in)
    out = [s for s in out if s.player != stand_in.player]
    update = {"pairings": pairings, "sat_out": _sorted_out(out, signups)}
    return result.model_copy(update=update), opponent.player, stand_in.player


def _stand_in(
    opponent: Signup, system: str, free: list[Signup], context: PairingContext
) -> tuple[Signup, str] | None:
    """Who stands in and in which system: the same system if anyone free plays it, else another."""
    same = [(s, system) for s in free if system in s.systems]
    others = [(s, shared) for s in free if (shared := shared_system(opponent, s)) is not None]
    candidates = same or others
    if not candidates:
        return None
    return max(
        candidates, key=lambda c: (pair_weight(opponent, c[0], c[1], context), -c[0].seq, -c[0].player)
    )
