"""The league that runs itself (issue 48): sign-ups for a season, tables of 3-5 by rating
(each table a division), and the moves up and down at the season's end.

**Tables.** The players who signed up are ordered by their division (the one the last
season's moves left them in; a newcomer after every division) and then by rating, best
first, and cut into ``ceil(n / 5)`` tables whose sizes differ by one at most (so 3 to 5
players each; fewer than 3 sign-ups make one table the computer fills). Table 1 is
division 1, the strongest. The Discord layer opens each table's game in its own thread
(:mod:`bot.ui.league`) with the season's rules, deadline and vacation allowance.

**Moves.** At the season's end, in each table whose game has finished: the player placed
first moves up a division (not from division 1), the player placed last moves down (not from
the last division); everyone else stays. A tie for a place goes to the better season rating.
A table whose game has not finished moves nobody. A player who left their seat is placed
last. The moves are kept per season (``league_moves``) and the divisions carried to the
next season's tables (``league_divisions``).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from bot.service.errors import ServiceError
from bot.service.outcome import GameSummary
from bot.service.ratings import points
from bot.store import Conflict, GameStatus, Store, Tx
from bot.store import ratings as rating_rows
from bot.store import seasons as rows
from bot.store.seasons import LeaguePlayerRow, LeagueTableRow, SeasonRow

TABLE_MIN, TABLE_MAX = 3, 5
#: A newcomer's division for the ordering: after every real one.
NEW_DIVISION = 10**6


class LeagueRefused(ServiceError):
    """A league request refused (``code``: ``league-…``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class LeagueMove:
    user_id: int
    name: str
    before: int
    after: int


@dataclasses.dataclass(frozen=True, slots=True)
class LeagueTable:
    """A table as an admin sees it: its division, players (id, name), and its game."""

    table_no: int
    division: int
    players: tuple[tuple[int, str], ...]
    game_id: int | None


def table_sizes(n: int) -> list[int]:
    """``n`` players in ``ceil(n / 5)`` tables, sizes differing by one at most, biggest first."""
    if n <= 0:
        return []
    count = math.ceil(n / TABLE_MAX)
    base, extra = divmod(n, count)
    return [base + 1 if i < extra else base for i in range(count)]


def form(players: Sequence[int], ratings: Mapping[int, int], divisions: Mapping[int, int]
         ) -> list[list[int]]:  # fmt: skip
    """The tables (user ids, best first), table 1 the strongest: see the module's docstring."""
    order = sorted(
        players, key=lambda u: (divisions.get(u, NEW_DIVISION), -ratings.get(u, -(10**9)), u)
    )
    out, at = [], 0
    for size in table_sizes(len(order)):
        out.append(order[at : at + size])
        at += size
    return out


def moves_of(tables: Sequence[tuple[int, Sequence[tuple[int, int]]]], last_division: int
             ) -> dict[int, int]:  # fmt: skip
    """New divisions: ``tables`` is (division, [(user, order)]) with ``order`` the place
    (ties already broken), for the tables whose game finished."""
    out: dict[int, int] = {}
    for division, placed in tables:
        ranked = [u for u, _ in sorted(placed, key=lambda p: p[1])]
        for u in ranked:
            out[u] = division
        if len(ranked) < 2:
            continue
        if division > 1:
            out[ranked[0]] = division - 1
        if division < last_division:
            out[ranked[-1]] = division + 1
    return out


class League:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def _season(self, guild_id: int) -> SeasonRow:
        season = await rows.open_season(self.store, guild_id)
        if season is None:
            raise LeagueRefused("no season is open", code="league-no-season")
        return season

    async def join(self, guild_id: int, user_id: int, name: str, now: datetime) -> SeasonRow:
        """Sign up (until the games open; tables already formed are formed again with them)."""
        season = await self._season(guild_id)
        async with self.store.transaction() as tx:
            if season.league == "opened" or await _begun(tx, season):
                raise LeagueRefused("the games have begun", code="league-closed",
                                    name=season.name)  # fmt: skip
            known = {p.user_id for p in await rows.players(tx, season.id)}
            if user_id in known:
                raise LeagueRefused("already signed up", code="league-in", name=season.name)
            await rows.put_player(tx, LeaguePlayerRow(season.id, user_id, name[:100], now, None))
            if season.league == "formed":
                await self._form(tx, season)
        return season

    async def leave(self, guild_id: int, user_id: int) -> SeasonRow:
        season = await self._season(guild_id)
        async with self.store.transaction() as tx:
            if season.league == "opened" or await _begun(tx, season):
                raise LeagueRefused("the games have begun", code="league-playing",
                                    name=season.name)  # fmt: skip
            if not await rows.delete_player(tx, season.id, user_id):
                raise LeagueRefused("not signed up", code="league-out", name=season.name)
            if season.league == "formed":  # the admin formed tables: they are formed again
                await self._form(tx, season)
        return season

    async def form_tables(self, season: SeasonRow) -> list[LeagueTable]:
        """Form (or form again) the season's tables, before their games are opened."""
        async with self.store.transaction() as tx:
            locked = await rows.lock_season(tx, season.id)
            if locked is None or locked.league == "opened" or await _begun(tx, locked):
                raise LeagueRefused("the games have begun", code="league-playing",
                                    name=season.name)  # fmt: skip
            await self._form(tx, locked)
        return await self.tables(season)

    async def _form(self, tx: Tx, season: SeasonRow) -> None:
        signed = await rows.players(tx, season.id)
        ids = [p.user_id for p in signed]
        current = await rating_rows.current(tx, season.guild_id, ids)
        ratings = {u: points(mu, sigma) for u, (mu, sigma, _) in current.items()}
        divisions = await rows.divisions(tx, season.guild_id)
        await rows.delete_tables(tx, season.id)
        by_id = {p.user_id: p for p in signed}
        for no, table in enumerate(form(ids, ratings, divisions), start=1):
            await rows.put_table(tx, LeagueTableRow(season.id, no, no, None))
            for u in table:
                await rows.put_player(tx, dataclasses.replace(by_id[u], table_no=no))
        await rows.set_status(tx, season.id, league="formed")

    async def signed(self, season: SeasonRow) -> list[tuple[int, str]]:
        """Who signed up for the season's league (id, name), first come first."""
        return [(p.user_id, p.name) for p in await rows.players(self.store, season.id)]

    async def tables(self, season: SeasonRow) -> list[LeagueTable]:
        players = await rows.players(self.store, season.id)
        out = []
        for t in await rows.tables(self.store, season.id):
            seated = tuple((p.user_id, p.name) for p in players if p.table_no == t.table_no)
            out.append(LeagueTable(t.table_no, t.division, seated, t.game_id))
        return out

    async def move(self, guild_id: int, user_id: int, table_no: int) -> LeagueTable:
        """An admin's fix: seat a signed-up player at another table, while neither table's
        game has begun (its seats are then the game's: refused, naming the table and its
        game; the other tables can still be fixed while one waits to open)."""
        season = await self._season(guild_id)
        async with self.store.transaction() as tx:
            if season.league == "signup":
                raise LeagueRefused("tables cannot be changed now", code="league-unformed",
                                    name=season.name)  # fmt: skip
            signed = {p.user_id: p for p in await rows.players(tx, season.id)}
            tables = {t.table_no: t for t in await rows.tables(tx, season.id)}
            if user_id not in signed:
                raise LeagueRefused("not signed up", code="league-not-player")
            if table_no not in tables:
                raise LeagueRefused("no such table", code="league-no-table", table=table_no,
                                    tables=len(tables))  # fmt: skip
            for no in (table_no, signed[user_id].table_no):
                begun = tables.get(no) if no is not None else None
                if begun is not None and begun.game_id is not None:
                    raise LeagueRefused("that table's game has begun", code="league-table-begun",
                                        table=no, game=begun.game_id)  # fmt: skip
            there = [p for p in signed.values() if p.table_no == table_no]
            if len(there) >= TABLE_MAX and signed[user_id].table_no != table_no:
                raise LeagueRefused("the table is full", code="league-full", table=table_no)
            await rows.put_player(tx, dataclasses.replace(signed[user_id], table_no=table_no))
        return next(t for t in await self.tables(season) if t.table_no == table_no)

    async def take_over(self, game: GameSummary, now: datetime, idle: timedelta) -> bool:
        """Take over a table's lobby whose opening stopped (its process died, or a step
        failed), to finish opening it; False: it changed within ``idle`` (the retry's delay:
        its opening may be under way in another process), or another process took it over
        first (the game's version moved: one process wins)."""
        if game.status is not GameStatus.LOBBY or now - game.updated_at < idle:
            return False
        try:
            async with self.store.transaction() as tx:
                await tx.touch(game.id, game.version, now)
        except Conflict:
            return False
        return True

    async def all_opened(self, season: SeasonRow) -> None:
        async with self.store.transaction() as tx:
            await rows.set_status(tx, season.id, league="opened")

    async def season_moves(self, tx: Tx, season: SeasonRow) -> list[LeagueMove]:
        """The season's moves up and down, written in the transaction that ends it."""
        tables = await rows.tables(tx, season.id)
        if not tables:
            return []
        signed = await rows.players(tx, season.id)
        ids = [p.user_id for p in signed]
        current = await rating_rows.current(tx, season.guild_id, ids)
        rating = {u: points(mu, sigma) for u, (mu, sigma, _) in current.items()}
        before = {p.user_id: t.division for t in tables for p in signed if p.table_no == t.table_no}
        finished = []
        for t in tables:
            seated = [p.user_id for p in signed if p.table_no == t.table_no]
            places = await rows.table_places(tx, t.game_id)
            if places is None:
                continue
            last = max(places.values(), default=0) + 1
            order = sorted(seated, key=lambda u: (places.get(u, last), -rating.get(u, 0), u))
            finished.append((t.division, [(u, i) for i, u in enumerate(order)]))
        after = moves_of(finished, max(t.division for t in tables))
        moved = [(u, before[u], after.get(u, before[u])) for u in ids if u in before]
        await rows.put_moves(tx, season.id, moved)
        await rows.put_divisions(tx, season.guild_id, {u: a for u, _, a in moved})
        names = {p.user_id: p.name for p in signed}
        return [LeagueMove(u, names[u], b, a) for u, b, a in moved]


async def _begun(tx: Tx, season: SeasonRow) -> bool:
    """Whether a table's game has opened (the others may still wait for their channel): the
    tables are then no longer formed again."""
    return any(t.game_id is not None for t in await rows.tables(tx, season.id))
