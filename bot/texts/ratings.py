"""Ratings (issue 48): ``/mt rating``, the leaderboard's rating view, each player's change at
a match's end, the rating chart; and the commands' French names."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "rating.title": {"en": "Rating of {name}", "fr": "Cote de {name}"},
    "rating.none": {
        "en": "{name} has no rated match in this server yet.",
        "fr": "{name} n'a encore aucune partie classée sur ce serveur.",
    },
    "rating.value": {
        "en": "**Rating:** {rating} (uncertainty ±{spread})",
        "fr": "**Cote :** {rating} (incertitude ±{spread})",
    },
    "rating.games": {"en": "**Rated matches:** {games}", "fr": "**Parties classées :** {games}"},
    "rating.provisional": {
        "en": "Provisional until {n} {n:rated match|rated matches}: {left} to go.",
        "fr": "Provisoire jusqu'à {n} {n:partie classée|parties classées} : encore {left}.",
    },
    "rating.between": {
        "en": "Plays between the {below} and the {above} computer.",
        "fr": "Joue entre l'ordinateur {below} et l'ordinateur {above}.",
    },
    "rating.above-all": {
        "en": "Plays above every computer level (the {level} computer: {rating}).",
        "fr": "Joue au-dessus de tous les ordinateurs (niveau {level} : {rating}).",
    },
    "rating.below-all": {
        "en": "Plays below every computer level (the {level} computer: {rating}).",
        "fr": "Joue en dessous de tous les ordinateurs (niveau {level} : {rating}).",
    },
    "rating.scale": {
        "en": "The rating is the low end of the skill measured (mu - 3 sigma): the Normal computer "
        "is 1,500.",
        "fr": "La cote est le bas de l'habileté mesurée (mu - 3 sigma) : l'ordinateur Normal vaut "
        "1 500.",
    },
    "leaderboard.by-rating": {"en": "by rating", "fr": "par cote"},
    "leaderboard.by-wins": {"en": "by wins", "fr": "par victoires"},
    "leaderboard.rating.line": {
        "en": "{place}. {mention} — {rating} ({games} rated{provisional})",
        "fr": "{place}. {mention} — {rating} ({games} classées{provisional})",
    },
    "leaderboard.provisional": {"en": ", provisional", "fr": ", provisoire"},
    "leaderboard.rating.empty": {
        "en": "No rated matches on this server yet.",
        "fr": "Aucune partie classée sur ce serveur pour l'instant.",
    },
    # The end of a rated match: "+23 → 1,412".
    "end.rating.mine": {"en": "Your rating: {change}.", "fr": "Ta cote : {change}."},
    "end.rating.all": {"en": "Ratings: {changes}", "fr": "Cotes : {changes}"},
    # The chart
    "pic.rating.title.one": {
        "en": "Rating of {name}, {n} rated match",
        "fr": "Cote de {name}, {n} partie classée",
    },
    "pic.rating.title.many": {
        "en": "Rating of {name}, {n} rated matches",
        "fr": "Cote de {name}, {n} parties classées",
    },
    "pic.rating.legend": {
        "en": "After each rated match; dotted: the computer levels",
        "fr": "Après chaque partie classée ; pointillés : les niveaux des ordinateurs",
    },
    "alt.rating": {
        "en": "Chart of the rating of {name} over {n} {n:rated match|rated matches}: from "
        "{first} to {last}.",
        "fr": "Graphique de la cote de {name} sur {n} {n:partie classée|parties classées} : de "
        "{first} à {last}.",
    },
    # The commands (see bot/texts/commands.py)
    "cmd.name.rating": {"en": "rating", "fr": "cote"},
    "cmd.name.view": {"en": "view", "fr": "vue"},
    "cmd.desc.A player's rating in this server": {
        "en": "A player's rating in this server",
        "fr": "La cote d'un joueur sur ce serveur",
    },
    "cmd.desc.Rank by rating (default) or by wins": {
        "en": "Rank by rating (default) or by wins",
        "fr": "Classer par cote (par défaut) ou par victoires",
    },
    "cmd.choice.rating": {"en": "rating", "fr": "cote"},
    "cmd.choice.wins": {"en": "wins", "fr": "victoires"},
}
