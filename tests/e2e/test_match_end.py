"""The end of a match is told to every human, once each (issue 34, item 3), through the fake
Discord's record of pings: a DM with their place, the winner, the sheet and a link for those
who take their turns by DM; one mention in the channel, with their place, for those who asked
for mentions or whose DMs turn out closed. Nobody is pinged twice, nobody missed."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from tests.e2e.helpers import open_game, pick, said, slash_move, to_move
from tests.fakediscord import FakeDiscord, FakeUser, running_bot


async def test_every_human_is_told_the_end_once_by_dm_or_by_mention(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol, dave = (fake.user(n) for n in ("alice", "bob", "carol", "dave"))
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol, dave)}
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await bob.slash("mt me", channel=games, ping="mention"))
        await said(await dave.slash("mt me", channel=games, language="fr"))
        game = await open_game(fake, bot, games, alice, [bob, carol, dave], preset="quick")
        fake.close_dms(carol)  # found closed at her first DM: mentioned from then on
        pings_at_last_move = {u.id: 0 for u in users.values()}
        for _ in range(400):
            if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                break
            pings_at_last_move = {uid: len(fake.pings_for(u)) for uid, u in users.items()}
            uid, view = await to_move(bot, game.id)
            answer = await slash_move(users[uid], games, str(pick(view.legal)))
            assert answer.startswith("✅"), answer
        else:
            raise AssertionError("the match did not end")

        standings = {s.player.user_id: s for s in await bot.service.standings(game.id)}
        told = {uid: fake.pings_for(u)[pings_at_last_move[uid] :] for uid, u in users.items()}
        assert {uid: len(p) for uid, p in told.items()} == dict.fromkeys(users, 1)
        how = {uid: [p.how for p in pings] for uid, pings in told.items()}
        assert how[alice.id] == how[dave.id] == ["dm"]
        assert how[bob.id] == how[carol.id] == ["mention"]
        # The DMs: place and total, the final standings with the sheet, a link; in the
        # reader's language (Dave chose French).
        end = alice.dms()[-1].text
        assert f"Game #{game.id} (<#{games.id}>) is over" in end
        assert ("you won" in end) if standings[alice.id].won else ("of 4, with" in end)
        assert "Final standings:" in end
        assert end.count("over") == 1, end  # said once, in its first line
        assert f"https://discord.com/channels/{games.guild_id}/{games.id}/" in end
        fr = dave.dms()[-1].text
        assert f"La partie n°{game.id}" in fr and "Classement final" in fr and "is over" not in fr
        assert fr.count("finie") == 1, fr
        # The mention: one post naming Bob and Carol with their places.
        [post] = [m for m in games.messages() if m.id == told[bob.id][0].message_id]
        assert post.id == told[carol.id][0].message_id
        assert f"<@{bob.id}>" in post.text and f"<@{carol.id}>" in post.text
        assert f"<@{alice.id}>" not in post.text
        assert post.text.startswith(f"🏁 Game #{game.id} is over.")
