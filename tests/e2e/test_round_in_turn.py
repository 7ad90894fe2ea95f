"""A round's end rides in the turn's post (issue 47): when a move ends a round and the game goes
on, the channel gets ONE post for that turn — the round's end (its last moves, its picture,
the scores) and the new round's table, whose turn, the controls — on the turn post's own
path: the move's followup, the channel webhook (off the bot's global limit), or the bot's own
message as one card. A draw that grows it keeps the round's end; a crash after it is posted
posts nothing twice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from bot.ui import announcer
from bot.ui.deliver import Deliverer
from bot.ui.route import Route
from bot.ui.turnpost import TurnPost
from tests.e2e.helpers import (
    dm_move,
    game_here,
    idle,
    live_dm,
    open_game,
    pick,
    slash_move,
    to_move,
)
from tests.e2e.test_outbox import wait_paid
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot
from tests.fakediscord.webhooks import MANAGE_WEBHOOKS

POST = "POST /channels/{channel_id}/messages"


def _paid(fake: FakeDiscord, games: FakeChannel) -> int:
    """Posts made in the game's channel with the bot token (against its global limit)."""
    return len([r for r in fake.requests_to(POST) if r.path == f"/channels/{games.id}/messages"])


async def _open(
    fake: FakeDiscord, bot: MexicanTrainBot, *, webhooks: bool, rounds: int = 3
) -> tuple[FakeChannel, dict[int, FakeUser]]:
    games = fake.channel("games")
    if webhooks:
        games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    await open_game(fake, bot, games, alice, [bob, carol], preset="double-9", rounds=rounds)
    return games, users


async def _to_round_end(
    fake: FakeDiscord,
    bot: MexicanTrainBot,
    games: FakeChannel,
    users: dict[int, FakeUser],
    *,
    from_dm: bool,
) -> tuple[list[FakeMessage], int]:
    """Play until a move ends a round with the game going on (``from_dm``: a move made from a
    turn DM; else typed in the channel): the channel messages that move made, and the posts
    it paid with the bot token in the channel."""
    game = await game_here(bot, games)
    for _ in range(3000):
        now = await bot.service.game(game.id)
        rounds = len(await bot.service.round_scores(game.id))
        uid, view = await to_move(bot, game.id)
        user, dm = users[uid], live_dm(users[uid], now.version)
        before, paid = len(games.messages()), _paid(fake, games)
        by_dm = from_dm and dm is not None
        if by_dm:
            assert dm is not None
            await dm_move(user, dm, pick(view.legal))
        else:
            await slash_move(user, games, str(pick(view.legal)))
        await idle(fake)
        over = len(await bot.service.round_scores(game.id)) > rounds
        going = (await bot.service.game(game.id)).status is GameStatus.ACTIVE
        if over and going and by_dm == from_dm:
            return games.messages()[before:], _paid(fake, games) - paid
    raise AssertionError("no round ended that way")


def _is_merged(post: FakeMessage, game_id: int, number: int) -> None:
    """The end of round ``number`` and the next round's turn, in one classic post."""
    ended, turn = post.embeds
    assert ended["title"] == f"Game #{game_id} — round {number}/3"
    assert f"Scores after round {number}/3" in [f["name"] for f in ended["fields"]]
    assert turn["title"] == f"Game #{game_id} — round {number + 1}/3"
    assert [f.filename for f in post.files] == ["round.png", "table.png"]
    ended_picture, table = post.files
    assert (ended_picture.description or "").startswith(f"Round {number} of 3 is over")
    assert table.description  # the table's alt text, kept beside the round's
    assert ended["image"]["url"] == post.attachments[0].url
    assert turn["image"]["url"] == post.attachments[1].url
    assert post.button_labels[:3] == ["Play", "Draw", "Pass"]
    assert any(f"mt:{game_id}:" in str(b.get("custom_id")) for b in post.buttons)


async def test_a_round_ended_by_a_channel_move_is_one_post_with_both_embeds_and_pictures(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=False)
        game = await game_here(bot, games)
        made, paid = await _to_round_end(fake, bot, games, users, from_dm=False)
        [post] = made  # one post for the turn, not the round's end and then the turn
        _is_merged(post, game.id, len(await bot.service.round_scores(game.id)))
        assert post.webhook_id == fake.application_id and paid == 0  # the move's followup


