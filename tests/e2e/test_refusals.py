"""Refusals through Discord: illegal moves, out-of-turn clicks, stale buttons, races,
closed DMs, missing channel permissions. Each refusal is ephemeral and changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import discord

from bot.app import MexicanTrainBot
from bot.engine import Play
from tests.e2e.helpers import game_here, last_public, open_game, pick, said, to_move
from tests.fakediscord import WAIT, FakeDiscord, FakeUser, running_bot


def _pair(fake: FakeDiscord, uid: int) -> tuple[FakeUser, FakeUser]:
    alice, bob = fake.user("alice"), fake.user("bob")
    return (alice, bob) if uid == alice.id else (bob, alice)


async def test_illegal_moves_and_out_of_turn_clicks_change_nothing(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, fake.user("alice"), [fake.user("bob")],
                               preset="quick")  # fmt: skip
        uid, view = await to_move(bot, game.id)
        me, other = _pair(fake, uid)
        table = last_public(games)
        version = (await bot.service.game(game.id)).version
        posted = len(games.messages())
        hand = set(view.hand or ())

        # A tile not in hand (autocomplete is only a suggestion: the server checks again).
        missing = next(
            f"{a}-{b}" for a in range(12, -1, -1) for b in range(a, -1, -1)
            if not any(t.high == a and t.low == b for t in hand)
        )  # fmt: skip
        answer = await said(await me.slash("play", channel=games, tile=missing, train="mexican"))
        assert answer.ephemeral and "Not possible" in answer.text
        # Nonsense that is not a tile at all.
        answer = await said(await me.slash("play", channel=games, tile="banana"))
        assert answer.ephemeral and "can't read" in answer.text
        # A legal tile on a train it does not fit.
        play = next(m for m in view.legal if isinstance(m, Play))
        bad_train = "@2" if play.train != 1 else "@1"
        if f"{play.tile} {bad_train}" not in {str(m) for m in view.legal}:
            answer = await said(
                await me.slash("play", channel=games, tile=str(play.tile), train=bad_train)
            )
            assert answer.ephemeral and answer.text and not answer.text.startswith("✅")
        # Passing while holding a playable tile.
        answer = await said(await me.slash("pass", channel=games))
        assert answer.ephemeral and not answer.text.startswith("✅")
        # The other player: the buttons and the commands say whose turn it is.
        name = next(p.name for p in game.players if p.user_id == uid)
        for label in ("Play", "Draw", "Pass"):
            answer = await said(await other.click(table, label=label))
            assert answer.ephemeral and answer.text == f"It's {name}'s turn."
        answer = await said(await other.slash("play", channel=games, tile=str(play.tile)))
        assert answer.ephemeral and name in answer.text
        # My hand works for any seated player, privately; a stranger is refused.
        answer = await said(await other.click(table, label="My hand"))
        assert answer.ephemeral and "Your hand" in answer.text and answer.images()
        stranger = fake.user("eve")
        answer = await said(await stranger.click(table, label="My hand"))
        assert answer.ephemeral and "not playing" in answer.text
        answer = await said(await stranger.slash("hand", channel=games))
        assert answer.ephemeral and "not playing" in answer.text

        assert (await bot.service.game(game.id)).version == version
        assert len(games.messages()) == posted  # nothing public was said about any of it

        # A move lands; the old message goes quiet: its buttons are gone, its picture stays.
        draw = str(table.button("Draw")["custom_id"])
        await said(await me.slash("play", channel=games, tile=str(play.tile),
                                  train=str(play).split()[1]))  # fmt: skip
        assert table.buttons == [] and table.images() and table.edits == 1
        # A click on the old buttons (a client that had not yet seen the edit) acts on the
        # table as it is now: the rules answer for a draw now.
        answer = await said(await other.forge_click(table, custom_id=draw))
        assert answer.text.startswith(("✅", "Not possible")), answer.text
        # The wrong player using an old message is still told whose turn it is.
        answer = await said(await me.forge_click(table, custom_id=draw))
        assert answer.text.startswith("It's ")


async def test_two_clicks_at_the_same_instant_exactly_one_lands(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, fake.user("alice"), [fake.user("bob")],
                               preset="quick")  # fmt: skip
        uid, view = await to_move(bot, game.id)
        me, other = _pair(fake, uid)
        plays = [str(m) for m in view.legal if isinstance(m, Play)]
        assert len(plays) >= 2
        picker = await said(await me.click(last_public(games), label="Play"))
        version = (await bot.service.game(game.id)).version
        posted = len(games.messages())
        first, second = await asyncio.gather(
            me.select(picker, values=[plays[0]]), me.select(picker, values=[plays[1]])
        )
        answers = [(await said(first)).text, (await said(second)).text]
        assert sum(a.startswith("✅") for a in answers) == 1, answers
        # The other pick is refused as the table now stands: whose turn it is when the first
        # passed the turn on, "the table changed" when it left them to play on (a double).
        now = await bot.service.game(game.id)
        after = "table changed" if now.turn and now.turn.user_id == me.id else "'s turn."
        assert sum(after in a for a in answers) == 1, answers
        assert now.version > version
        assert len(games.messages()) == posted + 1
        # The current player and someone else press at once: only the player's lands.
        uid, view = await to_move(bot, game.id)
        me, other = _pair(fake, uid)
        table = last_public(games)
        a, b = await asyncio.gather(me.click(table, label="Play"), other.click(table, label="Play"))
        assert (await said(a)).selects and "turn" in (await said(b)).text

        # Two people pressing Join for the last seat of a lobby: one gets it.
        lobby_channel = fake.channel("lobby")
        await open_game(fake, bot, lobby_channel, fake.user("carol"), [], start=False,
                        preset="double-9")  # fmt: skip
        lobby = last_public(lobby_channel)
        for name in ("dan", "erin"):
            await said(await fake.user(name).click(lobby, label="Join"))
        x, y = await asyncio.gather(
            fake.user("fay").click(lobby, label="Join"), fake.user("gus").click(lobby, label="Join")
        )
        joined = [(await said(x)).text, (await said(y)).text]
        assert sum("You joined" in j for j in joined) == 1, joined
        assert sum("full" in j for j in joined) == 1, joined
        assert len((await game_here(bot, lobby_channel)).players) == 4
        assert "Players 4" in lobby.embeds[0]["fields"][0]["name"]


async def test_closed_dms_are_remembered_and_hand_is_ephemeral(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    fake.close_dms(bob)

    async def move() -> int:
        uid, view = await to_move(bot, game.id)
        user = alice if uid == alice.id else bob
        chosen = pick(view.legal)
        if isinstance(chosen, Play):
            await said(await user.slash("play", channel=games, tile=str(chosen.tile),
                                        train=str(chosen).split()[1]))  # fmt: skip
        else:
            await said(await user.slash(str(chosen), channel=games))
        return uid

    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        # Play until Bob's turn has come three times: the first time his DM is refused, the
        # bot says so once in the channel (the mention is his ping), and never tries again.
        bob_turns = 0
        for _ in range(40):
            if bob_turns >= 3:
                break
            uid, _ = await to_move(bot, game.id)
            bob_turns += uid == bob.id
            await move()
        assert bob_turns >= 3
        assert not (await bot.service.user_settings(bob.id)).dms_open
        notices = [m for m in games.messages() if bob.mention in m.text and "/hand" in m.text]
        assert len(notices) == 1 and "can't DM" in notices[0].text
        assert bob.id in notices[0].pinged
        dm = bob.dm_channel
        assert dm is not None
        tries = [r for r in fake.requests_to("POST /channels/{channel_id}/messages")
                 if r.path.endswith(f"/channels/{dm.id}/messages")]  # fmt: skip
        assert len(tries) == 1 and tries[0].status == 403
        # From then on his turn posts ping him by their mention instead (one ping a turn).
        his = [m for m in games.messages() if m.text.startswith(bob.mention)]
        assert his and his[-1].pinged == [bob.id]
        # /hand always answers privately, with the picture.
        answer = await said(await bob.slash("hand", channel=games))
        assert answer.ephemeral and "Your hand" in answer.text and answer.images()
        # Alice switches DMs off: no more DMs for her, her turn posts ping her instead.
        answer = await said(await alice.slash("mt me", channel=games, dms=False))
        assert "off" in answer.text
        before = len(alice.dms())
        for _ in range(6):
            await move()
        assert len(alice.dms()) == before
        hers = [m for m in games.messages() if m.text.startswith(alice.mention)]
        assert hers and hers[-1].pinged == [alice.id]


async def test_missing_channel_permissions_are_explained(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games, quiet = fake.channel("games"), fake.channel("quiet")
    alice, bob = fake.user("alice"), fake.user("bob")
    quiet.set_permissions(fake.bot_user, deny=discord.Permissions(attach_files=True,
                                                                  embed_links=True))  # fmt: skip
    async with running_bot(fake, bot):
        answer = await said(await alice.slash("mt new", channel=quiet))
        assert answer.ephemeral and "Attach Files" in answer.text
        assert "Embed Links" in answer.text
        assert await bot.service.game_in_channel(quiet.id) is None and not quiet.messages()

        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        games.set_permissions(fake.bot_user, deny=discord.Permissions(send_messages=True))
        await fake.wait_for(
            lambda: not games_perms(bot, games.id), timeout=WAIT, what="CHANNEL_UPDATE to arrive"
        )
        uid, view = await to_move(bot, game.id)
        user = alice if uid == alice.id else bob
        posted = len(games.messages())
        move = next(m for m in view.legal if isinstance(m, Play))
        answer = await said(await user.slash("play", channel=games, tile=str(move.tile),
                                             train=str(move).split()[1]))  # fmt: skip
        assert answer.text.startswith("✅")  # the move counted…
        assert "Send Messages" in answer.text  # …and the player is told why nothing shows
        assert len(games.messages()) == posted


async def test_a_game_needs_read_message_history_and_mt_new_names_it(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Without Read Message History Discord lists no messages (not an error), so the check
    after a crash for a post already made would see nothing: ``/mt new`` names it, as the
    invite link asks for it (bot/ui/permissions.py)."""
    fake = fake_discord
    bot = make_bot()
    blind, alice = fake.channel("blind"), fake.user("alice")
    blind.set_permissions(fake.bot_user, deny=discord.Permissions(read_message_history=True))
    async with running_bot(fake, bot):
        answer = await said(await alice.slash("mt new", channel=blind))
        assert answer.ephemeral and "Read Message History" in answer.text
        assert await bot.service.game_in_channel(blind.id) is None and not blind.messages()


def games_perms(bot: MexicanTrainBot, channel_id: int) -> bool:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel.permissions_for(channel.guild.me).send_messages
