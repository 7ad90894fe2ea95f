"""What players see of their ratings (issue 48): a player's rating and its course, a
server's board, one match's changes. Values only, for the Discord layer (which never sees
the store); the numbers are :mod:`bot.service.ratings`'s.
"""

from __future__ import annotations

import dataclasses

from bot.service.ratings import PROVISIONAL_GAMES, anchor_points, points, spread
from bot.store import Store
from bot.store import ratings as rows_sql


@dataclasses.dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's change in a rated match, in displayed points."""

    seat: int
    user_id: int | None
    computer: str | None
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerRating:
    user_id: int
    #: The conservative rating shown (``mu - 3 sigma``, scaled) and its uncertainty (± points).
    rating: int
    uncertainty: int
    games: int
    #: After each rated match, oldest first (the chart's course).
    course: tuple[int, ...]
    #: The computer levels just below and just above (None: below all, or above all).
    below: str | None
    above: str | None

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def between(rating: int) -> tuple[str | None, str | None]:
    """The computer levels a rating sits between: (the strongest below, the weakest above)."""
    below = above = None
    for level, pts in anchor_points():
        if pts <= rating:
            below = level
        elif above is None:
            above = level
    return below, above


async def player(store: Store, guild_id: int, user_id: int) -> PlayerRating | None:
    """A player's rating in a server (None: no rated match yet)."""
    changes = await rows_sql.player_changes(store, guild_id, user_id)
    if not changes:
        return None
    last = changes[-1]
    rating = points(last.mu_after, last.sigma_after)
    below, above = between(rating)
    return PlayerRating(
        user_id=user_id,
        rating=rating,
        uncertainty=spread(last.sigma_after),
        games=len(changes),
        course=tuple(points(c.mu_after, c.sigma_after) for c in changes),
        below=below,
        above=above,
    )


async def board(store: Store, guild_id: int, limit: int = 10) -> list[PlayerRating]:
    """The server's players by rating, best first (ties: more games, then the user id)."""
    rows = await rows_sql.guild_ratings(store, guild_id)
    people = []
    for r in rows:
        rating = points(r.mu, r.sigma)
        below, above = between(rating)
        people.append(PlayerRating(r.user_id, rating, spread(r.sigma), r.games, (), below, above))
    people.sort(key=lambda p: (-p.rating, -p.games, p.user_id))
    return people[:limit]


async def match_changes(store: Store, game_id: int) -> list[RatingChange]:
    """A match's changes by seat (empty: not rated); computers' are their fixed anchors."""
    return [
        RatingChange(
            c.seat, c.user_id, c.computer,
            points(c.mu_before, c.sigma_before), points(c.mu_after, c.sigma_after),
        )
        for c in await rows_sql.game_changes(store, game_id)
    ]  # fmt: skip
