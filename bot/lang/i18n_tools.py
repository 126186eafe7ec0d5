"""The catalogue's upkeep: extract the marked English, merge it into each language, compile, check.

Run as `muster i18n extract|update|compile|check` (docs/LANGUAGES.md). Babel reads and writes the
.pot/.po/.mo files; what is extracted comes from three places:
- calls on a module's `Domain` (`_ = Domain("warcry")`: `_()`, `_.n()`, `_.p()`, `_.np()`, `_.mark()`)
  in bot/ and cogs/, and on a rules module's `Marker` (`N_ = Marker("warcry")`: `N_()`, `N_.p()`,
  `N_.n()`, `N_.np()`), with literal strings, read from the source with `ast` (the domain is the
  one the file declares);
- the code-keyed refusal words registered with `bot.lang.text.add_words` (context: the code);
- every slash command's description, option descriptions and choice names (context `command`).

A domain is in the catalogue once its template (`bot/locale/<domain>.pot`) exists: `extract`
refreshes those templates (or starts one with `--domain`), so a game not yet converted is left out.
"""

from __future__ import annotations

import ast
import importlib
import io
import pkgutil
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from bot.chat import limits
from bot.lang.glossary import Glossary, bare, worded
from bot.lang.glossary import glossary as read_glossary
from bot.lang.i18n import (
    COMMAND_CONTEXT,
    DOMAINS,
    LOCALE_DIR,
    TRANSLATED,
    code_domain,
    module_domain,
    placeholders,
)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs", "rules")
METHODS = {"": ("s",), "n": ("s", "s", None), "p": ("c", "s"), "np": ("c", "s", "s", None), "mark": ("s",)}
SAME = "same"  # a translator comment: this entry is rightly the same as its English
LIMITS = {
    COMMAND_CONTEXT: limits.COMMAND_DESCRIPTION,
    "button": limits.BUTTON_LABEL,
    "label": limits.TEXT_INPUT_LABEL,
    "title": limits.EMBED_TITLE,
    "field": limits.FIELD_NAME,
    "option": limits.SELECT_OPTION_TEXT,
}
"""The longest a translation of an entry with this context may be: the Discord limit of where it shows."""
CONTENT_LIMIT = limits.CONTENT
WORDS = re.compile(r"[^\W\d_]{3,}")


@dataclass(frozen=True)
class Entry:
    """One message to translate: where it was found, its context, its English (and plural)."""

    domain: str
    msgid: str
    context: str | None = None
    plural: str | None = None
    where: str = ""
    line: int = 0


# ---------------------------------------------------------------------- extraction


def _text(node: ast.expr) -> str | None:
    """A literal string argument (implicit or `+` concatenation of literals), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left), _text(node.right)
        return left + right if left is not None and right is not None else None
    return None


MARKERS = ("Domain", "Marker")
"""`_ = Domain("warcry")` in bot/ and cogs/ translates now; `N_ = Marker("warcry")` in rules/ marks
English that the bot translates where it shows it (rules/words.py)."""


def _declared(tree: ast.Module) -> dict[str, str]:
    """The module's `name = Domain("domain")` and `name = Marker("domain")` bindings."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
            if isinstance(call.func, ast.Name) and call.func.id in MARKERS and call.args:
                domain = _text(call.args[0])
                for target in node.targets:
                    if isinstance(target, ast.Name) and domain is not None:
                        found[target.id] = domain
    return found


def source_entries(path: Path) -> Iterator[Entry]:
    """The marked English of one source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    bound = _declared(tree)
    where = path.resolve().relative_to(ROOT).as_posix()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func, method = node.func, ""
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            method, func = func.attr, func.value
        if not isinstance(func, ast.Name) or func.id not in bound or method not in METHODS:
            continue
        shape = METHODS[method]
        texts = [_text(arg) for arg in node.args[: len(shape)]]
        strings = [t for t, kind in zip(texts, shape, strict=False) if kind is not None]
        if len(texts) < len(shape) or any(s is None for s in strings):
            continue  # a variable (text marked elsewhere) is translated, not extracted
        context = texts[0] if shape[0] == "c" else None
        words = [t for t, kind in zip(texts, shape, strict=False) if kind == "s"]
        yield Entry(
            bound[func.id],
            str(words[0]),
            context,
            str(words[1]) if len(words) > 1 else None,
            where,
            node.lineno,
        )


def _modules() -> list[str]:
    names = []
    for package in SOURCES:
        for found in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            names.append(found.name)
    return names


def _command_strings(command: Any) -> Iterator[str]:
    """A command's (or group's) description, its options' descriptions and choice names."""
    from discord import app_commands

    yield str(command.description)
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _command_strings(child)
        return
    for parameter in command.parameters:
        yield str(parameter.description)
        for choice in parameter.choices:
            yield str(choice.name)


