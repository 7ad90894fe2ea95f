"""The tiles' emojis uploaded to the bot's own application, once (issue 47): see
:mod:`bot.ui.tileemoji` for what, why and how they are paced."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.ui.host import GameBot
from bot.ui.tileemoji import SET

log = logging.getLogger(__name__)

#: Seconds between two uploads (at least): see bot/ui/tileemoji.py.
PACE = 2.0
#: Discord's cap on an application's emojis ("An application can own up to 2000 emojis").
CAP = 2000
#: A process that does not upload lists again after these pauses (s) while the set is not whole.
RELIST = (300.0, 900.0, 3600.0)
#: Seconds between the set forgotten (an emoji of it deleted while the bot runs, refused by
#: Discord: bot/ui/tileheal.py) and the list that finds what is missing: whoever deletes
#: several in the portal has a minute to finish before the bot uploads them again.
HEAL_AFTER = 60.0


async def keep_tile_emojis(bot: GameBot) -> None:
    """List the application's emojis, remember the tiles', upload the missing ones (this
    process, if it uploads: see the module's docstring), :data:`PACE` seconds apart; once
    the set is whole, wait until it is forgotten (``TileEmojis.lost``) and do it again
    :data:`HEAL_AFTER` seconds later. Never raises: a failure is logged and leaves the
    controls as text (until the next start)."""
    await bot.wait_until_ready()
    cfg = bot.config
    uploads = cfg.shard_ids is None or 0 in cfg.shard_ids
    known = bot.tile_emojis
    while await _make_whole(bot, uploads):
        await known.lost.wait()
        known.lost.clear()
        await asyncio.sleep(HEAL_AFTER)


async def _make_whole(bot: GameBot, uploads: bool) -> bool:
    """List (and upload) until the set is whole: whether it is."""
    for pause in (0.0, *(() if uploads else RELIST)):
        await asyncio.sleep(pause)
        owned = await _list(bot)
        if owned is None or bot.tile_emojis.whole:
            return owned is not None
        if uploads:
            await _upload(bot, owned, PACE)
            return bot.tile_emojis.whole
    return False


async def _list(bot: GameBot) -> int | None:
    """The application's emojis listed and the tiles' noted: how many it owns (None: the
    list was refused)."""
    try:
        owned = await bot.fetch_application_emojis()
    except (discord.HTTPException, discord.MissingApplicationID) as exc:
        log.warning("tile emojis: could not list the application's emojis (%s): text only", exc)
        return None
    for emoji in owned:
        bot.tile_emojis.note(emoji.name, emoji.id)
    return len(owned)


async def _upload(bot: GameBot, owned: int, pace: float) -> None:
    from renderers.emoji import tile_png  # Pillow's drawing, only when something is missing

    missing = bot.tile_emojis.missing
    if owned + len(missing) > CAP:
        log.warning(
            "tile emojis: the application owns %d emojis, %d more would pass Discord's %d: "
            "none uploaded, the controls show text", owned, len(missing), CAP,
        )  # fmt: skip
        return
    log.info("tile emojis: uploading %d to the application, one every %.0f s", len(missing), pace)
    for n, name in enumerate(missing):
        await asyncio.sleep(pace)
        while not bot.budget.idle():  # never ahead of a turn's request
            await asyncio.sleep(max(bot.budget.delay(), 0.05))
        tile = SET[name]
        image = await asyncio.to_thread(tile_png, tile.high, tile.low)
        try:
            made = await bot.create_application_emoji(name=name, image=image)
        except (discord.HTTPException, discord.MissingApplicationID) as exc:
            log.warning(
                "tile emojis: %s refused after %d of %d (%s): the controls show text; the "
                "next start uploads the rest", name, n, len(missing), exc,
            )  # fmt: skip
            return
        bot.tile_emojis.note(name, made.id)
    log.info("tile emojis: all %d of the set uploaded", len(SET))
