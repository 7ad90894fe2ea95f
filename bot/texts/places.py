"""A game whose place is gone: its channel or thread deleted, or the bot removed from its
server. Each human player is told by DM, in one line (bot/cogs/places.py). And the ping a
turn's DM carried, when Discord kept refusing it (bot/ui/dmlater.py), or refused it because
the player left the server (50278)."""

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
    # A turn's DM Discord refused with 50278, "no mutual guilds": the player left every server
    # the bot is in (bot/ui/announcer.py). Said once: their DMs are then remembered as closed.
    "dm.left.channel": {
        "en": "{mention} is no longer on this server, so I can't DM them and won't try again. "
        "Their turns are announced here; the host can give their seat to a computer with "
        "`/mt kick`.",
        "fr": "{mention} n'est plus sur ce serveur : je ne peux plus lui écrire en MP et je "
        "n'essaierai plus. Ses tours sont annoncés ici ; l'hôte peut donner sa place à "
        "l'ordinateur avec `/mt exclure`.",
    },
    "dm.left.you": {
        "en": "I can't DM you any more: Discord says we share no server (you left it), so I "
        "won't try again. Your turns are announced in the game's channel.",
        "fr": "Je ne peux plus t'écrire en MP : Discord dit que nous n'avons plus de serveur "
        "en commun (tu l'as quitté), je n'essaierai plus. Tes tours sont annoncés dans le "
        "salon de la partie.",
    },
    "gone.server": {
        "en": "🛑 Mexican Train game #{game} in {server} has ended: the bot was removed from "
        "that server. Nobody wins.",
        "fr": "🛑 La partie n°{game} de Mexican Train sur {server} est terminée : le bot a été "
        "retiré de ce serveur. Aucun gagnant.",
    },
}
