"""The catch-up's order of giving way (data only, read by :mod:`bot.ui.catchup`): which part
of the digest shortens next, then which goes whole, until the text fits its budget.

A seated reader's other moves since their last turn first give up their sentences for the
compact form that still names every move ("Bob 5-7 own · Carol drew"); then the seats taken
over, the rounds, the Mexican Train's start, the players down to one tile, the doubles to
cover and where the reader's train ends shorten; the count of the moves before their last
turn (turns played for them), the trains opened (the picture shows the markers), the seats
taken over, the Mexican Train's start and the players down to one tile go; the turns played
for them lose their moves (the line still says so), the rounds shorten, the tiles on their
train are counted but for the last three, and where their train ends goes (the hand and its
picture show it) — all before the other moves since their last turn are only counted (issue
47: at a big table who played what is the news, at 10 seats of 32-character names too).
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
    "-earlier",
    "-markers",
    "-taken",
    "-mexican",
    "-one_tile",
    "for_you",
    "rounds",
    "for_you",
    "mine",
    "-status",
    "elsewhere",
    "mine",
    "elsewhere",
)
SEATED_DROP = (
    "earlier",
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
