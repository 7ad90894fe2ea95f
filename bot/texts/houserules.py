"""The house-rule options of ``/mt new`` and ``/mt-admin settings``, in one table.

Each row is one slash option that sets a house rule (a :class:`bot.engine.Rules` field): its
name, what it says in ``/mt new`` and, for the rules a server may set as its default, in
``/mt-admin settings``, its choices, in English and French. The cogs build their option
descriptions and choices from it (:mod:`bot.ui.houserules`), and :mod:`bot.texts.commands`
builds the French catalogue entries from it, so adding a rule is one row here and one
parameter in each command's signature (a test checks they agree).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Words:
    """One text in both languages."""

    en: str
    fr: str


@dataclass(frozen=True)
class HouseOption:
    """A slash option that sets the house rule ``rule``.

    ``on_off`` maps a yes/no option onto a rule that is not a yes/no (``fast_start`` sets
    ``first_turn`` to ``fast-start`` or ``single``); ``choices`` are (value, name) pairs."""

    name: Words
    rule: str
    new: Words
    default: Words | None = None
    choices: tuple[tuple[str, Words], ...] = ()
    on_off: tuple[str, str] | None = None


HOUSE_OPTIONS: tuple[HouseOption, ...] = (
    HouseOption(
        Words("rounds", "manches"),
        "rounds",
        Words(
            "How many rounds: fewer is a shorter match, see each length (default: all)",
            "Nombre de manches : moins, c'est une partie plus courte, voir chaque durée "
            "(défaut : toutes)",
        ),
    ),
    HouseOption(
        Words("starting_double", "double_de_départ"),
        "starting_double",
        Words("The first round's engine double", "Le double de départ de la première manche"),
    ),
    HouseOption(
        Words("knock", "frapper"),
        "knock",
        Words(
            "Knock rule: announce your last tile or draw a penalty",
            "Règle du toc : annoncer son dernier domino ou piocher une pénalité",
        ),
        default=Words("Default: knock rule", "Par défaut : règle du toc"),
    ),
    HouseOption(
        Words("open_hands", "mains_ouvertes"),
        "open_hands",
        Words("Everyone's hand is visible", "Les mains de tous sont visibles"),
        default=Words("Default: open hands", "Par défaut : mains ouvertes"),
    ),
    HouseOption(
        Words("fast_start", "départ_rapide"),
        "first_turn",
        Words(
            "First turn: play as many tiles as you can on your own train",
            "Premier tour : poser autant de dominos que possible sur son train",
        ),
        default=Words("Default: fast start", "Par défaut : départ rapide"),
        on_off=("fast-start", "single"),
    ),
    HouseOption(
        Words("double_rule", "règle_du_double"),
        "double_rule",
        Words("What follows a double", "Ce qui suit un double"),
        choices=(
            ("satisfy", Words("satisfy the double (standard)", "compléter le double (standard)")),
            (
                "any-open-train",
                Words("any open train (001)", "n'importe quel train ouvert (001)"),
            ),
            ("chain", Words("chain doubles (002)", "doubles en chaîne (002)")),
        ),
    ),
    HouseOption(
        Words("scoring", "décompte"),
        "scoring",
        Words("How hands left are scored", "Comment compter les dominos restants"),
        choices=(
            ("pips", Words("pips (standard)", "points (standard)")),
            ("fundex-blanks", Words("Fundex: blanks score 25", "Fundex : les blancs valent 25")),
            (
                "double-blank-50",
                Words("double blank scores 50", "le double blanc vaut 50"),
            ),
        ),
    ),
    HouseOption(
        Words("engine", "locomotive"),
        "engine_placement",
        Words(
            "How the round's centre double reaches the table",
            "Comment le double central arrive sur la table",
        ),
        choices=(
            (
                "set-aside",
                Words(
                    "set aside before the deal (standard)", "mis de côté avant la donne (standard)"
                ),
            ),
            ("highest-double", Words("highest double starts", "le plus haut double commence")),
            ("draw-until-found", Words("draw until found", "piocher jusqu'à le trouver")),
        ),
    ),
    HouseOption(
        Words("first_player", "premier_joueur"),
        "first_player",
        Words("Who starts each round", "Qui commence chaque manche"),
        choices=(
            (
                "rotate",
                Words("host, then rotate (standard)", "l'hôte, puis chacun son tour (standard)"),
            ),
            (
                "highest-tile",
                Words(
                    "highest tile of the engine's suit",
                    "le plus haut domino de la couleur du départ",
                ),
            ),
        ),
    ),
    HouseOption(
        Words("mexican_first_turn", "mexicain_au_premier_tour"),
        "mexican_train_on_first_turn",
        Words(
            "May the Mexican Train be started on your first turn",
            "Peut-on lancer le Train mexicain au premier tour",
        ),
    ),
)


def catalogue() -> dict[str, Mapping[str, str]]:
    """The table's entries of the command catalogue (``cmd.name.``, ``cmd.desc.`` and
    ``cmd.choice.`` keys, as :mod:`bot.texts.commands` names them)."""
    out: dict[str, Mapping[str, str]] = {}

    def add(kind: str, words: Words) -> None:
        out[f"cmd.{kind}.{words.en}"] = {"en": words.en, "fr": words.fr}

    for option in HOUSE_OPTIONS:
        add("name", option.name)
        add("desc", option.new)
        if option.default is not None:
            add("desc", option.default)
        for _value, name in option.choices:
            add("choice", name)
    return out
