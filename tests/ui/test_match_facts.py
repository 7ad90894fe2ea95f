"""The end of a match says more than the standings (issue 47, item 6): how long it took,
how many turns, the best round (the lowest score of a player who did not go out) and who
went out most, in the end DM and in the match's last post, in English and French; the
figures are the match's own, counted here independently from its events and results."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta

import pytest

from bot.engine import Match, preset
from bot.engine.simulate import random_move
from bot.service.roundend import match_facts
from bot.ui.matchend import end_dm
from bot.ui.matchfacts import facts_line, how_long
from bot.ui.roundend import round_end_embed
from tests.ui.test_end_words import LINK, _played


def test_the_figures_are_the_matchs() -> None:
    """Played here move by move: the turns are those the engine ended, the best round and
    who went out most read off the results."""
    rng = random.Random(8)
    m = Match(preset("quick"), ["Alice", "Bob", "Carol", "Dave"])
    ended = 0
    while m.needs_deal:
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        while rnd.result is None:
            applied = m.apply(random_move(rnd, rng))
            ended += applied.turn_over or applied.round_over
    facts = match_facts(m)
    assert facts.turns == ended
    lowest = min(
        (p, r, s)
        for r, res in enumerate(m.results)
        for s, p in enumerate(res.scores)
        if s != res.went_out
    )
    assert facts.best_round is not None and facts.best_round[2] == lowest[0]
    outs = [sum(res.went_out == s for res in m.results) for s in range(4)]
    assert facts.went_out_count == max(outs)
    assert facts.went_out_most == tuple(s for s in range(4) if outs[s] == max(outs))


@pytest.mark.parametrize(
    ("lang", "took", "turns"),
    [("en", "3 days of play", "turns"), ("fr", "3 jours de jeu", "tours")],
)
def test_the_end_dm_and_post_say_how_long_how_many_turns_the_best_round(
    lang: str, took: str, turns: str
) -> None:
    game, report = _played(8)
    game = dataclasses.replace(game, updated_at=game.created_at + timedelta(days=3, hours=2))
    facts = report.facts
    assert facts is not None
    line = facts_line(game, report, lang)
    assert line.startswith(f"📈 {took} · {facts.turns} {turns}"), line
    if facts.best_round is not None:
        assert report.players[facts.best_round[0]].name in line
    for mine in report.standings:
        assert line in end_dm(game, report, mine, LINK, lang)
    embed = round_end_embed(game.id, report, lang, lines=[line])
    assert line in (embed.description or "")


def test_how_long_in_the_largest_unit() -> None:
    from datetime import UTC, datetime

    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    assert how_long(t0, t0 + timedelta(minutes=12), "en") == "12 minutes"
    assert how_long(t0, t0 + timedelta(hours=5, minutes=10), "en") == "5 hours"
    assert how_long(t0, t0 + timedelta(days=1, hours=1), "fr") == "1 jour"
    assert how_long(t0, t0 + timedelta(seconds=5), "en") == "1 minute"
