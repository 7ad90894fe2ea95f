"""The Discord layer's pure parts: words of outcomes, refusals, autocomplete choices,
pictures, configuration and the entry point's one-line failures."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Config
from bot.configvalues import ConfigError
from bot.engine import IllegalMove, MoveError, Play
from bot.service import GameService, errors
from bot.store import Store
from bot.ui import messages
from bot.ui.options import tile_choices, train_choices
from bot.ui.pictures import hand_png, table_png
from bot.ui.refusals import Refusal, error_text
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB
from tests.service.helpers import new_game, play_turn

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA4NzY1NDMyMTA5ODc2NTQzMg.GaBcDe.abcdefghijklmnopqrstuvwxyz012345678"


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "g.sqlite3", synchronous="NORMAL")
    try:
        yield GameService(store, rng=random.Random(3))
    finally:
        await store.close()


async def test_outcome_lines_tell_the_deal_the_moves_and_the_round_end(
    service: GameService,
) -> None:
    clock = FakeClock()
    out = await new_game(service, clock, preset="quick")
    lines = messages.outcome_lines(out, "en")
    assert lines[0].startswith("Round 1 of 1: the engine is 12-12.")
    assert messages.outcome_lines(out, "fr")[0].startswith("Manche 1 sur 1")
    gid = out.game.id
    seen: list[str] = []
    while out.game.status == "active":
        out = await play_turn(service, gid, clock)
        seen += messages.outcome_lines(out, "en")
    assert any("went out" in s or "blocked" in s for s in seen)
    table = messages.scores_table(out.game.players, await service.round_scores(gid), [0, 0])
    assert table.startswith("```") and "Alice" in table and "R1" in table
    text = messages.standings_text(await service.standings(gid), "en")
    assert "1. " in text and " pts" in text


async def test_hand_text_lists_tiles_and_where_they_fit(service: GameService) -> None:
    clock = FakeClock()
    out = await new_game(service, clock, preset="quick")
    game = out.game
    turn = game.turn
    assert turn is not None and turn.user_id is not None
    mine = await service.seat_view(game.id, turn.user_id)
    text = messages.hand_text(mine, game, "en")
    assert "Your hand" in text and "It's your turn" in text
    for move in mine.legal:
        if isinstance(move, Play):
            assert f"`{move.tile}`" in text
    waiting = ALICE if turn.user_id == BOB else BOB
    other = messages.hand_text(await service.seat_view(game.id, waiting), game, "fr")
    assert "Ta main" in other and "On attend" in other


async def test_autocomplete_offers_only_legal_tiles_and_their_trains(
    service: GameService,
) -> None:
    clock = FakeClock()
    game = (await new_game(service, clock, preset="quick")).game
    assert game.turn is not None and game.turn.user_id is not None
    view = await service.seat_view(game.id, game.turn.user_id)
    legal = {str(m.tile) for m in view.legal if isinstance(m, Play)}
    assert {c.value for c in tile_choices(view, "", "en")} == legal
    first = sorted(legal)[0]
    typed = first.split("-")[0]
    assert all(
        c.value.startswith(typed) or c.value.endswith(typed)
        for c in tile_choices(view, typed, "en")
    )
    flipped = "-".join(reversed(first.split("-")))  # 5-12 finds 12-5
    assert first in {c.value for c in tile_choices(view, flipped, "en")}
    trains = {c.value for c in train_choices(view, first, "en")}
    assert trains == {str(m).split()[1] for m in view.legal if str(m).startswith(first + " ")}
    assert len(tile_choices(view, "", "en")) <= 25


async def test_pictures_are_pngs_and_the_table_has_no_hand(service: GameService) -> None:
    clock = FakeClock()
    game = (await new_game(service, clock, preset="quick")).game
    table = table_png(await service.table_view(game.id))
    assert table.startswith(b"\x89PNG") and len(table) < 200_000
    assert (await service.table_view(game.id)).hand is None
    hand = hand_png(await service.seat_view(game.id, ALICE))
    assert hand.startswith(b"\x89PNG")


def test_refusals_are_short_and_translated() -> None:
    assert error_text(errors.TableChanged(), "en").startswith("The table changed")
    assert error_text(errors.TableChanged(), "fr").startswith("La table a changé")
    assert error_text(errors.GameFull(4), "en") == "The game is full (4 players)."
    moved = errors.MoveRefused("it's Bob's turn", code="not-your-turn")
    assert error_text(moved, "en") == "Not possible: it's Bob's turn."
    # French readers get the reason in French, English readers the engine's detailed sentence.
    facts = {"tile": "5-3", "train": 0, "owner": "Ann", "own": 1, "end": 12}
    no_fit = IllegalMove("no-fit", "5-3 does not fit", **facts)
    assert error_text(no_fit, "fr") == "Le 5-3 ne va pas sur ton train (@1) : il y faut un 12."
    assert error_text(no_fit, "en") == "Not possible: 5-3 does not fit."
    assert error_text(errors.MoveRefused("x", code="must-draw"), "fr").startswith("Tu ne peux")
    assert "can't read" in error_text(MoveError("bad"), "en")
    assert error_text(Refusal("error.not-your-turn", name="Carol"), "en") == "It's Carol's turn."
    assert "nothing was changed" in error_text(RuntimeError("boom"), "en")


def test_config_reads_bot_settings_and_checks_the_token() -> None:
    cfg = Config.from_env(
        {"DISCORD_TOKEN": TOKEN, "MT_SYNC_COMMANDS": "1", "MT_DEV_GUILD": "42",
         "MT_LOG_LEVEL": "debug"}
    )  # fmt: skip
    assert cfg.require_token() == TOKEN and cfg.sync_commands and cfg.dev_guild == 42
    assert cfg.log_level == "DEBUG" and TOKEN not in repr(cfg)
    with pytest.raises(ConfigError, match="not set"):
        Config.from_env({}).require_token()
    with pytest.raises(ConfigError, match="does not look like") as refused:
        Config.from_env({"DISCORD_TOKEN": "hunter2"}).require_token()
    assert "this value has 1" in str(refused.value)
    # Three parts, but not a token's: the message must not claim the parts are missing.
    for three in ("a.b.c", "MTA4NzY1NDMyMTA5ODc2NTQzMg.GaBcDe.abc def ghijklmnopqrstuvwxyz01"):
        with pytest.raises(ConfigError, match="its three parts are too short") as refused:
            Config.from_env({"DISCORD_TOKEN": three}).require_token()
        assert "has 3" not in str(refused.value) and three not in str(refused.value)
    with pytest.raises(ConfigError, match="this value has 4"):
        Config.from_env({"DISCORD_TOKEN": TOKEN + ".x"}).require_token()
    with pytest.raises(ConfigError, match="MT_SYNC_COMMANDS"):
        Config.from_env({"MT_SYNC_COMMANDS": "maybe"})
    with pytest.raises(ConfigError, match="MT_LOG_LEVEL"):
        Config.from_env({"MT_LOG_LEVEL": "loud"})


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "not-a-token"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": TOKEN, "MT_GAME_CACHE": "lots"}, "MT_GAME_CACHE"),
    ],
)
def test_entry_point_fails_with_one_line_and_exit_2(env: dict[str, str], needle: str) -> None:
    base = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=base | env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in result.stderr
    assert "not-a-token" not in result.stderr  # the token is never echoed
