"""Labels drawn in the pictures (table, hand, statistics chart), in English and French.

The renderers look them up with ``TableOptions(language=...)`` / ``HandOptions(language=...)``;
English must stay word for word what the golden images show. A count has ``.one`` and
``.many`` forms, chosen by ``renderers.pieces.plural`` with each language's rule.
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- table header
    "pic.player": {"en": "Player {n}", "fr": "Joueur {n}"},
    "pic.mexican": {"en": "Mexican Train", "fr": "Train mexicain"},
    "pic.round": {"en": "Round {round}/{rounds}", "fr": "Manche {round}/{rounds}"},
    "pic.engine-line": {
        "en": "Engine {engine} · double-{max}",
        "fr": "Locomotive {engine} · double-{max}",
    },
    "pic.round-engine": {
        "en": "Round {round}/{rounds} · engine {engine} · double-{max}",
        "fr": "Manche {round}/{rounds} · locomotive {engine} · double-{max}",
    },
    "pic.boneyard": {"en": "in boneyard", "fr": "dans la pioche"},
    "pic.round-over.out": {
        "en": "Round over · {name} went out",
        "fr": "Manche finie · {name} a tout posé",
    },
    "pic.round-over.blocked": {
        "en": "Round over · blocked, nobody can play",
        "fr": "Manche finie · bloquée, personne ne peut jouer",
    },
    "pic.to-play": {"en": "{name} to play", "fr": "À {name} de jouer"},
    "pic.to-play.you": {"en": "{name} to play (you)", "fr": "À {name} de jouer (toi)"},
    "pic.open-doubles": {
        "en": "Cover the open doubles in order: {list}",
        "fr": "Doubles ouverts à compléter dans l'ordre : {list}",
    },
    #: What a player types for the Mexican Train (the move parser reads both words).
    "pic.mexican-word": {"en": "mexican", "fr": "mexicain"},
    "pic.train-of": {"en": "{name}'s train", "fr": "le train de {name}"},
    "pic.match-over.one": {
        "en": "Match over · {name} wins!",
        "fr": "Partie finie · {name} gagne !",
    },
    "pic.match-over.shared": {
        "en": "Match over · {names} share the win",
        "fr": "Partie finie · {names} se partagent la victoire",
    },
    # ---- the last move, in the header
    "pic.where.mexican": {"en": "the Mexican Train", "fr": "le Train mexicain"},
    "pic.where.own": {"en": "their own train", "fr": "son propre train"},
    "pic.last.play": {
        "en": "Last: {name} played {tile} on {where}",
        "fr": "Dernier coup : {name} a posé {tile} sur {where}",
    },
    "pic.last.draw": {
        "en": "Last: {name} drew a tile",
        "fr": "Dernier coup : {name} a pioché un domino",
    },
    "pic.last.pass": {
        "en": "Last: {name} passed and put up a marker",
        "fr": "Dernier coup : {name} a passé et posé son marqueur",
    },
    "pic.last.knock": {
        "en": "Last: {name} knocked (one tile left)",
        "fr": "Dernier coup : {name} a frappé (plus qu'un domino)",
    },
    "pic.last.catch": {
        "en": "Last: {name} caught {caught} not knocking",
        "fr": "Dernier coup : {name} a surpris {caught} sans frapper",
    },
    "pic.last.done": {
        "en": "Last: {name} ended their fast start",
        "fr": "Dernier coup : {name} a fini son départ rapide",
    },
    # ---- lanes
    "pic.open-to-all": {"en": "open to everyone", "fr": "ouvert à tous"},
    "pic.stats.rank": {"en": "{tag} · {rank} · {pts}", "fr": "{tag} · {rank} · {pts}"},
    "pic.stats.out": {"en": "{tag} · went out · {pts}", "fr": "{tag} · a tout posé · {pts}"},
    "pic.stats.round": {"en": "{tag} · +{got} → {pts}", "fr": "{tag} · +{got} → {pts}"},
    "pic.stats.play": {"en": "{tag} · {tiles} · {pts}", "fr": "{tag} · {tiles} · {pts}"},
    # Counts take .one / .many by the language's rule (French: 0 and 1 are singular).
    "pic.points.one": {"en": "{n} pt", "fr": "{n} pt"},
    "pic.points.many": {"en": "{n} pts", "fr": "{n} pts"},
    "pic.tiles.last": {"en": "1 tile!", "fr": "1 domino !"},
    "pic.tiles.one": {"en": "{n} tile", "fr": "{n} domino"},
    "pic.tiles.many": {"en": "{n} tiles", "fr": "{n} dominos"},
    "pic.marker": {"en": "marker", "fr": "marqueur"},
    "pic.you": {"en": "you", "fr": "toi"},
    "pic.final": {"en": "Final standings", "fr": "Classement final"},
    "pic.ordinal.1": {"en": "1st", "fr": "1er"},
    "pic.ordinal.2": {"en": "2nd", "fr": "2e"},
    "pic.ordinal.3": {"en": "3rd", "fr": "3e"},
    "pic.ordinal.n": {"en": "{n}th", "fr": "{n}e"},
    # ---- the hand
    "pic.hand.title.one": {
        "en": "Your hand · {n} tile · train @{seat}",
        "fr": "Ta main · {n} domino · train @{seat}",
    },
    "pic.hand.title.many": {
        "en": "Your hand · {n} tiles · train @{seat}",
        "fr": "Ta main · {n} dominos · train @{seat}",
    },
    "pic.hand.playable": {"en": "Playable now", "fr": "Jouables maintenant"},
    "pic.hand.plan": {"en": "Your train plan", "fr": "Ton plan de train"},
    "pic.hand.plan-legend": {
        "en": "#1, #2…: your train plan, in playing order",
        "fr": "#1, #2… : ton plan de train, dans l'ordre où les poser",
    },
    "pic.hand.other": {"en": "Other tiles", "fr": "Autres dominos"},
    "pic.hand.yours": {"en": "Your tiles", "fr": "Tes dominos"},
    "pic.hand.round-over": {"en": "Round over", "fr": "Manche finie"},
    "pic.hand.scores-there": {
        "en": "Scores are on the table picture.",
        "fr": "Les scores sont sur l'image de la table.",
    },
    "pic.hand.is-playing": {"en": "{name} is playing", "fr": "{name} joue"},
    "pic.hand.biggest": {
        "en": "Your tiles, biggest first.",
        "fr": "Tes dominos, les plus lourds d'abord.",
    },
    "pic.hand.your-turn": {"en": "Your turn", "fr": "À toi"},
    "pic.hand.type": {
        "en": "Type a tile and its train, e.g. {example}",
        "fr": "Tape un domino et son train, ex. {example}",
    },
    "pic.hand.pick": {
        "en": "Pick your move in the list below this message",
        "fr": "Choisis ton coup dans la liste sous ce message",
    },
    "pic.hand.cover": {
        "en": "Cover the open double {tile} first · ",
        "fr": "Complète d'abord le double ouvert {tile} · ",
    },
    "pic.hand.or-done": {"en": " · or done", "fr": " · ou done"},
    "pic.hand.draw": {"en": "No tile fits: draw one", "fr": "Aucun domino ne va : pioche"},
    "pic.hand.pass": {
        "en": "Nothing to play: pass (your marker goes up)",
        "fr": "Rien à jouer : passe (ton marqueur se lève)",
    },
    # ---- the statistics chart
    "pic.chart.title.one": {
        "en": "{name} · average round score, last game",
        "fr": "{name} · score moyen par manche, dernière partie",
    },
    "pic.chart.title.many": {
        "en": "{name} · average round score, last {n} games",
        "fr": "{name} · score moyen par manche, {n} dernières parties",
    },
    "pic.chart.legend": {
        "en": "gold: won · lower is better",
        "fr": "or : gagnée · plus bas = mieux",
    },
    "pic.chart.empty": {"en": "No finished games yet", "fr": "Aucune partie terminée"},
    "pic.chart.game": {"en": "#{game}", "fr": "n°{game}"},
}
