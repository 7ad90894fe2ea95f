"""A player takes back their own last move (issue 34, item 7), through the fake Discord: Bob's
``/mt undo`` right after his move works (no host needed), not once Carol has played; and when
the host takes back Bob's turn, Bob's next turn DM says so."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.app import MexicanTrainBot
from tests.e2e.helpers import (
    last_public,
    open_game,
    pick,
    play_until,
    said,
    slash_move,
    to_move,
    type_move,
)
from tests.fakediscord import FakeDiscord, FakeUser, running_bot


async def test_own_undo_until_the_next_human_acts_and_the_undone_player_is_told(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        _, view, _ = await play_until(bot, games, users, lambda mover, _v, _dm: mover is bob)
        version = (await bot.service.game(game.id)).version
        await slash_move(bob, games, str(pick(view.legal)))
        taken = await said(await bob.slash("mt undo", channel=games))
        assert taken.text.startswith("Undone: "), taken.text
        # In words, not notation (issue 47: "Undone: 7-3 mexican."): "7-3 on the Mexican Train".
        assert not re.search(r"\b(mexican|draw|pass|knock)\b|@\d", taken.text), taken.text
        post = last_public(games).embeds[0]["description"]
        assert "took back their own turn" in post
        undone = post.split("took back their own turn (")[1].split(")")[0]
        assert not re.search(r"\b(mexican|draw|pass|knock)\b|@\d", undone), post
        now = await bot.service.game(game.id)
        assert now.turn is not None and now.turn.user_id == bob.id and now.version > version

        # Bob plays again, until the turn is Carol's and she plays: too late for Bob.
        user, view, _ = await play_until(bot, games, users, lambda mover, _v, _dm: mover is not bob)
        assert user is carol
        await slash_move(carol, games, str(pick(view.legal)))
        late = await said(await bob.slash("mt undo", channel=games))
        assert "Carol has played since" in late.text and "host" in late.text

        # The host takes back Carol's turn: Carol's next DM says so, once.
        dms = len(carol.dms())
        await said(await alice.slash("mt undo", channel=games))
        assert len(carol.dms()) == dms + 1
        told = carol.dms()[-1].text
        assert "↩ Alice took back your turn (" in told and "back in your hand" in told
        undone = told.split("took back your turn (")[1].split(")")[0]
        assert not re.search(r"\b(mexican|draw|pass|knock)\b|@\d", undone), told


async def test_the_movers_answer_carries_undo_until_the_next_human_acts(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Issue 47: the mover's own answer carries an Undo control (``/mt undo`` no longer has
    to be typed); pressed, it takes back their turn as the command does; pressed once
    someone else has played, it says so in one line and changes nothing."""
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        _, view, _ = await play_until(bot, games, users, lambda mover, _v, _dm: mover is bob)
        version = (await bot.service.game(game.id)).version
        answer = await said(await type_move(bob, games, str(pick(view.legal))))
        assert answer.text.startswith("✅") and answer.ephemeral
        assert answer.button_labels == ["Undo"]
        taken = await said(await bob.click(answer, label="Undo"))
        assert taken.text.startswith("Undone: "), taken.text
        assert "took back their own turn" in last_public(games).told
        now = await bot.service.game(game.id)
        assert now.turn is not None and now.turn.user_id == bob.id and now.version > version

        # Bob plays again; then Carol: Bob's Undo is too late, and says so in one line.
        _, view = await to_move(bot, game.id)
        answer = await said(await type_move(bob, games, str(pick(view.legal))))
        user, view, _ = await play_until(bot, games, users, lambda mover, _v, _dm: mover is not bob)
        assert user is carol
        await slash_move(carol, games, str(pick(view.legal)))
        before = (await bot.service.game(game.id)).version
        late = await said(await bob.click(answer, label="Undo"))
        assert "Carol has played since" in late.text and "\n" not in late.text
        assert (await bot.service.game(game.id)).version == before
