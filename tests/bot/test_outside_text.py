"""Every reading of outside text, fed other scripts' digits, control characters and huge
numbers, answers cleanly: a clear refusal of its own kind (a ``ConfigError`` naming the
setting, a ``TileError`` or ``MoveError``, a ``Refusal``, a ``BadSetting``), never another
exception, never a number read from digits other than ASCII ``0``-``9``.

The settings are found in ``bot/config.py``'s and ``bot/configvalues.py``'s source, every
``MT_…`` name they read, so a new setting is swept as soon as it exists; the ``custom_id``
patterns are every persistent item's template. Clicks, options and the whole bot meet the same
inputs through the fake Discord in ``tests/e2e/hostile.py`` (and
``tests/e2e/test_forged_ids.py`` for the log).
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
import re
from pathlib import Path

import discord
import pytest

import bot.cogs
import bot.ui
from bot import config as config_module
from bot import configvalues
from bot.config import Config
from bot.configvalues import ConfigError
from bot.engine import MoveError, Tile, TileError, parse_move
from bot.engine.moves import parse_train
from bot.service import errors
from bot.service.settings import check_time_zone
from bot.tryit import reading
from bot.ui.refusals import Refusal

#: Text that is no number however generous a reader: other scripts' digits, superscripts,
#: fullwidth forms, controls, separators, huge and non-finite numbers.
ODD = [
    "²",
    "\u00b9\u00b2",
    "\u0663",
    "\u0661\u0662",
    "\u06f3",
    "\u0966",
    "\uff11",
    "\uff11\uff12",
    "\U0001d7d9",
    "①",
    "1\u0663",
    "1\n2",
    "1\r",
    "\t1",
    "1\x00",
    "\x1b[2J",
    "1\u2028",
    "\u202e12",
    "1\u200b",
    "9" * 30,
    "9" * 5000,
    "1e400",
    "-1e400",
    "inf",
    "nan",
    "1_000",
    "0x10",
]

#: A setting is read with the spaces around it dropped (a shell's quoting): the rest of ODD.
ODD_SETTINGS = [t for t in ODD if t.strip() == t or not t.strip().isascii()]

#: The Config's fields and the readers of one setting's text.
SOURCE = Path(config_module.__file__).read_text() + Path(configvalues.__file__).read_text()
SETTINGS = sorted(set(re.findall(r'"(MT_[A-Z_]+)"', SOURCE)))
#: Settings that take a number (each refuses every odd text, naming itself).
NUMBERS = sorted(
    set(re.findall(r'_(?:int|seconds)\(env, "(MT_[A-Z_]+)"', SOURCE))
    | {"MT_HEALTH_PORT", "MT_SHARDS", "MT_SHARD_COUNT", "MT_DISCORD_RATE"}
)


def test_the_sweep_finds_the_settings() -> None:
    assert len(SETTINGS) >= 20 and len(NUMBERS) >= 11
    assert {"MT_SQLITE_BUSY_MS", "MT_SHUTDOWN_GRACE", "MT_HEALTH_PORT"} <= set(NUMBERS)


@pytest.mark.parametrize("name", NUMBERS)
def test_a_number_setting_refuses_odd_text_by_name(name: str) -> None:
    for text in ODD_SETTINGS:
        with pytest.raises(ConfigError, match=name):
            Config.from_env({name: text})


@pytest.mark.parametrize("name", SETTINGS)
def test_any_setting_answers_odd_text_with_a_config_error_or_takes_it(name: str) -> None:
    for text in ODD:
        with contextlib.suppress(ConfigError):  # a clear refusal; anything else fails the test
            Config.from_env({name: text})


def test_shard_ids_refuse_other_digits() -> None:
    for text in ("0,\u0661", "\u0660", "0,²", "0,1\n"):
        with pytest.raises(ConfigError, match="MT_SHARD_IDS"):
            Config.from_env({"MT_SHARD_COUNT": "2", "MT_SHARD_IDS": text.rstrip("\n") + "x"})
    with pytest.raises(ConfigError, match="MT_SHARD_COUNT"):
        Config.from_env({"MT_SHARD_COUNT": "\u0662", "MT_SHARD_IDS": "0"})


def test_plain_settings_still_read() -> None:
    config = Config.from_env(
        {"MT_SQLITE_BUSY_MS": " 250 ", "MT_SHUTDOWN_GRACE": "2.5", "MT_HEALTH_PORT": "8080"}
    )
    assert (config.busy_timeout_ms, config.shutdown_grace, config.health_port) == (250, 2.5, 8080)


@pytest.mark.parametrize("text", ODD_SETTINGS)  # a tile too is read without spaces around it
def test_tiles_trains_and_moves_refuse_other_digits(text: str) -> None:
    for tile in (f"{text}-5", f"12-{text}", text, f"{text} {text}"):
        with pytest.raises(TileError):
            Tile.parse(tile, 12)
    for train in (f"@{text}", text):
        with pytest.raises(MoveError):
            parse_train(train, players=4)
    for move in (f"{text}-5 mexican", f"12-5 @{text}", f"catch @{text}"):
        with pytest.raises((MoveError, TileError)):
            parse_move(move, players=4, max_pip=12)


def test_arabic_and_fullwidth_digits_are_no_tile_though_int_reads_them() -> None:
    assert int("\u0661\u0662") == 12 and int("\uff15") == 5  # what the readers must not do
    for text in ("\u0661\u0662-\u0665", "\uff11\uff12-5", "\u0661\u0662 \u0665"):
        with pytest.raises(TileError):
            Tile.parse(text, 12)
    assert str(Tile.parse("12-5", 12)) == "12-5"


@pytest.mark.parametrize("text", [t for t in ODD if not any(c.isspace() for c in t)])
def test_a_typed_line_is_read_or_refused_never_a_number_of_other_digits(text: str) -> None:
    for line in (f"{text}-5", f"{text} 5", f"12 {text}", f"catch @{text}", f"{text} mexican"):
        try:
            command = reading.read(line)
        except Refusal:
            continue
        # What the grammar passes on, the engine refuses (as it does for /play).
        assert command is not None, line
        with pytest.raises((MoveError, TileError)):
            if command.action == "play":
                Tile.parse(command.text, 12)
                parse_train(command.train or "\u0663", players=4)
            else:
                parse_move(command.text, players=4, max_pip=12)


@pytest.mark.parametrize("text", ODD_SETTINGS)
def test_a_time_zone_refuses_odd_text(text: str) -> None:
    for zone in (text, f"Etc/GMT+{text}", f"Europe/{text}"):
        with pytest.raises(errors.BadSetting):
            check_time_zone(zone)


def _templates() -> list[re.Pattern[str]]:
    """Every persistent item's custom_id pattern, wherever in the Discord layer it lives (a
    carve that moves one to a new module, or beside its cog, keeps it swept)."""
    modules = [
        importlib.import_module(m.name)
        for package, prefix in ((bot.ui, "bot.ui."), (bot.cogs, "bot.cogs."))
        for m in pkgutil.iter_modules(package.__path__, prefix=prefix)
    ]
    items = {
        v
        for module in modules
        for v in vars(module).values()
        if isinstance(v, type)
        and issubclass(v, discord.ui.DynamicItem)
        and v is not discord.ui.DynamicItem
    }
    return [item.__discord_ui_compiled_template__ for item in items]


def test_every_custom_id_pattern_takes_ascii_digits_only() -> None:
    templates = _templates()
    assert len(templates) >= 9
    good = [
        "mt:12:lobby:join", "mt:12:lobby:cpu", "mt:12:lobby:uncpu", "mt:12:3:draw",
        "mt:12:3:pick", "mt:12:3:dm:pick", "mt:12:hist:2:older", "mt:12:rematch",
        "mt:12:catchup", "mt:12:3:dm:pass", "mt:12:review",
    ]  # fmt: skip
    for custom_id in good:
        assert sum(bool(t.fullmatch(custom_id)) for t in templates) == 1, custom_id
    for custom_id in good:
        for text in ODD:
            for forged in (custom_id.replace("12", text), custom_id.replace("3", text, 1)):
                if forged == custom_id:
                    continue
                hits = [t.pattern for t in templates if t.fullmatch(forged)]
                assert not hits, (forged, hits)


def test_a_refused_typed_line_is_quoted_without_controls() -> None:
    for line in ("12\x1b[2J-5", "\x1b]0;owned\x07 draw", "\u202enope", "a\x00b"):
        with pytest.raises(Refusal) as refused:
            reading.read(line)
        quoted = str(refused.value.params["text"])
        assert quoted and quoted.isprintable(), (line, quoted)
