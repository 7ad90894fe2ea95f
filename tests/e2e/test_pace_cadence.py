"""``benchmarks/pace.py``'s model of each player's own cadence (issue 46, item 6): digest seats
answer once a day at their hour, the reminder interval pings the others again; the baseline
keeps today's cadence."""

from __future__ import annotations

import json

import pytest

from benchmarks import pace


def test_digest_seats_are_the_share_asked_drawn_with_the_seed() -> None:
    four = pace.parse(["--players", "4", "--digest-share", "0.25", "--orders", "off"])
    assert len(pace.digest_seats(four, 1)) == 1
    assert pace.digest_seats(four, 1) == pace.digest_seats(four, 1)
    none = pace.parse(["--players", "4", "--orders", "off"])
    assert pace.digest_seats(none, 1) == set()
    some = pace.parse(["--players", "3", "--digest-share", "0.1", "--orders", "off"])
    assert len(pace.digest_seats(some, 1)) == 1  # any share above 0 is at least one seat
    every = pace.parse(["--players", "4", "--digest-share", "1", "--orders", "off"])
    assert len(pace.digest_seats(every, 2)) == 4


def test_bad_cadence_flags_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in (
        (["--digest-share", "1.5"], "from 0 to 1"),
        (["--digest-hour", "24"], "0 to 23"),
        (["--remind-after", "-2"], "0: never"),
    ):
        with pytest.raises(SystemExit):
            pace.parse([*argv, "--orders", "off"])
        assert said in capsys.readouterr().err


async def test_digest_players_answer_once_a_day_and_the_match_takes_longer() -> None:
    argv = ["--players", "2", "--preset", "quick", "--seeds", "1", "--orders", "off"]
    got = json.loads(json.dumps(await pace.main(pace.parse([*argv, "--digest-share", "1"]))))
    base = got["baseline"]
    assert got["model"]["digest_share"] == 1 and got["digest_seats"] == 2
    assert base["digest_seats"] == 0 and base["digest_pings"] == 0
    assert got["finished"] == base["finished"] == 1 and got["played_otherwise"] == 0
    # Every seat turn waits for a digest (or a sitting): many days where the baseline took hours.
    assert got["digest_seat_turns"] == got["human_seat_turns"] > 0
    assert got["days_median"] > 3 * base["days_median"] and got["days_ratio"] > 3
    # One digest DM a day lists the turn: far fewer pings than turns (no DM per turn).
    assert got["pings_per_digest_seat_turn"] < base["pings_per_seat_turn"]
    assert got["pings_per_seat_turn"] < 0.6
