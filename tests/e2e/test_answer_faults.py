"""The mover's answer when Discord keeps failing to show it (issue 50): the edit of the
interaction's "thinking…" answered 502 six times (discord.py retries a 502 itself, five
tries a request) left the player reading a bare "✅" — the next word the announcer made
before its turn post — instead of what their move did. Now that word is the answer itself;
and an answer no edit can show comes apart, by DM, once."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import ModuleType
from typing import Any

import discord.webhook.async_ as webhook_requests
import pytest

from bot.app import MexicanTrainBot
from bot.engine import Play
from tests.e2e.helpers import idle, open_game, pick, to_move, type_move
from tests.fakediscord import WAIT, FakeDiscord, FakeUser, running_bot

#: The route of an edit made with an interaction's token (its answer, its followups).
TOKEN_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"


class _Quick(ModuleType):
    """asyncio as discord.py's webhook requests see it, with its retry waits (1 to 9 s
    between tries of a 5xx) cut to a blink: the same tries, without 25 s a test."""

    def __init__(self) -> None:
        super().__init__("asyncio")

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(min(delay, 0.01), result)


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(webhook_requests, "asyncio", _Quick())


async def _mover(fake: FakeDiscord, bot: MexicanTrainBot) -> tuple[FakeUser, Play, Any]:
    room = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    game = await open_game(fake, bot, room, alice, [bob], preset="quick")
    uid, view = await to_move(bot, game.id)
    move = pick(view.legal)
    assert isinstance(move, Play)  # (the quick deal always has a tile to play)
    return users[uid], move, room


@pytest.mark.usefixtures("quick_retries")
async def test_an_answer_whose_edit_failed_six_times_is_still_said(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        mover, move, room = await _mover(fake, bot)
        dms = len(mover.dms())
        fake.fail_next("PATCH", TOKEN_EDIT, times=6, status=502)
        inv = await type_move(mover, room, str(move))
        await idle(fake)
        answer = await inv.message()
        assert fake.faults_served == 6
        assert answer.text.startswith("✅ ") and str(move.tile) in answer.text, answer.text
        assert len(mover.dms()) == dms  # said where it belongs: nothing else


@pytest.mark.usefixtures("quick_retries")
async def test_an_answer_no_edit_can_show_comes_by_dm_once(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        mover, move, room = await _mover(fake, bot)
        fake.fail_next("PATCH", TOKEN_EDIT, times=10_000, status=502)
        await type_move(mover, room, str(move))
        told = await fake.wait_for(
            lambda: [m for m in mover.dms() if "could not show my answer" in m.text] or None,
            timeout=WAIT,
            what="the answer by DM",
            on=mover,
        )
        await idle(fake)
        fake.fail_next("PATCH", TOKEN_EDIT, times=0)
        (dm,) = [m for m in mover.dms() if "could not show my answer" in m.text]
        assert dm is told[0] and f"<#{room.id}>" in dm.text
        assert "✅ " in dm.text and str(move.tile) in dm.text, dm.text