async def test_a_round_ended_by_a_dm_move_is_one_webhook_post_and_no_bot_message(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        game = await game_here(bot, games)
        made, paid = await _to_round_end(fake, bot, games, users, from_dm=True)
        [post] = made
        _is_merged(post, game.id, len(await bot.service.round_scores(game.id)))
        (hook,) = fake.webhooks.of(games)
        assert post.webhook_id == hook.id and paid == 0  # nothing against the global limit


async def test_without_the_webhook_a_dm_move_posts_the_round_in_the_turns_card(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=False)
        game = await game_here(bot, games)
        made, paid = await _to_round_end(fake, bot, games, users, from_dm=True)
        [post] = made
        assert paid == 1 and post.webhook_id is None and post.card
        assert [f.filename for f in post.files] == ["round.png", "table.png"]
        n = len(await bot.service.round_scores(game.id))
        assert post.alt_texts[0].startswith(f"Round {n} of 3 is over") and len(post.alt_texts) == 2
        assert f"### Game #{game.id} — round {n}/3" in post.text
        assert f"Game #{game.id} — round {n + 1}/3" in post.text
        assert f"Scores after round {n}/3" in post.text
        assert post.button_labels[:3] == ["Play", "Draw", "Pass"]
        # The deliverer finds it by its buttons, inside the card's container.
        assert await Deliverer(bot).already_posted(await bot.service.game(game.id))


async def test_a_draw_after_the_round_end_keeps_the_rounds_embed_and_picture(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    # A move that leaves its player to move (a draw whose tile fits, a double) grows the live
    # post of that turn by an edit (free: the followup's token): here the post the round's end
    # rides in, grown as the draw that comes next grows it, through the turn post's own step.
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=False)
        made, _ = await _to_round_end(fake, bot, games, users, from_dm=False)
        [post] = made
        game = await game_here(bot, games)
        turn_post = TurnPost(bot, Route(bot, None), game.id)
        live = await turn_post.live()
        assert live is not None and live.message_id == post.id and live.turn is not None
        assert turn_post.edits_free(post.id)  # the token of the followup that made it
        table = await bot.service.table_view(game.id)
        grown = await turn_post._grow(game, table, live.turn, ["Bob drew a tile."], "en")
        assert grown and post.edits == 1
        ended, turn = post.embeds  # the round's end is still there, before the turn
        n = len(await bot.service.round_scores(game.id))
        assert ended["title"] == f"Game #{game.id} — round {n}/3"
        assert f"Scores after round {n}/3" in [f["name"] for f in ended["fields"]]
        assert "Bob drew a tile." in turn["description"]
        assert [f.filename for f in post.files] == ["round.png", "table.png"]
        assert (post.files[0].description or "").startswith(f"Round {n} of 3 is over")
        assert ended["image"]["url"] == post.attachments[0].url
        assert turn["image"]["url"] == post.attachments[1].url
        assert post.button_labels[:3] == ["Play", "Draw", "Pass"]
        # Quietened when the next post appears: its round's end and pictures stay.
        uid, view = await to_move(bot, game.id)
        await slash_move(users[uid], games, str(pick(view.legal)))
        await idle(fake)
        assert post.buttons == [] and len(post.embeds) == 2 and len(post.files) == 2


async def test_a_crash_after_the_merged_webhook_post_posts_nothing_twice_at_restart(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    bot = make_bot()
    settle = announcer.settle

    async def killed(*args: Any, **kwargs: Any) -> None:
        post = games.last_message()
        if post is not None and any(f.filename == "round.png" for f in post.files):
            raise asyncio.CancelledError  # dies after the merged post, before clearing
        await settle(*args, **kwargs)

    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        game = await game_here(bot, games)
        monkeypatch.setattr(announcer, "settle", killed)
        made, _ = await _to_round_end(fake, bot, games, users, from_dm=True)
        [post] = made
        assert await bot.service.outbox.owed(game.id) is not None
        posts = [m.id for m in games.messages()]
        assert posts[-1] == post.id
    monkeypatch.undo()

    bot = make_bot()
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        # Neither the round's end nor the turn again: the deliverer found the post.
        assert [m.id for m in games.messages()] == posts
