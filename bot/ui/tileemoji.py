"""The tiles as pictures on the controls (issue 47): application emojis of the tiles.

Discord lets an application own up to 2,000 emojis of its own, usable by that app anywhere
without Use External Emojis (Emoji resource, "Application-Owned Emoji"). The bot keeps one
per tile of the double-18 set (190: every smaller set is in it), named ``mt_<high>_<low>``
(:func:`emoji_name`), drawn by :mod:`renderers.emoji`. A move list's option (and a button
that names a tile) then shows the tile's picture beside its notation; the notation stays the
option's text, which is what a screen reader says.

At start (``keep_tile_emojis`` in :mod:`bot.ui.tileupload`, in the background once the
bot is ready; nothing waits for it): list the application's emojis (one request), remember
the tiles' ids in memory (:class:`TileEmojis`, on the bot), and upload the missing ones, one
at a time, each only when the request budget has nothing waiting or due
(``RequestBudget.idle``) and ``PACE`` (2) seconds after the last: 190 uploads take about 6½
minutes, never more than one request in 2 s (1 % of the 45 a second the bot allows itself)
and never ahead of a turn's request. A restart lists again and uploads nothing. Until the
whole set is known (a list or an upload refused, the first start still uploading,
``MT_TILE_EMOJIS=0``) the controls show text alone, as before: :attr:`TileEmojis.shown` is
empty. In a cluster only the process that runs shard 0 uploads (two would race to
make the same names); the others list again later until the set is whole.

An emoji deleted while the bot runs (in the Developer Portal, or by anyone with the token)
is noticed on the first message that shows it: Discord refuses that whole message (400/50035
on the component's ``emoji.id``); :mod:`bot.ui.tileheal` sends it again without the emojis,
:meth:`TileEmojis.forget` empties :attr:`~TileEmojis.shown` (every later control is text)
and wakes the keeper, which lists again and uploads what is missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import discord

from bot.engine import Tile
from bot.engine.tiles import MAX_PIP, double_set


def emoji_name(tile: Tile) -> str:
    """The tile's emoji: ``mt_12_5`` (higher end first, as ``12-5``); 2-32 characters of
    ``A-Za-z0-9_``, as Discord takes an emoji's name."""
    return f"mt_{tile.high}_{tile.low}"


#: Every emoji of the set, by name.
SET = {emoji_name(t): t for t in double_set(MAX_PIP)}


class TileEmojis:
    """The tiles' emojis this process knows (name -> id); :attr:`shown`, what the controls
    show, is empty until the set is whole, then every tile's."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        #: Tile -> its emoji, for the controls: a plain mapping, so a move list reads it
        #: without running this module's code (a move's path stays within its modules).
        self.shown: dict[Tile, discord.PartialEmoji] = {}
        #: Set when the set shown was forgotten (:meth:`forget`): the keeper lists again.
        self.lost = asyncio.Event()

    def note(self, name: str, emoji_id: int) -> None:
        if name in SET:
            self._ids[name] = emoji_id
        if self.whole and not self.shown:
            self.shown.update(
                (tile, discord.PartialEmoji(name=name, id=self._ids[name]))
                for name, tile in SET.items()
            )

    @property
    def missing(self) -> list[str]:
        return [name for name in SET if name not in self._ids]

    @property
    def whole(self) -> bool:
        return len(self._ids) == len(SET)

    def forget(self, refused: Iterable[int]) -> bool:
        """Discord refused a message that showed the emojis ``refused`` (ids): one of them
        was deleted since it was listed. When one is the set shown now, forget the whole set
        (:attr:`shown` emptied: every later control is text) and wake the keeper; True then.
        False for an id already forgotten (a message built before, refused after)."""
        if not {e.id for e in self.shown.values()} & set(refused):
            return False
        self._ids.clear()
        self.shown.clear()
        self.lost.set()
        return True
