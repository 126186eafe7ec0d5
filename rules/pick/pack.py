"""Pick's pack: the shipped one (`data/pack.yaml`) and a server's own, read by the shared reader
(rules/packs.py), which refuses anything unsafe and lists every problem with its line."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from rules.packs import read_pack
from rules.pick.models import PickPack


@lru_cache(maxsize=1)
def shipped_pack() -> PickPack:
    """The pack Muster ships (read once from the package's data)."""
    text = resources.files("rules.pick").joinpath("data/pack.yaml").read_text(encoding="utf-8")
    return read_pack(text, PickPack)


def parse_pack(text: str) -> PickPack:
    """A server's pack, or a PackError naming each problem."""
    return read_pack(text, PickPack)
