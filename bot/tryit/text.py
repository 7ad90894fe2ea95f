"""The table as text for a terminal: what the channel's picture shows, in lines.

Drawn from the spectator's view (``GameService.table_view``) like the picture, so no hidden
hand appears; the player's own hand is shown apart, from their own seat's view. Discord's
markdown (``**bold**``, ```code```) is dropped by :func:`plain`, since a terminal shows it raw.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.engine import SeatView, TrainView
from bot.i18n import tr
from bot.service import Player

#: The most tiles of one train printed in full; longer trains show their start and end.
LONG_TRAIN = 9


def plain(text: str) -> str:
    """Discord markdown to terminal text: no bold, no code spans or fences."""
    text = re.sub(r"```\w*\n?", "", text)
    return text.replace("**", "").replace("`", "")


def _tiles(train: TrainView, engine: int) -> str:
    """The train's tiles as laid, each turned to match the one before (``12-9 9-4 4-7``)."""
    tiles, end = [], engine
    for tile in train.tiles:
        if tile.high == end:
            tiles.append(f"{tile.high}-{tile.low}")
            end = tile.low
        else:
            tiles.append(f"{tile.low}-{tile.high}")
            end = tile.high
    if len(tiles) > LONG_TRAIN:
        hidden = len(tiles) - LONG_TRAIN + 2
        tiles = [tiles[0], f"(+{hidden})", *tiles[-(LONG_TRAIN - 2) :]]
    return " ".join(tiles) if tiles else "—"


def train_name(view: SeatView, train: TrainView, players: Sequence[Player]) -> str:
    if train.is_mexican:
        return tr("train.mexican", None)
    robot = " 🤖" if any(p.seat == train.owner and p.is_computer for p in players) else ""
    return f"@{train.owner + 1} {view.names[train.owner]}{robot}"


def table_text(view: SeatView, players: Sequence[Player], me: int | None) -> str:
    """A few lines: the round, the engine and boneyard, then one line per train."""
    lines = [
        f"Round {view.round_no + 1}/{view.rounds_total} · engine {view.engine} · "
        f"boneyard {view.boneyard_count}"
    ]
    names = [train_name(view, t, players) for t in view.trains]
    width = max(len(n) for n in names)
    for train, name in zip(view.trains, names, strict=True):
        notes = []
        if not train.is_mexican:
            notes.append(f"{view.hand_counts[train.owner]} in hand")
            if train.marked:
                notes.append("marker up: open to all")
        if train.open_double is not None:
            notes.append(f"open double #{train.open_double + 1}")
        pointer = "▶" if train.owner == view.current and not train.is_mexican else " "
        you = " (you)" if train.owner == me and not train.is_mexican else ""
        detail = f"  [{', '.join(notes)}]" if notes else ""
        laid = _tiles(train, view.engine.high)
        lines.append(f"{pointer} {name:<{width}} ends {train.end:>2}: {laid}{you}{detail}")
    return "\n".join(lines)
