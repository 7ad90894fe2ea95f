"""A finished match's review (issue 49: ``/mt review`` and the end-of-match DM's button), in
both languages."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "button.review": {"en": "Review my match", "fr": "Bilan de ma partie"},
    "review.head": {
        "en": "🔍 **Your review of game #{game}** ({name}): {examined} of your decisions "
        "with a choice examined.",
        "fr": "🔍 **Ton bilan de la partie n°{game}** ({name}) : {examined} de tes décisions "
        "à choix examinées.",
    },
    "review.partial": {
        "en": "(The review's CPU budget ran out after {examined} of {decisions} decisions: "
        "those where you played otherwise than the Hard player came first.)",
        "fr": "(Le budget de calcul du bilan s'est épuisé après {examined} décisions sur "
        "{decisions} : celles où tu as joué autrement que le joueur Difficile d'abord.)",
    },
    "review.none": {
        "en": "✅ No decision where another move was clearly better.",
        "fr": "✅ Aucune décision où un autre coup était nettement meilleur.",
    },
    "review.some": {
        "en": "{count} {count:decision|decisions} where another move was clearly better:",
        "fr": "{count} {count:décision|décisions} où un autre coup était nettement meilleur :",
    },
    "review.finding": {
        "en": "• Round {round}, your turn {turn}: you played {played}; {better} was better "
        "by about {gain} {gain:point|points} ({low} to {high}).",
        "fr": "• Manche {round}, ton tour {turn} : tu as joué {played} ; {better} était "
        "meilleur d'environ {gain} {gain:point|points} ({low} à {high}).",
    },
    # Every world gave the same gain (late in a round, what is hidden no longer matters).
    "review.finding.sure": {
        "en": "• Round {round}, your turn {turn}: you played {played}; {better} was better "
        "by {gain} {gain:point|points} whatever the hidden tiles.",
        "fr": "• Manche {round}, ton tour {turn} : tu as joué {played} ; {better} était "
        "meilleur de {gain} {gain:point|points} quels que soient les dominos cachés.",
    },
    "review.more": {
        "en": "… and {count} more.",
        "fr": "… et {count} de plus.",
    },
    "review.move.play": {"en": "{tile} on {train}", "fr": "{tile} sur {train}"},
    "review.train.own": {"en": "your train ({ref})", "fr": "ton train ({ref})"},
    "review.train.other": {"en": "{name}'s train ({ref})", "fr": "le train de {name} ({ref})"},
    "review.train.mexican": {"en": "the Mexican Train", "fr": "le Train mexicain"},
    "review.move.draw": {"en": "drawing", "fr": "piocher"},
    "review.move.pass": {"en": "passing", "fr": "passer"},
    "review.move.other": {"en": "`{move}`", "fr": "`{move}`"},
    "review.luck": {
        "en": "🎲 Luck of the deals, in points against an average deal: {luck} over the match "
        "(by round: {rounds}).",
        "fr": "🎲 Chance aux donnes, en points par rapport à une donne moyenne : {luck} sur la "
        "partie (par manche : {rounds}).",
    },
    "review.how": {
        "en": "-# How: at each decision, your move and the others were played out to the round's "
        "end in the same {worlds} deals of the tiles you could not see, consistent with what "
        "you had seen; a move is named only when its gain's 95 % interval is above 0. Luck: "
        "what your dealt hands were worth, played out, minus a random hand's.",
        "fr": "-# Comment : à chaque décision, ton coup et les autres ont été joués jusqu'à la "
        "fin de la manche dans les mêmes {worlds} donnes des dominos que tu ne voyais pas, "
        "cohérentes avec ce que tu avais vu ; un coup n'est cité que si l'intervalle à 95 % "
        "de son gain est au-dessus de 0. Chance : ce que valaient tes mains, jouées jusqu'au "
        "bout, moins une main au hasard.",
    },
    "review.picture": {
        "en": "The table before round {round}, your turn {turn}, where you lost the most.",
        "fr": "La table avant la manche {round}, ton tour {turn}, où tu as perdu le plus.",
    },
    "review.failed": {
        "en": "Your review could not be computed just now: try again in a few minutes.",
        "fr": "Ton bilan n'a pas pu être calculé pour l'instant : réessaie dans quelques minutes.",
    },
    "error.review-unfinished": {
        "en": "Game #{game} is not finished: its review comes when the match ends.",
        "fr": "La partie n°{game} n'est pas terminée : son bilan vient à la fin de la partie.",
    },
    "error.review-not-yours": {
        "en": "You did not play game #{game} to its end: you can only review your own matches.",
        "fr": "Tu n'as pas joué la partie n°{game} jusqu'au bout : tu ne peux faire le bilan "
        "que de tes propres parties.",
    },
}
