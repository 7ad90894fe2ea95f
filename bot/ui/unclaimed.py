"""A click no item claims, answered: an old message from a release that had other buttons,
a forged or mangled ``custom_id`` (``mt:abc:5:draw``, ``mt:2:5:nuke``, the empty string).

discord.py gives such a click no answer at all, and the player would see "This interaction
failed"; :func:`unclaimed`, which ``bot.app`` installs as an ``on_interaction`` listener,
answers it privately instead, with the game as it is now when the id names one of this
server's games (or the channel has one). Apart from :mod:`bot.ui.components`, whose items
each claim their own clicks: this is what is left when none does. A refusal changes nothing.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.digits import ID
from bot.i18n import tr
from bot.service import GameStatus, GameSummary, ServiceError
from bot.ui import messages
from bot.ui.components import bot_of_client
from bot.ui.interactions import Interaction, Refusal, bot_of, guarded, locale_of

log = logging.getLogger(__name__)

#: The game a ``custom_id`` of ours names, if it names one (``mt:<game>:…``).
_GAME_IN_ID = re.compile(rf"mt:(?P<game>{ID})(?::|$)")


def claimed(client: discord.Client, interaction: Interaction) -> bool:
    """Whether discord.py will hand this component interaction to one of our items: an item
    class registered for its ``custom_id``, on a message that carries that component."""
    data: Any = interaction.data or {}
    custom_id, kind = str(data.get("custom_id", "")), data.get("component_type")
    host = bot_of_client(client)
    if not any(
        item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in host.click_handlers
    ):
        return False
    message = interaction.message
    if message is None:
        return False
    for row in message.components:
        for component in getattr(row, "children", [row]):
            found = getattr(component, "custom_id", None) == custom_id
            if found and getattr(component.type, "value", None) == kind:
                return True
    return False


async def unclaimed(interaction: Interaction) -> None:
    """``on_interaction``: answer a click no item will handle (see the module's docstring)."""
    if interaction.type is not discord.InteractionType.component:
        return
    if claimed(interaction.client, interaction):
        return
    async with guarded(interaction):
        data: Any = interaction.data or {}
        # The interaction's own line (refused:stale-button) is the one an admin reads; the
        # whole id, quoted, only when debugging (a forged one is one line either way).
        log.debug("a click nothing handles: custom_id %r", str(data.get("custom_id", ""))[:120])
        game = await _game_now(interaction, str(data.get("custom_id", "")))
        if game is None:
            raise Refusal("error.stale-button-none")
        raise Refusal("error.stale-button", game=_state_text(game, locale_of(interaction)))


async def _game_now(interaction: Interaction, custom_id: str) -> GameSummary | None:
    """The game the stale control named, if it is one of this server's; else this channel's."""
    service = bot_of(interaction).service
    found = _GAME_IN_ID.match(custom_id)
    if found is not None and interaction.guild_id is not None:
        try:
            game = await service.game(int(found["game"]))
        except ServiceError:
            game = None
        if game is not None and game.guild_id == interaction.guild_id:
            return game
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    return await service.game_in_channel(interaction.channel_id)


def _state_text(game: GameSummary, locale: str | None) -> str:
    """The game now, in a few lines: what ``/mt status`` starts with."""
    lines = [
        tr("status.head", locale, game=game.id, status=tr(f"status.{game.status}", locale)),
        messages.seats_text(game, locale),
    ]
    if game.status is GameStatus.ACTIVE and game.turn is not None:
        lines.append(messages.turn_line(game, game.turn, locale))
    return "\n".join(line for line in lines if line)
