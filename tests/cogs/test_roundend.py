"""The round's end in words: the scores as a vertical list within Discord's limits for 10
players, 19 rounds and 32-character names, places shared on ties, and the picture's alt
text (issue 29)."""

from __future__ import annotations

import dataclasses
import functools
import random
import re

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import PRESETS, Match, RoundResult
from bot.engine.simulate import random_move
from bot.service import Player
from bot.service.outcome import standings_from
from bot.service.roundend import RoundReport, round_report
from bot.ui import roundend
from bot.ui.limits import (
    ATTACHMENT_DESCRIPTION,
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
)
from bot.ui.roundend import (
    alt_text,
    round_end_embed,
    score_entries,
    scores_text,
    size,
)
from bot.ui.sheet import PHONE_WIDTH

PLAYERS, ROUNDS = 10, 19


@functools.cache
def _long_match() -> Match:
    """10 players through the 19 rounds of a double-18 set, to the end."""
    rng = random.Random(29)
    m = Match(PRESETS["double-18"], [f"P{i}" for i in range(PLAYERS)])
    while m.needs_deal:
        m.start_round(m.shuffle(rng))
        rnd = m.round
        assert rnd is not None
        while rnd.result is None:
            m.apply(random_move(rnd, rng))
    return m


def _report(
    names: list[str],
    history: list[list[int]],
    went_out: list[int | None],
    *,
    final: bool,
) -> RoundReport:
    """The last round of the long match, with these names and these scores round by round."""
    players = tuple(Player(s, n, 100 + s, None) for s, n in enumerate(names))
    board = round_report(1, _long_match(), players, ROUNDS - 1).board
    totals = tuple(sum(r[s] for r in history) for s in range(len(names)))
    low = min(totals)
    winners = tuple(s for s, t in enumerate(totals) if t == low) if final else ()
    board = dataclasses.replace(
        board,
        names=tuple(names),
        totals=totals,
        round_scores=tuple(tuple(r) for r in history),
        result=RoundResult(tuple(history[-1]), went_out[-1]),
        match_over=final,
        winners=winners,
        round_no=len(history) - 1,
    )
    standings = standings_from(players, totals, went_out, winners)
    return RoundReport(1, len(history) - 1, ROUNDS, players, board, standings)


def within_discord_limits(embed: discord.Embed) -> None:
    data = embed.to_dict()
    assert size(data.get("title", "")) <= 256
    assert size(data.get("description", "")) <= EMBED_DESCRIPTION
    fields = data.get("fields", [])
    assert len(fields) <= EMBED_FIELDS
    for f in fields:
        assert 0 < size(f["name"]) <= FIELD_NAME and 0 < size(f["value"]) <= FIELD_VALUE
    total = size(data.get("title", "")) + size(data.get("description", ""))
    total += sum(size(f["name"]) + size(f["value"]) for f in fields)
    assert total <= EMBED_TOTAL


#: Names as Discord allows them: up to 32 characters of anything, markdown and emoji too.
NAMES = st.lists(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1,
            max_size=32).filter(str.strip) | st.just("*_~|`>" * 5 + "**")
    | st.just("😀" * 32),
    min_size=PLAYERS, max_size=PLAYERS,
)  # fmt: skip
SCORES = st.lists(
    st.lists(st.integers(0, 9999), min_size=PLAYERS, max_size=PLAYERS),
    min_size=1,
    max_size=ROUNDS,
)


@settings(max_examples=60, deadline=None)
@given(
    names=NAMES,
    history=SCORES,
    final=st.booleans(),
    moves=st.integers(0, 300),
    language=st.sampled_from(["en", "fr"]),
)
def test_the_round_end_post_fits_discord_for_10_players_19_rounds_and_long_names(
    names: list[str], history: list[list[int]], final: bool, moves: int, language: str
) -> None:
    went_out: list[int | None] = [None if i % 5 == 4 else i % PLAYERS for i in range(len(history))]
    report = _report(names, history, went_out, final=final)
    lines = [f"{names[i % PLAYERS]} played 12-11 on the Mexican Train 🚂" for i in range(moves)]
    embed = round_end_embed(1, report, language, lines=lines)
    within_discord_limits(embed)
    # Everyone is listed once, best first, each with their total.
    listed = "\n".join(f.value for f in embed.fields)
    heads = [line for line in listed.splitlines() if re.match(r"\d+\. ", line)]
    assert len(heads) == PLAYERS
    assert [int(h.split(".")[0]) for h in heads] == [s.place for s in report.standings]
    assert size(alt_text(report, language)) <= ATTACHMENT_DESCRIPTION
    assert size(scores_text(1, report, language)) <= CONTENT


