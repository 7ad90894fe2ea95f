"""``benchmarks/pace.py`` (issue 46): the human model's clock, and a tiny run through the fake
whose JSON line holds every figure the issue names, with its invariants (nobody plays a
human's turn but the human, their order, autoplay or the scheduler; the baseline on the same
seeds is there)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from benchmarks import pace


def test_an_answer_counts_awake_minutes_only() -> None:
    paris = pace.Human(offset_h=1, wake=7, sleep=23)
    day = datetime(2026, 1, 5, tzinfo=UTC)
    # 12:00 local (11:00 UTC), 40 minutes: 12:40 local.
    assert paris.answer_at(day + timedelta(hours=11), 40) == day + timedelta(hours=11, minutes=40)
    # 22:50 local: 10 minutes tonight, 30 after waking at 07:00 -> 07:30 local (06:30 UTC).
    at = paris.answer_at(day + timedelta(hours=21, minutes=50), 40)
    assert at == day + timedelta(days=1, hours=6, minutes=30)
    # Pinged at 03:00 local, asleep: 07:05 local.
    assert paris.answer_at(day + timedelta(hours=2), 5) == day + timedelta(hours=6, minutes=5)
    assert not paris.awake(day + timedelta(hours=2)) and paris.awake(day + timedelta(hours=7))
    # A night owl (awake 10:00 to 02:00 local).
    owl = pace.Human(offset_h=0, wake=10, sleep=2)
    assert owl.awake(day + timedelta(hours=1)) and not owl.awake(day + timedelta(hours=3))
    assert owl.answer_at(day + timedelta(hours=1, minutes=50), 20) == day + timedelta(
        hours=10, minutes=10
    )
    assert pace.zone_name(-5) == "Etc/GMT+5" and pace.zone_name(9) == "Etc/GMT-9"
    assert pace.percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.9) == pytest.approx(4.6)


def test_bad_flags_are_refused_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        pace.parse(["--wake", "7", "--sleep", "31"])
    assert "must differ" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        pace.parse(["--zones=-5,0.5"])
    assert "whole-hour" in capsys.readouterr().err
    if not pace.orders_available():
        with pytest.raises(SystemExit):
            pace.parse(["--orders", "on"])
        assert "not available" in capsys.readouterr().err


async def test_a_tiny_run_prints_every_figure_and_keeps_its_invariants() -> None:
    orders = "on" if pace.orders_available() else "off"
    args = pace.parse(["--players", "2", "--preset", "quick", "--seeds", "1", "--orders", orders])
    line = json.dumps(await pace.main(args))
    got = json.loads(line)
    for run in (got, got["baseline"]):
        for key in (
            "days_median", "days_p90", "pings_per_seat_turn", "human_decisions",
            "played_by_orders", "played_forced", "played_otherwise", "orders_stopped",
            "timeouts", "away", "human_one_move", "human_seat_turns",
        ):  # fmt: skip
            assert key in run, key
        assert run["finished"] == 1
        assert run["played_otherwise"] == 0
        assert run["human_turns"] == run["human_decisions"] + run["human_one_move"]
        assert run["human_seat_turns"] == (
            run["human_turns"] + run["played_by_orders"] + run["played_forced"]
            + run["timeouts"] + run["away"]
        )  # fmt: skip
        assert 0 < run["days_median"] <= run["days_p90"] < 30
        assert 0 < run["pings_per_seat_turn"] <= 1.5
    assert got["days_ratio"] == pytest.approx(
        got["days_median"] / got["baseline"]["days_median"], abs=0.01
    )
    # The baseline is today's default before issue 46: the one legal tile is the human's.
    assert got["baseline"]["human_one_move"] > 0
    assert got["baseline"]["played_by_orders"] == 0
    # The run keeps the default (only): a lone legal move is never handed to a human.
    assert got["human_one_move"] == 0
