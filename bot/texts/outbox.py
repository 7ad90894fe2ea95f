"""Texts of issue 37: the ping a turn DM could not carry, said in the channel; the refusal
of a seat's private views to the player who left it or was removed from it."""

from __future__ import annotations

from collections.abc import Mapping

#: What works in a DM, said wherever something that does not is used there (not /table:
#: Discord offers it in servers only; tests/e2e/test_dm_advice.py runs each one in a DM).
_IN_A_DM = {
    "en": "In a DM you can use /hand, /mt catchup, /mt me and /mt mygames.",
    "fr": "En MP, tu peux utiliser /main, /mt résumé, /mt moi et /mt mesparties.",
}

TEXTS: dict[str, Mapping[str, str]] = {
    "error.lobby-cancelled": {
        "en": "This game was cancelled before it started: nobody can join it now.",
        "fr": "Cette partie a été annulée avant de commencer : on ne peut plus la rejoindre.",
    },
    "error.invisible-name": {
        "en": "Your name shows nothing visible: set a server nickname with letters or "
        "digits, then try again.",
        "fr": "Ton nom ne montre rien de visible : choisis un pseudo de serveur avec des "
        "lettres ou des chiffres, puis réessaie.",
    },
    "error.server-command": {
        "en": "That is about a server: use it in one of the server's channels. " + _IN_A_DM["en"],
        "fr": "Ça concerne un serveur : utilise-le dans un de ses salons. " + _IN_A_DM["fr"],
    },
    "error.dm-not-here": {
        "en": "Games are played in a server channel: use that there. " + _IN_A_DM["en"],
        "fr": "Les parties se jouent dans un salon de serveur : utilise ça là-bas. "
        + _IN_A_DM["fr"],
    },
    "error.seat-given": {
        "en": "You are no longer playing in this game: a computer player has your seat, and "
        "its hand is private to it now.",
        "fr": "Tu ne joues plus dans cette partie : un joueur ordinateur a ta place, et sa "
        "main ne se montre plus qu'à lui.",
    },
    # The actor's answer Discord kept failing to show in place (bot/ui/route.py, issue 50).
    "answer.by-dm": {
        "en": "Discord could not show my answer in <#{channel}>, so here it is:\n{answer}",
        "fr": "Discord n'a pas pu afficher ma réponse dans <#{channel}>, la voici :\n{answer}",
    },
    "dm.failed.channel": {
        "en": "{mention}, it is your turn in game #{game} (Discord would not take my DM).",
        "fr": "{mention}, c'est ton tour dans la partie n°{game} (Discord n'a pas pris mon MP).",
    },
}
