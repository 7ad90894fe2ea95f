"""``/mt``, the one group of the game's commands, and :class:`GameCog`, the one cog style.

Discord shows the game's commands under one name (``/mt new``, ``/mt end``, ``/mt stats``…),
but they belong to several features, each a cog of its own (``bot/cogs/``). discord.py's
``GroupCog`` makes a group of *one* cog's commands, and a plain cog's app commands are added
to the tree as top-level commands when it loads (``Cog._inject``), so a group shared by
several cogs is built here instead, with discord.py's public pieces only:

- the group is declared once, by :func:`new_group` (name, description, where it may be used);
- a cog is a :class:`GameCog`; its top-level commands are methods decorated with
  ``app_commands.command`` as usual, its ``/mt`` subcommands methods decorated with
  :func:`command` (the same arguments). Those are left alone by discord.py's cog machinery;
  :meth:`GameCog.cog_load` makes each an ``app_commands.Command`` bound to the cog (a bound
  method as the callback, which discord.py unwraps into its binding) and adds it to the bot's
  ``/mt``, creating the group with the first cog; :meth:`GameCog.cog_unload` takes them out
  again, and the group once it is empty (Discord refuses a group without subcommands). So
  cogs load in any order, and ``reload_extension`` gives the same commands back.
- The subcommands are kept in :data:`ORDER`, whatever order the cogs load or reload in: the
  order is part of the payload sent to Discord, whose hash decides whether to sync
  (:mod:`bot.ops.sync`), so a reload must not reshuffle it.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from discord import app_commands
from discord.ext import commands

from bot.ui.host import GameBot
from bot.ui.interactions import IN_DMS
from bot.ui.options import check_options

NAME = "mt"
DESCRIPTION = "Mexican Train games"
#: The server admin's group (bot/cogs/admin.py): a top-level command of its own, because
#: ``default_member_permissions`` hides a whole command, never one subcommand of ``/mt``.
ADMIN_GROUP = "mt-admin"

#: The subcommands of ``/mt`` in the order Discord is sent them (the order they had when one
#: cog declared the group and the others appended theirs: lobby, admin, history, catch-up,
#: stats, schedule). A new subcommand takes its place here, or its cog refuses to load.
ORDER = (
    # bot/cogs/lobby.py
    "new", "join", "leave", "start", "cancel", "computer", "status", "scores", "hint", "rules",
    # bot/cogs/admin.py
    "end", "kick", "undo", "me",
    # bot/cogs/history.py
    "history", "export", "replay",
    # bot/cogs/catchup.py
    "catchup",
    # bot/cogs/stats.py
    "stats", "leaderboard",
    # bot/cogs/timing.py
    "nudge", "away", "mygames",
    # bot/cogs/rating.py (issue 48)
    "rating",
    # bot/cogs/orders.py (issue 46)
    "orders",
)  # fmt: skip

_MARK = "__mt_command__"

_F = TypeVar("_F", bound=Callable[..., Coroutine[Any, Any, Any]])


def new_group() -> app_commands.Group:
    """``/mt`` itself, for one bot's tree (a group owns its children, and tests run several
    bots in one process). Usable in servers and in the bot's DM, where a player may ask about
    their game (:data:`~bot.ui.interactions.IN_DMS`); each subcommand says whether it needs a
    server."""
    return IN_DMS(app_commands.Group(name=NAME, description=DESCRIPTION))


def command(*, name: str, description: str) -> Callable[[_F], _F]:
    """Mark a :class:`GameCog` method as ``/mt <name>``; the ``app_commands`` decorators
    (``describe``, ``choices``, ``guild_only``…) go under it as on any command."""

    def mark(func: _F) -> _F:
        setattr(func, _MARK, (name, description))
        return func

    return mark


def group_of(tree: app_commands.CommandTree[Any]) -> app_commands.Group | None:
    """The tree's ``/mt``, if a cog has made it."""
    found = tree.get_command(NAME)
    if found is not None and not isinstance(found, app_commands.Group):
        raise TypeError(f"/{NAME} is taken by a command that is not a group")
    return found


class GameCog(commands.Cog):
    """A feature's cog: its app commands (top-level and ``/mt``) each check their options
    first (:func:`~bot.ui.options.check_options`), and its ``/mt`` subcommands join the group
    while it is loaded. A subclass that overrides ``cog_load``/``cog_unload`` calls these."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._mt: list[app_commands.Command[Any, ..., Any]] = []

    async def cog_load(self) -> None:
        built: list[app_commands.Command[Any, ..., Any]] = [
            app_commands.command(name=name, description=description)(getattr(self, attr))
            for attr, (name, description) in _marked(type(self))
        ]
        unknown = [c.name for c in built if c.name not in ORDER]
        if unknown:
            raise ValueError(f"/{NAME} {', '.join(unknown)}: not in bot.ui.mt.ORDER")
        group = group_of(self.bot.tree)
        taken = [c.name for c in built if group is not None and group.get_command(c.name)]
        if taken:  # checked first, so a refused cog leaves nothing behind
            raise app_commands.CommandAlreadyRegistered(f"{NAME} {', '.join(taken)}", None)
        if built:
            if group is None:
                group = new_group()
                self.bot.tree.add_command(group)
            for cmd in built:
                group.add_command(cmd)
            _keep_order(group)
        self._mt = built
        # The top-level commands discord.py adds after this hook, and ours: after a reload
        # too, every command refuses an option it does not offer before it runs.
        for each in [*self.walk_app_commands(), *built]:
            if isinstance(each, app_commands.Command) and check_options not in each.checks:
                each.add_check(check_options)

    async def cog_unload(self) -> None:
        group = group_of(self.bot.tree)
        if group is None:
            return
        for cmd in self._mt:
            if group.get_command(cmd.name) is cmd:
                group.remove_command(cmd.name)
        self._mt = []
        if not group.commands:
            self.bot.tree.remove_command(NAME)


def _marked(cls: type) -> list[tuple[str, tuple[str, str]]]:
    """(attribute, (name, description)) of the methods :func:`command` marked, base classes
    first, each in the order written."""
    found: dict[str, tuple[str, str]] = {}
    for klass in reversed(cls.__mro__):
        for attr, value in vars(klass).items():
            mark = getattr(value, _MARK, None)
            if mark is not None:
                found[attr] = mark
    return list(found.items())


def _keep_order(group: app_commands.Group) -> None:
    """Put the group's subcommands back in :data:`ORDER` (``add_command`` appends)."""
    children = sorted(group.commands, key=lambda c: ORDER.index(c.name))
    for child in children:
        group.remove_command(child.name)
    for child in children:
        group.add_command(child)
