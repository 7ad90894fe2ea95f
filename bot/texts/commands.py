"""Slash-command metadata in French: command, option and choice names and descriptions.

The commands are declared in English in the cogs; discord.py wraps every name, description
and choice in a ``locale_str`` and asks the tree's translator
(:class:`bot.ui.translator.CatalogTranslator`) for each Discord locale when it syncs. The
translator looks the English text up here: ``cmd.name.<english>`` for command, group and
option names, ``cmd.desc.<english>`` for descriptions, ``cmd.choice.<english>`` for choices.
A test walks the command tree and fails on any text missing here.

French names follow Discord's rules for names: lower case, no spaces, at most 32 characters,
unique among siblings.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.texts.houserules import catalogue


def _names(pairs: dict[str, str]) -> dict[str, Mapping[str, str]]:
    return {f"cmd.name.{en}": {"en": en, "fr": fr} for en, fr in pairs.items()}


def _descs(pairs: dict[str, str]) -> dict[str, Mapping[str, str]]:
    return {f"cmd.desc.{en}": {"en": en, "fr": fr} for en, fr in pairs.items()}


def _choices(pairs: dict[str, str]) -> dict[str, Mapping[str, str]]:
    return {f"cmd.choice.{en}": {"en": en, "fr": fr} for en, fr in pairs.items()}


TEXTS: dict[str, Mapping[str, str]] = {
    # The house-rule options' names, descriptions and choices: one table for both commands.
    **catalogue(),
    **_names(
        {
            # groups and commands
            "mt": "mt",
            "mt-admin": "mt-admin",
            "new": "nouvelle",
            "join": "rejoindre",
            "leave": "quitter",
            "start": "commencer",
            "cancel": "annuler",
            "computer": "ordinateur",
            "status": "état",
            "scores": "scores",
            "rules": "règles",
            "history": "historique",
            "end": "terminer",
            "kick": "exclure",
            "settings": "réglages",
            "me": "moi",
            "sync": "synchro",
            "replay": "revoir",
            "review": "bilan",
            "stats": "stats",
            "leaderboard": "classement",
            "undo": "défaire",
            "hint": "indice",
            "play": "jouer",
            "draw": "piocher",
            "pass": "passer",
            "knock": "frapper",
            "catch": "surprendre",
            "hand": "main",
            "table": "table",
            # options
            "preset": "préréglage",
            "deadline_hours": "délai_heures",
            "hints": "aides",
            "level": "niveau",
            "page": "page",
            "file": "fichier",
            "player": "joueur",
            "allow_channel": "autoriser_salon",
            "disallow_channel": "retirer_salon",
            "all_channels": "tous_les_salons",
            "host_role": "rôle_hôte",
            "no_host_role": "sans_rôle_hôte",
            "dms": "mp",
            "language": "langue",
            "tile": "domino",
            "tiles": "dominos",
            "train": "train",
            "game": "partie",
            "round": "manche",
        }
    ),
    **_descs(
        {
            "…": "…",
            "Mexican Train games": "Parties de Train mexicain",
            "Server settings and command sync (Manage Server)": (
                "Réglages du serveur et envoi des commandes (Gérer le serveur)"
            ),
            "Open a Mexican Train lobby in this channel": (
                "Ouvrir une partie de Train mexicain dans ce salon"
            ),
            "Join the game in this channel": "Rejoindre la partie de ce salon",
            "Leave the game (a computer takes your seat)": (
                "Quitter la partie (un ordinateur prend ta place)"
            ),
            "Deal the first round (host)": "Distribuer la première manche (hôte)",
            "Cancel the lobby (host)": "Annuler la partie en attente (hôte)",
            "Add a computer player (host)": "Ajouter un joueur ordinateur (hôte)",
            "Who is playing, whose turn, the deadline, or the rules": (
                "Qui joue, à qui le tour, le délai, ou les règles"
            ),
            "Scores by round and the match so far": "Scores par manche et de la partie",
            "The rules this game is played by": "Les règles de cette partie",
            "The moves so far, in notation": "Les coups joués, en notation",
            "End the game now (host or Manage Server)": (
                "Arrêter la partie maintenant (hôte ou Gérer le serveur)"
            ),
            "Remove a player; a computer takes the seat": (
                "Retirer un joueur ; un ordinateur prend sa place"
            ),
            "Server defaults (Manage Server only)": (
                "Réglages du serveur (Gérer le serveur seulement)"
            ),
            "Your own settings: hand DMs, language": "Tes réglages : main en MP, langue",
            "Push the slash commands (bot owner only)": (
                "Envoyer les commandes à Discord (propriétaire du bot)"
            ),
            "Play a tile on a train": "Poser un domino sur un train",
            "Draw a tile (only when nothing fits)": "Piocher un domino (si rien ne va)",
            "Pass (after drawing, or with no boneyard)": (
                "Passer (après avoir pioché, ou pioche vide)"
            ),
            "Announce your last tile (knock rule)": ("Annoncer ton dernier domino (règle du toc)"),
            "Catch a player who did not knock": "Surprendre un joueur qui n'a pas frappé",
            "See your hand (only you can see it)": "Voir ta main (toi seul la vois)",
            "See the table again (only you)": "Revoir la table (toi seul)",
            # /mt new
            "Named rules (default: the server's default)": (
                "Règles nommées (par défaut : celles du serveur)"
            ),
            "Hours each player has for a turn (none by default)": (
                "Heures par tour pour chaque joueur (aucune limite par défaut)"
            ),
            "Show where tiles fit in hand DMs": "Montrer où vont les dominos dans les MP",
            # /mt-admin settings
            "Default preset for new games": "Préréglage par défaut des nouvelles parties",
            "Allow games in this channel (once any is set, only those)": (
                "Autoriser les parties dans ce salon (dès qu'un salon est choisi, "
                "seulement ceux-là)"
            ),
            "Stop allowing games in this channel": "Ne plus autoriser les parties dans ce salon",
            "Allow games in every channel again": "Autoriser de nouveau tous les salons",
            "Only members with this role (or Manage Server) may open games": (
                "Seuls les membres avec ce rôle (ou Gérer le serveur) lancent des parties"
            ),
            "Anyone may open games": "Tout le monde peut lancer des parties",
            "The language of the bot's messages in this server's channels": (
                "La langue des messages du bot dans les salons de ce serveur"
            ),
            # /mt me
            "The language of my DMs": "La langue de mes MP",
            "How the tiles of my hand pictures show their numbers": (
                "Comment les dominos de mes images de main montrent leurs chiffres"
            ),
            # /play
            "The tile, e.g. 12-5 (the list shows only tiles you can play)": (
                "Le domino, ex. 12-5 (la liste ne montre que ceux que tu peux poser)"
            ),
            "Where: mexican, or @N for seat N's train (the list shows where it fits)": (
                "Où : mexican, ou @N pour le train de la place N (la liste montre où il va)"
            ),
            "Knock with this move if it leaves you one tile (knock rule)": (
                "Frapper avec ce coup s'il te laisse un seul domino (règle du toc)"
            ),
            # /mt history (and its file), replay, stats, leaderboard, undo
            "The moves of a game, a page at a time, or as a file": (
                "Les coups d'une partie, page par page, ou en fichier"
            ),
            "Game number (default: this channel's game)": (
                "Numéro de partie (par défaut : celle de ce salon)"
            ),
            "Page number (default: the newest)": "Numéro de page (par défaut : la plus récente)",
            "A finished game as a file (rules, names, every move)": (
                "Une partie terminée en fichier (règles, noms, tous les coups)"
            ),
            "A round replayed as an animated picture": "Une manche rejouée en image animée",
            "Round number (default: the latest)": "Numéro de manche (par défaut : la dernière)",
            "Your review of a finished match: where a move was clearly better": (
                "Ton bilan d'une partie terminée : où un coup était nettement meilleur"
            ),
            "Game number (default: this channel's latest game)": (
                "Numéro de partie (par défaut : la dernière de ce salon)"
            ),
            "Statistics of a player in this server": "Statistiques d'un joueur sur ce serveur",
            "The player (default: you)": "Le joueur (par défaut : toi)",
            "The best players of this server": "Les meilleurs joueurs de ce serveur",
            "Take back your own last turn, or (host) the last one": (
                "Reprendre ton dernier tour, ou (hôte) le dernier joué"
            ),
            "Your best move, privately (Hard's advice)": (
                "Ton meilleur coup, en privé (conseil du niveau Difficile)"
            ),
            "Only if it was this player's turn": "Seulement si c'était le tour de ce joueur",
        }
    ),
    **_choices(
        {
            "standard": "standard",
            "fundex": "fundex",
            "rules-site": "rules-site",
            "family": "famille",
            "double-9": "double-9",
            "double-15": "double-15",
            "double-18": "double-18",
            "quick": "rapide",
            "Easy": "Facile",
            "Normal": "Normal",
            "Hard": "Difficile",
            "Expert": "Expert",
            "English": "English",
            "Français": "Français",
            "server's Discord language": "langue Discord du serveur",
            "pips with numbers": "points et chiffres",
            "big numbers (high contrast)": "grands chiffres (contrasté)",
        }
    ),
}


# Playing across time zones (bot/cogs/timing.py): deadlines, reminders, away, nudge, mygames.
TEXTS.update(
    {
        **_names(
            {
                "away": "absent",
                "mygames": "mesparties",
                "nudge": "relancer",
                "on_timeout": "temps_écoulé",
                "quiet_start": "calme_début",
                "quiet_end": "calme_fin",
                "remind_hours": "rappel_heures",
                "reminder_dms": "rappels_mp",
                "reminders": "rappels",
                "replace_after": "remplacer_après",
                "stall_days": "jours_inactivité",
                "state": "état",
                "time_zone": "fuseau_horaire",
            }
        ),
        **_descs(
            {
                "...quiet hours end (hour 0-23); equal to the start: no quiet hours": (
                    "…fin des heures calmes (heure 0-23) ; égale au début : pas d'heures calmes"
                ),
                "Away: the computer plays your turns at once until you return": (
                    "Absent : l'ordinateur joue tes tours aussitôt, jusqu'à ton retour"
                ),
                "Default turn deadline for new games": (
                    "Délai par tour par défaut pour les nouvelles parties"
                ),
                "Default: what happens when a player's time runs out": (
                    "Par défaut : ce qui se passe quand le temps d'un joueur est écoulé"
                ),
                "Hours each player has for a turn (default: the server's, else none)": (
                    "Heures par tour pour chaque joueur (défaut : celui du serveur, sinon aucun)"
                ),
                "Quiet hours start (hour 0-23 in your time zone): no reminders until...": (
                    "Début des heures calmes (heure 0-23 de ton fuseau) : pas de rappel avant…"
                ),
                "Remind me when it's my turn and I haven't played": (
                    "Me rappeler quand c'est mon tour et que je n'ai pas joué"
                ),
                "Remind the player this many hours before the deadline (default: half-way)": (
                    "Rappeler le joueur tant d'heures avant l'échéance (défaut : à mi-temps)"
                ),
                "Remind the player to move that you wait": (
                    "Rappeler au joueur dont c'est le tour qu'on l'attend"
                ),
                "Send my turn reminders by DM instead of a mention in the channel": (
                    "M'envoyer les rappels en message privé plutôt qu'une mention dans le salon"
                ),
                "Warn, then close, games nobody moved in this many days (0: never; 14)": (
                    "Avertir puis fermer les parties inactives depuis tant de jours "
                    "(0 : jamais ; 14)"
                ),
                "When a player's time runs out (default: the server's, else computer)": (
                    "Quand le temps d'un joueur est écoulé "
                    "(défaut : celui du serveur, sinon ordinateur)"
                ),
                "Your games and where it's your turn (in a DM: all servers)": (
                    "Tes parties et celles où c'est ton tour (en privé : tous les serveurs)"
                ),
                "Your own settings: hand DMs, language, time zone, reminders": (
                    "Tes réglages : main en privé, langue, fuseau horaire, rappels"
                ),
                "Your time zone, e.g. Europe/Paris (for quiet hours)": (
                    "Ton fuseau horaire, p. ex. Europe/Paris (pour les heures calmes)"
                ),
                "on: you are away; off: you are back": "on : tu es absent ; off : tu es de retour",
                "replace: missed turns in a row before a computer takes the seat (3)": (
                    "remplacer : tours manqués d'affilée avant que l'ordinateur prenne la place (3)"
                ),
            }
        ),
        **_choices(
            {
                "1 h": "1 h",
                "12 h": "12 h",
                "24 h": "24 h",
                "72 h": "72 h",
                "none": "aucun",
                "on": "oui",
                "off": "non",
                "computer plays that turn (default)": "l'ordinateur joue ce tour (par défaut)",
                "computer takes the seat after K missed turns": (
                    "l'ordinateur prend la place après K tours manqués"
                ),
                "skip: draw and pass": "sauter : piocher et passer",
            }
        ),
    }
)
