"""The turn commands: `/play`, `/draw`, `/pass`, `/knock`, `/catch`, `/hand` and `/table`.

Top-level, because they are typed many times a game. ``/play`` autocompletes only the tiles
the player may legally play now, then only the trains the chosen tile fits; autocomplete is
a suggestion (Discord sends whatever was typed), so the service checks the move again and a
refusal changes nothing. Autocomplete cannot be deferred and must answer within 3 s: it makes
two cheap reads (the channel's game, the seat's view from the service's cache) and no writes.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import MexicanTrainBot
from bot.cogs import actions, render
from bot.cogs.common import Interaction, Refusal, bot_of, guarded, locale_of
from bot.cogs.extras import open_hands_text
from bot.cogs.pictures import table_png
from bot.engine import Catch, Play, SeatView, Tile, TileError
from bot.i18n import tr
from bot.service import ServiceError

MAX_CHOICES = 25


async def _my_view(interaction: Interaction) -> SeatView | None:
    """The user's view of this channel's game, or None (autocomplete then offers nothing)."""
    bot = bot_of(interaction)
    if interaction.channel_id is None:
        return None
    try:
        game = await bot.service.game_in_channel(interaction.channel_id)
        if game is None or game.turn is None:
            return None
        return await bot.service.seat_view(game.id, interaction.user.id)
    except ServiceError:
        return None


def _norm(text: str) -> str:
    return text.strip().replace("|", "-").replace(" ", "-").replace("--", "-")


def tile_choices(view: SeatView, typed: str, locale: str | None) -> list[app_commands.Choice[str]]:
    """The legal tiles matching what was typed (either end order), with where each goes."""
    typed = _norm(typed)
    out = []
    for tile, trains in render.plays_by_tile(view).items():
        text = str(tile)
        flipped = f"{tile.low}-{tile.high}"
        if typed and not (text.startswith(typed) or flipped.startswith(typed)):
            continue
        where = ", ".join(render.train_label(view.names, t, view.seat, locale) for t in trains)
        out.append(app_commands.Choice(name=f"{text} → {where}"[:100], value=text))
    return out[:MAX_CHOICES]


def train_choices(
    view: SeatView, tile_text: str | None, locale: str | None
) -> list[app_commands.Choice[str]]:
    """The trains the chosen tile legally fits (every legal train if the tile is unreadable)."""
    plays = render.plays_by_tile(view)
    try:
        tile: Tile | None = Tile.parse(tile_text or "", view.rules.max_pip)
    except TileError:
        tile = None
    trains: list[int] = []
    for t, where in plays.items():
        if tile is None or t == tile:
            trains.extend(w for w in where if w not in trains)
    return [
        app_commands.Choice(
            name=render.train_label(view.names, t, view.seat, locale), value=render.train_ref(t)
        )
        for t in trains
    ][:MAX_CHOICES]


class Play_(commands.Cog, name="Play"):
    def __init__(self, bot: MexicanTrainBot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Play a tile on a train")
    @app_commands.guild_only()
    @app_commands.describe(
        tile="The tile, e.g. 12-5 (the list shows only tiles you can play)",
        train="Where: mexican, or @N for seat N's train (the list shows where it fits)",
        knock="Knock with this move if it leaves you one tile (knock rule)",
    )
    async def play(
        self, interaction: Interaction, tile: str, train: str | None = None, knock: bool = False
    ) -> None:
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            view = await self.bot.service.seat_view(game.id, interaction.user.id)
            picked = actions.parse_tile(tile, view.rules.max_pip)
            move = actions.check_notation(actions.choose_train(view, picked, train), view)
            if not isinstance(move, Play):
                raise Refusal("error.which-train", tile=str(picked))
            await actions.make_move(interaction, game.id, move, knock=knock)

    @play.autocomplete("tile")
    async def _tile(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        view = await _my_view(interaction)
        return [] if view is None else tile_choices(view, current, locale_of(interaction))

    @play.autocomplete("train")
    async def _train(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        view = await _my_view(interaction)
        if view is None:
            return []
        tile = getattr(interaction.namespace, "tile", None)
        return train_choices(view, tile, locale_of(interaction))

    @app_commands.command(name="draw", description="Draw a tile (only when nothing fits)")
    @app_commands.guild_only()
    async def draw(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            await actions.make_move(interaction, game.id, "draw")

    @app_commands.command(name="pass", description="Pass (after drawing, or with no boneyard)")
    @app_commands.guild_only()
    async def pass_(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            await actions.make_move(interaction, game.id, "pass")

    @app_commands.command(name="knock", description="Announce your last tile (knock rule)")
    @app_commands.guild_only()
    async def knock(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            await actions.make_move(interaction, game.id, "knock")

    @app_commands.command(name="catch", description="Catch a player who did not knock")
    @app_commands.guild_only()
    async def catch(self, interaction: Interaction, player: discord.User) -> None:
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            target = game.player(player.id)
            if target is None:
                raise Refusal("error.not-seated", name=player.display_name)
            await actions.make_move(interaction, game.id, Catch(target.seat))

    @app_commands.command(name="hand", description="See your hand (only you can see it)")
    async def hand(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            await actions.show_hand(interaction)

    @app_commands.command(name="table", description="See the table again (only you)")
    @app_commands.guild_only()
    async def table(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            game = await actions.game_here(interaction)
            if game.round_no is None:
                raise Refusal("error.not-started")
            view = await self.bot.service.table_view(game.id)
            png = await asyncio.to_thread(table_png, view, game.players, locale)
            embed = discord.Embed(
                title=tr(
                    "table.title",
                    locale,
                    game=game.id,
                    round=view.round_no + 1,
                    rounds=view.rounds_total,
                ),
                description="\n\n".join(
                    t
                    for t in (
                        actions.turn_line(game, game.turn, locale),
                        open_hands_text(view, locale),
                    )
                    if t
                )[:4000]
                or None,
            ).set_image(url="attachment://table.png")
            await interaction.followup.send(
                embed=embed, file=discord.File(io.BytesIO(png), "table.png"), ephemeral=True
            )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, MexicanTrainBot)
    await bot.add_cog(Play_(bot))
