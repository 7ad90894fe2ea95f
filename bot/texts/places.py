"""A game whose place is gone: its channel or thread deleted, or the bot removed from its
server. Each human player is told by DM, in one line (bot/cogs/places.py)."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "gone.channel": {
        "en": "🛑 Mexican Train game #{game} in {server} has ended: its channel was deleted. "
        "Nobody wins; start a new one with `/mt new` wherever you like.",
        "fr": "🛑 La partie n°{game} de Mexican Train sur {server} est terminée : son salon a "
        "été supprimé. Aucun gagnant ; lancez-en une autre avec `/mt new` où vous voulez.",
    },
    "gone.server": {
        "en": "🛑 Mexican Train game #{game} in {server} has ended: the bot was removed from "
        "that server. Nobody wins.",
        "fr": "🛑 La partie n°{game} de Mexican Train sur {server} est terminée : le bot a été "
        "retiré de ce serveur. Aucun gagnant.",
    },
}
