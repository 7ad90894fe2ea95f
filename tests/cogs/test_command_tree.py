"""The slash commands Discord sees do not depend on how the cogs declare them.

``command_tree.json`` is the payload ``tree.sync()`` sends (every command, option, choice,
permission and translation, in order), written from main at 10bed12, before the ``/mt``
subcommands moved into one cog style. The sync hash (:mod:`bot.ops.sync`) is of this payload, so
while it is byte-identical a release that only reorganises the cogs syncs nothing. A deliberate
change of the commands rewrites it: ``python -m tests.cogs.test_command_tree``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.app import EXTENSIONS, MexicanTrainBot, create_bot
from bot.config import Config
from bot.ops.sync import payload_hash, tree_payload
from bot.ui import mt
from bot.ui.interactions import Interaction
from bot.ui.options import check_options

FIXTURE = Path(__file__).with_name("command_tree.json")


def _text(payload: list[dict[str, Any]]) -> str:
    """The payload as written to the fixture: Discord's order of keys and of items kept."""
    return json.dumps(payload, indent=1, ensure_ascii=False) + "\n"


async def _started(db: Path) -> MexicanTrainBot:
    bot = create_bot(Config(database=db, synchronous="NORMAL", render_workers=0))
    await bot.setup_hook()  # the store, the services, the translator and every extension
    bot.cancel_background()  # never logged in: no game to resume
    return bot


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[MexicanTrainBot]:
    b = await _started(tmp_path / "db.sqlite3")
    assert list(b.extensions) == list(EXTENSIONS)
    try:
        yield b
    finally:
        await b.close()


async def test_the_synced_payload_is_main_s_byte_for_byte(bot: MexicanTrainBot) -> None:
    payload = await tree_payload(bot.tree)
    assert _text(payload) == FIXTURE.read_text(encoding="utf-8")
    assert payload_hash(payload) == payload_hash(json.loads(FIXTURE.read_text(encoding="utf-8")))


def _unchecked(bot: MexicanTrainBot) -> list[str]:
    """Commands that would run without checking their options first."""
    return [
        c.qualified_name
        for c in bot.tree.walk_commands()
        if isinstance(c, app_commands.Command) and check_options not in c.checks
    ]


@pytest.mark.parametrize("order", ["as loaded", "reversed"])
async def test_reloading_every_cog_gives_the_same_commands(
    bot: MexicanTrainBot, order: str
) -> None:
    """``reload_extension`` takes a cog's commands out and puts fresh ones back: same payload
    (so no sync), each bound to the new cog and checking its options like at start-up."""
    before = _text(await tree_payload(bot.tree))
    names = list(EXTENSIONS) if order == "as loaded" else list(reversed(EXTENSIONS))
    for name in names:
        await bot.reload_extension(name)
    assert _text(await tree_payload(bot.tree)) == before
    assert _unchecked(bot) == []
    group = mt.group_of(bot.tree)
    assert group is not None and [c.name for c in group.commands] == list(mt.ORDER)
    stats = group.get_command("stats")
    assert isinstance(stats, app_commands.Command)
    assert stats.binding is bot.get_cog("Stats")  # the reloaded cog, not the unloaded one


async def test_the_group_lives_as_long_as_a_cog_has_a_subcommand_in_it(
    bot: MexicanTrainBot,
) -> None:
    with_mt = [n for n in EXTENSIONS if n not in ("bot.cogs.play", "bot.cogs.places")]
    for name in with_mt[:-1]:
        await bot.unload_extension(name)
    group = mt.group_of(bot.tree)
    assert group is not None and [c.name for c in group.commands] == ["nudge", "away", "mygames"]
    await bot.unload_extension(with_mt[-1])
    assert mt.group_of(bot.tree) is None  # Discord refuses a group without subcommands
    assert bot.tree.get_command("play") is not None
    await bot.load_extension("bot.cogs.stats")  # any cog may come first
    group = mt.group_of(bot.tree)
    assert group is not None and [c.name for c in group.commands] == ["stats", "leaderboard"]
    for name in with_mt[:-1]:
        if name != "bot.cogs.stats":
            await bot.load_extension(name)
    await bot.load_extension(with_mt[-1])
    # /mt came back after /play in the tree: as at start-up once /play is reloaded after it.
    await bot.reload_extension("bot.cogs.play")
    assert _text(await tree_payload(bot.tree)) == FIXTURE.read_text(encoding="utf-8")


