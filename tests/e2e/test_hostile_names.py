"""Hostile display names through a whole match: every text the bot sends (posts, edits,
answers, DMs, embeds) shows each name as written and inert — no masked link, no mention, no
markdown, no heading or quote, no bidirectional override.

Issue 50: "⏩ NAME had no choice…" and "NAME starts." showed names raw, so a 31-character
server nickname ``[click](https://evil.example/x)`` was a link in the bot's own post. Discord
lets a member write any nickname of up to 32 characters; the fake sends it as the member's
``nick``. What the bot sent is read from the fake's record of every request, so a line later
edited away is checked too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from tests.e2e.helpers import last_public, open_game, said, settled
from tests.e2e.test_extras import play_one
from tests.fakediscord import FakeDiscord, running_bot

#: Server nicknames (at most 32 characters, as Discord allows).
NICKS = {
    "alice": "[click](https://evil.example/x)",
    "bob": "@everyone <@&123456789012345678>",
    "carol": "**b** `c` _u_ ~~s~~ ||x||",
    "dave": "\u202e# > evil\u200b",
}

#: What must never reach a text raw: each would render (a link, a mention, markdown) or hide.
RAW = [
    re.compile(r"(?<!\\)\[click\]\("),
    re.compile(r"@everyone|@here"),
    re.compile(r"<@&123456789012345678>"),
    re.compile(r"\*\*b"),
    re.compile(r"`c`"),
    re.compile(r"(?<!\\)_u(?<!\\)_"),
    re.compile(r"~~s"),
    re.compile(r"\|\|x"),
    re.compile(r"[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]"),
    re.compile(r"^[ \t]{0,3}(#{1,3}|>|-#)\s[^\n]*evil", re.MULTILINE),  # a heading, a quote
]
#: A code block shows what it holds as it is: only a backtick could end it early.
CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)


def texts(body: Any, key: str = "") -> Iterator[str]:
    """Every text in a request's JSON body that Discord renders as markdown: a message's
    content, an embed's title, description and fields (not labels, footers, authors, alt
    texts nor select options, which Discord shows as plain text)."""
    if isinstance(body, dict):
        for k, v in body.items():
            if k in ("components", "attachments", "footer", "author", "allowed_mentions"):
                continue
            if (isinstance(v, str) and k in ("content", "title", "description", "value")) or (
                k == "name" and key == "fields" and isinstance(v, str)
            ):
                yield v
            else:
                yield from texts(v, k)
    elif isinstance(body, list):
        for item in body:
            yield from texts(item, key)


def raw_names(text: str) -> list[str]:
    """What in ``text`` shows a hostile name raw (empty: every name inert)."""
    found = []
    for block in CODE_BLOCK.findall(text):
        if "`" in block[3:-3]:
            found.append(f"a backtick inside a code block: {block!r}")
    outside = CODE_BLOCK.sub("", text)
    found += [
        f"{p.pattern} in {outside[max(0, m.start() - 60) : m.end() + 20]!r}"
        for p in RAW
        for m in p.finditer(outside)
    ]
    return found


def test_the_detector_sees_raw_names_and_passes_inert_ones() -> None:
    from bot.ui.limits import shown

    for nick in NICKS.values():
        assert raw_names(f"⏩ {nick} had no choice"), nick
        assert raw_names(f"{nick} starts."), nick
        assert not raw_names(f"{shown(nick)} starts."), shown(nick)
        assert not raw_names(f"⏩ **{shown(nick)}** had no choice"), shown(nick)
    assert raw_names("```\nname `x`\n```")
    assert not raw_names("```\n**b** _u_ [click](x)\n```")


async def test_hostile_names_are_inert_in_everything_the_bot_sends(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    users = [fake.user(name) for name in NICKS]
    for user in users:
        user.nick = NICKS[user.name]
    by_id = {u.id: u for u in users}
    alice, bob, carol, _ = users
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        game = await open_game(fake, bot, games, alice, users[1:], preset="quick")
        assert [p.name for p in game.players] == [" ".join(n.split()) for n in NICKS.values()]
        await said(await alice.slash("mt status", channel=games))
        for turn in range(400):
            current = await settled(bot, game.id)
            if current.status is not GameStatus.ACTIVE:
                break
            await play_one(bot, games, by_id, game.id)
            if turn == 3:
                await said(await alice.slash("mt undo", channel=games))  # the host's undo post
                await said(await bob.slash("mt catchup", channel=games))
                await said(await carol.click(last_public(games), label="My hand"))
                await said(await carol.slash("mt history", channel=games))
                await said(await bob.slash("table", channel=games))
        assert (await settled(bot, game.id)).status is GameStatus.FINISHED
        for user in users:
            await said(await user.slash("mt scores", channel=games))
            await said(await user.slash("mt stats", channel=games))
        await said(await alice.slash("mt history", channel=games))
    problems = [
        f"{r.method} {r.route}: {problem}"
        for r in fake.requests
        for text in texts(r.body)
        for problem in raw_names(text)
    ]
    assert not problems, "\n".join(problems[:20]) + f"\n({len(problems)} in all)"
