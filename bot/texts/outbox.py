"""Texts of issue 37: the ping a turn DM could not carry, said in the channel; the refusal
of a seat's private views to the player who left it or was removed from it."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "error.seat-given": {
        "en": "You are no longer playing in this game: a computer player has your seat, and "
        "its hand is private to it now.",
        "fr": "Tu ne joues plus dans cette partie : un joueur ordinateur a ta place, et sa "
        "main ne se montre plus qu'à lui.",
    },
    "dm.failed.channel": {
        "en": "{mention}, it is your turn in game #{game} (Discord would not take my DM).",
        "fr": "{mention}, c'est ton tour dans la partie n°{game} (Discord n'a pas pris mon MP).",
    },
}
