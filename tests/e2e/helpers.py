"""Steps the end-to-end tests share: open a game through Discord, find whose turn it is, play
until a turn comes by DM and move from it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.app import MexicanTrainBot
from bot.engine import DRAW, PASS, Move, Play, SeatView
from bot.service import GameSummary
from bot.store import GameStatus
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
    assert "is open" in answer.text, answer.text
    lobby = last_public(channel)
    for user in others:
        joined = await said(await user.click(lobby, label="Join"))
        assert "joined" in joined.text or "rejoint" in joined.text, joined.text
    if start:
        started = await said(await host.click(lobby, label="Start"))
        assert "started" in started.text, started.text
    return await game_here(bot, channel)


async def lobby_card(fake: FakeDiscord, channel: FakeChannel, timeout: float = WAIT) -> FakeMessage:
    """The channel's open lobby card (its Join button), once it is there: ``/mt new``'s card is
    the command's followup, after the host's answer (issue 47), so it may come a moment later."""

    def card() -> FakeMessage | None:
        return next((m for m in reversed(channel.messages()) if "Join" in m.button_labels), None)

    return await fake.wait_for(card, timeout=timeout, what="the lobby card", on=channel)


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
    return (await said(await type_move(user, channel, text, knock))).text


def live_dm(user: FakeUser, version: int) -> FakeMessage | None:
    """The user's newest DM if its controls act on the table at ``version`` (the turn DM of
    the turn being played), else None."""
    dms = user.dms()
    if not dms:
        return None
    ids = [str(c.get("custom_id")) for c in [*dms[-1].selects, *dms[-1].buttons]]
    return dms[-1] if any(f":{version}:dm:" in i for i in ids) else None


async def dm_move(user: FakeUser, dm: FakeMessage, move: Move) -> FakeMessage:
    """Make ``move`` from a turn DM as a player does: Draw and Pass with their buttons, any
    other move picked from the DM's move list; the answer."""
    if move in (DRAW, PASS):
        return await said(await user.click(dm, label=str(move).capitalize()))
    return await said(await user.select(dm, values=[str(move)]))


#: What :func:`play_until` waits for: the player to move, their view and their live turn DM.
Wanted = Callable[[FakeUser, SeatView, FakeMessage | None], bool]


async def play_until(
    bot: MexicanTrainBot,
    channel: FakeChannel,
    users: Mapping[int, FakeUser],
    wanted: Wanted,
    *,
    from_dm: bool = False,
    limit: int = 600,
) -> tuple[FakeUser, SeatView, FakeMessage | None]:
    """Play :func:`pick`'s moves in ``channel``'s game until ``wanted`` holds for the player
    to move: that player, their view and their live turn DM (None when they have none).
    Each other move is typed in the channel, or, ``from_dm``, made from the mover's turn DM
    where they have one (no interaction token on the channel)."""
    game = await game_here(bot, channel)
    for _ in range(limit):
        now = await bot.service.game(game.id)
        assert now.status is GameStatus.ACTIVE, "the match ended first"
        version = now.version
        uid, view = await to_move(bot, game.id)
        user = users[uid]
        dm = live_dm(user, version)
        if wanted(user, view, dm):
            return user, view, dm
        if from_dm and dm is not None:
            await dm_move(user, dm, pick(view.legal))
        else:
            await slash_move(user, channel, str(pick(view.legal)))
    raise AssertionError(f"not reached in {limit} moves")


async def to_turn_dm(
    bot: MexicanTrainBot, channel: FakeChannel, users: Mapping[int, FakeUser]
) -> tuple[FakeUser, SeatView, FakeMessage]:
    """Type moves in the channel until a turn comes by DM: that player, their view and the
    DM (a host's first turn may ride on their Start click, with no DM)."""
    user, view, dm = await play_until(bot, channel, users, lambda _u, _v, dm: dm is not None)
    assert dm is not None
    return user, view, dm


#: A channel id the fake does not know: where the game of "another server" sits.
ELSEWHERE = 987_654_321


async def lobby_elsewhere(bot: MexicanTrainBot, fake: FakeDiscord, host: FakeUser) -> GameSummary:
    """A lobby of another server, hosted by ``host`` (only the service can open one: the fake
    has one guild): what forged clicks name to reach a game they must not."""
    out = await bot.service.create_lobby(
        guild_id=fake.guild_id + 1,
        channel_id=ELSEWHERE,
        user_id=host.id,
        display_name=host.name.title(),
        now=bot.now(),
    )
    return out.game
