"""The catch-up digest: what changed in a game since a player's last turn, as plain data.

A player coming back after hours wants the few facts that changed their position, not the
channel's scroll: the moves made on their own train, trains opened or closed, the Mexican
Train started, doubles waiting to be covered, players down to one tile, rounds that ended,
turns the bot played for them, and where their own train ends now. A :class:`Digest` holds
them: plain frozen data, no Discord and no language, which :mod:`bot.ui.catchup` puts into
words. How a digest is read off a game's log (since when, which rounds are replayed) is
:mod:`bot.service.catchup`'s, the feature's use case; here is only what it holds, which
the turn's DM and the catch-up's words read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.engine import Applied, Move, Play, Tile

#: How many moves a spectator's digest goes back.
RECENT = 10


@dataclasses.dataclass(frozen=True, slots=True)
class SeenMove:
    """One move as the table saw it (what a drawn tile was stays hidden: only counted)."""

    seq: int
    round_no: int
    #: Who moved (for a catch: the catcher; ``applied.seat`` is the one caught).
    seat: int
    move: Move
    #: The engine's record of what the move did, with ``drawn`` emptied (private to the
    #: drawer) unless the reader's seat drew (a draw the bot made for them).
    applied: Applied
    #: Tiles the move made someone draw (a draw: 1; a catch: the penalty drawn).
    drawn: int
    #: A computer player's move (not a turn played for a human).
    by_computer: bool
    #: ``timeout``, ``away`` or ``autoplay``: the bot played this human's turn for them.
    played_for: str | None

    @property
    def train(self) -> int | None:
        """The train a tile went on (a seat, or :data:`~bot.engine.MEXICAN`), else None."""
        return self.move.train if isinstance(self.move, Play) else None

    @property
    def tile(self) -> Tile | None:
        return self.move.tile if isinstance(self.move, Play) else None


def mixed_reasons(turn: Sequence[SeenMove]) -> bool:
    """Whether one turn's moves were played for different reasons: a standing order that
    ended on a double, then the only tile that covers it, which the bot played for the
    player (they had no choice); or a draw the bot made for them, then their own moves.
    The words tell them apart (``catchup.then``); a turn of one reason reads as ever."""
    return any(m.played_for != turn[0].played_for for m in turn)


@dataclasses.dataclass(frozen=True, slots=True)
class RoundOver:
    """A round that ended within the digest."""

    round_no: int
    scores: tuple[int, ...]
    #: The seat that went out, or None for a blocked round.
    went_out: int | None
    #: Match totals after this round.
    totals: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class OpenDouble:
    """A double waiting to be covered: the train it ends and the double's tile."""

    train: int
    tile: Tile


@dataclasses.dataclass(frozen=True, slots=True)
class TakenOver:
    """A seat a computer player took over within the digest (``kind``: leave, kick, replace)."""

    seat: int
    kind: str


