"""Round ends and the match after its end, through the fake Discord (issue 29): a round's end
posts its picture with a description in words and the scores as a list; ``/mt scores`` ranks
by the totals so far; after the match ``/mt scores`` and ``/table`` show the last match and
``/hand`` says where the result is, until a new lobby opens."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from bot.ui.pictures import round_end_png
from tests.e2e.helpers import last_public, open_game, pick, said, slash_move, to_move
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, running_bot


async def _play_until(
    bot: MexicanTrainBot,
    game_id: int,
    users: dict[int, FakeUser],
    channel: FakeChannel,
    rounds_over: int,
) -> None:
    """Humans move (through Discord) until ``rounds_over`` rounds are over or the match is."""
    for _ in range(3000):
        game = await bot.service.game(game_id)
        if game.status is not GameStatus.ACTIVE:
            return
        if len(await bot.service.round_scores(game_id)) >= rounds_over:
            return
        uid, view = await to_move(bot, game_id)
        await slash_move(users[uid], channel, str(pick(view.legal)))
    raise AssertionError("the game did not get there")


def _round_posts(channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in channel.messages() if any(f.filename == "round.png" for f in m.files)]


async def test_a_round_end_posts_its_picture_with_a_description_and_the_scores_as_a_list(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="double-9", rounds=2)
        none_yet = await said(await bob.slash("mt scores", channel=games))
        assert "no round is over yet" in none_yet.text and "1." not in none_yet.text
        await _play_until(bot, game.id, users, games, rounds_over=1)

        [post] = _round_posts(games)
        embed = post.embeds[0]
        assert embed["title"] == f"Game #{game.id} — round 1/2"
        assert "Round 1 is over" in embed["description"] or "blocked" in embed["description"]
        # The picture, in the embed, with its description in words (alt text); the next
        # round's table rides in the same post (issue 47: one post per turn).
        picture, table = post.files
        assert table.filename == "table.png" and post.embeds[1]["title"].endswith("round 2/2")
        assert embed["image"]["url"] == post.attachments[0].url
        assert picture.description is not None and len(picture.description) <= 1024
        assert picture.description.startswith("Round 1 of 2 is over")
        report = await bot.service.round_report(game.id, 0)
        players = (await bot.service.game(game.id)).players
        assert post.images()[0] == round_end_png(report.board, players, "en")
        # The scores: a vertical list, best first, places shared on ties.
        [field] = embed["fields"]
        assert field["name"] == "Scores after round 1/2"
        heads = [line for line in field["value"].splitlines() if not line.startswith("↳")]
        assert [h.split(".")[0] for h in heads] == [str(s.place) for s in report.standings]
        assert all("(this round +" in h or "(went out, +" in h for h in heads)
        assert "```" not in field["value"]
        assert post.button_labels[:3] == ["Play", "Draw", "Pass"]  # the turn's, in one post
        # /mt scores mid-match ranks by the totals so far, in the same words.
        answer = await said(await alice.slash("mt scores", channel=games))
        assert answer.text.startswith(
            f"Game #{game.id} · after round 1/2 (round 2 is being played):\n1. "
        )
        assert all(h in answer.text for h in heads)


async def test_after_the_match_scores_and_table_show_it_and_hand_says_where_until_a_new_lobby(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {alice.id: alice, bob.id: bob}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        await _play_until(bot, game.id, users, games, rounds_over=1)
        assert (await bot.service.game(game.id)).status is GameStatus.FINISHED
        final = last_public(games)
        assert final.button_labels == ["Rematch"]
        report = await bot.service.round_report(game.id)

        scores = await said(await carol.slash("mt scores", channel=games))  # a spectator too
        lines = scores.text.splitlines()
        assert lines[0] == f"Game #{game.id} is over. Final standings:"
        assert lines[1].startswith("1. ") and "won the match — Woo Woo!" in lines[-1]
        assert scores.ephemeral

        table = await said(await bob.slash("table", channel=games))
        assert table.ephemeral and table.embeds[0]["description"].startswith(
            f"Game #{game.id} is over: the final table."
        )
        assert table.images() == final.images()
        assert table.files[0].description == final.files[0].description
        assert table.embeds[0]["fields"][0]["name"] == "Final standings"

        hand = await said(await alice.slash("hand", channel=games))
        link = f"https://discord.com/channels/{final.guild_id}/{games.id}/{final.id} "
        assert hand.text.startswith(f"Game #{game.id} is over, so there is no hand to show.")
        assert link in hand.text and "no game in this channel" not in hand.text.lower()
        assert hand.ephemeral and not hand.images()

        # Another channel has nothing to show.
        elsewhere = fake.channel("elsewhere")
        nothing = await said(await alice.slash("mt scores", channel=elsewhere))
        assert nothing.text == "There is no game in this channel. Open one with /mt new."

        # Rematch opens a lobby here: the finished match is no longer shown.
        await said(await bob.click(final, label="Rematch"))
        after = await said(await carol.slash("mt scores", channel=games))
        assert after.text == "No scores yet."
        table = await said(await carol.slash("table", channel=games))
        assert table.text == "The game has not started yet."
        assert report.match_over
