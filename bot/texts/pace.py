"""A match's expected length (issue 46): the lobby card, the answer to ``/mt new``, and the
``rounds:`` suggestions of ``/mt new`` (bot/ui/pacewords.py; the model: bot/service/pace.py)."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # {how_long} is one of pace.days / pace.weeks / pace.months / pace.under-a-day.
    "pace.under-a-day": {"en": "under a day", "fr": "moins d'un jour"},
    "pace.days": {
        "en": "about {count} {count:day|days}",
        "fr": "environ {count} {count:jour|jours}",
    },
    "pace.weeks": {
        "en": "about {count} {count:week|weeks}",
        "fr": "environ {count} {count:semaine|semaines}",
    },
    "pace.months": {
        "en": "about {count} {count:month|months}",
        "fr": "environ {count} {count:mois|mois}",
    },
    # The lobby card's field, and the answer to /mt new.
    "pace.field": {"en": "Expected length", "fr": "Durée prévue"},
    "pace.length": {
        "en": "⏳ {how_long} for {rounds} {rounds:round|rounds} at {seats} "
        "{seats:player|players}, if each of you answers within an hour or so while awake.",
        "fr": "⏳ {how_long} pour {rounds} {rounds:manche|manches} à {seats} "
        "{seats:joueur|joueurs}, si chacun répond en une heure environ quand il est éveillé.",
    },
    "pace.shorter": {
        "en": "A shorter match: /mt new rounds: (e.g. {rounds} {rounds:round|rounds}: {how_long}).",
        "fr": "Une partie plus courte : /mt nouvelle manches: (par ex. {rounds} "
        "{rounds:manche|manches} : {how_long}).",
    },
    # /mt new rounds: suggestions ({label} is one of the three below).
    "pace.choice": {
        "en": "{label}: {rounds} {rounds:round|rounds}, {how_long} at {seats} "
        "{seats:player|players}",
        "fr": "{label} : {rounds} {rounds:manche|manches}, {how_long} à {seats} "
        "{seats:joueur|joueurs}",
    },
    "pace.label.full": {"en": "full", "fr": "complète"},
    "pace.label.half": {"en": "half", "fr": "moitié"},
    "pace.label.short": {"en": "short", "fr": "courte"},
    "pace.label.typed": {"en": "your choice", "fr": "ton choix"},
}
