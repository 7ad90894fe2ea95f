"""Every file the bot sends says what it shows: a whole (quick) match through the fake Discord.

Alice reads English and Bob French; a computer plays too. Every upload the fake received (the
channel's table posts, the hand DMs and their edits, ``/table``, ``/hand``, My hand, the replay,
the statistics chart, the export) must carry a description of at most 1,024 characters in
its reader's language, naming the game's words: whose turn, each train, the tiles.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from tests.e2e.helpers import last_public, open_game, said, settled
from tests.e2e.test_extras import final_message, play_one
from tests.fakediscord import FakeDiscord, FakeFile, running_bot


def _uploads(fake: FakeDiscord) -> list[tuple[str, FakeFile]]:
    """Every file of every request the bot made, with the request's route."""
    return [(r.route or r.path, f) for r in fake.requests for f in r.files]


async def test_every_file_of_a_match_carries_its_description(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob", locale="fr")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], start=False, preset="quick")
        lobby = last_public(games)
        add = f"mt:{game.id}:lobby:cpu"
        await (await alice.select(lobby, values=["easy"], custom_id=add)).message()
        await said(await alice.click(lobby, label="Start"))

        for _ in range(3):
            await play_one(bot, games, users, game.id)
        table = await said(await bob.slash("table", channel=games))
        [picture] = table.files
        assert picture.description is not None
        assert picture.description.startswith("Image de la table du Train mexicain. Manche 1")
        assert "Train mexicain : " in picture.description and " (@1) : " in picture.description
        assert "ordinateur" in picture.description  # the computer's seat says so
        hand = await said(await alice.slash("hand", channel=games))
        [mine] = hand.files
        assert mine.description is not None
        assert mine.description.startswith("Picture of your hand:")
        assert "your train is @1" in mine.description
        bobs = await said(await bob.click(last_public(games), label="My hand"))
        assert bobs.files[0].description is not None
        assert bobs.files[0].description.startswith("Image de ta main")

        for _ in range(600):
            if (await settled(bot, game.id)).status is not GameStatus.ACTIVE:
                break
            await play_one(bot, games, users, game.id)
        final = await final_message(fake, games)
        said_final = final.files[0].description
        # The match's end shows the round-end picture: who won, and every player's points.
        assert said_final is not None and "won the match" in said_final
        assert "Points this round and totals: 1." in said_final

        replay = await said(await bob.slash("mt replay", channel=games, game=game.id))
        gif = replay.files[0]
        assert gif.description is not None and gif.description.startswith("Replay animé")
        stats = await said(await alice.slash("mt stats", channel=games))
        assert stats.files[0].description is not None
        assert stats.files[0].description.startswith("Bar chart of Alice's average score")
        exported = await said(await bob.slash("mt history", channel=games, game=game.id, file=True))
        assert exported.files[0].description is not None

    uploads = _uploads(fake)
    missing = [(route, f.filename) for route, f in uploads if not f.description]
    assert len(uploads) > 20 and missing == []
    assert max(len(f.description or "") for _route, f in uploads) <= 1024
    kinds = {f.filename for _route, f in uploads}
    assert {"table.png", "hand.png", "replay.gif", "stats.png"} <= kinds
    # Hand DMs follow the player's language, the channel's table the server's.
    for message in fake.dm_channel(bob).messages():
        for file in message.files:
            assert file.description is not None and file.description.startswith("Image de ta")
    for message in games.messages():
        for file in message.files:
            start = "Round " if file.filename == "round.png" else "Picture of"
            assert file.description is not None and file.description.startswith(start)
