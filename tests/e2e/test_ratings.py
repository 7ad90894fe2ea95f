"""Ratings through the fake Discord (issue 48): a rated 3-player match (quick preset) played
to the end; the final post and each player's end DM say their change ("+23 → 1,412"),
``/mt rating`` shows it with a chart, the leaderboard ranks by rating and keeps its wins view;
in French too."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from bot.ui.ratings import change_text
from tests.e2e.helpers import open_game, pick, said, slash_move, to_move
from tests.e2e.test_extras import final_message
from tests.fakediscord import FakeDiscord, FakeUser, running_bot


async def test_a_rated_match_says_each_change_and_rating_shows_it(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    dave = fake.user("dave", locale="fr")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, dave)}
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await dave.slash("mt me", channel=games, language="fr"))
        game = await open_game(fake, bot, games, alice, [bob, dave], preset="quick")
        for _ in range(400):
            if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            answer = await slash_move(users[uid], games, str(pick(view.legal)))
            assert answer.startswith("✅"), answer
        else:
            raise AssertionError("the match did not end")
        changes = {c.user_id: c for c in await bot.service.rating_changes(game.id)}
        assert set(changes) == {alice.id, bob.id, dave.id}

        # The final post: every player's change, by name.
        final = await final_message(fake, games)
        text = final.embeds[0].get("description") or ""
        assert "Ratings: " in text, text
        for c in changes.values():
            assert change_text(c, "en") in text
        # The end DM: the reader's own change, in their language.
        end = alice.dms()[-1].text
        assert f"Your rating: {change_text(changes[alice.id], 'en')}." in end
        fr = dave.dms()[-1].text
        assert f"Ta cote : {change_text(changes[dave.id], 'fr')}." in fr

        # /mt rating: the number, provisional, a chart; the same after a rebuild.
        mine = await said(await alice.slash("mt rating", channel=games))
        after = f"{changes[alice.id].after:,}"
        assert "**Rating of Alice**" in mine.text and f"**Rating:** {after}" in mine.text
        assert "Provisional until 10 rated matches: 9 to go." in mine.text
        assert "computer" in mine.text and mine.images()
        his = await said(await dave.slash("mt rating", channel=games, player=bob))
        assert "Cote de Bob" in his.text and "Parties classées :** 1" in his.text
        await bot.service.rebuild_ratings(only_missing=False)
        again = await said(await alice.slash("mt rating", channel=games))
        assert again.text == mine.text

        # The leaderboard: by rating unless asked for wins.
        board = await said(await bob.slash("mt leaderboard", channel=games))
        assert board.text.startswith("**Leaderboard of this server** · by rating")
        assert all(f"<@{u}>" in board.text for u in users)
        wins = await said(await bob.slash("mt leaderboard", channel=games, view="wins"))
        assert "per round" in wins.text
        nobody = await said(await fake.user("erin").slash("mt rating", channel=games))
        assert "has no rated match" in nobody.text
