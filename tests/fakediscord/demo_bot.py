"""A minimal bot that exercises every behaviour of the fake Discord, for its own tests.

It is deliberately not the Mexican Train bot: one command per Discord feature the real
cogs rely on (a group with subcommands, autocomplete, defer + followup with a Pillow PNG
in an embed, a DM, a channel post, a late answer, a double answer, a burst of posts for the
rate limits, threads opened, posted in, archived) plus a persistent ``DynamicItem`` join
button and a persistent select registered in ``setup_hook``.
Errors from discord.py land in ``bot.errors`` so tests can assert on codes.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw

HAND = ["12-12", "12-5", "12-3", "5-5", "5-3", "3-0", "9-4", "0-0"]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mt:(?P<game>\d+):join"):
    """Persistent across restarts: the game id lives in the custom_id, not in memory."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"mt:{game}:join"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined game {self.game}")


class TilePicker(discord.ui.View):
    """A persistent view (``timeout=None`` and fixed custom_ids) with a string select."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="demo:tile-picker",
        placeholder="Pick a tile",
        options=[discord.SelectOption(label=t, value=t) for t in HAND[:5]],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"You picked {', '.join(select.values)}")


def render_table() -> bytes:
    """A small palette PNG standing in for the table picture."""
    image = Image.new("RGB", (64, 32), "darkgreen")
    ImageDraw.Draw(image).rectangle((8, 8, 40, 20), fill="white")
    buffer = io.BytesIO()
    image.convert("P").save(buffer, format="PNG")
    return buffer.getvalue()


mt = app_commands.Group(name="mt", description="Mexican Train games")
house = app_commands.Group(name="house", description="House rules", parent=mt)


@mt.command(name="new", description="Start a game in this channel")
@app_commands.describe(preset="Rules preset", seats="How many players")
@app_commands.choices(
    preset=[app_commands.Choice(name=p, value=p) for p in ("standard", "quick", "party")]
)
async def mt_new(
    interaction: discord.Interaction[DemoBot],
    preset: str = "standard",
    seats: app_commands.Range[int, 2, 8] = 4,
) -> None:
    bot = interaction.client
    bot.games += 1
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(bot.games))
    await interaction.response.send_message(
        f"Game {bot.games}: {preset} rules, {seats} seats", view=view
    )


@house.command(name="set", description="Set a house rule")
async def house_set(interaction: discord.Interaction[DemoBot], rule: str, enabled: bool) -> None:
    await interaction.response.send_message(f"{rule} is now {'on' if enabled else 'off'}")


async def tile_choices(
    interaction: discord.Interaction[DemoBot], current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=t, value=t) for t in HAND if t.startswith(current)][:25]


@app_commands.command(name="play", description="Play a tile on a train")
@app_commands.autocomplete(tile=tile_choices)
@app_commands.choices(train=[app_commands.Choice(name=t, value=t) for t in ("mine", "mexican")])
async def play(interaction: discord.Interaction[DemoBot], tile: str, train: str) -> None:
    # Autocomplete is only a suggestion: Discord accepts any text, so check again.
    if tile not in HAND:
        await interaction.response.send_message(f"{tile} is not in your hand", ephemeral=True)
        return
    await interaction.response.send_message(f"{interaction.user.name} plays {tile} on {train}")


@app_commands.command(name="hand", description="See your hand (only you can see it)")
async def hand(interaction: discord.Interaction[DemoBot]) -> None:
    await interaction.response.send_message(
        f"Your hand: {' '.join(HAND)}", view=TilePicker(), ephemeral=True
    )


@app_commands.command(name="table", description="Picture of the table")
async def table(interaction: discord.Interaction[DemoBot], defer: bool = True) -> None:
    if not defer:  # small enough to answer at once: the file rides on the callback itself
        file = discord.File(io.BytesIO(render_table()), "table.png")
        await interaction.response.send_message("Table", file=file)
        return
    await interaction.response.defer(thinking=True)
    png = await asyncio.to_thread(render_table)  # rendering never blocks the event loop
    embed = discord.Embed(title="Table").set_image(url="attachment://table.png")
    await interaction.edit_original_response(
        embed=embed, attachments=[discord.File(io.BytesIO(png), "table.png")]
    )


@app_commands.command(name="oldstyle", description="Answers its deferral with a followup")
async def oldstyle(interaction: discord.Interaction[DemoBot]) -> None:
    await interaction.response.defer(thinking=True)
    try:
        await interaction.followup.send("answer")  # the path Discord keeps for old apps only
    except discord.HTTPException as error:
        interaction.client.errors.append(error)


@app_commands.command(name="revise", description="Edits and deletes its own messages")
async def revise(interaction: discord.Interaction[DemoBot]) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    await interaction.response.send_message("draft")
    await interaction.edit_original_response(content="final")
    extra = await interaction.followup.send("temporary", wait=True)
    await extra.delete()
    async with channel.typing():
        note = await channel.send("note v1")
    await note.edit(content="note v2")
    await note.add_reaction("\N{WHITE HEAVY CHECK MARK}")
    oops = await channel.send("oops")
    await oops.delete()
    await interaction.followup.send("done", ephemeral=True)


@app_commands.command(name="remind", description="Send a player a reminder by DM")
async def remind(
    interaction: discord.Interaction[DemoBot], player: discord.User, silent: bool = False
) -> None:
    try:
        await player.send("Your turn in Mexican Train!", silent=silent)
    except discord.Forbidden as error:
        interaction.client.errors.append(error)
        await interaction.response.send_message(
            f"Cannot DM {player.name} (code {error.code})", ephemeral=True
        )
        return
    await interaction.response.send_message(f"Reminded {player.name}", ephemeral=True)


@app_commands.command(name="announce", description="Post a notice in this channel")
async def announce(
    interaction: discord.Interaction[DemoBot], text: str, picture: bool = False, ping: bool = True
) -> None:
    await interaction.response.defer(ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    embed = discord.Embed(description=text)
    files = [discord.File(io.BytesIO(render_table()), "table.png")] if picture else []
    try:
        mentions = discord.AllowedMentions.all() if ping else discord.AllowedMentions.none()
        await channel.send(text, embed=embed, files=files, allowed_mentions=mentions)
    except discord.Forbidden as error:
        interaction.client.errors.append(error)
        await interaction.edit_original_response(content=f"Missing permission (code {error.code})")
        return
    can_send = interaction.app_permissions.send_messages
    await interaction.edit_original_response(content=f"Posted (send_messages={can_send})")


@app_commands.command(name="late", description="Answers after the deadline")
async def late(interaction: discord.Interaction[DemoBot]) -> None:
    await asyncio.sleep(interaction.client.late_delay)
    await interaction.response.send_message("Too late?")


@app_commands.command(name="twice", description="Answers the same interaction twice")
async def twice(interaction: discord.Interaction[DemoBot]) -> None:
    await interaction.response.send_message("First answer")
    try:
        await interaction.response.send_message("Second answer")
    except discord.InteractionResponded as error:
        interaction.client.errors.append(error)
    # A second handler with its own response object (e.g. a stray error funnel) gets as far
    # as Discord, which refuses it with 40060.
    await discord.InteractionResponse(interaction).send_message("Second answer")


@app_commands.command(name="burst", description="Post several messages at once")
async def burst(interaction: discord.Interaction[DemoBot], count: int) -> None:
    await interaction.response.defer(ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel | discord.Thread)
    sent = await asyncio.gather(
        *(channel.send(f"burst {i}") for i in range(count)), return_exceptions=True
    )
    failed = [e for e in sent if isinstance(e, Exception)]
    interaction.client.errors.extend(failed)
    await interaction.edit_original_response(content=f"Sent {count - len(failed)} of {count}")


threads = app_commands.Group(name="thread", description="Threads")


async def _thread(bot: DemoBot, thread_id: str) -> discord.Thread:
    # An archived thread is not in discord.py's cache (as on Discord): fetch it then.
    found = bot.get_channel(int(thread_id)) or await bot.fetch_channel(int(thread_id))
    assert isinstance(found, discord.Thread)
    return found


@threads.command(name="open", description="Open a public thread here")
async def thread_open(
    interaction: discord.Interaction[DemoBot],
    name: str,
    from_message: bool = True,
    message_id: str | None = None,
) -> None:
    await interaction.response.defer(ephemeral=True)
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    try:
        if message_id is not None:
            thread = await channel.get_partial_message(int(message_id)).create_thread(name=name)
        elif from_message:
            card = await channel.send(f"Game {name}")
            thread = await card.create_thread(name=name)
        else:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        await thread.send(f"Welcome to {name}")
    except discord.HTTPException as error:
        interaction.client.errors.append(error)
        await interaction.edit_original_response(content=f"Refused (code {error.code})")
        return
    await interaction.edit_original_response(content=f"Opened {thread.id}")


@threads.command(name="post", description="Post in a thread")
async def thread_post(interaction: discord.Interaction[DemoBot], thread_id: str, text: str) -> None:
    await interaction.response.defer(ephemeral=True)
    try:
        message = await (await _thread(interaction.client, thread_id)).send(text)
    except discord.HTTPException as error:
        interaction.client.errors.append(error)
        await interaction.edit_original_response(content=f"Refused (code {error.code})")
        return
    await interaction.edit_original_response(content=f"Posted {message.id}")


@threads.command(name="edit", description="Edit a message in a thread")
async def thread_edit(
    interaction: discord.Interaction[DemoBot], thread_id: str, message_id: str, text: str
) -> None:
    await interaction.response.defer(ephemeral=True)
    thread = await _thread(interaction.client, thread_id)
    try:
        await thread.get_partial_message(int(message_id)).edit(content=text)
    except discord.HTTPException as error:
        interaction.client.errors.append(error)
        await interaction.edit_original_response(content=f"Refused (code {error.code})")
        return
    await interaction.edit_original_response(content="Edited")


@threads.command(name="close", description="Archive a thread, and lock it")
async def thread_close(
    interaction: discord.Interaction[DemoBot], thread_id: str, lock: bool = False
) -> None:
    await interaction.response.defer(ephemeral=True)
    thread = await _thread(interaction.client, thread_id)
    try:
        await thread.edit(archived=True, locked=lock)
    except discord.HTTPException as error:
        interaction.client.errors.append(error)
        await interaction.edit_original_response(content=f"Refused (code {error.code})")
        return
    await interaction.edit_original_response(content="Closed")


@threads.command(name="where", description="Where this interaction came from")
async def thread_where(interaction: discord.Interaction[DemoBot]) -> None:
    channel = interaction.channel
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    await interaction.response.send_message(
        f"{type(channel).__name__} {interaction.channel_id} parent={parent}"
    )


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int | None = None, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            **options,
        )
        self.guild_id = guild_id
        self.games = 0
        self.late_delay = 0.2
        self.errors: list[Exception] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        self.add_view(TilePicker())
        commands_: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [
            mt, play, hand, table, revise, remind, announce, late, twice, burst, threads, oldstyle,
        ]  # fmt: skip
        for command in commands_:
            self.tree.add_command(command)
        if self.guild_id is not None:
            self.tree.add_command(ping, guild=discord.Object(self.guild_id))
        self.tree.error(self.on_tree_error)

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        # The one error funnel: keep the original exception for the tests to inspect.
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        self.errors.append(original)


@app_commands.command(name="ping", description="Guild-only command")
async def ping(interaction: discord.Interaction[DemoBot]) -> None:
    await interaction.response.send_message("pong", ephemeral=True)
