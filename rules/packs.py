"""The one reader for every game's rules pack (a server's own cards, decks or missions).

A pack is YAML an organiser uploads, so it is untrusted. `read_pack` checks it in an order where
nothing can blow up: the size first; then the YAML event stream, which the parser produces without
recursion, for nesting depth (refused beyond what any real pack needs, before anything recursive
runs; a plain scan of the text refuses far deeper nesting even before the parser sees it, so a
parser's own limit never answers in its words instead of ours), anchors and aliases (no alias
bombs) and tags; then the scalars, built by hand so that no huge
integer or impossible date can raise (dates stay text, over-long numbers are a listed problem); then
one validation into the game's pydantic model and the game's own cross-field checks. Every problem is
listed with its line, in the same words for every game, and anything unexpected becomes a polite
PackError instead of a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from rules.errors import RuleError

MAX_PACK_BYTES = 64 * 1024
# The deepest shipped pack (the 40K missions: pack, list, mission, deployment, zones, zone) nests 6
# levels; twice that leaves room for any real pack and keeps the recursive steps far from Python's limit.
MAX_PACK_DEPTH = 12
# Every number in a pack is small (costs, rounds, points); a longer one is a mistake or an attack.
MAX_NUMBER_DIGITS = 15
MAX_PROBLEM_CHARS = 500  # room for a field's allowed values; long echoes of the file are cut

Loc = tuple[int | str, ...]
Problem = tuple[Loc, str]
"""A problem a game's own check found: where in the pack (as pydantic locates it) and what."""

M = TypeVar("M", bound=BaseModel)

UNREADABLE = "this pack could not be read; check that it is plain YAML shaped like the shipped pack"

# A parser written in C when PyYAML has one: the same events, quicker, and never recursive.
_Parser: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PLAIN_TAGS = frozenset(
    {None, "!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}
)
_NUMBER_TAGS = frozenset({"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"})
_SCALARS = SafeConstructor()


class PackError(RuleError):
    """A pack that cannot be used; `errors` lists every problem found, each naming its line."""

    def __init__(self, errors: list[str]) -> None:
        shown = errors[:25]
        more = f"\n…and {len(errors) - len(shown)} more." if len(errors) > len(shown) else ""
        super().__init__("This pack has problems:\n" + "\n".join(f"- {e}" for e in shown) + more)
        self.errors = errors


def too_large(size: int) -> str | None:
    """The one refusal for a pack over the size limit, or None."""
    if size <= MAX_PACK_BYTES:
        return None
    return (
        f"the file is {size:,} bytes; a pack may be at most {MAX_PACK_BYTES:,} bytes "
        f"({MAX_PACK_BYTES // 1024} KiB)"
    )


@contextmanager
def reading() -> Iterator[None]:
    """Anything unexpected while reading a pack becomes a polite PackError (the cause is chained for
    the log), so a hostile file can never end in an error id."""
    try:
        yield
    except PackError:
        raise
    except Exception as exc:
        raise PackError([UNREADABLE]) from exc


def read_pack(
    text: str,
    model: type[M],
    *,
    defaults: Mapping[str, Any] | None = None,
    check: Callable[[M], Iterable[Problem]] | None = None,
) -> M:
    """Read an uploaded (or shipped) pack into `model`, or raise PackError listing every problem.

    `defaults` fills top-level keys the file leaves out; `check` is the game's own cross-field checks
    (duplicates, names that point nowhere), run once the shapes are right.
    """
    with reading():
        root, data = _load(text, model)
        if defaults:
            data = {**defaults, **data}
        try:
            pack = model.model_validate(data)
        except ValidationError as exc:
            raise PackError(_listed(root, [(tuple(e["loc"]), _message(e)) for e in exc.errors()])) from None
        problems = list(check(pack)) if check is not None else []
        if problems:
            raise PackError(_listed(root, problems))
        return pack


def repeated(entries: Iterable[tuple[Loc, str]], what: str, hint: str = "") -> list[Problem]:
    """The one wording for a name given twice (ignoring case), reported at each repeat."""
    seen: set[str] = set()
    found: list[Problem] = []
    for loc, value in entries:
        key = value.casefold()
        if key in seen:
            found.append((loc, f"{what} `{value}` appears more than once{hint}"))
        seen.add(key)
    return found


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


def nesting_depth(text: str) -> int:
    """How deeply the collections of a YAML text nest (a flat mapping is 1), read off the event stream."""
    depth = deepest = 0
    for event in yaml.parse(text, Loader=_Parser):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return deepest


# ---------------------------------------------------------------------- reading


def _load(text: str, model: type[BaseModel]) -> tuple[yaml.MappingNode, dict[str, Any]]:
    """The checked YAML tree and its plain data, or PackError."""
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise PackError(["the file is not UTF-8 text; save it as plain YAML text"]) from None
    refusal = too_large(size)
    if refusal:
        raise PackError([refusal])
    deep_at = too_deep_line(text)
    if deep_at is not None:
        raise PackError([f"line {deep_at}: {_too_deep()}"])
    try:
        events = _checked_events(text)
        root = _Replay(events).get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise PackError([_cut(f"{where}this is not valid YAML ({exc.problem or exc.context})")]) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, max(exc.position, 0)) + 1
        raise PackError(
            [f"line {line}: this is not valid YAML ({exc.reason} #x{exc.character:04x})"]
        ) from None
    except yaml.YAMLError:
        raise PackError(["line 1: this is not valid YAML"]) from None
    if not isinstance(root, yaml.MappingNode):
        line = root.start_mark.line + 1 if root is not None else 1
        empty = "the pack is empty; it" if root is None else "the pack"
        raise PackError([f"line {line}: {empty} must be a YAML mapping with {_keys(model)}"])
    found: list[tuple[int, str]] = []
    data = _mapping(root, found)
    if found:
        raise PackError([_cut(f"line {line}: {message}") for line, message in sorted(found)])
    return root, data


