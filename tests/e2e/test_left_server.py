"""A player who left the server: Discord refuses the bot's DMs with 50278 ("Cannot send
messages to this user: no mutual guilds",
https://docs.discord.com/developers/topics/opcodes-and-status-codes#json). Handled like closed
DMs (50007: remembered, never retried, the ping in the channel) and said as what it is."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import Play
from tests.e2e.helpers import open_game, pick, said, settled, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_a_player_who_left_the_server_is_dmed_once_and_the_channel_is_told(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}

    async def move() -> int:
        uid, view = await to_move(bot, game.id)
        chosen = pick(view.legal)
        if isinstance(chosen, Play):
            await said(await users[uid].slash("play", channel=games, tile=str(chosen.tile),
                                              train=str(chosen).split()[1]))  # fmt: skip
        else:
            await said(await users[uid].slash(str(chosen), channel=games))
        return uid

    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        fake.leave_servers(bob)
        # Play until Bob's turn has come three times (he still moves here: the fake models
        # only his DMs). The first turn's DM is refused with 50278; never tried again.
        bob_turns = 0
        for _ in range(60):
            if bob_turns >= 3:
                break
            uid, _ = await to_move(bot, game.id)
            bob_turns += uid == bob.id
            await move()
        assert bob_turns >= 3
        assert not (await bot.service.user_settings(bob.id)).dms_open
        dm = bob.dm_channel
        assert dm is not None
        tries = [r for r in fake.requests_to("POST /channels/{channel_id}/messages")
                 if r.path.endswith(f"/channels/{dm.id}/messages")]  # fmt: skip
        assert [r.status for r in tries] == [403]
        # The channel hears once that he left, with what the host may do; the mention is
        # the ping he would have had.
        notices = [m for m in games.messages() if "no longer on this server" in m.text]
        assert len(notices) == 1, [m.text for m in games.messages()]
        assert notices[0].text.startswith(bob.mention) and "/mt kick" in notices[0].text
        assert bob.id in notices[0].pinged
        # The host gives his seat to a computer, as the notice says: the game goes on.
        answer = await said(await alice.slash("mt kick", channel=games, player=bob))
        assert "computer plays their seat" in answer.text
        after = await settled(bot, game.id)
        assert next(p for p in after.players if p.name == "Bob").is_computer
        assert not bob.dms()
