"""Ratings in words (issue 48): a number as the reader writes it, one player's change at a
match's end ("+23 → 1,412"), and the line of every player's change for the end post."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import language_of, tr
from bot.service.outcome import Player
from bot.service.ratingviews import RatingChange
from bot.ui.host import GameBot


def number(n: int, locale: str | None) -> str:
    """1,412 in English, 1 412 in French (a narrow no-break space)."""
    text = f"{abs(n):,}"
    if language_of(locale) == "fr":
        text = text.replace(",", "\u202f")
    return ("-" if n < 0 else "") + text


def change_text(c: RatingChange, locale: str | None) -> str:
    """The change, e.g. "+23 → 1,412" ("±0 → 1,412" when it did not move)."""
    sign = "+" if c.delta > 0 else "-" if c.delta < 0 else "±"
    return f"{sign}{number(abs(c.delta), locale)} → {number(c.after, locale)}"


def mine_line(changes: Sequence[RatingChange], user_id: int, locale: str | None) -> str:
    """The reader's own change ("Your rating: +23 → 1,412."), or "" when not rated."""
    mine = next((c for c in changes if c.user_id == user_id), None)
    return "" if mine is None else tr("end.rating.mine", locale, change=change_text(mine, locale))


def all_line(changes: Sequence[RatingChange], names: Mapping[int, str], locale: str | None) -> str:
    """Every rated human's change, by seat ("Ratings: Alice +23 → 1,412 · Bob -9 → 1,377"),
    or "" when the match was not rated. Computers are anchors: they do not move."""
    parts = [
        f"{names.get(c.seat, '?')} {change_text(c, locale)}"
        for c in changes
        if c.user_id is not None
    ]
    return tr("end.rating.all", locale, changes=" · ".join(parts)) if parts else ""


async def end_line(bot: GameBot, game_id: int, players: Sequence[Player], locale: str | None
                   ) -> list[str]:  # fmt: skip
    """The end post's line of every player's change ([] when the match was not rated)."""
    changes = await bot.service.rating_changes(game_id)
    line = all_line(changes, {p.seat: p.name for p in players}, locale)
    return [line] if line else []
