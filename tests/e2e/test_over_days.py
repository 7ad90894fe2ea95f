"""A game as Discord treats it over days, not seconds: interaction tokens that expire between
turns, posts hours old, deferrals answered the documented way, commands declared where they
may be used (issue 38; docs/discord.md says where Discord documents each).

The fake and the bot share one clock here (``fake_discord(clock=clock)``), as Discord and the
bot share UTC: a test's ``tick`` is the players being away.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import discord
import pytest

from bot.app import MexicanTrainBot
from tests.clock import FakeClock
from tests.e2e.helpers import last_public, open_game, pick, said, to_move, type_move
from tests.fakediscord import WAIT, FakeDiscord, FakeUser, fake_discord, running_bot

EDIT_CHANNEL_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{webhook_id}/{webhook_token}"
EDIT_WEBHOOK_MESSAGE = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"


@pytest.fixture
async def shared(clock: FakeClock) -> AsyncIterator[FakeDiscord]:
    """A fake Discord on the test's clock (the bot's too: ``make_bot`` takes ``clock``)."""
    async with fake_discord(clock=clock) as fake:
        yield fake


def away(fake: FakeDiscord, clock: FakeClock, minutes: float) -> None:
    clock.tick(minutes * 60)
    fake.after_advance()


def refused(fake: FakeDiscord) -> list[str]:
    """Every request Discord would have refused (not counting rate limits)."""
    return [
        f"{r.method} {r.path} {r.status}/{r.error_code}"
        for r in fake.requests
        if r.status >= 400 and r.status != 429
    ]


async def move(bot: MexicanTrainBot, game_id: int, users: dict[int, FakeUser], channel) -> None:  # type: ignore[no-untyped-def]
    uid, view = await to_move(bot, game_id)
    answer = await said(await type_move(users[uid], channel, str(pick(view.legal))))
    assert answer.text.startswith("✅"), answer.text


async def test_commands_declare_a_guild_install_and_where_they_may_be_used(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """What the sync sends: installed to servers only; every command usable in a server, and
    only /mt and /hand in the bot's DM (never a group DM, where the bot cannot answer)."""
    fake = fake_discord
    async with running_bot(fake, make_bot()):
        sent = fake.requests_to("PUT /applications/{app_id}/commands")[-1].body
    assert sent, "the sync sent no commands"
    contexts = {command["name"]: command.get("contexts") for command in sent}
    installs = {command["name"]: command.get("integration_types") for command in sent}
    assert all(v == [0] for v in installs.values()), installs
    in_dms = {name for name, where in contexts.items() if where == [0, 1]}
    assert in_dms == {"mt", "hand"}, contexts
    assert all(where in ([0], [0, 1]) for where in contexts.values()), contexts
    assert fake.commands()["hand"]["contexts"] == [0, 1]  # as Discord keeps it


