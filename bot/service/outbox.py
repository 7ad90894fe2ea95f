"""What a committed move owes the players, kept with the move until it is delivered (issue 37).

The commit path (:meth:`~bot.service.commit.Commit.write`) writes the debt in the move's
own transaction (:func:`owe`): the channel is owed a post telling every event since the last
one told, and the player now to move is owed their ping. The Discord layer delivers it at
once and clears it; when it could not (the process died between the commit and the post, a
send failed with a 5xx or a timeout) the debt is still in the database, and the deliverer
(``bot/ui/deliver.py``) pays it later. It records intents, not messages: :func:`owed_outcome`
rebuilds what the post must say from the event log, exactly as the live path would have said
it, so nothing rendered is stored and a retry says what is true now.

Nothing here knows Discord; time comes in as ``now``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from types import MappingProxyType

from bot.engine import Match
from bot.engine.match import RoundStarted
from bot.service.eventlog import (
    AUTOPLAY_KIND,
    ENGINE_KINDS,
    ORDER_KIND,
    UNDO_KIND,
    cancelled_seqs,
    moves_by_nobody,
)
from bot.service.outcome import (
    Fact,
    FactCode,
    MatchEnd,
    Outcome,
    Player,
    RoundEnd,
    Step,
    played_for,
    players_of,
    read_rules,
    standings_of,
    summarise,
)
from bot.service.replay import decode_event
from bot.store import EventRow, GameRecord, GameStatus, SeatRow, Tx
from bot.store.outbox import OutboxStore, OutboxTx, Owed

__all__ = [
    "GRACE", "Outbox", "OutboxStore", "Owed", "Pinged", "backoff", "owe", "owed_outcome", "pinged"
]  # fmt: skip

#: How long the committing process has to deliver a debt before another deliverer may: the
#: live path posts within a second or two; this only matters for a process that died.
GRACE = timedelta(seconds=20)

#: Retries of a failed send wait this long, doubling, up to :data:`MAX_BACKOFF`.
FIRST_BACKOFF = timedelta(seconds=5)
MAX_BACKOFF = timedelta(minutes=10)


def backoff(attempts: int) -> timedelta:
    """The wait before retry number ``attempts + 1`` of a failed send."""
    wait: timedelta = FIRST_BACKOFF * (2 ** min(attempts, 16))
    return min(MAX_BACKOFF, wait)


@dataclasses.dataclass(frozen=True, slots=True)
class Pinged:
    """Who hears of a change, by the one ping rule (:func:`pinged`): the human now to move
    (``turn``; None: nobody — a computer, no turn, a game not being played), whether that is
    the actor (``looking``: they move again and are already looking, so their hand comes
    with their answer and nothing pings them), and at the match's end every human who played
    it (``end``); and whom a post that names players pings (``named``: a season's end names
    its top players and the league's moves, issue 48). How each hears (a DM, a mention, quiet
    hours) is their settings' (:func:`bot.service.timing.turn_ping`)."""

    turn: int | None = None
    looking: bool = False
    end: tuple[int, ...] = ()
    named: tuple[int, ...] = ()

    @property
    def owed(self) -> int | None:
        """The turn's ping a commit owes: the player to move, unless they are looking."""
        return None if self.looking else self.turn


def pinged(
    status: GameStatus,
    players: Sequence[Player],
    to_move: Player | None,
    actor: int | None,
    *,
    named: Sequence[int] = (),
) -> Pinged:
    """The ping rule, the one place that decides who hears of a change: the commit's debt
    (:func:`owe`), the turn's ping (:meth:`bot.service.turn.Turns.ping`), the match's end
    (:mod:`bot.ui.matchend`) and a season's end (:attr:`bot.service.seasons.SeasonEnd.heard`)
    all ask it. ``players``: the game's seats (a season's: its league players); ``to_move``:
    whose turn it is now; ``actor``: who made the change (None: the scheduler, start-up);
    ``named``: the players a post names, each pinged by it once — exactly those, never a role
    or everyone."""
    turn = None
    if status is GameStatus.ACTIVE and to_move is not None and not to_move.is_computer:
        turn = to_move.user_id
    end: tuple[int, ...] = ()
    if status is GameStatus.FINISHED:
        end = tuple(p.user_id for p in players if not p.is_computer and p.user_id is not None)
    return Pinged(turn, turn is not None and turn == actor, end, tuple(dict.fromkeys(named)))


