"""A player's turn, up to the next present human: the one use case every front end calls.

A move is rarely one commit. A draw that fits nowhere leaves passing as the only move, and the
rules leave no choice, so the pass is made at once; then the computer players answer, each
move its own commit (so a paced front end can tell them one by one); then the turns of away
players (``/mt away``) are played for them as the scheduler's ``away`` row would, and a turn
that leaves a present human no choice at all (only a draw, only a pass; with ``/mt me
autoplay: only``, the one legal move) is played for them at once, as they asked
(:func:`no_choice`; never a knock, a catch or a choice between moves). Only then is a present
human to decide something, and only then is anyone pinged: nobody is pinged to tap the one
button there is.

The cogs (a typed or clicked move), the scheduler's announcement (a timeout, an away turn)
and the terminal game (:mod:`bot.tryit`) all go through :class:`Turns`, so the dispatch and
the computer loop are written once. It returns facts — the outcomes, what a draw brought, who
is to be told and how — never sentences: the Discord layer and the terminal put them into
words. :meth:`Turns.play_out` hands the announcer the whole rest of a turn in one value
(:class:`PlayedOut`: the outcomes, the table, the ping and what the pinged player reads), so
a move is four calls from the Discord layer: the look-up, :meth:`~Turns.take`,
:meth:`~Turns.play_out`, and the outbox's clearing once the post and the ping are out
(:meth:`bot.service.outbox.Outbox.delivered`). A move picked from a list makes no look-up of
its own: :meth:`~Turns.take` checks where it was sent from (``made_in``).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any, NoReturn

from bot.engine import DONE, DRAW, KNOCK, PASS, Move, MoveError, Play, SeatView, Tile, view_for
from bot.service import errors, orders
from bot.service.commit import Place
from bot.service.digest import Digest
from bot.service.eventlog import AUTOPLAY_KIND
from bot.service.games import GameService
from bot.service.guards import utc
from bot.service.outbox import pinged
from bot.service.outcome import Outcome, Standing, played_for, players_of
from bot.service.roundend import RoundReport
from bot.service.schedule import ScheduleService
from bot.service.timing import TurnPing
from bot.store import GameStatus
from bot.store.schedule import WaitingRow

#: The moves a turn with no choice may consist of (``forced``); ``only`` adds a lone tile play.
FORCED = (DRAW, PASS, DONE)

#: A bound on the commits one call plays, never reached: a round always ends, and away turns
#: stop at the second round end.
MAX_COMMITS = 10_000

#: How many of a player's other games waiting on them a move's answer reads (one is named,
#: the rest counted): a bound on the move's one extra read.
NEXT_GAMES = 4


@dataclasses.dataclass(frozen=True, slots=True)
class Drawn:
    """What a player's draw brought them (private to them): the tile, whether the rules make
    them play it now and the trains it fits, and whether it fit nowhere so their turn was
    passed for them."""

    tile: Tile
    must_play: bool
    fits: tuple[int, ...]
    passed: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """One player's own move as committed: its outcome, then the forced pass if a draw fit
    nowhere (its own commit, as if they had passed)."""

    outs: tuple[Outcome, ...]
    drawn: Drawn | None = None
    #: The player's other games waiting on them once this turn of theirs is over (at most
    #: :data:`NEXT_GAMES`, soonest deadline first), for their answer: "Next: game #12…".
    waiting: tuple[WaitingRow, ...] = ()

    @property
    def last(self) -> Outcome:
        return self.outs[-1]


@dataclasses.dataclass(frozen=True, slots=True)
class TurnNews:
    """What the player to move reads when told of their turn, read with the ping: their seat's
    view (their hand and moves), what changed since their last turn (``digest``; not for the
    actor, who saw it happen) and the standings (for a DM: where they stand)."""

    view: SeatView | None
    digest: Digest | None = None
    standings: tuple[Standing, ...] = ()
    #: Why their standing order stopped this turn (told once, in this turn's DM).
    stopped: orders.Note | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class PlayedOut:
    """A turn played out up to the next present human, with all the announcer needs to tell
    it: every outcome in order, the table as it now stands (the spectator's view; None before
    a deal), the ping (None: nobody to tell) and what the pinged player reads; each round that
    ended on the way as everyone may now see it (``rounds``, in order); and once the match is
    over, its final report (``final``; None: it ended before any round was over) and how each
    human who played it hears of its end (``end``, by the ping rule)."""

    outs: tuple[Outcome, ...]
    ping: TurnPing | None = None
    table: SeatView | None = None
    news: TurnNews | None = None
    rounds: tuple[RoundReport, ...] = ()
    final: RoundReport | None = None
    end: tuple[TurnPing, ...] = ()

    @property
    def last(self) -> Outcome:
        return self.outs[-1]


def no_choice(view: SeatView, mode: str) -> Move | None:
    """The move a player's turn leaves them no choice about, if ``mode`` (their ``/mt me
    autoplay:``) lets the bot make it for them; None when there is a decision to make.

    ``forced``: the only legal move is a draw, a pass, or the end of a fast start. ``only``:
    also the only legal tile play — unless it leaves them one tile under the knock rule
    (whether to knock is theirs) — since it can go nowhere else. Never while a side move (a
    knock, a catch) is open to them: that is a choice that matters."""
    if mode == "off" or not view.my_turn or len(view.legal) != 1 or view.side_moves:
        return None
    move = view.legal[0]
    if move in FORCED:
        return move
    if mode != "only" or not isinstance(move, Play):
        return None
    if view.rules.knock and view.hand is not None and len(view.hand) <= 2:
        return None
    return move


class Turns:
    """The turn use case over the game service and, where there is one, the scheduler's (the
    terminal game has no away players and no pings)."""

    def __init__(self, games: GameService, schedule: ScheduleService | None = None) -> None:
        self.games = games
        self.schedule = schedule

    async def take(
        self,
        game_id: int,
        user_id: int,
        move: Move,
        now: datetime,
        *,
        expected_version: int | None = None,
        knock: bool = False,
        made_in: Place | None = None,
        seen_version: int | None = None,
    ) -> Turn:
        """Make ``user_id``'s move (an engine move: the front end reads the notation;
        ``knock``: announce the last tile with it), and the pass the rules force after a draw
        that fits nowhere. Computer players are left to :meth:`until_human`, so the mover
        hears of their own move first. ``made_in``: the server and channel a move picked from
        a list came from, checked in the move's own read (so the pick reads nothing before
        it). A refusal raises and changes nothing; a pick whose value could not be read is
        refused by :meth:`refuse_unread`. ``seen_version``: the version the caller's look-up
        has just read (see :meth:`GameService.move`)."""
        svc = self.games
        if move == KNOCK:
            # A knock does not end the turn and may come after the table moved on: no version.
            knocked = await svc.move(
                game_id, user_id, KNOCK, now, computer_moves=0, made_in=made_in
            )
            return Turn((knocked,))
        # The player's other games are read beside the commit, not after it: the move
        # changes none of them, and the mover's answer then waits for one round trip fewer.
        ahead = self._read_waiting(game_id, user_id)
        try:
            out = await svc.move(
                game_id,
                user_id,
                move,
                now,
                expected_version=expected_version,
                knock=knock,
                computer_moves=0,
                made_in=made_in,
                seen_version=seen_version,
            )
            applied = out.steps[0].applied if out.steps else None
            if applied is None or not applied.drawn:
                return Turn((out,), waiting=await self.waiting(out, user_id, ahead))
            tile = applied.drawn[-1]
            view = await svc.seat_view(game_id, user_id)
            fits = tuple(m.train for m in view.legal if isinstance(m, Play) and m.tile == tile)
            if applied.must_play_drawn or not (view.my_turn and tuple(view.legal) == (PASS,)):
                return Turn((out,), Drawn(tile, applied.must_play_drawn, fits, passed=False))
            passed = await svc.move(game_id, user_id, PASS, now, computer_moves=0)
            drawn = Drawn(tile, False, (), passed=True)
            return Turn((out, passed), drawn, await self.waiting(passed, user_id, ahead))
        finally:
            _drop(ahead)

    def _read_waiting(self, game_id: int, user_id: int) -> asyncio.Task[list[WaitingRow]] | None:
        """Start reading the player's other games waiting on them (None: no scheduler)."""
        if self.schedule is None:
            return None
        rows = self.schedule.rows
        return asyncio.ensure_future(rows.waiting_on(user_id, NEXT_GAMES, but=game_id))

    @staticmethod
    async def waiting(
        last: Outcome, user_id: int, ahead: asyncio.Task[list[WaitingRow]] | None
    ) -> tuple[WaitingRow, ...]:
        """The player's other games waiting on them, once their turn in this one is over
        (none while it goes on: a double, a drawn tile to play): one bounded read, carried by
        the answer the move sends anyway (issue 46: no request of its own); ``ahead``: that
        read, started beside the move's commit (None: no scheduler, nothing to tell)."""
        nxt = last.next_player
        if ahead is None or (nxt is not None and nxt.user_id == user_id):
            return ()
        return tuple(await ahead)

    async def refuse_unread(
        self,
        game_id: int,
        user_id: int,
        exc: MoveError,
        *,
        expected_version: int | None = None,
        made_in: Place | None = None,
    ) -> NoReturn:
        """Refuse a picked move whose value the front end could not read (``exc``), as
        :meth:`take` would refuse it: the same checks in the same order, then what was sent."""
        await self.games.refuse_unread(
            game_id, user_id, exc, expected_version=expected_version, made_in=made_in
        )

    async def until_human(
        self, game_id: int, outs: Sequence[Outcome], now: datetime
    ) -> AsyncIterator[Outcome]:
        """The turns nobody present will take, after ``outs``, each yielded as it commits:
        computer players' moves one at a time, and the turns of away players played for them
        exactly as the scheduler's ``away`` row would (same event, same fact; the turn's row
        goes with it), in turn order, until a present human is to move or the match ends.

        Away turns stop at the second round end in one call: a game whose humans are all away
        advances a round or so per announcement (the next away turn is left to the
        scheduler), never a whole match under one lock. With a present human, their turn
        always comes before a second round end."""
        last = outs[-1] if outs else None
        ended = sum(len(o.rounds_ended) for o in outs)
        for _ in range(MAX_COMMITS):
            if last is None or last.computer_pending:
                out = await self.games.advance_computers(game_id, now, max_moves=1)
                if out.steps:
                    last = out
                    ended += len(out.rounds_ended)
                    yield out
                    if out.computer_pending:
                        continue
            nxt = last.next_player if last is not None else None
            if (
                self.schedule is None
                or last is None
                or nxt is None
                or nxt.is_computer
                or nxt.user_id is None
                or last.game.status is not GameStatus.ACTIVE
                or ended > 1
            ):
                return
            # Their own standing order first (issue 46): what they queued, not a policy's.
            for_them = await self.play_order(game_id, nxt.user_id, now)
            if for_them is None:
                played = await self.schedule.play_away_turn(game_id, nxt.user_id, now)
                for_them = played.outcome if played is not None else None
            if for_them is None:
                for_them = await self.play_forced(game_id, nxt.user_id, now)
            if for_them is None:
                return  # a present human's decision: theirs to take
            last = for_them
            ended += len(last.rounds_ended)
            yield last

    async def play_order(self, game_id: int, user_id: int, now: datetime) -> Outcome | None:
        """Play ``user_id``'s standing order at their turn, if they queued one and it may
        play (:func:`bot.service.orders.play`: one commit); None, when they have none (one
        read), it stopped (why is kept for their turn DM) or it is not their turn."""
        row = await self.games.ledger.store.order(game_id, user_id)
        if row is None:
            return None
        return await orders.play(self.games.ledger, row, now)

    async def play_forced(self, game_id: int, user_id: int, now: datetime) -> Outcome | None:
        """Play ``user_id``'s turn for them if it leaves them no choice and their ``/mt me
        autoplay:`` allows it (:func:`no_choice`), move by move until the turn is over or a
        decision is left (a drawn tile that fits: where to play it is theirs unless it is the
        only move and they said ``only``). One commit, its moves made by nobody after an
        ``autoplay`` marker, a ``turn-played-for`` fact first (``reason="autoplay"``); the
        computer players who follow are left to :meth:`until_human`. None, and nothing
        changed, when it is not their turn or there is a decision to make."""
        now = utc(now)
        async with self.games.ledger.commit(game_id, now) as c:
            g = c.game
            m = g.match
            if g.row.status is not GameStatus.ACTIVE or m is None or m.round is None:
                return None
            seat = m.round.current_seat
            if seat is None or g.seats[seat].user_id != user_id or g.seats[seat].computer:
                return None
            if no_choice(view_for(m, seat), "only") is None:
                return None  # the common case, told without reading their settings
            mode = (await self.games.user_settings(user_id)).autoplay_mode
            player = c.players[seat]
            for _ in range(8):  # a turn is a handful of moves (a draw, then a pass)
                rnd = m.round
                if m.is_over or rnd is None or rnd.result is not None:
                    break
                move = no_choice(view_for(m, seat), mode)
                if move is None:
                    break
                if not c.steps:
                    c.event(AUTOPLAY_KIND, {"seat": seat, "user": user_id}, None)
                if c.apply(player, move, None).turn_over:
                    break
            if not c.steps:
                return None
            pending = await c.after_move(0)
            c.facts.insert(
                0,
                played_for(
                    players_of(g.seats)[seat].name,
                    seat,
                    c.steps,
                    user_id=user_id,
                    reason=AUTOPLAY_KIND,
                    policy=AUTOPLAY_KIND,
                ),
            )
            return await c.write(pending)

    async def play_out(
        self,
        game_id: int,
        outs: Sequence[Outcome],
        actor_id: int | None,
        now: datetime,
        *,
        looking: bool = True,
    ) -> PlayedOut:
        """The rest of a turn after ``outs`` (the actor's move; none when the scheduler or
        start-up calls): the turns nobody present will take (:meth:`until_human`, each its own
        commit), then who is told and what they read (:meth:`told`). The announcer's one call:
        it says this value and decides nothing.

        ``looking``: whether the actor sees what is played after their move (their
        interaction's answer carries it). The outbox's delivery after a crash names the mover
        who moves again, but they saw only their own move's ✅: a turn played for them by the
        restarted bot (no choice, away) that comes back to them is news, and pings them."""
        played = list(outs)
        more = [out async for out in self.until_human(game_id, outs, now)]
        if more and not looking:
            actor_id = None
        return await self.told(played + more, actor_id, now)

    async def told(
        self, outs: Sequence[Outcome], actor_id: int | None, now: datetime, *, ping: bool = True
    ) -> PlayedOut:
        """``outs`` as the announcer tells them, nothing played: the table as it stands, the
        rounds that ended and the match's end (:meth:`ends`), and (``ping``) the ping of the
        player to move with what they read (:meth:`news`)."""
        if not outs:
            return PlayedOut(())
        last = outs[-1]
        game = last.game
        table = None
        if game.round_no is not None and game.status is not GameStatus.LOBBY:
            table = await self.games.table_view(game.id)
        turn_ping = await self.ping(last, actor_id, now) if ping else None
        news = None
        if turn_ping is not None and game.round_no is not None:
            news = await self.news(game.id, turn_ping)
        rounds, final, end = await self.ends(outs, now)
        return PlayedOut(tuple(outs), turn_ping, table, news, rounds, final, end)

    async def ends(
        self, outs: Sequence[Outcome], now: datetime
    ) -> tuple[tuple[RoundReport, ...], RoundReport | None, tuple[TurnPing, ...]]:
        """The rounds ``outs`` ended, as reports; and once the match is over its final report
        (None when no round was over) and the pings of its end: every human who played it, by
        the one ping rule (:func:`~bot.service.outbox.pinged`), as their settings say."""
        games, last = self.games, outs[-1]
        game = last.game
        rounds = [
            await games.round_report(game.id, e.round_no) for o in outs for e in o.rounds_ended
        ]
        if last.match_over is None:
            return tuple(rounds), None, ()
        try:
            final: RoundReport | None = await games.round_report(game.id)
        except errors.WrongPhase:
            final = None
        heard = pinged(game.status, [s.player for s in last.match_over.standings], None, None)
        end = []
        if self.schedule is not None:
            end = [await self.schedule.turn_ping(uid, now, turn=False) for uid in heard.end]
        return tuple(rounds), final, tuple(end)

    async def news(self, game_id: int, ping: TurnPing) -> TurnNews | None:
        """What the pinged player reads (see :class:`TurnNews`), as far as their ping carries
        it: the actor's hand alone (``here``); a DM's hand, digest and standings; a mention's
        digest; nothing for a ping that carries no text."""
        games, uid = self.games, ping.user_id
        if ping.here:
            return TurnNews(await games.seat_view(game_id, uid))
        if ping.dm and ping.settings is not None:
            view = await games.seat_view(game_id, uid)
            digest = await games.digest(game_id, uid)
            stopped = None
            row = await games.ledger.store.order(game_id, uid)
            if row is not None and row.note is not None:  # told until they next move
                note = orders.Note.from_json(row.note)
                mine = await games.ledger.store.last_move_by(game_id, uid)
                stopped = note if mine <= note.seq else None
            return TurnNews(view, digest, await games.standings(game_id), stopped)
        if ping.mention:
            return TurnNews(None, await games.digest(game_id, uid))
        return None

    async def ping(self, last: Outcome, actor_id: int | None, now: datetime) -> TurnPing | None:
        """How the human now to move hears of it. Who, by the one ping rule
        (:func:`~bot.service.outbox.pinged`, which the commit's debt and the match's end ask
        too): nobody for a computer or a game not being played; the actor who moves again is
        already looking (``here``: their hand comes with their answer, drawn as their settings
        say); anyone else as their settings and quiet hours say
        (:func:`~bot.service.timing.turn_ping`)."""
        game = last.game
        heard = pinged(game.status, game.players, last.next_player, actor_id)
        if heard.turn is None:
            return None
        if heard.looking:
            settings = await self.games.user_settings(heard.turn)
            return TurnPing(
                heard.turn, dm=False, mention=False, quiet_until=None, here=True, settings=settings
            )
        if self.schedule is None:
            return None
        return await self.schedule.turn_ping(heard.turn, now)


def _drop(task: asyncio.Task[Any] | None) -> None:
    """A read started ahead and not needed (a refusal, a double): cancelled if still running,
    its failure taken if it failed (the move's own error, if any, is the one that counts)."""
    if task is None:
        return
    if not task.done():
        task.cancel()
    elif not task.cancelled():
        task.exception()
