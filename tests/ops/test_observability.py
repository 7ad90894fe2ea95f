"""One log line per interaction, and /healthz and /metrics answering real HTTP requests."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.ops.health import HealthServer, parse_metrics
from bot.ops.logs import JsonFormatter, TextFormatter, one_line
from bot.ops.metrics import GAME_READS, Metrics, command_of, key_values, percentile
from tests.e2e.helpers import said
from tests.fakediscord import FakeDiscord, running_bot


def test_percentiles_are_nearest_rank_over_a_sliding_window() -> None:
    assert percentile([], 0.5) == 0.0
    ordered = [float(i) for i in range(1, 101)]
    assert [percentile(ordered, q) for q in (0.5, 0.9, 0.99, 1.0)] == [50, 90, 99, 100]
    assert percentile([float(i) for i in range(1, 11)], 0.7) == 7.0
    metrics = Metrics(window=3)
    for outcome, seconds in [("ok", 9.0), ("ok", 1.0), ("refused:no-fit", 2.0), ("error", 3.0)]:
        metrics.begin()
        metrics.end(outcome, seconds)
    assert metrics.interactions == 4 and metrics.in_flight == 0 and metrics.errors == 1
    assert metrics.refusals == {"no-fit": 1} and metrics.outcomes["ok"] == 2
    assert metrics.latency_percentiles() == {"p50": 2.0, "p90": 3.0, "p99": 3.0}  # 9.0 left


def test_log_lines_are_key_value_or_json() -> None:
    fields = {"game": 3, "user": 42, "command": "mt new", "outcome": "ok", "latency_ms": 1.5}
    assert key_values(fields) == 'game=3 user=42 command="mt new" outcome=ok latency_ms=1.5'
    assert key_values({"game": None}) == "game=-"
    record = logging.LogRecord("bot.interactions", logging.INFO, "", 0, "x", None, None)
    record.mt_fields = fields
    entry = json.loads(JsonFormatter().format(record))
    assert entry["msg"] == "interaction" and entry["level"] == "INFO"
    assert {k: entry[k] for k in fields} == fields
    plain = logging.LogRecord("discord", logging.WARNING, "", 0, "hello %s", ("you",), None)
    assert json.loads(JsonFormatter().format(plain))["msg"] == "hello you"
    assert TextFormatter().format(plain).endswith("Z WARNING discord: hello you")


#: What a forged custom_id or a name may carry into a log line to start a line of its own,
#: or to hide or reorder what follows.
BREAKERS = ["\n", "\r", "\r\n", "\t", "\x00", "\x1b[2J", "\x7f", "\x85", "\x9b", "\u2028",
            "\u2029", "\u200b", "\u202e", "\u2066", "\ufeff", "\x0b", "\x0c", "\x1c"]  # fmt: skip


@pytest.mark.parametrize("breaker", BREAKERS)
def test_a_value_never_breaks_or_forges_a_log_line(breaker: str) -> None:
    forged = f"mt:1:2:draw{breaker}1999-12-31T23:59:59.000Z CRITICAL bot.run: gone"
    line = key_values({"game": 1, "command": forged, "outcome": "ok"})
    assert line.isprintable() and breaker not in line, line
    assert line.startswith('game=1 command="mt:1:2:draw\\') and line.endswith(" outcome=ok")
    assert json.loads(line.split("command=", 1)[1].rsplit(" outcome=", 1)[0]) == forged
    bare = key_values({"command": f"mt:1:2:draw{breaker}CRITICAL"})  # no space to quote it
    assert bare.isprintable() and breaker not in bare and json.loads(bare[8:]).endswith("CRITICAL")
    # Any message, in the text format: one line, every such character escaped.
    record = logging.LogRecord("bot.ui", logging.INFO, "", 0, "custom_id %s", (forged,), None)
    text = TextFormatter().format(record)
    assert text.isprintable() and "\n" not in text and breaker not in text, text
    assert text.endswith(one_line(forged)) and "Z INFO bot.ui: custom_id mt:1:2:draw\\" in text
    assert "1999-12-31T23:59:59.000Z CRITICAL" in text  # still there, inside the one line
    json_line = JsonFormatter().format(record)
    assert "\n" not in json_line and json.loads(json_line)["msg"] == f"custom_id {forged}"


def test_a_traceback_still_follows_its_one_line_message() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord(
            "bot", logging.ERROR, "", 0, "failed on %s", ("a\nb",), sys.exc_info()
        )
    first, *rest = TextFormatter().format(record).splitlines()
    assert first.endswith("ERROR bot: failed on a\\nb")
    assert rest[0] == "Traceback (most recent call last):" and rest[-1] == "ValueError: boom"


def test_plain_values_stay_plain() -> None:
    assert (
        key_values({"user": "Zoé", "command": "mt:lobby:join"}) == "user=Zoé command=mt:lobby:join"
    )
    assert key_values({"command": "a b"}) == 'command="a b"'


def test_buttons_name_their_action_and_game() -> None:
    class Click:
        command = None

        def __init__(self, custom_id: str) -> None:
            self.data = {"custom_id": custom_id}

    assert command_of(Click("mt:12:345:play")) == ("mt:play", 12)
    assert command_of(Click("mt:7:lobby:join")) == ("mt:lobby:join", 7)
    # A forged id: only ASCII digits right after "mt:" name a game; nothing raises.
    assert command_of(Click("mt:²:1:dm:draw")) == ("mt:²:dm:draw", None)
    assert command_of(Click("mt:\u0663:1:draw")) == ("mt:\u0663:draw", None)
    assert command_of(Click("mt:\uff11:lobby:join")) == ("mt:\uff11:lobby:join", None)
    assert command_of(Click("mt:" + "9" * 5000 + ":1:draw"))[1] is None
    assert command_of(Click("x:5:draw")) == ("x:draw", None)


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[MexicanTrainBot]:
    yield create_bot(
        Config(database=tmp_path / "db.sqlite3", synchronous="NORMAL", render_workers=0)
    )


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


@pytest.mark.expect_errors(logger="bot.ui.interactions", match=r"RuntimeError: a bug")
async def test_each_interaction_is_logged_once_and_counted_and_served_over_http(
    fake_discord: FakeDiscord, bot: MexicanTrainBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    health = HealthServer(bot, "127.0.0.1", 0)
    await health.start()
    try:
        status, body = await _get(health.url + "/healthz")
        assert status == 503 and json.loads(body)["status"] == "starting"
        caplog.set_level(logging.INFO, logger="bot.interactions")
        async with running_bot(fake, bot):
            status, body = await _get(health.url + "/healthz")
            assert status == 200, body
            assert json.loads(body) | {"uptime_s": 0} == {
                "status": "ok", "gateway": True, "database": True, "uptime_s": 0,
            }  # fmt: skip
            alice, bob, games = fake.user("alice"), fake.user("bob"), fake.channel("games")
            # (said: the host's answer, then the card that follows it as a followup)
            await said(await alice.slash("mt new", channel=games))
            refused = await (await bob.slash("mt start", channel=games)).message()
            assert refused.ephemeral
            lobby = games.last_message()
            assert lobby is not None
            await (await bob.click(lobby, label="Join")).message()

            async def broken(*args: object, **kwargs: object) -> None:
                raise RuntimeError("a bug")

            bot.service.leave = broken  # type: ignore[method-assign]
            await (await bob.slash("mt leave", channel=games)).message()

            status, text = await _get(health.url + "/metrics")
            assert status == 200
            metrics = parse_metrics(text)
        status, body = await _get(health.url + "/healthz")  # closed: gateway and store gone
        assert status == 503 and json.loads(body)["gateway"] is False
    finally:
        await health.stop()

    lines = [r for r in caplog.records if r.name == "bot.interactions"]
    seen = [(r.mt_fields["command"], r.mt_fields["outcome"], r.mt_fields["game"]) for r in lines]
    assert seen == [
        ("mt new", "ok", 1),
        ("mt start", "refused:not-host", 1),
        ("mt:lobby:join", "ok", 1),
        ("mt leave", "error", 1),
    ]
    assert all(r.mt_fields["user"] and r.mt_fields["latency_ms"] >= 0 for r in lines)
    assert lines[0].getMessage().startswith("interaction game=1 user=")

    p, one = "mexican_train_", '{process="all"}'
    assert metrics[p + "interactions_total" + one] == 4
    assert metrics[p + 'interaction_outcomes_total{outcome="ok",process="all"}'] == 2
    assert metrics[p + 'refusals_total{code="not-host",process="all"}'] == 1
    assert metrics[p + "errors_total" + one] == 1
    assert metrics[p + 'games{process="all",status="lobby"}'] == 1
    assert metrics[p + "gateway_connected" + one] == 1 and metrics[p + "database_up" + one] == 1
    # A histogram: cumulative buckets up to +Inf, which is every interaction.
    latency = p + "interaction_latency_seconds"
    assert metrics[latency + "_count" + one] == 4 and metrics[latency + "_sum" + one] > 0
    buckets = [v for k, v in metrics.items() if k.startswith(latency + "_bucket")]
    assert buckets == sorted(buckets) and buckets[-1] == 4
    assert metrics[f'{latency}_bucket{{le="+Inf",process="all"}}'] == 4
    assert (
        metrics[p + "uptime_seconds" + one] > 0 and metrics[p + "interactions_in_flight" + one] == 0
    )
    # The lobby's card has no picture; the render pool's series are there, at zero.
    assert (
        metrics[p + "render_queue" + one] == 0 and metrics[p + "render_superseded_total" + one] == 0
    )
    assert metrics[p + 'render_failures_total{process="all",reason="crashed"}'] == 0
    # The game cache: the lobby was read through it, and it holds that one game.
    loads = [metrics[f'{p}game_loads_total{{process="all",read="{r}"}}'] for r in GAME_READS]
    assert sum(loads) >= 1 and metrics[p + "games_cached" + one] == 1
    assert metrics[p + "game_cache_size" + one] >= 1


def test_histograms_pictures_rate_limits_and_the_process_label() -> None:
    """What the Prometheus text holds for one process of a cluster: every series labelled
    with its shards, pictures and rate-limit waits as histograms by kind and scope."""
    from prometheus_client import generate_latest

    from bot.ops.metrics import Scrape, process_label

    cluster = Config.from_env(
        {"MT_DATABASE": "postgresql://mt:pw@db/mt", "MT_SHARD_COUNT": "4", "MT_SHARD_IDS": "2,3"}
    )
    assert process_label(cluster) == "2,3" and process_label(Config()) == "all"
    metrics = Metrics(process="2,3")
    metrics.picture("table", 0.12)
    metrics.picture("table", 0.3)
    metrics.picture_fallback("hand")
    metrics.rate_limit_wait("channel", 1.5)
    metrics.rate_limit_wait("global", -1)  # a clock gone backwards counts as no wait
    metrics.scrape = Scrape(
        gateway_connected=True, gateway_latency=0.05, games={"active": 3},
        render_queued=2, render_drawing=1,
        render_stats={"superseded": 5, "restarts": 1, "crashed": 1},
        game_loads={"hit": 7, "tail": 2}, games_cached=4, game_cache_size=512,
    )  # fmt: skip
    text = generate_latest(metrics.registry).decode()
    got = parse_metrics(text)
    p, one = "mexican_train_", '{process="2,3"}'
    assert got[p + 'picture_seconds_count{kind="table",process="2,3"}'] == 2
    assert got[p + 'picture_seconds_bucket{kind="table",le="0.25",process="2,3"}'] == 1
    assert got[p + 'picture_fallbacks_total{kind="hand",process="2,3"}'] == 1
    assert got[p + 'rate_limit_wait_seconds_sum{process="2,3",scope="channel"}'] == 1.5
    assert got[p + 'rate_limit_wait_seconds_bucket{le="0.01",process="2,3",scope="global"}'] == 1
    assert got[p + "render_queue" + one] == 2 and got[p + "render_drawing" + one] == 1
    assert got[p + "render_superseded_total" + one] == 5
    assert got[p + "render_worker_restarts_total" + one] == 1
    assert got[p + 'game_loads_total{process="2,3",read="tail"}'] == 2
    assert got[p + 'game_loads_total{process="2,3",read="whole"}'] == 0
    assert got[p + "games_cached" + one] == 4 and got[p + "game_cache_size" + one] == 512
    assert got[p + 'games{process="2,3",status="active"}'] == 3
    assert got[p + 'games{process="2,3",status="lobby"}'] == 0
    assert "# TYPE mexican_train_interaction_latency_seconds histogram" in text
    assert "quantile" not in text and "_created" not in text
    assert all('process="2,3"' in key for key in got), [k for k in got if "2,3" not in k]