def _too_deep() -> str:
    return f"this is nested more than {MAX_PACK_DEPTH} levels deep; no pack needs that"


def too_deep_line(text: str) -> int | None:
    """The line where the text plainly nests beyond the limit, read without any YAML parser, or None.

    A parser may have a nesting limit of its own (PyYAML's grew one) and would then refuse a deep
    file first, in its words. This scan counts block levels by indentation and `- ` entries, and flow
    levels by brackets outside quotes and comments. It may count one level too many (a flow
    collection at the top of a line), so it refuses only past MAX_PACK_DEPTH + 1, naming the line where
    the count first went over the limit; the exact check on the parser's events judges the last level.
    """
    indents: list[int] = []
    flow = 0
    quote = ""
    over: int | None = None  # where the count last went past MAX_PACK_DEPTH
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip(" ")
        if flow == 0 and not quote and stripped and not stripped.startswith("#"):
            indent = len(line) - len(stripped)
            while indents and indent < indents[-1]:
                indents.pop()
            if not indents or indent > indents[-1]:
                indents.append(indent)
        block = len(indents) + _leading_entries(stripped)
        over = _went_over(block + flow, number, over)
        for char, before in zip(stripped, " " + stripped, strict=False):
            if quote:
                quote = "" if char == quote else quote
            elif char == "#" and before in " \t":
                break
            elif char in "'\"" and before in " \t[{,:":
                quote = char
            elif char in "[{]}":
                flow = flow + 1 if char in "[{" else max(0, flow - 1)
                over = _went_over(block + flow, number, over)
            if over is not None and block + flow > MAX_PACK_DEPTH + 1:
                return over
    return None


def _went_over(depth: int, line: int, over: int | None) -> int | None:
    """The line where the count went past the limit and has stayed there, or None while within it."""
    if depth <= MAX_PACK_DEPTH:
        return None
    return line if over is None else over


def _leading_entries(stripped: str) -> int:
    """How many sequence entries open at the start of a line (`- - x` opens two)."""
    count = at = 0
    while stripped.startswith("-", at) and stripped[at + 1 : at + 2] in ("", " "):
        count += 1
        at += 1
        while stripped.startswith(" ", at):
            at += 1
    return count


def _checked_events(text: str) -> list[yaml.Event]:
    """Every event of the stream, refusing deep nesting at once and listing anchors, aliases and tags.

    The parser is a state machine, so this pass is safe however the file nests; only after it does
    anything recursive (composing, building, validating) run, on a tree at most MAX_PACK_DEPTH deep.
    """
    events: list[yaml.Event] = []
    found: list[tuple[int, str]] = []
    depth = documents = 0
    for event in yaml.parse(text, Loader=_Parser):
        line = event.start_mark.line + 1 if event.start_mark is not None else 1
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_PACK_DEPTH:
                raise PackError([f"line {line}: {_too_deep()}"])
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents == 2:
                found.append((line, "a pack is one YAML document; remove the second `---`"))
        if isinstance(event, yaml.AliasEvent) or (isinstance(event, yaml.NodeEvent) and event.anchor):
            found.append(
                (line, "anchors and aliases (& and *) are not allowed in a pack; write each entry out")
            )
        tag = getattr(event, "tag", None)
        if isinstance(event, yaml.ScalarEvent | yaml.CollectionStartEvent) and tag not in _PLAIN_TAGS:
            written = _short(str(tag).replace("tag:yaml.org,2002:", "!!"))
            found.append(
                (line, f"YAML tags like `{written}` are not allowed in a pack; write values plainly")
            )
        events.append(event)
    if found:
        raise PackError([_cut(f"line {line}: {message}") for line, message in found])
    return events


