"""Seasons (issue 48): a server admin opens one (a name, its dates, the rules of its rated
games, the league's deadline and vacation allowance); the host of ``/mt new`` chooses rated
or casual; the standings; the season's end, once.

**Rated or casual.** A game is rated unless its host chose casual (``/mt new rated:False``;
``game_rated``). While a season runs, a rated game plays the season's rules: ``/mt new`` with
rule options of its own is casual unless the host asks ``rated:True``, which is refused (the
rules are the season's). A rematch keeps its game's rules: it is casual after a casual game,
and while a season runs rated only when those rules are the season's. A game without a row is
rated, as every game was before seasons.

**Standings** are read from the ratings' own rows (``rating_changes``, :mod:`bot.service.ratings`):
the players with a rated match that finished within the season's dates, by their rating after
their last match of it. Nothing is stored twice, so ``rebuild`` rebuilds the standings too,
and two matches ending at once (folded one after the other under the server's rating lock)
both count.

**Ratings carry over** unchanged into the next season (``docs/players.md`` says why): the
fold is one series from a server's first rated match, so a rating means the same thing on
either side of a season's end and ``rebuild`` needs no season boundaries.

**The league** of a season opened before its start is opened by the scheduler at the start
(its tables formed, each game opened); a season that starts at once leaves it to the admin
(``/mt-admin league action:start``), so players have time to sign up.

**The end** is fired by the scheduler (:meth:`Seasons.due`): one transaction reads the season
under a lock, ends it, records the league's moves up and down (:mod:`bot.service.league`) and
owes its end post (``post_owed``); the Discord layer posts it (a nonce named from the season)
and clears the debt. A crash between the two posts it at the restart; two processes end it once.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from bot.engine import PRESETS, Rules
from bot.service.errors import ServiceError
from bot.service.league import League, LeagueMove
from bot.service.outbox import Pinged, pinged
from bot.service.outcome import Player
from bot.service.ratings import points
from bot.service.settings import preset_rules, rules_with
from bot.store import GameStatus, Store
from bot.store import ratings as rating_rows
from bot.store import seasons as rows
from bot.store.seasons import SeasonRow, TableLink

__all__ = ["RatedChoice", "SeasonEnd", "SeasonRefused", "SeasonRow", "SeasonWork", "Seasons",
           "StandingRow", "TableLink", "house_rules_of", "running"]  # fmt: skip

#: A league game's turn deadline unless the admin says (hours), and its vacation allowance:
#: missed turns in a row the computer plays for an absent player before it keeps the seat.
LEAGUE_DEADLINE = timedelta(hours=24)
VACATION = 3
NAME_MAX = 60
#: How many players the end post shows.
TOP = 10


class SeasonRefused(ServiceError):
    """A season or league request refused (``code``: ``season-…``, ``league-…``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class StandingRow:
    """A player of a season's standings: their rating after their last match of the season,
    its change over the season, and how many rated matches they played in it."""

    user_id: int
    rating: int
    change: int
    games: int


@dataclasses.dataclass(frozen=True, slots=True)
class RatedChoice:
    """What ``/mt new`` opens: rated or not, in which season, and by which rules; ``table``:
    the league table whose game it is (linked in the lobby's own commit)."""

    rated: bool
    season: SeasonRow | None
    preset: str | None
    house_rules: Mapping[str, Any]
    table: TableLink | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SeasonEnd:
    """A season that has ended and whose end post is owed: its top players, every league
    player's move (up, down, or staying: ``before == after``), and the league players' final
    ratings (``ratings``; none for a player never rated)."""

    season: SeasonRow
    standings: tuple[StandingRow, ...]
    moves: tuple[LeagueMove, ...]
    ratings: Mapping[int, int] = dataclasses.field(default_factory=dict)

    @property
    def heard(self) -> Pinged:
        """Who hears of the season's end, by the one ping rule (:func:`pinged`): the post
        pings exactly the players it names (``named``: its top players, the league's players
        moved up or down), and every league player is told their own result (``end``: a DM,
        as their settings allow)."""
        named = [s.user_id for s in self.standings]
        named += [m.user_id for m in self.moves if m.after != m.before]
        league = [Player(i, m.name, m.user_id, None) for i, m in enumerate(self.moves)]
        return pinged(GameStatus.FINISHED, league, None, None, named=named)


@dataclasses.dataclass(frozen=True, slots=True)
class SeasonWork:
    """Due season work: ``open`` its league's tables, ``end`` it, or ``post`` its end."""

    kind: str
    season: SeasonRow


def house_rules_of(season: SeasonRow) -> dict[str, Any]:
    loaded = json.loads(season.rules or "{}")
    return dict(loaded) if isinstance(loaded, dict) else {}


def running(season: SeasonRow | None, now: datetime) -> bool:
    return season is not None and season.status == "open" and season.starts_at <= now


class Seasons:
    """The seasons of every server, over one store; the league is :attr:`league`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.league = League(store)

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        starts_at: datetime,
        ends_at: datetime,
        preset: str,
        house_rules: Mapping[str, Any],
        deadline: timedelta | None,
        vacation: int,
        now: datetime,
    ) -> SeasonRow:
        """Open a season (one at a time per server); refused with a reason that names it."""
        name = " ".join(name.split())
        if not name or len(name) > NAME_MAX:
            raise SeasonRefused("a season's name is 1 to 60 characters", code="season-name")
        if preset not in PRESETS:
            raise SeasonRefused(f"no preset {preset}", code="season-preset", preset=preset)
        if ends_at <= starts_at or ends_at <= now:
            raise SeasonRefused("a season ends after it starts, and after now",
                                code="season-dates")  # fmt: skip
        if not 0 <= vacation <= 10:
            raise SeasonRefused("vacation is 0 to 10 missed turns", code="season-vacation")
        async with self.store.transaction() as tx:
            await rows.lock_seasons(tx)
            current = await rows.open_season(tx, guild_id)
            if current is not None:
                raise SeasonRefused(f"season {current.name} is still open",
                                    code="season-open", name=current.name)  # fmt: skip
            row = SeasonRow(
                0, guild_id, name, starts_at, ends_at, preset, json.dumps(dict(house_rules),
                sort_keys=True), channel_id,
                None if deadline is None else int(deadline.total_seconds()), vacation,
                "open", "signup", False, now,
            )  # fmt: skip
            sid = await rows.insert_season(tx, row)
        return dataclasses.replace(row, id=sid)

    async def current(self, guild_id: int) -> SeasonRow | None:
        """The server's season not yet ended, else its last one."""
        return await rows.open_season(self.store, guild_id) or await rows.last_season(
            self.store, guild_id
        )

    async def rated_choice(
        self,
        guild_id: int,
        rated: bool | None,
        preset: str | None,
        house_rules: Mapping[str, Any],
        now: datetime,
    ) -> RatedChoice:
        """``/mt new``'s rated or casual: see the module's docstring."""
        season = await rows.open_season(self.store, guild_id)
        if not running(season, now):
            return RatedChoice(rated is not False, None, preset, house_rules)
        assert season is not None
        own_rules = preset is not None or bool(house_rules)
        if rated is False or (rated is None and own_rules):
            return RatedChoice(False, season, preset, house_rules)
        if own_rules:
            raise SeasonRefused("rated games play the season's rules",
                                code="season-rules", name=season.name)  # fmt: skip
        return RatedChoice(True, season, season.preset, house_rules_of(season))

    async def rematch_choice(self, old_game_id: int, guild_id: int, rules: Rules,
                             now: datetime) -> RatedChoice:  # fmt: skip
        """A rematch's rated or casual: a casual game's rematch is casual; while a season runs,
        a rematch is rated only when its rules are the season's (it keeps the old game's)."""
        if await rating_rows.is_casual(self.store, old_game_id):
            return RatedChoice(False, None, None, {})
        season = await rows.open_season(self.store, guild_id)
        if not running(season, now):
            return RatedChoice(True, None, None, {})
        assert season is not None
        theirs = rules_with(preset_rules(season.preset), house_rules_of(season))
        return RatedChoice(rules == theirs, season, None, {})

    async def standings(self, season: SeasonRow, limit: int | None = None) -> list[StandingRow]:
        """The season's standings, best first (ties: more games, then the user id)."""
        found = await rows.season_changes(self.store, season)
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        games: dict[int, int] = {}
        for r in found:
            uid = int(r[0])
            first.setdefault(uid, points(float(r[1]), float(r[2])))
            last[uid] = points(float(r[3]), float(r[4]))
            games[uid] = games.get(uid, 0) + 1
        out = [StandingRow(u, last[u], last[u] - first[u], games[u]) for u in last]
        out.sort(key=lambda s: (-s.rating, -s.games, s.user_id))
        return out if limit is None else out[:limit]

    # ------------------------------------------------------------------ the scheduler's

    async def next_due(self) -> datetime | None:
        return await rows.next_due(self.store)

    async def due(self, now: datetime) -> list[SeasonWork]:
        """What is due now: posts owed first, then leagues to open, then seasons to end."""
        out = []
        for s in await rows.busy_seasons(self.store):
            if s.post_owed:
                out.append(SeasonWork("post", s))
            elif s.status == "open" and s.league != "opened" and s.created_at < s.starts_at <= now:
                out.append(SeasonWork("open", s))
            elif s.status == "open" and s.ends_at <= now:
                out.append(SeasonWork("end", s))
        return out

    async def end(self, season_id: int, now: datetime, *, early: bool = False) -> SeasonEnd | None:
        """End the season (its date has come, or ``early``: an admin's ``end now``): in one
        transaction, under the season's lock, the league's moves and the end post owed. None
        when it has ended already (another process, or a restart that already did)."""
        async with self.store.transaction() as tx:
            season = await rows.lock_season(tx, season_id)
            if season is None or season.status != "open":
                return None
            if not early and season.ends_at > now:
                return None
            await self.league.season_moves(tx, season)
            ends_at = now if early and now < season.ends_at else None
            await rows.set_status(tx, season_id, status="ended", post_owed=True, ends_at=ends_at)
        ended = await rows.season(self.store, season_id)
        assert ended is not None
        return await self.end_of(ended)

    async def end_of(self, season: SeasonRow) -> SeasonEnd:
        """An ended season's end post, as it was decided (re-read for a post owed), and each
        league player's final rating: after their last match of the season, else the one they
        carry (their DM says it)."""
        standings = await self.standings(season)
        names = {p.user_id: p.name for p in await rows.players(self.store, season.id)}
        moves = tuple(
            LeagueMove(uid, names.get(uid, "?"), before, after)
            for uid, before, after in await rows.moves(self.store, season.id)
        )
        carried = await rating_rows.guild_ratings(self.store, season.guild_id)
        ratings = {r.user_id: points(r.mu, r.sigma) for r in carried}
        ratings.update((s.user_id, s.rating) for s in standings)
        league = {m.user_id: ratings[m.user_id] for m in moves if m.user_id in ratings}
        return SeasonEnd(season, tuple(standings[:TOP]), moves, league)

    async def posted(self, season_id: int) -> None:
        """The end post went out: the debt is paid."""
        async with self.store.transaction() as tx:
            await rows.set_status(tx, season_id, post_owed=False)
