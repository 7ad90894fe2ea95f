"""The end-of-match DM read by each player (bot/ui/matchend.py): the sole winner is told
"you won" once, not again in the third person under the standings; the others, and those
who share a win, are still told who won."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime

from bot.engine import Match, preset
from bot.engine.simulate import random_move
from bot.i18n import tr
from bot.service import GameOptions, GameSummary, Player
from bot.service.outcome import standings_from
from bot.service.roundend import RoundReport, round_report
from bot.store import GameStatus
from bot.ui.matchend import end_dm
from bot.ui.messages import standings_text
from bot.ui.roundend import score_entries

NAMES = ["Alice", "Bob", "Carol", "Dave"]
LINK = "https://discord.com/channels/10/20/30"


def _played(seed: int) -> tuple[GameSummary, RoundReport]:
    """A whole one-round match of four, played to its end by random legal moves."""
    rng = random.Random(seed)
    rules = preset("quick")
    m = Match(rules, NAMES)
    while m.needs_deal:
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        while rnd.result is None:
            m.apply(random_move(rnd, rng))
    players = tuple(Player(s, n, 100 + s, None) for s, n in enumerate(NAMES))
    now = datetime(2026, 1, 1, tzinfo=UTC)
    game = GameSummary(
        id=1, guild_id=10, channel_id=20, host_id=100, status=GameStatus.FINISHED,
        preset="quick", rules=rules, players=players, turn=None, round_no=0,
        options=GameOptions(), version=1, created_at=now, updated_at=now, turn_since=None,
        deadline_at=None,
    )  # fmt: skip
    return game, round_report(1, m, players, m.rounds_played - 1)


def _shared(report: RoundReport) -> RoundReport:
    """The same end with the two best sharing the win (equal totals)."""
    best, second = report.standings[0].player.seat, report.standings[1].player.seat
    totals = list(report.totals)
    totals[second] = totals[best]
    winners = (best, second)
    board = dataclasses.replace(report.board, totals=tuple(totals), winners=winners)
    standings = standings_from(report.players, totals, [report.went_out], winners)
    return dataclasses.replace(report, board=board, standings=standings)


def _winner_line(report: RoundReport, lang: str) -> str:
    return tr("match.winner", lang, names=", ".join(p.name for p in report.winners))


def test_the_sole_winner_is_told_they_won_once_the_others_who_won() -> None:
    game, report = _played(8)
    assert report.match_over and len(report.winners) == 1
    for lang in ("en", "fr"):
        line = _winner_line(report, lang)
        for mine in report.standings:
            dm = end_dm(game, report, mine, LINK, lang)
            assert dm.endswith(LINK) and mine.player.name in dm
            if mine.won:  # "you won" heads it; "Bob won the match" would say it again
                assert dm.startswith("🏆") and line not in dm, dm
            else:
                assert dm.startswith("🏁") and line in dm, dm


def test_a_shared_win_still_names_whom_it_is_shared_with() -> None:
    game, report = _played(8)
    shared = _shared(report)
    assert len(shared.winners) == 2
    line = _winner_line(shared, "en")
    for mine in shared.standings:
        dm = end_dm(game, shared, mine, LINK, "en")
        assert line in dm, dm
        assert dm.startswith("🏆") == mine.won


def test_a_one_round_match_says_pts_and_nothing_of_rounds_won() -> None:
    """The thread's result in the parent channel said "0 points" where every other place says
    "0 pts", and a one-round match read "(0 rounds won)": in both languages."""
    _, report = _played(8)
    assert report.rounds_total == 1 and len(report.history) == 1
    for lang in ("en", "fr"):
        lines = [
            *standings_text(report.standings, lang, rounds=1).splitlines(),
            *score_entries(report.standings, report.history, lang, final=True),
        ]
        assert len(lines) == 2 * len(report.standings)
        for line in lines:
            assert line.endswith(" pts") or line.endswith(" pt"), line
            assert "point" not in line and "won" not in line and "gagn" not in line, line
    # A longer match still counts the rounds each player won, in pts too.
    many = standings_text(report.standings, "en", rounds=3)
    assert " pts (" in many and "rounds won)" in many, many
