"""Slash-command descriptions and choice names in Discord's command picker, from the catalogue.

discord.py asks this translator for every string of the tree when it syncs, command, group and
option NAMES included (`context.location` says which), and sends the answers as `*_localizations`.
Only descriptions and choice names are answered. Names stay English: a command typed from a guide
works in every language, and Discord refuses the whole sync over one localised name with a capital
("Spieler"). A name would otherwise find translations: a string is looked up in the domain of the
module that defines its command (bot/lang/i18n_tools.py extracts it there), then in every domain, where
the same English word may be a game's choice name (Warmaster's "player").
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.lang import i18n


def _module(data: Any) -> str | None:
    """The module that defines the command a description belongs to."""
    command = getattr(data, "command", data)  # a parameter names its command
    module = getattr(command, "module", None)
    return module if isinstance(module, str) else None


TRANSLATED = frozenset(
    {
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    }
)
"""What the picker shows in the user's language; names (and anything else) are left English."""


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = i18n.supported(locale)
        if context.location not in TRANSLATED or lang == i18n.SOURCE or not string.message:
            return None
        return localised(string.message, lang, _module(context.data))


def localised(message: str, lang: str, module: str | None = None) -> str | None:
    """`message` (a description or choice name) in `lang`, None when the catalogue has none."""
    domains = list(i18n.DOMAINS)
    if module is not None and module.startswith("cogs."):
        first = i18n.module_domain(module)
        domains.remove(first)
        domains.insert(0, first)
    for domain in domains:
        found = i18n.translated(lang, domain, message, i18n.COMMAND_CONTEXT)
        if found is not None:
            return found
    return None
