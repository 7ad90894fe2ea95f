"""A game whose place is gone: its channel or thread deleted, or the bot removed from its
server. Each human player is told by DM, in one line (bot/cogs/places.py). And the ping a
turn's DM carried, when Discord kept refusing it (bot/ui/dmlater.py)."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "gone.channel": {
        "en": "🛑 Mexican Train game #{game} in {server} has ended: its channel was deleted. "
        "Nobody wins; start a new one with `/mt new` wherever you like.",
        "fr": "🛑 La partie n°{game} de Mexican Train sur {server} est terminée : son salon a "
        "été supprimé. Aucun gagnant ; lance-en une autre avec `/mt nouvelle` où tu veux.",
    },
    # A turn's DM Discord kept refusing as "too fast" (bot/ui/dmlater.py): the ping instead.
    "dm.later.turn": {
        "en": "{mention}, it's your turn in game #{game} (Discord would not let me DM you).",
        "fr": "{mention}, c'est ton tour dans la partie n°{game} (Discord m'a empêché de "
        "t'écrire en MP).",
    },
    "gone.server": {
        "en": "🛑 Mexican Train game #{game} in {server} has ended: the bot was removed from "
        "that server. Nobody wins.",
        "fr": "🛑 La partie n°{game} de Mexican Train sur {server} est terminée : le bot a été "
        "retiré de ce serveur. Aucun gagnant.",
    },
}