class _Replay(Composer, Resolver):
    """PyYAML's composer fed from events already read and checked, so the file is parsed once."""

    def __init__(self, events: list[yaml.Event]) -> None:
        Composer.__init__(self)
        Resolver.__init__(self)
        self._events = events
        self._next = 0

    def check_event(self, *choices: type[yaml.Event]) -> bool:
        if self._next >= len(self._events):
            return False
        return not choices or isinstance(self._events[self._next], choices)

    def peek_event(self) -> yaml.Event:
        return self._events[self._next]

    def get_event(self) -> yaml.Event:
        event = self._events[self._next]
        self._next += 1
        return event


def _value(node: yaml.Node, found: list[tuple[int, str]]) -> Any:
    if isinstance(node, yaml.MappingNode):
        return _mapping(node, found)
    if isinstance(node, yaml.SequenceNode):
        return [_value(item, found) for item in node.value]
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node, found)
    return None  # a composer only makes the three kinds above


def _mapping(node: yaml.MappingNode, found: list[tuple[int, str]]) -> dict[str, Any]:
    """A mapping with text keys (as written: `yes:` stays "yes"), each key given once."""
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        line = key_node.start_mark.line + 1
        if not isinstance(key_node, yaml.ScalarNode):
            found.append((line, "a key must be plain text, not a list or a mapping"))
            continue
        key = str(key_node.value)
        if key in result:
            found.append(
                (line, f"`{_short(key)}` appears more than once in this mapping; give each key once")
            )
            continue
        result[key] = _value(value_node, found)
    return result


def _scalar(node: yaml.ScalarNode, found: list[tuple[int, str]]) -> Any:
    """Numbers, booleans and nulls as YAML reads them, bounded; everything else (dates too) as text."""
    value = str(node.value)
    tag = node.tag
    line = node.start_mark.line + 1
    try:
        if tag in _NUMBER_TAGS:
            if sum(char.isalnum() for char in value) > MAX_NUMBER_DIGITS:
                too_long = f"is too long for a pack (at most {MAX_NUMBER_DIGITS} digits)"
                found.append((line, f"the number `{_short(value)}` {too_long}"))
                return None
            if tag == "tag:yaml.org,2002:int":
                return _SCALARS.construct_yaml_int(node)
            return _SCALARS.construct_yaml_float(node)
        if tag == "tag:yaml.org,2002:bool":
            return _SCALARS.construct_yaml_bool(node)
        if tag == "tag:yaml.org,2002:null":
            return None
    except (ValueError, KeyError, ArithmeticError):
        found.append((line, f"`{_short(value)}` is not a value I can read"))
        return None
    return value


# ---------------------------------------------------------------------- reporting


def _listed(root: yaml.Node, problems: Iterable[Problem]) -> list[str]:
    """Each problem as `line N: where: what`, in the order of the file."""
    placed = [(yaml_line(root, loc) or 1, _where(loc), message) for loc, message in problems]
    placed.sort(key=lambda item: item[0])
    return [
        _cut(f"line {line}: {where}: {message}" if where else f"line {line}: {message}")
        for line, where, message in placed
    ]


def _message(error: Any) -> str:
    if error.get("type") == "extra_forbidden":
        return "unknown field (check the spelling)"
    return (
        str(error.get("msg", "invalid value"))
        .removeprefix("Value error, ")
        .removeprefix("Assertion failed, ")
    )


def _where(loc: Loc) -> str:
    """`maps[0].group`: the path pydantic gives, written as an organiser reads it."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{_short(part)}" if text else _short(part))
    return text


def _keys(model: type[BaseModel]) -> str:
    names = [f"`{name}`" for name in model.model_fields]
    if len(names) == 1:
        return f"the key {names[0]}"
    return f"the keys {', '.join(names[:-1])} and {names[-1]}"


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cut(text: str) -> str:
    return _short(text, MAX_PROBLEM_CHARS)
