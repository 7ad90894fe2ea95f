"""What the bot says when an interaction meets a fault that is nobody's bug: an option or a
value it cannot take, a button from another time, the game database out of reach."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "error.database-down": {
        "en": "The game database is unreachable right now; nothing changed. Try again shortly.",
        "fr": "La base des parties est injoignable pour l'instant ; rien n'a changé. "
        "Réessaie dans un moment.",
    },
    "error.database-unsure": {
        "en": "The game database stopped answering while saving this; it may or may not have "
        "been saved. Look at the table before trying again.",
        "fr": "La base des parties a cessé de répondre pendant l'enregistrement ; il est peut-être "
        "enregistré, peut-être pas. Regarde la table avant de réessayer.",
    },
    "error.stale-command": {
        "en": "This command has changed since Discord showed it to you; nothing was done. "
        "Reload Discord (Ctrl+R) and try again.",
        "fr": "Cette commande a changé depuis que Discord te l'a affichée ; rien n'a été fait. "
        "Recharge Discord (Ctrl+R) et réessaie.",
    },
    "error.stale-button": {
        "en": "This button no longer works; here is the game now:\n{game}",
        "fr": "Ce bouton ne marche plus ; voici la partie maintenant :\n{game}",
    },
    "error.stale-button-none": {
        "en": "This button no longer works, and there is no game in this channel now. "
        "`/mt new` opens one.",
        "fr": "Ce bouton ne marche plus, et il n'y a pas de partie dans ce salon. "
        "`/mt nouvelle` en ouvre une.",
    },
    "error.bad-choice": {
        "en": "`{option}` can't be “{value}”: pick one of {choices}. Nothing changed.",
        "fr": "`{option}` ne peut pas valoir « {value} » : choisis parmi {choices}. "
        "Rien n'a changé.",
    },
    "error.bad-option": {
        "en": "`{option}` was sent in a form I can't read; nothing changed.",
        "fr": "`{option}` est arrivé sous une forme illisible ; rien n'a changé.",
    },
    "error.too-long": {
        "en": "`{option}` is too long: at most {limit} {limit:character|characters}. "
        "Nothing changed.",
        "fr": "`{option}` est trop long : {limit} {limit:caractère|caractères} au plus. "
        "Rien n'a changé.",
    },
    "error.too-short": {
        "en": "`{option}` is too short: at least {limit} {limit:character|characters}. "
        "Nothing changed.",
        "fr": "`{option}` est trop court : {limit} {limit:caractère|caractères} au moins. "
        "Rien n'a changé.",
    },
    "error.out-of-range": {
        "en": "`{option}` must be between {low} and {high}. Nothing changed.",
        "fr": "`{option}` doit être entre {low} et {high}. Rien n'a changé.",
    },
}
