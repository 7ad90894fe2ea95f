"""When Discord cannot be reached: one line at start, one line per retry afterwards.

Two moments, two answers. At start-up, before the bot has ever connected, no network to
Discord (no DNS, a firewall, a proxy-only host) raised an aiohttp exception through
``Client.login`` — discord.py retries nothing there — and ``python -m bot`` died with a long
traceback. :func:`unreachable_line` turns it into one sentence saying what failed and what to
check; the process then exits 1, not 2: it may be transient (a container started before the
network), so a restart policy should try again, unlike a configuration error.

After a successful start, ``Client.connect(reconnect=True)`` already keeps the gateway alive:
on a network error or a dropped socket it waits an exponential backoff (up to about 17
minutes) and reconnects, resuming the session, for as long as the outage lasts. What it does
not do is keep the log readable: every attempt logs a full traceback. :class:`OneLineReconnects`
turns those records into one line each.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from urllib.parse import urlsplit

import aiohttp
import discord

from bot.exits import EXIT_RETRY

#: discord.py's logger for the reconnect loop (``Client.connect``).
RECONNECT_LOGGER = "discord.client"
#: The exit code when Discord could not be reached at start: worth retrying later.
EXIT_UNREACHABLE = EXIT_RETRY

#: What no network to Discord raises out of ``Client.start`` (login, then the gateway).
NETWORK_ERRORS: tuple[type[BaseException], ...] = (
    aiohttp.ClientError,
    discord.GatewayNotFound,
    asyncio.TimeoutError,
    ConnectionError,
    socket.gaierror,
)


def _where(exc: BaseException, api_base: str | None) -> str:
    if isinstance(exc, aiohttp.ClientConnectorError):
        return f"{exc.host}:{exc.port}" if exc.port else exc.host
    return urlsplit(api_base or "https://discord.com").netloc or "discord.com"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return f"the name does not resolve (DNS: {exc.os_error.strerror or exc.os_error})"
    if isinstance(exc, aiohttp.ClientConnectorError):
        if isinstance(exc.os_error, ConnectionRefusedError):
            return "connection refused"
        if isinstance(exc.os_error, TimeoutError):
            return "no answer in time"
        os_error = exc.os_error
        return (os_error.strerror or str(os_error) or type(os_error).__name__).lower()
    if isinstance(exc, asyncio.TimeoutError):
        return "no answer in time"
    if isinstance(exc, discord.GatewayNotFound):
        return "the gateway address was not found (a Discord outage?)"
    return str(exc).strip() or type(exc).__name__


def unreachable_line(exc: BaseException, api_base: str | None = None) -> str | None:
    """One line for an operator when ``exc`` means Discord could not be reached, else None.

    ``api_base`` is the API address in use (``MT_DISCORD_API_BASE`` in tests; else Discord's).
    """
    if not isinstance(exc, NETWORK_ERRORS) or isinstance(exc, discord.HTTPException):
        return None  # an HTTP answer (401, 500...) is Discord talking, not the network failing
    return (
        f"cannot reach Discord at {_where(exc, api_base)}: {_reason(exc)}; check this "
        "machine's network, DNS, firewall or proxy (the bot needs outbound HTTPS to "
        "discord.com and gateway.discord.gg) — exit code 1, so a restart policy tries again"
    )


class OneLineReconnects(logging.Filter):
    """Turn discord.py's per-attempt reconnect traceback into one line.

    ``Client.connect`` logs ``Attempting a reconnect in N s`` with ``exc_info`` on every
    attempt; during a long outage that is a traceback every few minutes for hours. The record
    keeps its level (ERROR) and logger, and gains the exception's one-line summary instead.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.msg == "Attempting a reconnect in %.2fs":
            exc = record.exc_info[1]
            summary = f"{type(exc).__name__}: {exc}" if exc is not None else "?"
            record.msg = "Discord connection lost (%s); reconnecting in %.2fs"
            record.args = (summary, *(record.args if isinstance(record.args, tuple) else ()))
            record.exc_info = None
            record.exc_text = None
        return True


def install_one_line_reconnects() -> OneLineReconnects:
    """Attach :class:`OneLineReconnects` to discord.py's client logger (idempotent)."""
    logger = logging.getLogger(RECONNECT_LOGGER)
    for existing in logger.filters:
        if isinstance(existing, OneLineReconnects):
            return existing
    added = OneLineReconnects()
    logger.addFilter(added)
    return added
