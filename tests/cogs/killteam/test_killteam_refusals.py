"""Kill Team's refusal codes (cogs/killteam/refusals.py): every code the rules raise has its words."""

from __future__ import annotations

import re
from pathlib import Path

import rules.killteam
from cogs.killteam.refusals import ENGLISH


def test_every_kill_team_refusal_code_has_words_with_its_values() -> None:
    """Each code raised in rules/killteam is worded, and its sentence names only values it is given."""
    source = "".join(p.read_text() for p in Path(rules.killteam.__file__).parent.glob("*.py"))
    raised = set(re.findall(r'"(killteam\.[a-z_]+)"', source)) - {
        f"killteam.{topic}"
        for topic in ("battle", "bid", "scouting", "end")  # question topics
    }
    assert raised <= ENGLISH.keys(), sorted(raised - ENGLISH.keys())
    assert 'RuleError("' not in source and 'RuleError(f"' not in source
