"""Ratings in words (issue 48): a number as the reader writes it, one player's change at a
match's end ("+23 → 1,412"), the line of every player's change for the end post, ``/mt
rating``'s answer and chart description, and the leaderboard by rating (which ``/mt
leaderboard`` shows from the stats cog: cogs never import each other)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import language_of, tr
from bot.service.outcome import Player
from bot.service.ratings import PROVISIONAL_GAMES, anchor_points
from bot.service.ratingviews import PlayerRating, RatingChange
from bot.ui.host import GameBot
from bot.ui.limits import shown


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
        f"{shown(names.get(c.seat, '?'))} {change_text(c, locale)}"
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


def level_name(level: str, locale: str | None) -> str:
    """A computer level's name in the reader's language ("Hard", "Difficile")."""
    return tr(f"level.{level}", locale)


def anchor_labels(locale: str | None) -> list[tuple[str, int]]:
    """The computer levels' fixed ratings, named, for the marks on the rating chart."""
    return [(level_name(level, locale), points) for level, points in anchor_points()]


def rating_text(r: PlayerRating | None, name: str, locale: str | None) -> str:
    """``/mt rating``'s answer: the rating and its uncertainty, the matches, provisional or
    not, where it sits among the computer levels, and what the number means."""
    if r is None:
        return tr("rating.none", locale, name=name)
    lines = [
        "**" + tr("rating.title", locale, name=name) + "**",
        tr("rating.value", locale, rating=number(r.rating, locale),
           spread=number(r.uncertainty, locale)),
        tr("rating.games", locale, games=r.games),
    ]  # fmt: skip
    if r.provisional:
        lines.append(
            tr("rating.provisional", locale, n=PROVISIONAL_GAMES, left=PROVISIONAL_GAMES - r.games)
        )
    anchors = dict(anchor_points())
    if r.below is not None and r.above is not None:
        lines.append(tr("rating.between", locale, below=level_name(r.below, locale),
                        above=level_name(r.above, locale)))  # fmt: skip
    elif r.above is None and r.below is not None:
        lines.append(tr("rating.above-all", locale, level=level_name(r.below, locale),
                        rating=number(anchors[r.below], locale)))  # fmt: skip
    elif r.above is not None:
        lines.append(tr("rating.below-all", locale, level=level_name(r.above, locale),
                        rating=number(anchors[r.above], locale)))  # fmt: skip
    lines.append(tr("rating.scale", locale))
    return "\n".join(lines)


def rating_board_text(people: list[PlayerRating], locale: str | None) -> str:
    """The leaderboard by rating; equal ratings share a place ("1, 1, 3")."""
    if not people:
        return tr("leaderboard.rating.empty", locale)
    head = tr("leaderboard.title", locale)
    lines = [f"**{head}** · " + tr("leaderboard.by-rating", locale)]
    ratings = [p.rating for p in people]
    for p in people:
        lines.append(
            tr(
                "leaderboard.rating.line",
                locale,
                place=ratings.index(p.rating) + 1,
                mention=f"<@{p.user_id}>",
                rating=number(p.rating, locale),
                games=p.games,
                provisional=tr("leaderboard.provisional", locale) if p.provisional else "",
            )
        )
    return "\n".join(lines)


def describe_rating_chart(name: str, course: tuple[int, ...], locale: str | None) -> str:
    return tr("alt.rating", locale, name=name, n=len(course),
              first=number(course[0], locale), last=number(course[-1], locale))  # fmt: skip
