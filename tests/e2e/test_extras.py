"""History, export, replay, stats, leaderboard, rematch, undo and spectators, through Discord.

Every action goes through the fake Discord as a player's client sends it; the service is only
read, to know whose turn it is and to check the results.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable

from PIL import Image

from bot.app import MexicanTrainBot
from bot.engine import DRAW, PASS, Match, Play, Rules
from bot.engine.position import to_position
from bot.service import history as story
from bot.store import GameStatus
from tests.e2e.helpers import game_here, last_public, open_game, pick, said, settled, to_move
from tests.fakediscord import WAIT, FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot


async def play_one(bot: MexicanTrainBot, channel: FakeChannel, users: dict[int, FakeUser],
                   game_id: int) -> str:  # fmt: skip
    """The player to move makes a legal move with a slash command; returns their answer."""
    uid, view = await to_move(bot, game_id)
    move = pick(view.legal)
    user = users[uid]
    if isinstance(move, Play):
        tile, train = str(move).split()
        answer = await said(await user.slash("play", channel=channel, tile=tile, train=train))
    elif move is DRAW:
        answer = await said(await user.slash("draw", channel=channel))
    elif move is PASS:
        answer = await said(await user.slash("pass", channel=channel))
    else:
        answer = await said(await user.slash("play", channel=channel, tile=str(move)))
    return answer.text


async def play_to_end(bot: MexicanTrainBot, channel: FakeChannel, users: dict[int, FakeUser],
                      game_id: int) -> None:  # fmt: skip
    for _ in range(600):
        game = await settled(bot, game_id)
        if game.status is not GameStatus.ACTIVE:
            return
        await play_one(bot, channel, users, game_id)
    raise AssertionError("the match did not end")


async def final_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """The finished game's last table message (computer moves may still be being posted)."""

    def found() -> FakeMessage | None:
        message = last_public(channel)
        return message if "Rematch" in message.button_labels else None

    return await fake.wait_for(found, timeout=WAIT, what="the final table message")


