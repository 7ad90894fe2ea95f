"""A refusal in the reader's words: what the Discord layer refuses with (:class:`Refusal`), how
any refusal is said (:func:`error_text`: the Discord layer's own, the service's, the engine's),
how an interaction that ended in one is logged (:func:`outcome_of`), and what a refusal may
repeat of what someone typed (:func:`quote_input`: a few dozen characters at most, on one
line, with mentions and markdown made inert, so a 2,000-character tile or an ``@everyone`` in a
time zone never makes the answer itself too long or loud). The error funnel that answers with
them is :func:`bot.ui.interactions.guarded`; none of this runs on a move that is not refused.

The engine's refusals in a language other than English (:func:`refusal_text`) say as much as
the English sentence the engine wrote: the same facts (the tile, the train and what it needs,
the legal moves, whose turn it is), from :attr:`IllegalMove.params`, in ``refusal.<code>``'s
words. Before (issue 50), French got a sentence per reason and no facts: "Tu as un domino
jouable : tu dois le poser." where English listed the moves, "Ce domino ne va pas sur ce
train." where English said the train must match 12.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from collections.abc import Mapping

import discord
from discord import app_commands

from bot.engine import IllegalMove, MoveError, TileError
from bot.engine.moves import MEXICAN
from bot.i18n import CATALOG, DEFAULT_LANGUAGE, language_of, tr
from bot.service import ServiceError
from bot.service.errors import unreachable


class Refusal(Exception):
    """A refusal the Discord layer makes itself (a translation key and its parameters)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class RefusedCheck(app_commands.CheckFailure):
    """A command's check that refuses with a sentence of its own (a bad option value):
    discord.py only hands ``CheckFailure``s from checks to the error funnel."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.key)
        self.refusal = refusal


#: Errors discord.py raises before a command runs, for a command or option the bot does not
#: know as sent (a stale client after an update, a forged payload): refusals, not bugs.
STALE_COMMAND = (
    app_commands.CommandNotFound,
    app_commands.CommandSignatureMismatch,
    app_commands.TransformerError,
)


def error_text(error: BaseException, locale: str | None) -> str:
    """A refusal in the reader's words: a catalog entry per known code, else the English
    sentence the service or engine wrote (they are written for players)."""
    if isinstance(error, Refusal):
        return tr(error.key, locale, **error.params)
    if isinstance(error, ServiceError | IllegalMove):
        key = f"error.{error.code}"
        if key in CATALOG:
            params = dict(error.params) if isinstance(error, ServiceError) else {}
            # The facts may hold what a player typed: repeated short (quote_input).
            params = {k: quote_input(v) if isinstance(v, str) else v for k, v in params.items()}
            try:
                return tr(key, locale, **params)
            except (KeyError, IndexError):
                pass  # a message whose facts were not all given: say it in the source's words
        # The engine and service write their detailed sentences in English; another language
        # gets the reason's own sentence rather than English in the middle of French.
        if language_of(locale) != DEFAULT_LANGUAGE and f"refusal.{error.code}" in CATALOG:
            with contextlib.suppress(KeyError, IndexError):  # (a fact missing: the source's)
                return refusal_text(error.code, error.params, locale)
        return tr("error.generic", locale, detail=quote_input(error, DETAIL_LIMIT))
    if isinstance(error, MoveError | TileError):
        # The same rule for what a player typed: the engine's English sentence (quoted
        # short), or in another language the reason's own words (bot/texts/reading.py).
        key = f"notation.{error.code}"
        if language_of(locale) != DEFAULT_LANGUAGE and key in CATALOG:
            return tr("error.bad-move", locale, detail=tr(key, locale, **error.params))
        return tr("error.bad-move", locale, detail=quote_input(error, DETAIL_LIMIT))
    return tr("error.unexpected", locale)


#: How long the engine's or service's own sentence may be in an answer (they may hold input).
DETAIL_LIMIT = 200


def unwrapped(error: BaseException) -> BaseException:
    """What failed inside discord.py's wrappers: the command's body (``CommandInvokeError``)
    or an option's transformer (``TransformerError``, whose cause is the refusal an option
    transformer raised, e.g. :class:`bot.ui.options.TileOption` reading a tile)."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
        return error.__cause__
    return error


def outcome_of(error: BaseException) -> str:
    """How an interaction ended, for its log line: ``refused:<code>``, ``unavailable`` (the
    database was down) or ``error``."""
    error = unwrapped(error)
    if isinstance(error, RefusedCheck):
        error = error.refusal
    if isinstance(error, STALE_COMMAND):
        return "refused:stale-command"
    if unreachable(error) is not None:
        return "unavailable"
    if isinstance(error, Refusal):
        return f"refused:{error.key.removeprefix('error.')}"
    if isinstance(error, ServiceError | IllegalMove):
        return f"refused:{error.code}"
    if isinstance(error, MoveError | TileError):
        return "refused:bad-move"
    if isinstance(error, app_commands.CheckFailure):
        return "refused:not-allowed"
    return "error"


#: How much of a player's input an answer repeats.
QUOTE_LIMIT = 32


def quote_input(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an answer may repeat it: one line, at most ``limit`` characters (then
    "…"), control and invisible formatting characters dropped, mentions and markdown inert.

    Invisible characters (zero-width spaces, bidirectional overrides) are dropped so the
    quote reads as what it is, not reordered or hidden inside the answer.
    """
    raw = str(text)
    kept = "".join(
        " " if ch in "\r\n\t" else ch
        for ch in raw[: limit * 4]
        if ch in "\r\n\t" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    kept = " ".join(kept.split())
    short = kept if len(kept) <= limit else kept[: limit - 1].rstrip() + "…"
    if len(raw) > limit * 4 and not short.endswith("…"):
        short += "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(short))


def refusal_text(code: str, facts: Mapping[str, object], locale: str | None) -> str:
    """``refusal.<code>`` with the refusal's facts (an ``IllegalMove``'s or a service error's
    ``params``); a train is named as the channel names it (``ton train (@1)``, ``le train de
    Bob (@2)``, ``le Train mexicain``). Raises KeyError when a fact the text needs is missing."""
    params = dict(facts)
    if "train" in params:
        train = params.pop("train")
        owner, own = params.pop("owner", ""), params.pop("own", False)
        if train == MEXICAN:
            params["train"] = tr("refusal.train.mexican", locale)
        elif isinstance(train, int):
            ref = f"@{train + 1}"
            params["train"] = (
                tr("refusal.train.own", locale, ref=ref)
                if own
                else tr("refusal.train.other", locale, name=owner, ref=ref)
            )
    if isinstance(params.get("moves"), str):  # "12-5 mexican" in the words the reader types
        mexican = tr("notation.word.mexican", locale)
        params["moves"] = re.sub(r"(?<=\d) mexican\b", f" {mexican}", str(params["moves"]))
    return tr(f"refusal.{code}", locale, **params)
