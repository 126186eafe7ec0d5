"""Slash-command descriptions and choice names in Discord's command picker, from the catalogue.

discord.py asks this translator for every description and choice name when it syncs the tree and
sends the answers as `*_localizations`; command and option NAMES are never translated, so a
command typed from a guide works in every language. A string is looked up in the domain of the
module that defines its command (bot/i18n_tools.py extracts it there), then in every domain.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import i18n


def _module(data: Any) -> str | None:
    """The module that defines the command a description belongs to."""
    command = getattr(data, "command", data)  # a parameter names its command
    module = getattr(command, "module", None)
    return module if isinstance(module, str) else None


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = i18n.supported(locale)
        if lang == i18n.SOURCE or not string.message:
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
