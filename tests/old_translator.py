"""The command translator as Muster once had it: every string looked up in the catalogue, command and
option names included. Discord refuses the sync it makes (a German option name with a capital); the
tests that show the refusal, and that the checks would catch it, share it from here."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.lang import i18n
from bot.lang.translator import CatalogueTranslator, localised


class EveryString(CatalogueTranslator):
    """Every string looked up in the catalogue, names included."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = i18n.supported(locale)
        return None if lang == i18n.SOURCE else localised(string.message, lang)
