r"""Numbers read from outside text: ASCII digits only, and not too many of them.

Python's ``int`` and ``float`` are generous readers: ``int("\u0663")`` (an Arabic-Indic
three) is 3, ``int("\uff11")`` (a fullwidth one) is 1, ``int("1_000")`` is 1000,
``float("1e400")`` is infinity, and ``int("²")`` raises although ``"²".isdigit()`` is true;
a regular expression's ``\d`` takes every script's digits too. Text from outside — a
button's ``custom_id`` (a client can send any), a command option, a typed move in the
terminal game, an environment setting — is read here instead, the one strict way: a number
is written in the digits ``0``-``9``, at most a bounded count of them, and anything else is
not a number (``None``), which each caller refuses in its own words. Every reader that meets
a number in outside text uses these functions, or :data:`DIGIT` in its pattern, never ``\d``
nor a bare ``int()``.

This module imports nothing, so every layer may use it (it sits below the engine).
"""

from __future__ import annotations

import re

__all__ = ["DIGIT", "ID", "ID_DIGITS", "read_decimal", "read_id", "read_int", "whole_number"]

#: One digit in a regular expression: ``\\d`` would take Arabic-Indic, fullwidth and every
#: other script's digits as well.
DIGIT = "[0-9]"
#: The most digits an id in a ``custom_id`` may have: 2**63 - 1 (the databases' largest
#: integer) has 19.
ID_DIGITS = 19
#: An id in a pattern (a ``custom_id`` template): what :func:`read_id` reads.
ID = f"{DIGIT}{{1,{ID_DIGITS}}}"
#: The most digits any whole number read here may have (a setting, a page, a count).
MAX_DIGITS = 19

_INT = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?(?:[0-9]{1,15}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")


def read_int(text: str, *, max_digits: int = MAX_DIGITS, signed: bool = False) -> int | None:
    """The whole number ``text`` spells in ASCII digits (with a leading ``-`` when
    ``signed``), or None: no sign ``+``, no spaces, no ``_``, no other script's digits,
    and at most ``max_digits`` digits.

    >>> read_int("42"), read_int("\u0663"), read_int("\u00b2"), read_int("\uff11")
    (42, None, None, None)
    >>> read_int("1_0"), read_int("+1"), read_int(" 1")
    (None, None, None)
    >>> read_int("-3"), read_int("-3", signed=True), read_int("9" * 20)
    (None, -3, None)
    """
    if not isinstance(text, str) or len(text) > max_digits + 1 or not _INT.fullmatch(text):
        return None
    if text.startswith("-") and not signed:
        return None
    if len(text.removeprefix("-")) > max_digits:
        return None
    return int(text)


def read_id(text: str) -> int | None:
    """An id (a game's, a page's, a version's) in a ``custom_id``: 0 or more, at most
    :data:`ID_DIGITS` digits; a larger number is still read, for the caller to refuse as
    naming nothing."""
    return read_int(text, max_digits=ID_DIGITS)


def read_decimal(text: str, *, signed: bool = False) -> float | None:
    """A decimal number (``1``, ``0.5``, ``.5``) in ASCII digits, or None: no exponent,
    no ``inf`` or ``nan``, no other script's digits; always finite.

    >>> read_decimal("2.5"), read_decimal(".5"), read_decimal("1e3"), read_decimal("nan")
    (2.5, 0.5, None, None)
    """
    if not isinstance(text, str) or len(text) > 27 or not _DECIMAL.fullmatch(text):
        return None
    if text.startswith("-") and not signed:
        return None
    return float(text)


def whole_number(text: str) -> int:
    """A command line's whole number (an ``argparse`` type): :func:`read_int`, a ``-`` sign
    allowed, spaces around dropped; ValueError otherwise, which ``argparse`` reports as
    "invalid whole number value"."""
    value = read_int(text.strip(), signed=True)
    if value is None:
        raise ValueError(f"not a whole number: {text!r}")
    return value


whole_number.__name__ = "whole number"  # argparse names the type by it
