"""One move list for the channel and the turn DM: the custom ids already on Discord's
messages (the channel's ``mt:<game>:<version>:pick``, a DM's ``mt:<game>:<version>:dm:pick``)
still parse, each to where it may act."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ui.components import MoveSelect


async def _parse(custom_id: str) -> MoveSelect | None:
    template: Any = MoveSelect.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    match = template.fullmatch(custom_id)
    if match is None:
        return None
    return await MoveSelect.from_custom_id(None, None, match)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("custom_id", "dm", "place"),
    [("mt:12:345:pick", False, "move"), ("mt:12:345:dm:pick", True, "player")],
)
async def test_both_custom_ids_parse_to_where_they_may_act(
    custom_id: str, dm: bool, place: str
) -> None:
    item = await _parse(custom_id)
    assert item is not None
    assert (item.game_id, item.version, item.dm, item.place) == (12, 345, dm, place)
    # Sent again, it carries the same id.
    again = MoveSelect(12, 345, dm=dm)
    assert again.item.custom_id == custom_id


@pytest.mark.parametrize("custom_id", ["mt:12:345:dm", "mt:12:345:xx:pick", "mt:12:pick"])
async def test_other_ids_are_not_a_move_list(custom_id: str) -> None:
    assert await _parse(custom_id) is None
