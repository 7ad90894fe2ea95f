"""The catch-up's order of giving way (data only, read by :mod:`bot.ui.catchup`): which part
of the digest shortens next, then which goes whole, until the text fits its budget.

A seated reader's other moves first give up their sentences for the compact form that still
names every move ("Bob 5-7 own · Carol drew"); then the seats taken over, the rounds, the
Mexican Train's start, the players down to one tile, the doubles to cover and where the
reader's train ends shorten, and the trains opened (the picture shows the markers), the seats
taken over, the Mexican Train's start and the players down to one tile go, before the other
moves are only counted (issue 47: at a big table who played what is the news).
"""

from __future__ import annotations

#: Which part gives up a form next, for a seated reader (``-key``: that part goes whole).
#: Afterwards, whatever is still too long goes whole in :data:`SEATED_DROP` order.
SEATED_LADDER = (
    "elsewhere",
    "taken",
    "rounds",
    "mexican",
    "one_tile",
    "doubles",
    "status",
    "-markers",
    "-taken",
    "-mexican",
    "-one_tile",
    "elsewhere",
    "for_you",
    "rounds",
    "mine",
    "elsewhere",
    "mine",
)
SEATED_DROP = (
    "taken",
    "markers",
    "mexican",
    "elsewhere",
    "rounds",
    "one_tile",
    "doubles",
    "for_you",
    "status",
    "mine",
    "nothing",
    "header",
)
SPECTATOR_LADDER = ("taken", "markers", "mexican", "rounds", "moves", "one_tile", "doubles")
SPECTATOR_DROP = (
    "taken",
    "markers",
    "mexican",
    "one_tile",
    "doubles",
    "rounds",
    "status",
    "moves",
    "nothing",
    "header",
)
