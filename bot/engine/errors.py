"""One base for every refusal the engine raises: :class:`EngineError`.

The engine refuses things of seven kinds (a tile or move that cannot be read, a move the rules
do not allow, rules that cannot be dealt, a position, an event or an engine version that cannot
be loaded). Each is its own class, so a caller catches exactly what it expects; all derive from
:class:`EngineError`, so a caller that means "anything the engine refused" says so in one name
(python-chess's ``IllegalMoveError`` family, Red-DiscordBot's ``RedError``), and every one
carries a ``code`` (a stable name for the reason, used for translation, counters and tests) and
``params`` (its facts), with ``str()`` the English sentence.

It derives from :class:`ValueError`, as each class did before it had a base, so code that
catches ``ValueError`` around a parse keeps working.
"""

from __future__ import annotations

from collections.abc import Mapping


class EngineError(ValueError):
    """Something the engine refuses; ``code`` names why, ``params`` holds the facts."""

    #: The code of a refusal raised without one (each subclass names its own).
    default_code = "engine"

    def __init__(self, message: str, code: str | None = None, **params: object) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.params: Mapping[str, object] = params
