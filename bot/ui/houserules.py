"""The house-rule options of ``/mt new`` and ``/mt settings``, built from one table.

:data:`bot.texts.houserules.HOUSE_OPTIONS` says each option's name, descriptions and choices
(the French come from the same rows through the catalogue); this module turns the table into
what the cogs' decorators take (``@app_commands.describe(**NEW_DESCRIPTIONS)``,
``@app_commands.choices(**HOUSE_CHOICES)``) and turns the values a command received back into
house rules (:func:`rules_from_options`). The parameters themselves stay in each command's
signature, where discord.py reads their types; ``tests/cogs/test_houserules.py`` checks both agree.
"""

from __future__ import annotations

from discord import app_commands

from bot.texts.houserules import HOUSE_OPTIONS, HouseOption

_BY_NAME: dict[str, HouseOption] = {o.name.en: o for o in HOUSE_OPTIONS}

#: ``/mt new``'s description of each house-rule option.
NEW_DESCRIPTIONS: dict[str, str] = {o.name.en: o.new.en for o in HOUSE_OPTIONS}
#: ``/mt settings``' description of each house rule a server may set as its default.
DEFAULT_DESCRIPTIONS: dict[str, str] = {
    o.name.en: o.default.en for o in HOUSE_OPTIONS if o.default is not None
}
#: The choices of each house-rule option that has a fixed list.
HOUSE_CHOICES: dict[str, list[app_commands.Choice[str]]] = {
    o.name.en: [app_commands.Choice(name=words.en, value=value) for value, words in o.choices]
    for o in HOUSE_OPTIONS
    if o.choices
}


def rules_from_options(**given: object) -> dict[str, object]:
    """The house rules the options given set, keyed by rule, in the table's order; an
    option left out (``None``) sets nothing."""
    unknown = set(given) - set(_BY_NAME)
    if unknown:
        raise TypeError(f"not a house-rule option: {', '.join(sorted(unknown))}")
    out: dict[str, object] = {}
    for option in HOUSE_OPTIONS:
        value = given.get(option.name.en)
        if value is None:
            continue
        if option.on_off is not None:
            value = option.on_off[0] if value else option.on_off[1]
        out[option.rule] = value
    return out
