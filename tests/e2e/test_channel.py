"""What players see over a match, and what it costs in Discord's request budget, on the fake
Discord: one post per human turn, old posts quiet, ONE ping per turn carrying the player's
hand, and everything that follows an action riding on that action's interaction (free of the
bot's global limit) — and all of it after a restart too (issues 17, 24, 29)."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import Play
from bot.ui.pictures import hand_png
from tests.e2e.helpers import (
    last_public,
    open_game,
    pick,
    said,
    slash_move,
    to_move,
    type_move,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot
from tests.fakediscord.server import RecordedRequest

#: Routes made with an interaction's token: exempt from the bot's global limit.
EXEMPT = ("/interactions/", "/webhooks/")


def limited(fake: FakeDiscord, since: int) -> list[RecordedRequest]:
    """The requests since ``since`` that count against the global limit, but for opening a
    DM channel (done once per player, ever: checked on its own)."""
    return [
        r
        for r in fake.requests[since:]
        if not r.path.startswith(EXEMPT) and r.route != "/users/@me/channels"
    ]


def live_posts(channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in channel.messages() if m.buttons]


def everything(fake: FakeDiscord) -> list[FakeMessage]:
    """Every message in every channel and DM, ephemeral ones included, in posting order."""
    return [m for m in fake.messages.values() if not m.deleted]


async def add_computers(bot: MexicanTrainBot, host: FakeUser, channel: FakeChannel, n: int) -> None:
    game = await bot.service.game_in_channel(channel.id)
    assert game is not None
    for _ in range(n):
        answer = await said(
            await host.select(
                last_public(channel), values=["easy"], custom_id=f"mt:{game.id}:lobby:cpu"
            )
        )
        assert "Computer player added" in answer.text


def _tile_move(legal: object) -> object:
    moves = list(legal)  # type: ignore[call-overload]
    return next((m for m in moves if isinstance(m, Play)), moves[0])


async def _move_and_see_the_dm(
    bot: MexicanTrainBot, game_id: int, games: FakeChannel, users: dict[int, FakeUser]
) -> FakeUser | None:
    """The player to move plays a tile (or what they must); if the turn passed to the other,
    they got one turn DM for it: returned, else None."""
    uid, view = await to_move(bot, game_id)
    other = next(u for u in users.values() if u.id != uid)
    dms_before = len(other.dms())
    await slash_move(users[uid], games, str(_tile_move(view.legal)))
    nxt, _ = await to_move(bot, game_id)
    if nxt != other.id:
        return None
    assert len(other.dms()) == dms_before + 1
    assert "Your turn" in other.dms()[-1].text
    return other


async def test_computer_moves_share_the_next_turn_post_and_old_posts_go_quiet(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice = fake.user("alice")
    bot = make_bot()
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, alice, [], start=False, preset="standard")
        await add_computers(bot, alice, games, 2)
        await said(await alice.click(last_public(games), label="Start"))
        game = await bot.service.game_in_channel(games.id)
        assert game is not None
        for _ in range(6):
            uid, view = await to_move(bot, game.id)
            assert uid == alice.id
            before = last_public(games)
            posted = len(games.messages())
            since = len(fake.requests)
            await slash_move(alice, games, str(pick(view.legal)))
            await to_move(bot, game.id)
            now = last_public(games)
            lines = (now.embeds[0].get("description") or "").splitlines()
            if "round 2/" in now.embeds[0]["title"]:
                break  # a round ended on the way: its own post came first
            # ONE new post for Alice's move and both computers' after it, a line each.
            assert len(games.messages()) == posted + 1 or before.edits, lines
            if now is not before:
                assert lines[0].startswith("Alice ") and sum("(computer)" in x for x in lines) >= 2
                # The post before went quiet: no buttons, text and picture kept.
                assert before.buttons == [] and before.images() and before.embeds
            assert now.button_labels == ["Play", "Draw", "Pass", "My hand", "Catch me up"]
            assert f"<@{alice.id}>" in now.text
            assert live_posts(games) == [now]
            # Alone against computers she is always the one acting: nothing needs the bot
            # token (her answer, the post, the quietening edit, her hand: all on her command).
            assert limited(fake, since) == []
            assert not alice.dms()


async def test_a_human_turn_spends_one_limited_request_the_ping(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        for _ in range(8):
            uid, view = await to_move(bot, game.id)
            before = last_public(games)
            since = len(fake.requests)
            invocation = await type_move(users[uid], games, str(_tile_move(view.legal)))
            await said(invocation)
            nxt, _ = await to_move(bot, game.id)
            spent = limited(fake, since)
            if nxt == uid:
                assert spent == []  # a draw: the live post grew through the token
                continue
            # The only request on the bot's own budget: the DM that tells the next player.
            dm = users[nxt].dm_channel
            assert dm is not None
            assert [(r.method, r.path) for r in spent] == [("POST", f"/channels/{dm.id}/messages")]
            # The new turn post is a followup of the mover's command; the old one went quiet
            # through the token that posted it.
            post = last_public(games)
            assert post is not before and post in invocation.followups
            assert before.buttons == [] and post.button_labels[0] == "Play"
        # Each player's DM channel was opened once, at their first ping.
        opened = fake.requests_to("POST /users/@me/channels")
        assert len(opened) == len({r.body["recipient_id"] for r in opened}) <= 2


async def test_the_play_button_quietens_its_post_through_the_click(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        for _ in range(3):
            uid, view = await to_move(bot, game.id)
            move = next((m for m in view.legal if isinstance(m, Play)), None)
            if move is None:
                await slash_move(users[uid], games, str(view.legal[0]))
                continue
            post = last_public(games)
            picker = await said(await users[uid].click(post, label="Play"))
            assert picker.ephemeral and picker.selects
            since = len(fake.requests)
            done = await said(await users[uid].select(picker, values=[str(move)]))
            # The move list itself became the answer.
            assert done is picker and done.text.startswith("✅") and not done.selects
            edits = [r for r in fake.requests[since:] if r.method == "PATCH"]
            assert edits and all(r.path.startswith("/webhooks/") for r in edits)
            assert post.buttons == [] and post.edits == 1
            nxt, _ = await to_move(bot, game.id)
            assert len(limited(fake, since)) == (1 if nxt != uid else 0)


async def test_one_ping_per_turn_a_dm_with_the_hand_and_a_link_to_the_table(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="standard")
        seat = {p.user_id: p.seat for p in game.players}
        played: list[tuple[int, Play]] = []  # (who, tile move), in order
        named = 0  # notifications that named a tile laid on the reader's train
        for _ in range(80):
            if named >= 2:
                break
            uid, view = await to_move(bot, game.id)
            seen = len(everything(fake))
            # Prefer another player's (open) train, so some notifications have news on it.
            others = [
                m for m in view.legal if isinstance(m, Play) and m.train not in (seat[uid], None)
                and m.train in seat.values()
            ]  # fmt: skip
            move = others[0] if others else pick(view.legal)
            await slash_move(users[uid], games, str(move))
            if isinstance(move, Play):
                played.append((uid, move))
            nxt, mine = await to_move(bot, game.id)
            pings = [p for m in everything(fake)[seen:] for p in m.pinged]
            if nxt == uid:
                assert pings == []  # the same turn goes on: nobody is pinged
                continue
            assert pings == [nxt]  # ONE ping, for the player now to move
            note = users[nxt].dms()[-1]
            assert note.text.startswith("🎲 Your turn in game #1")
            assert "Your hand" in note.text
            # It names every tile laid on their own train since their last move.
            last = max((i for i, (who, _) in enumerate(played) if who == nxt), default=-1)
            on_mine = [m for who, m in played[last + 1 :] if m.train == seat[nxt]]
            for m in on_mine:
                assert "On your train" in note.text and str(m.tile) in note.text
            named += bool(on_mine)
            # The DM's picture says to pick in the list under it (pick=True).
            assert note.images() == [hand_png(mine, True, "en", "pips", pick=True)]
            # Its link jumps to the live turn post (its own buttons play from the DM).
            [link] = [b for b in note.buttons if "url" in b]
            assert link["url"].endswith(f"/{games.id}/{last_public(games).id}")
            # The turn post names them without pinging them again.
            assert f"<@{nxt}>" in last_public(games).text
        assert named >= 2


async def test_the_ping_setting_mention_both_and_quiet_hours(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()

    async def until_bobs_turn() -> list[FakeMessage]:
        """Play until Bob is told it is his turn; the messages sent on the way."""
        for _ in range(10):
            uid, view = await to_move(bot, game.id)
            if uid != bob.id:
                seen = len(everything(fake))
                await slash_move(users[uid], games, str(pick(view.legal)))
                if (await to_move(bot, game.id))[0] == bob.id:
                    return everything(fake)[seen:]
            else:
                await slash_move(bob, games, str(pick(view.legal)))
        raise AssertionError("Bob's turn never came")

    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        answer = await said(await bob.slash("mt me", channel=games, ping="mention"))
        assert "Your turn is announced by a mention in the game's channel" in answer.text
        sent = await until_bobs_turn()
        assert [m.pinged for m in sent if m.pinged] == [[bob.id]]
        assert not any(m.channel_id == (bob.dm_channel and bob.dm_channel.id) for m in sent)
        # The mention is his one notification, so the post tells him what changed.
        post = next(m for m in sent if m.pinged)
        assert post.text.startswith(bob.mention) and "**Since " in post.text
        assert "It is your turn" not in post.text  # the mention line says so already

        await said(await bob.slash("mt me", channel=games, ping="both"))
        sent = await until_bobs_turn()
        pinged = [(m.channel_id, m.pinged) for m in sent if m.pinged]
        assert bob.dm_channel is not None
        assert sorted(pinged) == sorted([(games.id, [bob.id]), (bob.dm_channel.id, [bob.id])])

        # Quiet hours around now (12:00 UTC on the fake clock): the DM comes silently and
        # the mention pings nobody; the reminder waits for the end of the quiet hours.
        answer = await said(
            await bob.slash("mt me", channel=games, time_zone="UTC", quiet_start=11, quiet_end=14)
        )
        sent = await until_bobs_turn()
        assert [m.pinged for m in sent if m.pinged] == []
        dm = bob.dms()[-1]
        assert dm in sent and dm.flags & 4096 and dm.images()


async def test_tile_mode_changes_the_hand_pictures(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        waiter = next(u for u in users.values() if u.id != uid)
        answer = await said(await waiter.slash("mt me", channel=games, tiles="numerals"))
        assert "Tiles: big numbers (high contrast)" in answer.text
        assert (await bot.service.user_settings(waiter.id)).tiles == "numerals"
        # The hand in their turn DM is drawn in numerals.
        await slash_move(users[uid], games, str(_tile_move(view.legal)))
        nxt, mine = await to_move(bot, game.id)
        assert nxt == waiter.id
        shown = waiter.dms()[-1].images()[0]
        assert shown == hand_png(mine, True, "en", "numerals", pick=True)  # (as a DM shows it)
        assert shown != hand_png(mine, True, "en", "pips", pick=True)
        # /hand draws their private picture the same way.
        private = await said(await waiter.slash("hand", channel=games))
        # (/hand in the channel: its hint says what to type, the DM's to pick from its list)
        assert private.images()[0] == hand_png(mine, True, "en", "numerals")
        # A French player reads the choice in French.
        french = fake.user("zoé", locale="fr")
        answer = await said(await french.slash("mt me", channel=games, tiles="pips"))
        assert "Dominos : points et chiffres" in answer.text


async def test_after_a_restart_old_posts_act_on_the_table_now_and_dm_channels_stay_open(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        for _ in range(3):
            uid, view = await to_move(bot, game.id)
            await slash_move(users[uid], games, str(_tile_move(view.legal)))
        await to_move(bot, game.id)
    before = last_public(games)
    assert before.buttons
    opened = len(fake.requests_to("POST /users/@me/channels"))
    assert opened >= 1

    bot = make_bot()  # a new process: nothing in memory
    async with running_bot(fake, bot):
        for _ in range(3):
            await _move_and_see_the_dm(bot, game.id, games, users)
        # The post from before the restart keeps its picture; its buttons were not taken off
        # with the bot's budget (no token made it after a restart): they act on the table as
        # it is now.
        assert before.images() and before.edits == 0
        assert last_public(games) in live_posts(games)
        uid, view = await to_move(bot, game.id)
        picker = await said(await users[uid].click(before, label="Play"))
        offered = {o["value"] for s in picker.selects for o in s["options"]}
        assert {str(m) for m in view.legal if str(m) not in ("draw", "pass")} <= offered
    # The DM channels came from the database: none was opened again.
    assert len(fake.requests_to("POST /users/@me/channels")) == opened


async def test_an_old_post_discord_will_not_edit_is_left_and_its_buttons_act_now(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        old = last_public(games)
        fake.refuse_edits(old)  # 30046: too many edits on an old message
        answer = await slash_move(users[uid], games, str(_tile_move(view.legal)))
        assert answer.startswith("✅")
        new = last_public(games)
        assert new is not old and new.buttons
        assert (
            old.button_labels == ["Play", "Draw", "Pass", "My hand", "Catch me up"]
            and old.edits == 0
        )
        nxt, _ = await to_move(bot, game.id)
        stale = await said(await users[nxt].click(old, label="Draw"))
        assert stale.text.startswith(("✅", "Not possible")), stale.text  # the table now


async def test_an_expired_interaction_token_falls_back_to_a_plain_post(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        before = last_public(games)
        # Discord takes the acknowledgement, then refuses the token (401/50027) as it does
        # 15 minutes on: the turn post goes through the channel instead, and is not lost.
        fake.token_lifetime = 0.0
        invocation = await type_move(users[uid], games, str(_tile_move(view.legal)))
        await invocation.answer()
        post = await fake.wait_for(
            lambda: last_public(games) if last_public(games) is not before else None,
            timeout=10,
            what="the turn post",
        )
        assert post.webhook_id is None and post.images() and post.buttons
        assert any(r.code == 50027 for r in invocation.rejections)
        await fake.wait_for(lambda: before.buttons == [], timeout=10, what="the quiet edit")


async def test_a_turn_dm_through_a_kept_channel_discord_says_is_gone_opens_one_and_keeps_it(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """A kept DM channel Discord answers 404 for (a database carried over from another
    application, say): the turn DM opens the player's channel once, arrives, and the
    announcement's last write (the outbox's clearing) keeps the new channel in its place, so
    the next DM goes straight there."""
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        for user in users.values():
            await bot.service.remember_dm_channel(user.id, 4_242_424_242, bot.now())
        opened = len(fake.requests_to("POST /users/@me/channels"))
        for _ in range(6):
            told = await _move_and_see_the_dm(bot, game.id, games, users)
            if told is not None:
                kept = (await bot.service.user_settings(told.id)).dm_channel_id
                assert told.dm_channel is not None and kept == told.dm_channel.id
        reopened = len(fake.requests_to("POST /users/@me/channels")) - opened
        assert 1 <= reopened <= 2  # once per player DMed, never again
        gone = [
            r
            for r in fake.requests_to("POST /channels/{channel_id}/messages")
            if r.path.endswith("/4242424242/messages")
        ]
        assert gone and all(r.status == 404 and r.error_code == 10003 for r in gone)
        assert len(gone) == reopened  # the gone channel was tried once per player
