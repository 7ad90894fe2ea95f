"""``/play``'s ``tile`` and ``train`` options as transformers (:mod:`bot.ui.options`):
the option Discord is told about, the tile read before the command runs (any dash, either
end first), and the refusals the reading makes, each answered once and changing nothing."""

from __future__ import annotations

from collections.abc import Callable

from discord import AppCommandOptionType, app_commands

from bot.app import MexicanTrainBot
from bot.engine import Play
from bot.ui.options import TileOption, TrainOption
from tests.e2e.helpers import open_game, said, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_the_options_discord_is_told_about_are_text_of_bounded_length_with_autocomplete(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    bot = make_bot()
    async with running_bot(fake_discord, bot):
        command = bot.tree.get_command("play")
    assert isinstance(command, app_commands.Command)
    params = {p.name: p for p in command.parameters}
    for name, longest, required in (("tile", 16, True), ("train", 40, False)):
        param = params[name]
        assert param.type is AppCommandOptionType.string
        assert (param.min_value, param.max_value) == (1, longest)
        assert param.autocomplete and param.required is required
    assert TileOption().max_value == 16 and TrainOption().max_value == 40


async def test_a_typed_tile_is_read_with_any_dash_and_either_end_first(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        uid, view = await to_move(bot, game.id)
        me = alice if uid == alice.id else bob
        version = (await bot.service.game(game.id)).version

        # Refusals from reading the tile: the set's bound, then text that is no tile.
        answer = await said(await me.slash("play", channel=games, tile="13\u20132"))
        assert answer.ephemeral and "13-2 is not in a double-12 set" in answer.text
        answer = await said(await me.slash("play", channel=games, tile="banana"))
        assert answer.ephemeral and "can't read" in answer.text
        # No game in the channel comes first, whatever was typed.
        elsewhere = fake.channel("elsewhere")
        answer = await said(await me.slash("play", channel=elsewhere, tile="banana"))
        assert answer.ephemeral and "There is no game in this channel" in answer.text
        assert (await bot.service.game(game.id)).version == version

        # A legal tile typed low end first with an em dash (a phone's autocorrect), and its
        # train as autocomplete offers it: played.
        play = next(m for m in view.legal if isinstance(m, Play))
        typed = f"{play.tile.low}\u2014{play.tile.high}"
        trains = await me.autocomplete("play", focused="train", channel=games, tile=typed)
        train = str(play).split()[1]
        assert train in {c["value"] for c in trains}
        answer = await said(await me.slash("play", channel=games, tile=typed, train=train))
        assert answer.text.startswith("✅"), answer.text
        assert (await bot.service.game(game.id)).version > version
