"""The cogs: one extension per feature, loaded by name in ``setup_hook``; each cog is a
:class:`~bot.ui.mt.GameCog` whose ``/mt`` subcommands join the group while it is loaded.

Each parses and checks an interaction, calls the service, and hands the outcome to
:mod:`bot.ui.announcer`; none imports another (only :mod:`bot.cogs.schedule`, the extension
entry of :mod:`bot.cogs.timing`).
"""
