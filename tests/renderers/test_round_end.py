"""The round-end picture: every random round end renders within bounds and readable on a phone,
its size depends on the player count alone, and it refuses a round still being played."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.engine import PRESETS, Match, view_for
from bot.engine.simulate import random_move
from renderers import text_sizes
from renderers.round_end import RoundEndOptions, places, render_round_end, round_end_size
from tests.renderers.positions import playout, spectator
from tests.renderers.test_render import HOSTILE

#: Phone-first, like the table: 800 px wide, at most 1.75 times as tall.
MAX_W, MAX_H = 800, 1400
#: 9 px once Discord shows the 800 px picture 400 px wide.
MIN_FONT = 18


def _counts(preset: str) -> list[int]:
    low, high = PRESETS[preset].player_range
    return sorted({low, (low + high) // 2, high})


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_random_round_end_renders_within_bounds_and_readable(preset: str) -> None:
    for players in _counts(preset):
        rng = random.Random(players * 31 + len(preset))
        m = Match(PRESETS[preset], [f"P{i + 1}" for i in range(players)])
        for _ in range(min(2, m.rules.rounds_total)):
            m.start_round(m.shuffle(rng))
            rnd = m.round
            assert rnd is not None
            while rnd.result is None:
                m.apply(random_move(rnd, rng))
            view = view_for(m, None)
            theme = "light" if m.rounds_played % 2 else "dark"
            image = render_round_end(view, RoundEndOptions(theme=theme, language="fr"))
            assert image.size == round_end_size(players)
            assert image.width <= MAX_W and image.height <= MAX_H, (preset, players, image.size)
            small = [(px, label) for px, label in text_sizes(image) if px < MIN_FONT]
            assert not small, (preset, players, small[:5])
            # Every leftover tile was drawn: its two numerals, or a "+N" chip for the rest.
            drawn = [label for _, label in text_sizes(image)]
            assert any(label.startswith("+") for label in drawn) or all(
                str(t.high) in drawn and str(t.low) in drawn
                for hand in view.visible_hands
                for t in hand or ()
            )


def test_a_round_still_being_played_is_refused() -> None:
    m = playout(4, 3, 20)
    assert m.round is not None and m.round.result is None
    with pytest.raises(ValueError, match="round that is over"):
        render_round_end(spectator(m))


def test_the_size_depends_only_on_the_player_count() -> None:
    short = render_round_end(spectator(playout(4, 3, 10_000)))
    other = render_round_end(spectator(playout(4, 20, 10_000)))  # a blocked round
    assert other.size == short.size == round_end_size(4)
    assert other.info["text_px"] != short.info["text_px"]  # different rounds, one size


def test_places_are_shared_on_ties_and_the_winners_go_first() -> None:
    view = spectator(playout(4, 3, 10_000))
    tied = dataclasses.replace(view, totals=(12, 12, 20, 5))
    assert places(tied) == (2, 2, 4, 1)
    # A tie-break gave the win to seat 2: the standings agree with who won.
    won = dataclasses.replace(view, totals=(12, 12, 20, 30), winners=(1,), match_over=True)
    assert places(won) == (2, 1, 3, 4)


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_hostile_names_render(theme: str) -> None:
    for start in range(0, len(HOSTILE), 5):
        names = (HOSTILE[start:] + HOSTILE)[:6]
        m = playout(6, start, 10_000, names=names)
        flags = [i % 2 == 0 for i in range(6)]
        image = render_round_end(spectator(m), RoundEndOptions(theme=theme, is_computer=flags))
        assert image.size == round_end_size(6)


def test_no_two_names_in_the_scores_read_alike() -> None:
    """Ten long names that differ only at their end ("… seat 1" and "… seat 10"), each row
    with its own room beside its tiles: no drawn name could be read as another player's."""
    names = [f"Player with a long name, seat {i + 1}" for i in range(10)]
    m = playout(10, 3, 10_000, preset="double-18", names=names)
    image = render_round_end(spectator(m))
    drawn = [label for _px, label in text_sizes(image) if label.startswith("Player")]
    rows = [label for label in drawn if "went out" not in label]
    assert len(rows) >= 10
    for label in rows:
        readers = [n for n in names if _could_be(label, n)]
        assert len(readers) == 1, (label, readers)


def _could_be(label: str, name: str) -> bool:
    """Whether a drawn ``label`` (cut with "…" anywhere) could be ``name``: its pieces appear
    in ``name`` in order, the first at its start and the last at its end."""
    if "…" not in label:
        return label == name
    pieces = label.split("…")
    if not name.startswith(pieces[0]) or not name.endswith(pieces[-1]):
        return False
    at = len(pieces[0])
    for piece in pieces[1:-1]:
        found = name.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return len(name) - len(pieces[-1]) >= at
