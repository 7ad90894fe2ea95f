"""Each player's own cadence (issue 46): the next game waiting on them in a move's answer, the
reminder interval and the daily digest (``/mt me remind_after:``, ``digest:``,
``digest_hour:``)."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # ---- a move's answer: the player's next game waiting on them
    "next.game": {
        "en": "➡️ Next: [game #{game}]({url}) {where} is waiting on you.",
        "fr": "➡️ Ensuite : [la partie n°{game}]({url}) {where} t'attend.",
    },
    "next.in": {"en": "in {channel}", "fr": "dans {channel}"},
    "next.on": {"en": "on {server}", "fr": "sur {server}"},
    "next.more": {
        "en": "({n} {n:other|others} too: /mt mygames)",
        "fr": "({n} {n:autre|autres} aussi : /mt mygames)",
    },
    # ---- the daily digest (one DM a day)
    "digest.head": {
        "en": "📬 Your daily digest: {n} {n:game is|games are} waiting on you.",
        "fr": "📬 Ton résumé du jour : {n} {n:partie t'attend|parties t'attendent}.",
    },
    "digest.game": {
        "en": "• [Game #{game}]({url}) in {where}: your turn since {since}.",
        "fr": "• [Partie n°{game}]({url}) dans {where} : ton tour depuis {since}.",
    },
    "digest.by": {"en": "Play by {when}.", "fr": "À jouer avant {when}."},
    "digest.more": {
        "en": "…and {n} more: /mt mygames",
        "fr": "…et {n} de plus : /mt mesparties",
    },
    "digest.foot": {
        "en": "One digest a day at {hour}:00 ({zone}), no DM per turn. A DM per turn again: "
        "/mt me digest:False",
        "fr": "Un résumé par jour à {hour} h ({zone}), pas de MP à chaque tour. Un MP par tour : "
        "/mt moi résumé:False",
    },
    # ---- /mt me: what a player reads of their cadence
    "me.cadence": {
        "en": "Your turns: {turns}.",
        "fr": "Tes tours : {turns}.",
    },
    "me.remind-after": {
        "en": "{hours} h into a turn without a deadline",
        "fr": "{hours} h après le début d'un tour sans délai",
    },
    "me.remind-minutes": {
        "en": "{minutes} min into a turn without a deadline",
        "fr": "{minutes} min après le début d'un tour sans délai",
    },
    "me.per-turn": {"en": "one ping per turn", "fr": "une notification par tour"},
    "me.digest": {
        "en": "one daily digest by DM at {hour}:00 your time ({zone}), next {when}; no DM nor "
        "reminder per turn",
        "fr": "un résumé par jour en MP à {hour} h chez toi ({zone}), prochain {when} ; ni MP "
        "ni rappel à chaque tour",
    },
    "error.bad-digest": {
        "en": "The digest's hour is a whole hour from 0 to 23, in your time zone.",
        "fr": "L'heure du résumé est une heure entière de 0 à 23, dans ton fuseau horaire.",
    },
    "error.digest-off-hour": {
        "en": "You chose a digest hour and switched the digest off: choose one (digest_hour "
        "alone switches it on).",
        "fr": "Tu as choisi une heure de résumé et désactivé le résumé : choisis l'un des deux "
        "(résumé_heure seul l'active).",
    },
    "error.digest-no-dms": {
        "en": "The daily digest is a DM, and your DMs from the bot are off: /mt me dms:True "
        "digest:True",
        "fr": "Le résumé quotidien est un MP, et tes MP du bot sont désactivés : /mt moi "
        "mp:True résumé:True",
    },
    "error.remind-conflict": {
        "en": "reminders:{on} and remind_after:{after} disagree: choose one (remind_after:never "
        "turns reminders off).",
        "fr": "rappels:{on} et rappel_après:{after} se contredisent : choisis l'un des deux "
        "(rappel_après:jamais coupe les rappels).",
    },
    "error.bad-remind-after": {
        "en": "Reminders come after 2, 6, 12 or 24 hours, or never.",
        "fr": "Les rappels viennent après 2, 6, 12 ou 24 heures, ou jamais.",
    },
    # ---- the command's options (names, descriptions, choices)
    "cmd.name.remind_after": {"en": "remind_after", "fr": "rappel_après"},
    "cmd.name.digest": {"en": "digest", "fr": "résumé"},
    "cmd.name.digest_hour": {"en": "digest_hour", "fr": "résumé_heure"},
    "cmd.desc.Remind me this long into a turn without a deadline (default 12 h)": {
        "en": "Remind me this long into a turn without a deadline (default 12 h)",
        "fr": "Me rappeler au bout de ce temps dans un tour sans délai (défaut 12 h)",
    },
    "cmd.desc.One DM a day listing the games waiting on me, instead of a DM per turn": {
        "en": "One DM a day listing the games waiting on me, instead of a DM per turn",
        "fr": "Un MP par jour avec les parties qui m'attendent, au lieu d'un MP par tour",
    },
    "cmd.desc.The hour of my day (0-23, my time zone) my daily digest comes; turns it on": {
        "en": "The hour of my day (0-23, my time zone) my daily digest comes; turns it on",
        "fr": "L'heure de ma journée (0-23, mon fuseau) de mon résumé quotidien ; l'active",
    },
    "cmd.choice.2 h": {"en": "2 h", "fr": "2 h"},
    "cmd.choice.6 h": {"en": "6 h", "fr": "6 h"},
    "cmd.choice.12 h (default)": {"en": "12 h (default)", "fr": "12 h (défaut)"},
    "cmd.choice.never": {"en": "never", "fr": "jamais"},
}