def command_entries() -> Iterator[Entry]:
    """Every slash command's words, from the cog classes (no bot needed)."""
    from discord.ext import commands

    for module in _modules():
        if not module.startswith("cogs."):
            continue
        loaded = importlib.import_module(module)
        domain = module_domain(module)
        for value in vars(loaded).values():
            if not (isinstance(value, type) and issubclass(value, commands.Cog)):
                continue
            if value.__module__ != module:
                continue
            if getattr(value, "__cog_is_app_commands_group__", False):
                yield Entry(domain, str(value.__cog_group_description__), COMMAND_CONTEXT, where=module)
            for command in value.__cog_app_commands__:
                for text in _command_strings(command):
                    if text and text != "…":
                        yield Entry(domain, text, COMMAND_CONTEXT, where=module)


def code_entries() -> Iterator[Entry]:
    """The English of every refusal code the cogs register."""
    from bot.lang import text

    for module in _modules():
        importlib.import_module(module)
    for code, english in sorted(text.ENGLISH.items()):
        source = text.SOURCE_OF.get(code, "")
        if source.split(".")[0] in SOURCES:  # not a test's own codes
            yield Entry(code_domain(code), english, code, where=source)


def extract() -> dict[str, list[Entry]]:
    """Everything marked, by domain."""
    found: dict[str, list[Entry]] = {domain: [] for domain in DOMAINS}
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for entry in source_entries(path):
                found[entry.domain].append(entry)
    for entry in [*code_entries(), *command_entries()]:
        found[entry.domain].append(entry)
    return found


# ---------------------------------------------------------------------- the files


def pot_path(domain: str) -> Path:
    return LOCALE_DIR / f"{domain}.pot"


def po_path(lang: str, domain: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def in_catalogue() -> list[str]:
    """The domains with a template: the ones translated so far."""
    return [d for d in DOMAINS if pot_path(d).exists()]


def template(domain: str, entries: Iterable[Entry]) -> Catalog:
    catalog = Catalog(project="Muster", domain=domain, fuzzy=False)
    for entry in entries:
        msgid: str | tuple[str, str] = (entry.msgid, entry.plural) if entry.plural else entry.msgid
        known = catalog.get(msgid, entry.context)
        place = (entry.where, entry.line)
        if known is None:
            catalog.add(msgid, context=entry.context, locations=[place])
        elif place not in known.locations:
            known.locations.append(place)
    return catalog


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    out = io.BytesIO()
    write_po(out, catalog, width=110, include_lineno=False, sort_output=True)
    path.write_bytes(out.getvalue())


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compiled_messages(data: bytes) -> tuple[str, dict[tuple[str | None, Any], Any]]:
    """What a compiled catalogue says: its plural rule and every translation, keyed by context and id.

    Two `.mo` files that say the same are the same catalogue, whatever tool version wrote them (each
    stamps its own "Generated-By" header), so staleness is judged on this, never on the bytes.
    """
    catalog = read_mo(io.BytesIO(data))
    said = {
        (m.context, m.id if isinstance(m.id, str) else tuple(m.id)): (
            m.string if isinstance(m.string, str) else tuple(m.string or ())
        )
        for m in catalog
        if m.id
    }
    return catalog.plural_forms, said


def is_compiled(target: Path, catalog: Catalog) -> bool:
    """Whether `target` exists and says what `catalog` compiles to."""
    return target.exists() and compiled_messages(target.read_bytes()) == compiled_messages(compiled(catalog))


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def do_extract(domains: Iterable[str]) -> list[str]:
    """Write the templates of `domains`; returns what changed."""
    found, changed = extract(), []
    for domain in domains:
        made = template(domain, found[domain])
        path = pot_path(domain)
        if not path.exists() or keys(read(path)) != keys(made) or _locations(read(path)) != _locations(made):
            write(path, made)
            changed.append(str(path.relative_to(ROOT)))
    return changed


def _locations(catalog: Catalog) -> dict[Any, list[str]]:
    """Where each message comes from, as written (file names only: a moved line changes nothing)."""
    return {(m.context, m.id): sorted({where for where, _line in m.locations}) for m in catalog if m.id}


def do_update(domains: Iterable[str]) -> list[str]:
    """Merge each template into every language's catalogue (new entries empty, changed ones fuzzy)."""
    changed = []
    for domain in domains:
        pot = read(pot_path(domain))
        for lang in TRANSLATED:
            path = po_path(lang, domain)
            po = read(path, lang) if path.exists() else Catalog(locale=lang, domain=domain, fuzzy=False)
            po.project, po.version = "Muster", "1"
            po.update(pot, update_header_comment=False)
            po.obsolete.clear()
            write(path, po)
            changed.append(str(path.relative_to(ROOT)))
    return changed


def do_compile(domains: Iterable[str]) -> list[str]:
    changed = []
    for domain in domains:
        for lang in TRANSLATED:
            path = po_path(lang, domain)
            if not path.exists():
                continue
            catalog = read(path, lang)
            target = path.with_suffix(".mo")
            if not is_compiled(target, catalog):
                target.write_bytes(compiled(catalog))
                changed.append(str(target.relative_to(ROOT)))
    return changed


# ---------------------------------------------------------------------- the check


def _forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string or ""]


