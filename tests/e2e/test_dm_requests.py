"""What a move from a turn DM costs the channel (issue 34's last figure), through the fake
Discord: a move made in a DM has no channel interaction for its post to ride on, so every
channel request it makes counts against the bot's global limit. The channel is still told
every move, in order; what it no longer gets is paid for looks:

- a draw from the DM whose tile fits is told with the play that follows it, in one post,
  not by an edit of the live post of its own;
- the post before goes on showing its buttons instead of a paid edit taking them off: they
  act on the table as it is when pressed (Play lists the moves legal now, Draw and Pass are
  checked now), and anyone else pressing them is told whose turn it is.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import DRAW, Play, SeatView
from tests.e2e.helpers import (
    dm_move,
    game_here,
    idle,
    last_public,
    live_dm,
    open_game,
    pick,
    play_until,
    said,
    slash_move,
    to_move,
    to_turn_dm,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot

EDIT_CHANNEL_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"
POST_CHANNEL_MESSAGE = "POST /channels/{channel_id}/messages"


def _text(message: FakeMessage) -> str:
    return "\n".join(
        [message.text or "", *(str(e.get("description") or "") for e in message.embeds)]
    )


async def _to_a_held_draw(
    fake: FakeDiscord, bot: MexicanTrainBot, games: FakeChannel, users: dict[int, FakeUser]
) -> tuple[FakeUser, FakeMessage, FakeMessage, int, int]:
    """Play (from the DMs where a turn DM has controls) until a player draws from their DM
    and the tile fits: (that player, the draw's answer — which carries the moves after it,
    issue 47 — the live post, posts and paid edits before the draw). The draw alone asks
    nothing of the channel: no post, no edit."""
    game = await game_here(bot, games)
    for _ in range(600):
        # Every move from the DMs where there is one: no token on the channel.
        user, _view, dm = await play_until(bot, games, users, _a_draw_by_dm, from_dm=True)
        assert dm is not None
        uid = user.id
        posts, edits = len(games.messages()), len(fake.requests_to(EDIT_CHANNEL_MESSAGE))
        live = last_public(games)
        drew = await said(await user.click(dm, label="Draw"))
        assert drew.text.startswith("✅"), drew.text
        after = await bot.service.game(game.id)
        if after.turn is None or after.turn.user_id != uid:
            continue  # it fitted nowhere: drawn and passed, told at once (a turn's end)
        # The tile fits: nothing in the channel yet, and no request for it.
        assert len(games.messages()) == posts
        assert len(fake.requests_to(EDIT_CHANNEL_MESSAGE)) == edits
        assert live.edits == 0
        return user, drew, live, posts, edits
    raise AssertionError("no drawn tile fitted in 600 moves")


def _a_draw_by_dm(_user: FakeUser, view: SeatView, dm: FakeMessage | None) -> bool:
    return dm is not None and view.legal == (DRAW,)


async def _open(fake: FakeDiscord, bot: MexicanTrainBot) -> tuple[FakeChannel, dict[int, FakeUser]]:
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol)}
    for u in users.values():  # the draws are the players' own here, not autoplay's
        await bot.service.update_user_settings(u.id, bot.now(), autoplay="off")
    await open_game(fake, bot, games, alice, [bob, carol], preset="standard")
    return games, users


async def test_a_draw_then_a_play_from_the_dm_is_one_post_and_no_edit(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot)
        user, dm, live, posts, edits = await _to_a_held_draw(fake, bot, games, users)
        game = await game_here(bot, games)
        _, view = await to_move(bot, game.id)
        play = next(m for m in view.legal if isinstance(m, Play))
        ids = [str(c.get("custom_id")) for c in dm.selects]
        assert any(f":{game.version}:dm:" in i for i in ids)  # the draw's answer has them
        played = await said(await user.select(dm, values=[str(play)]))
        assert played.text.startswith("✅"), played.text
        # One post tells both, the draw first; the post before was not edited.
        assert len(games.messages()) == posts + 1
        told = _text(last_public(games))
        name = next(p.name for p in game.players if p.user_id == user.id)
        assert f"{name} drew a tile" in told, told
        assert told.index(f"{name} drew a tile") < told.index(str(play.tile)), told
        assert len(fake.requests_to(EDIT_CHANNEL_MESSAGE)) == edits
        assert live.edits == 0 and live.buttons  # left as it was (see the next test)


async def test_a_held_draw_taken_back_is_never_told(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot)
        user, _dm, live, posts, _edits = await _to_a_held_draw(fake, bot, games, users)
        game = await game_here(bot, games)
        name = next(p.name for p in game.players if p.user_id == user.id)
        taken = await said(await user.slash("mt undo", channel=games))
        assert taken.text.startswith("Undone: "), taken.text
        # The undo is told at once (the live post grown, or a new post), without the draw.
        assert len(games.messages()) == posts + 1 or live.edits == 1
        undo = _text(last_public(games))
        assert "took back their own turn" in undo and f"{name} drew a tile" not in undo, undo
        # Their turn again, from the start: whatever they do next, the draw taken back is
        # not told with it.
        _, view = await to_move(bot, game.id)
        await slash_move(user, games, str(pick(view.legal)))
        assert f"{name} drew a tile\n" not in _text(last_public(games)).split("took back")[-1]


async def test_an_old_channel_post_pressed_later_acts_on_the_table_as_it_is(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="standard")
        await to_turn_dm(bot, games, users)
        old: FakeMessage | None = None
        edits = 0
        # Moves from the DMs: each a new post (sent with the bot's token: nothing to ride
        # on); none paid to take the buttons off the one before.
        for i in range(4):
            if i == 1:
                old = last_public(games)  # the post of a DM move, with its buttons
                assert "Play" in old.button_labels
                edits = len(fake.requests_to(EDIT_CHANNEL_MESSAGE))
            now = await bot.service.game(game.id)
            uid, view = await to_move(bot, game.id)
            dm = live_dm(users[uid], now.version)
            if dm is None:
                await slash_move(users[uid], games, str(pick(view.legal)))
                continue
            await dm_move(users[uid], dm, pick(view.legal))
        assert old is not None and last_public(games) is not old
        assert old.buttons and old.edits == 0
        assert len(fake.requests_to(EDIT_CHANNEL_MESSAGE)) == edits
        uid, view = await to_move(bot, game.id)
        version = (await bot.service.game(game.id)).version
        # Someone else presses the old post: told whose turn it is; nothing changes.
        other = next(u for u in users.values() if u.id != uid)
        name = (await bot.service.game(game.id)).turn
        assert name is not None
        refused = await said(await other.click(old, label="Play"))
        assert refused.ephemeral and refused.text == f"It's {name.name}'s turn."
        refused = await said(await other.click(old, label="Draw"))
        assert refused.text == f"It's {name.name}'s turn."
        assert (await bot.service.game(game.id)).version == version
        # The player to move presses the old post's Play: the moves legal now, and a pick
        # from that list plays on the table as it is.
        picker = await said(await users[uid].click(old, label="Play"))
        offered = {o["value"] for s in picker.selects for o in s["options"]}
        assert {o for o in offered if not o.endswith("|knock")} == {str(m) for m in view.legal}
        posts = len(games.messages())
        answer = await said(await users[uid].select(picker, values=[sorted(offered)[0]]))
        assert answer.text.startswith("✅"), answer.text
        assert (await bot.service.game(game.id)).version > version
        assert len(games.messages()) == posts + 1


async def test_a_held_draw_is_told_by_the_next_post_after_a_restart(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    # The held lines live in memory; the outbox keeps where the draw starts, so the first
    # post after a restart tells the draw first, as the live path would have.
    fake = fake_discord
    bot = make_bot()
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot)
        user, dm, live, posts, edits = await _to_a_held_draw(fake, bot, games, users)
        game = await game_here(bot, games)
        await idle(fake)
        held = await bot.service.outbox.owed(game.id)
        assert held is not None and held.held_from is not None and not held.post_owed
        # Nothing due on its own: the deliverer does not post the draw by itself.
        assert await bot.service.outbox.due(bot.now(), 10, all_due=True) == []
    bot = make_bot()  # a restart: the held lines are gone with the process
    async with running_bot(fake, bot):
        await idle(fake)
        assert len(games.messages()) == posts  # the start-up delivered nothing of it
        _, view = await to_move(bot, game.id)
        play = next(m for m in view.legal if isinstance(m, Play))
        version = (await bot.service.game(game.id)).version
        ids = [str(c.get("custom_id")) for c in dm.selects]
        assert any(f":{version}:dm:" in i for i in ids)  # the turn DM, grown by the draw
        played = await said(await user.select(dm, values=[str(play)]))
        assert played.text.startswith("✅"), played.text
        await idle(fake)
        assert len(games.messages()) == posts + 1
        told = _text(last_public(games))
        name = next(p.name for p in game.players if p.user_id == user.id)
        assert told.count(f"{name} drew a tile") == 1, told
        assert told.index(f"{name} drew a tile") < told.index(str(play.tile)), told
        assert live.edits == 0 and len(fake.requests_to(EDIT_CHANNEL_MESSAGE)) == edits
        # Told: the outbox keeps nothing more for this game.
        assert await bot.service.outbox.owed(game.id) is None
