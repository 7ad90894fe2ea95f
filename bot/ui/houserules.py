"""The house-rule options of ``/mt new`` and ``/mt-admin settings``, built from one table.

:data:`bot.texts.houserules.HOUSE_OPTIONS` says each option's name, descriptions and choices
(the French come from the same rows through the catalogue); this module turns the table into
what the cogs' decorators take (``@app_commands.describe(**NEW_DESCRIPTIONS)``,
``@app_commands.choices(**HOUSE_CHOICES)``) and turns the values a command received back into
house rules (:func:`rules_from_options`). The parameters themselves stay in each command's
signature, where discord.py reads their types; ``tests/cogs/test_houserules.py`` checks both agree.

A game's rules are told here too (:func:`rules_text`, on the lobby card and in
``/mt status rules:True``): the preset, and the house rules as what the host changed on top
of it.
"""

from __future__ import annotations

from discord import app_commands

from bot.engine import PRESETS, Rules
from bot.i18n import CATALOG, tr, tr_count
from bot.service import GameSummary
from bot.texts.houserules import HOUSE_OPTIONS, HouseOption

_BY_NAME: dict[str, HouseOption] = {o.name.en: o for o in HOUSE_OPTIONS}

#: ``/mt new``'s description of each house-rule option.
NEW_DESCRIPTIONS: dict[str, str] = {o.name.en: o.new.en for o in HOUSE_OPTIONS}
#: ``/mt-admin settings``' description of each house rule a server may set as its default.
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


# ---------------------------------------------------------------------- the rules in words


def rules_text(summary: GameSummary, locale: str | None) -> str:
    """A game's rules as the lobby card and ``/mt status rules:True`` tell them: the preset,
    the set and rounds, what the host changed on top of the preset, the turn deadline."""
    rules = summary.rules
    lines = [tr("rules.preset", locale, preset=summary.preset)]
    lines.append(
        tr(
            "rules.basics",
            locale,
            set=f"double-{rules.max_pip}",
            rounds=tr_count("count.rounds", rules.rounds_total, locale),
            low=rules.player_range[0],
            high=rules.player_range[1],
        )
    )
    # House rules are what the host changed on top of the preset they chose: a quick game's
    # one round is the preset's, already said above, not a house rule of theirs.
    chosen = PRESETS.get(summary.preset, Rules()).to_dict()
    house = {k: v for k, v in rules.to_dict().items() if chosen.get(k) != v}
    house.pop("max_pip", None)
    if house:
        lines.append(tr("rules.house", locale, rules=house_rules_text(rules, house, locale)))
    if summary.options.turn_deadline is not None:
        hours = summary.options.turn_deadline.total_seconds() / 3600
        lines.append(tr("rules.deadline", locale, hours=f"{hours:g}"))
    return "\n".join(lines)


def house_rules_text(rules: Rules, house: dict[str, object], locale: str | None) -> str:
    parts = []
    for key, value in sorted(house.items()):
        if isinstance(value, bool):
            shown = tr("word.on" if value else "word.off", locale)
        else:
            shown = str(value)
        name = tr(f"rule.{key}", locale) if f"rule.{key}" in CATALOG else key.replace("_", " ")
        parts.append(tr("rules.house.item", locale, name=name, value=shown))
    return ", ".join(parts)
