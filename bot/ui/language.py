"""Which language the bot speaks where: the server's setting for channel messages, and a
player's language for their DMs.

* **Channel messages** (lobby cards, table messages, their buttons and pictures) are in the
  server's language: the one chosen with ``/mt settings language:``, else the server's own
  Discord locale, else English. The choices are kept in memory per bot (loaded at start-up,
  updated by the setting), because every table message needs them and must not wait on a read.
* **Answers only you see** follow your Discord client's language (``interaction.locale``).
* **DMs** (your hand) are in the language of ``/mt me language:``; a player who never chose
  gets the language of their Discord client when they first open or join a game.
"""

from __future__ import annotations

import weakref
from datetime import datetime

import discord

from bot.i18n import LANGUAGES, language_of
from bot.service import GameService
from bot.ui.host import GameBot

_SERVER: weakref.WeakKeyDictionary[discord.Client, dict[int, str]] = weakref.WeakKeyDictionary()


async def load(client: discord.Client, service: GameService) -> None:
    """Read every server's chosen language (at start-up)."""
    _SERVER[client] = await service.server_languages()


async def refresh(client: discord.Client, service: GameService, guild_id: int) -> None:
    """Read one server's choice again: in a cluster the server's own process changes it
    (``/mt settings`` arrives there), and another process posting in that server (its
    scheduler took the work) must not use what it read at start-up."""
    chosen = _SERVER.setdefault(client, {})
    language = await service.server_language(guild_id)
    if language is None:
        chosen.pop(guild_id, None)
    else:
        chosen[guild_id] = language


def server_language(client: discord.Client | None, guild_id: int | None) -> str | None:
    if client is None or guild_id is None:
        return None
    return _SERVER.get(client, {}).get(guild_id)


async def set_server_language(
    client: discord.Client,
    service: GameService,
    guild_id: int,
    language: str | None,
    now: datetime,
) -> None:
    """Choose (or with None, forget) a server's language for channel messages."""
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    await service.set_server_language(guild_id, language, now)
    chosen = _SERVER.setdefault(client, {})
    if language is None:
        chosen.pop(guild_id, None)
    else:
        chosen[guild_id] = language


def channel_language(
    client: discord.Client | None,
    guild_id: int | None,
    guild_locale: str | None = None,
) -> str:
    """The language of messages a whole channel reads."""
    chosen = server_language(client, guild_id)
    if chosen is not None:
        return chosen
    if guild_locale is None and client is not None and guild_id is not None:
        guild = client.get_guild(guild_id)
        if guild is not None:
            guild_locale = str(guild.preferred_locale)
    return language_of(guild_locale)


async def remember_client_language(client: GameBot, user_id: int, locale: str | None) -> None:
    """A player's first game: their DMs will be in their Discord client's language, unless
    they already have settings (then they chose, or keep what they had)."""
    service = client.service
    language = language_of(locale)
    if await service.has_user_settings(user_id):
        return
    await service.update_user_settings(user_id, client.now(), language=language)
