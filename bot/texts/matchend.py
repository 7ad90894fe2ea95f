"""The end of a match told to each human: their place, the winner, the sheet and a link."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "end.dm": {
        "en": "🏁 Game #{game} ({channel}) is over: you came **{place}** of {players}, "
        "with {total}.",
        "fr": "🏁 La partie n°{game} ({channel}) est finie : tu termines **{place}** sur "
        "{players}, avec {total}.",
    },
    "end.dm.won": {
        "en": "🏆 Game #{game} ({channel}) is over: you won, with {total}!",
        "fr": "🏆 La partie n°{game} ({channel}) est finie : tu l'as gagnée, avec {total} !",
    },
    "end.link": {"en": "The result: {link}", "fr": "Le résultat : {link}"},
    "end.mentions": {
        "en": "🏁 Game #{game} is over. {places}",
        "fr": "🏁 La partie n°{game} est finie. {places}",
    },
    "end.place": {"en": "{mention}: {place}", "fr": "{mention} : {place}"},
    "end.first": {"en": "1st", "fr": "1er"},
    "end.second": {"en": "2nd", "fr": "2e"},
    "end.third": {"en": "3rd", "fr": "3e"},
    "end.nth": {"en": "{n}th", "fr": "{n}e"},
    "end.won": {"en": "🏆 won", "fr": "🏆 gagnée"},
    "schedule.mine.finished-head": {
        "en": "**Finished lately:**",
        "fr": "**Finies récemment :**",
    },
    "schedule.mine.finished": {
        "en": "🏁 Game #{game} in {where}: {place}, {total}. {link}",
        "fr": "🏁 Partie n°{game} dans {where} : {place}, {total}. {link}",
    },
}
