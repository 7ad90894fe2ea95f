"""Random-but-legal playouts: the engine's smoke test, benchmark and statistics source.

Each simulated move is chosen uniformly from ``legal_moves()`` by a seeded ``random.Random`` the
caller passes in, so a run is reproducible from its seed. Knock rules are played straight (every
player knocks in time), because a random player that forgets is a separate question.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence

from bot.engine.match import Match
from bot.engine.moves import KNOCK, Move
from bot.engine.round import Round
from bot.engine.rules import Rules

#: Picks a move for the current player from the legal ones.
Chooser = Callable[[Round, random.Random], Move]


def random_move(rnd: Round, rng: random.Random) -> Move:
    moves = rnd.legal_list()
    return moves[int(rng.random() * len(moves))]


@dataclasses.dataclass
class Summary:
    games: int = 0
    rounds: int = 0
    turns: int = 0
    moves: int = 0
    blocked_rounds: int = 0
    score_sum: int = 0
    player_rounds: int = 0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "games": self.games,
            "rounds": self.rounds,
            "turns": self.turns,
            "moves": self.moves,
            "blocked_rounds": self.blocked_rounds,
            "mean_round_score": round(self.score_sum / max(1, self.player_rounds), 2),
        }


def play_round(
    rnd: Round, rng: random.Random, choose: Chooser = random_move, summary: Summary | None = None
) -> None:
    """Play ``rnd`` to its end with ``choose``; moves go straight to the round (no checks)."""
    knock = rnd.rules.knock
    moves = turns = 0
    while rnd.result is None:
        seat = rnd.current
        applied = rnd.apply_unchecked(choose(rnd, rng), seat)
        moves += 1
        if applied.turn_over:
            turns += 1
            if knock and rnd.knock_window is not None:
                rnd.apply_unchecked(KNOCK, rnd.knock_window)
    if summary is not None:
        summary.moves += moves
        summary.turns += turns


def play_match(
    rules: Rules,
    names: Sequence[str],
    rng: random.Random,
    choose: Chooser = random_move,
    summary: Summary | None = None,
    rounds: int | None = None,
) -> Match:
    """Play a match (or its first ``rounds`` rounds) with events recorded, for replay tests."""
    match = Match(rules, names)
    limit = rules.rounds_total if rounds is None else rounds
    while match.needs_deal and match.rounds_played < limit:
        match.start_round(match.shuffle(rng))
        rnd = match.round
        assert rnd is not None
        while rnd.result is None:
            applied = match.apply(choose(rnd, rng))
            if summary is not None:
                summary.moves += 1
                summary.turns += applied.turn_over
            if rules.knock and rnd.knock_window is not None and rnd.result is None:
                match.apply(KNOCK, rnd.knock_window)
        if summary is not None:
            summary.rounds += 1
            summary.blocked_rounds += rnd.result.blocked
            summary.score_sum += sum(rnd.result.scores)
            summary.player_rounds += len(names)
    if summary is not None:
        summary.games += 1
    return match


def simulate_rounds(rules: Rules, players: int, rounds: int, seed: int) -> Summary:
    """Play ``rounds`` independent first rounds as fast as the engine goes (the benchmark)."""
    rng = random.Random(seed)
    names = [f"P{i + 1}" for i in range(players)]
    summary = Summary()
    probe = Match(rules, names)
    for _ in range(rounds):
        rnd = Round.deal(rules, names, 0, probe.shuffle(rng))
        play_round(rnd, rng, summary=summary)
        assert rnd.result is not None
        summary.games += 1  # each simulated game is its first round here
        summary.rounds += 1
        summary.blocked_rounds += rnd.result.blocked
        summary.score_sum += sum(rnd.result.scores)
        summary.player_rounds += players
    return summary
