"""The one strict reading of a number in outside text (bot/digits.py): ASCII digits only, a
bounded count, else not a number — never an exception, never another script's digit read as
its value (``int("\u0663")`` is 3, ``int("²")`` raises)."""

from __future__ import annotations

import argparse
import math

import pytest

from bot.digits import ID, read_decimal, read_id, read_int, whole_number

#: Text no reader may take for a number.
ODD = [
    "²",
    "\u00b9",
    "\u0663",  # Arabic-Indic 3
    "\u06f3",  # Persian 3
    "\u0966",  # Devanagari 0
    "\uff11",  # fullwidth 1
    "\uff11\uff12",
    "1\u0663",
    "\U0001d7d9",  # mathematical double-struck 1
    "①",
    "",
    " ",
    " 1",
    "1 ",
    "1\n",
    "\n1",
    "1\t",
    "1\x00",
    "\x1b1",
    "1\u200b",
    "\u202e1",
    "1_000",
    "+1",
    "--1",
    "1-",
    "0x10",
    "1e3",
    "1.",
    "inf",
    "nan",
    "9" * 20,
    "9" * 5000,  # int() refuses past 4300 digits with a ValueError of its own
]


@pytest.mark.parametrize("text", ODD)
def test_odd_text_is_no_whole_number(text: str) -> None:
    assert read_int(text) is None
    assert read_int(text, signed=True) is None
    assert read_id(text) is None


@pytest.mark.parametrize("text", [t for t in ODD if t not in ("1.", "1e3")] + ["1e3", "1.5e2"])
def test_odd_text_is_no_decimal(text: str) -> None:
    assert read_decimal(text) is None
    assert read_decimal(text, signed=True) is None


def test_plain_numbers_are_read() -> None:
    assert read_int("0") == 0 and read_int("42") == 42 and read_int("007") == 7
    assert read_int("-3") is None and read_int("-3", signed=True) == -3
    assert read_int("123", max_digits=2) is None and read_int("12", max_digits=2) == 12
    assert read_id("9" * 19) == 10**19 - 1  # read, for the caller to refuse as naming nothing
    assert read_decimal("2.5") == 2.5 and read_decimal(".5") == 0.5 and read_decimal("5.") == 5
    assert read_decimal("-1", signed=True) == -1 and read_decimal("-1") is None
    assert math.isfinite(read_decimal("9" * 15 + "." + "9" * 9) or math.inf)


def test_the_id_pattern_takes_ascii_digits_only() -> None:
    import re

    pattern = re.compile(ID)
    assert pattern.fullmatch("1234567890123456789")
    for text in ("\u0663", "²", "\uff11", "1" * 20, ""):
        assert pattern.fullmatch(text) is None, text


def test_the_command_line_refuses_other_digits_in_argparse_words() -> None:
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--players", type=whole_number)
    assert parser.parse_args(["--players", " 4 "]).players == 4
    for text in ("\u0663", "²", "4.0", "1_0"):
        with pytest.raises(argparse.ArgumentError, match="invalid whole number value"):
            parser.parse_args(["--players", text])
