"""An overloaded bot answers "busy, try again in a moment" in time, and changes nothing.

An interaction that reaches its handler ``shed_after`` seconds after Discord made it is
answered at once (an acknowledgement Discord gets within its 3 s) and its work is not started.
Here ``shed_after`` is set to minus infinity so that every interaction counts as late (a loaded
event loop cannot be made on demand in a test): the answer, the game left as it was, the
refusal and the acknowledgement's age in ``/metrics`` are what is checked.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.i18n import tr
from bot.ops.health import parse_metrics, render_metrics
from tests.e2e.helpers import (
    last_public,
    open_game,
    pick,
    said,
    slash_move,
    to_move,
    type_move,
)
from tests.fakediscord import FakeDiscord, running_bot


async def test_a_late_interaction_is_answered_busy_and_changes_nothing(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob", locale="fr")
    users = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        uid, view = await to_move(bot, game.id)
        before = await bot.service.game(game.id)
        posts = len(games.messages())
        bot.shed_after = float("-inf")  # every interaction is "late"
        answer = await said(await type_move(users[uid], games, str(pick(view.legal))))
        locale = "fr" if uid == bob.id else "en"
        assert answer.content == tr("error.busy", locale) and answer.ephemeral
        assert await bot.service.game(game.id) == before  # nothing was done …
        assert len(games.messages()) == posts  # … and nothing posted
        # A turn button (acknowledged without a message of its own when not late) too.
        clicked = await said(await users[uid].click(last_public(games), label="Play"))
        assert clicked.content == tr("error.busy", locale) and clicked.ephemeral
        assert await bot.service.game(game.id) == before
        got = parse_metrics((await render_metrics(bot)).decode())
        p, one = "mexican_train_", '{process="all"}'
        assert got[p + 'refusals_total{code="busy",process="all"}'] == 2
        acks = got[p + "interaction_ack_seconds_count" + one]
        bot.shed_after = 2.0  # back to normal: the same move is made
        text = await slash_move(users[uid], games, str(pick(view.legal)))
        assert text != tr("error.busy", locale)
        assert (await bot.service.game(game.id)).version > before.version
        got = parse_metrics((await render_metrics(bot)).decode())
        # Each acknowledgement counted, and in Discord's 3 s here.
        assert got[p + "interaction_ack_seconds_count" + one] == acks + 1
        in_time = got[p + 'interaction_ack_seconds_bucket{le="3.0",process="all"}']
        assert in_time == got[p + "interaction_ack_seconds_count" + one]
