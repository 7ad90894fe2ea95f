"""What the Discord layer reads: games, views, scores, and the bot's remembered messages.

Reads never change a game. Views come from the engine's ``view_for``: a seat's view holds
only that seat's hand, the table view none (see :mod:`bot.engine.view`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from datetime import datetime

from bot.engine import SeatView, view_for
from bot.engine.position import to_position
from bot.service import errors
from bot.service.catchup import digest_from_tail, digest_of
from bot.service.commit import Ledger
from bot.service.digest import RECENT, Digest
from bot.service.guards import dealt, seated, utc
from bot.service.outcome import GameSummary, Player, Standing, players_of, standings_of, summarise
from bot.service.replay import replay_game
from bot.service.roundend import RoundReport, round_report
from bot.store import GameRecord, GameRow, GameStatus, MessageRow
from bot.store import stats as stats_sql

log = logging.getLogger(__name__)


#: How many rounds of the log a digest reads, in turn, until one holds the reader's last turn
#: (None: the whole log).
DIGEST_READS: tuple[int | None, ...] = (1, 2, None)


@dataclasses.dataclass(frozen=True, slots=True)
class Look:
    """What an interaction reads before it acts, in one call: the game as stored and, when
    asked for a user, their seat's view of it (their hand, their legal moves). A click's
    place, whose turn it is and the moves to offer all read this one value."""

    game: GameSummary
    view: SeatView | None = None
    #: Why there is no view (the user is not seated, no round is dealt): the refusal the
    #: caller raises if it needs the view, exactly as :meth:`Queries.seat_view` would.
    refused: errors.ServiceError | None = None

    def seat_view(self) -> SeatView:
        """The user's view, or the refusal that says why there is none."""
        if self.view is None:
            raise self.refused or errors.NotInGame()
        return self.view


