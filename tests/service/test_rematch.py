"""Rematch: the new lobby is recorded in the channel it is opened for, under that channel's
rules; the old game is untouched."""

from __future__ import annotations

import pytest

from bot.service import GameService, errors
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.service.helpers import new_game
from tests.service.test_stats import _finish

ELSEWHERE = CHANNEL + 1


async def test_the_rematch_lobby_is_recorded_where_it_is_opened(
    service: GameService, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB))).game.id
    await _finish(service, gid, clock)
    out = await service.rematch(gid, BOB, "Bob", clock.tick(), channel_id=ELSEWHERE)
    new = out.game
    assert (new.channel_id, new.guild_id, new.status) == (ELSEWHERE, GUILD, GameStatus.LOBBY)
    assert [p.user_id for p in new.players] == [BOB, ALICE]
    assert (await service.game_in_channel(ELSEWHERE)) == new
    assert await service.game_in_channel(CHANNEL) is None
    assert (await service.where(new.id)) == (GUILD, ELSEWHERE)
    assert (await service.game(gid)).channel_id == CHANNEL


async def test_the_rematch_channel_must_be_allowed(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB))).game.id
    await _finish(service, gid, clock)
    await service.update_guild_settings(
        GUILD, clock.tick(), is_manager=True, allowed_channels=[CHANNEL]
    )
    with pytest.raises(errors.ChannelNotAllowed):
        await service.rematch(gid, ALICE, "Alice", clock.tick(), channel_id=ELSEWHERE)
    assert await service.game_in_channel(ELSEWHERE) is None
    again = await service.rematch(gid, ALICE, "Alice", clock.tick(), channel_id=CHANNEL)
    assert again.game.channel_id == CHANNEL


async def test_where_names_an_unknown_game(service: GameService) -> None:
    with pytest.raises(errors.GameNotFound):
        await service.where(12345)