def _has_words(text: str) -> bool:
    """Whether a text says anything in words (not only values, mentions, markup or code)."""
    return bool(WORDS.search(bare(text)))


def limit_of(context: str | None) -> int:
    return LIMITS.get(context or "", CONTENT_LIMIT)


def problems(domain: str, lang: str) -> list[str]:
    """Every way `lang`'s catalogue of `domain` falls short of its template."""
    found: list[str] = []
    path = po_path(lang, domain)
    if not path.exists():
        return [f"{path.relative_to(ROOT)} is missing"]
    po, pot = read(path, lang), read(pot_path(domain))
    glossary_rules = glossary()
    mo = path.with_suffix(".mo")
    if not is_compiled(mo, po):
        found.append(f"{mo.relative_to(ROOT)} is stale: run `muster i18n compile`")
    for wanted in pot:
        if not wanted.id:
            continue
        english = wanted.id if isinstance(wanted.id, str) else wanted.id[0]
        name = f"{domain}/{lang} {wanted.context + ': ' if wanted.context else ''}{english!r}"
        message = po.get(wanted.id, wanted.context)
        if message is None:
            found.append(f"{name} is missing: run `muster i18n update --domain {domain}`")
            continue
        forms = _forms(message)
        if message.fuzzy or not all(forms):
            found.append(f"{name} is not translated (or marked fuzzy)")
            continue
        englishes = list(wanted.id) if isinstance(wanted.id, (list, tuple)) else [wanted.id]
        allowed = set().union(*(placeholders(e) for e in englishes))
        for form in forms:
            have = placeholders(form)
            if (have != allowed and len(englishes) == 1) or not have <= allowed:
                found.append(f"{name}: placeholders {sorted(have)} instead of {sorted(allowed)}")
            if len(form) > limit_of(wanted.context):
                found.append(f"{name}: {len(form)} characters, over Discord's {limit_of(wanted.context)}")
        if len(englishes) > 1 and allowed - {"count"} - set().union(*(placeholders(f) for f in forms)):
            found.append(f"{name}: a value is never shown")
        found.extend(worded(name, domain, lang, englishes, forms, glossary_rules))
        same = forms[0] in englishes and _has_words(forms[0])
        if same and SAME not in message.user_comments:
            found.append(f"{name} is still English (mark it `# {SAME}` if that is right)")
    for source in pot:
        if source.id:
            text = source.id if isinstance(source.id, str) else source.id[0]
            if len(text) > limit_of(source.context):
                found.append(f"{domain} {text!r}: over Discord's {limit_of(source.context)} in English")
    return found


# ---------------------------------------------------------------------- the glossary


def glossary_path() -> Path:
    return LOCALE_DIR / "glossary.toml"


def glossary() -> Glossary:
    """The catalogue's glossary (bot/locale/glossary.toml), which `problems` holds every entry to."""
    return read_glossary(glossary_path())


def check(domains: Iterable[str] | None = None) -> list[str]:
    """Every problem of the catalogue: templates behind the source, then each language's gaps."""
    found: list[str] = []
    wanted = list(domains) if domains is not None else in_catalogue()
    marked = extract()
    for domain in wanted:
        if keys(template(domain, marked[domain])) != keys(read(pot_path(domain))):
            found.append(f"{domain}.pot is behind the source: run `muster i18n extract`")
        for lang in TRANSLATED:
            found.extend(problems(domain, lang))
    return found