def test_the_worst_case_keeps_every_players_every_round() -> None:
    """32-character names and four-digit scores in all 19 rounds: every player's line is
    there, and the sheet has every round of every player, inside the limits."""
    names = [f"Bartholomew Fitzgerald-Ngozi {i:03d}" for i in range(PLAYERS)]
    assert {len(n) for n in names} == {32}
    history = [[1000 + 37 * r + s for s in range(PLAYERS)] for r in range(ROUNDS)]
    report = _report(names, history, [r % PLAYERS for r in range(ROUNDS)], final=False)
    embed = round_end_embed(1, report, "en", lines=["x" * 90] * 80)
    within_discord_limits(embed)
    text = "\n".join(f.value for f in embed.fields)
    for name in names:
        assert f"**{name}**" in text
    # The sheet: every round of everyone, in tables a phone shows without wrapping.
    sheet = [f.value for f in embed.fields if f.value.startswith("```")]
    rows = [line for block in sheet for line in block.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == ROUNDS * len(sheet) and len(sheet) >= 2
    assert all(size(line) <= PHONE_WIDTH for block in sheet for line in block.splitlines())
    assert all(str(history[r][s]) in text for r in range(ROUNDS) for s in range(PLAYERS))
    assert embed.fields[0].name == "Scores after round 19/19"
    assert embed.description is not None and embed.description.startswith("…\n")


def test_ties_share_a_place_in_text() -> None:
    names = ["Alice", "Bob", "Carol", "Dan"]
    history = [[12, 12, 20, 30]]
    players = tuple(Player(s, n, None, None) for s, n in enumerate(names))
    standings = standings_from(players, [12, 12, 20, 30], [None])
    entries = score_entries(standings, history, "en")
    assert [e.splitlines()[0] for e in entries] == [
        "1. **Alice** — 12 pts (this round +12)",
        "1. **Bob** — 12 pts (this round +12)",
        "3. **Carol** — 20 pts (this round +20)",
        "4. **Dan** — 30 pts (this round +30)",
    ]
    assert all("\n" not in e for e in entries)  # the rounds one by one are the sheet's
    assert roundend.sheet_blocks(standings, history) == []  # one round: "this round" says it
    two = roundend.sheet_blocks(standings, [[0, 2, 10, 20], [12, 10, 10, 10]])
    assert two == ["```\n  Alice  Bob Carol  Dan\n1     0    2    10   20\n"
                   "2    12   10    10   10\nΣ    12   12    20   30\n```"]  # fmt: skip


def test_the_final_standings_name_the_winner_and_the_rounds_won() -> None:
    names = ["Alice", "Bob", "Carol"]
    history = [[0, 10, 5], [8, 0, 5], [0, 7, 12]]
    players = tuple(Player(s, n, None, None) for s, n in enumerate(names))
    standings = standings_from(players, [8, 17, 22], [0, 1, 0], winners=[0])
    entries = score_entries(standings, history, "fr", went_out=0, final=True)
    assert entries[0].splitlines()[0] == "1. 🏆 **Alice** — 8 pts (2 manches gagnées)"
    assert entries[1].splitlines()[0] == "2. **Bob** — 17 pts (1 manche gagnée)"


def test_the_alt_text_tells_the_round_in_words() -> None:
    names = [f"Player {i}" for i in range(PLAYERS)]
    history = [[5 * s + r for s in range(PLAYERS)] for r in range(3)]
    report = _report(names, history, [0, 1, 2], final=False)
    text = alt_text(report, "en")
    assert text.startswith("Round 3 of 19 is over: Player 2 went out.")
    assert "1. Player 0: +2, 3 pts;" in text and "Tiles left:" in text
    assert size(text) <= ATTACHMENT_DESCRIPTION
    french = alt_text(report, "fr")
    assert french.startswith("La manche 3 sur 19 est finie : Player 2 a tout posé.")
    # What does not fit is left out from the end, never cut mid-word without a mark.
    long = _report(["W" * 32] * PLAYERS, history, [None, None, None], final=True)
    text = alt_text(long, "en")
    assert "blocked" in text and size(text) <= ATTACHMENT_DESCRIPTION and text.endswith("…")


def test_the_leaderboard_shares_places_on_ties() -> None:
    from bot.cogs.stats import leaderboard_text
    from bot.service.stats import PlayerSummary

    def person(uid: int, wins: int, games: int, points: int) -> PlayerSummary:
        return PlayerSummary(uid, None, games, wins, 10, 2, points, None, 0, 0, 0, 0, ())

    people = [person(1, 3, 4, 90), person(2, 3, 4, 90), person(3, 3, 4, 120), person(4, 1, 4, 50)]
    places = [line.split(".")[0] for line in leaderboard_text(people, "en").splitlines()[1:]]
    assert places == ["1", "1", "3", "4"]
