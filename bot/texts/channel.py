"""Texts of the channel and DM flow (issue 17): the turn notification, counted nouns
("1 round", "3 rounds" — never "round(s)"; :func:`bot.i18n.tr_count` picks ``.one`` or
``.many``) and ``/mt me tiles:``.
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- the DM when a player's turn comes: it carries their hand (issue 24)
    "dm.turn": {
        "en": "🎲 Your turn in game #{game} ({channel}).",
        "fr": "🎲 À toi de jouer, partie n°{game} ({channel}).",
    },
    # ---- counted nouns, filled into sentences
    "count.rounds.one": {"en": "{count} round", "fr": "{count} manche"},
    "count.rounds.many": {"en": "{count} rounds", "fr": "{count} manches"},
    "count.rounds-won.one": {"en": "{count} round won", "fr": "{count} manche gagnée"},
    "count.rounds-won.many": {"en": "{count} rounds won", "fr": "{count} manches gagnées"},
    "count.wins.one": {"en": "{count} win", "fr": "{count} victoire"},
    "count.wins.many": {"en": "{count} wins", "fr": "{count} victoires"},
    "count.games.one": {"en": "{count} game", "fr": "{count} partie"},
    "count.games.many": {"en": "{count} games", "fr": "{count} parties"},
    # ---- /mt me tiles:
    "tiles.pips": {"en": "pips with numbers", "fr": "points et chiffres"},
    "tiles.numerals": {"en": "big numbers (high contrast)", "fr": "grands chiffres (contrasté)"},
}
