"""A turn DM's control pressed: whether it may act now, and the DM's controls after.

A DM is one turn's, on the table it was sent for (:func:`stale_dm`): pressed after that turn
ended it refuses, saying whose turn it is and linking the live turn post; pressed after the
table changed (an earlier turn's DM of theirs, or the player drew in the channel) it says so
in one line and loses its move list, since its text shows a hand that is no more (issue 47).

After a move made from it (:func:`after_dm_move`) the DM keeps only Catch me up and the link,
through the click's own token (free). When the player moves again (a draw whose tile they
may play, a double, a new round they start, every other turn played for them), their moves
come with their own answer, beside their hand as it is now
(:func:`bot.ui.dmturn.tell_next_player`): no message shows a hand that is no more beside
the moves of today, and only the newest carries live move controls. A move picked from that
answer replaces it in place (the answer is the click's own message), so nothing is left to
quieten there.
"""

from __future__ import annotations

import discord

from bot.service import GameStatus, GameSummary
from bot.ui.components import recontrolled
from bot.ui.dmturn import dm_view, live_link
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of
from bot.ui.limits import shown
from bot.ui.refusals import Refusal
from bot.ui.roundend import result_link


async def turn_dm_view(
    bot: GameBot, game: GameSummary, user_id: int, lang: str | None
) -> discord.ui.View:
    """The controls of a turn DM to ``user_id`` for the game as it is now."""
    view = await bot.service.seat_view(game.id, user_id)
    return dm_view(game, view, await live_link(bot, game), lang, emojis=bot.tile_emojis.shown)


async def stale_dm(
    interaction: Interaction, game_id: int, version: int
) -> tuple[Refusal, discord.ui.View] | None:
    """Why a DM's control may not act now, with the controls that DM should show instead;
    None when it is the player's turn on the table the DM was sent for. After that turn:
    the refusal names whose turn it is and links the live post, and the DM keeps only Catch
    me up and the link. Same turn, table changed (the player drew elsewhere): one line, and
    the DM loses its move list too."""
    bot = bot_of(interaction)
    game = await bot.service.game(game_id)
    lang = str(interaction.locale)
    if game.status is not GameStatus.ACTIVE or game.turn is None:
        # The result (a thread game's beside its thread), not the archived thread's last post.
        link = await result_link(bot, game)
        return Refusal("dm.over", game=game.id, link=link), dm_view(game, None, link, lang)
    link = await live_link(bot, game)
    if game.turn.user_id != interaction.user.id:
        refusal = Refusal("dm.not-now", name=shown(game.turn.name), link=link)
        return refusal, dm_view(game, None, link, lang)
    if game.version != version:
        # An earlier turn's DM, or this turn's after a draw: its text shows a hand that is
        # no more, so it takes no move (issue 47): one line, and its move list goes.
        return Refusal("dm.changed", link=link), dm_view(game, None, link, lang)
    return None


async def after_dm_move(interaction: Interaction, game_id: int, version: int) -> None:
    """Once an action taken from a DM (``version``: the table its control was for) is
    announced: the DM keeps only Catch me up and the link — its hand is no more, and a
    player who moves again has their moves, beside their hand as it is now, in their
    answer. A DM on which nothing moved (a standing order queued for later) keeps the
    moves of the table it shows. A control on the player's own answer (a move again) needs
    nothing: the answer replaced that message in place."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        return
    bot = bot_of(interaction)
    game = await bot.service.game(game_id)
    lang = str(interaction.locale)
    mine = game.status is GameStatus.ACTIVE and game.turn is not None
    mine = mine and game.turn is not None and game.turn.user_id == interaction.user.id
    if mine and game.version == version:
        controls = await turn_dm_view(bot, game, interaction.user.id, lang)
    else:
        controls = dm_view(game, None, await live_link(bot, game), lang)
    await set_controls(interaction, controls)


async def set_controls(interaction: Interaction, controls: discord.ui.View) -> None:
    """Replace the controls of the DM the click was made on, through the click's own token
    (an edit of its message: no request against the bot's global limit). A card keeps its
    text and picture, its rows replaced (a V2 message is edited as a whole layout)."""
    message = interaction.message
    view: discord.ui.View | discord.ui.LayoutView = controls
    if message is not None and message.flags.components_v2:
        view = recontrolled(discord.ui.LayoutView.from_message(message, timeout=None), controls)
    try:
        if not interaction.response.is_done():
            await interaction.response.edit_message(view=view)
        else:
            await interaction.edit_original_response(view=view)
    except discord.HTTPException:
        pass  # cosmetic: the controls refuse by themselves when pressed
