"""A button's custom_id names its game, and a client can send any custom_id: the bot must check
that the game is the clicker's, in the right place, before acting — and a refusal changes
nothing. The Rematch button records its new lobby where it posts it.

Forged clicks use ``FakeUser.forge_click``: a real user in a real channel, on a real message
of the bot's, naming a custom_id that message does not carry (see its docstring).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.service import GameSummary
from bot.store import GameStatus
from tests.e2e.helpers import (
    game_here,
    last_public,
    lobby_elsewhere,
    open_game,
    pick,
    said,
    to_move,
)
from tests.e2e.test_extras import final_message, play_to_end
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot


def _snapshot(game: GameSummary) -> tuple[object, ...]:
    return (game.status, game.version, tuple((p.user_id, p.name) for p in game.players))


def _state(message: FakeMessage) -> tuple[object, ...]:
    return (message.text, message.edits, str(message.embeds), str(message.components))


async def test_forged_lobby_and_history_clicks_are_refused_and_change_nothing(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games, other = fake.channel("games"), fake.channel("other")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    async with running_bot(fake, bot):
        # Game A: Alice hosts in #games, Carol has joined: Start would deal.
        a = await open_game(fake, bot, games, alice, [carol], start=False)
        lobby_a = last_public(games)
        # Bob's own lobby in #other: the message the forged clicks are made on.
        await said(await bob.slash("mt new", channel=other))
        here = last_public(other)
        b = await game_here(bot, other)
        # A lobby of another server (only the service can make one: the fake has one guild).
        far = await lobby_elsewhere(bot, fake, alice)
        before = {g.id: _snapshot(await bot.service.game(g.id)) for g in (a, b, far)}
        seen = (_state(lobby_a), _state(here), len(games.messages()), len(other.messages()))

        forged = [
            (bob, f"mt:{a.id}:lobby:join", None),
            (alice, f"mt:{a.id}:lobby:start", None),  # even the host, from the wrong channel
            (alice, f"mt:{a.id}:lobby:cpu", ["hard"]),
            (alice, f"mt:{a.id}:lobby:cancel", None),
            (bob, f"mt:{a.id}:hist:1:older", None),  # would rewrite Bob's lobby card
        ]
        for user, custom_id, values in forged:
            answer = await said(await user.forge_click(here, custom_id=custom_id, values=values))
            assert answer.ephemeral
            assert f"Game #{a.id} is played in another channel" in answer.text, answer.text
        for user, custom_id in (
            (bob, f"mt:{far.id}:lobby:join"),
            (alice, f"mt:{far.id}:lobby:start"),
            (bob, f"mt:{far.id}:hist:1:older"),
        ):
            answer = await said(await user.forge_click(here, custom_id=custom_id))
            assert f"There is no game #{far.id} on this server" in answer.text, answer.text

        after = {g.id: _snapshot(await bot.service.game(g.id)) for g in (a, b, far)}
        assert after == before
        assert (await bot.service.game(a.id)).status is GameStatus.LOBBY
        assert seen == (
            _state(lobby_a),
            _state(here),
            len(games.messages()),
            len(other.messages()),
        )

        # The same buttons, used where they were posted, still work.
        joined = await said(await bob.click(lobby_a, label="Join"))
        assert "joined" in joined.text
        assert len((await bot.service.game(a.id)).players) == 3


async def test_a_forged_rematch_is_refused_and_a_rematch_is_recorded_where_it_is_posted(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games, other = fake.channel("games"), fake.channel("other")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        await play_to_end(bot, games, {alice.id: alice, bob.id: bob}, game.id)
        final = await final_message(fake, games)

        # From another channel, the old game's Rematch is refused and opens nothing.
        await said(await bob.slash("mt new", channel=other))
        here = last_public(other)
        posted = len(games.messages()), len(other.messages())
        refused = await said(await alice.forge_click(here, custom_id=f"mt:{game.id}:rematch"))
        assert f"Game #{game.id} is played in another channel" in refused.text
        assert await bot.service.game_in_channel(games.id) is None
        assert posted == (len(games.messages()), len(other.messages()))

        # In its own channel: the new lobby is posted there and recorded there.
        opened = await said(await alice.click(final, label="Rematch"))
        assert "is open" in opened.text, opened.text
        card = last_public(games)
        new = await game_here(bot, games)
        assert new.id != game.id and new.channel_id == games.id == card.channel_id
        lobby = (await bot.service.messages(new.id))["lobby"]
        assert (lobby.channel_id, lobby.message_id) == (card.channel_id, card.id)


async def test_a_forged_move_pick_is_refused_by_the_move_and_changes_nothing(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """The channel's move list (after Play) makes no read of its own: the move checks where
    it was sent from, the table's version and whose turn it is in its one read of the game.
    So a pick naming a game of another channel or server, or sent by someone whose turn it
    is not, is refused there, with nothing changed; the mover's real pick still plays."""
    fake = fake_discord
    bot = make_bot()
    games, other = fake.channel("games"), fake.channel("other")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        await said(await carol.slash("mt new", channel=other))
        here = last_public(other)
        far = await lobby_elsewhere(bot, fake, alice)
        uid, view = await to_move(bot, game.id)
        mover = users[uid]
        waiting = bob if mover is alice else alice
        move = str(pick(view.legal))
        now = await bot.service.game(game.id)
        before = _snapshot(now), _snapshot(await bot.service.game(far.id)), len(games.messages())
        pick_id = f"mt:{game.id}:{now.version}:pick"

        elsewhere = await said(await mover.forge_click(here, custom_id=pick_id, values=[move]))
        assert f"Game #{game.id} is played in another channel" in elsewhere.text
        far_pick = f"mt:{far.id}:{far.version}:pick"
        bot.service.clear_cache()
        unknown = await said(await alice.forge_click(here, custom_id=far_pick, values=["draw"]))
        assert f"There is no game #{far.id} on this server" in unknown.text
        assert bot.service.ledger.cached_game(far.id) is None  # refused on its row: not loaded
        post = last_public(games)
        assert now.turn is not None
        turn_of = f"It's {now.turn.name}'s turn."
        stale = f"mt:{game.id}:{now.version - 1}:pick"
        # Who may act is said before what was sent, and before the list's age.
        for custom_id, value in ((pick_id, move), (pick_id, "nuke"), (stale, move)):
            not_theirs = await said(
                await waiting.forge_click(post, custom_id=custom_id, values=[value])
            )
            assert not_theirs.ephemeral and not_theirs.text == turn_of, not_theirs.text
        outrun = await said(await mover.forge_click(post, custom_id=stale, values=[move]))
        assert "changed" in outrun.text, outrun.text

        after = (
            _snapshot(await bot.service.game(game.id)),
            _snapshot(await bot.service.game(far.id)),
            len(games.messages()),
        )
        assert after == before

        played = await said(await mover.forge_click(post, custom_id=pick_id, values=[move]))
        assert played.text.startswith("✅"), played.text
        assert (await bot.service.game(game.id)).version > now.version
