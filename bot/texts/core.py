"""The game's own sentences, older than the feature modules beside this one: moves as the
channel reads them, rounds and the match, the Discord layer's refusals, the lobby, trains,
hands and tables, buttons and selects, admin answers.

They were :data:`bot.i18n.CATALOG`'s literal; they live here so :mod:`bot.i18n` is the
translator alone, and every text, these included, joins the catalog one way (``TEXTS``,
listed first in ``bot.i18n._FEATURE_TEXTS``, so the catalog's order is as before).
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- moves, as the channel reads them
    "move.play.own": {
        "en": "{name} played {tile} on their own train",
        "fr": "{name} a posé {tile} sur son train",
    },
    "move.play.other": {
        "en": "{name} played {tile} on {owner}'s train",
        "fr": "{name} a posé {tile} sur le train de {owner}",
    },
    "move.play.mexican": {
        "en": "{name} played {tile} on the Mexican Train",
        "fr": "{name} a posé {tile} sur le Train mexicain",
    },
    "move.start.mexican": {
        "en": "{name} started the Mexican Train with {tile} — Woo Woo!",
        "fr": "{name} a lancé le Train mexicain avec {tile} — Tchou tchou !",
    },
    "move.double": {
        "en": "a double: it must be satisfied",
        "fr": "un double : il faut le compléter",
    },
    "move.satisfied": {"en": "satisfying {double}", "fr": "complétant le {double}"},
    "move.released": {
        "en": "{doubles} can no longer be satisfied and blocks nothing",
        "fr": "{doubles} ne peut plus être complété et ne bloque plus rien",
    },
    "move.marker_off": {"en": "marker off", "fr": "marqueur retiré"},
    "move.draw": {"en": "{name} drew a tile", "fr": "{name} a pioché un domino"},
    "move.draw.fits": {
        "en": "{name} drew a tile that fits and must play it",
        "fr": "{name} a pioché un domino jouable et doit le poser",
    },
    "move.pass": {
        "en": "{name} passed; their train is open",
        "fr": "{name} passe ; son train est ouvert",
    },
    "move.pass.marked": {
        "en": "{name} passed (their train was already open)",
        "fr": "{name} passe (son train était déjà ouvert)",
    },
    "move.done": {
        "en": "{name} ended their fast start",
        "fr": "{name} termine son départ rapide",
    },
    "move.knock": {
        "en": "{name} knocks: one tile left!",
        "fr": "{name} frappe : plus qu'un domino !",
    },
    "move.catch": {
        "en": "{catcher} caught {name} without a knock: {name} draws {count}",
        "fr": "{catcher} a surpris {name} sans frapper : {name} pioche {count}",
    },
    "move.last_tile": {
        "en": "{name} has one tile left!",
        "fr": "{name} n'a plus qu'un domino !",
    },
    "move.computer": {"en": "(computer)", "fr": "(ordinateur)"},
    # ---- rounds and the match
    "round.out": {
        "en": "{name} went out — dominoes! Round {round} is over.",
        "fr": "{name} a posé son dernier domino ! La manche {round} est finie.",
    },
    "round.blocked": {
        "en": "Nobody can play and the boneyard is empty: round {round} is blocked.",
        "fr": "Personne ne peut jouer et la pioche est vide : la manche {round} est bloquée.",
    },
    "round.start": {
        "en": "Round {round} of {rounds}: the engine is {engine}. {name} starts.",
        "fr": "Manche {round} sur {rounds} : la locomotive est le {engine}. {name} commence.",
    },
    "match.winner": {
        "en": "{names} won the match — Woo Woo!",
        "fr": "{names} remporte la partie — Tchou tchou !",
    },
    "turn.next": {"en": "{mention}, it's your turn.", "fr": "{mention}, à toi de jouer."},
    "turn.deadline": {"en": "Play by {when}.", "fr": "À jouer avant {when}."},
    # ---- the Discord layer (bot/cogs): refusals
    "error.generic": {"en": "Not possible: {detail}.", "fr": "Impossible : {detail}."},
    "error.unexpected": {
        "en": "Something went wrong on my side; nothing was changed. Try again.",
        "fr": "Un problème de mon côté ; rien n'a changé. Réessaie.",
    },
    "error.bad-move": {
        "en": "I can't read that move: {detail}.",
        "fr": "Je ne comprends pas ce coup : {detail}.",
    },
    "error.not-allowed": {
        "en": "You can't use that here.",
        "fr": "Tu ne peux pas utiliser ça ici.",
    },
    "error.guild-only": {
        "en": "Games are played in a server channel.",
        "fr": "Les parties se jouent dans un salon de serveur.",
    },
    "error.missing-perms": {
        "en": "I can't host a game in this channel: I'm missing {perms}. "
        "Ask an admin to give me those permissions here.",
        "fr": "Je ne peux pas lancer de partie dans ce salon : il me manque {perms}. "
        "Demande à un admin de me les accorder ici.",
    },
    "error.post-missing": {
        "en": "I can't post the table in this channel: I'm missing {perms}. "
        "Ask an admin to fix my permissions here.",
        "fr": "Je ne peux pas afficher la table dans ce salon : il me manque {perms}. "
        "Demande à un admin de corriger mes permissions ici.",
    },
    "error.cannot-post": {
        "en": "Discord refused my message in this channel ({detail}).",
        "fr": "Discord a refusé mon message dans ce salon ({detail}).",
    },
    "error.no-game-here": {
        "en": "There is no game in this channel. Open one with /mt new.",
        "fr": "Aucune partie dans ce salon. Lance-en une avec /mt nouvelle.",
    },
    "error.other-channel": {
        "en": "Game #{game} is played in another channel: use its buttons there.",
        "fr": "La partie n°{game} se joue dans un autre salon : utilise ses boutons là-bas.",
    },
    "error.no-game-mine": {
        "en": "You are not in any game.",
        "fr": "Tu ne joues dans aucune partie.",
    },
    # A turn move out of turn, the player to move named: the service's refusal (the engine's
    # code) and the turn buttons' own check say it in the same words.
    "error.not-your-turn": {"en": "It's {name}'s turn.", "fr": "C'est le tour de {name}."},
    "error.which-train": {
        "en": "{tile} fits on more than one train: say which (train option).",
        "fr": "{tile} va sur plusieurs trains : précise lequel (option train).",
    },
    "error.not-seated": {
        "en": "{name} is not playing in this game.",
        "fr": "{name} ne joue pas dans cette partie.",
    },
    "error.not-started": {
        "en": "The game has not started yet.",
        "fr": "La partie n'a pas encore commencé.",
    },
    "error.no-scores": {"en": "No scores yet.", "fr": "Pas encore de scores."},
    "error.owner-only": {
        "en": "Only the bot's owner can do that.",
        "fr": "Seul le propriétaire du bot peut faire ça.",
    },
    "error.not-in-game": {
        "en": "You are not playing in this game.",
        "fr": "Tu ne joues pas dans cette partie.",
    },
    "error.already-in-game": {
        "en": "You are already in this game.",
        "fr": "Tu es déjà dans cette partie.",
    },
    "error.game-full": {
        "en": "The game is full ({players} {players:player|players}).",
        "fr": "La partie est complète ({players} {players:joueur|joueurs}).",
    },
    "error.not-host": {
        "en": "Only the host (or someone with Manage Server) can do that.",
        "fr": "Seul l'hôte (ou quelqu'un avec Gérer le serveur) peut faire ça.",
    },
    "error.busy": {
        "en": "The bot is very busy right now: nothing was done. Try again in a moment.",
        "fr": "Le bot est très occupé en ce moment : rien n'a été fait. Réessaie dans un instant.",
    },
    "error.channel-busy": {
        "en": "This channel already has a game going (#{game_id}).",
        "fr": "Ce salon a déjà une partie en cours (n°{game_id}).",
    },
    "error.channel-not-allowed": {
        "en": "Games can't be played in this channel on this server.",
        "fr": "On ne peut pas jouer dans ce salon sur ce serveur.",
    },
    "error.host-role": {
        "en": "You need the <@&{role_id}> role to open a game here.",
        "fr": "Il te faut le rôle <@&{role_id}> pour lancer une partie ici.",
    },
    "error.table-changed": {
        "en": "The table changed since that message: use the newest one.",
        "fr": "La table a changé depuis ce message : utilise le plus récent.",
    },
    "error.not-enough-players": {
        "en": "You need at least 2 players to start.",
        "fr": "Il faut au moins 2 joueurs pour commencer.",
    },
    "error.not-lobby": {
        "en": "The game has already started.",
        "fr": "La partie a déjà commencé.",
    },
    "error.game-over": {"en": "The game is over.", "fr": "La partie est terminée."},
    "error.not-manager": {
        "en": "Only someone with Manage Server can change the server's settings.",
        "fr": "Seul quelqu'un avec Gérer le serveur peut changer ces réglages.",
    },
    "error.kick-self": {
        "en": "You can't kick yourself: use /mt leave.",
        "fr": "Tu ne peux pas t'exclure toi-même : utilise /mt quitter.",
    },
    # ---- lobby
    "lobby.title": {"en": "Mexican Train — game #{game}", "fr": "Train mexicain — partie n°{game}"},
    "lobby.seats": {
        "en": "Players {count} ({low} to {high})",
        "fr": "Joueurs {count} ({low} à {high})",
    },
    "lobby.waiting": {
        "en": "Join with the button or /mt join. The host starts the game.",
        "fr": "Rejoins avec le bouton ou /mt rejoindre. L'hôte lance la partie.",
    },
    "lobby.started": {"en": "The game has started.", "fr": "La partie a commencé."},
    "lobby.finished": {"en": "The game is over.", "fr": "La partie est terminée."},
    "lobby.cancelled": {"en": "This game was cancelled.", "fr": "Cette partie a été annulée."},
    "lobby.opened": {
        "en": "Lobby #{game} is open. Players join with the button or /mt join.",
        "fr": "La partie n°{game} est ouverte. Rejoins avec le bouton ou /mt rejoindre.",
    },
    "lobby.did.join": {"en": "You joined game #{game}.", "fr": "Tu as rejoint la partie n°{game}."},
    "lobby.did.leave": {"en": "You left game #{game}.", "fr": "Tu as quitté la partie n°{game}."},
    "lobby.did.start": {
        "en": "Game #{game} has started: your hand is on its way.",
        "fr": "La partie n°{game} a commencé : ta main arrive.",
    },
    "lobby.did.cancel": {"en": "Game #{game} cancelled.", "fr": "Partie n°{game} annulée."},
    # A computer player's default name, "CPU 1": the stem, in the channel's language.
    "computer.stem": {"en": "CPU", "fr": "Ordi"},
    "lobby.did.cpu": {
        "en": "Computer player added to game #{game}.",
        "fr": "Joueur ordinateur ajouté à la partie n°{game}.",
    },
    "lobby.did.uncpu": {
        "en": "Computer player removed from game #{game}.",
        "fr": "Joueur ordinateur retiré de la partie n°{game}.",
    },
    "lobby.did.end": {"en": "Game #{game} ended.", "fr": "Partie n°{game} terminée."},
    "lobby.did.kick": {
        "en": "{name} was removed; a computer plays their seat.",
        "fr": "{name} a été retiré ; un ordinateur joue à sa place.",
    },
    "rules.preset": {"en": "**Rules:** {preset}", "fr": "**Règles :** {preset}"},
    "rules.basics": {
        "en": "{set} set, {rounds}, {low} to {high} {high:player|players}",
        "fr": "jeu {set}, {rounds}, {low} à {high} {high:joueur|joueurs}",
    },
    "rules.house": {"en": "**House rules:** {rules}", "fr": "**Règles maison :** {rules}"},
    "rules.house.item": {"en": "`{name}`: {value}", "fr": "`{name}` : {value}"},
    "rules.deadline": {
        "en": "**Turn deadline:** {hours} h",
        "fr": "**Délai par tour :** {hours} h",
    },
    "seat.computer": {
        "en": "{name} (computer, {level})",
        "fr": "{name} (ordinateur, {level})",
    },
    "seat.host": {"en": "(host)", "fr": "(hôte)"},
    "word.on": {"en": "on", "fr": "oui"},
    "word.off": {"en": "off", "fr": "non"},
    "word.done": {"en": "Done.", "fr": "C'est fait."},
    "word.all": {"en": "every channel", "fr": "tous les salons"},
    "word.anyone": {"en": "anyone", "fr": "tout le monde"},
    # ---- trains, hands, tables
    "train.mexican": {"en": "Mexican Train", "fr": "Train mexicain"},
    "train.own": {"en": "your train ({ref})", "fr": "ton train ({ref})"},
    "train.other": {"en": "{name}'s train ({ref})", "fr": "train de {name} ({ref})"},
    "hand.title": {
        "en": "**Your hand** — game #{game}, round {round}/{rounds}, {count} {count:tile|tiles}:",
        "fr": "**Ta main** — partie n°{game}, manche {round}/{rounds}, {count} "
        "{count:domino|dominos} :",
    },
    "hand.playable": {
        "en": "It's your turn. You can play:",
        "fr": "À toi de jouer. Tu peux poser :",
    },
    # A turn DM whose card shows the hand's picture (issue 47): the words name no tile again,
    # the picture shows them and marks what plays, the move list under it names the moves.
    "hand.pictured": {
        "en": "**Your hand** — round {round}/{rounds}, {count} {count:tile|tiles}: in the picture.",
        "fr": "**Ta main** — manche {round}/{rounds}, {count} {count:domino|dominos} : dans "
        "l'image.",
    },
    "hand.pick": {
        "en": "It's your turn: pick your move in the list under the picture.",
        "fr": "À toi de jouer : choisis ton coup dans la liste sous l'image.",
    },
    # The same when the turn goes on (a draw, a double from the DM): the answer above said it.
    "hand.pick.on": {
        "en": "Pick your move in the list under the picture.",
        "fr": "Choisis ton coup dans la liste sous l'image.",
    },
    # The same under a text that said whose turn it is already (the catch-up).
    "hand.playable.short": {"en": "You can play:", "fr": "Tu peux poser :"},
    # One train's playable tiles in a turn DM; French sets its colon off with a space.
    "hand.where": {"en": "→ {where}: {tiles}", "fr": "→ {where} : {tiles}"},
    "hand.no-play": {
        "en": "It's your turn and nothing fits: {move}.",
        "fr": "À toi de jouer et rien ne va : {move}.",
    },
    "hand.waiting": {
        "en": "Waiting for {name}. Where your tiles fit now:",
        "fr": "On attend {name}. Où vont tes dominos pour l'instant :",
    },
    "hand.waiting-none": {
        "en": "Waiting for {name}. None of your tiles fits an open train now.",
        "fr": "On attend {name}. Aucun de tes dominos ne va sur un train ouvert pour l'instant.",
    },
    # {total} is re.pts ("12 pts"), as the round-end post and the result say it.
    "standings.line": {
        "en": "{place}. {name} — {total} ({won})",
        "fr": "{place}. {name} — {total} ({won})",
    },
    # A one-round match: rounds won would only repeat who won.
    "standings.line.one-round": {
        "en": "{place}. {name} — {total}",
        "fr": "{place}. {name} — {total}",
    },
    "fact.took-over": {
        "en": "A computer player now plays {name}'s seat.",
        "fr": "Un ordinateur joue désormais à la place de {name}.",
    },
    "fact.kicked": {"en": "{name} was removed from the game.", "fr": "{name} a été retiré."},
    "fact.left": {"en": "{name} left the game.", "fr": "{name} a quitté la partie."},
    "fact.abandoned": {
        "en": "No players are left: the game is over.",
        "fr": "Plus aucun joueur : la partie s'arrête.",
    },
    "fact.ended": {"en": "The game was ended.", "fr": "La partie a été arrêtée."},
    "table.title": {
        "en": "Game #{game} — round {round}/{rounds}",
        "fr": "Partie n°{game} — manche {round}/{rounds}",
    },
    "table.scores": {"en": "Scores", "fr": "Scores"},
    "table.final": {"en": "Final standings", "fr": "Classement final"},
    "play.pick": {"en": "Pick your move:", "fr": "Choisis ton coup :"},
    "draw.fits": {
        "en": "You drew `{tile}`: it fits on {where}. Play it now.",
        "fr": "Tu as pioché `{tile}` : il va sur {where}. Pose-le maintenant.",
    },
    "draw.passed": {
        "en": "You drew `{tile}`; it fits nowhere, so you passed and your train is open.",
        "fr": "Tu as pioché `{tile}` ; il ne va nulle part, donc tu passes "
        "et ton train est ouvert.",
    },
    "draw.drew": {"en": "You drew `{tile}`.", "fr": "Tu as pioché `{tile}`."},
    "dm.closed.you": {
        "en": "I can't DM you (your DMs are closed), so I won't try again: use /hand to "
        "see your hand, only you will see it.",
        "fr": "Je ne peux pas t'écrire en MP (ils sont fermés), je n'essaierai plus : "
        "utilise /main pour voir ta main, toi seul la verras.",
    },
    "dm.closed.channel": {
        "en": "{mention}, I can't DM you your hand: use /hand (only you will see it).",
        "fr": "{mention}, je ne peux pas t'envoyer ta main en MP : utilise /main "
        "(toi seul la verras).",
    },
    # ---- buttons and selects
    "button.join": {"en": "Join", "fr": "Rejoindre"},
    "button.leave": {"en": "Leave", "fr": "Quitter"},
    "button.start": {"en": "Start", "fr": "Commencer"},
    "button.cancel": {"en": "Cancel", "fr": "Annuler"},
    "button.play": {"en": "Play", "fr": "Jouer"},
    "button.draw": {"en": "Draw", "fr": "Piocher"},
    "button.undo": {"en": "Undo", "fr": "Reprendre mon tour"},
    "button.pass": {"en": "Pass", "fr": "Passer"},
    "button.hand": {"en": "My hand", "fr": "Ma main"},
    "button.knock": {"en": "Knock", "fr": "Frapper"},
    "button.done": {"en": "End fast start", "fr": "Finir le départ rapide"},
    "select.computer": {
        "en": "Add a computer player…",
        "fr": "Ajouter un joueur ordinateur…",
    },
    "select.remove-computer": {
        "en": "Remove a computer player…",
        "fr": "Retirer un joueur ordinateur…",
    },
    "select.move": {"en": "Your move…", "fr": "Ton coup…"},
    "level.easy": {"en": "Easy", "fr": "Facile"},
    "level.normal": {"en": "Normal", "fr": "Normal"},
    "level.hard": {"en": "Hard", "fr": "Difficile"},
    "level.expert": {"en": "Expert", "fr": "Expert"},
    "perm.view_channel": {"en": "View Channel", "fr": "Voir le salon"},
    "perm.send_messages": {"en": "Send Messages", "fr": "Envoyer des messages"},
    "perm.embed_links": {"en": "Embed Links", "fr": "Intégrer des liens"},
    "perm.attach_files": {"en": "Attach Files", "fr": "Joindre des fichiers"},
    # ---- admin answers
    "status.head": {"en": "**Game #{game}** — {status}", "fr": "**Partie n°{game}** — {status}"},
    "status.lobby": {"en": "waiting for players", "fr": "en attente de joueurs"},
    "status.active": {"en": "in play", "fr": "en cours"},
    "status.finished": {"en": "over", "fr": "terminée"},
    "status.abandoned": {"en": "abandoned", "fr": "abandonnée"},
    "status.round": {"en": "Round {round} of {rounds}.", "fr": "Manche {round} sur {rounds}."},
    "status.counts": {
        "en": "Tiles in hand: {counts}. Boneyard: {bone}.",
        "fr": "Dominos en main : {counts}. Pioche : {bone}.",
    },
    "history.head": {
        "en": "Game #{game} moves, page {page}/{pages}:",
        "fr": "Coups de la partie n°{game}, page {page}/{pages} :",
    },
    "settings.now": {
        "en": "Server settings: preset {preset}; house rules {house}; games in {channels}; "
        "who may open games: {role}.",
        "fr": "Réglages du serveur : préréglage {preset} ; règles maison {house} ; parties dans "
        "{channels} ; qui peut lancer : {role}.",
    },
    "me.now": {
        "en": "Hand by DM: {dms}. Language: {language}. Tiles: {tiles}.",
        "fr": "Main en MP : {dms}. Langue : {language}. Dominos : {tiles}.",
    },
    "sync.done": {"en": "Commands synced: {what}.", "fr": "Commandes synchronisées : {what}."},
}
