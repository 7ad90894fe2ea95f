"""``MT_SYNC_COMMANDS=1`` that can stay on: push the slash commands only when they changed.

Discord rate-limits command syncs, and a global sync can take up to an hour to reach every
client, so syncing at every restart (a container restarted by its policy, an upgrade that
changed nothing in the commands) is waste at best. Before syncing, this module builds the
exact payload ``CommandTree.sync`` would send — every command with its translations into every
locale the translator knows — and hashes it. The hash of the last successful sync is kept in
the database's ``meta`` table, per application and target (global, or the ``MT_DEV_GUILD``
copy); an equal hash means Discord already has these commands, and nothing is sent.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.store import Store

log = logging.getLogger(__name__)


async def tree_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None = None
) -> list[dict[str, Any]]:
    """What ``tree.sync(guild=guild)`` would send, translations included (discord.py builds
    it the same way: the translator's payload when there is one, else ``to_dict``), the
    top-level commands by type and name: Discord keeps no order among them (its bulk
    overwrite matches them by name), while the tree's order is the order the cogs loaded in,
    which a reload changes — and a reload must not make a sync."""
    slash = discord.AppCommandType.chat_input  # (commands and groups carry no ``type``)
    commands = sorted(
        tree.get_commands(guild=guild), key=lambda c: (getattr(c, "type", slash).value, c.name)
    )
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A stable digest of a command payload (key order and whitespace do not matter)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def meta_key(application_id: int | None, guild: discord.abc.Snowflake | None) -> str:
    """Per application (a new token for another application must sync) and per target."""
    target = "global" if guild is None else f"guild:{guild.id}"
    return f"commands:{application_id}:{target}"


async def sync_if_changed(
    client: discord.Client,
    tree: app_commands.CommandTree[Any],
    store: Store,
    dev_guild: int | None = None,
) -> list[str]:
    """Sync globally, and to ``dev_guild`` (commands copied there), each only if its payload
    changed since the last sync recorded in ``store``. Returns what was done, for the log."""
    targets: list[discord.abc.Snowflake | None] = [None]
    if dev_guild is not None:
        guild = discord.Object(dev_guild)
        tree.copy_global_to(guild=guild)
        targets.append(guild)
    done = []
    for target in targets:
        where = "global" if target is None else f"guild {target.id}"
        key = meta_key(client.application_id, target)
        digest = payload_hash(await tree_payload(tree, target))
        if await store.meta(key) == digest:
            done.append(f"{where} unchanged")
            continue
        synced = await tree.sync(guild=target)
        async with store.transaction() as tx:
            await tx.put_meta(key, digest)
        done.append(f"{len(synced)} {where}")
    log.info("slash commands (MT_SYNC_COMMANDS): %s", ", ".join(done))
    return done
