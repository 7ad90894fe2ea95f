"""Forced turns play themselves (``/mt me autoplay:``) through the fake Discord: a player who
keeps the default (``only``, issue 46) is never pinged for a turn whose only move is a draw, a
pass or one tile — it is played at once, told in the channel like any move, and their next
turn DM says it was played for them; a player who turned it off is handed those turns as
before."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import DRAW, PASS
from tests.e2e.helpers import open_game, pick, said, settled, slash_move, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot


def _text(message: FakeMessage) -> str:
    return "\n".join(
        [message.content or "", *(str(e.get("description") or "") for e in message.embeds)]
    )


async def test_a_forced_turn_plays_itself_and_pings_nobody(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        off = await said(await bob.slash("mt me", channel=games, autoplay="off"))
        assert "I play your turn for you never" in off.content, off.content
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        handed = {alice.id: 0, bob.id: 0}  # turns handed over whose only move was forced
        told_for_alice = 0
        for _ in range(160):
            game = await settled(bot, game.id)
            if game.turn is None:
                break
            uid, view = await to_move(bot, game.id)
            forced = tuple(view.legal) in ((DRAW,), (PASS,))
            handed[uid] += forced or (uid == alice.id and len(view.legal) == 1)
            played = sum("had no choice" in _text(m) for m in games.messages())
            if uid == alice.id and played > told_for_alice:
                # Alice's newest turn DM says what was played for her.
                told_for_alice = played
                dm = alice.dms()[-1].content
                assert "played for you (you had no choice)" in dm, dm
            await slash_move(users[uid], games, str(pick(view.legal)))
        lines = [line for m in games.messages() for line in _text(m).splitlines()]
        no_choice = [line for line in lines if "had no choice" in line]
        assert no_choice, "a match of this length has forced turns"
        assert all("Alice had no choice" in line for line in no_choice), no_choice
        said_kinds = {line.split("the bot ")[-1] for line in no_choice}
        forced_kinds = {
            "drew and passed for them.",
            "drew and passed for them; their train is open.",
            "drew for them.",  # the tile fits in more than one place: where is hers
            "passed for them.",
            "passed for them; their train is open.",
        }
        # Her one legal tile (or a drawn tile that fits one place only), played for her.
        lone_tile = re.compile(r"(drew and )?played \d+-\d+ on .+ for them(; .+)?\.")
        others = {k for k in said_kinds - forced_kinds if not lone_tile.fullmatch(k)}
        assert not others, others
        assert said_kinds - forced_kinds, "a match of this length has a lone tile played"
        # One line tells one turn played for her: her forced draws and passes (all of them:
        # a draw or a pass is only ever her one move) have no lines of their own.
        alone = [line for line in lines if line.startswith(("Alice drew", "Alice passed"))]
        assert not alone, alone
        # Every turn Alice was handed (and pinged for: one ping per turn) asked a decision.
        assert handed[alice.id] == 0
        assert handed[bob.id] > 0  # off: his forced turns are still his to take
        assert told_for_alice > 0
