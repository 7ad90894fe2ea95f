"""A finished match's review (issue 49) through the fake Discord: ``/mt review`` answers the
caller privately with their own review; the end-of-match DM's button does the same; an
unfinished game or someone else's gets a clear one-line answer. A 1-second CPU budget keeps
the test's CPU small."""

from __future__ import annotations

import random
from pathlib import Path

from bot.app import create_bot
from bot.config import Config
from bot.store import GameStatus
from tests.clock import FakeClock
from tests.e2e.helpers import open_game, pick, said, slash_move, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_review_by_command_and_by_the_end_dms_button(
    fake_discord: FakeDiscord, db_path: Path, clock: FakeClock
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {alice.id: alice, bob.id: bob}
    config = Config(database=db_path, synchronous="NORMAL", render_workers=0, review_cpu=1)
    bot = create_bot(config, clock=clock, rng=random.Random(7))
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        early = await said(await bob.slash("mt review", channel=games))
        assert early.ephemeral
        assert early.content == (
            f"Game #{game.id} is not finished: its review comes when the match ends."
        )
        for _ in range(400):
            if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            answer = await slash_move(users[uid], games, str(pick(view.legal)))
            assert answer.startswith("✅"), answer
        else:
            raise AssertionError("the match did not end")

        mine = await said(await bob.slash("mt review", channel=games))
        assert mine.ephemeral
        assert mine.content.startswith(f"🔍 **Your review of game #{game.id}** (Bob)"), mine.content
        assert "🎲 Luck of the deals, in points" in mine.content and "-# How:" in mine.content
        again = await said(await bob.slash("mt review", channel=games, game=game.id))
        assert again.content == mine.content  # kept: the same review, not computed again

        other = await said(await carol.slash("mt review", channel=games, game=game.id))
        assert other.ephemeral
        assert other.content == (
            f"You did not play game #{game.id} to its end: you can only review your own matches."
        )

        end = alice.dms()[-1]
        assert f"Game #{game.id}" in end.content
        clicked = await said(await alice.click(end, label="Review my match"))
        assert clicked.ephemeral
        assert clicked.content.startswith(f"🔍 **Your review of game #{game.id}** (Alice)")
        if "\n• Round" in clicked.content:  # a decision named: the table as it was, drawn
            assert clicked.files and clicked.files[0].data.startswith(b"\x89PNG")
        else:
            assert "✅ No decision where another move was clearly better." in clicked.content
            assert not clicked.files
