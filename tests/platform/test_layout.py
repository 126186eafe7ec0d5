"""The shape the project keeps: `bot/`, `cogs/` and `rules/` import in one direction (no cycles, an
import inside a function counted too: it only hides a cycle until the function first runs), no file
of `bot/` grows past what a reader takes in, and `rules/` holds no Discord presentation."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOT_FILE_LINES = 420
FILE_LINES = 500
"""A module of cogs/ or rules/ is split by job before it grows past this."""
FUNCTION_LINES = 80
"""A function longer than this does several things: give each its name."""
CHECKED = ("bot", "cogs", "rules")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, known: set[str] | frozenset[str] = frozenset()) -> set[str]:
    """Modules `path` imports, at load time or inside a function; not those under TYPE_CHECKING
    (types only, never run). `from package import module` names the module, not the package (a
    submodule's package is always loaded first, so that is no cycle)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for hidden in node.body:  # ast.walk reaches them too: mark them to skip
                for inner in ast.walk(hidden):
                    inner.type_only = True  # type: ignore[attr-defined]
    for node in ast.walk(tree):
        if getattr(node, "type_only", False):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & known
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(node.module)
    return found


def import_graph(tops: tuple[str, ...]) -> dict[str, set[str]]:
    files = {module_name(p): p for top in tops for p in (ROOT / top).rglob("*.py")}
    known = set(files)
    return {
        name: {m for m in imports_of(path, known) if m in files and m != name} for name, path in files.items()
    }


def cycles_in(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def walk(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                walk(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name, [name])
    return cycles


def test_imports_have_no_cycles() -> None:
    cycles = cycles_in(import_graph(CHECKED))
    assert not cycles, "import cycles: " + "; ".join(" → ".join(c) for c in cycles)


def test_the_cycle_check_sees_a_cycle(tmp_path: Path) -> None:
    """The check above would find one, even through a function; a TYPE_CHECKING import is no edge."""
    a = tmp_path / "a.py"
    a.write_text("from bot import b\n")
    assert imports_of(a, {"bot.b"}) == {"bot.b"}
    b = tmp_path / "b.py"
    b.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot import a\n"
        "def f():\n    import bot.c\n"
    )
    assert imports_of(b, {"bot.a", "bot.c"}) == {"typing", "bot.c"}
    assert cycles_in({"bot.a": {"bot.b"}, "bot.b": {"bot.a"}}) == [["bot.a", "bot.b", "bot.a"]]


def sources(*tops: str) -> list[Path]:
    return sorted(p for top in tops for p in (ROOT / top).rglob("*.py"))


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", sources("bot"), ids=shown)
def test_no_file_in_bot_is_too_long_to_read(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= BOT_FILE_LINES, f"{shown(path)} has {lines} lines: split it by job"


@pytest.mark.parametrize("path", sources("cogs", "rules"), ids=shown)
def test_no_module_of_a_game_or_feature_is_too_long_to_read(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= FILE_LINES, f"{shown(path)} has {lines} lines (at most {FILE_LINES}): split it by job"


def long_functions(source: str, limit: int = FUNCTION_LINES) -> list[str]:
    """Each function (or method) longer than `limit` lines, decorators left out, as `name (n lines)`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append(f"{node.name} ({length} lines, line {node.lineno})")
    return found


@pytest.mark.parametrize("path", sources(*CHECKED), ids=shown)
def test_no_function_is_too_long_to_read(path: Path) -> None:
    found = long_functions(path.read_text(encoding="utf-8"))
    assert not found, f"{shown(path)}: functions over {FUNCTION_LINES} lines: " + "; ".join(found)


def test_the_length_check_sees_a_long_function() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LINES))
    source = f"@decorated\ndef long():\n{body}\ndef short():\n    return 1\n"
    assert long_functions(source) == [f"long ({FUNCTION_LINES + 1} lines, line 2)"]


PRESENTATION = [
    (re.compile(r"<@!?&?\{|<@\d|<#\{|<t:"), "a Discord mention or timestamp"),
    (re.compile(r"(?<![*/] )\b(1024|4096|6000)\b"), "a Discord embed limit"),  # not KiB arithmetic
    (re.compile(r"\bimport discord\b|from discord\b"), "discord.py"),
    (re.compile(r"\bPIL\b"), "image drawing"),
]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "rules").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_rules_hold_no_discord_presentation(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [what for pattern, what in PRESENTATION if pattern.search(text)]
    assert not found, f"{path.relative_to(ROOT)} holds {', '.join(found)}: that belongs in bot/ or cogs/"


BARE_LENGTH = 10
"""A cut of text to at least this many characters is a length someone chose: it needs a name."""
CUTTERS = frozenset({"clip", "clip_start", "echo", "fit_lines"})


def _bare_numbers(node: ast.AST | None) -> list[int]:
    """Integer literals of `BARE_LENGTH` or more inside `node` (a slice bound, an argument)."""
    if node is None:
        return []
    return [
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and type(n.value) is int and n.value >= BARE_LENGTH
    ]


def literal_cuts(source: str) -> list[str]:
    """`text[:100]`, `text[-1024:]`, `clip(text, 100)`: cuts by a bare number, each as `line: code`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Slice):
            bounds = [node.lower, node.upper]
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in CUTTERS:
            bounds = [*node.args[1:], *(k.value for k in node.keywords)]
        else:
            continue
        if any(_bare_numbers(b) for b in bounds):
            found.append((node.lineno, f"{node.lineno}: {ast.get_source_segment(source, node)}"))
    return [cut for _line, cut in sorted(found)]


@pytest.mark.parametrize(
    "path",
    sorted(
        p for p in [*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")] if p.name != "limits.py"
    ),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_text_is_cut_by_named_lengths(path: Path) -> None:
    """Discord's limits live in bot/chat/limits.py and the project's own lengths are named where used,
    so a reader can tell a Discord limit from a choice, and check each against its source once."""
    found = literal_cuts(path.read_text(encoding="utf-8"))
    assert not found, (
        f"{path.relative_to(ROOT)} cuts text by a bare number (use a bot/chat/limits.py name, or name "
        f"the project's own length where it is used): " + "; ".join(found)
    )


def test_the_cut_check_sees_bare_numbers() -> None:
    source = (
        "a = text[:100]\nb = text[-1024:]\nc = text[: 1000 - 40]\nd = clip(text, 45)\n"
        "e = echo(text, limit=60)\nf = text[:LIMIT]\ng = text[1:]\nh = text[:-1]\ni = clip(text, LIMIT)\n"
    )
    assert [line.split(":")[0] for line in literal_cuts(source)] == ["1", "2", "3", "4", "5"]


GAME_MODULES = {"__init__", "commands", "adapter", "board", "questions", "refusals", "vocabulary"}
"""What every game's cog package holds, exactly, by the same names (docs/NEW_GAME.md says what goes
where)."""
RULES_MODULES = {"__init__", "models", "actions", "events", "procedure", "questions", "views"}
"""What every game's rules package holds at least; any other module is named for what it holds."""
GAMES = {"killteam", "warcry", "warmaster", "fortyk", "pick"}
COG_GAMES = sorted(path.parent.name for path in (ROOT / "cogs").glob("*/adapter.py"))
RULES_GAMES = sorted(path.parent.name for path in (ROOT / "rules").glob("*/procedure.py"))


def test_the_games_are_found_by_their_layout() -> None:
    """A game's cog package has an adapter, its rules package a procedure: every game has both."""
    assert set(COG_GAMES) == GAMES and set(RULES_GAMES) == GAMES
    loose = [path.name for path in (ROOT / "cogs").glob("*_*.py") if not path.name.startswith("__")]
    assert not loose, f"a game's or feature's modules live in its package: {loose}"


@pytest.mark.parametrize("game", COG_GAMES)
def test_every_games_cog_package_has_the_same_modules(game: str) -> None:
    """A newcomer who knows where Kill Team's board is drawn knows where every game's is."""
    modules = {path.stem for path in (ROOT / "cogs" / game).glob("*.py")}
    assert modules == GAME_MODULES, (
        f"cogs/{game}/ lacks {sorted(GAME_MODULES - modules)} and has more: {sorted(modules - GAME_MODULES)}"
    )


@pytest.mark.parametrize("game", RULES_GAMES)
def test_every_games_rules_package_has_the_common_modules(game: str) -> None:
    modules = {path.stem for path in (ROOT / "rules" / game).glob("*.py")}
    assert RULES_MODULES <= modules, f"rules/{game}/ lacks {sorted(RULES_MODULES - modules)}"


@pytest.mark.parametrize(
    "path", sorted((ROOT / "tests" / "rules").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT))
)
def test_rules_tests_test_the_rules_alone(path: Path) -> None:
    """Tests mirror the source: a test under tests/rules/ runs the rules alone, so a change in
    what the bot or a cog shows never breaks a rule's test (those live in tests/cogs/, tests/platform/)."""
    found = sorted(m for m in imports_of(path) if m.split(".")[0] in ("bot", "cogs", "discord"))
    where = path.relative_to(ROOT)
    assert not found, f"{where} imports {found}: move that test to tests/cogs/ or tests/platform/"
