"""Lobby use cases and their refusals: create, join, leave, computers, start, kick, end."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.engine import DRAW, PRESETS
from bot.engine.ai import Level
from bot.service import FactCode, GameOptions, GameService, errors
from bot.service.schedule import ScheduleService
from bot.store import GameStatus, Store
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD
from tests.service.helpers import new_game


async def _unchanged(svc: GameService, gid: int, version: int) -> None:
    assert (await svc.game(gid)).version == version


async def test_create_lobby_seats_the_host(service: GameService, clock: FakeClock) -> None:
    out = await service.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        display_name="  Alice  ",
        now=clock.tick(),
        preset_name="fundex",
        house_rules={"knock_penalty": 3, "rounds": 2},
        options=GameOptions(turn_deadline=timedelta(hours=12), hints=False),
    )
    g = out.game
    assert g.status is GameStatus.LOBBY and g.host_id == ALICE
    assert [(p.seat, p.name, p.user_id) for p in g.players] == [(0, "Alice", ALICE)]
    assert g.rules == PRESETS["fundex"].replace(knock_penalty=3, rounds=2)
    assert g.options == GameOptions(turn_deadline=timedelta(hours=12), hints=False)
    assert out.facts[0].code == FactCode.LOBBY_OPENED
    assert (await service.game_in_channel(CHANNEL)) == g


async def test_one_game_per_channel(service: GameService, clock: FakeClock) -> None:
    first = await new_game(service, clock, start=False)
    with pytest.raises(errors.ChannelBusy) as exc:
        await new_game(service, clock, humans=(CAROL,), start=False)
    assert exc.value.code == "channel-busy" and exc.value.params["game_id"] == first.game.id
    await new_game(service, clock, humans=(CAROL,), start=False, channel=CHANNEL + 1)


@pytest.mark.parametrize(
    ("preset", "house_rules", "code"),
    [
        ("nope", {}, "bad-preset"),
        ("standard", {"jokers": True}, "unknown-rule"),
        ("standard", {"knock": "yes"}, "bad-rule-value"),
        ("standard", {"rounds": True}, "bad-rule-value"),
        ("standard", {"double_rule": "sometimes"}, "bad-rules"),
        ("standard", {"max_pip": 7}, "bad-rules"),
        ("standard", {"rounds": 40}, "bad-rules"),
    ],
)
async def test_bad_rules_are_refused(
    service: GameService, clock: FakeClock, preset: str, house_rules: dict[str, object], code: str
) -> None:
    with pytest.raises(errors.BadRules) as exc:
        await new_game(service, clock, preset=preset, house_rules=house_rules, start=False)
    assert exc.value.code == code
    assert await service.game_in_channel(CHANNEL) is None


async def test_join_and_its_refusals(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, humans=(ALICE,), start=False, preset="double-9")).game.id
    out = await service.join(gid, BOB, "Bob", clock.tick())
    assert [p.name for p in out.game.players] == ["Alice", "Bob"]
    assert out.facts[0].code == FactCode.JOINED and out.facts[0].params["seat"] == 1
    version = out.game.version
    with pytest.raises(errors.AlreadyInGame, match="already in this game"):
        await service.join(gid, BOB, "Bob", clock.tick())
    await service.join(gid, CAROL, "Carol", clock.tick())
    await service.add_computer(gid, ALICE, clock.tick())  # double-9 seats at most 4
    full = (await service.game(gid)).version
    with pytest.raises(errors.GameFull, match="the game is full"):
        await service.join(gid, DAVE, "Dave", clock.tick())
    with pytest.raises(errors.GameFull):
        await service.add_computer(gid, ALICE, clock.tick())
    await _unchanged(service, gid, full)
    assert full == version + 2
    with pytest.raises(errors.GameNotFound):
        await service.join(999, DAVE, "Dave", clock.tick())


async def test_computers_are_added_and_removed_by_the_host(
    service: GameService, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, start=False)).game.id
    out = await service.add_computer(gid, ALICE, clock.tick(), level=Level.HARD)
    assert out.game.players[2].computer is Level.HARD and out.game.players[2].name == "CPU 1"
    out = await service.add_computer(gid, ALICE, clock.tick(), name="Robo")
    assert [p.name for p in out.game.players] == ["Alice", "Bob", "CPU 1", "Robo"]
    with pytest.raises(errors.NotHost, match="only the host can add computer players"):
        await service.add_computer(gid, BOB, clock.tick())
    with pytest.raises(errors.NotHost):
        await service.remove_computer(gid, BOB, 2, clock.tick())
    with pytest.raises(errors.NoSuchSeat) as exc:
        await service.remove_computer(gid, ALICE, 1, clock.tick())
    assert exc.value.code == "not-computer"
    with pytest.raises(errors.NoSuchSeat):
        await service.remove_computer(gid, ALICE, 9, clock.tick())
    out = await service.remove_computer(gid, ALICE, 2, clock.tick(), name="CPU 1")
    assert [(p.seat, p.name) for p in out.game.players] == [(0, "Alice"), (1, "Bob"), (2, "Robo")]
    # Robo moved up to seat 2: a request naming who sat at seat 3 before, or naming CPU 1 at
    # seat 2, is stale and changes nothing.
    for seat, name in ((3, "Robo"), (2, "CPU 1"), (1, "Bob")):
        with pytest.raises((errors.TableChanged, errors.NoSuchSeat)):
            await service.remove_computer(gid, ALICE, seat, clock.tick(), name=name)
    assert [p.name for p in (await service.game(gid)).players] == ["Alice", "Bob", "Robo"]
    # A server manager may do it too.
    out = await service.remove_computer(gid, BOB, 2, clock.tick(), is_manager=True)
    assert len(out.game.players) == 2


async def test_leave_the_lobby_and_the_host_passes_on(
    service: GameService, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL), start=False)).game.id
    out = await service.leave(gid, BOB, clock.tick())
    assert [p.name for p in out.game.players] == ["Alice", "Carol"]
    with pytest.raises(errors.NotInGame, match="you are not in this game"):
        await service.leave(gid, BOB, clock.tick())
    out = await service.leave(gid, ALICE, clock.tick())
    assert out.game.host_id == CAROL and [f.code for f in out.facts] == ["left", "host-changed"]
    out = await service.leave(gid, CAROL, clock.tick())
    assert out.game.status is GameStatus.ABANDONED
    assert await service.game_in_channel(CHANNEL) is None


async def test_start_deals_and_refusals(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, humans=(ALICE,), start=False)).game.id
    with pytest.raises(errors.NotEnoughPlayers):
        await service.start(gid, ALICE, clock.tick())
    await service.join(gid, BOB, "Bob", clock.tick())
    version = (await service.game(gid)).version
    with pytest.raises(errors.NotHost, match="only the host can start"):
        await service.start(gid, BOB, clock.tick())
    with pytest.raises(errors.WrongPhase, match="not started") as exc:
        await service.move(gid, ALICE, DRAW, clock.tick())
    assert exc.value.code == "not-started"
    await _unchanged(service, gid, version)
    out = await service.start(gid, ALICE, clock.tick())
    assert out.game.status is GameStatus.ACTIVE and out.rounds_started == (0,)
    assert {p.user_id for p in out.hands_changed} == {ALICE, BOB}
    assert out.next_player is not None and out.next_player.user_id == ALICE  # host starts
    assert [f.code for f in out.facts] == ["game-started", "round-started"]
    with pytest.raises(errors.WrongPhase, match="already started"):
        await service.start(gid, ALICE, clock.tick())
    with pytest.raises(errors.WrongPhase):
        await service.join(gid, CAROL, "Carol", clock.tick())


async def test_the_host_sits_first_even_after_the_host_changed(
    service: GameService, clock: FakeClock
) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL), start=False)).game.id
    await service.leave(gid, ALICE, clock.tick())
    await service.join(gid, ALICE, "Alice", clock.tick())
    out = await service.start(gid, BOB, clock.tick())
    assert [p.name for p in out.game.players] == ["Bob", "Carol", "Alice"]


async def test_manager_may_start_and_end(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, start=False)).game.id
    await service.start(gid, DAVE, clock.tick(), is_manager=True)
    with pytest.raises(errors.NotHost, match="only the host can end the game"):
        await service.end(gid, BOB, clock.tick())
    out = await service.end(gid, DAVE, clock.tick(), is_manager=True)
    assert out.game.status is GameStatus.ABANDONED and out.match_over is None
    assert out.next_player is None and out.facts[-1].code == FactCode.GAME_ENDED
    with pytest.raises(errors.WrongPhase, match="over"):
        await service.end(gid, ALICE, clock.tick())
    with pytest.raises(errors.WrongPhase, match="over"):
        await service.move(gid, ALICE, DRAW, clock.tick())
    await new_game(service, clock, start=False)  # the channel is free again


async def test_end_a_lobby(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, start=False)).game.id
    out = await service.end(gid, ALICE, clock.tick())
    assert out.game.status is GameStatus.ABANDONED


async def test_kick_in_the_lobby(service: GameService, clock: FakeClock) -> None:
    gid = (await new_game(service, clock, humans=(ALICE, BOB, CAROL), start=False)).game.id
    with pytest.raises(errors.NotHost, match="only the host can kick players"):
        await service.kick(gid, BOB, CAROL, clock.tick())
    with pytest.raises(errors.NoSuchSeat) as exc:
        await service.kick(gid, ALICE, ALICE, clock.tick())
    assert exc.value.code == "kick-self"
    with pytest.raises(errors.NoSuchSeat) as exc:
        await service.kick(gid, ALICE, DAVE, clock.tick())
    assert exc.value.code == "not-a-player"
    out = await service.kick(gid, ALICE, BOB, clock.tick())
    assert [p.name for p in out.game.players] == ["Alice", "Carol"]
    assert out.facts[0].code == FactCode.KICKED


async def test_server_settings_shape_new_lobbies(service: GameService, clock: FakeClock) -> None:
    with pytest.raises(errors.ServiceError) as exc:
        await service.update_guild_settings(
            GUILD, clock.tick(), is_manager=False, preset_name="fundex"
        )
    assert exc.value.code == "not-manager"
    with pytest.raises(errors.BadRules):
        await service.update_guild_settings(
            GUILD, clock.tick(), is_manager=True, house_rules={"nonsense": 1}
        )
    with pytest.raises(errors.BadSetting):
        await service.update_guild_settings(
            GUILD,
            clock.tick(),
            is_manager=True,
            allowed_channels=["general"],  # type: ignore[list-item]
        )
    await service.update_guild_settings(
        GUILD,
        clock.tick(),
        is_manager=True,
        preset_name="fundex",
        house_rules={"knock": False},
        allowed_channels=[CHANNEL],
        host_role_id=77,
    )
    with pytest.raises(errors.ChannelNotAllowed):
        await service.create_lobby(
            guild_id=GUILD,
            channel_id=CHANNEL + 1,
            user_id=ALICE,
            display_name="A",
            now=clock.tick(),
            role_ids=[77],
        )
    with pytest.raises(errors.NeedsHostRole):
        await service.create_lobby(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, display_name="A", now=clock.tick()
        )
    out = await service.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        display_name="A",
        now=clock.tick(),
        role_ids=[77],
    )
    assert out.game.preset == "fundex" and out.game.rules == PRESETS["fundex"].replace(knock=False)
    await service.end(out.game.id, ALICE, clock.tick())
    out = await service.create_lobby(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        display_name="A",
        now=clock.tick(),
        is_manager=True,
        preset_name="quick",
    )
    assert out.game.rules == PRESETS["quick"]  # a named preset does not take server defaults


async def test_user_settings(service: GameService, clock: FakeClock) -> None:
    s = await service.update_user_settings(
        ALICE, clock.tick(), hand_dms=False, time_zone="Europe/Paris", language="fr"
    )
    assert await service.user_settings(ALICE) == s
    assert (s.hand_dms, s.time_zone, s.language, s.dms_open) == (False, "Europe/Paris", "fr", True)
    for bad in (
        {"language": "xx"},
        {"time_zone": "Mars/Olympus"},
        {"reminder_after_s": 5},
        {"dms_open": "no"},
    ):
        with pytest.raises(errors.BadSetting):
            await service.update_user_settings(ALICE, clock.tick(), **bad)
    assert await service.user_settings(ALICE) == s


async def test_a_time_zone_is_read_by_one_rule_wherever_it_is_set(
    service: GameService, clock: FakeClock
) -> None:
    """``/mt me time_zone:`` and the schedule's own settings read a zone the same way: the
    spaces around it dropped, and one refusal naming what was typed."""
    schedule = ScheduleService(service)
    s = await service.update_user_settings(ALICE, clock.tick(), time_zone=" Asia/Tokyo ")
    assert s.time_zone == "Asia/Tokyo"
    mine = await schedule.update_my_settings(BOB, clock.tick(), time_zone=" America/Lima ")
    assert mine.settings.time_zone == "America/Lima"
    for change in (service.update_user_settings, schedule.update_my_settings):
        with pytest.raises(errors.BadSetting) as refused:
            await change(ALICE, clock.tick(), time_zone="Mars/Olympus")
        assert refused.value.code == "bad-time-zone"
        assert refused.value.params["zone"] == "Mars/Olympus"
    assert (await service.user_settings(ALICE)).time_zone == "Asia/Tokyo"


async def test_lobby_state_survives_a_restart(db_target: str | Path, clock: FakeClock) -> None:
    async with await Store.open(db_target) as store:
        gid = (await new_game(GameService(store), clock, computers=1, start=False)).game.id
    async with await Store.open(db_target) as store:
        svc = GameService(store)
        g = await svc.game(gid)
        assert [p.name for p in g.players] == ["Alice", "Bob", "CPU 1"]
        out = await svc.start(gid, ALICE, clock.tick())
        assert out.game.status is GameStatus.ACTIVE
