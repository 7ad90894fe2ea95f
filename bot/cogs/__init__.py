"""The cogs: one extension per command group, loaded by name in ``setup_hook``.

Each parses and checks an interaction, calls the service, and hands the outcome to
:mod:`bot.ui.announcer`; none imports another (only :mod:`bot.cogs.schedule`, the extension
entry of :mod:`bot.cogs.timing`).
"""
