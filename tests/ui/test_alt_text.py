"""The pictures said in words: what the alt text of each picture tells, within Discord's limit."""

from __future__ import annotations

import re

import pytest

from bot.engine import MEXICAN, Play, view_for
from bot.engine.ai import Level
from bot.service import Player
from bot.ui.alt_text import (
    LIMIT,
    describe_chart,
    describe_hand,
    describe_replay,
    describe_table,
    picture_file,
)
from bot.ui.limits import ATTACHMENT_DESCRIPTION
from renderers.chart import ChartGame
from tests.renderers.positions import built, match_over, playout, spectator

LONG = [f"{'Ω' * 20}_Player_Number_{i:02d}xx"[:32] for i in range(10)]


def _players(n: int, computers: tuple[int, ...] = ()) -> list[Player]:
    return [Player(seat=s, name=f"P{s}", user_id=None if s in computers else 100 + s,
                   computer=Level.EASY if s in computers else None) for s in range(n)]  # fmt: skip


def test_the_table_in_words() -> None:
    view = built(4, {0: 3, 1: 2, 2: 1, MEXICAN: 2}, open_doubles=(2, 1), marked=(1,), current=3,
                 names=["Alice", "Bob", "Carol", "Dave"])  # fmt: skip
    said = describe_table(view, _players(4, computers=(1,)))
    assert said.startswith("Picture of the Mexican Train table. Round 1 of 13, engine 12-12.")
    assert "Dave (@4) to play." in said
    assert f"{view.boneyard_count} tiles in the boneyard." in said
    assert f"Alice (@1): ends on {view.trains[0].end}, " in said
    assert "Bob (@2, computer): " in said and "marker up" in said
    assert f"Mexican Train: ends on {view.trains[-1].end}." in said
    # The open doubles, in the order they must be covered, as the picture's header.
    third, second = view.trains[2].tiles[-1], view.trains[1].tiles[-1]
    assert f"Cover the open doubles in this order: {third} on @3, then {second} on @2." in said
    assert re.search(r"\b\d+ tiles? in hand", said)


def test_the_table_in_french() -> None:
    view = built(3, {0: 2}, current=1, names=["Alice", "Bob", "Zoé"])
    said = describe_table(view, (), "fr-FR")
    assert said.startswith("Image de la table du Train mexicain. Manche 1 sur 13")
    assert "À Bob (@2) de jouer." in said and "Train mexicain : " in said


@pytest.mark.parametrize("players", [2, 6, 10])
def test_every_table_fits_discords_limit(players: int) -> None:
    view = built(players, {MEXICAN: 8, **{s: 3 for s in range(players)}},
                 open_doubles=(0, 1), marked=tuple(range(players)), current=1,
                 names=LONG[:players])  # fmt: skip
    said = describe_table(view, _players(players, computers=(0,)))
    assert len(said) <= LIMIT
    for seat in range(players):
        assert f"(@{seat + 1}" in said  # every train is named, however long the names


def test_the_last_move_and_the_round_and_match_ends() -> None:
    m = playout(3, 4, 8, names=["Ann", "Ben", "Cy"])
    view = view_for(m, None)
    assert view.last_move is not None
    said = describe_table(view)
    assert "Last: " in said
    if isinstance(view.last_move.move, Play):
        assert "The last tile played is ringed." in said
    over = spectator(playout(8, 5, 400))
    assert over.result is not None
    ended = describe_table(over)
    assert "Round over" in ended and "in the boneyard" not in ended
    assert "Cover the open doubles" not in ended
    final = describe_table(spectator(match_over()))
    assert "Match over:" in final and "Final standings: 1. " in final


def test_a_hand_in_words() -> None:
    m = playout(4, 7, 36)
    assert m.round is not None
    view = view_for(m, m.round.current)
    assert view.hand is not None
    said = describe_hand(view, show_plan=True)
    assert said.startswith(f"Picture of your hand: {len(view.hand)} tiles")
    assert "Your turn." in said
    for tile in view.hand:  # every tile is named
        assert str(tile) in said
    plays = [mv for mv in view.legal if isinstance(mv, Play)]
    assert plays and "Playable now: " in said
    for mv in plays:
        assert str(mv.tile) in said.split("Playable now: ")[1]
    waiting = view_for(m, (m.round.current + 1) % 4)
    assert "is playing." in describe_hand(waiting)
    assert describe_hand(waiting, locale="fr").startswith("Image de ta main")
    with pytest.raises(ValueError, match="spectator"):
        describe_hand(view_for(m, None))


def test_replay_chart_and_file() -> None:
    views = [view_for(playout(2, 1, n), None) for n in (0, 5, 10)]
    said = describe_replay(views, 7, 3, (), "en")
    assert said.startswith("Animated replay of game 7, round 1 of 13: 3 pictures")
    assert len(said) <= LIMIT
    games = [ChartGame(3, (10, 20), True), ChartGame(5, (40,), False)]
    chart = describe_chart("Zoë", games, "en")
    assert "game 3: 15.0, won" in chart and "game 5: 40.0" in chart
    assert "Overall average: 23.3." in chart
    assert "aucune partie" in describe_chart("Zoë", [], "fr")
    long = picture_file(b"x", "t.png", "word " * 400)
    assert long.description is not None and len(long.description) == LIMIT
    assert long.description.endswith("…") and long.filename == "t.png"


def test_the_describers_limit_is_discords() -> None:
    """The describers live beside the renderers (a render worker runs them), which cannot
    import the Discord layer's limits: their own copy of the number must stay Discord's."""
    assert LIMIT == ATTACHMENT_DESCRIPTION


def test_french_alt_text_puts_a_narrow_space_before_each_semicolon() -> None:
    """French typography sets a narrow no-break space (U+202F) before ";" (as before ":"):
    the lists of the hand, the standings and the chart are joined so in French, and with a
    bare "; " in English (issue 47)."""
    m = playout(4, 7, 36)
    assert m.round is not None
    view = view_for(m, m.round.current)
    plays = {mv.tile for mv in view.legal if isinstance(mv, Play)}
    assert len(plays) >= 2  # the hand's playable list has a ";" between its tiles
    games = [ChartGame(3, (10, 20), True), ChartGame(5, (40,), False)]
    final = spectator(match_over())
    for said_fr, said_en in (
        (describe_hand(view, locale="fr"), describe_hand(view)),
        (describe_chart("Zoë", games, "fr"), describe_chart("Zoë", games, "en")),
        (describe_table(final, (), "fr"), describe_table(final, (), "en")),
    ):
        assert ";" in said_fr and ";" in said_en
        assert re.search(r"(?<!\u202f);", said_fr) is None, said_fr
        assert "\u202f;" not in said_en and "; " in said_en
