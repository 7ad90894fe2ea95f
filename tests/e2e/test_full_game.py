"""A whole match through Discord: four humans from ``/mt new`` to the final standings.

The test reads the legal moves from the service (so it is deterministic) but every action
goes through the fake Discord, the way a player's client sends it: slash commands with
autocomplete, the turn message's buttons and the Play select, alternating.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import DRAW, PASS, Play
from bot.store import GameStatus
from tests.e2e.helpers import last_public, open_game, pick, said, to_move
from tests.fakediscord import FakeDiscord, FakeUser, running_bot


async def test_four_humans_play_a_match_to_the_end(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    names = ("alice", "bob", "carol", "dave")
    users = [fake.user(n) for n in names]
    by_id: dict[int, FakeUser] = {u.id: u for u in users}
    games = fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, users[0], users[1:], preset="quick")
        assert [p.name for p in game.players] == ["Alice", "Bob", "Carol", "Dave"]
        lobby = games.messages()[0]
        assert lobby.button_labels == [] and "started" in lobby.embeds[0]["footer"]["text"]
        # The deal: the player to move is told, once, with their hand; nobody else is.
        first, _ = await to_move(bot, game.id)
        for u in users:
            if u.id == first and u is not users[0]:
                assert len(u.dms()) == 1 and u.dms()[0].images(), f"{u.name} got no hand"
                assert "Your hand" in u.dms()[0].text and "Your turn" in u.dms()[0].text
            else:
                assert not u.dms(), f"{u.name} was told of a turn that is not theirs"

        moves = autocompleted = turns = 0
        last_uid = None
        dms = {u.id: len(u.dms()) for u in users}
        for turn in range(400):
            current = await bot.service.game(game.id)
            if current.status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            turns += uid != last_uid  # four humans: the same one again is the same turn
            last_uid = uid
            user = by_id[uid]
            table = last_public(games)
            assert f"<@{uid}>" in table.text and table.button_labels == [
                "Play", "Draw", "Pass", "My hand", "Catch me up",
            ]  # fmt: skip
            move = pick(view.legal)
            if turn % 7 == 0:
                # Autocomplete offers exactly the legal tiles, then the trains that tile fits.
                tiles = await user.autocomplete("play", focused="tile", channel=games, tile="")
                legal_tiles = {str(m.tile) for m in view.legal if isinstance(m, Play)}
                assert {c["value"] for c in tiles} == legal_tiles
                if isinstance(move, Play):
                    trains = await user.autocomplete(
                        "play", focused="train", channel=games, tile=str(move.tile)
                    )
                    wanted = {str(m).split()[1] for m in view.legal if isinstance(m, Play)
                              and m.tile == move.tile}  # fmt: skip
                    assert {c["value"] for c in trains} == wanted
                other = next(u for u in users if u.id != uid)
                assert await other.autocomplete("play", focused="tile", channel=games) == []
                autocompleted += 1
            before = (await bot.service.game(game.id)).version
            if isinstance(move, Play) and turn % 2 == 0:
                train = str(move).split()[1]
                answer = await said(
                    await user.slash("play", channel=games, tile=str(move.tile), train=train)
                )
            elif isinstance(move, Play):
                picker = await said(await user.click(table, label="Play"))
                answer = await said(await user.select(picker, values=[str(move)]))
            elif move is DRAW:
                answer = await said(
                    await (user.slash("draw", channel=games) if turn % 2 else
                           user.click(table, label="Draw"))
                )  # fmt: skip
                assert "You drew" in answer.text
            elif move is PASS:
                answer = await said(await user.slash("pass", channel=games))
            else:
                answer = await said(await user.slash("play", channel=games, tile=str(move)))
            assert answer.ephemeral and answer.text.startswith("✅"), answer.text
            assert (await bot.service.game(game.id)).version > before
            moves += 1
            # One ping per turn: the next player (if it is someone else) gets exactly one DM,
            # carrying their hand; nobody else gets any.
            after = await bot.service.game(game.id)
            if after.status is not GameStatus.ACTIVE:
                break  # the end is told to everyone: below
            nxt = after.turn.user_id if after.turn is not None else None
            for u in users:
                grew = len(u.dms()) - dms[u.id]
                assert grew == (1 if u.id == nxt and nxt != uid else 0), (u.name, grew)
                if grew:
                    assert u.dms()[-1].images() and "Your turn" in u.dms()[-1].text
                dms[u.id] = len(u.dms())
        else:
            raise AssertionError("the match did not end")

        assert moves > 20 and autocompleted >= 3
        # The end is told to every human, once each: by DM (their way), with their place,
        # the winner, the final sheet and a link to the result.
        standings = await bot.service.standings(game.id)
        end_winners = [s for s in standings if s.won]
        for u in users:
            assert len(u.dms()) - dms[u.id] == 1, u.name
            end = u.dms()[-1].text
            mine = next(s for s in standings if s.player.user_id == u.id)
            assert f"Game #{game.id}" in end and "is over" in end
            assert ("you won" in end) if mine.won else (f"of {len(users)}" in end)
            assert "Final standings" in end
            # The sole winner is told "you won" once, not again as "Bob won the match".
            assert ("won the match" in end) != (mine.won and len(end_winners) == 1)
            assert f"https://discord.com/channels/{games.guild_id}/{games.id}/" in end
        final = last_public(games)
        embed = final.embeds[0]
        fields = {f["name"]: f["value"] for f in embed.get("fields", [])}
        # The final standings as a list, best first, the winner's "Woo Woo!" under the moves.
        assert "Final standings" in fields and "Woo Woo" in embed["description"]
        assert fields["Final standings"].startswith("1. ")
        assert (
            "round 1 is over" in embed["description"].lower() or "blocked" in embed["description"]
        )
        # The round-end picture, described in words for screen readers.
        assert embed["image"]["url"].endswith("round.png") and len(final.images()) == 1
        assert "Round 1 of 1 is over" in final.files[0].description
        assert final.button_labels == ["Rematch"]  # the only button left on a finished game
        standings = await bot.service.standings(game.id)
        assert standings[0].place == 1 and standings[0].player.name in fields["Final standings"]
        # Hidden hands never reached the channel: no public message lists a hand.
        for message in games.messages():
            assert "Your hand" not in message.text
        # One public post per turn (a draw and the move after it are one turn: the draw is
        # added to the turn's post; a draw that fits nothing is passed with it), plus the
        # match's end; only the last has buttons.
        tables = [m for m in games.messages() if m.embeds and "round" in m.embeds[0]["title"]]
        assert len(tables) == turns + 1
        assert all(m.buttons == [] for m in games.messages()[:-1])