async def owe(
    tx: Tx,
    game_id: int,
    first_seq: int,
    version: int,
    status: GameStatus,
    turn_seat: int | None,
    seats: tuple[SeatRow, ...],
    actor: int | None,
    now: datetime,
) -> None:
    """Inside the move's transaction: the channel is owed a post of the events from
    ``first_seq`` on, and who hears of it by the ping rule (:func:`pinged`) their ping: the
    human to move the ping of their turn (not the ``actor``, who moves again and is already
    looking), and after the match's last move every human still seated the news of its end
    (a DM, or the mention they chose or their closed DMs leave)."""
    players = players_of(seats)
    to_move = players[turn_seat] if turn_seat is not None and 0 <= turn_seat < len(seats) else None
    heard = pinged(status, players, to_move, actor)
    await OutboxTx(tx).owe(game_id, first_seq, version, heard.owed, now + GRACE, heard.end)


#: No DM channel learned.
NO_CHANNELS: Mapping[int, int | None] = MappingProxyType({})


class Outbox(OutboxStore):
    """The debts as the Discord layer pays them: the store's reads and leases
    (:class:`OutboxStore`), and :meth:`delivered`, the announcement's last step."""

    async def delivered(
        self,
        game_id: int,
        version: int,
        *,
        post: bool,
        ping: bool,
        held: bool = False,
        dm_channels: Mapping[int, int | None] = NO_CHANNELS,
        now: datetime,
    ) -> None:
        """Clear what an announcement delivered for the game as it stood at ``version`` (see
        :meth:`OutboxTx.delivered`), and keep the DM channels it opened on the way
        (``dm_channels``: user -> channel, None for one Discord said is gone), in one
        transaction: a player's first DM costs the move no write of its own. Should the
        process die before this, the channel is opened again on the next DM (Discord
        answers with the same channel) and kept then."""
        async with self.store.transaction() as tx:
            await OutboxTx(tx).delivered(game_id, version, post=post, ping=ping, held=held)
            for user_id, channel_id in dm_channels.items():
                await tx.put_dm_channel(user_id, channel_id, now)

    async def looking(self, game_id: int) -> int | None:
        """Who the game's last change was made by, as far as its ping goes (see
        :func:`looking`; None: no game)."""
        record = await self.store.load(game_id)
        return None if record is None else looking(record.events)


#: Events made by nobody that belong to the cycle of the change before them: a computer's
#: move, a turn with no choice played for its player, a round dealt.
_SAME_CYCLE = frozenset({"move", "round", AUTOPLAY_KIND, ORDER_KIND})


def looking(events: tuple[EventRow, ...]) -> int | None:
    """The user who made the newest change someone made (a move, an undo, a Start…) when
    everything after it was played by nobody in the same cycle (computer moves, a turn with
    no choice): on the live path that user was answering, and a turn it brought back to them
    was said with their answer, never pinged (the announcer's rule). A ping the commits owed
    them is not one to deliver after a crash (issue 50: the restarted bot DMed them too).
    None after a turn the scheduler played (a timeout, an away turn): news to everyone."""
    for e in reversed(events):
        if e.actor is not None:
            return e.actor
        if e.kind not in _SAME_CYCLE:
            return None
    return None


