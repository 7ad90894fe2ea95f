"""Texts of the catch-up digest (issue 29): "what happened since your last turn", the
``/mt catchup`` command and the Catch me up button. The sentences are put together by
:mod:`bot.ui.catchup`; counted words use ``.one``/``.many`` (:func:`bot.i18n.tr_count`).
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "catchup.undone.by": {
        "en": "↩ {name} took back your turn ({moves}): your tiles are back in your hand.",
        "fr": "↩ {name} a annulé ton tour ({moves}) : tes dominos sont revenus dans ta main.",
    },
    "catchup.undone": {
        "en": "↩ Your turn ({moves}) was taken back: your tiles are back in your hand.",
        "fr": "↩ Ton tour ({moves}) a été annulé : tes dominos sont revenus dans ta main.",
    },
    # ---- the command and the button
    "cmd.name.catchup": {"en": "catchup", "fr": "résumé"},
    "cmd.desc.What happened since your last turn, with the table and your hand (only you)": {
        "en": "What happened since your last turn, with the table and your hand (only you)",
        "fr": "Ce qui s'est passé depuis ton dernier tour, avec la table et ta main (toi seul)",
    },
    "button.catchup": {"en": "Catch me up", "fr": "Quoi de neuf ?"},
    "catchup.title": {
        "en": "Game #{game} · round {round}/{rounds}",
        "fr": "Partie n°{game} · manche {round}/{rounds}",
    },
    "error.not-your-game": {
        "en": "You are not playing in game #{game}.",
        "fr": "Tu ne joues pas dans la partie n°{game}.",
    },
    "catchup.hand-title": {"en": "Your hand", "fr": "Ta main"},
    # ---- headers
    "catchup.head.turn": {"en": "**Since your last turn:**", "fr": "**Depuis ton dernier tour :**"},
    "catchup.head.start": {
        "en": "**Since the game began:**",
        "fr": "**Depuis le début de la partie :**",
    },
    "catchup.head.recent.one": {"en": "**The last move:**", "fr": "**Le dernier coup :**"},
    "catchup.head.recent.many": {
        "en": "**The last {count} moves:**",
        "fr": "**Les {count} derniers coups :**",
    },
    "catchup.nothing": {
        "en": "Nothing has been played since.",
        "fr": "Rien n'a été joué depuis.",
    },
    "catchup.nothing-yet": {
        "en": "Nothing has been played yet.",
        "fr": "Rien n'a encore été joué.",
    },
    # ---- people and trains, filled into the sentences below
    "catchup.you": {"en": "you", "fr": "toi"},
    "catchup.sep": {"en": "; ", "fr": " ; "},
    "catchup.names.two": {"en": "{a} and {b}", "fr": "{a} et {b}"},
    "catchup.names.more": {"en": "{list} and {count} others", "fr": "{list} et {count} autres"},
    "catchup.train.mexican": {"en": "the Mexican Train", "fr": "le Train mexicain"},
    "catchup.train.yours": {"en": "your train", "fr": "ton train"},
    "catchup.train.own": {"en": "their own train", "fr": "son propre train"},
    "catchup.train.of": {"en": "{name}'s train", "fr": "le train de {name}"},
    "catchup.train.of-vowel": {"en": "{name}'s train", "fr": "le train d'{name}"},
    # ---- moves, short: "Carol: drew, passed (train open)"
    "catchup.bit.play": {"en": "{tile} on {train}", "fr": "{tile} sur {train}"},
    "catchup.bit.double": {"en": "(double)", "fr": "(double)"},
    "catchup.bit.draw": {"en": "drew", "fr": "a pioché"},
    "catchup.bit.pass": {"en": "passed", "fr": "a passé"},
    "catchup.bit.pass-open": {"en": "passed (train open)", "fr": "a passé (train ouvert)"},
    "catchup.bit.done": {"en": "ended the fast start", "fr": "a fini son départ rapide"},
    "catchup.bit.knock": {"en": "knocked", "fr": "a frappé"},
    "catchup.bit.catch": {"en": "caught {name} (+{count})", "fr": "a surpris {name} (+{count})"},
    "catchup.bit.timeout": {"en": "time ran out", "fr": "temps écoulé"},
    "catchup.bit.away": {"en": "away", "fr": "absent·e"},
    "catchup.bit.autoplay": {"en": "no choice", "fr": "aucun choix"},
    "catchup.turn": {"en": "{name}: {bits}", "fr": "{name} : {bits}"},
    "catchup.turn.for": {"en": "{name} ({why}): {bits}", "fr": "{name} ({why}) : {bits}"},
    # ---- your train
    "catchup.mine": {"en": "🚂 On your train: {list}.", "fr": "🚂 Sur ton train : {list}."},
    "catchup.mine.item": {"en": "{name} {tile}", "fr": "{name} {tile}"},
    "catchup.mine.sum": {
        "en": "🚂 On your train: {tiles} ({who}); the last: {list}.",
        "fr": "🚂 Sur ton train : {tiles} ({who}) ; les derniers : {list}.",
    },
    "catchup.mine.short": {
        "en": "🚂 On your train: {tiles} ({who}).",
        "fr": "🚂 Sur ton train : {tiles} ({who}).",
    },
    # ---- turns played for you: the icon the channel's line gave the same turns (⏰ out of
    # time, 🏖️ away, ⏩ no choice), so the DM and the post read as one story
    "catchup.for-you.one": {
        "en": "{icon} Your turn was played for you ({why}): {what}.",
        "fr": "{icon} Ton tour a été joué à ta place ({why}) : {what}.",
    },
    "catchup.for-you.many": {
        "en": "{icon} {count} of your turns were played for you ({why}): {what}.",
        "fr": "{icon} {count} de tes tours ont été joués à ta place ({why}) : {what}.",
    },
    "catchup.for-you.short.one": {
        "en": "{icon} Your turn was played for you ({why}).",
        "fr": "{icon} Ton tour a été joué à ta place ({why}).",
    },
    "catchup.for-you.short.many": {
        "en": "{icon} {count} of your turns were played for you ({why}).",
        "fr": "{icon} {count} de tes tours ont été joués à ta place ({why}).",
    },
    "catchup.for-you.least.one": {
        "en": "{icon} Your turn was played for you.",
        "fr": "{icon} Ton tour a été joué à ta place.",
    },
    "catchup.for-you.least.many": {
        "en": "{icon} {count} of your turns were played for you.",
        "fr": "{icon} {count} de tes tours joués à ta place.",
    },
    # A turn the bot began for you and handed back: its draw fits, your turn goes on.
    "catchup.drew-for-you": {
        "en": "{icon} I drew for you ({why}): {tile}. It fits: play it.",
        "fr": "{icon} J'ai pioché pour toi ({why}) : {tile}. Il va : pose-le.",
    },
    "catchup.drew-for-you.unnamed": {
        "en": "{icon} I drew for you ({why}). The tile fits: play it.",
        "fr": "{icon} J'ai pioché pour toi ({why}). Le domino va : pose-le.",
    },
    "catchup.why.timeout": {"en": "time ran out", "fr": "temps écoulé"},
    "catchup.why.away": {"en": "you were away", "fr": "tu étais absent·e"},
    "catchup.why.autoplay": {"en": "you had no choice", "fr": "tu n'avais pas le choix"},
    "catchup.why.mixed": {
        "en": "you were away, out of time or had no choice",
        "fr": "tu étais absent·e, hors délai ou sans choix",
    },
    "catchup.why.both": {
        "en": "time ran out, or you were away",
        "fr": "temps écoulé, ou tu étais absent·e",
    },
    # ---- the table now
    "catchup.doubles.one": {
        "en": "⚠️ A double to cover: {list}.",
        "fr": "⚠️ Un double à compléter : {list}.",
    },
    "catchup.doubles.many": {
        "en": "⚠️ Doubles to cover, in order: {list}.",
        "fr": "⚠️ Doubles à compléter, dans l'ordre : {list}.",
    },
    "catchup.doubles.short": {
        "en": "⚠️ {count} doubles to cover, first {first}.",
        "fr": "⚠️ {count} doubles à compléter, d'abord {first}.",
    },
    "catchup.one-tile": {
        "en": "☝️ One tile left: {list}.",
        "fr": "☝️ Plus qu'un domino : {list}.",
    },
    "catchup.knocked": {"en": "(knocked)", "fr": "(a frappé)"},
    "catchup.one-tile.short.one": {
        "en": "☝️ {count} player has one tile left.",
        "fr": "☝️ {count} joueur n'a plus qu'un domino.",
    },
    "catchup.one-tile.short.many": {
        "en": "☝️ {count} players have one tile left.",
        "fr": "☝️ {count} joueurs n'ont plus qu'un domino.",
    },
    "catchup.opened": {"en": "🚩 Open now: {list}.", "fr": "🚩 Ouverts maintenant : {list}."},
    "catchup.closed": {"en": "🔒 Closed again: {list}.", "fr": "🔒 Refermés : {list}."},
    "catchup.mexican": {
        "en": "🚃 {name} started the Mexican Train ({tile}).",
        "fr": "🚃 {name} a lancé le Train mexicain ({tile}).",
    },
    "catchup.mexican.you": {
        "en": "🚃 The Mexican Train was started for you ({tile}).",
        "fr": "🚃 Le Train mexicain a été lancé à ta place ({tile}).",
    },
    "catchup.taken-over": {
        "en": "🤖 A computer player now plays for {list}.",
        "fr": "🤖 Un ordinateur joue désormais pour {list}.",
    },
    # ---- rounds
    "catchup.round.out": {
        "en": "🏁 Round {round} is over: {name} went out.",
        "fr": "🏁 La manche {round} est finie : {name} a posé son dernier domino.",
    },
    "catchup.round.out.you": {
        "en": "🏁 Round {round} is over: you went out.",
        "fr": "🏁 La manche {round} est finie : tu as posé ton dernier domino.",
    },
    "catchup.round.blocked": {
        "en": "🏁 Round {round} is over: blocked, nobody could play.",
        "fr": "🏁 La manche {round} est finie : bloquée, personne ne pouvait jouer.",
    },
    "catchup.round.score": {"en": "You scored {points}.", "fr": "Tu marques {points}."},
    "catchup.rounds": {
        "en": "🏁 Rounds {first} to {last} are over.",
        "fr": "🏁 Les manches {first} à {last} sont finies.",
    },
    "catchup.rounds.score": {
        "en": "You scored {points} in them.",
        "fr": "Tu y as marqué {points}.",
    },
    "catchup.dealt": {
        "en": "🎲 Round {round}/{rounds} is being played (engine {engine}).",
        "fr": "🎲 La manche {round}/{rounds} est en cours (locomotive {engine}).",
    },
    "catchup.match-over": {"en": "🏆 The match is over.", "fr": "🏆 La partie est finie."},
    "catchup.totals": {"en": "📊 Totals: {list}.", "fr": "📊 Totaux : {list}."},
    "catchup.place": {
        "en": "📊 Your place: {place} of {players} ({total}); leading: {leaders} ({low}).",
        "fr": "📊 Ta place : {place} sur {players} ({total}) ; en tête : {leaders} ({low}).",
    },
    "catchup.leading": {
        "en": "📊 Leading: {leaders} ({low}).",
        "fr": "📊 En tête : {leaders} ({low}).",
    },
    # ---- the other moves
    "catchup.others": {"en": "↪️ Other moves: {list}.", "fr": "↪️ Autres coups : {list}."},
    "catchup.moves": {"en": "{list}.", "fr": "{list}."},
    # ---- every move since, named in the fewest words (bot.ui.compact): a big table's turns
    "compact.others": {"en": "↪️ Others: {list}.", "fr": "↪️ Les autres : {list}."},
    # the others' moves before the reader's last turn, played for them: counted (issue 47)
    "compact.earlier.one": {
        "en": "⏮️ Up to the turn played for you: {moves} by the others.",
        "fr": "⏮️ Jusqu'au tour joué à ta place : {moves} des autres.",
    },
    "compact.earlier.many": {
        "en": "⏮️ Up to the last turn played for you: {moves} by the others.",
        "fr": "⏮️ Jusqu'au dernier tour joué à ta place : {moves} des autres.",
    },
    "compact.moves.one": {"en": "{count} move", "fr": "{count} coup"},
    "compact.moves.many": {"en": "{count} moves", "fr": "{count} coups"},
    "compact.own": {"en": "own", "fr": "le sien"},
    "compact.yours": {"en": "yours", "fr": "le tien"},
    "compact.mexican": {"en": "Mex", "fr": "Mex"},
    "compact.on": {"en": "on {name}", "fr": "sur {name}"},
    "compact.done": {"en": "done", "fr": "fini"},
    "compact.draw": {"en": "drew", "fr": "pioche"},
    "compact.knock": {"en": "knocked", "fr": "frappe"},
    "catchup.sum.played.one": {"en": "{names} played {tiles}", "fr": "{names} a posé {tiles}"},
    "catchup.sum.played.many": {"en": "{names} played {tiles}", "fr": "{names} ont posé {tiles}"},
    "catchup.sum.mexican": {
        "en": "({count} on the Mexican Train)",
        "fr": "(dont {count} sur le Train mexicain)",
    },
    "catchup.sum.all-mexican": {"en": "on the Mexican Train", "fr": "sur le Train mexicain"},
    "catchup.sum.drew.one": {"en": "{names} drew {times}", "fr": "{names} a pioché {times}"},
    "catchup.sum.drew.many": {"en": "{names} drew {times}", "fr": "{names} ont pioché {times}"},
    "catchup.sum.passed.one": {"en": "{names} passed {times}", "fr": "{names} a passé {times}"},
    "catchup.sum.passed.many": {
        "en": "{names} passed {times}",
        "fr": "{names} ont passé {times}",
    },
    "catchup.sum.short.one": {
        "en": "↪️ {count} other move, by {names}.",
        "fr": "↪️ {count} autre coup, par {names}.",
    },
    "catchup.sum.short.many": {
        "en": "↪️ {count} other moves, by {names}.",
        "fr": "↪️ {count} autres coups, par {names}.",
    },
    "catchup.count.tiles.one": {"en": "{count} tile", "fr": "{count} domino"},
    "catchup.count.tiles.many": {"en": "{count} tiles", "fr": "{count} dominos"},
    "catchup.count.points.one": {"en": "{count} point", "fr": "{count} point"},
    "catchup.count.points.many": {"en": "{count} points", "fr": "{count} points"},
    "catchup.count.times.one": {"en": "once", "fr": "une fois"},
    "catchup.count.times.many": {"en": "{count} times", "fr": "{count} fois"},
    # ---- where you stand
    "catchup.status": {
        "en": "🎯 Your train ends at {end}{open} · you hold {tiles}.",
        "fr": "🎯 Ton train finit sur {end}{open} · tu as {tiles}.",
    },
    "catchup.status.unstarted": {
        "en": "🎯 Your train{open} is not started: it needs {end} · you hold {tiles}.",
        "fr": "🎯 Ton train{open} n'est pas commencé : il faut {end} · tu as {tiles}.",
    },
    "catchup.status.open": {"en": " (open)", "fr": " (ouvert)"},
    "catchup.status.short": {
        "en": "🎯 Your train: {end}{open} · {tiles}.",
        "fr": "🎯 Ton train : {end}{open} · {tiles}.",
    },
    "catchup.status.your-turn": {"en": "🎲 It is your turn.", "fr": "🎲 C'est à toi de jouer."},
    "catchup.status.turn": {"en": "⏳ {name} is to play.", "fr": "⏳ C'est à {name} de jouer."},
}
