"""Games recorded before a rule fix still load, replay and play on exactly as they were played.

``fixtures/v1_game.json`` was written by the version-1 engine itself, before the fix for issue
15 (a blocked round declared before every player had passed): its first round ended early under
that rule and its second round was dealt and played on. The event log is the truth, so such a
game must replay under the rule it was recorded with, and so must positions saved from it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.engine import ENGINE_VERSION, PASS, EventError, Match, Rules
from bot.engine.match import EngineVersionError
from bot.engine.position import PositionError, from_position, to_position
from bot.engine.simulate import random_move
from tests.engine.fixtures import make_v1_game
from tests.engine.helpers import seat_could_play_after_the_remaining_passes

FIXTURE = Path(__file__).parent / "fixtures" / "v1_game.json"


@pytest.fixture(scope="module")
def v1() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def _replay(data: dict[str, Any], engine_version: int) -> Match:
    rules = Rules.from_dict(data["rules"])
    return Match.replay_dicts(rules, data["names"], data["events"], engine_version)


def test_the_engine_version_was_bumped_for_the_blocked_round_fix() -> None:
    assert ENGINE_VERSION == 2
    assert to_position(Match(Rules(), ["A", "B"]))["engine_version"] == 2


def test_a_version_1_game_replays_to_its_recorded_state(v1: dict[str, Any]) -> None:
    match = _replay(v1, 1)
    assert match.engine_version == 1
    assert to_position(match) == v1["position"]
    assert match.results[0].blocked and list(match.results[0].scores) == v1["round_one_scores"]
    assert match.round is not None and match.round.round_no == 1 and not match.round.is_over


def test_the_fixture_really_ended_a_round_early(v1: dict[str, Any]) -> None:
    """Under the new rule its second deal does not apply: the first round is not over yet.
    (This is why the replay needs the game's engine version.)"""
    with pytest.raises(EventError, match="round 2 starts after 0 rounds"):
        _replay(v1, ENGINE_VERSION)
    first_round = _replay({**v1, "events": v1["events"][: _round_two_at(v1)]}, 1).round
    assert first_round is not None
    assert seat_could_play_after_the_remaining_passes(first_round) is not None


def test_the_version_switch_records_exactly_what_the_old_engine_recorded(
    v1: dict[str, Any],
) -> None:
    """The fixture came from the untouched version-1 engine; the switch reproduces it."""
    assert all(make_v1_game.record(seed) is None for seed in range(v1["seed"]))
    again = make_v1_game.record(v1["seed"])
    assert json.loads(json.dumps(again)) == v1


def test_a_version_1_position_loads_and_plays_on_like_the_replayed_game(
    v1: dict[str, Any],
) -> None:
    loaded = from_position(v1["position"])
    assert loaded.engine_version == 1 and to_position(loaded) == v1["position"]
    replayed = _replay(v1, 1)
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(400):
        assert loaded.round is not None and replayed.round is not None
        if replayed.round.is_over:
            break
        move = random_move(replayed.round, rng_a)
        assert move == random_move(loaded.round, rng_b)
        replayed.apply(move)
        loaded.apply(move)
    assert replayed.round is not None and replayed.round.is_over
    assert to_position(loaded) == to_position(replayed)


def test_a_version_1_position_before_the_blocking_pass_ends_the_round_as_recorded(
    v1: dict[str, Any],
) -> None:
    before = v1["position_before_blocking_pass"]
    old = from_position(before)
    assert old.engine_version == 1
    assert old.apply(PASS).round_over
    assert list(old.results[0].scores) == v1["round_one_scores"]
    # The same table under the current engine: the pass is not the end of the round.
    new = from_position({**before, "engine_version": ENGINE_VERSION})
    assert not new.apply(PASS).round_over
    assert new.round is not None and not new.round.is_over


def test_unknown_engine_versions_are_refused_by_name(v1: dict[str, Any]) -> None:
    with pytest.raises(EngineVersionError, match="engine version 3, newer than this bot's 2"):
        Match(Rules(), ["A", "B"], 3)
    for bad in (0, "1", None):
        with pytest.raises(EngineVersionError, match="is not an engine version"):
            Match(Rules(), ["A", "B"], bad)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="newer than this bot"):
        from_position({**v1["position"], "engine_version": 3})
    with pytest.raises(PositionError, match="unreadable position"):
        from_position({k: v for k, v in v1["position"].items() if k != "engine_version"})


def _round_two_at(data: dict[str, Any]) -> int:
    """The index of the second round's deal in the fixture's events."""
    return next(i for i, e in enumerate(data["events"]) if e["kind"] == "round" and e["round"])
