"""Skill ratings: a fold over a server's finished matches (issue 48).

**The model.** openskill's Plackett-Luce (:func:`model`, its default parameters): a match's
result is a finishing order of any number of players, and Plackett-Luce is the likelihood of
exactly that, one place after another (who is first among all, then who is first among the
rest...). It takes 2-10 players, any of them tied (equal ranks), and each update uses the whole
order at once rather than every pair as if they were separate games. Each player has a skill
``mu`` and an uncertainty ``sigma``; the rating shown is the conservative ``mu - 3 sigma``
(:func:`points`).

**The rules** (``docs/players.md`` says them to players):

* Rated: every finished match in a server with at least two rated seats, at least one of them
  a human's. A match ended by its host (``/mt end``) or abandoned is not finished: not rated.
* The order: the match's places, equal final totals sharing a place (the winners first).
* A player who left or was kicked is rated last, behind every seat that finished (several
  leavers share last place); the computer that took their seat is not rated.
* A casual game (the host's choice at ``/mt new``, :mod:`bot.service.seasons`) is not rated.
* A computer seat plays as its level's anchor: a fixed rating (:data:`ANCHORS`), never moved.
  The people's updates treat it as a fixed opponent (its own update is thrown away).

**The fold.** Matches are folded in the order ``(finished_at, game_id)``: each match's update
starts from every player's rating after the matches before it. The match that ends writes its
changes in its own last transaction (:func:`record`), under the server's rating lock, so two
matches ending at once are applied one after the other; one that lands before a match that
sorts earlier refolds the server (:func:`refold`). :func:`rebuild` recomputes every server from
the event log to the same numbers.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from openskill.models import PlackettLuce

from bot.engine import Match
from bot.engine.ai import Level
from bot.service.outcome import players_of, standings_of
from bot.service.replay import replay_game
from bot.store import GameRow, SeatRow, Store, Tx
from bot.store import ratings as rows_sql
from bot.store.ratings import RatingChangeRow, RatingRow

log = logging.getLogger(__name__)

#: A new player's skill and uncertainty (openskill's defaults).
START_MU = 25.0
START_SIGMA = 25.0 / 3.0

#: The computer levels' fixed ratings (mu, sigma), measured from computer-only 13-round matches
#: with ``python benchmarks/anchors.py`` (1,000 matches; docs/computer-players.md), copied from
#: its line. The Expert (about 80 s of CPU a 13-round match) was measured in a run of its own
#: (``--expert-every 25``: 40 matches seat it): it came out 6.888 above Hard in that run, with
#: its own sigma, 3.949; a Plackett-Luce run fixes only the levels' gaps, not where they sit, so
#: the Expert's anchor is Hard's here plus that measured gap.
_HARD = (43.189, 2.067)
#: The Expert's mu above Hard's and its sigma, from ``anchors.py --expert-every 25 --jobs 2``.
_EXPERT_GAP, _EXPERT_SIGMA = 46.601 - 39.713, 3.949
ANCHORS: Mapping[str, tuple[float, float]] = {
    Level.EASY.value: (5.55, 2.811),
    Level.NORMAL.value: (28.111, 1.977),
    Level.HARD.value: _HARD,
    Level.EXPERT.value: (round(_HARD[0] + _EXPERT_GAP, 3), _EXPERT_SIGMA),
}

#: A rating stays provisional until this many rated matches.
PROVISIONAL_GAMES = 10
#: Displayed points per unit of ``mu - 3 sigma``; the Normal computer shows 1,500.
SCALE = 40.0


def model() -> PlackettLuce:
    """The one rating model (openskill's Plackett-Luce, default parameters)."""
    return PlackettLuce()


def points(mu: float, sigma: float) -> int:
    """The rating shown: ``mu - 3 sigma`` (we are fairly sure the skill is at least that),
    scaled so that the Normal computer is 1,500 and one unit of skill is 40 points."""
    n_mu, n_sigma = ANCHORS[Level.NORMAL.value]
    return round(1500 + SCALE * ((mu - 3 * sigma) - (n_mu - 3 * n_sigma)))


def spread(sigma: float) -> int:
    """The uncertainty shown: 3 sigma in points (the skill is likely within ± this of
    ``mu``; the rating is its lower end)."""
    return round(SCALE * 3 * sigma)


def anchor_points() -> list[tuple[str, int]]:
    """The computer levels and their ratings, weakest first."""
    return sorted(((lv, points(*ms)) for lv, ms in ANCHORS.items()), key=lambda a: a[1])


@dataclasses.dataclass(frozen=True, slots=True)
class Entrant:
    """One rated seat of a match: a human (``user_id``) or a computer level's anchor."""

    seat: int
    user_id: int | None
    computer: str | None
    rank: int


@dataclasses.dataclass(frozen=True, slots=True)
class RatedMatch:
    game_id: int
    guild_id: int
    finished_at: datetime
    entrants: tuple[Entrant, ...]

    @property
    def key(self) -> tuple[datetime, int]:
        return (self.finished_at, self.game_id)


def entrants_of(seats: Sequence[SeatRow], places: Mapping[int, int]) -> tuple[Entrant, ...]:
    """The rated seats of a finished match (``places``: seat → place), or () when the match
    is not rated (fewer than two rated seats, or no human)."""
    stayed = [s for s in seats if s.computer is None or s.user_id is None]
    left = [s for s in seats if s.computer is not None and s.user_id is not None]
    out = [Entrant(s.seat, s.user_id if s.computer is None else None, s.computer,
                   places[s.seat]) for s in stayed]  # fmt: skip
    last = max((e.rank for e in out), default=0) + 1
    out += [Entrant(s.seat, s.user_id, None, last) for s in left]
    out.sort(key=lambda e: e.seat)
    if len(out) < 2 or not any(e.user_id is not None for e in out):
        return ()
    if any(e.computer is not None and e.computer not in ANCHORS for e in out):
        return ()
    return tuple(out)


def rated_match(game: GameRow, seats: Sequence[SeatRow], match: Match, finished_at: datetime
                ) -> RatedMatch | None:  # fmt: skip
    """A finished match as the fold reads it; None when it is not rated (a game outside a
    server, or see :func:`entrants_of`)."""
    if not game.guild_id or not match.is_over:
        return None
    places = {st.player.seat: st.place for st in standings_of(match, players_of(tuple(seats)))}
    entrants = entrants_of(seats, places)
    if not entrants:
        return None
    return RatedMatch(game.id, game.guild_id, finished_at, entrants)


def update(m: RatedMatch, current: Mapping[int, tuple[float, float, int]]
           ) -> list[RatingChangeRow]:  # fmt: skip
    """One match's changes, from each human's rating before it (``current``: user →
    (mu, sigma, games); absent: a newcomer). Anchors keep their rating."""
    pl = model()
    before: list[tuple[float, float]] = []
    for e in m.entrants:
        if e.user_id is None:
            assert e.computer is not None
            before.append(ANCHORS[e.computer])
        else:
            mu, sigma, _ = current.get(e.user_id, (START_MU, START_SIGMA, 0))
            before.append((mu, sigma))
    teams = [[pl.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    new = pl.rate(teams, ranks=[float(e.rank) for e in m.entrants])
    out = []
    for e, (mu, sigma), team in zip(m.entrants, before, new, strict=True):
        after = (mu, sigma) if e.user_id is None else (team[0].mu, team[0].sigma)
        out.append(
            RatingChangeRow(m.game_id, e.seat, m.guild_id, e.user_id, e.computer,
                            m.finished_at, e.rank, mu, sigma, after[0], after[1])
        )  # fmt: skip
    return out


def fold(matches: Iterable[RatedMatch]) -> tuple[list[RatingChangeRow], list[RatingRow]]:
    """Fold matches (any order: they are sorted by ``(finished_at, game_id)``) from nothing:
    every change, and each player's rating at the end."""
    current: dict[tuple[int, int], tuple[float, float, int]] = {}
    changes: list[RatingChangeRow] = []
    for m in sorted(matches, key=lambda x: x.key):
        mine = {uid: v for (gid, uid), v in current.items() if gid == m.guild_id}
        for c in update(m, mine):
            changes.append(c)
            if c.user_id is not None:
                games = current.get((m.guild_id, c.user_id), (0.0, 0.0, 0))[2] + 1
                current[(m.guild_id, c.user_id)] = (c.mu_after, c.sigma_after, games)
    ratings = [RatingRow(g, u, mu, s, n) for (g, u), (mu, s, n) in sorted(current.items())]
    return changes, ratings


def match_of(changes: Sequence[RatingChangeRow]) -> RatedMatch:
    """A match's fold input back from its stored changes (for a refold)."""
    c0 = changes[0]
    entrants = tuple(Entrant(c.seat, c.user_id, c.computer, c.rank) for c in changes)
    return RatedMatch(c0.game_id, c0.guild_id, c0.finished_at, entrants)


async def record(tx: Tx, m: RatedMatch) -> list[RatingChangeRow]:
    """Apply one just-finished match inside its last transaction: under the server's rating
    lock, from the players' current ratings; or, when a match that sorts after it is already
    folded (two ends racing), by refolding the server with it. Returns its changes."""
    await rows_sql.lock_guild(tx, m.guild_id)
    done = await rows_sql.game_changes_tx(tx, m.game_id)
    if done:  # folded already (never twice)
        return done
    if await rows_sql.any_after(tx, m.guild_id, m.finished_at, m.game_id):
        await refold(tx, m.guild_id, extra=m)
        return await rows_sql.game_changes_tx(tx, m.game_id)
    users = [e.user_id for e in m.entrants if e.user_id is not None]
    current = await rows_sql.current(tx, m.guild_id, users)
    changes = update(m, current)
    await rows_sql.write_changes(tx, changes)
    await rows_sql.put_ratings(
        tx,
        [RatingRow(m.guild_id, c.user_id, c.mu_after, c.sigma_after,
                   current.get(c.user_id, (0.0, 0.0, 0))[2] + 1)
         for c in changes if c.user_id is not None],
    )  # fmt: skip
    return changes


async def refold(tx: Tx, guild_id: int, extra: RatedMatch | None = None) -> None:
    """Recompute a server's ratings from its stored match inputs (plus ``extra``)."""
    by_game: dict[int, list[RatingChangeRow]] = {}
    for c in await rows_sql.guild_changes_tx(tx, guild_id):
        by_game.setdefault(c.game_id, []).append(c)
    matches = [match_of(cs) for cs in by_game.values()]
    if extra is not None:
        matches.append(extra)
    changes, ratings = fold(matches)
    await rows_sql.delete_guild(tx, guild_id)
    await rows_sql.write_changes(tx, changes)
    await rows_sql.put_ratings(tx, ratings)


async def rated_from_log(store: Store, game_id: int) -> RatedMatch | None:
    """A finished game's fold input, replayed from its event log (None: not rated). Its
    time is its last event's: the time of the transaction that ended it."""
    record_ = await store.load(game_id)
    if record_ is None or await rows_sql.is_casual(store, game_id):
        return None
    match = replay_game(record_, use_snapshot=False).match
    if match is None or not match.is_over:
        return None
    last = record_.events[-1].at if record_.events else None
    finished_at = record_.game.updated_at if last is None else rows_sql.from_db_time(last)
    return rated_match(record_.game, record_.seats, match, finished_at)


async def rebuild(store: Store, *, only_missing: bool = True) -> int:
    """Recompute ratings from the event log: every server (``only_missing=False``), or only
    the servers with a finished match the fold has never seen (a database from before
    ratings). Each server is refolded in one transaction under its rating lock; a match that
    ended meanwhile (after the logs were read) is kept, from its stored input. Returns how
    many servers were refolded."""
    games = await rows_sql.finished_games(store)
    if only_missing:
        unseen = {g for g, _ in await rows_sql.finished_games(store, unseen_only=True)}
        games = [(g, i) for g, i in games if g in unseen]
    by_guild: dict[int, dict[int, RatedMatch | None]] = {}
    for guild_id, game_id in games:
        try:
            m = await rated_from_log(store, game_id)
        except Exception:
            log.exception("game %s: not rated (its log does not replay)", game_id)
            m = None
        by_guild.setdefault(guild_id, {})[game_id] = m
    for guild_id, seen in by_guild.items():
        async with store.transaction() as tx:
            await rows_sql.lock_guild(tx, guild_id)
            late: dict[int, list[RatingChangeRow]] = {}
            for c in await rows_sql.guild_changes_tx(tx, guild_id):
                if c.game_id not in seen:
                    late.setdefault(c.game_id, []).append(c)
            matches = [m for m in seen.values() if m is not None]
            changes, ratings = fold(matches + [match_of(cs) for cs in late.values()])
            await rows_sql.delete_guild(tx, guild_id)
            await rows_sql.write_changes(tx, changes)
            await rows_sql.put_ratings(tx, ratings)
            await rows_sql.mark_checked(tx, dict.fromkeys(seen, guild_id))
    return len(by_guild)


async def on_match_end(
    tx: Tx, game: GameRow, seats: Sequence[SeatRow], match: Match, now: datetime
) -> None:
    """The hook of a match's last transaction (:meth:`Ledger.commit_play`): fold it in when
    it is rated, else only note that the fold has seen it."""
    casual = await rows_sql.is_casual(tx, game.id)  # /mt new rated:False (issue 48 seasons)
    m = None if casual else rated_match(game, seats, match, now)
    if m is not None:
        await record(tx, m)
    elif game.guild_id:
        await rows_sql.mark_checked(tx, {game.id: game.guild_id})
