"""The round's end: its picture's labels, the scores as a list, the alt text, and what the
commands say once the match is over — in English and French.

The ``pic.re.*`` labels are drawn by :mod:`renderers.round_end` (English stays word for word
what its golden images show); the rest is the Discord layer's (:mod:`bot.ui.roundend`).
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- the picture
    "pic.re.title": {"en": "Round {round}/{rounds} over", "fr": "Manche {round}/{rounds} finie"},
    "pic.re.out": {"en": "{name} went out", "fr": "{name} a tout posé"},
    "pic.re.blocked": {
        "en": "Blocked: nobody could play",
        "fr": "Bloquée : personne ne pouvait jouer",
    },
    "pic.re.sub": {"en": "{how} · engine {engine}", "fr": "{how} · locomotive {engine}"},
    "pic.re.sub-round": {
        "en": "Round {round}/{rounds} · {how} · engine {engine}",
        "fr": "Manche {round}/{rounds} · {how} · locomotive {engine}",
    },
    "pic.re.scores": {"en": "Tiles left and points", "fr": "Dominos restants et points"},
    "pic.re.columns": {"en": "this round → total", "fr": "manche → total"},
    "pic.re.points": {"en": "+{got} → {pts}", "fr": "+{got} → {pts}"},
    "pic.re.went-out": {"en": "went out, no tiles left", "fr": "a tout posé, plus de domino"},
    "pic.re.board": {"en": "The board at the end", "fr": "Le plateau à la fin"},
    "pic.re.no-train": {"en": "not started", "fr": "pas commencé"},
    # ---- the post: scores as a list (bot.ui.roundend)
    "re.scores-after": {
        "en": "Scores after round {round}/{rounds}",
        "fr": "Scores après la manche {round}/{rounds}",
    },
    "re.line": {
        "en": "{place}. {name} — {total} ({this})",
        "fr": "{place}. {name} — {total} ({this})",
    },
    "re.this-round": {"en": "this round +{n}", "fr": "cette manche +{n}"},
    "re.this-round-out": {"en": "went out, +{n}", "fr": "a tout posé, +{n}"},
    "re.final-line": {
        "en": "{place}. {name} — {total} ({won})",
        "fr": "{place}. {name} — {total} ({won})",
    },
    "re.final-line.one-round": {
        "en": "{place}. {name} — {total}",
        "fr": "{place}. {name} — {total}",
    },
    "re.sheet": {"en": "Round by round", "fr": "Manche par manche"},
    "re.pts.one": {"en": "{count} pt", "fr": "{count} pt"},
    "re.pts.many": {"en": "{count} pts", "fr": "{count} pts"},
    # ---- the picture's description (alt text), for screen readers
    "re.alt.head.out": {
        "en": "Round {round} of {rounds} is over: {name} went out.",
        "fr": "La manche {round} sur {rounds} est finie : {name} a tout posé.",
    },
    "re.alt.head.blocked": {
        "en": "Round {round} of {rounds} is over: blocked, nobody could play.",
        "fr": "La manche {round} sur {rounds} est finie : bloquée, personne ne pouvait jouer.",
    },
    "re.alt.winner": {"en": "{names} won the match.", "fr": "{names} remporte la partie."},
    "re.alt.scores": {
        "en": "Points this round and totals:",
        "fr": "Points de la manche et totaux :",
    },
    "re.alt.player": {
        "en": "{place}. {name}: +{got}, {total}",
        "fr": "{place}. {name} : +{got}, {total}",
    },
    "re.alt.left": {"en": "Tiles left:", "fr": "Dominos restants :"},
    "re.alt.hand": {"en": "{name} {tiles}", "fr": "{name} {tiles}"},
    "re.alt.board": {"en": "Trains, engine {engine}:", "fr": "Trains, locomotive {engine} :"},
    "re.alt.train": {
        "en": "{name} {count} {count:tile|tiles}, ends at {end}",
        "fr": "{name} {count} {count:domino|dominos}, finit par {end}",
    },
    # ---- the commands once the match is over
    "re.over-scores": {
        "en": "Game #{game} is over. Final standings:",
        "fr": "La partie n°{game} est finie. Classement final :",
    },
    "re.so-far": {
        "en": "Game #{game} · after round {round}/{rounds} (round {next} is being played):",
        "fr": "Partie n°{game} · après la manche {round}/{rounds} (la manche {next} se joue) :",
    },
    "re.none-yet": {
        "en": "Game #{game}: no round is over yet (round 1/{rounds} is being played), "
        "so everyone is on 0.",
        "fr": "Partie n°{game} : aucune manche n'est encore finie (la manche 1/{rounds} se "
        "joue), tout le monde est à 0.",
    },
    "re.hand-over": {
        "en": "Game #{game} is over, so there is no hand to show. The result: {link} "
        "(or /mt scores and /table).",
        "fr": "La partie n°{game} est finie : plus de main à montrer. Le résultat : {link} "
        "(ou /mt scores et /table).",
    },
    "re.table-over": {
        "en": "Game #{game} is over: the final table.",
        "fr": "La partie n°{game} est finie : la table finale.",
    },
}
