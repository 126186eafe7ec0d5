"""What every game's rules pack (a server's own cards, decks or missions) shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import yaml

from rules.errors import RuleError

MAX_PACK_BYTES = 64 * 1024


class PackError(RuleError):
    """A pack that cannot be used; `errors` lists every problem found, each naming its line."""

    def __init__(self, errors: list[str]) -> None:
        shown = errors[:25]
        more = f"\n…and {len(errors) - len(shown)} more." if len(errors) > len(shown) else ""
        super().__init__("This pack has problems:\n" + "\n".join(f"- {e}" for e in shown) + more)
        self.errors = errors


def yaml_line(root: yaml.Node | None, loc: Sequence[Any]) -> int | None:
    """The 1-based line of the YAML node at a pydantic error location, or of its deepest parent found.

    A mapping entry is located by its key's line, a list item by its own first line.
    """
    line = root.start_mark.line + 1 if root is not None else None
    node = root
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                    node, line = value, key.start_mark.line + 1
                    break
            else:
                return line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            return line
    return line
