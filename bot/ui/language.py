"""Which language the bot speaks where: the server's setting for channel messages, and a
player's language for their DMs.

* **Channel messages** (lobby cards, table messages, their buttons and pictures) are in the
  server's language: the one chosen with ``/mt-admin settings language:``, else the server's own
  Discord locale, else English (:func:`bot.ui.interactions.channel_locale`). The choices are
  kept in memory on the bot (``GameBot.languages``: loaded at start-up, updated by the
  setting), because every table message needs them and must not wait on a read.
* **Answers only you see** follow your Discord client's language (``interaction.locale``).
* **DMs** (your hand) are in the language of ``/mt me language:``; a player who never chose
  gets the language of their Discord client when they first open or join a game.
"""

from __future__ import annotations

from datetime import datetime

from bot.i18n import LANGUAGES, language_of
from bot.service import GameService
from bot.ui.host import GameBot


async def load(bot: GameBot, service: GameService) -> None:
    """Read every server's chosen language (at start-up)."""
    bot.languages = await service.server_languages()


async def refresh(bot: GameBot, service: GameService, guild_id: int) -> None:
    """Read one server's choice again: in a cluster the server's own process changes it
    (``/mt-admin settings`` arrives there), and another process posting in that server (its
    scheduler took the work) must not use what it read at start-up."""
    language = await service.server_language(guild_id)
    if language is None:
        bot.languages.pop(guild_id, None)
    else:
        bot.languages[guild_id] = language


def server_language(bot: GameBot, guild_id: int | None) -> str | None:
    return None if guild_id is None else bot.languages.get(guild_id)


async def set_server_language(
    bot: GameBot,
    service: GameService,
    guild_id: int,
    language: str | None,
    now: datetime,
) -> None:
    """Choose (or with None, forget) a server's language for channel messages."""
    if language is not None and language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    await service.set_server_language(guild_id, language, now)
    if language is None:
        bot.languages.pop(guild_id, None)
    else:
        bot.languages[guild_id] = language


async def remember_client_language(client: GameBot, user_id: int, locale: str | None) -> None:
    """A player's first game: their DMs will be in their Discord client's language, unless
    they already have settings (then they chose, or keep what they had)."""
    service = client.service
    language = language_of(locale)
    if await service.has_user_settings(user_id):
        return
    await service.update_user_settings(user_id, client.now(), language=language)
