"""The defects of issue 26, each as a player meets it: answered privately, in one clear
sentence, in their language, changing nothing, and never an ERROR line."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import MexicanTrainBot
from tests.e2e.helpers import game_here, last_public, open_game, said, to_move
from tests.fakediscord import WAIT, FakeDiscord, running_bot

#: The issue's custom ids that matched nothing (``{g}``: the game in the channel).
MANGLED = (
    "mt:abc:5:draw",
    "mt:{g}:5:nuke",
    "mt:{g}:-1:draw",
    "mt:{g}:hist:-5:older",
    "mt:{g}:lobby:nuke",
    "mt",
    "",
)


async def test_custom_ids_that_match_nothing_say_so_and_show_the_game(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    games, quiet = fake.channel("games"), fake.channel("quiet")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol", locale="fr")
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        game = await open_game(fake, bot, games, alice, [bob])
        table = last_public(games)
        before = (await bot.service.game(game.id)).version
        with caplog.at_level(logging.INFO):
            for custom_id in MANGLED:
                answer = await said(
                    await bob.forge_click(table, custom_id=custom_id.format(g=game.id))
                )
                assert answer.ephemeral, custom_id
                assert answer.text.startswith(
                    "This button no longer works; here is the game now:\n"
                    f"**Game #{game.id}** — in play"
                ), (custom_id, answer.text)
            french = await said(await carol.forge_click(table, custom_id="mt:0:0:nuke"))
            assert french.text.startswith("Ce bouton ne marche plus ; voici la partie maintenant")
            # Where no game is, there is nothing to show: the answer says how to open one.
            nothing = await said(await alice.slash("mt status", channel=quiet))
            none = await said(await alice.forge_click(nothing, custom_id="mt:abc"))
            assert none.text == (
                "This button no longer works, and there is no game in this channel now. "
                "`/mt new` opens one."
            )

            def logged() -> bool:  # an answer shows before its log line is written
                lines = [str(getattr(r, "mt_fields", {}).get("outcome")) for r in caplog.records]
                stale = [line for line in lines if line.startswith("refused:stale-button")]
                return len(stale) == len(MANGLED) + 2

            await fake.wait_for(logged, timeout=WAIT, what="one log line per click")
        assert (await bot.service.game(game.id)).version == before
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_a_forged_level_is_refused_after_the_host_check(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    lobby_channel = fake.channel("lobby")
    host, stranger = fake.user("host", locale="fr"), fake.user("stranger")
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        await said(await host.slash("mt new", channel=lobby_channel))
        card = last_public(lobby_channel)
        lobby = await game_here(bot, lobby_channel)
        cpu = f"mt:{lobby.id}:lobby:cpu"
        with caplog.at_level(logging.INFO):
            theirs = await said(await stranger.forge_click(card, custom_id=cpu, values=["godlike"]))
            assert theirs.text.startswith("Only the host"), theirs.text
            mine = await said(await host.forge_click(card, custom_id=cpu, values=["godlike"]))
            assert mine.text == (
                "`niveau` ne peut pas valoir « godlike » : choisis parmi Facile, Normal, "
                "Difficile, Expert. Rien n'a changé."
            ), mine.text
            forged = await said(await host.forge_slash("mt computer", channel=lobby_channel,
                                                       level="godlike"))  # fmt: skip
            assert forged.text.startswith("`niveau` ne peut pas valoir « godlike »")
        assert len((await bot.service.game(lobby.id)).players) == 1
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_long_input_is_refused_in_a_short_answer_that_arrives(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """The issue's 2,000 "x" tile made a 2,059-character refusal Discord would not take: the
    player stayed on "thinking…". Every text option now has a max_length, checked again by
    the bot, and an answer repeats at most a few words of the input."""
    fake = fake_discord
    games, alice, bob = fake.channel("games"), fake.user("alice"), fake.user("bob")
    async with running_bot(fake, make_bot()) as bot:
        assert isinstance(bot, MexicanTrainBot)
        game = await open_game(fake, bot, games, alice, [bob])
        uid, _ = await to_move(bot, game.id)
        mover = alice if uid == alice.id else bob
        for path, options, expected in (
            ("play", {"tile": "x" * 2000, "train": "mexican"}, "`tile` is too long: at most 16"),
            ("play", {"tile": "12-5", "train": "x" * 2000}, "`train` is too long: at most 40"),
            ("mt me", {"time_zone": "x" * 2000}, "`time_zone` is too long: at most 64"),
        ):
            invocation = await mover.forge_slash(path, channel=games, **options)
            answer = await said(invocation)
            assert answer.text.startswith(expected), answer.text
            assert len(answer.text) < 120 and not invocation.rejections
        # Within the limits, what was typed comes back short and inert.
        typed = await said(await mover.slash("play", channel=games, tile="@everyone"))
        assert "@\u200beveryone" in typed.text and len(typed.text) < 200, typed.text
        schema = {o["name"]: o for o in fake.commands()["play"]["options"]}
        assert (schema["tile"]["max_length"], schema["train"]["max_length"]) == (16, 40)


async def test_every_text_option_of_every_command_has_a_max_length(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Discord refuses longer text in the client; a string option without a bound would let
    2,000 characters through to the bot's answers. Read from what the bot synced."""
    unbounded: list[str] = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        for option in options:
            name = f"{path} {option['name']}"
            if option["type"] in (1, 2):
                walk(name, option.get("options") or [])
            elif option["type"] == 3 and not option.get("max_length"):
                unbounded.append(name)

    async with running_bot(fake_discord, make_bot()):
        synced = fake_discord.commands()
    assert len(synced) > 5
    for name, command in synced.items():
        walk(f"/{name}", command.get("options") or [])
    assert unbounded == []
