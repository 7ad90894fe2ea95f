"""Every slash command's options checked against what the command declared, before it runs.

Discord's client only offers the declared choices and lengths, but a client can send any
value (and a command synced long ago may carry other choices than the running code): a
forged ``level:godlike`` or a 6,000-character tile would reach the command's body, which
turns values into enums and rules. :func:`install` adds one check to every command of the
tree; the check compares each option the interaction carries with the command's own
parameter (its choices, its string length, its number range, its type) and refuses the
first that does not fit, naming the option and quoting the value short, before anything is
read or written. Autocomplete has its own guard, :func:`quiet_autocomplete`: suggestions are
a courtesy, so any failure there is an empty list, never an unanswered interaction.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from discord import AppCommandOptionType, app_commands

from bot.service.errors import unreachable
from bot.ui import limits
from bot.ui.faults import quote_input
from bot.ui.interactions import Interaction, Refusal, RefusedCheck, locale_of
from bot.ui.translator import translate_metadata

log = logging.getLogger(__name__)

_P = ParamSpec("_P")
_T = TypeVar("_T", str, int, float)

#: Option types whose value the check reads (the others are resolved objects: users, roles).
_STRING, _INTEGER, _NUMBER, _BOOLEAN = (
    AppCommandOptionType.string,
    AppCommandOptionType.integer,
    AppCommandOptionType.number,
    AppCommandOptionType.boolean,
)


#: The largest integer Discord sends in an option (JavaScript's safe integers).
DISCORD_INT = 2**53


def check_options(interaction: Interaction) -> bool:
    """The check :func:`install` adds: True, or a :class:`RefusedCheck` naming the option."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    namespace = interaction.namespace
    locale = locale_of(interaction)
    for param in command.parameters:
        value = getattr(namespace, param.display_name, None)
        if value is None:
            continue
        refusal = _refusal(param, value, locale)
        if refusal is not None:
            raise RefusedCheck(refusal)
    return True


def _refusal(param: app_commands.Parameter, value: object, locale: str) -> Refusal | None:
    """Why ``value`` does not fit ``param``, in the reader's words (option and choice names
    as their Discord client shows them), or None."""
    where = app_commands.TranslationContextLocation
    name = translate_metadata(param.display_name, where.parameter_name, locale)
    name = name or param.display_name
    kind = param.type
    choices = param.choices
    if choices:
        if any(value == c.value and type(value) is type(c.value) for c in choices):
            return None
        offered = ", ".join(
            translate_metadata(c.name, where.choice_name, locale) or c.name for c in choices[:10]
        )
        return Refusal("error.bad-choice", option=name, value=quote_input(value), choices=offered)
    if kind is _STRING:
        if not isinstance(value, str):
            return Refusal("error.bad-option", option=name)
        low, high = param.min_value, param.max_value
        if high is not None and len(value) > high:
            return Refusal("error.too-long", option=name, limit=int(high))
        if low is not None and len(value) < low:
            return Refusal("error.too-short", option=name, limit=int(low))
    elif kind in (_INTEGER, _NUMBER):
        numeric = int if kind is _INTEGER else int | float
        if isinstance(value, bool) or not isinstance(value, numeric):
            return Refusal("error.bad-option", option=name)
        # Discord's integers stay within ±2**53 whatever the option says: a larger one is
        # forged, and would overflow the database's 64-bit integers further down.
        low = -DISCORD_INT if param.min_value is None else param.min_value
        high = DISCORD_INT if param.max_value is None else param.max_value
        if not low <= value <= high:
            shown = [int(x) if kind is _INTEGER else x for x in (low, high)]
            return Refusal("error.out-of-range", option=name, low=shown[0], high=shown[1])
    elif kind is _BOOLEAN and not isinstance(value, bool):
        return Refusal("error.bad-option", option=name)
    return None


def install(tree: app_commands.CommandTree[Any]) -> int:
    """Add :func:`check_options` to every command of ``tree`` (once); how many have it."""
    count = 0
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            if check_options not in command.checks:
                command.add_check(check_options)
            count += 1
    return count


def quiet_autocomplete(
    func: Callable[_P, Coroutine[Any, Any, list[app_commands.Choice[_T]]]],
) -> Callable[_P, Coroutine[Any, Any, list[app_commands.Choice[_T]]]]:
    """An autocomplete callback that always answers in time: at most 25 choices that fit
    Discord's limits, and an empty list when anything fails (a database outage included,
    which the next command will report), since discord.py leaves a failed autocomplete
    unanswered."""

    @functools.wraps(func)
    async def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> list[app_commands.Choice[_T]]:
        try:
            choices = await func(*args, **kwargs)
        except Exception as error:
            reason = unreachable(error)
            if reason is None:
                log.warning("autocomplete %s failed: %r", func.__qualname__, error)
            else:
                log.debug("autocomplete %s: %s", func.__qualname__, reason)
            return []
        return limits.fit_choices(choices)

    return wrapper
