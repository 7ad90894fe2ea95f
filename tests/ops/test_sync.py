"""MT_SYNC_COMMANDS=1 left on: the commands are pushed when they changed, not at every start.

The real bot (``create_bot``, its cogs and translator) starts and restarts on one database
against the loopback fake Discord, which records every ``PUT`` of the command list.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import discord
from discord import app_commands

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.ops.sync import payload_hash, tree_payload
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import running_bot

GLOBAL = "PUT /applications/{app_id}/commands"
GUILD = "PUT /applications/{app_id}/guilds/{guild_id}/commands"


def _bot(db: Path, dev_guild: int | None = None) -> MexicanTrainBot:
    config = Config(
        database=db, synchronous="NORMAL", sync_commands=True, dev_guild=dev_guild, render_workers=0
    )
    return create_bot(config, rng=random.Random(1))


async def test_restarts_with_the_flag_on_sync_once_until_the_commands_change(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake, db = fake_discord, tmp_path / "games.sqlite3"
    async with running_bot(fake, _bot(db, fake.guild_id), sync=False):
        assert len(fake.requests_to(GLOBAL)) == 1 and len(fake.requests_to(GUILD)) == 1
        assert "mt" in fake.commands() and "play" in fake.commands()
    for _ in range(2):  # restarts with nothing changed: nothing sent
        async with running_bot(fake, _bot(db, fake.guild_id), sync=False):
            pass
    assert len(fake.requests_to(GLOBAL)) == 1 and len(fake.requests_to(GUILD)) == 1

    # A release that changes the commands: a new command in the tree.
    changed = _bot(db, fake.guild_id)

    @app_commands.command(name="shuffle", description="A command this release adds")
    async def shuffle(interaction: discord.Interaction) -> None:
        raise AssertionError("never invoked")

    changed.tree.add_command(shuffle)
    async with running_bot(fake, changed, sync=False):
        assert "shuffle" in fake.commands()
    assert len(fake.requests_to(GLOBAL)) == 2 and len(fake.requests_to(GUILD)) == 2
    async with running_bot(fake, _bot(db, fake.guild_id), sync=False):
        pass  # and back without it: changed again
    assert len(fake.requests_to(GLOBAL)) == 3 and "shuffle" not in fake.commands()

    with sqlite3.connect(db) as conn:
        keys = sorted(k for (k,) in conn.execute("SELECT key FROM meta"))
    app = fake.application_id
    assert keys == [f"commands:{app}:global", f"commands:{app}:guild:{fake.guild_id}"]


async def test_the_hash_covers_every_locale(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """A changed French name must sync too: the hash is of the translated payload."""
    bot = _bot(tmp_path / "games.sqlite3")
    async with running_bot(fake_discord, bot, sync=False):
        payload = await tree_payload(bot.tree)
        names = {c["name"]: c.get("name_localizations") or {} for c in payload}
        assert names["mt"], "the payload should carry the French names"
        before = payload_hash(payload)
        french = next(iter(names["mt"]))
        for command in payload:
            if command["name"] == "mt":
                command["name_localizations"][french] = "autre"
        assert payload_hash(payload) != before
