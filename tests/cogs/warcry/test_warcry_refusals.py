"""Every Warcry refusal code the rules raise has English words in the cog's catalogue."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from cogs.warcry.refusals import ENGLISH as WARCRY_ENGLISH
from rules.warcry.pack import Scoring
from rules.warcry.questions import TOPICS


def test_every_warcry_code_has_english() -> None:
    root = Path(__file__).parents[3]
    sources = [*(root / "rules" / "warcry").glob("*.py"), *(root / "cogs" / "warcry").glob("*.py")]
    source = "\n".join(path.read_text() for path in sources)
    raised = set(re.findall(r'"(warcry\.[a-z_.]+)"', source)) - {"warcry.decided_by."}
    raised |= {f"warcry.decided_by.{scoring}" for scoring in get_args(Scoring)}
    topics = {c for c in raised if c in TOPICS}
    assert raised - topics <= set(WARCRY_ENGLISH), sorted(raised - topics - set(WARCRY_ENGLISH))
