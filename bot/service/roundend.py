"""A finished round as everyone may now see it, rebuilt from the event log.

Once a round is over its hands are public: players lay their leftover tiles down to count
them. :func:`round_report` rebuilds one ended round from the match's recorded events (the
round's deal and its moves, nothing else), so the round-end post and the after-match
``/table`` show the board and the hands exactly as the round ended, even after the next
round was dealt — never a hand still being played. Pure: the caller reads the events under
the game's lock and calls this outside it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.engine import Event, Match, Round, RoundStarted, SeatView, round_view
from bot.engine.match import Moved
from bot.service import errors
from bot.service.outcome import Player, Standing, standings_from


@dataclasses.dataclass(frozen=True, slots=True)
class MatchFacts:
    """A finished match in a few figures beyond its standings (issue 47): how many turns, the
    best round and who went out most. (How long it took is the game's own dates.)"""

    #: Turns taken: runs of moves by one seat (a draw and the play after it are one turn).
    turns: int
    #: The lowest score taken in a round by a player who did not go out of it: (seat, 0-based
    #: round, points); None when every round's points were someone going out.
    best_round: tuple[int, int, int] | None
    #: The seats that went out of the most rounds, and how many (empty: none went out).
    went_out_most: tuple[int, ...]
    went_out_count: int


def match_facts(match: Match) -> MatchFacts:
    """The figures of ``match`` (its rounds played so far, its events)."""
    turns, last = 0, None
    for event in match.events:
        seat = event.seat if isinstance(event, Moved) else None
        turns += seat is not None and seat != last
        last = seat
    best = None
    for r, result in enumerate(match.results):
        for seat, points in enumerate(result.scores):
            if seat != result.went_out and (best is None or points < best[2]):
                best = (seat, r, points)
    outs = [sum(1 for res in match.results if res.went_out == s) for s in range(match.players)]
    most = max(outs, default=0)
    seats = tuple(s for s, n in enumerate(outs) if n == most) if most else ()
    return MatchFacts(turns, best, seats, most)


@dataclasses.dataclass(frozen=True, slots=True)
class RoundReport:
    """One ended round: its final board and hands, its scores, and the match after it."""

    game_id: int
    #: 0-based.
    round_no: int
    rounds_total: int
    players: tuple[Player, ...]
    #: The spectator's view of the round as it ended: the trains, every leftover hand (in
    #: ``visible_hands``), the round's result, and the totals, round scores and winners of
    #: the match after this round (not after any later one).
    board: SeatView
    #: Standings after this round: best first, equal totals sharing a place.
    standings: tuple[Standing, ...]

    @property
    def scores(self) -> tuple[int, ...]:
        """This round's points, by seat."""
        assert self.board.result is not None
        return self.board.result.scores

    @property
    def went_out(self) -> int | None:
        """The seat that went out, or None for a blocked round."""
        assert self.board.result is not None
        return self.board.result.went_out

    @property
    def totals(self) -> tuple[int, ...]:
        return self.board.totals

    @property
    def history(self) -> tuple[tuple[int, ...], ...]:
        """Every round's points up to and including this one, by seat."""
        return self.board.round_scores

    @property
    def match_over(self) -> bool:
        return self.board.match_over

    @property
    def winners(self) -> tuple[Player, ...]:
        return tuple(self.players[s] for s in self.board.winners)

    #: At the match's end, its figures beyond the standings (None before, or not read).
    facts: MatchFacts | None = None


def round_report(
    game_id: int, match: Match, players: tuple[Player, ...], round_no: int
) -> RoundReport:
    """Round ``round_no`` of ``match`` as it ended, from the match's events.

    Raises :class:`~bot.service.errors.WrongPhase` when that round is not over (or was never
    dealt): a round still being played has hidden hands.
    """
    if not 0 <= round_no < match.rounds_played:
        raise errors.WrongPhase(
            f"round {round_no + 1} is not over", code="round-not-over", round=round_no + 1
        )
    rnd = _replay_round(match, round_no)
    results = match.results[: round_no + 1]
    totals = tuple(sum(r.scores[s] for r in results) for s in range(match.players))
    last = round_no + 1 == match.rules.rounds_total  # over (checked above): so is the match
    winners = tuple(match.winners()) if last else ()
    board = dataclasses.replace(
        round_view(rnd, None, match),
        totals=totals,
        round_scores=tuple(r.scores for r in results),
        match_over=last,
        winners=winners,
    )
    if board.result != match.results[round_no]:  # the log and the match disagree: never show it
        raise errors.GameCorrupt(game_id, f"round {round_no + 1} does not replay to its result")
    standings = standings_from(players, totals, [r.went_out for r in results], winners)
    facts = match_facts(match) if last else None
    return RoundReport(
        game_id, round_no, match.rules.rounds_total, players, board, standings, facts
    )


def _replay_round(match: Match, round_no: int) -> Round:
    """The round dealt from its recorded order, with its recorded moves applied."""
    rnd: Round | None = None
    for event in _round_events(match.events, round_no):
        if isinstance(event, RoundStarted):
            rnd = Round.deal(
                match.rules, match.names, event.round_no, event.order, match.engine_version
            )
        elif rnd is not None:
            rnd.apply(event.move, event.seat)
    if rnd is None or rnd.result is None:
        raise errors.WrongPhase(
            f"round {round_no + 1} is not over", code="round-not-over", round=round_no + 1
        )
    return rnd


def _round_events(events: Sequence[Event], round_no: int) -> list[Event]:
    """The deal of round ``round_no`` and the moves after it, up to the next deal."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, RoundStarted):
            if out:
                break
            if event.round_no == round_no:
                out.append(event)
        elif out:
            out.append(event)
    return out
