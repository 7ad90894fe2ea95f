"""Command metadata in the reader's language: discord.py's ``Translator`` over our catalog.

discord.py wraps every command, option and choice name and description in a ``locale_str``
(``auto_locale_strings``) and, when it syncs, asks this translator for each Discord locale;
the answers become the ``name_localizations`` / ``description_localizations`` Discord shows a
French client. The English text is the key (see :mod:`bot.texts.commands`), so the cogs keep
declaring their commands in plain English.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import CATALOG, DEFAULT_LANGUAGE, language_of

_NAME = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}
_DESCRIPTION = {
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
}


def metadata_key(english: str, location: app_commands.TranslationContextLocation) -> str | None:
    """The catalog key for a piece of command metadata (None: not something we translate)."""
    if location in _NAME:
        return f"cmd.name.{english}"
    if location in _DESCRIPTION:
        return f"cmd.desc.{english}"
    if location is app_commands.TranslationContextLocation.choice_name:
        return f"cmd.choice.{english}"
    return None


def translate_metadata(
    english: str, location: app_commands.TranslationContextLocation, locale: str
) -> str | None:
    """The translation for ``locale``, or None to keep the English (Discord's default)."""
    language = language_of(locale)
    if language == DEFAULT_LANGUAGE:
        return None
    key = metadata_key(english, location)
    entry = CATALOG.get(key) if key is not None else None
    return None if entry is None else entry.get(language)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate_metadata(string.message, context.location, locale.value)
