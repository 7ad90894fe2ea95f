"""``/mt catchup`` and the Catch me up button: what happened since your last turn, with the
table and your hand, answered privately.

The command joins ``/mt`` while the cog is loaded (:mod:`bot.ui.mt`). It works in the game's
channel and in a DM, where it finds the user's most recently active game as ``/hand`` does. The
button (:class:`~bot.ui.components.CatchUpButton`) carries its game in its ``custom_id``; the
announcer puts it on turn posts and turn DMs, and it passes ``check_place`` (the game's channel,
or a DM to one of its players). Both answer with one ephemeral message (free of Discord's global
rate limit): the digest in words (:mod:`bot.ui.catchup` over ``GameService.digest``), the table
picture and, for a player, the hand picture. A user without a seat gets the last moves and the
table, never a hand.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.i18n import tr
from bot.service import GameStatus, GameSummary
from bot.ui import components, dmturn, mt, roundend
from bot.ui.catchup import catchup_text
from bot.ui.components import CatchUpButton
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, answer, bot_of, guarded, locale_of, my_game
from bot.ui.mt import GameCog
from bot.ui.refusals import Refusal

#: The digest's share of the answer's embed (Discord allows 4,096 characters in a
#: description and 6,000 in all the embeds of a message; the hand's text takes the rest).
DIGEST_BUDGET = 2000
HAND_TEXT_LIMIT = 2500


async def show_catchup(interaction: Interaction, game: GameSummary) -> None:
    """Answer ``interaction`` (already deferred, privately) with the catch-up of ``game``."""
    bot, locale = bot_of(interaction), locale_of(interaction)
    if game.status is GameStatus.LOBBY or game.round_no is None:
        raise Refusal("error.not-started")
    uid = interaction.user.id
    digest = await bot.service.digest(game.id, uid)
    if game.status is GameStatus.FINISHED:
        # What happened since their last turn, then how it ended: the final post again.
        lines = [tr("re.table-over", locale, game=game.id), catchup_text(digest, locale, 1500)]
        embed, files = await roundend.round_end_post(bot, game, None, locale, lines=lines)
        await answer(interaction, embed=embed, files=files)
        return
    table = await bot.service.table_view(game.id)
    embed = discord.Embed(
        title=tr(
            "catchup.title",
            locale,
            game=game.id,
            round=table.round_no + 1,
            rounds=table.rounds_total,
        ),
        description=catchup_text(digest, locale, DIGEST_BUDGET) or None,
    )
    files = await bot.pictures.table_attached(embed, table, game.players, locale)
    embeds = [embed]
    if digest.seat is not None:  # a player: their own hand, which only they see here
        view = await bot.service.seat_view(game.id, uid)
        tiles = (await bot.service.user_settings(uid)).tiles
        hand = discord.Embed(
            title=tr("catchup.hand-title", locale),
            # Without its title line (the embed's title says "Your hand"), whose turn said
            # once (the digest's), where the tiles fit grouped by train.
            description=dmturn.hand_lines(
                view, game, locale, turn_said=True, hints=game.options.hints
            ).split("\n", 1)[-1][:HAND_TEXT_LIMIT],
        )
        picture = await bot.pictures.hand_attached(view, game.options.hints, locale, tiles)
        if picture is not None:
            hand.set_image(url=f"attachment://{picture.filename}")
            files.append(picture)
        embeds.append(hand)
    await answer(
        interaction, embeds=embeds, files=files, allowed_mentions=discord.AllowedMentions.none()
    )


async def _clicked(interaction: Interaction, item: CatchUpButton) -> None:
    async with guarded(interaction):
        await show_catchup(interaction, await bot_of(interaction).service.game(item.game_id))


class CatchUp(GameCog):
    """``/mt catchup``."""

    @mt.command(
        name="catchup",
        description="What happened since your last turn, with the table and your hand (only you)",
    )
    async def catchup(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            if interaction.guild is not None:  # the game here, or the match just finished
                game = await roundend.game_or_finished(interaction)
            else:
                game = await my_game(interaction)
            await show_catchup(interaction, game)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(CatchUp(bot))
    # Registered in setup_hook: a button on a post or DM sent before a restart answers again.
    components.listen(bot, CatchUpButton, _clicked)


async def teardown(bot: commands.Bot) -> None:
    components.unlisten(bot, CatchUpButton)
