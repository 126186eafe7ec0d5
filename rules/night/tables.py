"""Which table each pairing plays on: as many pairings as possible on a table that suits their system.

A bipartite maximum matching (pairings on one side, tables on the other, an edge where a table suits
the pairing's system) puts the most pairings on a table; among the matchings that do, a table that
suits fewer systems is used first, so a board that suits many systems is left for the systems that
need it (scarce tables go to the systems that need them), and earlier pairings are served first.
"""

from __future__ import annotations

import networkx as nx

from rules.errors import RuleError
from rules.night.models import Pairing, Reason, Table

TABLE_CODES = ("night.table", "night.no_table")


def check_table_ids(tables: list[Table]) -> None:
    seen: set[str] = set()
    for table in tables:
        if table.table_id in seen:
            raise RuleError(code="night.table_twice", table_id=table.table_id)
        seen.add(table.table_id)


def table_reason(table: Table) -> Reason:
    return Reason(code="night.table", values={"table_id": table.table_id, "name": table.name})


def no_table_reason(system: str) -> Reason:
    return Reason(code="night.no_table", values={"system": system})


def with_table(pairing: Pairing, table: Table | None) -> Pairing:
    """`pairing` on `table` (None: no table left for it), its table reason replaced."""
    reasons = [r for r in pairing.reasons if r.code not in TABLE_CODES]
    reasons.append(table_reason(table) if table is not None else no_table_reason(pairing.system))
    return pairing.model_copy(update={"table_id": table.table_id if table else None, "reasons": reasons})


def allocate_tables(pairings: list[Pairing], tables: list[Table]) -> list[Pairing]:
    """`pairings` in the same order, each with a table that suits its system or a "no table" reason."""
    check_table_ids(tables)
    graph: nx.Graph[tuple[str, int]] = nx.Graph()
    for index, pairing in enumerate(pairings):
        graph.add_node(("pairing", index))
        for position, table in enumerate(tables):
            if table.suits(pairing.system):
                # A table suiting more systems, or later in the list, weighs less; a later pairing
                # too (so the earlier ones keep tables when they run short), least of all on the
                # earlier tables (so pairings take the tables in their order).
                first, place = min(index, 99), min(position, 99)
                weight = (
                    1_000_000 - 10_000 * min(len(table.systems), 50) - 100 * (place + first) + first * place
                )
                graph.add_edge(("pairing", index), ("table", position), weight=weight)
    matched: dict[int, Table] = {}
    for first, second in nx.max_weight_matching(graph, maxcardinality=True):
        pairing_node, table_node = (first, second) if first[0] == "pairing" else (second, first)
        matched[pairing_node[1]] = tables[table_node[1]]
    return [with_table(pairing, matched.get(index)) for index, pairing in enumerate(pairings)]
