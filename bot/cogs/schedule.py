"""The extension that plays games across time zones: see :mod:`bot.cogs.timing`.

The cog lives in a plain module because ``load_extension`` executes an extension as a fresh
module object, and the lobby cog imports the same helpers: one class, one registry.
"""

from __future__ import annotations

from discord.ext import commands

from bot.app import MexicanTrainBot
from bot.cogs.timing import ScheduleCog


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, MexicanTrainBot)
    await bot.add_cog(ScheduleCog(bot))
