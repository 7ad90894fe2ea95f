"""The terminal game's own words (``python -m bot try``), in English and French.

The game's sentences are the channel's (``bot.ui.messages``); these are only what a terminal
needs besides them: the prompt, the help, the command words a player types, and the few
answers that on Discord are a button or an option ("type it with its train" instead of
"say which (train option)"). The command words are read in either language
(:mod:`bot.tryit.reading`), so a French player may type ``piocher`` or ``draw``.
"""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    # What a player types besides moves (the move words are notation.word.*).
    "try.word.help": {"en": "help", "fr": "aide"},
    "try.word.moves": {"en": "moves", "fr": "coups"},
    "try.word.hint": {"en": "hint", "fr": "indice"},
    "try.word.hand": {"en": "hand", "fr": "main"},
    "try.word.table": {"en": "table", "fr": "table"},
    "try.word.quit": {"en": "quit", "fr": "quitter"},
    # A heading before a list: French puts a space before the colon.
    "try.heading": {"en": "{text}:", "fr": "{text} :"},
    "try.prompt": {"en": "your move> ", "fr": "ton coup> "},
    "try.default-name": {"en": "Player", "fr": "Joueur"},
    "try.help": {
        "en": "Type a move in the notation:\n"
        "  12-5 mexican     play 12-5 on the Mexican Train (also: mx, m)\n"
        "  5-7 @2           play 5-7 on seat 2's train (@1 is yours)\n"
        "  12-5             play 12-5 where it fits, when it fits one train only\n"
        "  12-5 @1 knock    play and knock (knock house rule)\n"
        "  draw · pass · done (end a fast start) · knock · catch @3\n"
        "Other words: hand, table, moves (your legal moves), hint, help, quit.",
        "fr": "Tape un coup en notation :\n"
        "  12-5 mexicain    poser 12-5 sur le Train mexicain (aussi : mx, m)\n"
        "  5-7 @2           poser 5-7 sur le train de la place 2 (@1 est le tien)\n"
        "  12-5             poser 12-5 là où il va, s'il ne va que sur un train\n"
        "  12-5 @1 frapper  poser et frapper (règle du toc)\n"
        "  piocher · passer · fini (finir un départ rapide) · frapper · surprendre @3\n"
        "Autres mots : main, table, coups (tes coups possibles), indice, aide, quitter.",
    },
    "try.start": {
        "en": "The table picture is {path}, drawn again after every move (deleted at the "
        "end; --pictures DIR keeps one per move). Type help for the commands.",
        "fr": "L'image de la table est {path}, redessinée après chaque coup (effacée à la "
        "fin ; --pictures DOSSIER en garde une par coup). Tape aide pour les commandes.",
    },
    "try.start.kept": {
        "en": "Pictures of the table go to {path}, one per move. Type help for the commands.",
        "fr": "Les images de la table vont dans {path}, une par coup. Tape aide pour les "
        "commandes.",
    },
    "try.legal": {"en": "Legal moves: {moves}", "fr": "Coups possibles : {moves}"},
    "try.only-you": {"en": "(only you) {text}", "fr": "(toi seul) {text}"},
    "try.over": {"en": "Game over.", "fr": "Partie terminée."},
    "try.over.kept": {
        "en": "Game over. The pictures are in {path}",
        "fr": "Partie terminée. Les images sont dans {path}",
    },
    "try.unknown": {
        "en": "I don't understand “{text}”: type help to see what you can type.",
        "fr": "Je ne comprends pas « {text} » : tape aide pour voir ce que tu peux taper.",
    },
    "try.too-long": {
        "en": "That line is {count} {count:character|characters} long: a move is a few words, "
        "like 12-5 mexican.",
        "fr": "Cette ligne fait {count} {count:caractère|caractères} : un coup tient en "
        "quelques mots, comme 12-5 mexicain.",
    },
    "try.which-train": {
        "en": "{tile} fits more than one train: type it with its train, e.g. {example}.",
        "fr": "{tile} va sur plusieurs trains : tape-le avec son train, par ex. {example}.",
    },
}
