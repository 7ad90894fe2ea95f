"""Playing across time zones: reminders, timeouts, away, nudges, /mt mygames, stalled games."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- what the computer did for an absent player ({what} is one of schedule.what.*)
    "schedule.what.played": {"en": "played {tiles}", "fr": "a posé {tiles}"},
    "schedule.what.drew-played": {
        "en": "drew and played {tiles}",
        "fr": "a pioché puis posé {tiles}",
    },
    "schedule.what.drew-passed": {"en": "drew and passed", "fr": "a pioché puis passé"},
    "schedule.what.drew": {"en": "drew", "fr": "a pioché"},
    "schedule.what.passed": {"en": "passed", "fr": "a passé"},
    "schedule.what.moved": {"en": "moved", "fr": "a joué"},
    "schedule.timeout.computer": {
        "en": "⏰ {name}'s time ran out: the computer {what} for them.",
        "fr": "⏰ Le temps de {name} est écoulé : l'ordinateur {what} à sa place.",
    },
    "schedule.timeout.skip": {
        "en": "⏰ {name}'s time ran out: their turn was skipped (the bot {what} for them).",
        "fr": "⏰ Le temps de {name} est écoulé : son tour est sauté (le bot {what} à sa place).",
    },
    "schedule.timeout.replaced": {
        "en": "⏰ {name} missed {missed} {missed:turn|turns} in a row: a computer player takes "
        "their seat for the rest of the game and {what}.",
        "fr": "⏰ {name} a manqué {missed} {missed:tour|tours} de suite : un ordinateur prend sa "
        "place jusqu'à la fin de la partie et {what}.",
    },
    "schedule.away.played": {
        "en": "🏖️ {name} is away: the computer {what} for them.",
        "fr": "🏖️ {name} est absent·e : l'ordinateur {what} à sa place.",
    },
    # ---- reminders and nudges
    "schedule.by": {"en": "Play by {when}.", "fr": "À jouer avant {when}."},
    "schedule.remind.channel": {
        "en": "⏰ {mention}, a reminder: it's your turn in game #{game}. {by} {link}",
        "fr": "⏰ {mention}, un rappel : c'est ton tour dans la partie n°{game}. {by} {link}",
    },
    "schedule.remind.dm": {
        "en": "⏰ A reminder: it's your turn in game #{game} ({channel}). {by} {link}",
        "fr": "⏰ Un rappel : c'est ton tour dans la partie n°{game} ({channel}). {by} {link}",
    },
    "schedule.nudge.channel": {
        "en": "👋 {mention}, {by_name} is waiting for your move in game #{game}. {by}",
        "fr": "👋 {mention}, {by_name} attend ton coup dans la partie n°{game}. {by}",
    },
    "schedule.nudge.dm": {
        "en": "👋 {by_name} is waiting for your move in game #{game} ({channel}). {by} {link}",
        "fr": "👋 {by_name} attend ton coup dans la partie n°{game} ({channel}). {by} {link}",
    },
    "schedule.nudge.done": {"en": "Nudged {name}.", "fr": "{name} a été relancé·e."},
    "schedule.nudge.quiet": {
        "en": "Nudged {name} without a ping: it's their quiet hours until {when}.",
        "fr": "{name} relancé·e sans notification : ses heures calmes durent jusqu'à {when}.",
    },
    "schedule.link": {"en": "[Jump to the table]({url})", "fr": "[Voir la table]({url})"},
    # ---- away
    "schedule.away.on.one": {
        "en": "You're away: the computer plays your turns at once ({count} game now) until "
        "you use /mt away off.",
        "fr": "Tu es absent·e : l'ordinateur joue tes tours tout de suite ({count} partie en "
        "cours) jusqu'à /mt absent off.",
    },
    "schedule.away.on.many": {
        "en": "You're away: the computer plays your turns at once ({count} games now) until "
        "you use /mt away off.",
        "fr": "Tu es absent·e : l'ordinateur joue tes tours tout de suite ({count} parties en "
        "cours) jusqu'à /mt absent off.",
    },
    "schedule.away.off": {
        "en": "Welcome back: your turns are yours again.",
        "fr": "Bon retour : tes tours sont de nouveau à toi.",
    },
    "schedule.away.channel-on": {
        "en": "🏖️ {name} is away: the computer plays their turns until they're back.",
        "fr": "🏖️ {name} est absent·e : l'ordinateur joue ses tours jusqu'à son retour.",
    },
    "schedule.away.channel-off": {
        "en": "👋 {name} is back and plays their own turns again.",
        "fr": "👋 {name} est de retour et joue de nouveau ses tours.",
    },
    # ---- /mt mygames
    "schedule.mine.head": {"en": "**Your games** ({count}):", "fr": "**Tes parties** ({count}) :"},
    "schedule.mine.none": {
        "en": "You have no games going here.",
        "fr": "Tu n'as aucune partie en cours ici.",
    },
    "schedule.mine.turn": {
        "en": "▶️ **Your turn** — game #{game} in {where}. {by} {link}",
        "fr": "▶️ **À toi** — partie n°{game} dans {where}. {by} {link}",
    },
    "schedule.mine.waiting": {
        "en": "⏳ Game #{game} in {where}: waiting for {name}. {link}",
        "fr": "⏳ Partie n°{game} dans {where} : on attend {name}. {link}",
    },
    "schedule.mine.lobby": {
        "en": "🪑 Lobby #{game} in {where}: waiting to start. {link}",
        "fr": "🪑 Salon d'attente n°{game} dans {where} : pas encore commencé. {link}",
    },
    # ---- stalled games
    "schedule.stall.warn": {
        "en": "⚠️ Game #{game} has had no move for {days} {days:day|days}. {mention}, it's your "
        "turn: play, or the game closes {when} (the scores so far are kept).",
        "fr": "⚠️ Aucun coup depuis {days} {days:jour|jours} dans la partie n°{game}. {mention}, "
        "c'est ton tour : joue, ou la partie sera close {when} (les scores actuels sont gardés).",
    },
    "schedule.stall.warn-lobby": {
        "en": "⚠️ Lobby #{game} has waited {days} {days:day|days}. {mention}: start it, or it "
        "closes {when}.",
        "fr": "⚠️ La partie n°{game} attend depuis {days} {days:jour|jours}. {mention} : "
        "lance-la, ou elle sera close {when}.",
    },
    "schedule.stall.closed": {
        "en": "🛑 Game #{game} was closed: nobody moved after the warning. It counts as "
        "abandoned (nobody wins); the scores so far are kept:\n{standings}",
        "fr": "🛑 La partie n°{game} est close : personne n'a joué après l'avertissement. Elle "
        "compte comme abandonnée (aucun gagnant) ; les scores actuels sont gardés :\n{standings}",
    },
    "schedule.stall.closed-lobby": {
        "en": "🛑 Lobby #{game} was closed: it never started.",
        "fr": "🛑 La partie n°{game} est close : elle n'a jamais commencé.",
    },
    # ---- settings, status
    "schedule.me": {
        "en": "Time zone: {zone} (it's {local} there). Quiet hours: {quiet}. Reminders: {how}. "
        "Away: {away}.",
        "fr": "Fuseau horaire : {zone} (il y est {local}). Heures calmes : {quiet}. "
        "Rappels : {how}. Absent·e : {away}.",
    },
    "schedule.me.quiet": {"en": "{start}:00 to {end}:00", "fr": "de {start} h à {end} h"},
    "schedule.me.none": {"en": "none", "fr": "aucune"},
    "schedule.me.channel": {"en": "a mention in the channel", "fr": "une mention dans le salon"},
    "schedule.me.dm": {"en": "by DM", "fr": "par MP"},
    "schedule.me.off": {"en": "off", "fr": "désactivés"},
    "schedule.settings": {
        "en": "New games: turn deadline {deadline}; when time runs out: {policy}. Stalled games "
        "are warned after {stall} and closed {grace} later.",
        "fr": "Nouvelles parties : délai par tour {deadline} ; temps écoulé : {policy}. Les "
        "parties bloquées sont averties après {stall} puis closes {grace} plus tard.",
    },
    "schedule.hours": {"en": "{hours} h", "fr": "{hours} h"},
    "schedule.days": {"en": "{days} {days:day|days}", "fr": "{days} {days:jour|jours}"},
    "schedule.never": {"en": "never", "fr": "jamais"},
    "schedule.no-deadline": {"en": "none", "fr": "aucun"},
    "schedule.policy.computer": {
        "en": "the computer plays that turn",
        "fr": "l'ordinateur joue ce tour",
    },
    "schedule.policy.skip": {
        "en": "the turn is skipped (draw and pass)",
        "fr": "le tour est sauté (pioche et passe)",
    },
    "schedule.policy.replace": {
        "en": "the computer plays that turn, and takes the seat after {count} {count:turn|turns} "
        "missed in a row",
        "fr": "l'ordinateur joue ce tour, et prend la place après {count} "
        "{count:tour manqué|tours manqués} de suite",
    },
    "schedule.status.policy": {
        "en": "When time runs out: {policy}.",
        "fr": "Temps écoulé : {policy}.",
    },
    "schedule.status.away": {"en": "Away: {names}.", "fr": "Absent·es : {names}."},
    "schedule.opened": {
        "en": "Turn deadline: {deadline}; when time runs out: {policy}.",
        "fr": "Délai par tour : {deadline} ; temps écoulé : {policy}.",
    },
    # ---- refusals (error.<code> of the service's errors)
    "error.nudge-too-soon": {
        "en": "This game was nudged recently: you can nudge again <t:{when}:R>.",
        "fr": "Cette partie a été relancée récemment : tu pourras relancer <t:{when}:R>.",
    },
    "error.nudge-self": {
        "en": "It's your own turn: play!",
        "fr": "C'est ton propre tour : joue !",
    },
    "error.nudge-computer": {
        "en": "A computer player is to move; it needs no nudge.",
        "fr": "C'est à un ordinateur de jouer ; inutile de le relancer.",
    },
    "error.bad-time-zone": {
        "en": "{zone} is not a time zone I know: pick one from the list (e.g. Europe/Paris).",
        "fr": "Je ne connais pas le fuseau {zone} : choisis-en un dans la liste "
        "(par ex. Europe/Paris).",
    },
    "error.bad-quiet": {
        "en": "Quiet hours are whole hours from 0 to 23.",
        "fr": "Les heures calmes sont des heures entières de 0 à 23.",
    },
}
