"""No network to Discord: one line and exit 1 at start; one log line per reconnect after.

The start-up case runs ``python -m bot`` for real, pointed (through the test-only
``MT_DISCORD_*`` settings, loopback only) at a port on 127.0.0.1 where nothing listens: the
same ``aiohttp`` connection error a host without network gets from discord.com.
"""

from __future__ import annotations

import io
import logging
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.ops.network import (
    EXIT_UNREACHABLE,
    OneLineReconnects,
    install_one_line_reconnects,
    unreachable_line,
)
from tests.ops.helpers import ROOT, TOKEN, bot_env


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_no_network_at_start_is_one_line_and_exit_1(tmp_path: Path) -> None:
    port = _closed_port()
    env = bot_env(None, tmp_path / "db.sqlite3") | {
        "MT_DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "MT_DISCORD_GATEWAY": f"ws://127.0.0.1:{port}/gateway",
        "MT_LOG_LEVEL": "ERROR",  # the test-mode warnings aside: only what an error prints
    }
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == EXIT_UNREACHABLE == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"mexican-train-bot: cannot reach Discord at 127.0.0.1:{port}: ")
    assert "connection refused" in lines[0] and "check this machine's network, DNS" in lines[0]
    assert TOKEN not in result.stderr


def _connector_error(os_error: OSError, cls: type = aiohttp.ClientConnectorError) -> Exception:
    key = type("Key", (), {"host": "discord.com", "port": 443, "ssl": True})()
    return cls(key, os_error)  # type: ignore[no-any-return]


def test_each_network_failure_names_its_cause_and_others_are_not_network() -> None:
    dns = _connector_error(
        socket.gaierror(-3, "Temporary failure in name resolution"),
        aiohttp.ClientConnectorDNSError,
    )
    line = unreachable_line(dns)
    assert line is not None
    assert line.startswith("cannot reach Discord at discord.com:443: the name does not resolve")
    assert "Temporary failure in name resolution" in line
    refused = unreachable_line(_connector_error(ConnectionRefusedError(111, "refused")))
    assert refused is not None and "connection refused" in refused
    timeout = unreachable_line(TimeoutError())
    assert timeout is not None and "discord.com: no answer in time" in timeout
    # Discord answering (an HTTP status) and local faults are not "cannot reach Discord".
    for other in (ValueError("x"), PermissionError(13, "denied"), KeyError("k")):
        assert unreachable_line(other) is None
    response = type("R", (), {"status": 500, "reason": "Server Error"})()
    assert unreachable_line(discord.DiscordServerError(response, "down")) is None


@pytest.mark.expect_errors(logger="discord.client", match=r"^Discord connection lost \(Client")
@pytest.mark.expect_errors(logger="discord.client", match=r"^Shard ID None heartbeat blocked")
def test_reconnect_attempts_log_one_line_each_not_a_traceback() -> None:
    """discord.py's own reconnect loop logs 'Attempting a reconnect' with a traceback on
    every attempt; the filter keeps the record (level, logger) on one line."""
    logger = logging.getLogger("discord.client")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    added = install_one_line_reconnects()
    assert install_one_line_reconnects() is added  # once only
    try:
        try:
            raise _connector_error(ConnectionResetError(104, "Connection reset by peer"))
        except aiohttp.ClientError:
            # Exactly how Client.connect logs it (discord/client.py).
            logger.exception("Attempting a reconnect in %.2fs", 3.25)
        logger.error("Shard ID %s heartbeat blocked", None)  # other records: untouched
    finally:
        logger.removeHandler(handler)
        logger.removeFilter(added)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("ERROR discord.client: Discord connection lost (ClientConnector")
    assert lines[0].endswith("; reconnecting in 3.25s")
    assert lines[1:] == ["ERROR discord.client: Shard ID None heartbeat blocked"]  # no traceback
    assert isinstance(added, OneLineReconnects)
