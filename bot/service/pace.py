"""How long a match takes at its players' pace (issue 46): a pure model the lobby card, the
answer to ``/mt new`` and its ``rounds:`` suggestions tell the table before it starts.

    days = rounds * tiles in the set * TURNS_PER_SET_TILE   (seat turns in the match)
                  * humans / seats * WAIT_SHARE             (turns that wait for a person)
                  * HOURS_PER_WAIT / 24                     (the table's wait for one)

A round takes about as many seat turns whatever the number of seats (fewer tiles each, more
turns around): 69.8 a round at 4 seats and 70.4 at 8 in double-12, 72.5 at 2 in the quick
preset's one round — so the set, not the hands, sets the count.

The three constants are calibrated on ``benchmarks/pace.py`` (whole matches through the fake
Discord at the default model's pace: four players at UTC-5, 0, +1 and +9, asleep 23:00-07:00,
answering a median 40 awake minutes after their turn comes) under the bot's defaults
(``autoplay: only``, no standing orders), from ``python benchmarks/pace.py --players 4 --preset
standard --seeds 5 --orders off``: 4,539 human seat turns in 5 matches of 13 rounds of a
91-tile set (0.768 a tile), 2,683 sittings, the turns a person was waited for (0.591), 329.9
days in all (2.95 hours a sitting): 65.9 days a match by the model, a median of 64.8
measured. At 8 seats (``--players 8 --seeds 2``): 65.9 by the model, 71.0 measured.
docs/benchmarks.md (The pace of a match) gives the runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Rules

#: Seat turns in a round per tile of the set (draws and passes included).
TURNS_PER_SET_TILE = 0.768
#: The share of a human seat's turns that wait for its player (the rest the bot plays at once:
#: no choice, or one legal move; or a turn back to them while they are still looking).
WAIT_SHARE = 0.59
#: Wall-clock hours the table waits for one player's answer, nights across its time zones in.
HOURS_PER_WAIT = 2.95
#: The table the lobby assumes while fewer than this many have joined (the usual table).
ASSUMED_SEATS = 4


@dataclass(frozen=True, slots=True)
class Length:
    """A match's expected length: its rounds, the seats counted, and days."""

    rounds: int
    seats: int
    days: float


def expected_length(rules: Rules, seats: int, humans: int | None = None) -> Length:
    """How long a match of ``rules`` at ``seats`` seats, ``humans`` of them people (all by
    default; a computer seat never waits), takes at the calibrated pace. ``seats`` outside
    what the rules deal for is brought within it."""
    low, high = rules.player_range
    seats = min(max(seats, low), high)
    humans = seats if humans is None else min(max(humans, 0), seats)
    turns = rules.rounds_total * rules.set_size * TURNS_PER_SET_TILE
    waits = turns * humans / seats * WAIT_SHARE
    return Length(rules.rounds_total, seats, waits * HOURS_PER_WAIT / 24)


def shorter_rounds(rules: Rules) -> tuple[int, ...]:
    """The round counts ``/mt new rounds:`` suggests, longest first: all of them, about half,
    about a third (each at least one, none twice)."""
    total = rules.first_double + 1
    picks = (total, (total + 1) // 2, (total + 2) // 3)
    return tuple(sorted({max(1, n) for n in picks}, reverse=True))
