"""The docs tell the truth about the tree: every file they cite is there, every function or class
they name in code is defined, and nothing they link lies outside the repository.

A newcomer follows these documents before reading any code; a renamed method or a moved module
that the docs still name sends them looking for what does not exist. The checks are deliberately
plain (paths by their prefix, names by a scan of the definitions), so a doc that fails them reads
wrong to a person too.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), ROOT / "tests" / "emulator" / "README.md"])
CODE = ("bot", "cogs", "rules", "tests")
PATH = re.compile(
    r"(?<![\w./<*-])((?:bot|cogs|rules|tests|migrations|bench|docs)/[\w./-]*?\.(?:py|md|yaml|toml))(?![\w*])"
)
SPAN = re.compile(r"`([^`\n]+)`")
CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\(")
METHOD = re.compile(r"^([A-Z]\w*)\.([A-Za-z_]\w*)$")
PROJECT_MODULES = ("bot.", "cogs.", "rules.", "tests.")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def doc_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def cited_paths(text: str) -> set[str]:
    """`bot/chat/limits.py`-like paths: a known top-level folder, a file with a known extension."""
    return set(PATH.findall(text))


def cited_names(text: str) -> set[str]:
    """Names cited as code: `render_step()`, `bot.play.table.only_answer(...)`, `GameAdapter.render_step`.

    Only names the project defines (or discord.py's, written `discord.…`) are worth checking; a
    call on an object of another library (`interaction.response.defer(...)`) is written through a
    variable, so a dotted name is checked only when it starts with a class, a project module or
    `discord.`.
    """
    names: set[str] = set()
    for span in SPAN.findall(text):
        span = span.strip()
        if METHOD.match(span):
            names.add(span)
        for called in CALL.findall(span):
            first = called.split(".", 1)[0]
            if "." not in called or first[0].isupper() or called.startswith((*PROJECT_MODULES, "discord.")):
                names.add(called)
    return names


@functools.cache
def imported_names() -> dict[str, str]:
    """Names the project's code imports from other libraries, with their module: `AsyncSession`."""
    found: dict[str, str] = {}
    for folder in CODE:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    if node.module.split(".")[0] not in CODE:
                        found.update((a.asname or a.name, node.module) for a in node.names)
    return found


def library_name(parts: list[str]) -> bool:
    """A dotted name looked up in the library it comes from (`discord.ui.View`, `AsyncSession.run_sync`)."""
    module = "discord" if parts[0] == "discord" else imported_names()[parts[0]]
    found: object = importlib.import_module(module)
    for part in parts[1:] if parts[0] == "discord" else parts:
        if not hasattr(found, part):
            return False
        found = getattr(found, part)
    return True


@functools.cache
def defined_names() -> frozenset[str]:
    """Every def, class and assigned name or attribute in the project's code: what a doc may cite."""
    names: set[str] = set(dir(builtins))
    for folder in CODE:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
    return frozenset(names)


def exists(name: str) -> bool:
    """A cited name is defined: discord.py's by lookup, the project's by its last part (and a
    class's method by both parts)."""
    parts = name.split(".")
    if parts[0] == "discord" or (parts[0] not in defined_names() and parts[0] in imported_names()):
        return library_name(parts)
    if parts[0][0].isupper() and parts[0] not in defined_names():
        return False
    return parts[-1] in defined_names()


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_cited_files_exist(doc: Path) -> None:
    missing = sorted(p for p in cited_paths(doc.read_text(encoding="utf-8")) if not (ROOT / p).exists())
    assert not missing, f"{doc_id(doc)} cites files that are not in the repository: {', '.join(missing)}"


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_cited_names_are_defined(doc: Path) -> None:
    unknown = sorted(n for n in cited_names(doc.read_text(encoding="utf-8")) if not exists(n))
    assert not unknown, f"{doc_id(doc)} names what the code does not define: {', '.join(unknown)}"


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_links_stay_in_the_repository(doc: Path) -> None:
    """A doc is read in a checkout of this repository alone: a path above it leads nowhere."""
    text = doc.read_text(encoding="utf-8")
    outside = sorted({m.group(0) for m in re.finditer(r"(?<!\.)\.\./\S*", text)})
    broken = sorted(
        link
        for link in LINK.findall(text)
        if "://" not in link
        and not link.startswith(("#", "mailto:"))
        and not (doc.parent / link.split("#")[0]).exists()
    )
    assert not outside, f"{doc_id(doc)} points outside the repository: {', '.join(outside)}"
    assert not broken, f"{doc_id(doc)} links files that are not there: {', '.join(broken)}"


def test_the_checks_see_what_they_look_for() -> None:
    text = (
        "See bot/chat/limits.py and `GameAdapter.render_step`, `bot.play.table.only_answer(q)`, `render()`, "
        "`discord.ui.View`, `interaction.response.defer()`; not cogs/<game>.py nor cogs/fortyk*.py."
    )
    assert cited_paths(text) == {"bot/chat/limits.py"}
    assert cited_names(text) == {"GameAdapter.render_step", "bot.play.table.only_answer", "render"}
    assert exists("GameAdapter.render_step") and exists("discord.ui.View") and exists("refuse_second_game")
    assert exists("AsyncSession.run_sync") and not exists("AsyncSession.run_nothing")
    assert not exists("GameAdapter.render_nothing") and not exists("discord.ui.Nothing")
