"""The round-end posts of the largest match, measured against Discord's limits.

Ten people with 32-character display names (emoji and markdown characters among them) play
a whole double-18 match — 19 rounds — through the fake Discord with the real bot on a fresh
SQLite file: they open it with ``/mt new``, join, all go away (``/mt away``) and start, so
the computer plays every turn for them and the channel gets every round's end post. Each of
those posts is read back as Discord stored it and measured, and so are ``/mt scores`` and
``/table`` after the match; each round's picture is drawn again to read its text sizes at a
phone's 400 px. Prints ONE JSON line; ``limits_ok`` says whether everything fits.

    python scripts/round_end_limits.py
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.app import create_bot
from bot.cogs import timing
from bot.config import Config
from bot.store import GameStatus
from bot.ui.limits import (
    ATTACHMENT_DESCRIPTION,
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
)
from bot.ui.posts import PostBook
from bot.ui.roundend import (
    size,
)
from renderers import text_sizes
from renderers.round_end import RoundEndOptions, render_round_end
from tests.clock import FakeClock
from tests.e2e.helpers import lobby_card
from tests.fakediscord import FakeMessage, fake_discord, running_bot

NAMES = [
    "bartholomew fitzgerald-ngozi 3rd",
    "alexandra-maximiliana rosenthal!",
    "😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛😝😜🤪🤨🧐🤓😎",
    "**bold** _under_ ~strike~ |spoil",
    "jean-baptiste de la fontaine-hoa",
    "zoë ødegård-łukasiewicz ñúñez ab",
    "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
    "中文名字很长很长很长很长很长很长很长很长很长很长很长很长很长很长",
    "marie-ève beauchemin-tremblay xy",
    "christopher alexander johnson jr",
]


assert all(len(n) == 32 for n in NAMES), [len(n) for n in NAMES]


def _embed_total(embed: dict[str, object]) -> int:
    fields = embed.get("fields") or []
    assert isinstance(fields, list)
    total = size(str(embed.get("title") or "")) + size(str(embed.get("description") or ""))
    return total + sum(size(f["name"]) + size(f["value"]) for f in fields)


def _is_round(file: Any) -> bool:  # round.png, or round-1.png… for rounds told in one post
    return bool(file.filename.startswith("round"))


def _measure(posts: list[FakeMessage]) -> dict[str, int]:
    # Every embed of the post: a round's end rides in the turn post (issue 47), and the
    # limits hold for the message's embeds together (6,000 characters).
    embeds = [e for m in posts for e in m.embeds]
    fields = [f for e in embeds for f in e.get("fields") or []]
    return {
        "max_title": max(size(str(e.get("title") or "")) for e in embeds),
        "max_description": max(size(str(e.get("description") or "")) for e in embeds),
        "max_field_name": max(size(f["name"]) for f in fields),
        "max_field_value": max(size(f["value"]) for f in fields),
        "max_fields": max(len(e.get("fields") or []) for e in embeds),
        "max_embed_total": max(sum(_embed_total(e) for e in m.embeds) for m in posts),
        "max_alt_text": max(size(f.description or "") for m in posts for f in m.files),
    }


async def main() -> None:
    timing.ScheduleCog.send_interval = 0  # type: ignore[misc]
    PostBook.flush_delay = 0.01
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        config = Config(database=Path(tmp) / "g.sqlite3", synchronous="NORMAL", render_workers=1)
        bot = create_bot(config, clock=clock, rng=random.Random(19))
        async with fake_discord() as fake, running_bot(fake, bot):
            games = fake.channel("games")
            users = [fake.user(n) for n in NAMES]
            host = users[0]
            await (await host.slash("mt new", channel=games, preset="double-18")).message()
            # The card follows the host's answer, as the command's followup.
            lobby = await lobby_card(fake, games, 60)
            assert lobby is not None
            for u in users[1:]:
                await (await u.click(lobby, label="Join")).message()
            for u in users:  # away before the deal: the computer plays every turn for them
                await (await u.slash("mt away", state="on")).message()
            await (await host.click(lobby, label="Start")).message(timeout=600)
            game = await bot.service.game_in_channel(games.id)
            assert game is not None and len(game.players) == 10
            cog = timing.cog_of(bot)
            for _ in range(200):
                if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                    break
                clock.tick(60)
                await cog.scheduler.tick()
            finished = (await bot.service.game(game.id)).status is GameStatus.FINISHED
            posts = [m for m in games.messages() if any(_is_round(f) for f in m.files)]
            scores = await (await users[3].slash("mt scores", channel=games)).message()
            table = await (await users[5].slash("table", channel=games)).message()
            # Every round's picture again, to read the sizes of the text it draws.
            smallest = 99.0
            for r in range(len(await bot.service.round_scores(game.id))):
                report = await bot.service.round_report(game.id, r)
                image = render_round_end(report.board, RoundEndOptions())
                smallest = min(smallest, min(px for px, _ in text_sizes(image)) * 400 / image.width)
            figures = _measure(posts)
            rounds = [f for m in posts for f in m.files if _is_round(f)]
            heights = sorted({f.image_size() or (0, 0) for f in rounds})
    figures |= {
        "max_scores_answer": size(scores.content),
        "table_after_match_total": _embed_total(table.embeds[0]) if table.embeds else -1,
    }
    ok = (
        finished
        and len(rounds) == 19
        and all(
            (
                figures["max_title"] <= 256,
                figures["max_description"] <= EMBED_DESCRIPTION,
                figures["max_field_name"] <= FIELD_NAME,
                figures["max_field_value"] <= FIELD_VALUE,
                figures["max_fields"] <= EMBED_FIELDS,
                figures["max_embed_total"] <= EMBED_TOTAL,
                figures["max_alt_text"] <= ATTACHMENT_DESCRIPTION,
                figures["max_scores_answer"] <= CONTENT,
                0 < figures["table_after_match_total"] <= EMBED_TOTAL,
                smallest >= 9.0,
            )
        )
    )
    line = {
        "players": 10,
        "rounds": 19,
        "name_chars": max(len(n) for n in NAMES),
        "match_finished": finished,
        "round_end_posts": len(posts),
        **figures,
        "picture_sizes_px": [list(h) for h in heights],
        "min_text_px_at_400": round(smallest, 1),
        "limits_ok": ok,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(line))


if __name__ == "__main__":
    asyncio.run(main())
