"""Log set-up: one handler on the root logger, in the format the admin chose.

``MT_LOG_FORMAT=text`` writes ``time LEVEL logger: message`` lines; ``json`` writes one JSON
object per line (``ts``, ``level``, ``logger``, ``msg``, and the fields of an interaction).
Every interaction that reaches the Discord layer's error funnel (``bot.ui.interactions.guarded``)
is logged exactly once, when it ends, by its record (:func:`bot.ops.metrics.track`, which
counts it in the metrics too)::

    interaction game=12 user=4242 command="mt new" outcome=ok latency_ms=38.2
    interaction game=12 user=4242 command=play outcome=refused:no-fit latency_ms=11.0

``outcome`` is ``ok``, ``refused:<code>`` (a player's request refused, nothing changed) or
``error`` (a bug: its traceback is logged too). The game is filled in by ``note_game``
wherever the flow learns it (the game lock, the channel's game), or read from a button's
``custom_id``. Autocomplete suggestions are not interactions in this sense and are not logged.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

#: What would break a text log's line or disguise it: C0 and C1 controls (a newline, a carriage
#: return, a tab, an escape), the Unicode line and paragraph separators, and the invisible
#: format characters (zero-width ones, bidirectional overrides that reorder what follows).
_UNSAFE = re.compile(
    r"[\x00-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]"
)


def one_line(text: str) -> str:
    """``text`` with every character :data:`_UNSAFE` written as its escape (``\\n``,
    ``\\t``, ``\\u2028``): outside text (a forged ``custom_id``, a name) cannot start a line
    of its own in the log, nor forge a timestamp and a level at the start of one."""
    return _UNSAFE.sub(lambda found: json.dumps(found[0])[1:-1], text)


def unsafe(text: str) -> bool:
    """Whether :func:`one_line` would change ``text``."""
    return _UNSAFE.search(text) is not None


class JsonFormatter(logging.Formatter):
    """One JSON object per line; an interaction's fields are top-level keys."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "mt_fields", None) or {}
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": "interaction" if fields else record.getMessage(),
            **fields,
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


class TextFormatter(logging.Formatter):
    """``time LEVEL logger: message``, the message always on one line (:func:`one_line`);
    only a traceback, when there is one, takes the lines after it."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = one_line(record.message)  # set by format() from getMessage(), each time
        return super().formatMessage(record)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return (
            datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        )


def setup_logging(level: str = "INFO", fmt: str = "text") -> logging.Handler:
    """One handler on the root logger, writing to stderr (Docker and systemd collect it)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level))
    return handler
