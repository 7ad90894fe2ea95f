"""The bot's share of Discord's global request budget (bot/ui/limits.py) and how a cluster's
processes split it (bot/config.py)."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.config import Config
from bot.configvalues import ConfigError
from bot.ui.limits import RequestBudget


class Clock:
    """Time that moves only when the budget sleeps (asyncio.sleep is patched to advance it)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        clock.now += seconds
        await real_sleep(0)

    monkeypatch.setattr("bot.ui.limits.asyncio.sleep", sleep)
    return clock


async def test_no_window_of_one_second_holds_more_than_the_rate(clock: Clock) -> None:
    budget = RequestBudget(45, clock=clock)
    sent: list[float] = []
    for _ in range(200):
        await budget.take()
        sent.append(clock())
    for i, at in enumerate(sent):
        in_window = [t for t in sent[i:] if t < at + 1.0]
        assert len(in_window) <= 45 + 1
    # ... evenly spaced, and no slower than it must: one every 1/45 s.
    gaps = {round(b - a, 9) for a, b in itertools.pairwise(sent)}
    assert gaps == {round(1 / 45, 9)}


async def test_an_idle_budget_lets_a_request_go_at_once(clock: Clock) -> None:
    budget = RequestBudget(45, clock=clock)
    assert await budget.take() == 0
    clock.now += 5  # quiet for a while
    assert await budget.take() == 0


async def test_a_fractional_share_keeps_its_rate(clock: Clock) -> None:
    budget = RequestBudget(22.5, clock=clock)  # two processes sharing 45
    start = clock()
    for _ in range(91):
        await budget.take()
    assert budget.taken == 91
    assert clock() - start == pytest.approx(90 / 22.5)


async def test_a_scaled_budget_spaces_its_requests_within_the_window(clock: Clock) -> None:
    budget = RequestBudget(2, per=0.05, clock=clock)  # a fake Discord 20 times faster
    sent = []
    for _ in range(10):
        await budget.take()
        sent.append(clock())
    assert sent[-1] - sent[0] == pytest.approx(9 * 0.025)


async def test_waiters_go_in_the_order_they_came(clock: Clock) -> None:
    budget = RequestBudget(2, clock=clock)
    order: list[int] = []

    async def one(i: int) -> None:
        await budget.take()
        order.append(i)

    await asyncio.gather(*(one(i) for i in range(8)))
    assert order == list(range(8))
    assert budget.waited > 0


def test_a_cluster_splits_the_budget_by_the_shards_each_process_runs() -> None:
    assert Config().request_rate == 45
    env = {
        "MT_SHARD_COUNT": "4",
        "MT_SHARD_IDS": "0,1,2",
        "MT_DATABASE": "postgresql://mt@localhost/mt",
    }
    assert Config.from_env(env).request_rate == pytest.approx(45 * 3 / 4)
    assert Config.from_env({**env, "MT_DISCORD_RATE": "10"}).request_rate == 10
    assert Config.from_env({"MT_DISCORD_RATE": "12.5"}).request_rate == 12.5


@pytest.mark.parametrize("raw", ["0", "-1", "51", "fast", "nan"])
def test_a_rate_beyond_discords_limit_is_one_clear_line(raw: str) -> None:
    with pytest.raises(ConfigError, match="MT_DISCORD_RATE"):
        Config.from_env({"MT_DISCORD_RATE": raw})
