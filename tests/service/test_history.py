"""History entries and the export, straight from the event log."""

from __future__ import annotations

import pytest

from bot.engine import Match, Rules
from bot.engine.position import to_position
from bot.service import GameService, errors
from bot.service import history as story
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.service.conftest import ALICE
from tests.service.helpers import new_game, play_turn


async def test_history_marks_undone_moves_and_the_undo(
    service: GameService, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock)).game.id
    await play_turn(service, gid, clock)
    await play_turn(service, gid, clock)
    await service.undo(gid, ALICE, clock.tick())
    entries = story.history(await service.game_record(gid))
    kinds = [e.kind for e in entries]
    assert kinds == ["round", "move", "move", "undo"]
    assert entries[0].text == "12-12" and entries[0].round_no == 0
    assert not entries[1].undone and entries[2].undone and entries[2].name == "Bob"
    assert entries[3].name == "Alice" and entries[3].target == "Bob"
    assert entries[3].text == entries[2].text


async def test_export_only_when_over_and_it_loads_back(
    service: GameService, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock)).game.id
    await play_turn(service, gid, clock)
    with pytest.raises(errors.WrongPhase):
        story.export(await service.game_record(gid))
    for _ in range(500):
        if (await service.game(gid)).status is not GameStatus.ACTIVE:
            break
        await play_turn(service, gid, clock)
    record = await service.game_record(gid)
    data = story.export(record)
    loaded = Match.replay_dicts(Rules.from_dict(data["rules"]), data["names"], data["events"])
    live = story.live_match(record)
    assert live is not None and to_position(loaded) == to_position(live)
    assert story.replay_views(record)[-1].result is not None
    with pytest.raises(errors.ServiceError, match="no round 2"):
        story.replay_views(record, 1)
