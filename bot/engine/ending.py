"""How a round ends and what each seat scores for it.

A round ends when a player goes out or when it is blocked: the boneyard is empty and nobody can
play. Functions over a :class:`~bot.engine.state.RoundState`, reading :mod:`bot.engine.legality`
(blocked means "no seat has a legal play"), for the two questions applying a move
(:mod:`bot.engine.round`) asks: is the round blocked after this pass (:func:`blocked`, with
the full reading of docs/rules.md and the older engine's ending kept for replay), and the
scores once it is over (:func:`finish`, with :func:`hand_score` and :func:`tile_score`).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.legality import playable
from bot.engine.moves import DONE, PASS, Play
from bot.engine.rules import Scoring
from bot.engine.state import RoundResult, RoundState
from bot.engine.tiles import Tile

#: The first engine version that waits for a full lap of passes before a round is blocked
#: (issue 15). Rounds played by an older engine keep the old, early ending on replay.
LAP_OF_PASSES_VERSION = 2


#: What the double blank scores under :attr:`Scoring.DOUBLE_BLANK_50` (and, as two blank halves
#: of 25, under the Fundex blanks).
DOUBLE_BLANK_SCORE = 50


def tile_score(tile: Tile, scoring: Scoring) -> int:
    """What one tile left in hand scores: its pips, 25 per blank half (Fundex), or its pips
    with the double blank at 50 (a table's house rule)."""
    if scoring is Scoring.FUNDEX_BLANKS:
        return (25 if tile.high == 0 else tile.high) + (25 if tile.low == 0 else tile.low)
    if scoring is Scoring.DOUBLE_BLANK_50 and tile.high == tile.low == 0:
        return DOUBLE_BLANK_SCORE
    return tile.high + tile.low


def hand_score(hand: Sequence[Tile], scoring: Scoring) -> int:
    """Penalty points for the tiles left in a hand (:func:`tile_score` each)."""
    if scoring is Scoring.PIPS:  # the common case, without a call a tile
        return sum(t.high + t.low for t in hand)
    return sum(tile_score(t, scoring) for t in hand)


def blocked(r: RoundState) -> bool:
    """Whether the pass just made, with the boneyard empty, ends the round blocked.

    docs/rules.md ("End of a round"): blocked when the boneyard is empty, every player has
    passed in turn and still nobody can play. This is that sentence read literally: the
    last turn of every seat was a pass, one after another with no tile played in between
    (a full lap), and still no seat can play. It is *not* "no play can ever become legal
    once every remaining seat's marker is raised", which would end the round before the
    remaining players have passed: the same scores, but turns the written rule still gives
    them (and events the table sees) skipped. Both readings agree on who scores what; only
    this one is the rule.

    Why the lap matters: each pass raises the passer's marker and opens that train to
    everyone, so a seat that could not play a moment ago may be able to once the seats after
    it have passed (issue 15). After a full lap every marker is up and nothing on the table
    can change any more, so "nobody can play" is then final. It is asked of every seat at
    the start of a turn of its own, so the open-double limits hold: a binding open double
    must be satisfied first, oldest first, unless every tile of its number is on the table
    and the release house rule is on; a double laid in a turn counts only in that turn. The
    any-open-train and chain rules only shape the tiles *after* a double within one turn,
    and a fast start is a seat's first turn, which every seat has had by the end of a lap.
    Knock and catch are side moves, not turns: they neither count as passes nor break a run
    of them (with the boneyard empty a catch draws nothing).

    Rounds recorded by engine version 1 end as that engine ended them, as soon as nobody
    could play with the markers as they were: their later events (the next deal) assume it.
    """
    if r.engine_version < LAP_OF_PASSES_VERSION:
        return not _anyone_can_play(r)
    return _passes_in_a_row(r) >= r.players and not _anyone_can_play(r)


def _passes_in_a_row(r: RoundState) -> int:
    """How many turns in a row, up to the last, ended in a pass (at most a lap's worth).

    Read from the round's own log, so a saved position carries it without a field of its
    own. A draw before a pass belongs to the same turn; knocks and catches are not turns.
    """
    count = 0
    for entry in reversed(r.log):
        move = entry.move
        if move is PASS:
            count += 1
            if count >= r.players:
                break
        elif type(move) is Play or move is DONE:
            break
    return count


def _anyone_can_play(r: RoundState) -> bool:
    """With the boneyard empty, whether any seat could play at the start of its turn now."""
    return any(playable(r, s, turn_start=True) for s in range(r.players))


def finish(r: RoundState, went_out: int | None) -> None:
    scoring = r.rules.scoring
    scores = tuple(hand_score(h, scoring) for h in r.hands)
    r.result = RoundResult(scores, went_out)
    r.knock_window = None
    r.catchable.clear()
