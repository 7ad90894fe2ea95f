"""What each picture shows, in words: the attachments' descriptions (alt text) that screen
readers read instead of the picture, in English and French (``bot/ui/alt_text.py`` writes them).

Counts take ``.one`` / ``.many`` through ``bot.i18n.tr_count`` (``{count}``).
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- the table
    "alt.table.head": {
        "en": "Picture of the Mexican Train table. Round {round} of {rounds}, engine {engine}.",
        "fr": "Image de la table du Train mexicain. Manche {round} sur {rounds}, "
        "locomotive {engine}.",
    },
    "alt.table.turn": {"en": "{name} (@{seat}) to play.", "fr": "À {name} (@{seat}) de jouer."},
    "alt.table.turn-you": {
        "en": "{name} (@{seat}, you) to play.",
        "fr": "À {name} (@{seat}, toi) de jouer.",
    },
    "alt.table.out": {
        "en": "Round over: {name} went out.",
        "fr": "Manche finie : {name} a tout posé.",
    },
    "alt.table.blocked": {
        "en": "Round over: blocked, nobody can play.",
        "fr": "Manche finie : bloquée, personne ne peut jouer.",
    },
    "alt.table.won": {"en": "Match over: {names} won.", "fr": "Partie finie : {names} a gagné."},
    "alt.boneyard.one": {
        "en": "{count} tile in the boneyard.",
        "fr": "{count} domino dans la pioche.",
    },
    "alt.boneyard.many": {
        "en": "{count} tiles in the boneyard.",
        "fr": "{count} dominos dans la pioche.",
    },
    "alt.trains": {"en": "Trains:", "fr": "Trains :"},
    "alt.train.line": {"en": "{who}: {notes}.", "fr": "{who} : {notes}."},
    "alt.train.seat": {"en": "{name} (@{seat})", "fr": "{name} (@{seat})"},
    "alt.train.computer": {
        "en": "{name} (@{seat}, computer)",
        "fr": "{name} (@{seat}, ordinateur)",
    },
    "alt.train.mexican": {"en": "Mexican Train", "fr": "Train mexicain"},
    "alt.train.end": {"en": "ends on {end}", "fr": "finit par {end}"},
    "alt.train.empty": {"en": "not started, needs {end}", "fr": "pas commencé, il faut {end}"},
    "alt.train.marker": {"en": "marker up", "fr": "marqueur posé"},
    "alt.train.open-double": {
        "en": "open double {tile}",
        "fr": "double ouvert {tile}",
    },
    "alt.hand-count.one": {"en": "{count} tile in hand", "fr": "{count} domino en main"},
    "alt.hand-count.many": {"en": "{count} tiles in hand", "fr": "{count} dominos en main"},
    "alt.train.round": {
        "en": "scored {got} {got:point|points} this round, {total} in all",
        "fr": "{got} {got:point|points} cette manche, {total} en tout",
    },
    "alt.train.went-out": {
        "en": "went out, {total} in all",
        "fr": "a tout posé, {total} en tout",
    },
    "alt.train.rank": {
        "en": "place {rank}, {total} {total:point|points}",
        "fr": "place {rank}, {total} {total:point|points}",
    },
    "alt.doubles": {
        "en": "Cover the open doubles in this order: {list}.",
        "fr": "Doubles ouverts à compléter dans l'ordre : {list}.",
    },
    "alt.double": {"en": "{tile} on {train}", "fr": "{tile} sur {train}"},
    "alt.then": {"en": ", then ", "fr": ", puis "},
    # Between the items of a list (a hand's playable tiles, the standings, the chart's games):
    # French typography sets a narrow no-break space (U+202F) before ";", as before ":".
    "alt.list-sep": {"en": "; ", "fr": "\u202f; "},
    "alt.last-ring": {
        "en": "The last tile played is ringed.",
        "fr": "Le dernier domino posé est entouré.",
    },
    "alt.standings": {"en": "Final standings: {list}.", "fr": "Classement final : {list}."},
    "alt.standing": {
        "en": "{rank}. {name}, {total} {total:point|points}",
        "fr": "{rank}. {name}, {total} {total:point|points}",
    },
    # ---- a hand
    "alt.hand.head.one": {
        "en": "Picture of your hand: {count} tile, your train is @{seat}.",
        "fr": "Image de ta main : {count} domino, ton train est @{seat}.",
    },
    "alt.hand.head.many": {
        "en": "Picture of your hand: {count} tiles, your train is @{seat}.",
        "fr": "Image de ta main : {count} dominos, ton train est @{seat}.",
    },
    "alt.hand.your-turn": {"en": "Your turn.", "fr": "À toi de jouer."},
    "alt.hand.waiting": {"en": "{name} is playing.", "fr": "{name} joue."},
    "alt.hand.round-over": {"en": "The round is over.", "fr": "La manche est finie."},
    "alt.hand.cover": {
        "en": "Cover the open double {tile} first.",
        "fr": "Complète d'abord le double ouvert {tile}.",
    },
    "alt.hand.playable": {"en": "Playable now: {list}.", "fr": "Jouables maintenant : {list}."},
    "alt.hand.fits": {"en": "{tile} on {trains}", "fr": "{tile} sur {trains}"},
    "alt.hand.or": {"en": " or ", "fr": " ou "},
    "alt.hand.none-playable": {
        "en": "No tile can be played now.",
        "fr": "Aucun domino ne peut être posé maintenant.",
    },
    "alt.hand.plan": {
        "en": "Your train plan, in playing order: {list}.",
        "fr": "Ton plan de train, dans l'ordre : {list}.",
    },
    "alt.hand.other": {"en": "Other tiles: {list}.", "fr": "Autres dominos : {list}."},
    # A list the picture cuts short with a "+N" chip.
    "alt.hand.more": {"en": "{list} and {count} more", "fr": "{list} et {count} autres"},
    "alt.hand.tiles": {"en": "Your tiles: {list}.", "fr": "Tes dominos : {list}."},
    "alt.hand.draw": {
        "en": "No tile fits: draw one.",
        "fr": "Aucun domino ne va : pioche.",
    },
    "alt.hand.pass": {
        "en": "Nothing to play: pass.",
        "fr": "Rien à jouer : passe.",
    },
    "alt.where.own": {"en": "your train", "fr": "ton train"},
    "alt.where.mexican": {"en": "the Mexican Train", "fr": "le Train mexicain"},
    # ---- the replay and the chart
    "alt.replay": {
        "en": "Animated replay of game {game}, round {round} of {rounds}: {frames} "
        "{frames:picture|pictures} of the table, from the deal to the last move shown. The last "
        "picture:",
        "fr": "Replay animé de la partie {game}, manche {round} sur {rounds} : {frames} "
        "{frames:image|images} de la table, de la donne au dernier coup montré. La dernière "
        "image :",
    },
    "alt.export": {
        "en": "Game {game} as a JSON file: its rules, the players' names and every move.",
        "fr": "La partie {game} en fichier JSON : ses règles, les noms des joueurs et chaque coup.",
    },
    "alt.chart.empty": {
        "en": "Chart of {name}'s games: no finished game yet.",
        "fr": "Graphique des parties de {name} : aucune partie terminée.",
    },
    "alt.chart": {
        "en": "Bar chart of {name}'s average score per round in each recent game, oldest first "
        "(lower is better): {list}. Overall average: {mean}.",
        "fr": "Graphique en barres du score moyen par manche de {name} pour chaque partie "
        "récente, de la plus ancienne (plus bas = mieux) : {list}. Moyenne générale : {mean}.",
    },
    "alt.chart.game": {"en": "game {game}: {avg}", "fr": "partie {game} : {avg}"},
    "alt.chart.won": {"en": "game {game}: {avg}, won", "fr": "partie {game} : {avg}, gagnée"},
}