async def test_spectators_history_export_replay_stats_and_rematch(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        for _ in range(4):
            await play_one(bot, games, users, game.id)

        # Carol sits in no seat: she sees the table, status, history and a replay, never a hand.
        table = await said(await carol.slash("table", channel=games))
        assert table.ephemeral and table.images()
        status = await said(await carol.slash("mt status", channel=games))
        assert "in play" in status.text
        history = await said(await carol.slash("mt history", channel=games))
        assert "Round 1 · engine 12-12" in history.text and "**Alice**" in history.text
        hand = await said(await carol.click(last_public(games), label="My hand"))
        assert "not playing in this game" in hand.text and not hand.images()
        refused = await said(await carol.slash("hand", channel=games))
        assert "not" in refused.text and not refused.images()
        early = await said(await carol.slash("mt history", channel=games, file=True))
        assert "Only a finished game" in early.text and not early.files
        live = await said(await carol.slash("mt replay", channel=games))
        assert live.files and live.files[0].data.startswith(b"GIF8")
        for message in games.messages(visible_to=carol):
            assert "Your hand" not in message.text

        await play_to_end(bot, games, users, game.id)
        final = await final_message(fake, games)
        assert final.button_labels == ["Rematch"]

        # History of the finished game, from the channel, paged with buttons.
        history = await said(await carol.slash("mt history", channel=games))
        assert f"Game #{game.id} moves" in history.text
        pages = int(history.text.split("page ")[1].split("/")[1].split(":")[0])
        assert pages > 1  # a whole round of two players is more than a page
        assert history.button_labels == ["◀ Older", "Newer ▶"]
        await (await carol.click(history, label="◀ Older")).answer()
        await fake.wait_for(
            lambda: f"page {pages - 1}/{pages}" in history.text, timeout=WAIT, what="Older"
        )
        assert "Round 1" in history.text  # a page inside a round says which round

        # Export: a file that loads back into the same match.
        exported = await said(
            await carol.slash("mt history", channel=games, game=game.id, file=True)
        )
        [file] = exported.files
        data = json.loads(file.data)
        loaded = Match.replay_dicts(Rules.from_dict(data["rules"]), data["names"], data["events"])
        record = await bot.service.game_record(game.id)
        live_match = story.live_match(record)
        assert live_match is not None and to_position(loaded) == to_position(live_match)
        assert loaded.is_over and data["totals"] == list(loaded.totals)
        missing = await said(await carol.slash("mt history", channel=games, game=999, file=True))
        assert "no game #999" in missing.text
        # The file is every page: a page with it is refused, and nothing is sent.
        paged = await said(await carol.slash("mt history", channel=games, page=2, file=True))
        assert "not a page: use `file:True` without `page:`" in paged.text
        assert paged.ephemeral and not paged.files

        # Replay: a GIF of the round, bounded, under the upload limit.
        replayed = await said(await carol.slash("mt replay", channel=games, game=game.id))
        [gif] = replayed.files
        assert gif.data.startswith(b"GIF8") and len(gif.data) < fake.attachment_size_limit
        frames = Image.open(io.BytesIO(gif.data))
        assert 2 <= frames.n_frames <= 60 and frames.size[0] == 700
        assert "replayed" in replayed.embeds[0]["title"]

        # Stats and leaderboard, for anyone; a chart comes with them.
        mine = await said(await alice.slash("mt stats", channel=games))
        assert "Games:** 1 played" in mine.text and mine.images()
        assert "Longest own train" in mine.text and "double blank" in mine.text
        bobs = await said(await carol.slash("mt stats", channel=games, player=bob))
        assert "Statistics of Bob" in bobs.text
        nobody = await said(await carol.slash("mt stats", channel=games))
        assert "has not finished a game" in nobody.text
        board = await said(await carol.slash("mt leaderboard", channel=games))
        assert f"<@{alice.id}>" in board.text and f"<@{bob.id}>" in board.text

        # Rematch: only the players; Bob asks, so Bob hosts, Alice is seated again.
        refused = await said(await carol.click(final, label="Rematch"))
        assert "Only the players" in refused.text
        answer = await said(await bob.click(final, label="Rematch"))
        assert "is open" in answer.text
        lobby = last_public(games)
        assert "Rematch of game" in lobby.text
        assert alice.mention in lobby.text and bob.mention in lobby.text
        assert lobby.button_labels == ["Join", "Leave", "Start", "Cancel"]
        new = await game_here(bot, games)
        assert new.id != game.id and new.host_id == bob.id
        assert [p.user_id for p in new.players] == [bob.id, alice.id]
        assert new.rules == game.rules and new.preset == game.preset
        again = await said(await alice.click(final, label="Rematch"))
        assert "already has a game going" in again.text
        started = await said(await bob.click(lobby, label="Start"))
        assert "started" in started.text
        assert (await bot.service.game(new.id)).status is GameStatus.ACTIVE


async def test_rematch_brings_the_computers_back_even_after_a_restart(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice = fake.user("alice")
    async with running_bot(fake, bot):
        opened = await said(await alice.slash("mt new", channel=games, preset="quick"))
        assert "is open" in opened.text
        lobby = last_public(games)
        await said(await alice.slash("mt computer", channel=games, level="hard"))
        await said(await alice.click(lobby, label="Start"))
        game = await game_here(bot, games)
        await play_to_end(bot, games, {alice.id: alice}, game.id)
        final = await final_message(fake, games)
    bot = make_bot()  # a restart: the Rematch button on the old message still answers
    async with running_bot(fake, bot):
        await said(await alice.click(final, label="Rematch"))
        new = await game_here(bot, games)
        assert [(p.user_id, p.computer) for p in new.players] == [
            (alice.id, None), (None, game.players[1].computer),
        ]  # fmt: skip


async def test_undo_through_discord(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="standard", rounds=1)
        nothing = await said(await alice.slash("mt undo", channel=games))
        assert "Nothing to undo" in nothing.text
        await play_one(bot, games, users, game.id)  # Alice
        before = await bot.service.table_view(game.id)
        await play_one(bot, games, users, game.id)  # Bob
        bob_dms = len(bob.dms())

        refused = await said(await carol.slash("mt undo", channel=games))  # not her turn
        assert "only your own last turn" in refused.text and "Bob has played" in refused.text
        outsider = await said(await fake.user("dan").slash("mt undo", channel=games))
        assert "Only the host" in outsider.text
        later = await said(await alice.slash("mt undo", channel=games, player=alice))
        assert "Bob has already played since" in later.text

        done = await said(await alice.slash("mt undo", channel=games))
        assert done.text.startswith("Undone:")
        told = last_public(games)
        assert "Alice took back Bob's turn" in told.embeds[0]["description"]
        assert bob.mention in told.text and told.button_labels[:3] == ["Play", "Draw", "Pass"]
        assert told.images()
        after = await bot.service.table_view(game.id)
        assert after.trains == before.trains and after.hand_counts == before.hand_counts
        assert len(bob.dms()) == bob_dms + 1  # his tile came back: his hand again
        await bot.service.verify_game(game.id)

        history = await said(await carol.slash("mt history", channel=games))
        assert "~~**Bob**" in history.text and "(undone)" in history.text
        assert "took back Bob's turn" in history.text

        # Bob plays again; the game goes on.
        answer = await play_one(bot, games, users, game.id)
        assert answer.startswith("✅")


async def test_spectators_see_hands_only_under_open_hands(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick", open_hands=True)
        table = await said(await carol.slash("table", channel=games))
        text = table.embeds[0]["description"]
        bobs = (await bot.service.seat_view(game.id, bob.id)).hand
        assert bobs is not None
        assert "Open hands" in text and all(f"`{t}`" in text for t in bobs)
        await said(await alice.slash("mt end", channel=games))
        await open_game(fake, bot, games, alice, [bob], preset="quick", open_hands=False)
        table = await said(await carol.slash("table", channel=games))
        assert "Open hands" not in (table.embeds[0].get("description") or "")
