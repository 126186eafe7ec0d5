"""Discord's rules for the command tree, checked offline on the payload a sync would send.

Discord refuses the whole `PUT .../commands` (400, code 50035) when one name, localisation, length
or count in it breaks its rules, and the bot then fails at start-up. `muster doctor` finds that
before any token is needed: the bot's own cogs are loaded into a tree (nothing started, nothing
connected), every string is run through the translator for every locale as `CommandTree.sync` runs
it, and each field of the result is held against the numbers in bot/chat/limits.py.
"""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr

from bot.chat import limits

if TYPE_CHECKING:
    from bot.app import MusterBot
    from bot.config import Settings

JSON = dict[str, Any]
CHAT_INPUT = 1
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3


@dataclass(frozen=True)
class Problem:
    """One field Discord would refuse: the command it is in (`/scores player user:`) and why."""

    path: str
    text: str


# --- the payload ------------------------------------------------------------------------------


async def sync_payload(tree: app_commands.CommandTree[Any]) -> list[JSON]:
    """The global commands exactly as `CommandTree.sync` sends them, translated by the tree's translator."""
    translator = tree.translator
    found = tree._get_all_commands(guild=None)
    if translator is None:
        return [command.to_dict(tree) for command in found]
    return [await command.get_translated_payload(tree, translator) for command in found]


async def muster_payload() -> list[JSON]:
    """The payload `muster run` syncs: every cog's `setup` run as the bot runs it at start-up, on a
    bot that is never started, with the catalogue's translator."""
    async with offline_bot() as bot:
        return await sync_payload(bot.tree)


@asynccontextmanager
async def offline_bot() -> AsyncIterator[MusterBot]:
    """A bot that is never started, its tree as `muster run` builds it: every cog's `setup` run,
    the catalogue's translator set."""
    from bot.app import load_cog
    from bot.config import Settings
    from bot.lang.translator import CatalogueTranslator

    base = discord.http.Route.BASE  # a bot points discord.py at its API when it is made
    settings = Settings.model_construct(
        discord_token=SecretStr("offline"), database_url="sqlite+aiosqlite://"
    )
    bot = _tree_only_bot(settings)
    try:
        for name in bot.cog_names:
            await load_cog(bot, name)
        await bot.tree.set_translator(CatalogueTranslator())
        yield bot
    finally:
        await bot.store.close()
        discord.http.Route.BASE = base


def _tree_only_bot(settings: Settings) -> MusterBot:
    """A MusterBot whose cogs only put their commands in the tree: no `cog_load`, so no worker
    starts and the database is never opened."""
    from bot.app import MusterBot

    class TreeOnly(MusterBot):
        async def add_cog(self, cog: commands.Cog, /, **_: Any) -> None:
            group = cog.__cog_app_commands_group__
            for command in [group] if group is not None else cog.__cog_app_commands__:
                self.tree.add_command(command)

    return TreeOnly(settings)


# --- the rules --------------------------------------------------------------------------------


def problems(payload: list[JSON]) -> list[Problem]:
    """Everything in a sync payload that Discord would refuse, one problem per field."""
    return [problem for command in payload for problem in _command(command)]


def name_problem(name: Any, *, chat_input: bool) -> str | None:
    """Why Discord refuses `name` (or a name localisation), None when it takes it. A slash-command
    name is `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lowercase wherever a letter has a
    lowercase form; a user or message command's may hold spaces and capitals."""
    if not isinstance(name, str) or not 1 <= len(name) <= limits.COMMAND_NAME:
        return f"{name!r} is not 1-{limits.COMMAND_NAME} characters"
    if not chat_input:
        return None
    others = "".join(dict.fromkeys(ch for ch in name if not _name_character(ch)))
    if others:
        return f"{name!r} holds {others!r}: only letters, numbers, - _ and ' are allowed"
    if any(ch.lower() != ch for ch in name):
        return f"{name!r} has capitals: names must be lowercase"
    return None


