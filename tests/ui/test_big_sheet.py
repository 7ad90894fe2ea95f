"""The score sheet at every table size (issue 47, item 4): at 10 seats with 32-character
names over a double-15 match's 16 rounds, the sheet no longer fits a 2,000-character message
beside the standings, and the end DM and ``/mt scores`` used to leave it out. It now comes in
an embed beside the text: every player's column, every round, and totals that are the
standings' — within Discord's embed limits; at 4 seats it stays in the text, as before."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from bot.engine import PRESETS, Match
from bot.engine.simulate import random_move
from bot.i18n import LANGUAGES
from bot.service import GameOptions, GameSummary, Player
from bot.service.roundend import RoundReport, round_report
from bot.store import GameStatus
from bot.ui.limits import EMBED_TOTAL, FIELD_VALUE, embed_size
from bot.ui.matchend import end_dm
from bot.ui.roundend import scores_text, sheet_embeds

LINK = "https://discord.com/channels/10/20/30"


def _match(players: int, preset: str, seed: int = 3) -> tuple[GameSummary, RoundReport]:
    names = [f"Bartholomew Fitzgerald-Ngozi {i:03d}" for i in range(players)]
    rng = random.Random(seed)
    m = Match(PRESETS[preset], names)
    while m.needs_deal:
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        while rnd.result is None:
            m.apply(random_move(rnd, rng))
    seats = tuple(Player(s, n, 100 + s, None) for s, n in enumerate(names))
    now = datetime(2026, 1, 1, tzinfo=UTC)
    game = GameSummary(
        id=1, guild_id=10, channel_id=20, host_id=100, status=GameStatus.FINISHED,
        preset=preset, rules=m.rules, players=seats, turn=None, round_no=m.rounds_played - 1,
        options=GameOptions(), version=1, created_at=now, updated_at=now, turn_since=None,
        deadline_at=None,
    )  # fmt: skip
    return game, round_report(1, m, seats, m.rounds_played - 1)


def _sheet_totals(*texts: str) -> tuple[list[int], int]:
    """Every total row's numbers across the code blocks, and the rounds of the first."""
    totals: list[int] = []
    rounds = 0
    for block in re.findall(r"```\n(.*?)```", "\n".join(texts), re.S):
        lines = block.strip("\n").splitlines()
        rounds = len(lines) - 2
        totals += [int(c) for c in lines[-1].split()[1:]]
    return totals, rounds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_dm_and_scores_show_the_sheet_at_10_seats(lang: str) -> None:
    game, report = _match(10, "double-15")
    assert report.rounds_total == 16 and len(report.standings) == 10
    want = [s.total for s in report.standings]
    for mine in (report.standings[0], report.standings[-1]):
        text = end_dm(game, report, mine, LINK, lang)
        embeds = sheet_embeds(report, text, lang)
        assert embeds, "a 10-seat sheet that does not fit the text comes beside it"
        fields = [f.value for e in embeds for f in e.fields]
        assert all(len(v) <= FIELD_VALUE for v in fields)
        assert sum(embed_size(e) for e in embeds) <= EMBED_TOTAL
        totals, rounds = _sheet_totals(text, *fields)
        assert sorted(totals) == sorted(want) and rounds == 16
    answer = scores_text(1, report, lang)
    totals, rounds = _sheet_totals(answer, *(f.value for e in sheet_embeds(report, answer, lang)
                                             for f in e.fields))  # fmt: skip
    assert sorted(totals) == sorted(want) and rounds == 16


def test_at_4_seats_the_sheet_stays_in_the_text() -> None:
    game, report = _match(4, "standard")
    text = end_dm(game, report, report.standings[0], LINK, "en")
    assert "```" in text and sheet_embeds(report, text, "en") == []
