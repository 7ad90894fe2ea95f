"""The Discord layer's shared machinery, used by every cog (``bot/cogs``) and by start-up.

``host`` (the bot as the layer sees it), ``interactions`` (the error funnel, replies, finding
the game), ``announcer`` (outcomes -> posts, edits and DMs), ``components`` (persistent
buttons), ``messages`` and ``hints`` (words), ``pictures`` (PNGs), ``language`` and
``translator`` (which language where), ``choices`` (command option choices). Nothing here
imports a cog or :mod:`bot.app`.
"""