def _name_character(ch: str) -> bool:
    if ch in limits.COMMAND_NAME_MARKS or unicodedata.category(ch)[0] in "LN":
        return True
    return any(low <= ord(ch) <= high for low, high in limits.COMMAND_NAME_SCRIPTS)


def _localised(owner: JSON, field: str) -> Iterator[tuple[str, Any]]:
    """(`English` or the locale, value) for a field and each of its localisations."""
    yield "English", owner.get(field)
    for locale, value in (owner.get(f"{field}_localizations") or {}).items():
        yield str(locale), value


def _names(path: str, owner: JSON, *, chat_input: bool) -> Iterator[Problem]:
    for locale, name in _localised(owner, "name"):
        why = name_problem(name, chat_input=chat_input)
        if why is not None:
            yield Problem(path, f"name in {locale}: {why}")


def _texts(path: str, owner: JSON, field: str, limit: int) -> Iterator[Problem]:
    """A description or choice name and its localisations: 1 to `limit` characters each."""
    for locale, text in _localised(owner, field):
        if not isinstance(text, str) or not 1 <= len(text) <= limit:
            shown = len(text) if isinstance(text, str) else "no"
            yield Problem(
                path, f"{field.replace('_', ' ')} in {locale} has {shown} characters, not 1-{limit}"
            )


def _command(command: JSON) -> Iterator[Problem]:
    chat_input = int(command.get("type", CHAT_INPUT)) == CHAT_INPUT
    path = f"/{command.get('name')}" if chat_input else str(command.get("name"))
    yield from _names(path, command, chat_input=chat_input)
    if chat_input:
        yield from _texts(path, command, "description", limits.COMMAND_DESCRIPTION)
        yield from _options(path, command.get("options") or [])
    size = _size(command)
    if size > limits.COMMAND_TOTAL:
        yield Problem(
            path, f"{size} characters in all (each field at its longest), over {limits.COMMAND_TOTAL}"
        )


def _options(path: str, options: list[JSON]) -> Iterator[Problem]:
    if len(options) > limits.COMMAND_OPTIONS:
        yield Problem(path, f"{len(options)} options, over {limits.COMMAND_OPTIONS}")
    for option in options:
        kind = int(option.get("type", STRING))
        nested = kind in (SUB_COMMAND, SUB_COMMAND_GROUP)
        where = f"{path} {option.get('name')}" + ("" if nested else ":")
        yield from _names(where, option, chat_input=True)
        yield from _texts(where, option, "description", limits.COMMAND_DESCRIPTION)
        if nested:
            yield from _options(where, option.get("options") or [])
        else:
            yield from _choices(where, option.get("choices") or [])


def _choices(path: str, choices: list[JSON]) -> Iterator[Problem]:
    if len(choices) > limits.COMMAND_CHOICES:
        yield Problem(path, f"{len(choices)} choices, over {limits.COMMAND_CHOICES}")
    for choice in choices:
        where = f"{path} choice {choice.get('value')!r}"
        yield from _texts(where, choice, "name", limits.COMMAND_CHOICE_NAME)
        value = choice.get("value")
        if isinstance(value, str) and not 1 <= len(value) <= limits.COMMAND_CHOICE_VALUE:
            yield Problem(where, f"value has {len(value)} characters, not 1-{limits.COMMAND_CHOICE_VALUE}")


def _longest(owner: JSON, field: str) -> int:
    return max(len(str(value or "")) for _locale, value in _localised(owner, field))


def _size(owner: JSON) -> int:
    """What Discord counts against COMMAND_TOTAL: names, descriptions, choice names and values."""
    size = _longest(owner, "name") + _longest(owner, "description")
    for option in owner.get("options") or []:
        size += _size(option)
        for choice in option.get("choices") or []:
            size += _longest(choice, "name") + len(str(choice.get("value") or ""))
    return size
