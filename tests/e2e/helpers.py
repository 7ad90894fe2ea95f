"""Steps the end-to-end tests share: open a game through Discord, find whose turn it is."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.app import MexicanTrainBot
from bot.engine import Move, Play, SeatView
from bot.service import GameSummary
from tests.fakediscord import WAIT, FakeChannel, FakeDiscord, FakeMessage, FakeUser, Invocation


async def said(invocation: Invocation, timeout: float = WAIT) -> FakeMessage:
    """The (ephemeral) answer an action got, once it is no longer "thinking", and once the
    bot has finished handling it: the answer comes first, the channel's posts and the DMs
    after it, and a test reads them next."""
    message = await invocation.message(timeout=timeout)
    await idle(invocation.fake, timeout)
    return message


async def idle(fake: FakeDiscord, timeout: float = WAIT) -> None:
    """Wait until every bot on ``fake`` has finished the interactions it is handling."""
    for bot in fake.bots:
        if isinstance(bot, MexicanTrainBot):
            assert await bot.metrics.wait_idle(timeout), "the bot is still busy"


def last_public(channel: FakeChannel) -> FakeMessage:
    message = channel.last_message()
    assert message is not None, "the channel has no public message"
    return message


async def game_here(bot: MexicanTrainBot, channel: FakeChannel) -> GameSummary:
    game = await bot.service.game_in_channel(channel.id)
    assert game is not None, "no game in the channel"
    return game


async def open_game(
    fake: FakeDiscord,
    bot: MexicanTrainBot,
    channel: FakeChannel,
    host: FakeUser,
    others: Sequence[FakeUser],
    *,
    start: bool = True,
    **options: Any,
) -> GameSummary:
    """/mt new by ``host``, Join clicks by ``others``, Start by the host: all through Discord."""
    answer = await said(await host.slash("mt new", channel=channel, **options))
    assert "is open" in answer.content, answer.content
    lobby = last_public(channel)
    for user in others:
        joined = await said(await user.click(lobby, label="Join"))
        assert "joined" in joined.content or "rejoint" in joined.content, joined.content
    if start:
        started = await said(await host.click(lobby, label="Start"))
        assert "started" in started.content, started.content
    return await game_here(bot, channel)


async def to_move(bot: MexicanTrainBot, game_id: int) -> tuple[int, SeatView]:
    """The user to move and their view (read from the service: tests ACT through Discord).

    Computer players move after the human's answer has been sent, so wait for them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        game = await bot.service.game(game_id)
        if game.turn is not None and game.turn.user_id is not None:
            return game.turn.user_id, await bot.service.seat_view(game_id, game.turn.user_id)
        assert loop.time() < deadline, f"no human to move in game {game_id}: {game.turn}"
        await asyncio.sleep(0.01)


async def settled(bot: MexicanTrainBot, game_id: int) -> GameSummary:
    """The game once no computer player is still moving (a human's turn, or the end)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while loop.time() < deadline:
        game = await bot.service.game(game_id)
        if game.turn is None or game.turn.user_id is not None:
            return game
        await asyncio.sleep(0.01)
    raise AssertionError(f"computer players never finished in game {game_id}")


def pick(legal: Sequence[Move]) -> Move:
    """A deterministic legal move, preferring tiles (games end sooner)."""
    plays = [m for m in legal if isinstance(m, Play)]
    return plays[0] if plays else legal[0]


async def type_move(
    user: FakeUser, channel: FakeChannel, text: str, knock: bool = False
) -> Invocation:
    """Type a move in notation the way a player does: ``/play tile train`` for a tile, else
    the word's own command (``/draw``, ``/pass``…); the interaction, to wait on as needed."""
    tile, _, train = text.partition(" ")
    if not train:
        return await user.slash(text, channel=channel)
    options = {"tile": tile, "train": train} | ({"knock": True} if knock else {})
    return await user.slash("play", channel=channel, **options)


async def slash_move(user: FakeUser, channel: FakeChannel, text: str, knock: bool = False) -> str:
    """:func:`type_move`, then the bot's answer once it has done everything the move asked."""
    return (await said(await type_move(user, channel, text, knock))).content
