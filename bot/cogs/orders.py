"""``/mt orders`` and the turn DM's one-tap standing order (issue 46).

A standing order queues the next tiles of the player's own train; the turn use case plays them
at their turns while its stops hold (:mod:`bot.service.orders`). It is set three ways, all
checked against the player's hand before anything changes:

* ``/mt orders queue: 5-7 7-2 2-9`` (and ``on_double:``, ``on_my_train:``, ``on_last_tile:``
  to keep or drop each stop; ``stop_order: True`` to cancel; no option: see it), in the game's
  channel or in a DM (the player's most recent game);
* ``/play 5-7 then: 7-2 2-9``: the move now, then the order (:mod:`bot.cogs.play`);
* the turn DM's button (:class:`~bot.ui.dmturn.DmOrderButton`), the train plan its hand
  picture marks: ``then`` plays its first tile now and queues the rest, ``queue`` queues it all
  from the next turn.
"""

from __future__ import annotations

import dataclasses

from discord import app_commands
from discord.ext import commands

from bot.cogs.play import make_move
from bot.engine import Play
from bot.i18n import tr
from bot.service.orders import Stops, check_chain, read_chain
from bot.ui import components, mt
from bot.ui.dmclick import after_dm_move, set_controls, stale_dm
from bot.ui.dmturn import DmOrderButton
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of, guarded, locale_of, my_game, reply
from bot.ui.mt import GameCog
from bot.ui.orders import order_text, shown_order


class Orders(GameCog):
    """``/mt orders``."""

    @mt.command(
        name="orders",
        description="See, set or cancel your standing order: the next tiles of your train",
    )
    @app_commands.describe(
        queue="The next tiles of your own train, in order, e.g. 5-7 7-2 2-9",
        stop_order="Cancel your standing order",
        on_double="Stop when a double is open anywhere (default: on)",
        on_my_train="Stop when someone plays on your train (default: on)",
        on_last_tile="Stop before leaving you one tile (default: on; off: the order knocks)",
    )
    async def orders(
        self,
        interaction: Interaction,
        queue: app_commands.Range[str, 1, 100] | None = None,
        stop_order: bool = False,
        on_double: bool | None = None,
        on_my_train: bool | None = None,
        on_last_tile: bool | None = None,
    ) -> None:
        bot, lang = bot_of(interaction), locale_of(interaction)
        uid = interaction.user.id
        async with guarded(interaction):
            game = await my_game(interaction)
            svc = bot.service.orders
            if stop_order:
                had = await svc.cancel(game.id, uid)
                await reply(interaction, tr("orders.cancelled" if had else
                                            "orders.cancelled.none", lang))  # fmt: skip
                return
            current = await svc.get(game.id, uid)
            stops = current.stops if current is not None else Stops()
            changes = {"double": on_double, "train": on_my_train, "last": on_last_tile}
            stops = dataclasses.replace(
                stops, **{k: v for k, v in changes.items() if v is not None}
            )
            if queue is not None:
                view = await bot.service.seat_view(game.id, uid)
                tiles = read_chain(queue[:200], view.rules.max_pip)
                order = await svc.set(game.id, uid, tiles, bot.now(), stops=stops)
                await reply(interaction, order_text(order, lang))
                return
            if any(v is not None for v in changes.values()):
                current = await svc.set_stops(game.id, uid, stops)
            await reply(interaction, shown_order(current, game.id, lang))


async def dm_order(interaction: Interaction, item: DmOrderButton) -> None:
    """The turn DM's one-tap order: the DM's turn checked first (an old DM refuses, as its
    other controls do); ``then``: its first tile played now on the player's train (the same
    path as any move from the DM), the rest queued; ``queue``: all of it queued."""
    controls = None
    bot, lang = bot_of(interaction), locale_of(interaction)
    async with guarded(interaction, defer_first="update"):
        stale = await stale_dm(interaction, item.game_id, item.version)
        if stale is not None:
            refusal, controls = stale
            raise refusal
        uid = interaction.user.id
        view = await bot.service.seat_view(item.game_id, uid)
        assert view.seat is not None
        tiles = read_chain(item.tiles.replace(".", " "), view.rules.max_pip)
        if item.how == "then" and tiles:
            move = Play(tiles[0], view.seat)
            check_chain(view, tiles[1:], after=move)
            await make_move(
                interaction, item.game_id, move, expected_version=item.version,
                then=tiles[1:], then_from=len(view.log),
            )  # fmt: skip
        else:
            order = await bot.service.orders.set(item.game_id, uid, tiles, bot.now())
            await reply(interaction, order_text(order, lang))
        await after_dm_move(interaction, item.game_id, item.version)
    if controls is not None:
        await set_controls(interaction, controls)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    await bot.add_cog(Orders(bot))
    components.listen(bot, DmOrderButton, dm_order)


async def teardown(bot: commands.Bot) -> None:
    components.unlisten(bot, DmOrderButton)
