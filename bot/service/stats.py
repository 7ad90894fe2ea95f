"""Statistics and leaderboards, computed from finished games' event logs.

When a match ends, :func:`record` replays its events once more (the engine, from the match's
own event list) and writes one ``player_stats`` row per seat in the same transaction as the
last move. The rows are derived data: :func:`rebuild` recomputes them from the log (all of
them, or only games missing them, e.g. finished before this table existed).

Definitions (the README repeats them):

* **games played / won**: finished matches (not abandoned ones) in which the player still held
  their seat at the end (a seat handed to a computer counts for nobody); a shared win counts.
* **rounds won**: rounds the player ended by going out (a blocked round is won by nobody).
* **average round score**: points taken per round played (lower is better).
* **best match score**: the lowest final total in a finished match.
* **double-blank caught**: rounds that ended with the 0-0 still in the player's hand (it is
  worth 50 under Fundex scoring). Laying the 0-0 does not count.
* **longest train**: the most tiles on the player's own train at the end of a round (whoever
  laid them: open trains are built by everyone).
* **win rate vs computers**: wins / games, over games with at least one computer seat.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from datetime import datetime

from bot.engine import Match, Tile
from bot.engine.match import Event, RoundStarted
from bot.service.outcome import Player, players_of, standings_of
from bot.service.replay import replay_game
from bot.store import GameRow, SeatRow, Store, Tx
from bot.store import stats as rows_sql
from bot.store.stats import PlayerStatsRow

log = logging.getLogger(__name__)

DOUBLE_BLANK = Tile(0, 0)


@dataclasses.dataclass(frozen=True, slots=True)
class _RoundFacts:
    scores: tuple[int, ...]
    went_out: int | None
    #: Per seat: the 0-0 was in hand when the round ended.
    held_double_blank: tuple[bool, ...]
    #: Per seat: tiles on their own train when the round ended.
    own_train: tuple[int, ...]


def round_facts(match: Match) -> list[_RoundFacts]:
    """Each finished round of ``match``, replayed from its events."""
    replay = Match(match.rules, match.names, match.engine_version)
    out: list[_RoundFacts] = []
    events: Sequence[Event] = match.events
    for event in events:
        if isinstance(event, RoundStarted):
            replay.start_round(event.order)
            continue
        applied = replay.apply(event.move, event.seat)
        if applied.round_over:
            rnd = replay.round
            assert rnd is not None and rnd.result is not None
            n = replay.players
            out.append(
                _RoundFacts(
                    scores=rnd.result.scores,
                    went_out=rnd.result.went_out,
                    held_double_blank=tuple(DOUBLE_BLANK in rnd.hands[s] for s in range(n)),
                    own_train=tuple(len(rnd.trains[s].tiles) for s in range(n)),
                )
            )
    return out


def stats_rows(
    game: GameRow, seats: Sequence[SeatRow], match: Match, finished_at: datetime
) -> list[PlayerStatsRow]:
    """One row per seat of a finished match."""
    players: tuple[Player, ...] = players_of(tuple(seats))
    rounds = round_facts(match)
    standings = {st.player.seat: st for st in standings_of(match, players)}
    out = []
    for s in seats:
        st = standings[s.seat]
        others_computer = any(o.computer is not None for o in seats if o.seat != s.seat)
        out.append(
            PlayerStatsRow(
                game_id=game.id,
                seat=s.seat,
                guild_id=game.guild_id,
                user_id=s.user_id if s.computer is None else None,
                computer=s.computer,
                name=s.display_name,
                finished_at=finished_at,
                rounds=len(rounds),
                rounds_won=sum(1 for r in rounds if r.went_out == s.seat),
                total=st.total,
                place=st.place,
                won=st.won,
                double_blank=sum(1 for r in rounds if r.held_double_blank[s.seat]),
                longest_train=max((r.own_train[s.seat] for r in rounds), default=0),
                vs_computer=others_computer,
                round_scores=tuple(r.scores[s.seat] for r in rounds),
            )
        )
    return out


async def record(
    tx: Tx, game: GameRow, seats: Sequence[SeatRow], match: Match, now: datetime
) -> None:
    """Write a just-finished match's statistics inside its last move's transaction."""
    await rows_sql.write_player_stats(tx, stats_rows(game, seats, match, now))


async def rebuild(store: Store, *, only_missing: bool = True) -> int:
    """Recompute statistics from the event log; returns how many games were done. A game
    that cannot be replayed is logged and skipped (it stays without statistics)."""
    ids = await (
        rows_sql.finished_without_stats(store) if only_missing else rows_sql.finished_games(store)
    )
    if not only_missing:
        async with store.transaction() as tx:
            await rows_sql.delete_player_stats(tx)
    done = 0
    for game_id in ids:
        record_ = await store.load(game_id)
        if record_ is None:
            continue
        try:
            match = replay_game(record_, use_snapshot=False).match
        except Exception:
            log.exception("game %s: statistics not rebuilt", game_id)
            continue
        if match is None or not match.is_over:
            continue
        rows = stats_rows(record_.game, record_.seats, match, record_.game.updated_at)
        async with store.transaction() as tx:
            await rows_sql.delete_player_stats(tx, game_id)
            await rows_sql.write_player_stats(tx, rows)
        done += 1
    return done


# ---------------------------------------------------------------------- summaries


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerSummary:
    user_id: int
    name: str | None
    games: int
    wins: int
    rounds: int
    rounds_won: int
    points: int
    best_total: int | None
    double_blank: int
    longest_train: int
    games_vs_computer: int
    wins_vs_computer: int
    #: The newest games first: (game id, round scores, won).
    recent: tuple[tuple[int, tuple[int, ...], bool], ...]

    @property
    def win_rate(self) -> float | None:
        return None if not self.games else self.wins / self.games

    @property
    def average_round(self) -> float | None:
        return None if not self.rounds else self.points / self.rounds

    @property
    def win_rate_vs_computer(self) -> float | None:
        return (
            None if not self.games_vs_computer else self.wins_vs_computer / self.games_vs_computer
        )


def summarise(user_id: int, rows: Sequence[PlayerStatsRow], recent: int = 12) -> PlayerSummary:
    """A player's figures from their rows (newest first)."""
    vs = [r for r in rows if r.vs_computer]
    return PlayerSummary(
        user_id=user_id,
        name=rows[0].name if rows else None,
        games=len(rows),
        wins=sum(r.won for r in rows),
        rounds=sum(r.rounds for r in rows),
        rounds_won=sum(r.rounds_won for r in rows),
        points=sum(sum(r.round_scores) for r in rows),
        best_total=min((r.total for r in rows), default=None),
        double_blank=sum(r.double_blank for r in rows),
        longest_train=max((r.longest_train for r in rows), default=0),
        games_vs_computer=len(vs),
        wins_vs_computer=sum(r.won for r in vs),
        recent=tuple((r.game_id, r.round_scores, r.won) for r in rows[:recent]),
    )


async def player(store: Store, guild_id: int, user_id: int) -> PlayerSummary:
    return summarise(user_id, await rows_sql.player_games(store, guild_id, user_id))


async def leaderboard(store: Store, guild_id: int, limit: int = 10) -> list[PlayerSummary]:
    """The server's players, best first: most wins, then win rate, then lower round average."""
    by_user: dict[int, list[PlayerStatsRow]] = {}
    for r in reversed(await rows_sql.guild_player_rows(store, guild_id)):
        assert r.user_id is not None
        by_user.setdefault(r.user_id, []).append(r)
    people = [summarise(uid, rows) for uid, rows in by_user.items()]
    people.sort(
        key=lambda p: (
            -p.wins,
            -(p.win_rate or 0.0),
            p.average_round if p.average_round is not None else 1e9,
            p.user_id,
        )
    )
    return people[:limit]
