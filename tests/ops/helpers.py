"""What the ops tests share: a token that looks real, and ``python -m bot`` as a subprocess
pointed at the in-process fake Discord (the test-only ``MT_DISCORD_*`` settings)."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import aiohttp

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA4NzY1NDMyMTA5ODc2NTQzMg.GaBcDe.abcdefghijklmnopqrstuvwxyz012345678"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bot_env(fake: FakeDiscord | None, database: Path, **extra: str) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "MT_DATABASE": str(database),
        "MT_HEALTH_PORT": "off",
        # Pictures in a thread of the bot's process, computer moves chosen on its event loop,
        # unless a test exercises the pools.
        "MT_RENDER_WORKERS": "0",
        "MT_THINK_WORKERS": "0",
    }
    if fake is not None:
        env["MT_DISCORD_API_BASE"] = fake.base_url + "/api/v10"
        env["MT_DISCORD_GATEWAY"] = fake.gateway_url
    return env | extra


async def start_bot(env: dict[str, str], *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def wait_healthy(url: str, proc: asyncio.subprocess.Process, timeout: float = 20) -> dict:
    """Poll ``/healthz`` until it says ok (the bot is connected and its database answers)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    async with aiohttp.ClientSession() as session:
        while loop.time() < deadline:
            if proc.returncode is not None:
                err = await proc.stderr.read() if proc.stderr else b""
                raise AssertionError(f"the bot exited {proc.returncode}: {err.decode()}")
            try:
                async with session.get(url + "/healthz") as response:
                    if response.status == 200:
                        return dict(await response.json())
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
    raise TimeoutError(f"{url}/healthz never said ok")
