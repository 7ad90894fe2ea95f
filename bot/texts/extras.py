"""Sentences of history, export, replay, stats, leaderboard, undo, rematch and languages; and
French for refusals that used to reach French players in English (engine and service codes).
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- spectators
    "table.open-hands": {
        "en": "Open hands (house rule): everyone's tiles",
        "fr": "Mains ouvertes (règle maison) : les dominos de chacun",
    },
    # ---- history
    "history.round": {
        "en": "Round {round} · engine {engine}",
        "fr": "Manche {round} · locomotive {engine}",
    },
    "history.round.cont": {"en": "Round {round} (continued)", "fr": "Manche {round} (suite)"},
    "history.undone": {"en": "(undone)", "fr": "(annulé)"},
    "history.undo": {
        "en": "↩ {host} took back {name}'s turn: {moves}",
        "fr": "↩ {host} a annulé le tour de {name} : {moves}",
    },
    "history.left": {
        "en": "{name} left; a computer plays the seat",
        "fr": "{name} est parti ; un ordinateur joue à sa place",
    },
    "history.kick": {
        "en": "{name} was removed; a computer plays the seat",
        "fr": "{name} a été retiré ; un ordinateur joue à sa place",
    },
    "history.end": {"en": "The game was ended.", "fr": "La partie a été arrêtée."},
    "history.empty": {"en": "No moves yet.", "fr": "Aucun coup pour l'instant."},
    "history.older": {"en": "◀ Older", "fr": "◀ Plus anciens"},
    "history.newer": {"en": "Newer ▶", "fr": "Plus récents ▶"},
    "error.no-such-game": {
        "en": "There is no game #{game} on this server.",
        "fr": "Il n'y a pas de partie n°{game} sur ce serveur.",
    },
    # ---- export and replay
    "export.done": {
        "en": "Game #{game} as a file: its rules, the players' names and every move "
        "(`bot.engine.Match.replay_dicts` loads it back).",
        "fr": "La partie n°{game} en fichier : ses règles, les noms des joueurs et tous les coups "
        "(`bot.engine.Match.replay_dicts` la recharge).",
    },
    "error.export-unfinished": {
        "en": "Only a finished game can be exported: the file shows every hand.",
        "fr": "Seule une partie terminée peut être exportée : le fichier montre toutes les mains.",
    },
    "error.history-file-page": {
        "en": "The file holds every move of the game, not a page: use `file:True` without `page:`.",
        "fr": "Le fichier contient tous les coups de la partie, pas une page : utilise "
        "`fichier:True` sans `page:`.",
    },
    "replay.title": {
        "en": "Game #{game} — round {round}/{rounds} replayed ({frames} {frames:picture|pictures})",
        "fr": "Partie n°{game} — manche {round}/{rounds} rejouée ({frames} {frames:image|images})",
    },
    "error.no-round": {
        "en": "There is no round {round} yet.",
        "fr": "Pas encore de manche {round}.",
    },
    "error.replay-too-big": {
        "en": "That replay is too big to upload here.",
        "fr": "Ce replay est trop lourd pour être envoyé ici.",
    },
    "error.replay-failed": {
        "en": "The replay could not be drawn just now; try again in a moment.",
        "fr": "Le replay n'a pas pu être dessiné ; réessaie dans un instant.",
    },
    # ---- stats and leaderboard
    "stats.title": {
        "en": "Statistics of {name} on this server",
        "fr": "Statistiques de {name} sur ce serveur",
    },
    "stats.none": {
        "en": "{name} has not finished a game on this server yet.",
        "fr": "{name} n'a pas encore terminé de partie sur ce serveur.",
    },
    "stats.games": {
        "en": "**Games:** {games} played, {wins} won ({rate})",
        "fr": "**Parties :** jouées {games}, gagnées {wins} ({rate})",
    },
    "stats.rounds": {
        "en": "**Rounds:** {rounds} played, {won} won by going out",
        "fr": "**Manches :** jouées {rounds}, gagnées en posant tout {won}",
    },
    "stats.average": {
        "en": "**Average round score:** {avg} (lower is better)",
        "fr": "**Score moyen par manche :** {avg} (plus bas = mieux)",
    },
    "stats.best": {
        "en": "**Best match score:** {best}",
        "fr": "**Meilleur score de partie :** {best}",
    },
    "stats.double-blank.one": {
        "en": "**Caught holding the double blank (0-0):** {count} round",
        "fr": "**Surpris avec le double blanc (0-0) en main :** {count} manche",
    },
    "stats.double-blank.many": {
        "en": "**Caught holding the double blank (0-0):** {count} rounds",
        "fr": "**Surpris avec le double blanc (0-0) en main :** {count} manches",
    },
    "stats.longest": {
        "en": "**Longest own train:** {tiles} {tiles:tile|tiles}",
        "fr": "**Plus long train personnel :** {tiles} {tiles:domino|dominos}",
    },
    "stats.vs-computer": {
        "en": "**Against computer players:** {wins} won of {games} ({rate})",
        "fr": "**Contre les ordinateurs :** gagnées {wins} sur {games} ({rate})",
    },
    "stats.vs-none": {
        "en": "**Against computer players:** no games yet",
        "fr": "**Contre les ordinateurs :** aucune partie",
    },
    "leaderboard.title": {"en": "Leaderboard of this server", "fr": "Classement de ce serveur"},
    "leaderboard.line": {
        "en": "{place}. {mention} — {wins} in {games} ({rate}), {avg} per round",
        "fr": "{place}. {mention} — {wins} en {games} ({rate}), {avg} par manche",
    },
    "leaderboard.empty": {
        "en": "No finished games on this server yet.",
        "fr": "Aucune partie terminée sur ce serveur pour l'instant.",
    },
    # ---- undo
    "undo.channel": {
        "en": "↩ {host} took back {name}'s turn ({moves}).",
        "fr": "↩ {host} a annulé le tour de {name} ({moves}).",
    },
    "undo.channel.own": {
        "en": "↩ {name} took back their own turn ({moves}).",
        "fr": "↩ {name} a repris son tour ({moves}).",
    },
    "undo.computers.one": {
        "en": "The computer move that followed was taken back too.",
        "fr": "Le coup d'ordinateur qui a suivi est aussi annulé.",
    },
    "undo.computers.many": {
        "en": "The {count} computer moves that followed were taken back too.",
        "fr": "Les {count} coups d'ordinateur qui ont suivi sont aussi annulés.",
    },
    # Moves the bot played for a human with no choice after the turn taken back: not a
    # computer player's (a table without one must not read "the computer move").
    "undo.played-for.one": {
        "en": "The move the bot then played for a player with no choice was taken back too.",
        "fr": "Le coup que le bot a ensuite joué pour un joueur sans choix est aussi annulé.",
    },
    "undo.played-for.many": {
        "en": "The {count} moves the bot then played for players with no choice were taken "
        "back too.",
        "fr": "Les {count} coups que le bot a ensuite joués pour des joueurs sans choix sont "
        "aussi annulés.",
    },
    "undo.done": {"en": "Undone: {moves}.", "fr": "Annulé : {moves}."},
    "undo.bit.catch": {"en": "caught {name}", "fr": "a surpris {name}"},
    "error.undo-nothing": {
        "en": "Nothing to undo: nobody has played since the deal "
        "(a finished round can't be undone).",
        "fr": "Rien à annuler : personne n'a joué depuis la donne "
        "(une manche terminée ne s'annule pas).",
    },
    "error.undo-later": {
        "en": "{name} has already played since: only the last turn can be undone.",
        "fr": "{name} a déjà joué depuis : seul le dernier tour peut être annulé.",
    },
    "error.undo-not-yours": {
        "en": "You can take back only your own last turn, before anyone else plays: "
        "{name} has played since (the host can undo that).",
        "fr": "Tu ne peux annuler que ton dernier tour, avant que quelqu'un d'autre joue : "
        "{name} a joué depuis (l'hôte peut l'annuler).",
    },
    "error.undo-blocked": {
        "en": "The seats changed since that move (someone left or was kicked): it can't be undone.",
        "fr": "Les places ont changé depuis ce coup (départ ou exclusion) : "
        "il ne peut pas être annulé.",
    },
    # ---- rematch
    "button.rematch": {"en": "Rematch", "fr": "Revanche"},
    "rematch.posted": {
        "en": "Rematch of game #{old}! {mentions}: you are seated again (Leave if you'd rather "
        "not){computers}, same rules. {host} starts when ready.",
        "fr": "Revanche de la partie n°{old} ! {mentions} : vous êtes de nouveau assis "
        "(Quitter si vous préférez){computers}, mêmes règles. "
        "{host} lance quand tout le monde est prêt.",
    },
    # Said only when the rematch has computer players.
    "rematch.computers": {
        "en": ", computer players are back",
        "fr": ", les ordinateurs reviennent",
    },
    "error.rematch-not-over": {
        "en": "That game is not over yet.",
        "fr": "Cette partie n'est pas encore finie.",
    },
    "error.rematch-not-player": {
        "en": "Only the players of game #{game} can ask for a rematch.",
        "fr": "Seuls les joueurs de la partie n°{game} peuvent demander une revanche.",
    },
    # ---- languages and settings
    "settings.language": {
        "en": "Language of channel messages: {language}.",
        "fr": "Langue des messages dans les salons : {language}.",
    },
    "language.en": {"en": "English", "fr": "English"},
    "language.fr": {"en": "Français", "fr": "Français"},
    "language.auto": {
        "en": "the server's Discord language",
        "fr": "la langue Discord du serveur",
    },
    "scores.total": {"en": "Total", "fr": "Total"},
    "scores.round-col": {"en": "R{n}", "fr": "M{n}"},
    "level.word.easy": {"en": "easy", "fr": "facile"},
    "level.word.normal": {"en": "normal", "fr": "normal"},
    "level.word.hard": {"en": "hard", "fr": "difficile"},
    "level.word.expert": {"en": "expert", "fr": "expert"},
    # ---- refusals that have no sentence of their own yet (French readers got English)
    "error.no-game": {"en": "There is no such game.", "fr": "Cette partie n'existe pas."},
    "error.bad-preset": {
        "en": "There is no preset called {preset}.",
        "fr": "Aucun préréglage ne s'appelle {preset}.",
    },
    "error.not-a-player": {
        "en": "That player is not in this game.",
        "fr": "Ce joueur n'est pas dans cette partie.",
    },
    "error.bad-deadline": {
        "en": "A turn deadline is at least a minute.",
        "fr": "Un délai par tour dure au moins une minute.",
    },
    "error.not-computer": {
        "en": "That seat is not a computer player.",
        "fr": "Cette place n'est pas un joueur ordinateur.",
    },
    # Engine refusals (``IllegalMove.code``): English readers get the engine's own detailed
    # sentence; other languages get these (see bot.ui.refusals.error_text).
    **{
        f"refusal.{code}": {"en": en, "fr": fr}
        for code, en, fr in (
            ("match-over", "The match is over.", "La partie est finie."),
            ("round-in-progress", "The round is not over.", "La manche n'est pas finie."),
            ("no-round", "No round has been dealt yet.", "Aucune manche n'a été distribuée."),
            ("round-over", "This round is over.", "Cette manche est finie."),
            (
                "no-seat",
                "There is no seat {seat} at this table.",
                "Il n'y a pas de place {seat} à cette table.",
            ),
            ("not-your-turn", "It's {name}'s turn.", "C'est au tour de {name}."),
            (
                "fast-start-no-draw",
                "You have played this turn: play on or say done.",
                "Tu as déjà joué ce tour : continue, ou finis ton départ rapide.",
            ),
            (
                "must-play",
                "You hold a playable tile, so you must play it: {moves}.",
                "Tu as un domino jouable, tu dois le poser : {moves}.",
            ),
            (
                "boneyard-empty",
                "The boneyard is empty: pass instead.",
                "La pioche est vide : passe.",
            ),
            (
                "drawn-already",
                "You have drawn already this turn: pass.",
                "Tu as déjà pioché ce tour : passe.",
            ),
            (
                "fast-start-done",
                "Say done to end your fast start.",
                "Il ne te reste qu'à finir ton départ rapide.",
            ),
            ("must-draw", "You cannot play, so draw first.", "Tu ne peux pas jouer : pioche."),
            (
                "not-fast-start",
                "Done only ends a fast start after you have played.",
                "On ne finit un départ rapide qu'après avoir joué.",
            ),
            ("unknown-move", "{move} is not a move.", "{move} n'est pas un coup."),
            (
                "no-knock-rule",
                "This game is not using the knock rule.",
                "Cette partie n'utilise pas la règle du toc.",
            ),
            (
                "knock-not-one",
                "You knock only when down to one tile.",
                "On ne frappe qu'avec un seul domino en main.",
            ),
            ("knocked-already", "You have already knocked.", "Tu as déjà frappé."),
            (
                "knock-too-late",
                "Too late to knock: the next player has acted.",
                "Trop tard pour frapper : le joueur suivant a joué.",
            ),
            ("catch-self", "You cannot catch yourself.", "Tu ne peux pas te surprendre toi-même."),
            (
                "catch-miss",
                "{name} is not caught: they knocked, or hold more than one tile.",
                "{name} n'est pas en faute : il a frappé, ou a plus d'un domino.",
            ),
            (
                "catch-early",
                "{name} may still knock until the next player acts.",
                "{name} peut encore frapper jusqu'au coup suivant.",
            ),
            ("not-in-hand", "You do not hold {tile}.", "Tu n'as pas le {tile}."),
            ("no-train", "There is no train {ref}.", "Il n'y a pas de train {ref}."),
            (
                "need-single",
                "After a double your next tile must be a non-double.",
                "Après un double, le domino suivant ne doit pas être un double.",
            ),
            (
                "chain-target",
                "After your doubles, a non-double goes on the Mexican Train, the train of your "
                "first double, or a train not ending in your double — not {train}.",
                "Après tes doubles, un domino simple va sur le Train mexicain, le train de ton "
                "premier double, ou un train qui ne finit pas par ton double — pas sur {train}.",
            ),
            (
                "satisfy-own",
                "You must satisfy your double {double} first.",
                "Tu dois d'abord compléter ton double {double}.",
            ),
            (
                "open-double",
                "The open double {double} must be satisfied first.",
                "Le double ouvert {double} doit d'abord être complété.",
            ),
            (
                "fast-start-own",
                "On a fast start you play on your own train only.",
                "Au départ rapide, on ne joue que sur son propre train.",
            ),
            (
                "first-turn-own",
                "On your first turn you may play only on your own train, not {train}.",
                "Au premier tour, tu ne peux jouer que sur ton propre train, pas sur {train}.",
            ),
            (
                "train-closed",
                "No marker on {train}: only its owner plays there.",
                "Pas de marqueur sur {train} : seul son propriétaire y joue.",
            ),
            (
                "no-target",
                "{tile} cannot go on {train} now.",
                "Le {tile} ne peut pas aller sur {train} maintenant.",
            ),
            (
                "no-fit",
                "{tile} doesn't fit {train}: it needs a {end}.",
                "Le {tile} ne va pas sur {train} : il y faut un {end}.",
            ),
            ("train.own", "your train ({ref})", "ton train ({ref})"),
            ("train.other", "{name}'s train ({ref})", "le train de {name} ({ref})"),
            ("train.mexican", "the Mexican Train", "le Train mexicain"),
            (
                "bad-rules",
                "Those rules can't be played.",
                "Ces règles ne sont pas jouables.",
            ),
            (
                "bad-rule-value",
                "That is not a value for that house rule.",
                "Ce n'est pas une valeur pour cette règle maison.",
            ),
            ("unknown-rule", "There is no such house rule.", "Cette règle maison n'existe pas."),
            ("bad-setting", "That setting is not possible.", "Ce réglage n'est pas possible."),
            ("bad-name", "A player needs a name.", "Un joueur a besoin d'un nom."),
            ("bad-language", "Unknown language.", "Langue inconnue."),
            ("bad-time-zone", "That is not a time zone.", "Ce n'est pas un fuseau horaire."),
            (
                "bad-tiles",
                "Tiles are drawn with pips or with big numbers.",
                "Les dominos se dessinent avec des points ou en grands chiffres.",
            ),
            (
                "bad-reminder",
                "A reminder waits at least a minute.",
                "Un rappel attend au moins une minute.",
            ),
            (
                "game-corrupt",
                "This game's record cannot be read.",
                "L'enregistrement de cette partie est illisible.",
            ),
            ("wrong-phase", "Not possible at this point of the game.", "Pas possible maintenant."),
            ("illegal-move", "That move is not allowed now.", "Ce coup n'est pas permis."),
        )
    },
    # Rule names as /mt status rules:True shows them (English: the field's name in words).
    **{
        f"rule.{name}": {"en": name.replace("_", " "), "fr": fr}
        for name, fr in (
            ("max_pip", "jeu"),
            ("hand_sizes", "tailles de main"),
            ("hand_size", "taille de main"),
            ("engine_placement", "double de départ"),
            ("first_player", "premier joueur"),
            ("first_turn", "premier tour"),
            ("mexican_train_on_first_turn", "Train mexicain au premier tour"),
            ("double_rule", "règle du double"),
            ("release_unsatisfiable_doubles", "libérer les doubles impossibles"),
            ("go_out_on_double", "finir sur un double"),
            ("knock", "toc"),
            ("knock_penalty", "pénalité du toc"),
            ("scoring", "décompte"),
            ("open_hands", "mains ouvertes"),
            ("rounds", "manches"),
            ("starting_double", "double de la première manche"),
            ("ties_share_win", "victoire partagée en cas d'égalité"),
        )
    },
}