async def test_the_admin_commands_are_a_group_shown_only_to_manage_server(
    bot: MexicanTrainBot,
) -> None:
    """Discord hides a command from members without its ``default_member_permissions`` but
    cannot hide one subcommand: the Manage Server commands are ``/mt-admin``, none in ``/mt``."""
    payload = {c["name"]: c for c in await tree_payload(bot.tree)}
    admin = payload[mt.ADMIN_GROUP]
    manage_guild = discord.Permissions(manage_guild=True).value
    assert admin["default_member_permissions"] == manage_guild
    assert [o["name"] for o in admin["options"]] == ["settings", "season", "league", "sync"]
    assert payload["mt"].get("default_member_permissions") is None
    assert not {"settings", "sync"} & {o["name"] for o in payload["mt"]["options"]}
    # Every command the Manage Server check guards lives in /mt-admin.
    for cmd in bot.tree.walk_commands():
        if isinstance(cmd, app_commands.Command) and "Manage Server only" in cmd.description:
            assert cmd.parent is not None and cmd.parent.name == mt.ADMIN_GROUP, cmd.qualified_name


#: Discord's limit on the options of a command, subcommand group or subcommand (its
#: subcommands count as options), and on the choices of an option: "Application command
#: option" and "Application command option choice", both "max 25", in
#: https://discord.com/developers/docs/interactions/application-commands — a sync over it is
#: refused whole (400, "Invalid Form Body"), as the loopback fake does (tests/fakediscord).
DISCORD_MAX_OPTIONS = 25


def _over_the_limit(name: str, item: dict[str, Any]) -> list[str]:
    """Where the synced payload has more options or choices than Discord takes."""
    options = item.get("options") or []
    out = [f"/{name}: {len(options)} options"] if len(options) > DISCORD_MAX_OPTIONS else []
    if len(item.get("choices") or []) > DISCORD_MAX_OPTIONS:
        out.append(f"/{name}: {len(item['choices'])} choices")
    for option in options:
        out += _over_the_limit(f"{name} {option['name']}", option)
    return out


async def test_no_command_or_group_has_more_than_discord_s_25_options(
    bot: MexicanTrainBot,
) -> None:
    """``/mt`` is one group for every feature's subcommands: each new one takes a place of the
    25 (``/mt export`` and ``/mt rules`` became options of ``/mt history`` and ``/mt status``)."""
    payload = await tree_payload(bot.tree)
    assert [where for cmd in payload for where in _over_the_limit(cmd["name"], cmd)] == []
    group = next(cmd for cmd in payload if cmd["name"] == mt.NAME)
    assert len(group["options"]) == len(mt.ORDER) <= DISCORD_MAX_OPTIONS
    # The fixture is what a sync sends: it keeps to the limit too.
    fixture = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert [where for cmd in fixture for where in _over_the_limit(cmd["name"], cmd)] == []


class _Stray(mt.GameCog):
    """A subcommand nobody placed in ``ORDER``."""

    @mt.command(name="shuffle", description="Not in the order")
    async def shuffle(self, interaction: Interaction) -> None:
        raise AssertionError("never invoked")


class _Twin(mt.GameCog):
    """A cog whose second subcommand's name another cog already has."""

    @mt.command(name="nudge", description="A second /mt nudge")
    async def nudge(self, interaction: Interaction) -> None:
        raise AssertionError("never invoked")


async def test_a_subcommand_without_a_place_or_with_a_taken_name_is_refused(
    bot: MexicanTrainBot,
) -> None:
    before = _text(await tree_payload(bot.tree))
    with pytest.raises(ValueError, match=r"/mt shuffle: not in bot.ui.mt.ORDER"):
        await bot.add_cog(_Stray(bot))
    with pytest.raises(app_commands.CommandAlreadyRegistered, match="mt nudge"):
        await bot.add_cog(_Twin(bot))
    assert bot.get_cog("_Stray") is None and bot.get_cog("_Twin") is None
    assert _text(await tree_payload(bot.tree)) == before  # nothing half-added


async def _write(path: Path) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        bot = await _started(Path(tmp) / "db.sqlite3")
        try:
            path.write_text(_text(await tree_payload(bot.tree)), encoding="utf-8")
        finally:
            await bot.close()


if __name__ == "__main__":
    asyncio.run(_write(FIXTURE))
    print(f"wrote {FIXTURE}", file=sys.stderr)
