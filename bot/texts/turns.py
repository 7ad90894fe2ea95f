"""Texts of the turn cycle's pings and threads (issues 24 and 29): the link from a turn DM to
the table, ``/mt me ping:``, ``/mt new thread:`` and ``/mt-admin settings threads:``, and what a
thread game says in its parent channel.
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- command metadata (see bot/texts/commands.py for the key scheme)
    "cmd.name.ping": {"en": "ping", "fr": "notification"},
    "cmd.desc.How I hear that it's my turn: one ping by default": {
        "en": "How I hear that it's my turn: one ping by default",
        "fr": "Comment j'apprends que c'est mon tour : une seule notification par défaut",
    },
    "cmd.desc.Let the bot DM me (my turn, with my hand; reminders if I ask for them)": {
        "en": "Let the bot DM me (my turn, with my hand; reminders if I ask for them)",
        "fr": "Autoriser le bot à m'écrire en MP (mon tour, avec ma main ; les rappels si je "
        "les demande)",
    },
    "cmd.choice.one ping: a DM, or a mention if DMs fail (default)": {
        "en": "one ping: a DM, or a mention if DMs fail (default)",
        "fr": "une notification : un MP, ou une mention si les MP échouent (défaut)",
    },
    "cmd.choice.a DM": {"en": "a DM", "fr": "un MP"},
    "cmd.name.threads": {"en": "threads", "fr": "fils"},
    "cmd.name.thread": {"en": "thread", "fr": "fil"},
    "cmd.desc.New games open in their own thread of the channel": {
        "en": "New games open in their own thread of the channel",
        "fr": "Les nouvelles parties s'ouvrent dans leur propre fil du salon",
    },
    "cmd.desc.Play in a new thread of this channel (default: the server's setting)": {
        "en": "Play in a new thread of this channel (default: the server's setting)",
        "fr": "Jouer dans un nouveau fil de ce salon (par défaut : le réglage du serveur)",
    },
    "cmd.choice.a mention in the game's channel": {
        "en": "a mention in the game's channel",
        "fr": "une mention dans le salon de la partie",
    },
    "cmd.choice.both a DM and a mention": {
        "en": "both a DM and a mention",
        "fr": "un MP et une mention",
    },
    "button.to-table": {"en": "Go to the table", "fr": "Aller à la table"},
    # ---- /mt me ping:
    "ping.auto": {
        "en": "one ping: a DM, or a mention when I can't DM you",
        "fr": "une notification : un MP, ou une mention si je ne peux pas t'écrire",
    },
    "ping.dm": {"en": "a DM", "fr": "un MP"},
    "ping.mention": {"en": "a mention in the game's channel", "fr": "une mention dans le salon"},
    "ping.both": {"en": "a DM and a mention", "fr": "un MP et une mention"},
    "me.ping": {
        "en": "Your turn is announced by {how}.",
        "fr": "Ton tour t'est annoncé par {how}.",
    },
    # ---- /mt me autoplay: (a turn with no choice plays itself; bot/service/turn.py)
    "cmd.name.autoplay": {"en": "autoplay", "fr": "jeu-auto"},
    "cmd.desc.Play my turns that leave no choice at once (default: only-move)": {
        "en": "Play my turns that leave no choice at once (default: only-move)",
        "fr": "Jouer tout de suite mes tours sans choix (par défaut : coup unique)",
    },
    "cmd.choice.off: always wait for me": {
        "en": "off: always wait for me",
        "fr": "non : toujours m'attendre",
    },
    "cmd.choice.forced: a draw or a pass with no choice": {
        "en": "forced: a draw or a pass with no choice",
        "fr": "forcés : une pioche ou un passe sans choix",
    },
    "cmd.choice.only-move: also my only legal move (default)": {
        "en": "only-move: also my only legal move (default)",
        "fr": "coup unique : aussi mon seul coup possible (défaut)",
    },
    "autoplay.off": {"en": "never", "fr": "jamais"},
    "autoplay.forced": {
        "en": "when it is only a draw or a pass",
        "fr": "quand il n'y a qu'à piocher ou passer",
    },
    "autoplay.only": {
        "en": "when it is only a draw, a pass or a single possible move",
        "fr": "quand il n'y a qu'à piocher, passer ou un seul coup possible",
    },
    "me.autoplay": {
        "en": "I play your turn for you {when}.",
        "fr": "Je joue ton tour à ta place {when}.",
    },
    # A turn played for someone that left their train open: what the others need from it.
    "played-for.open": {
        "en": "{line}; their train is open.",
        "fr": "{line} ; son train est ouvert.",
    },
    "autoplay.played": {
        "en": "⏩ {name} had no choice: the bot {what} for them.",
        "fr": "⏩ {name} n'avait pas le choix : le bot {what} à sa place.",
    },
    "refusal.bad-autoplay": {
        "en": "Autoplay is off, forced or only-move.",
        "fr": "Le jeu auto est non, forcés ou coup unique.",
    },
    # ---- games in threads
    "thread.name": {"en": "Mexican Train #{game}", "fr": "Train mexicain n°{game}"},
    "thread.opened": {
        "en": "Game #{game} is open in its own thread: {thread}",
        "fr": "La partie n°{game} est ouverte dans son propre fil : {thread}",
    },
    "thread.result": {
        "en": "🏁 Game #{game} is over ({thread}).",
        "fr": "🏁 La partie n°{game} est finie ({thread}).",
    },
    "thread.cannot": {
        "en": "I couldn't open a thread for the game ({detail}), so the lobby is closed. "
        "Try again with thread:False to play in this channel.",
        "fr": "Je n'ai pas pu ouvrir de fil pour la partie ({detail}), le salon d'attente est "
        "fermé. Réessaie avec fil:False pour jouer dans ce salon.",
    },
    "thread.card": {
        "en": "The game is played in its thread: {thread}",
        "fr": "La partie se joue dans son fil : {thread}",
    },
    "error.thread-perms": {
        "en": "I can't run a game in a thread here: I'm missing {perms} in this channel. "
        "Ask an admin, or use thread:False.",
        "fr": "Je ne peux pas mener de partie dans un fil ici : il me manque {perms} dans ce "
        "salon. Demande à un admin, ou utilise fil:False.",
    },
    "settings.threads": {
        "en": "New games open in their own thread: {value}",
        "fr": "Les nouvelles parties s'ouvrent dans leur propre fil : {value}",
    },
    #: Said to whoever looks at /mt-admin settings (Manage Server), never per move: the one place a
    #: server admin looks at what the bot does in their server.
    "settings.no-webhooks": {
        "en": "🪝 I don't have Manage Webhooks in this channel: with it I post the turns of "
        "moves made from DMs through my own webhook, for about half the rate-limited "
        "requests, so I keep up when many games are played.",
        "fr": "🪝 Il me manque la permission Gérer les webhooks dans ce salon : avec elle, je "
        "poste les tours joués depuis les MP par mon propre webhook, pour environ moitié "
        "moins de requêtes limitées, et je suis plus réactif quand beaucoup de parties sont "
        "jouées.",
    },
    #: Manage Webhooks refused with 60003 (bot/ui/hooks.py): the server requires 2FA for
    #: moderation and the bot's owner has none.
    "settings.webhooks-2fa": {
        "en": "🪝 This server requires 2FA for moderation and my owner's account has none, "
        "so Discord refuses me a webhook (60003): the turns of moves made from DMs are my own "
        "posts here. My owner can turn on 2FA, then restart me.",
        "fr": "🪝 Ce serveur exige la 2FA pour la modération et le compte de mon propriétaire "
        "ne l'a pas, donc Discord me refuse un webhook (60003) : les tours joués depuis les MP "
        "sont mes propres messages ici. Mon propriétaire peut activer la 2FA, puis me "
        "redémarrer.",
    },
    "perm.create_public_threads": {
        "en": "Create Public Threads",
        "fr": "Créer des fils publics",
    },
    "perm.send_messages_in_threads": {
        "en": "Send Messages in Threads",
        "fr": "Envoyer des messages dans les fils",
    },
    "perm.read_message_history": {
        "en": "Read Message History",
        "fr": "Voir les anciens messages",
    },
    "perm.manage_webhooks": {"en": "Manage Webhooks", "fr": "Gérer les webhooks"},
}
