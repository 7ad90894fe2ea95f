"""The fake's rate limits: Discord's headers, buckets, 429s and counting, checked two ways.

A plain HTTP client that ignores the headers shows what the fake answers (and counts as
violations); the demo bot shows that the unmodified discord.py client follows the buckets
and the 429s. Time is scaled (``time_scale``) so a bucket's window fits in a test: slowed
down where a test must send many requests inside one window, sped up where it waits one out.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord, fake_discord, running_bot
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.ratelimit import ROUTE_LIMITS
from tests.fakediscord.server import API_PREFIX

POST = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
ANSWER = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"  # @original


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def post(
    http: aiohttp.ClientSession, fake: FakeDiscord, channel_id: int, token: str = "fake-token"
) -> aiohttp.ClientResponse:
    """A channel post the way a careless client sends it: headers ignored."""
    url = f"{fake.base_url}{API_PREFIX}/channels/{channel_id}/messages"
    headers = {"Authorization": f"Bot {token}"}
    async with http.post(url, json={"content": "hi"}, headers=headers) as answer:
        await answer.read()
        return answer


async def test_every_answer_carries_the_buckets_headers_and_a_full_bucket_answers_429(
    http: aiohttp.ClientSession,
) -> None:
    # Slowed down ten times: the five posts surely fall in one window of 5 s (50 s real).
    async with fake_discord(rate_limits=True, time_scale=0.1) as fake:
        games, lobby = fake.channel("games"), fake.channel("lobby")
        answers = [await post(http, fake, games.id) for _ in range(5)]
        assert [a.status for a in answers] == [200] * 5
        assert [a.headers["X-RateLimit-Remaining"] for a in answers] == ["4", "3", "2", "1", "0"]
        assert {a.headers["X-RateLimit-Limit"] for a in answers} == {"5"}
        hashes = {a.headers["X-RateLimit-Bucket"] for a in answers}
        assert len(hashes) == 1
        reset_after = float(answers[-1].headers["X-RateLimit-Reset-After"])
        assert 40 < reset_after <= 50  # 5 s of Discord time, told in real seconds
        assert abs(float(answers[-1].headers["X-RateLimit-Reset"]) - time.time() - reset_after) < 1

        refused = await post(http, fake, games.id)
        assert refused.status == 429
        assert refused.headers["X-RateLimit-Scope"] == "user"
        assert refused.headers["Via"] and "X-RateLimit-Global" not in refused.headers
        assert int(refused.headers["Retry-After"]) >= 40
        body = await refused.json()
        assert body["global"] is False and 40 < body["retry_after"] <= 50
        assert body["message"] == "You are being rate limited."

        # Another channel is another bucket of the same route: same hash, full again.
        other = await post(http, fake, lobby.id)
        assert other.status == 200 and other.headers["X-RateLimit-Remaining"] == "4"
        assert other.headers["X-RateLimit-Bucket"] in hashes

        report = fake.budget_report()
        assert report["routes"][POST] == {
            "global_limited": 7,
            "exempt": 0,
            "webhook": 0,
            "rate_limited": 1,
        }
        assert report["rate_limited"] == {"global": 0, "user": 1, "shared": 0}
        # The sixth post went into a bucket the fake had said was empty.
        (violation,) = fake.violations
        assert (violation.route, violation.scope) == (POST, "user")
        assert violation.path.endswith(f"/channels/{games.id}/messages")
        assert report["violations"] == 1


async def test_the_global_limit_is_50_per_second_per_token_shared_by_its_processes(
    http: aiohttp.ClientSession,
) -> None:
    async with fake_discord(rate_limits=True, time_scale=0.1) as fake:
        channels = [fake.channel(f"table-{i}") for i in range(11)]
        answers = [await post(http, fake, c.id) for c in channels for _ in range(5)]
        assert [a.status for a in answers].count(200) == 50
        refused = [a for a in answers if a.status == 429]
        assert len(refused) == 5
        for answer in refused:
            assert answer.headers["X-RateLimit-Global"] == "true"
            assert answer.headers["X-RateLimit-Scope"] == "global"
            assert (await answer.json())["global"] is True
        # Another process of the same bot (another connection, same token) is refused too;
        # another bot is not.
        async with aiohttp.ClientSession() as second_process:
            assert (await post(second_process, fake, channels[-1].id)).status == 429
        assert (await post(http, fake, channels[-1].id, token="another-bot")).status == 200
        report = fake.budget_report()
        assert report["rate_limited"]["global"] == 6
        # Every refused request but the first came after the fake had said "wait".
        assert [v.scope for v in fake.violations] == ["global"] * 5


async def test_discordpy_follows_the_buckets_without_a_single_429() -> None:
    # Ten times faster: 5 posts per 0.5 s in one channel.
    async with fake_discord(rate_limits=True, time_scale=10) as fake:
        async with running_bot(fake, DemoBot(guild_id=fake.guild_id)):
            games = fake.channel("games")
            started = time.monotonic()
            burst = await fake.user("alice").slash("burst", channel=games, count=12)
            assert (await burst.followup(0, timeout=10)).content == "Sent 12 of 12"
            took = time.monotonic() - started
            posts = fake.requests_to(POST)
            assert [p.status for p in posts] == [200] * 12
            # Three windows: 5 + 5 + 2 posts, each window waited out by discord.py.
            assert took >= 1.0
            first_of_third = sorted(p.at for p in posts)[10]
            assert first_of_third - posts[0].at >= 1.0
        report = fake.budget_report()
        assert report["rate_limited"] == {"global": 0, "user": 0, "shared": 0}
        assert report["violations"] == 0


async def test_interaction_endpoints_are_exempt_from_the_global_limit() -> None:
    """The callback gets through a global storm that refuses the channel post, and
    discord.py waits every retry_after before posting again. The storm lasts until the test
    lifts it (after the refusals it needs), and every time checked is a gap between two
    arrivals the fake stamped, which load can only lengthen: nothing depends on speed."""
    async with fake_discord(rate_limits=True) as fake:
        async with running_bot(fake, DemoBot(guild_id=fake.guild_id)):
            games = fake.channel("games")
            storm = fake.storm(600.0, retry_after=0.2)  # every global-limited request refused
            announce = await fake.user("alice").slash("announce", channel=games, text="hello")
            answer = await announce.answer()
            assert answer.deferred  # mid-storm: a global-limited callback would still wait

            def refused_posts() -> int | None:
                count = sum(p.status == 429 for p in fake.requests_to(POST))
                return count if count >= 2 else None

            await fake.wait_for(refused_posts, timeout=10, what="two refused posts")
            assert games.messages() == []
            fake.limits.lift(storm)
            assert (await announce.followup(0)).content == "Posted (send_messages=True)"
            posts = fake.requests_to(POST)
            assert [p.status for p in posts[:-1]] == [429] * (len(posts) - 1)
            assert posts[-1].status == 200 and len(posts) >= 3
            for before, after in itertools.pairwise(posts):  # discord.py waited retry_after
                assert after.at - before.at >= 0.2 - 1e-3
            (callback,) = fake.requests_to(CALLBACK)
            assert callback.status < 300 and callback.at < posts[0].at
            assert [m.content for m in games.messages()] == ["hello"]
        report = fake.budget_report()
        assert report["routes"][CALLBACK] == {
            "global_limited": 0,
            "exempt": 1,
            "webhook": 0,
            "rate_limited": 0,
        }
        assert report["routes"][ANSWER]["exempt"] == 1
        assert report["rate_limited"]["global"] == len(posts) - 1
        assert report["violations"] == 0


async def test_a_storm_delays_posts_and_loses_none() -> None:
    async with fake_discord(rate_limits=True, time_scale=10) as fake:
        async with running_bot(fake, DemoBot(guild_id=fake.guild_id)):
            games = fake.channel("games")
            storm = fake.storm(3.0)  # 3 s of Discord time: 0.3 s here
            burst = await fake.user("alice").slash("burst", channel=games, count=3)
            assert (await burst.followup(0, timeout=10)).content == "Sent 3 of 3"
            delivered = [p for p in fake.requests_to(POST) if p.status == 200]
            assert len(delivered) == 3
            assert min(p.at for p in delivered) * 10 >= storm.until - 1e-3
            assert [m.content for m in games.messages()] == [f"burst {i}" for i in range(3)]
        assert fake.budget_report()["violations"] == 0


async def test_a_shared_storm_on_one_route_spares_the_others() -> None:
    async with fake_discord(rate_limits=True, time_scale=10) as fake:
        async with running_bot(fake, DemoBot(guild_id=fake.guild_id)) as bot:
            games = fake.channel("games")
            fake.storm(2.0, scope="shared", routes=[POST])
            dm = asyncio.ensure_future(bot.create_dm(bot.user))  # type: ignore[arg-type]
            burst = await fake.user("alice").slash("burst", channel=games, count=1)
            await dm  # another route: not refused
            assert (await burst.followup(0, timeout=10)).content == "Sent 1 of 1"
            refused = [p for p in fake.requests_to(POST) if p.status == 429]
            assert refused
        report = fake.budget_report()
        assert report["rate_limited"]["shared"] == len(refused)
        assert report["dm_opens"] == 1
        with pytest.raises(ValueError, match="exempt"):
            fake.storm(1.0, routes=[CALLBACK])


async def test_without_rate_limits_nothing_is_limited_but_everything_is_counted(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    answers = [await post(http, fake, games.id) for _ in range(8)]
    assert [a.status for a in answers] == [200] * 8
    assert all("X-RateLimit-Bucket" not in a.headers for a in answers)
    report = fake.budget_report()
    assert not report["enabled"]
    assert report["routes"][POST]["global_limited"] == 8 and report["violations"] == 0


def test_the_documented_limits_are_the_ones_applied() -> None:
    """The README's table names these numbers; a change here must change it there too."""
    lines = (Path(__file__).parent / "README.md").read_text().splitlines()
    for route, limit in ROUTE_LIMITS.items():
        documented = [line for line in lines if line.startswith(f"| `{route}`")]
        assert documented, f"{route} is not in the README's table"
        assert f"{limit.limit} per {limit.per:g} s" in documented[0], documented[0]