@dataclasses.dataclass(frozen=True, slots=True)
class Digest:
    """What changed in a game since a moment that matters to its reader (see the module)."""

    game_id: int
    names: tuple[str, ...]
    #: The reader's seat; None for a spectator.
    seat: int | None
    #: ``turn`` (since the reader's last turn), ``start`` (they have not played a turn yet:
    #: since the first deal) or ``recent`` (a spectator: the last :data:`RECENT` moves).
    since: str
    #: The round the digest starts in, and the round being played now (0-based).
    since_round: int
    round_no: int
    rounds_total: int
    #: Every move since, oldest first: undone moves left out, and the reader's own moves too
    #: (they know them; a turn played for them is not theirs and is in).
    moves: tuple[SeenMove, ...]
    #: Rounds that ended since, the one the reader's own last move ended included.
    rounds_over: tuple[RoundOver, ...]
    taken_over: tuple[TakenOver, ...]
    # ---- the table now
    engine: Tile
    #: Doubles to cover, in the order they must be covered (empty once the round is over).
    open_doubles: tuple[OpenDouble, ...]
    #: Other players holding one tile now, and whether each has knocked.
    one_tile: tuple[tuple[int, bool], ...]
    #: Trains whose marker is up now and was not at the start of the digest (in this round),
    #: and trains whose marker came off since.
    opened: tuple[int, ...]
    closed: tuple[int, ...]
    #: The reader's train: the pip it ends on, whether its marker is up; their tile count.
    my_end: int | None
    my_marked: bool
    my_tiles: int | None
    #: Whose turn it is (None when the round or the match is over).
    turn: int | None
    totals: tuple[int, ...]
    match_over: bool
    #: The reader's own turns someone else took back since (an undo by the host): who did
    #: it (a name; empty when they hold no seat) and the moves, in notation.
    undone: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: Whether the reader's train has a tile yet: an unstarted one "ends" on the engine's
    #: pip, which a player reads as "not started, needs 12", as the picture says it.
    my_started: bool = True

    @property
    def spectator(self) -> bool:
        return self.seat is None

    @property
    def on_my_train(self) -> tuple[SeenMove, ...]:
        """Tiles others laid on the reader's train in the round being played, in order (a
        turn played for the reader is told on its own, as theirs)."""
        if self.seat is None:
            return ()
        return tuple(
            m
            for m in self.moves
            if m.round_no == self.round_no and m.train == self.seat and m.seat != self.seat
        )

    @property
    def played_for_me(self) -> tuple[SeenMove, ...]:
        """Moves the bot made for the reader (their turns while away or out of time)."""
        return tuple(m for m in self.moves if m.seat == self.seat and m.played_for is not None)

    @property
    def last_turn(self) -> int:
        """Where the reader's last turn ended (a seq; -1: before the digest): a turn the bot
        played for them is a turn (issue 47), told by its own line, so "since your last turn"
        starts after the last one it ended. A draw made for them whose tile fits is not: it
        began the turn they play now."""
        ended = [m.seq for m in self.played_for_me if m.applied.turn_over or m.applied.round_over]
        return max(ended, default=-1)

    @property
    def elsewhere(self) -> tuple[SeenMove, ...]:
        """The other moves of the round being played since the reader's last turn (see
        :attr:`last_turn`): neither on the reader's train nor made for them, nor the start of
        the Mexican Train (told on its own: it was told twice, 39 DMs of 39). A round that
        ended since is told by its end line (who went out, what the reader scored); its moves
        changed nothing on the table the reader plays now (its trains are gone), and counting
        them read as this round's (every first DM of a round). At most one rotation: each of
        them is named (issue 47, a big table)."""
        since = self.last_turn
        return tuple(m for m in self._others() if m.seq > since)

    @property
    def earlier(self) -> tuple[SeenMove, ...]:
        """The other moves of the round being played made while the reader's turns were
        played for them, before the last of those (see :attr:`elsewhere`): whole rotations,
        which a DM only counts."""
        since = self.last_turn
        return tuple(m for m in self._others() if m.seq < since)

    def _others(self) -> tuple[SeenMove, ...]:
        mine = {m.seq for m in self.on_my_train} | {m.seq for m in self.played_for_me}
        started = self.mexican_started
        if started is not None:
            mine.add(started.seq)
        return tuple(m for m in self.moves if m.seq not in mine and m.round_no == self.round_no)

    @property
    def mexican_started(self) -> SeenMove | None:
        """The move that started the Mexican Train in this round, if it came since."""
        for m in self.moves:
            if m.round_no == self.round_no and m.applied.started_mexican:
                return m
        return None

    @property
    def new_round(self) -> bool:
        """A round was dealt since the digest's start."""
        return self.round_no != self.since_round


__all__ = [
    "RECENT",
    "Digest",
    "OpenDouble",
    "RoundOver",
    "SeenMove",
    "TakenOver",
]
