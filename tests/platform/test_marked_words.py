"""The catalogue sees every word the rules mark: extraction reads the calls on a marker bound in the
same module (`N_ = Marker("warcry")`), so a marker imported from another module would mark words
that never reach the catalogue, and they would stay English in every language without an error."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.lang.i18n import DOMAINS
from bot.lang.i18n_tools import source_entries

ROOT = Path(__file__).resolve().parents[2]
RULES = sorted((ROOT / "rules").rglob("*.py"))


def markers_bound(tree: ast.Module) -> dict[str, str]:
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
            if isinstance(call.func, ast.Name) and call.func.id == "Marker":
                domain = call.args[0].value if call.args and isinstance(call.args[0], ast.Constant) else None
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = str(domain)
    return found


@pytest.mark.parametrize("path", RULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_marker_is_bound_where_it_marks(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bound = markers_bound(tree)
    assert all(domain in DOMAINS for domain in bound.values()), bound
    imported = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.endswith("_") and alias.name.upper() == alias.name
    ]
    assert not imported, (
        f"{path.relative_to(ROOT)} imports a marker {imported}: bind its own `N_ = Marker(...)`"
    )
    if bound:
        assert list(source_entries(path)), f"{path.relative_to(ROOT)} binds a marker and marks nothing"
