"""The house-rule options come from one table (:mod:`bot.texts.houserules`): ``/mt new`` and
``/mt-admin settings`` declare what the table says, in both languages, and the values they receive
become the rules the table names."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.app import create_bot
from bot.config import Config
from bot.i18n import tr
from bot.texts.houserules import HOUSE_OPTIONS
from bot.ui.houserules import rules_from_options
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import running_bot


def _command(
    tree: app_commands.CommandTree[Any], name: str, group_name: str = "mt"
) -> app_commands.Command[Any, ..., Any]:
    group = tree.get_command(group_name)
    assert isinstance(group, app_commands.Group)
    command = group.get_command(name)
    assert isinstance(command, app_commands.Command)
    return command


async def test_both_commands_declare_what_the_table_says(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    config = Config(database=tmp_path / "g.sqlite3", synchronous="NORMAL", render_workers=0)
    bot = create_bot(config, rng=random.Random(1))
    async with running_bot(fake_discord, bot, sync=False):
        new = {p.name: p for p in _command(bot.tree, "new").parameters}
        settings = {p.name: p for p in _command(bot.tree, "settings", "mt-admin").parameters}
    defaults = 0
    for option in HOUSE_OPTIONS:
        name = option.name.en
        param = new[name]
        assert param.description == option.new.en and not param.required
        assert [(c.value, c.name) for c in param.choices] == [
            (value, words.en) for value, words in option.choices
        ]
        if option.default is None:
            assert name not in settings, name
        else:
            defaults += 1
            assert settings[name].description == option.default.en
        # The French the translator gives Discord is the table's.
        assert tr(f"cmd.name.{name}", "fr") == option.name.fr
        assert tr(f"cmd.desc.{option.new.en}", "fr") == option.new.fr
        for _value, words in option.choices:
            assert tr(f"cmd.choice.{words.en}", "fr") == words.fr
    assert defaults == 3  # knock, open hands, fast start


def test_option_values_become_the_rules_the_table_names() -> None:
    assert rules_from_options(knock=None, fast_start=None) == {}
    assert rules_from_options(fast_start=True) == {"first_turn": "fast-start"}
    assert rules_from_options(fast_start=False, knock=False) == {
        "knock": False,
        "first_turn": "single",
    }
    assert rules_from_options(engine="highest-double", rounds=3) == {
        "rounds": 3,
        "engine_placement": "highest-double",
    }
    with pytest.raises(TypeError, match="preset"):
        rules_from_options(preset="quick")
