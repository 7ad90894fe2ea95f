"""Log set-up and the one line per interaction.

``MT_LOG_FORMAT=text`` writes ``time LEVEL logger: message`` lines; ``json`` writes one JSON
object per line (``ts``, ``level``, ``logger``, ``msg``, and the fields of an interaction).
Every interaction that reaches the Discord layer's error funnel (``bot.ui.interactions.guarded``)
is logged exactly once, when it ends, by :func:`track`::

    interaction game=12 user=4242 command="mt new" outcome=ok latency_ms=38.2
    interaction game=12 user=4242 command=play outcome=refused:no-fit latency_ms=11.0

``outcome`` is ``ok``, ``refused:<code>`` (a player's request refused, nothing changed) or
``error`` (a bug: its traceback is logged too). The game is filled in by :func:`note_game`
wherever the flow learns it (the game lock, the channel's game), or read from a button's
``custom_id``. Autocomplete suggestions are not interactions in this sense and are not logged.
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from types import TracebackType
from typing import Any

from bot.ops.metrics import Metrics

log = logging.getLogger("bot.interactions")

#: The fields of an interaction line, in order.
FIELDS = ("game", "user", "command", "outcome", "latency_ms")

_current: contextvars.ContextVar[InteractionRecord | None] = contextvars.ContextVar(
    "mt_interaction", default=None
)


def note_game(game_id: int) -> None:
    """Tell the running interaction (if any) which game it acts on, for its log line."""
    record = _current.get()
    if record is not None and record.game is None:
        record.game = game_id


def command_of(interaction: Any) -> tuple[str, int | None]:
    """The command's name (``mt new``, ``play``) or a button's action (``mt:lobby:join``,
    ``mt:play``), and the game id a button carries in its ``custom_id``."""
    command = getattr(interaction, "command", None)
    if command is not None:
        return str(getattr(command, "qualified_name", command)), None
    data = getattr(interaction, "data", None) or {}
    custom_id = str(data.get("custom_id", "")) if isinstance(data, dict) else ""
    if not custom_id:
        return "unknown", None
    parts = custom_id.split(":")
    numbers = [p for p in parts if p.isdigit()]
    game = int(numbers[0]) if numbers and custom_id.startswith("mt:") else None
    return ":".join(p for p in parts if not p.isdigit()), game


class InteractionRecord:
    """One interaction in progress: ``outcome`` stays ``ok`` unless the funnel says otherwise."""

    def __init__(self, interaction: Any, metrics: Metrics | None) -> None:
        self.command, self.game = command_of(interaction)
        user = getattr(interaction, "user", None)
        self.user: int | None = getattr(user, "id", None)
        self.outcome = "ok"
        self._metrics = metrics
        self._started = 0.0
        self._token: contextvars.Token[InteractionRecord | None] | None = None

    def __enter__(self) -> InteractionRecord:
        self._started = time.perf_counter()
        self._token = _current.set(self)
        if self._metrics is not None:
            self._metrics.begin()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        seconds = time.perf_counter() - self._started
        if error is not None:
            self.outcome = "error"  # cancelled or escaped the funnel
        if self._token is not None:
            _current.reset(self._token)
        if self._metrics is not None:
            self._metrics.end(self.outcome, seconds)
        fields = {
            "game": self.game,
            "user": self.user,
            "command": self.command,
            "outcome": self.outcome,
            "latency_ms": round(seconds * 1000, 1),
        }
        log.info("interaction %s", key_values(fields), extra={"mt_fields": fields})


def track(interaction: Any) -> InteractionRecord:
    """``with track(interaction) as record:`` around one interaction's handling: counts it in
    the client's ``metrics`` (if it has one) and logs its line when it ends."""
    metrics = getattr(interaction.client, "metrics", None)
    return InteractionRecord(interaction, metrics if isinstance(metrics, Metrics) else None)


def key_values(fields: Mapping[str, object]) -> str:
    """``key=value`` pairs; values with spaces, quotes or ``=`` are JSON-quoted."""
    out = []
    for key, value in fields.items():
        text = "-" if value is None else str(value)
        if not text or any(c in text for c in ' "=\\'):
            text = json.dumps(text)
        out.append(f"{key}={text}")
    return " ".join(out)


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
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

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