async def test_a_deferred_answer_edits_the_original_response(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Every answer after a "thinking…" deferral edits that original response; the fake
    refuses the followup path Discord keeps for old apps (its check fails the test)."""
    fake = fake_discord
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        refusal = await said(await alice.slash("play", channel=games, tile="99", train="mine"))
        hand = await said(await bob.slash("hand", channel=games))
        uid, view = await to_move(bot, game.id)
        mover = alice if uid == alice.id else bob
        done = await said(await type_move(mover, games, str(pick(view.legal))))
    assert refusal.ephemeral and hand.ephemeral and hand.files
    assert done.text.startswith("✅")
    assert fake.refused_as_deprecated == []
    originals = [r for r in fake.requests_to(EDIT_WEBHOOK_MESSAGE) if "@original" in r.path]
    assert len(originals) >= 3  # the refusal, the hand, the move's answer
    assert refused(fake) == []


async def test_tokens_expire_between_turns_and_the_game_goes_on(
    shared: FakeDiscord, clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Twenty minutes between moves: the last move's token is dead on both sides, so the bot
    never tries it (no 401/50027), and does not spend its own budget taking the buttons off
    the previous post (they act on the table as it is when pressed)."""
    fake = shared
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        lobby_edits = len(fake.requests_to(EDIT_CHANNEL_MESSAGE))
        for _ in range(3):
            before = last_public(games)
            away(fake, clock, 20)
            await move(bot, game.id, users, games)
            assert last_public(games) is not before or before.edits  # the table moved on
        uid, view = await to_move(bot, game.id)
        first = games.messages()[1]  # the first turn post, three moves old
        picker = await said(await users[uid].click(first, label="Play"))
        offered = {o["value"] for s in picker.selects for o in s["options"]}
        assert {str(m) for m in view.legal if str(m) not in ("draw", "pass")} <= offered
        edits = fake.requests_to(EDIT_CHANNEL_MESSAGE)[lobby_edits:]
    assert refused(fake) == []
    assert not edits, "no bot-token edit only to take old buttons off"


async def test_a_followup_whose_token_expired_is_not_quieted_with_the_bot_token(
    shared: FakeDiscord, clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Three hours between moves typed in the channel, without the webhook: each post is a
    followup whose token has expired by the next move, which is a followup too (free). Only
    the bot token could take the old post's buttons off, and that cosmetic edit (its buttons
    act on the table as it is now) is not paid for with the global budget on a move whose
    post went by its interaction (issue 47.2: the bot token quietens only after a webhook's
    post). Every move still gets its post; nothing is refused."""
    fake = shared
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        posts, since = len(games.messages()), len(fake.requests)
        for _ in range(3):
            away(fake, clock, 180)
            await move(bot, game.id, users, games)
        assert len(games.messages()) > posts  # each move was told in the channel
        old = last_public(games)
    edits = [r for r in fake.requests[since:] if r.route == EDIT_CHANNEL_MESSAGE.split()[1]]
    assert edits == []
    assert refused(fake) == []
    assert old.buttons  # the newest post is live


async def test_an_old_post_pressed_goes_quiet_through_the_press(
    shared: FakeDiscord, clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Issue 47: three hours between moves, each made by pressing Play on the live post:
    that press lends its token to the post, so the next post takes its controls off through
    it (free of the global limit; one old-message edit a move, far under Discord's ration);
    nothing is refused, and no old post keeps live controls."""
    fake = shared
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        posts = len(games.messages())
        for _ in range(3):
            away(fake, clock, 180)
            uid, view = await to_move(bot, game.id)
            table = last_public(games)
            picker = await said(await users[uid].click(table, label="Play"))
            plays = {o["value"] for s in picker.selects for o in s["options"]}
            move = next((m for m in view.legal if str(m) in plays), None)
            if move is None:  # no tile: Draw or Pass, pressed on the post itself
                label = "Draw" if "Draw" in table.button_labels else "Pass"
                answer = await said(await users[uid].click(table, label=label))
            else:
                answer = await said(await users[uid].select(picker, values=[str(move)]))
            assert answer.text.startswith("✅"), answer.text
        told = games.messages()[posts - 1 :]
        assert len(told) > 2 and all(m.buttons == [] for m in told[:-1]), [
            m.button_labels for m in told
        ]
        assert last_public(games).buttons  # the newest post is live
    assert refused(fake) == []


async def test_the_fake_refuses_the_sixth_edit_of_old_messages_in_an_hour(
    shared: FakeDiscord, clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """The fake enforces an old-message edit budget always (30046 past it, README)."""
    fake = shared
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, alice, [bob], preset="quick")
        away(fake, clock, 120)
        channel = bot.get_channel(games.id)
        lobby = games.messages()[0]
        assert channel is not None
        message = await channel.fetch_message(lobby.id)  # type: ignore[union-attr]
        codes = []
        for n in range(fake.old_edit_limit + 1):
            try:
                await message.edit(content=f"edit {n}")
                codes.append(0)
            except discord.HTTPException as error:
                codes.append(error.code)
    assert codes == [0] * fake.old_edit_limit + [30046]
    away(fake, clock, 61)  # an hour later the budget is back
    assert fake.old_edits[games.id] and len(fake.old_edits[games.id]) <= fake.old_edit_limit


@pytest.mark.parametrize(("early", "days"), [(1.0, 8), (0.1, 1)])
async def test_a_games_thread_stays_playable_through_days_of_silence(
    shared: FakeDiscord,
    clock: FakeClock,
    make_bot: Callable[[], MexicanTrainBot],
    early: float,
    days: int,
) -> None:
    """Discord archives a thread idle for its auto-archive time (sooner in a busy channel:
    ``early``), and nobody can use a command in an archived thread. The bot reopens a live
    game's thread, so after days of nobody moving the player to move can still type /play."""
    fake = shared
    fake.threads.archive_after = early
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        await said(await alice.slash("mt new", channel=games, preset="quick", thread=True))
        (thread,) = games.threads()
        await said(await bob.click(games.messages()[0], label="Join"))
        await said(await alice.click(games.messages()[0], label="Start"))
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        for _ in range(3):  # three silences, each past what Discord waits (7 days, or less)
            away(fake, clock, days * 24 * 60)
            assert thread.archived  # Discord archived it; the bot hears of it next
            await fake.wait_for(
                lambda: not thread.archived, timeout=WAIT, what="the thread reopened", on=thread
            )
            await move(bot, game.id, users, thread)  # raises if the thread takes no command
    reopened = [r for r in fake.requests if r.route == "/channels/{channel_id}" and r.body]
    assert any(r.body.get("archived") is False for r in reopened)
    assert refused(fake) == []


async def test_a_refused_edit_of_an_old_turn_post_never_loses_the_turn(
    shared: FakeDiscord, clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """A draw that leaves the same player to move grows the live turn post by an edit only
    when a token makes it free; two hours on, that post is old and no token lives, so the
    draw is told with the move that follows it, in a new post: no edit is tried (Discord
    rations edits of old posts: 30046), none is refused, and no turn is lost."""
    fake = shared
    fake.old_edit_limit = 0  # every edit of an old message refused
    bot = make_bot()
    alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        for u in (alice, bob):  # a forced draw is the player's own here, not autoplay's
            await bot.service.update_user_settings(u.id, bot.now(), autoplay="off")
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        for _ in range(60):
            uid, view = await to_move(bot, game.id)
            if "draw" not in [str(m) for m in view.legal]:
                await move(bot, game.id, users, games)
                continue
            away(fake, clock, 120)
            posts, refused_before = len(games.messages()), len(refused(fake))
            answer = await said(await users[uid].slash("draw", channel=games))
            assert answer.text.startswith("✅"), answer.text
            now = await bot.service.game(game.id)
            if now.turn is None or now.turn.user_id != uid:
                assert len(games.messages()) == posts + 1  # drawn and passed: told at once
                continue
            assert len(games.messages()) == posts and len(refused(fake)) == refused_before
            await move(bot, game.id, users, games)  # the drawn tile, played
            assert len(games.messages()) == posts + 1
            assert "drew a tile" in str(last_public(games).embeds[0].get("description"))
            break
        else:
            raise AssertionError("no draw left the same player to move in 60 moves of this deal")
    assert [r.error_code for r in fake.requests if r.status >= 400] == []


async def test_what_changed_while_the_bot_was_away_is_set_right_when_it_connects(
    shared: FakeDiscord, clock: FakeClock, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """While the bot is offline Discord archives a game's thread and someone deletes another
    game's channel; nobody tells the bot (it is not connected). When it connects, it reopens
    the thread and ends the other game, telling its players."""
    fake = shared
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    games, doomed = fake.channel("games"), fake.channel("doomed")
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        await said(await alice.slash("mt new", channel=games, preset="quick", thread=True))
        (thread,) = games.threads()
        await said(await bob.click(games.messages()[0], label="Join"))
        await said(await alice.click(games.messages()[0], label="Start"))
        lost = await open_game(fake, bot, doomed, carol, [bob], preset="quick")
    away(fake, clock, 8 * 24 * 60)
    fake.delete_channel(doomed)
    assert thread.archived
    dms = {p: len(p.dms()) for p in (carol, bob)}
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        await fake.wait_for(
            lambda: not thread.archived, timeout=WAIT, what="the thread reopened", on=thread
        )
        # Both of the lost game's players are told (and the bot is not stopped while it is
        # still telling one of them: its DM would meet a closed session).
        for player in (carol, bob):
            notice = await fake.wait_for(
                lambda p=player: next(
                    (m for m in p.dms()[dms[p] :] if f"#{lost.id}" in m.text), None
                ),
                timeout=WAIT,
                what=f"{player.name} told the game ended",
                on=player,
            )
            assert "deleted" in notice.text
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None
        users = {alice.id: alice, bob.id: bob}
        await move(bot, game.id, users, thread)  # playable again