def owed_outcome(record: GameRecord, from_seq: int) -> Outcome:
    """The outcome a post of the events from ``from_seq`` on tells: the game as it stands,
    the moves (an undo's cancelled ones left out, the undo told as an ``undone`` fact), the
    rounds dealt and ended, the match's end — what the live path's outcomes held, rebuilt
    from the log alone."""
    row, seats = record.game, record.seats
    rules = read_rules(row)
    players = players_of(seats)
    names = [s.display_name for s in seats]
    gone = cancelled_seqs(row.id, record.events)
    match: Match | None = None
    steps: list[Step] = []
    ended: list[RoundEnd] = []
    started: list[int] = []
    facts = tuple(
        undone_fact(e, record.events, players) for e in record.events
        if e.kind == UNDO_KIND and e.seq >= from_seq
    )  # fmt: skip
    for e in record.events:
        if e.kind not in ENGINE_KINDS or e.seq in gone:
            continue
        event = decode_event(e, rules, len(names))
        if isinstance(event, RoundStarted):
            match = match or Match(rules, names, row.engine_version)
            rnd = match.start_round(event.order)
            if e.seq >= from_seq:
                started.append(rnd.round_no)
            continue
        if match is None or match.round is None:
            continue
        round_no = match.round.round_no
        applied = match.apply(event.move, event.seat)
        if e.seq < from_seq:
            continue
        steps.append(Step(e.seq, players[event.seat], event.move, applied, round_no))
        if applied.round_over:
            result = match.results[-1]
            ended.append(RoundEnd(round_no, result.scores, result.went_out, tuple(match.totals)))
    facts += played_for_facts(record.events, from_seq, players, steps)
    match_end = None
    if row.status is GameStatus.FINISHED and match is not None and match.is_over:
        match_end = MatchEnd(
            standings_of(match, players), tuple(players[s] for s in match.winners())
        )
    turn = row.turn_seat
    nxt = players[turn] if row.status is GameStatus.ACTIVE and turn is not None else None
    return Outcome(
        game=summarise(row, seats, rules),
        steps=tuple(steps),
        rounds_ended=tuple(ended),
        rounds_started=tuple(started),
        next_player=nxt,
        match_over=match_end,
        facts=facts,
    )


def undone_fact(undo: EventRow, events: tuple[EventRow, ...], players: tuple[Player, ...]) -> Fact:
    """An undo as the post owed tells it (the live path's words, ``bot.ui.announcer.post_undo``):
    who took back whose turn, its moves, and how many computer moves went with it. Who undid
    it is named as a player when seated, else (a manager) by ``by``, their user id."""
    payload = json.loads(undo.payload)
    by = int(payload["by"])
    player = players[int(payload["player"])]
    host = next((p.name for p in players if p.user_id == by), None)
    seqs = set(payload["seqs"])
    robots = [p.seat for p in players if p.is_computer]
    computers, played_for = moves_by_nobody(events, seqs, robots)
    return Fact.of(
        FactCode.UNDONE,
        host=host,
        by=by,
        name=player.name,
        moves=", ".join(payload["moves"]),
        # What the words need: each move, whose turn it was, every seat's name.
        move_list=tuple(str(m) for m in payload["moves"]),
        seat=player.seat,
        names=tuple(p.name for p in players),
        own=player.user_id == by,
        computers=computers,
        played_for=played_for,
    )


#: The markers before a turn the bot played for a human: no choice (autoplay), their time ran
#: out, or they are away (:mod:`bot.service.turn`, :mod:`bot.service.schedule`).
PLAYED_FOR_KINDS = frozenset({AUTOPLAY_KIND, ORDER_KIND, "timeout", "away"})


def played_for_facts(
    events: tuple[EventRow, ...], from_seq: int, players: tuple[Player, ...], steps: list[Step]
) -> tuple[Fact, ...]:
    """The ``turn-played-for`` facts the live path told, rebuilt from their markers: the
    same words as the live post (its seat's moves right after the marker), so a post
    delivered after a crash reads as the live one would have. A turn since undone (no moves
    left after its marker) is not told."""
    facts: list[Fact] = []
    actor_of = {e.seq: e.actor for e in events}
    for e in events:
        if e.kind not in PLAYED_FOR_KINDS or e.seq < from_seq:
            continue
        payload = json.loads(e.payload)
        seat = int(payload["seat"])
        run: list[Step] = []
        for step in (s for s in steps if s.seq > e.seq):
            # The turn's moves were made by nobody: a move of theirs (a drawn tile they
            # played themselves) or another seat's ends it.
            if step.player.seat != seat or actor_of.get(step.seq) is not None:
                break
            run.append(step)
        first = next((x.seq for x in events if x.seq > e.seq and x.kind == "move"), None)
        if not run or run[0].seq != first:
            continue  # its own moves were undone: what follows is another turn's
        replaced = any(
            x.kind == "replace" and x.seq == e.seq + 1 and json.loads(x.payload)["seat"] == seat
            for x in events
        )
        facts.append(
            played_for(
                players[seat].name,
                seat,
                run,
                user_id=payload.get("user"),
                reason=e.kind,
                policy=payload.get(
                    "policy", e.kind if e.kind in (AUTOPLAY_KIND, ORDER_KIND) else "computer"
                ),
                replaced=replaced,
                missed=payload.get("missed", 0),
            )
        )
    return tuple(facts)
