"""Turn posts through the bot's channel webhook (bot/ui/hooks.py), end to end on the fake
Discord: a move made from a turn DM has no channel interaction to ride on, so with Manage
Webhooks its channel post goes through the webhook (off the bot's global limit) and its
buttons work from the channel; without the permission it is the bot's own post, as before;
a webhook an admin deleted is made again once."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import MexicanTrainBot
from bot.engine import Play, SeatView
from bot.store import GameStatus
from bot.ui import announcer
from bot.ui.route import Route
from bot.ui.turnpost import TurnPost
from tests.clock import FakeClock
from tests.e2e.helpers import (
    dm_move,
    idle,
    last_public,
    live_dm,
    open_game,
    pick,
    play_until,
    said,
    slash_move,
    to_move,
)
from tests.e2e.test_outbox import wait_paid
from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    fake_discord,
    running_bot,
)
from tests.fakediscord.webhooks import MANAGE_WEBHOOKS

POST = "POST /channels/{channel_id}/messages"
LIST = "GET /channels/{channel_id}/webhooks"
CREATE = "POST /channels/{channel_id}/webhooks"
EXECUTE = "POST /webhooks/{webhook_id}/{webhook_token}"
EDIT_WEBHOOK_MESSAGE = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
EDIT_CHANNEL_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"


def hooked_edits(fake: FakeDiscord) -> list[str]:
    """The webhook ids of the edits made through the channel webhook (not interaction
    tokens, whose webhook id is the application's)."""
    return [
        r.path.split("/")[2]
        for r in fake.requests_to(EDIT_WEBHOOK_MESSAGE)
        if not r.path.startswith(f"/webhooks/{fake.application_id}/") and r.status < 400
    ]


def _paid(fake: FakeDiscord, games: FakeChannel) -> int:
    """Posts made in the game's channel with the bot token (not the turn DMs)."""
    return len([r for r in fake.requests_to(POST) if r.path == f"/channels/{games.id}/messages"])


async def _move_from_a_dm(
    fake: FakeDiscord, bot: MexicanTrainBot, games: FakeChannel, users: dict[int, FakeUser]
) -> tuple[FakeMessage, int]:
    """Play (in the channel until a turn comes by DM) until a play made from a DM is told
    in the channel: that post, and the bot-token posts made in the channel for that move."""
    for _ in range(400):
        user, view, dm = await play_until(bot, games, users, _a_play_by_dm, limit=400)
        assert dm is not None
        plays = [m for m in view.legal if isinstance(m, Play)]
        posts, paid = len(games.messages()), _paid(fake, games)
        answer = await said(await user.select(dm, values=[str(plays[0])]))
        assert answer.text.startswith("✅"), answer.text
        if len(games.messages()) > posts:
            return last_public(games), _paid(fake, games) - paid
    raise AssertionError("no play was made from a DM in 400 moves")


def _a_play_by_dm(_user: FakeUser, view: SeatView, dm: FakeMessage | None) -> bool:
    return dm is not None and any(isinstance(m, Play) for m in view.legal)


async def _open(
    fake: FakeDiscord, bot: MexicanTrainBot, *, webhooks: bool
) -> tuple[FakeChannel, dict[int, FakeUser]]:
    games = fake.channel("games")
    if webhooks:
        games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
    return games, users


async def test_a_move_from_the_dm_posts_through_the_webhook_and_its_play_button_works(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        post, paid = await _move_from_a_dm(fake, bot, games, users)
        hooks = fake.webhooks.of(games)
        assert len(hooks) == 1 and hooks[0].application_id == fake.application_id
        assert post.webhook_id == hooks[0].id and paid == 0
        assert post.button_labels[:1] == ["Play"]
        # Made once, found by one list call; never a second of either.
        assert len(fake.requests_to(LIST)) == 1 and len(fake.requests_to(CREATE)) == 1
        report = fake.budget_report()["routes"][EXECUTE]
        assert report["webhook"] >= 1 and report["global_limited"] == 0
        # The token never reaches the logs' words or the database's rows.
        assert hooks[0].token not in repr(
            await bot.service.messages(
                (await bot.service.game_in_channel(games.id)).id  # type: ignore[union-attr]
            )
        )
        # The next player presses Play on the webhook's post, in the channel: it works.
        game = await bot.service.game_in_channel(games.id)
        assert game is not None
        uid, view = await to_move(bot, game.id)
        picker = await said(await users[uid].click(post, label="Play"))
        assert picker.ephemeral
        plays = [m for m in view.legal if isinstance(m, Play)]
        if plays:
            offered = {o["value"] for s in picker.selects for o in s["options"]}
            assert {str(m) for m in plays} <= offered
            done = await said(await users[uid].select(picker, values=[str(plays[0])]))
            assert done.text.startswith("✅"), done.text
            assert (await bot.service.game(game.id)).version > game.version


MOVE_CONTROL = re.compile(r"mt:[0-9]+:[0-9]+:(?:dm:)?(?:play|draw|pass|knock|pick)")


def _move_controls(message: FakeMessage) -> list[str]:
    ids = [str(c.get("custom_id")) for c in [*message.buttons, *message.selects]]
    return [i for i in ids if MOVE_CONTROL.fullmatch(i)]


async def test_a_webhook_post_goes_quiet_when_the_next_comes_through_the_webhook(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Issue 47: the previous turn's post loses its move controls when the next appears, by
    an edit through the webhook that made it (off the bot's global limit, with
    ``with_components``: an empty view, since ``view=None`` is not "respected"); its text
    and picture stay, and no bot-token request is spent on it."""
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        first, _ = await _move_from_a_dm(fake, bot, games, users)
        assert first.webhook_id is not None and _move_controls(first)
        paid_edits = len(fake.requests_to(EDIT_CHANNEL_MESSAGE))
        second, paid = await _move_from_a_dm(fake, bot, games, users)
        assert second.webhook_id == first.webhook_id and paid == 0 and second is not first
        assert _move_controls(second) and not _move_controls(first)
        assert first.images() and first.embeds  # the post itself is kept, as it was
        quieted = [
            r for r in fake.requests_to(EDIT_WEBHOOK_MESSAGE) if r.path.endswith(f"/{first.id}")
        ]
        assert quieted and all(r.query.get("with_components") == "1" for r in quieted)
        assert len(fake.requests_to(EDIT_CHANNEL_MESSAGE)) == paid_edits


async def test_a_webhook_post_over_an_hour_old_goes_quiet_when_the_next_appears(
    clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Issue 47.2: superseded controls go quiet at any age. A webhook's post three hours old
    that nobody pressed loses its move controls when the next turn's post appears, by an
    edit through the webhook that made it (off the bot's global limit); no bot-token request
    is spent on it and Discord refuses nothing."""
    async with fake_discord(clock=clock) as fake:
        bot = make_bot()
        async with running_bot(fake, bot):
            games, users = await _open(fake, bot, webhooks=True)
            first, _ = await _move_from_a_dm(fake, bot, games, users)
            assert first.webhook_id is not None and _move_controls(first)
            paid_edits = len(fake.requests_to(EDIT_CHANNEL_MESSAGE))
            clock.tick(3 * 3600)  # the players are away: the post is three hours old
            fake.after_advance()
            second, paid = await _move_from_a_dm(fake, bot, games, users)
            assert second is not first and paid == 0 and _move_controls(second)
            assert not _move_controls(first), first.button_labels
            assert first.images() and first.embeds  # the post itself is kept, as it was
            told = games.messages()
            live = [m.id for m in told[:-1] if _move_controls(m)]
            assert live == []  # only the newest post has move controls
            assert len(fake.requests_to(EDIT_CHANNEL_MESSAGE)) == paid_edits
            assert [r for r in fake.requests if r.status >= 400 and r.status != 429] == []


async def test_an_expired_followup_goes_quiet_with_the_bot_token_after_a_webhook_post(
    clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Issue 47.2: a move typed in the channel posts a followup; two hours later the next
    move, made from a DM, posts through the webhook. The followup's token has expired and the
    webhook cannot edit it, so only the bot token can take its controls off: one request
    against the global limit, spent because the new post cost none."""
    async with fake_discord(clock=clock) as fake:
        bot = make_bot()
        async with running_bot(fake, bot):
            games, users = await _open(fake, bot, webhooks=True)
            user, view, dm = await play_until(bot, games, users, _a_play_by_dm, limit=400)
            followup = last_public(games)
            assert followup.webhook_id == fake.application_id and _move_controls(followup)
            clock.tick(2 * 3600)
            fake.after_advance()
            assert dm is not None
            plays = [m for m in view.legal if isinstance(m, Play)]
            answer = await said(await user.select(dm, values=[str(plays[0])]))
            assert answer.text.startswith("✅"), answer.text
            post = last_public(games)
            assert post is not followup and post.webhook_id not in (None, fake.application_id)
            assert not _move_controls(followup) and _move_controls(post)
            paid = [
                r
                for r in fake.requests_to(EDIT_CHANNEL_MESSAGE)
                if r.path.endswith(f"/{followup.id}")
            ]
            assert len(paid) == 1 and paid[0].status < 400
            assert [r for r in fake.requests if r.status >= 400 and r.status != 429] == []


async def test_without_manage_webhooks_the_post_is_one_card_and_goes_quiet_for_free(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Issue 47: the bot's own turn post (Create Message takes a card with its file) is one
    card: the moves, the table's picture with its alt text, whose turn, the controls. The
    next player's click on it (Play) lends its token: the next post takes the card's controls
    off through it, keeping its text and picture (a V2 message is edited as a layout)."""
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=False)
        post, paid = await _move_from_a_dm(fake, bot, games, users)
        assert post.card and post.content == "" and post.embeds == [] and paid == 1
        assert post.titles and post.titles[0].startswith("Game #")
        assert len(post.images()) == 1 and post.alt_texts and all(post.alt_texts)
        assert "it's your turn" in post.text and _move_controls(post)
        game = await bot.service.game_in_channel(games.id)
        assert game is not None
        uid, view = await to_move(bot, game.id)
        plays = [m for m in view.legal if isinstance(m, Play)]
        if not plays:
            return  # (seeded: the next player has a tile)
        picker = await said(await users[uid].click(post, label="Play"))
        text, shown = post.text, post.alt_texts
        done = await said(await users[uid].select(picker, values=[str(plays[0])]))
        assert done.text.startswith("✅"), done.text
        assert last_public(games) is not post
        assert post.card and not _move_controls(post)  # quiet, through the click's token
        assert post.text == text and post.alt_texts == shown and len(post.images()) == 1


async def test_without_manage_webhooks_the_post_is_the_bots_own(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=False)
        post, paid = await _move_from_a_dm(fake, bot, games, users)
        assert post.webhook_id is None and post.author is fake.bot_user and paid == 1
        # Not even asked: the permission is read from the gateway's cache first.
        assert not fake.requests_to(LIST) and not fake.requests_to(CREATE)
        assert not fake.requests_to(EXECUTE) or all(
            r.path.startswith(f"/webhooks/{fake.application_id}/")
            for r in fake.requests_to(EXECUTE)
        )


async def test_a_deleted_webhook_is_made_again_once(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        first, _ = await _move_from_a_dm(fake, bot, games, users)
        (hook,) = fake.webhooks.of(games)
        fake.webhooks.delete(hook)  # an admin, in Server Settings → Integrations
        second, paid = await _move_from_a_dm(fake, bot, games, users)
        (again,) = fake.webhooks.of(games)
        assert again.id != hook.id and second.webhook_id == again.id and paid == 0
        assert first.webhook_id == hook.id
        # Gone twice in a row (deleted right after it was made): the bot's own post, and
        # the webhook is not asked again in this process.
        fake.webhooks.delete(again)
        made = fake.webhooks.make
        calls = 0

        def made_and_gone(*args: object, **kwargs: object) -> object:
            nonlocal calls
            calls += 1
            fresh = made(*args, **kwargs)  # type: ignore[arg-type]
            fake.webhooks.delete(fresh)
            return fresh

        fake.webhooks.make = made_and_gone  # type: ignore[method-assign]
        third, paid = await _move_from_a_dm(fake, bot, games, users)
        assert third.webhook_id is None and paid == 1 and calls == 1
        creates = len(fake.requests_to(CREATE))
        fourth, paid = await _move_from_a_dm(fake, bot, games, users)
        assert fourth.webhook_id is None and paid == 1
        assert len(fake.requests_to(CREATE)) == creates


async def test_a_crash_after_a_webhook_post_posts_nothing_twice_at_restart(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A webhook takes no nonce: the restarted deliverer must find the webhook's post in the
    # channel (as the bot's own) before posting again.
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        await _move_from_a_dm(fake, bot, games, users)

        async def killed(*args: Any, **kwargs: Any) -> None:
            raise asyncio.CancelledError  # dies after the post and the ping, before clearing

        monkeypatch.setattr(announcer, "settle", killed)
        post, _ = await _move_from_a_dm(fake, bot, games, users)
        await idle(fake)
        game = await bot.service.game_in_channel(games.id)
        assert game is not None and post.webhook_id is not None
        assert await bot.service.outbox.owed(game.id) is not None
        posts = len(games.messages())
    monkeypatch.undo()

    bot = make_bot()
    async with running_bot(fake, bot):
        await wait_paid(bot, game.id)
        await idle(fake)
        assert len(games.messages()) == posts


async def test_a_thread_games_posts_go_through_its_parent_channels_webhook(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games = fake.channel("games")
        games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
        alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
        users = {u.id: u for u in (alice, bob, carol)}
        await said(await alice.slash("mt new", channel=games, preset="quick", thread=True))
        lobby = last_public(games)
        (thread,) = games.threads()
        for user in (bob, carol):
            await said(await user.click(lobby, label="Join"))
        await said(await alice.click(lobby, label="Start"))
        post, paid = await _move_from_a_dm(fake, bot, thread, users)
        (hook,) = fake.webhooks.of(games)  # on the parent: a webhook cannot live on a thread
        assert post.webhook_id == hook.id and post.channel_id == thread.id and paid == 0


async def test_an_edit_of_a_webhook_post_goes_through_the_webhook(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    # The bot token cannot edit another author's message (50005): an edit that must be made
    # (an undo growing the live post) uses the webhook; one for looks is not made with it.
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        post, _ = await _move_from_a_dm(fake, bot, games, users)
        game = await bot.service.game_in_channel(games.id)
        assert game is not None and post.webhook_id is not None
        turn_post = TurnPost(bot, Route(bot, None), game.id)
        assert not turn_post.edits_free(post.id)  # not for looks
        await turn_post.edit(games.id, post.id, content="grown")
        assert post.text == "grown" and post.edits == 1
        assert hooked_edits(fake) == [str(post.webhook_id)]
        refused = [r for r in fake.requests_to(EDIT_CHANNEL_MESSAGE) if r.status >= 400]
        assert refused == []


async def _play_out_from_dms(
    bot: MexicanTrainBot, games: FakeChannel, users: dict[int, FakeUser]
) -> bool:
    """Play the channel's game to its end, each move from the mover's turn DM where they have
    one (else typed in the channel); whether the last move was made from a DM."""
    game = await bot.service.game_in_channel(games.id)
    assert game is not None
    from_dm = False
    for _ in range(600):
        now = await bot.service.game(game.id)
        if now.status is not GameStatus.ACTIVE:
            return from_dm
        uid, view = await to_move(bot, game.id)
        dm = live_dm(users[uid], now.version)
        from_dm = dm is not None
        if dm is not None:
            await dm_move(users[uid], dm, pick(view.legal))
        else:
            await slash_move(users[uid], games, str(pick(view.legal)))
    raise AssertionError("the match did not end")


async def test_the_match_end_post_goes_through_the_webhook(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Issue 47: the match's last post (no next turn: the standings and Rematch) made after a
    move from a DM goes through the channel webhook like a turn post, a classic message (as
    every webhook post is), not as the bot's own paid message; the post before it goes
    quiet through the webhook too."""
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        await _move_from_a_dm(fake, bot, games, users)
        paid = _paid(fake, games)
        assert await _play_out_from_dms(bot, games, users)  # (seeded: the last move by DM)
        await idle(fake)
        end = last_public(games)
        assert "Rematch" in end.button_labels and not end.card
        assert end.webhook_id not in (None, fake.application_id)
        assert _paid(fake, games) == paid  # no bot-token post in the channel since
        live = [m.id for m in games.messages() if _move_controls(m)]
        assert live == []  # the last turn post went quiet
