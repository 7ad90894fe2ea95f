"""The extension that plays games across time zones: the cog is :mod:`bot.cogs.timing`.

discord.py executes an extension as a fresh module object at every load (and forgets it and
its submodules at unload), so the cog class lives in that plain module instead: every bot, and
the tests, then use one class.
"""

from __future__ import annotations

from discord.ext import commands

from bot.cogs.timing import ScheduleCog
from bot.ui.host import GameBot


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(ScheduleCog(bot))


async def teardown(bot: commands.Bot) -> None:
    # discord.py unloads with an extension only the cogs defined in its module (or below),
    # and this cog's class lives in bot.cogs.timing: without this, a reload found it loaded.
    await bot.remove_cog(ScheduleCog.__cog_name__)
