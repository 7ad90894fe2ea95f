"""A whole match through a fake Discord that rate-limits like Discord (issue 24).

Four humans play a match from ``/mt new`` to the final standings while the fake enforces
Discord's per-route buckets and a global budget. The clock of the limits runs ``TIME_SCALE``
times faster so the match fits in the suite, and the global budget is cut to
``GLOBAL_SHARE`` requests per (Discord) second: the share one game gets when a bot is busy
with many, so one game's bursts meet the global limit as a busy bot's do. With the time
scale, that is ``GLOBAL_SHARE`` requests per ``1 / TIME_SCALE`` s of real time, the budget a
client-side limiter must keep to here.

The bot must lose nothing (every move answered, every turn posted, every hand delivered),
never send a request into a bucket the fake had said was empty (every 429's ``retry_after``
honoured), and pace its global budget itself: discord.py does not, and learns the global
limit only from 429s, while requests it already sent are in flight.

The pacing is checked where the bot does it: every global-limited request the fake received
went through the bot's limiter, which let them go at least ``per / rate`` apart. The fake's
own global count stamps requests as they arrive, and on a loaded machine a paused event loop
delivers evenly spaced requests together: a global 429 there says the harness stalled, not
that the bot burst, so it is allowed, and must be honoured and retried like any other.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.config import DEFAULT_REQUEST_RATE, DISCORD_GLOBAL_RATE
from bot.store import GameStatus
from bot.ui.limits import RequestBudget, install
from tests.e2e.helpers import last_public, open_game, pick, said, to_move, type_move
from tests.fakediscord import FakeDiscord, FakeUser, fake_discord, running_bot
from tests.fakediscord.ratelimit import EXEMPT_ROUTES
from tests.fakediscord.server import RecordedRequest

#: The limits' clock runs this much faster than the wall clock (buckets refill sooner, and
#: every Reset-After / retry_after told to discord.py is divided by it).
TIME_SCALE = 20
#: Global requests per Discord second for this one game (Discord gives a bot 50): a game's
#: share of a busy bot's budget. In real time: 2 requests per 50 ms window (40 per second),
#: the budget the bot's own limiter must be given in this test.
GLOBAL_SHARE = 2


class PacedBudget(RequestBudget):
    """The bot's limiter, noting when it let each request go (on its own clock, before the
    request crosses the event loop and the loopback to the fake)."""

    def __init__(self, rate: float, *, per: float) -> None:
        super().__init__(rate, per=per)
        self.sent: list[float] = []

    async def take(self) -> float:
        waited = await super().take()
        # No await since the limiter set its next turn: it is this request's time + interval.
        self.sent.append(self._next - self.interval)
        return waited


async def test_a_match_under_discords_rate_limits_loses_nothing_and_breaks_no_limit(
    make_bot: Callable[[], MexicanTrainBot],
) -> None:
    async with fake_discord(
        rate_limits=True, time_scale=TIME_SCALE, global_per_second=GLOBAL_SHARE
    ) as fake:
        bot = make_bot()
        # The bot's own limiter keeps the same scaled budget, 2 requests per 50 ms, with the
        # margin it keeps against Discord (45 of 50: requests are not received exactly as
        # they were sent).
        margin = DISCORD_GLOBAL_RATE / DEFAULT_REQUEST_RATE
        budget = PacedBudget(GLOBAL_SHARE, per=margin / TIME_SCALE)
        bot.budget = budget
        install(bot, budget)
        users = [fake.user(n) for n in ("alice", "bob", "carol", "dave")]
        by_id: dict[int, FakeUser] = {u.id: u for u in users}
        games = fake.channel("games")
        async with running_bot(fake, bot):
            game = await open_game(fake, bot, games, users[0], users[1:], preset="quick")
            moves = turns = 0
            last_uid = None
            for _ in range(400):
                if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                    break
                uid, view = await to_move(bot, game.id)
                if uid != last_uid and last_uid is not None:
                    # Every hand delivered: the player now to move was told, with it.
                    assert by_id[uid].dms() and by_id[uid].dms()[-1].images()
                turns += uid != last_uid
                last_uid = uid
                user = by_id[uid]
                table = last_public(games)
                assert f"<@{uid}>" in table.text, "the turn's post is missing"
                invocation = await type_move(user, games, str(pick(view.legal)))
                answer = await said(invocation, timeout=10)
                assert answer.text.startswith("✅"), answer.text
                moves += 1
            else:
                raise AssertionError("the match did not end")
            final = last_public(games)
            assert final.button_labels == ["Rematch"]

        report = fake.budget_report()
        # Nothing lost: one post per turn plus the match's end, every answer given in time.
        tables = [m for m in games.messages() if m.embeds and "round" in m.embeds[0]["title"]]
        assert len(tables) == turns + 1
        assert not [r for i in fake.interactions.values() for r in i.rejections]
        assert not [r for r in fake.requests if r.status == 429 and not _retried(fake, r)]
        # No request into a bucket known to be empty: every 429's retry_after honoured.
        assert fake.violations == [], fake.violations[:5]
        assert moves > 20 and report["global_limited"] > 0
        # The bot paces its global budget itself: Discord only says so with a 429, and a
        # bot that learns the limit from 429s has requests in flight that break it. Every
        # global-limited request the fake received was let through by the limiter (or was
        # discord.py sending a refused one again), at least an interval after the previous.
        limited = [r for r in fake.requests if _global_limited(r)]
        assert len(limited) == report["global_limited"]
        refused = sum(r.status == 429 for r in limited)
        assert budget.taken <= len(limited) <= budget.taken + refused, (budget.taken, refused)
        assert len(budget.sent) == budget.taken
        gaps = [b - a for a, b in itertools.pairwise(budget.sent)]
        assert min(gaps) >= budget.interval - 1e-9, min(gaps)


async def _until(check: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Wait for something the bot logs (generous bound: a loaded machine is slow)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def _global_limited(request: RecordedRequest) -> bool:
    """Whether a request counts against the global limit (interaction endpoints do not)."""
    return f"{request.method} {request.route}" not in EXEMPT_ROUTES


def _retried(fake: FakeDiscord, refused: RecordedRequest) -> bool:
    """Whether a request answered 429 was sent again later and went through."""
    return any(
        r.at > refused.at and r.method == refused.method and r.path == refused.path
        and r.status < 300
        for r in fake.requests
    )  # fmt: skip


async def test_a_429_storm_delays_the_pings_but_loses_nothing(
    make_bot: Callable[[], MexicanTrainBot], caplog: pytest.LogCaptureFixture
) -> None:
    """Discord answering 429 to every global-limited request for 30 (Discord) seconds, each
    time asking to retry in one: discord.py gives up after five tries, the bot's own layer
    keeps the request and sends it again. Moves go on meanwhile: answers and turn posts ride
    on interactions, which a storm spares; the pings (DMs) come when it is over."""
    async with fake_discord(rate_limits=True, time_scale=TIME_SCALE) as fake:
        bot = make_bot()
        alice, bob = fake.user("alice"), fake.user("bob")
        users = {alice.id: alice, bob.id: bob}
        games = fake.channel("games")
        async with running_bot(fake, bot):
            game = await open_game(fake, bot, games, alice, [bob], preset="quick")
            # Lifted once discord.py has given up on a request (and the bot's layer has kept
            # it), not after a time a loaded machine may overrun before discord.py gives up.
            storm = fake.storm(10_000, retry_after=1)
            gave_up = "still refused with 429 after discord.py's retries"

            async def lift_when_given_up() -> None:
                await _until(lambda: gave_up in caplog.text, "discord.py giving up on a request")
                fake.limits.lift(storm)

            lifting = asyncio.ensure_future(lift_when_given_up())
            told = 0
            for _ in range(4):
                uid, view = await to_move(bot, game.id)
                before = last_public(games)
                invocation = await type_move(users[uid], games, str(pick(view.legal)))
                answer = await invocation.message(timeout=10)
                assert answer.text.startswith("✅") and not invocation.rejections
                await fake.wait_for(
                    lambda b=before: last_public(games) is not b or b.edits,  # type: ignore[misc]
                    timeout=10,
                    what="the turn post, during the storm",
                    on=games,
                )
                nxt, _ = await to_move(bot, game.id)
                told += nxt != uid
            await lifting
            refused = fake.budget_report()["rate_limited"]["global"]
            assert refused >= 5  # discord.py tried five times before it gave up (logged)
            # Once it is over, every ping arrives: one DM per turn that changed hands.
            await fake.wait_for(
                lambda: sum(len(u.dms()) for u in users.values()) >= told,
                timeout=30,
                what="the pings held up by the storm",
            )
            # Every 429's retry_after honoured, by discord.py and by the bot's layer after it.
            assert fake.violations == [], fake.violations[:3]
