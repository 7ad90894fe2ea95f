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

import pytest

from bot.app import EXTENSIONS, MexicanTrainBot, create_bot
from bot.config import Config
from bot.ops.sync import payload_hash, tree_payload

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