class Queries:
    """Reads over the ledger's cached games and the store."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def game(self, game_id: int) -> GameSummary:
        """A game as stored, without replaying it (works even for an unreadable game)."""
        row = await self.ledger.store.game(game_id)
        if row is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        return await self._summary(row)

    async def _summary(self, row: GameRow) -> GameSummary:
        """The summary of a game row just read. Its seats are the cached game's when the
        cache holds the game at this very version (every change of the seats is a commit
        that moves the version, and the cache keeps the seats it wrote), else read: a move's
        look-up is then one read, not three (issue 50: under a burst every look-up queues
        on the one reader)."""
        g = self.ledger.cached_game(row.id)
        if g is not None and g.row.version == row.version:
            return summarise(row, g.seats, g.rules)
        return summarise(row, tuple(await self.ledger.store.seats(row.id)))

    async def where(self, game_id: int) -> tuple[int, int]:
        """The game's (server, channel): one read by primary key, for checking a button."""
        row = await self.ledger.store.game(game_id)
        if row is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        return row.guild_id, row.channel_id

    async def look(
        self, game_id: int, user_id: int | None = None, *, guild_id: int | None = None
    ) -> Look:
        """The game (as :meth:`game`) and, for ``user_id``, their seat's view (see
        :class:`Look`). ``guild_id``: the server a click came from; the seat is read only for
        a game of that server (a forged click naming another server's game, which the caller
        refuses, loads nothing)."""
        game = await self.game(game_id)
        if guild_id is not None and game.guild_id != guild_id:
            return Look(game)
        return await self._look(game, user_id)

    async def look_here(self, channel_id: int, user_id: int) -> Look | None:
        """The channel's unfinished game (as :meth:`game_in_channel`) and ``user_id``'s
        seat's view of it; None when there is no game here."""
        game = await self.game_in_channel(channel_id)
        return None if game is None else await self._look(game, user_id)

    async def _look(self, game: GameSummary, user_id: int | None) -> Look:
        if user_id is None:
            return Look(game)
        try:
            # The version was read with the game's row: the cache's copy at that version
            # serves without reading it again.
            async with self.ledger.game(game.id, version=game.version) as g:
                me = seated(g, user_id)
                return Look(game, view_for(dealt(g), me.seat))
        except errors.ServiceError as exc:
            return Look(game, None, exc)

    async def game_in_channel(self, channel_id: int) -> GameSummary | None:
        """The channel's unfinished game (lobby or in play), if any."""
        row = await self.ledger.store.unfinished_in_channel(channel_id)
        if row is None:
            return None
        return await self._summary(row)

    async def finished_in_channel(self, guild_id: int, channel_id: int) -> GameSummary | None:
        """The channel's last match, when it was played to its end and no game has been
        opened there since (a new lobby, even one cancelled, takes its place). A match played
        in a thread opened from this channel counts as this channel's: its thread is
        archived at the end, and the players come back to the channel to ask."""
        newest = await stats_sql.newest_from_channel(self.ledger.store, guild_id, channel_id)
        if newest is None:
            return None
        row = await self.ledger.store.game(newest)
        if row is None or row.status is not GameStatus.FINISHED:
            return None
        return summarise(row, tuple(await self.ledger.store.seats(row.id)))

    async def latest_dealt_in_channel(self, channel_id: int) -> int | None:
        """The id of the channel's newest game that was dealt or finished (any status)."""
        return await stats_sql.latest_in_channel(self.ledger.store, channel_id)

    async def games_for_user(self, user_id: int) -> list[GameSummary]:
        """The user's unfinished games in every server, most recently active first; each
        summary's ``turn`` says whose turn it is."""
        rows = await self.ledger.store.unfinished_for_user(user_id)
        seats = await self.ledger.store.seats_of(r.id for r in rows)
        out = []
        for r in rows:
            try:
                out.append(summarise(r, tuple(seats[r.id])))
            except errors.GameCorrupt:
                log.exception("game %s: unreadable rules, left out of a listing", r.id)
        return out

    async def seat_view(self, game_id: int, user_id: int) -> SeatView:
        """What ``user_id`` sees from their seat: their hand, the table, their legal moves."""
        async with self.ledger.game(game_id) as g:
            me = seated(g, user_id)  # a seat given to a computer is no longer theirs to see
            return view_for(dealt(g), me.seat)

    async def table_view(self, game_id: int) -> SeatView:
        """The spectator's view (no hand), for the table picture in the channel."""
        async with self.ledger.locked(game_id):
            return view_for(dealt(await self.ledger.get(game_id)), None)

    async def whose_turn(self, game_id: int) -> Player | None:
        async with self.ledger.locked(game_id):
            return self.ledger.next_player(await self.ledger.get(game_id))

    async def history(self, game_id: int) -> list[str]:
        """The moves so far in notation, with round headers (``Bob: 12-5 mexican``)."""
        async with self.ledger.game(game_id) as g:
            await self.ledger.complete(g)
            return [] if g.match is None else g.match.history()

    async def standings(self, game_id: int) -> tuple[Standing, ...]:
        """Totals so far, best first (final once the match is over)."""
        async with self.ledger.game(game_id) as g:
            if g.match is None:
                return ()
            return standings_of(g.match, players_of(g.seats))

    async def round_scores(self, game_id: int) -> tuple[tuple[int, ...], ...]:
        async with self.ledger.game(game_id) as g:
            return () if g.match is None else tuple(r.scores for r in g.match.results)

    async def round_report(self, game_id: int, round_no: int | None = None) -> RoundReport:
        """Round ``round_no`` (default: the latest one finished) as it ended: its board,
        every leftover hand (public once a round is over), its scores and the standings
        after it, rebuilt from the event log (see :mod:`bot.service.roundend`)."""
        async with self.ledger.game(game_id) as g:
            match = g.match
            if match is None or match.rounds_played == 0:
                raise errors.WrongPhase("no round is over yet", code="no-round-over")
            wanted = match.rounds_played - 1 if round_no is None else round_no
            await self.ledger.complete(g)  # the round's events may predate a tail's load
            # One round's deal and moves: a few milliseconds, once per round end.
            return round_report(game_id, match, players_of(g.seats), wanted)

    async def verify_game(self, game_id: int) -> None:
        """Replay every event of a game and check the usual load (cache, round snapshot) gives
        the same match; raises :class:`GameCorrupt` if not. For tests and admin commands."""
        async with self.ledger.locked(game_id):
            record = await self.ledger.store.load(game_id)
            if record is None:
                raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
            full = replay_game(record, use_snapshot=False).match
            quick = replay_game(record).match
            cached = self.ledger.cached_game(game_id)
            candidates = [quick]
            if cached is not None and cached.row.version == record.game.version:
                await self.ledger.complete(cached)
                candidates.append(cached.match)
            want = None if full is None else (to_position(full), full.event_dicts())
            for m in candidates:
                got = None if m is None else (to_position(m), m.event_dicts())
                if got != want:
                    raise errors.GameCorrupt(game_id, "a load disagrees with a full replay")

    async def unfinished_places(self) -> list[tuple[int, int, int]]:
        """``(game, server, channel)`` of every unfinished game."""
        return await self.ledger.store.unfinished_places()

    async def computer_turns(self) -> list[int]:
        """Games waiting on a computer player (call at start-up, then advance_computers)."""
        return await self.ledger.store.computer_turns()

    async def due_deadlines(self, now: datetime) -> list[GameSummary]:
        rows = await self.ledger.store.due_deadlines(utc(now))
        seats = await self.ledger.store.seats_of(r.id for r in rows)
        return [summarise(r, tuple(seats[r.id])) for r in rows]

    # ---------------------------------------------------------------- messages, settings

    async def record_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, now: datetime
    ) -> None:
        """Remember the bot's latest message of ``kind`` (e.g. ``table``) for a game."""
        async with self.ledger.store.transaction() as tx:
            await tx.set_message(game_id, kind, channel_id, message_id, utc(now))

    async def messages(self, game_id: int) -> dict[str, MessageRow]:
        return {m.kind: m for m in await self.ledger.store.messages(game_id)}

    async def game_record(self, game_id: int) -> GameRecord:
        """A game's stored row, seats and whole event log (the history, export and replay)."""
        record = await self.ledger.store.load(game_id)
        if record is None:
            raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
        return record

    # ---------------------------------------------------------------- what changed

    async def digest(self, game_id: int, user_id: int | None, *, recent: int = RECENT) -> Digest:
        """What changed in the game since ``user_id``'s last turn; for a user without a seat,
        the last ``recent`` moves (see :mod:`bot.service.catchup`). Reads only.

        One is asked for every turn's notification, so it reads the log's current round
        first, then the last two, and the whole log only when the reader's last turn is
        older than that: its cost follows what happened since, not the match's length. The
        fold runs in a thread, so the event loop goes on answering others meanwhile."""
        for rounds in DIGEST_READS:
            record = await self.ledger.store.load(game_id, rounds=rounds)
            if record is None:
                raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
            if any(s.user_id == user_id and s.computer is not None for s in record.seats):
                raise errors.SeatGiven()  # what changed "since your turn" tells of that hand
            if not record.is_tail:
                return await asyncio.to_thread(digest_of, record, user_id, recent=recent)
            digest = await asyncio.to_thread(digest_from_tail, record, user_id, recent=recent)
            if digest is not None:
                return digest
        raise AssertionError("the last read is the whole log")  # pragma: no cover
