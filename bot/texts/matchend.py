"""What a player is told about themselves: their own move, in the second person, and the
end of a match (their place, the winner, the sheet and a link)."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- the actor's own move, told to them (their private answer)
    "you.play.own": {
        "en": "You played {tile} on your own train",
        "fr": "Tu as posé {tile} sur ton train",
    },
    "you.play.other": {
        "en": "You played {tile} on {owner}'s train",
        "fr": "Tu as posé {tile} sur le train de {owner}",
    },
    "you.play.mexican": {
        "en": "You played {tile} on the Mexican Train",
        "fr": "Tu as posé {tile} sur le Train mexicain",
    },
    "you.start.mexican": {
        "en": "You started the Mexican Train with {tile} — Woo Woo!",
        "fr": "Tu as lancé le Train mexicain avec {tile} — Tchou tchou !",
    },
    "you.double": {
        "en": "A double: play again (a tile with a {pips} satisfies it; draw if you have none)",
        "fr": "Un double : rejoue (un domino avec un {pips} le complète ; pioche si tu n'en as "
        "aucun)",
    },
    "you.draw": {"en": "You drew a tile", "fr": "Tu as pioché un domino"},
    "you.pass": {
        "en": "You passed; your train is open",
        "fr": "Tu passes ; ton train est ouvert",
    },
    "you.pass.marked": {
        "en": "You passed (your train was already open)",
        "fr": "Tu passes (ton train était déjà ouvert)",
    },
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
    # ---- the match in a few figures beyond its standings (bot/ui/matchfacts.py)
    "end.facts": {"en": "📈 {parts}.", "fr": "📈 {parts}."},
    "end.facts.took": {"en": "{time} of play", "fr": "{time} de jeu"},
    "end.facts.days": {"en": "{n} {n:day|days}", "fr": "{n} {n:jour|jours}"},
    "end.facts.hours": {"en": "{n} {n:hour|hours}", "fr": "{n} {n:heure|heures}"},
    "end.facts.minutes": {"en": "{n} {n:minute|minutes}", "fr": "{n} {n:minute|minutes}"},
    "end.facts.turns": {"en": "{n} {n:turn|turns}", "fr": "{n} {n:tour|tours}"},
    "end.facts.best": {
        "en": "best round: {name}, round {round} ({pts})",
        "fr": "meilleure manche : {name}, manche {round} ({pts})",
    },
    "end.facts.out": {
        "en": "out most: {names} ({n} {n:round|rounds})",
        "fr": "sorti le plus : {names} ({n} {n:manche|manches})",
    },
    "end.standings": {"en": "Final standings:", "fr": "Classement final :"},
    "end.mentions": {
        "en": "🏁 Game #{game} is over. {places}",
        "fr": "🏁 La partie n°{game} est finie. {places}",
    },
    "end.place": {"en": "{mention}: {place}", "fr": "{mention} : {place}"},
    "end.first": {"en": "1st", "fr": "1er"},
    "end.second": {"en": "2nd", "fr": "2e"},
    "end.third": {"en": "3rd", "fr": "3e"},
    # ---- a turn DM pressed out of its turn (bot/ui/dmturn.py)
    "dm.over": {
        "en": "Game #{game} is over: this DM's turn is long gone. The result: {link}",
        "fr": "La partie n°{game} est finie : le tour de ce MP est passé. Le résultat : {link}",
    },
    "dm.not-now": {
        "en": "This DM is from a turn that is over: it's {name}'s turn now. The live table: {link}",
        "fr": "Ce MP date d'un tour fini : c'est à {name} de jouer. La table en direct : {link}",
    },
    "dm.changed": {
        "en": "This DM is out of date (the table changed since): play from the live table: {link}",
        "fr": "Ce MP n'est plus à jour (la table a changé depuis) : joue depuis la table : {link}",
    },
    # ---- where the reader stands, in every turn DM
    "dm.standing": {
        "en": "📊 You: {place} · {pts} · leader {leader} {total}",
        "fr": "📊 Toi : {place} · {pts} · en tête {leader} {total}",
    },
    "dm.standing.lead": {
        "en": "📊 You: {place} · {pts} · you lead",
        "fr": "📊 Toi : {place} · {pts} · tu mènes",
    },
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
