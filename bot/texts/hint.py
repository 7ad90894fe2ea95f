"""``/mt hint``: the Hard computer player's advice, with its reasons, in both languages."""

from __future__ import annotations

from collections.abc import Mapping

TEXTS: dict[str, Mapping[str, str]] = {
    "hint.move": {
        "en": "💡 Suggested move: `{move}` — {reason}.",
        "fr": "💡 Coup conseillé : `{move}` — {reason}.",
    },
    "hint.train": {
        "en": "Longest own train your hand can build ({count} {count:tile|tiles}): {tiles}",
        "fr": "Plus long train personnel possible avec ta main ({count} {count:domino|dominos}) : "
        "{tiles}",
    },
    "hint.no-train": {
        "en": "No tile in your hand continues your own train.",
        "fr": "Aucun domino de ta main ne prolonge ton train.",
    },
    "hint.off": {
        "en": "The host switched hints off for this game.",
        "fr": "L'hôte a désactivé les conseils pour cette partie.",
    },
    "hint.not-your-turn": {
        "en": "Hints are for your own turn: it's {name}'s turn.",
        "fr": "Les conseils sont pour ton tour : c'est à {name} de jouer.",
    },
    "hint.reason.only-move": {
        "en": "this is the only legal move",
        "fr": "c'est le seul coup possible",
    },
    "hint.reason.draw": {"en": "nothing fits: draw a tile", "fr": "rien ne va : pioche"},
    "hint.reason.pass": {
        "en": "nothing fits and nothing to draw: pass",
        "fr": "rien ne va et la pioche est vide : passe",
    },
    "hint.reason.done": {
        "en": "nothing more fits your own train: end the fast start",
        "fr": "plus rien ne va sur ton train : termine le départ rapide",
    },
    "hint.reason.go-out": {
        "en": "this plays your last tile",
        "fr": "c'est ton dernier domino",
    },
    "hint.reason.fast-start": {
        "en": "lay your planned train during the fast start",
        "fr": "pose ton train prévu pendant le départ rapide",
    },
    "hint.reason.satisfy-double": {
        "en": "this satisfies the open double",
        "fr": "cela complète le double ouvert",
    },
    "hint.reason.double-combo": {
        "en": "play a double you can satisfy: two tiles this turn",
        "fr": "pose un double que tu peux compléter : deux dominos ce tour",
    },
    "hint.reason.hurt-double": {
        "en": "leave a double the next player probably cannot satisfy",
        "fr": "laisse un double que le joueur suivant ne pourra sans doute pas compléter",
    },
    "hint.reason.close-marker": {
        "en": "play on your own train to take your marker down",
        "fr": "joue sur ton train pour retirer ton marqueur",
    },
    "hint.reason.dump-heavy": {
        "en": "an opponent is nearly out: shed your heaviest tiles",
        "fr": "un adversaire a presque fini : débarrasse-toi de tes plus gros dominos",
    },
    "hint.reason.keep-plan": {
        "en": "shed a tile your own train cannot use and keep your train plan intact",
        "fr": "pose un domino inutile à ton train et garde ton plan intact",
    },
    "hint.reason.start-mexican": {
        "en": "start the Mexican Train with a tile your own train cannot use",
        "fr": "lance le Train mexicain avec un domino inutile à ton train",
    },
    "hint.reason.block": {
        "en": "leave the next player an end it probably cannot play",
        "fr": "laisse au joueur suivant un bout qu'il ne pourra sans doute pas jouer",
    },
    "hint.reason.follow-plan": {
        "en": "lay the next tile of your planned own train",
        "fr": "pose le domino suivant de ton train prévu",
    },
    "hint.reason.endgame": {
        "en": "few tiles are hidden now: playing the round out over likely places for them, "
        "this move wins most often",
        "fr": "il reste peu de dominos cachés : en jouant la manche jusqu'au bout "
        "selon leurs places probables, ce coup gagne le plus souvent",
    },
}
