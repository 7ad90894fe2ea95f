"""The engine's refusals in a language other than English, saying as much as the English
sentence the engine wrote: the same facts (the tile, the train and what it needs, the legal
moves, whose turn it is), from :attr:`IllegalMove.params`, in ``refusal.<code>``'s words.

Before (issue 50), French got a sentence per reason and no facts: "Tu as un domino jouable :
tu dois le poser." where English listed the moves, "Ce domino ne va pas sur ce train." where
English said the train must match 12.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.engine.moves import MEXICAN
from bot.i18n import tr


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
