"""Texts of the outbox (issue 37): the ping a turn DM could not carry, said in the channel."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "dm.failed.channel": {
        "en": "{mention}, it is your turn in game #{game} (Discord would not take my DM).",
        "fr": "{mention}, c'est ton tour dans la partie n°{game} (Discord n'a pas pris mon MP).",
    },
}
