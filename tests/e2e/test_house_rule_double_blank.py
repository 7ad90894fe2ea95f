"""The house rule "the double blank scores 50" (``scoring: double blank scores 50``), added by
following docs/house-rules.md: chosen in ``/mt new`` through Discord, told on
``/mt status rules:True``, and counted at the round's end from the rules the game stored."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import Scoring, Tile, hand_score
from bot.store import GameStatus
from tests.e2e.helpers import open_game, pick, said, slash_move, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_a_match_scored_with_the_double_blank_at_50(
    fake_discord: FakeDiscord, make_bot: Callable[..., MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {alice.id: alice, bob.id: bob}
    # Seed 12 deals a round that ends with the double blank in a hand (checked below).
    bot = make_bot(seed=12)
    async with running_bot(fake, bot):
        game = await open_game(
            fake, bot, games, alice, [bob], preset="quick", scoring="double-blank-50"
        )
        assert game.rules.scoring is Scoring.DOUBLE_BLANK_50
        rules = await said(await bob.slash("mt status", channel=games, rules=True))
        assert "`scoring`: double-blank-50" in rules.text, rules.text
        for _ in range(400):
            if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            await slash_move(users[uid], games, str(pick(view.legal)))
        report = await bot.service.round_report(game.id)
    hands = report.board.visible_hands
    assert any(h is not None and Tile(0, 0) in h for h in hands), hands
    assert report.scores == tuple(hand_score(h or (), Scoring.DOUBLE_BLANK_50) for h in hands), (
        hands,
        report.scores,
    )
    assert max(report.scores) >= 50
