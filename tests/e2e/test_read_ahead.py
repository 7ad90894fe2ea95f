"""A typed move's look-up runs beside its acknowledgement, not after it (issue 50).

The mover waits for both: the acknowledgement's round trip to Discord and the read of the
channel's game and their seat. They need nothing of each other, so the read starts first
and the two overlap; what the body decides (a refusal, the move) still comes after the
acknowledgement, from the same read. Proven by order, never by time: when the look-up is
asked for, Discord has not yet received the acknowledgement.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.service.queries import Look
from tests.e2e.helpers import idle, open_game, pick, to_move, type_move
from tests.fakediscord import FakeDiscord, running_bot

CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def test_a_typed_moves_look_up_starts_before_its_acknowledgement_is_received(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        room = fake.channel("games")
        alice, bob = fake.user("alice"), fake.user("bob")
        users = {u.id: u for u in (alice, bob)}
        game = await open_game(fake, bot, room, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        await idle(fake)
        seen: list[int] = []  # the acknowledgements Discord had received at each look-up
        look_here = bot.service.look_here

        async def counted(channel_id: int, user_id: int) -> Look | None:
            seen.append(len(fake.requests_to(CALLBACK)))
            return await look_here(channel_id, user_id)

        bot.service.look_here = counted  # type: ignore[method-assign]
        before = len(fake.requests_to(CALLBACK))
        inv = await type_move(users[uid], room, str(pick(view.legal)))
        answer = await inv.message()
        await idle(fake)

        assert answer.text.startswith("✅"), answer.text
        assert seen == [before]  # one look-up, asked before the acknowledgement arrived
        assert len(fake.requests_to(CALLBACK)) == before + 1
