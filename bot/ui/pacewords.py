"""A match's expected length in words (issue 46): the lobby card's field, the line in the
answer to ``/mt new`` and the ``rounds:`` suggestions there ("short: 5 rounds, about 4 weeks at 4
players"). The figures come from the pace model (:mod:`bot.service.pace`)."""

from __future__ import annotations

from discord import app_commands

from bot.engine import PRESETS, Rules, RulesError
from bot.i18n import tr
from bot.service import GameSummary
from bot.service.pace import ASSUMED_SEATS, Length, expected_length, shorter_rounds
from bot.ui.interactions import Interaction, bot_of, locale_of


def how_long(days: float, locale: str | None) -> str:
    """ "about 3 weeks": days up to two weeks, weeks up to about two months, then months."""
    if days < 1:
        return tr("pace.under-a-day", locale)
    if days < 13.5:
        return tr("pace.days", locale, count=max(1, round(days)))
    if days < 60:
        return tr("pace.weeks", locale, count=round(days / 7))
    return tr("pace.months", locale, count=round(days / 30.4))


def table_length(game: GameSummary, rounds: int | None = None) -> Length:
    """This table's expected length (with ``rounds`` rounds: another count): the seats taken
    (the usual table while fewer joined; computer seats never wait)."""
    seats = max(len(game.players), ASSUMED_SEATS)
    computers = sum(1 for p in game.players if p.is_computer)
    rules = game.rules if rounds is None else game.rules.replace(rounds=rounds)
    return expected_length(rules, seats, seats - computers)


def length_text(game: GameSummary, locale: str | None) -> str:
    """The lobby card's and ``/mt new``'s lines: how long, and how to make it shorter."""
    length = table_length(game)
    text = tr(
        "pace.length",
        locale,
        how_long=how_long(length.days, locale),
        rounds=length.rounds,
        seats=length.seats,
    )
    shorter = [n for n in shorter_rounds(game.rules) if n < length.rounds]
    if not shorter:
        return text
    short = table_length(game, shorter[-1])
    return (
        text
        + "\n"
        + tr("pace.shorter", locale, rounds=short.rounds, how_long=how_long(short.days, locale))
    )


def round_choices(
    rules: Rules, typed: str, locale: str | None, seats: int = ASSUMED_SEATS
) -> list[app_commands.Choice[int]]:
    """``/mt new rounds:`` suggestions for ``rules``: full, half, short, each with its length
    at ``seats`` players; a number typed first, with its own."""
    total = rules.first_double + 1
    picks: list[tuple[str, int]] = []
    digits = typed.strip()
    if digits.isdigit() and 1 <= int(digits) <= total:
        picks.append(("typed", int(digits)))
    labels = ("full", "half", "short")
    for label, rounds in zip(labels, shorter_rounds(rules), strict=False):
        if all(rounds != n for _, n in picks):
            picks.append((label, rounds))
    out = []
    for label, rounds in picks:
        length = expected_length(rules.replace(rounds=rounds), seats)
        name = tr(
            "pace.choice",
            locale,
            label=tr(f"pace.label.{label}", locale),
            rounds=rounds,
            how_long=how_long(length.days, locale),
            seats=length.seats,
        )
        out.append(app_commands.Choice(name=name[:100], value=rounds))
    return out


async def rounds_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """``/mt new rounds:``: the lengths of the preset chosen so far (else the server's
    default), its starting double too."""
    namespace = interaction.namespace
    name = getattr(namespace, "preset", None)
    if name is None and interaction.guild_id is not None:
        name = (await bot_of(interaction).service.guild_settings(interaction.guild_id)).preset
    rules = PRESETS.get(str(name), PRESETS["standard"])
    start = getattr(namespace, "starting_double", None)
    try:
        if isinstance(start, int) and 0 <= start <= rules.max_pip:
            rules = rules.replace(starting_double=start, rounds=None).check()
    except RulesError:
        pass  # (a starting double these rules refuse: /mt new says why; the preset's lengths)
    return round_choices(rules, str(current), locale_of(interaction))
