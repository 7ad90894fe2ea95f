"""Buttons and selects that keep working after a restart: ``DynamicItem``s.

Everything a click needs is in its ``custom_id`` (the game id, for turn controls the game's
version when the message was posted, and the action), never in process memory, so the bot
re-registers these classes in ``setup_hook`` and a message posted a week ago still answers.
A turn control whose version is no longer the game's says the table changed instead of
acting on a stale picture. The callbacks only parse; the work is in :mod:`bot.cogs.actions`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.cogs.common import Interaction
from bot.i18n import tr

LOBBY_ACTIONS = ("join", "leave", "start", "cancel")
TURN_ACTIONS = ("play", "draw", "pass", "hand", "knock")
LEVELS = ("easy", "normal", "hard")


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mt:(?P<game>\d+):lobby:(?P<action>join|leave|start|cancel)",
):
    def __init__(self, game_id: int, action: str, locale: str | None = None) -> None:
        style = {
            "join": discord.ButtonStyle.success,
            "start": discord.ButtonStyle.primary,
            "cancel": discord.ButtonStyle.danger,
        }.get(action, discord.ButtonStyle.secondary)
        super().__init__(
            discord.ui.Button(
                label=tr(f"button.{action}", locale),
                style=style,
                custom_id=f"mt:{game_id}:lobby:{action}",
            )
        )
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        from bot.cogs import actions

        await actions.lobby_action(interaction, self.game_id, self.action)


class ComputerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mt:(?P<game>\d+):lobby:cpu"
):
    """Add a computer player of the chosen level (host only)."""

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:{game_id}:lobby:cpu",
                placeholder=tr("select.computer", locale),
                options=[
                    discord.SelectOption(label=tr(f"level.{lv}", locale), value=lv) for lv in LEVELS
                ],
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ComputerSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        from bot.cogs import actions

        data: Any = interaction.data or {}
        values = data.get("values") or ["normal"]
        await actions.lobby_action(interaction, self.game_id, "cpu", level=str(values[0]))


class RemoveComputerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mt:(?P<game>\d+):lobby:uncpu"
):
    """Take a computer player out of the lobby (host only): one option per computer seat.

    Each option's value is ``seat:name`` as the lobby message last showed it. Seats move up
    when one is removed, so a pick whose seat no longer holds that computer is refused as
    stale rather than removing whoever sits there now.
    """

    def __init__(
        self, game_id: int, computers: Sequence[tuple[int, str]] = (), locale: str | None = None
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:{game_id}:lobby:uncpu",
                placeholder=tr("select.remove-computer", locale),
                options=[
                    discord.SelectOption(label=name[:100], value=f"{seat}:{name}"[:100])
                    for seat, name in computers
                ]
                # Only rebuilt to dispatch a pick: the options are never sent from here.
                or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RemoveComputerSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        from bot.cogs import actions

        data: Any = interaction.data or {}
        values = data.get("values") or [""]
        seat, _, name = str(values[0]).partition(":")
        await actions.lobby_action(
            interaction,
            self.game_id,
            "uncpu",
            seat=int(seat) if seat.isdigit() else -1,
            name=name,
        )


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mt:(?P<game>\d+):(?P<version>\d+):(?P<action>play|draw|pass|hand|knock)",
):
    def __init__(self, game_id: int, version: int, action: str, locale: str | None = None) -> None:
        style = discord.ButtonStyle.primary if action == "play" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=tr(f"button.{action}", locale),
                style=style,
                custom_id=f"mt:{game_id}:{version}:{action}",
            )
        )
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TurnButton:
        return cls(int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        from bot.cogs import actions

        await actions.turn_button(interaction, self.game_id, self.version, self.action)


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"mt:(?P<game>\d+):(?P<version>\d+):pick",
):
    """The legal moves as a list: the second tap of "Play" on a phone."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        locale: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:{game_id}:{version}:pick",
                placeholder=tr("select.move", locale),
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: Interaction) -> None:
        from bot.cogs import actions

        data: Any = interaction.data or {}
        values = data.get("values") or []
        await actions.picked_move(interaction, self.game_id, self.version, str(values[0]))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    LobbyButton,
    ComputerSelect,
    RemoveComputerSelect,
    TurnButton,
    MoveSelect,
)


def lobby_view(
    game_id: int, locale: str | None, computers: Sequence[tuple[int, str]] = ()
) -> discord.ui.View:
    """The lobby's controls; ``computers`` (seat, name) adds a select to take one out."""
    view = discord.ui.View(timeout=None)
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(game_id, action, locale))
    view.add_item(ComputerSelect(game_id, locale))
    if computers:
        view.add_item(RemoveComputerSelect(game_id, computers, locale))
    return view


def turn_view(game_id: int, version: int, locale: str | None, *, knock: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in TURN_ACTIONS:
        if action != "knock" or knock:
            view.add_item(TurnButton(game_id, version, action, locale))
    return view


def move_select_view(
    game_id: int, version: int, options: list[discord.SelectOption], locale: str | None
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(MoveSelect(game_id, version, options, locale))
    return view
