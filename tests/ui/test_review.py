"""A match's review (issue 49) never names a tile its reader could not see: for every seat of
several finished matches, every tile named in the review's words (English and French) was in
the reader's hand, on the table, or in an open hand at the moment the line speaks of, and the
picture is the reader's own view of that moment. Tiny settings (a few worlds, and every
positive gain reported, so the words name many tiles) keep the CPU small."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from bot.engine import PRESETS, Match, Rules, SeatView, Tile, view_for
from bot.engine.ai import Level, choose_move
from bot.engine.ai.review import Finding, ReviewSettings, SeatReview, review_seat, view_before
from bot.engine.match import Event, RoundStarted
from bot.engine.moves import MEXICAN, Play
from bot.service.reviews import MatchReview, decode, encode
from bot.ui.review import SHOWN, review_text

TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")
#: Every positive mean gain becomes a finding: the most tiles named, the hardest test.
LOOSE = ReviewSettings(worlds=4, screen=2, others=2, z=0.0, luck_deals=1, budget_s=None)


def _played(rules: Rules, levels: list[Level], seed: int) -> tuple[list[str], list[Event]]:
    names = ["Ann", "Bob", "Cyd", "Dee"][: len(levels)]
    match = Match(rules, names)
    rng = random.Random(seed)
    step = 0
    while not match.is_over:
        if match.needs_deal:
            match.start_round(match.shuffle(rng))
            continue
        seat = match.current_seat
        assert seat is not None
        match.apply(choose_move(view_for(match, seat), levels[seat], step), seat)
        step += 1
    return names, list(match.events)


def _seen(view: SeatView) -> set[Tile]:
    """What the reader sees at that moment: their hand, the table, open hands."""
    seen = {view.engine, *(view.hand or ())}
    for train in view.trains:
        seen.update(train.tiles)
    for shown in view.visible_hands:
        seen.update(shown or ())
    return seen


def _tiles(text: str) -> set[Tile]:
    return {Tile(int(a), int(b)) for a, b in TILE.findall(text)}


MATCHES = [
    ("quick", [Level.EASY, Level.HARD], 1),
    ("quick", [Level.HARD, Level.EASY, Level.NORMAL], 2),
    ("two rounds", [Level.EASY, Level.EASY], 3),
]


@pytest.mark.parametrize(("preset", "levels", "seed"), MATCHES)
def test_a_review_names_only_tiles_its_reader_could_see(
    preset: str, levels: list[Level], seed: int
) -> None:
    rules = PRESETS["quick"]
    if preset == "two rounds":
        rules = dataclasses.replace(rules, rounds=2)
    names, events = _played(rules, levels, seed)
    named = 0
    for seat in range(len(levels)):
        review = review_seat(rules, names, events, seat, settings=LOOSE, seed=seed)
        assert review.complete and review.examined == review.decisions > 0
        assert len(review.luck) == sum(isinstance(e, RoundStarted) for e in events)
        assert decode(encode(review), rules, len(names)) == review  # kept as it was
        costliest = sorted(review.findings, key=lambda f: -f.gain)
        views = {f.at: view_before(rules, names, events, f.at, seat) for f in costliest[:SHOWN]}
        worst = max(review.findings, key=lambda f: f.gain, default=None)
        for locale in ("en", "fr"):
            found = MatchReview(
                7, seat, tuple(names), review, views[worst.at] if worst else None, LOOSE.worlds
            )
            text = review_text(found, locale)
            assert len(text) <= 2000 and text.splitlines()[-1].startswith("-# ")  # whole
            lines = text.splitlines()
            told = [line for line in lines if line.startswith("•")]
            shown = sorted(costliest[: len(told)], key=lambda f: f.at)
            assert len(told) == min(len(costliest), SHOWN) or len(told) >= 8
            for line, f in zip(told, shown, strict=True):
                tiles = _tiles(line)
                assert tiles, line  # a move with a tile is named (draw and pass name none)
                assert tiles <= _seen(views[f.at]), (line, tiles - _seen(views[f.at]))
                named += len(tiles)
            for line in lines:
                if not line.startswith("•"):
                    assert not _tiles(line), line
        for f in shown:
            view = views[f.at]
            # The picture's position: the reader's own view (others' hands hidden).
            assert view.seat == seat and f.played in view.legal and f.better in view.legal
            assert all(view.visible_hands[s] is None for s in range(len(names)) if s != seat)
    assert named > 0


def test_many_findings_give_way_to_a_count_and_the_review_stays_whole() -> None:
    findings = tuple(
        Finding(i % 13, i + 1, i, Play(Tile(12, i % 12), 0), Play(Tile(11, i % 11), MEXICAN),
                10.0 + i, 2.0, 20.0 + i)
        for i in range(40)
    )  # fmt: skip
    review = SeatReview(0, findings, (3.0, -5.0), 90, 60)
    names = ("W" * 32, "X" * 32)
    for locale in ("en", "fr"):
        text = review_text(MatchReview(7, 0, names, review, None, 256), locale)
        lines = text.splitlines()
        assert len(text) <= 2000 and lines[-1].startswith("-# ")
        told = [line for line in lines if line.startswith("•")]
        assert 5 <= len(told) <= SHOWN
        assert any(str(40 - len(told)) in line for line in lines if line.startswith("…"))
        assert "60" in lines[0] and "90" in lines[1]  # examined, of how many (the budget)
