"""A round's end rides in the turn's post (issue 47): one post per turn, round end or not.

When a turn's result ends a round and the game goes on, the channel used to get two posts for
that one turn: the round's end (:func:`bot.ui.roundend.round_end_posts`: its last moves, its
picture with every leftover hand, the scores) as the bot's own message, against the bot's
global limit, then the new round's turn post (the table, whose turn, the controls), which
rides on the interaction or goes through the channel webhook. Now they are one post, on the
turn post's own path (:class:`bot.ui.turnpost.TurnPost`): its embeds the round's end(s) then
the turn's table, its files the round picture(s) then the table picture, the turn's ping line
and buttons. On the bot's own message it is one card (Components V2): a container per round's
end (its text, its picture in a gallery with its alt text) above the turn's card, where
Discord's card budget holds it (4,000 characters of text, 40 components: docs/discord.md);
else the same post as a classic message.

What stays apart, as before: the match's end (no turn post follows; it carries Rematch), and
round ends that would pass a classic message's limits beside the table (10 embeds, 10 files,
6,000 characters of embeds less :data:`GROWTH`, the room a draw's lines need to grow the post).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.ui.components import CARD_TEXT, table_card
from bot.ui.limits import ATTACHMENTS, EMBED_TOTAL, EMBEDS, embed_size

log = logging.getLogger(__name__)

#: Room kept under the 6,000 characters of a message's embeds for the turn's embed to grow
#: (a draw's lines added by an edit; the table as text when its picture could not be drawn).
GROWTH = 1000
#: Discord's components in one V2 message, nested ones included.
CARD_COMPONENTS = 40

RoundEndPost = tuple[discord.Embed, list[discord.File], discord.ui.View | None]


def merged(
    ends: Sequence[RoundEndPost], turn: discord.Embed
) -> tuple[tuple[discord.Embed, ...], list[discord.File]] | None:
    """The round ends' embeds and pictures to put before the turn's embed (``turn``, its table
    picture still to come) in one post; None when they must go as posts of their own: one
    carries controls (Rematch: the match is over), or beside the turn's embed and picture
    they would pass 10 embeds, 10 files, or 6,000 characters less :data:`GROWTH`. Several
    rounds over in one result (rare) name their pictures apart (``round-1.png``…)."""
    if not ends or any(view is not None for _, _, view in ends):
        return None
    embeds = [embed for embed, _, _ in ends]
    files = [file for _, pictures, _ in ends for file in pictures]
    size = sum(embed_size(e) for e in [*embeds, turn])
    if len(embeds) + 1 > EMBEDS or len(files) + 1 > ATTACHMENTS or size > EMBED_TOTAL - GROWTH:
        log.info(
            "round end posted apart: %d embeds, %d files, %d chars", len(embeds), len(files), size
        )
        return None
    if len(ends) > 1:  # one message's files must differ by name for ``attachment://``
        for n, (embed, pictures, _) in enumerate(ends, start=1):
            for file in pictures:
                file.filename = f"round-{n}.png"
                embed.set_image(url=f"attachment://{file.filename}")
    return tuple(embeds), files


def fits(embeds: Sequence[discord.Embed]) -> bool:
    """Whether a merged post's embeds, grown, still fit a message's 6,000 characters."""
    return sum(embed_size(e) for e in embeds) <= EMBED_TOTAL


def round_box(
    embed: discord.Embed, pictures: Sequence[discord.File]
) -> discord.ui.Container[discord.ui.LayoutView]:
    """A round's end as a card's container: its title, its last moves, each field (the
    scores, the sheet) with its name, then its picture in a gallery with its alt text."""
    colour = embed.colour if isinstance(embed.colour, discord.Colour) else None
    box: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(accent_colour=colour)
    parts = [f"### {embed.title}" if embed.title else "", embed.description or ""]
    for field in embed.fields:
        name = (field.name or "").strip("\u200b").strip()
        parts.append(f"**{name}**\n{field.value}" if name else field.value or "")
    for part in parts:
        if part.strip():
            box.add_item(discord.ui.TextDisplay(part.strip()))
    shown = (embed.image.url or "").removeprefix("attachment://")
    for file in pictures:
        if file.filename == shown:
            item = discord.MediaGalleryItem(
                f"attachment://{file.filename}", description=file.description or None
            )
            box.add_item(discord.ui.MediaGallery(item))
    return box


def round_card(
    ends: Sequence[discord.Embed],
    end_files: Sequence[discord.File],
    content: str | None,
    embed: discord.Embed,
    files: Sequence[discord.File],
    controls: discord.ui.View | None,
) -> discord.ui.LayoutView | None:
    """The merged post as one card: a container per round's end (:func:`round_box`) above
    the turn's own card (:func:`~bot.ui.components.table_card`); None when it would pass a
    card's 4,000 characters of text or 40 components (the post then goes classic)."""
    turn = table_card(content, embed, files, controls)
    layout = discord.ui.LayoutView(timeout=None)
    try:
        for end in ends:
            layout.add_item(round_box(end, end_files))
        for item in list(turn.children):
            turn.remove_item(item)
            layout.add_item(item)
    except ValueError:  # discord.py's own count: over 40 components
        return None
    if layout.content_length() > CARD_TEXT or layout.total_children_count > CARD_COMPONENTS:
        return None
    return layout
