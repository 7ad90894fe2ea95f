"""The thinking pool wired into the bot, seen where players see it: a game against a Hard
computer through the fake Discord, its moves chosen in a worker process and counted in
``/metrics``."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.ops.health import parse_metrics, render_metrics
from tests.e2e.helpers import (
    last_public,
    open_game,
    pick,
    said,
    settled,
    slash_move,
    to_move,
)
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, running_bot

MakeBot = Callable[..., MexicanTrainBot]


def thinking_bot(make_bot: MakeBot) -> MexicanTrainBot:
    """A bot with one thinking worker, its wall-clock limit raised from 10 s to 60 s: a
    loaded machine is slow, never wrong (a decision past the limit is a fallback, which
    these tests count)."""
    bot = make_bot(think_workers=1)
    assert bot.thinker.pool is not None
    bot.thinker.pool.timeout = 60.0
    return bot


async def play_on(bot: MexicanTrainBot, alice: FakeUser, ch: FakeChannel, game_id: int) -> None:
    """Alice starts the lobby, then makes up to 4 moves through Discord, each answered by the
    computer, until the round (the quick match) ends; then the computers settle."""
    await said(await alice.click(last_public(ch), label="Start"))
    for _ in range(4):
        if (await bot.service.game(game_id)).turn is None:
            break  # the round (the whole quick match) is over
        uid, view = await to_move(bot, game_id)
        assert uid == alice.id
        await slash_move(alice, ch, str(pick(view.legal)))
    await settled(bot, game_id)


async def decided_in_the_worker(
    bot: MexicanTrainBot, level: str, *, at_least: int
) -> dict[str, float]:
    """Every computer decision of the game was made in the worker (none inline, none fallen
    back), and ``/metrics`` counts each one, its CPU time and its wait; the parsed metrics."""
    decided = bot.thinker.stats
    assert decided["worker"] >= at_least and decided["fallback"] == 0 and decided["inline"] == 0
    metrics = parse_metrics((await render_metrics(bot)).decode())
    labels = f'level="{level}",process="all"'
    assert (
        metrics[f'mexican_train_computer_decisions_total{{{labels},where="worker"}}']
        == decided["worker"]
    )
    for histogram in ("decision_cpu_seconds", "decision_seconds"):
        assert metrics[f"mexican_train_computer_{histogram}_count{{{labels}}}"] == decided["worker"]
    return metrics


async def test_a_hard_computer_thinks_in_a_worker_and_the_game_plays_on(
    fake_discord: FakeDiscord, make_bot: MakeBot
) -> None:
    fake = fake_discord
    bot = thinking_bot(make_bot)
    alice, ch = fake.user("alice"), fake.channel("games")
    async with running_bot(fake, bot):
        # Started and warm in setup_hook, before the gateway: before any interaction.
        assert len(bot.thinker.pids) == 1
        game = await open_game(fake, bot, ch, alice, [], start=False, preset="quick")
        added = await said(
            await alice.select(
                last_public(ch), values=["hard"], custom_id=f"mt:{game.id}:lobby:cpu"
            )
        )
        assert "Computer player added" in added.text
        await play_on(bot, alice, ch, game.id)
        await decided_in_the_worker(bot, "hard", at_least=3)


async def test_a_host_adds_an_expert_and_it_thinks_in_a_worker(
    fake_discord: FakeDiscord, make_bot: MakeBot
) -> None:
    fake = fake_discord
    bot = thinking_bot(make_bot)
    alice, ch = fake.user("alice"), fake.channel("games")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, ch, alice, [], start=False, preset="quick")
        added = await said(await alice.slash("mt computer", channel=ch, level="expert"))
        assert "Computer player added" in added.text
        assert "expert" in (last_public(ch).embeds[0].get("fields") or [{}])[0].get("value", "")
        await play_on(bot, alice, ch, game.id)
        metrics = await decided_in_the_worker(bot, "expert", at_least=2)
        # The Expert's CPU budget holds in the worker: 0.8 s, checked between worlds.
        expert = 'level="expert",process="all"'
        within = f'mexican_train_computer_decision_cpu_seconds_bucket{{le="2.0",{expert}}}'
        assert metrics[within] == bot.thinker.stats["worker"]
