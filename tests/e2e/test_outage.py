"""The game database out of reach while people play: every interaction is answered "the game
database is unreachable, nothing changed, try again shortly", the outage is logged once (one
ERROR line, no traceback), its end once, and play goes on as if nothing happened.

Two real outages: SQLite that cannot write (``query_only`` on the bot's writer connection,
what SQLite does on a file system remounted read-only after a disk error: SQLITE_READONLY on
every write), and PostgreSQL gone: the bot reaches the session's server through a TCP relay
this test cuts (connections dropped, new ones refused) and then restores.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.store.postgres import PgStore
from bot.store.sqlite import SQLiteStore
from tests.clock import FakeClock
from tests.e2e.helpers import last_public, open_game, pick, said, slash_move, to_move
from tests.fakediscord import WAIT, FakeChannel, FakeDiscord, FakeUser, running_bot

DOWN = "The game database is unreachable right now; nothing changed. Try again shortly."


class Relay:
    """A TCP relay to the PostgreSQL server that a test can cut and restore."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        #: Cleared, the relay holds every byte (both ways) and the server seems to hang.
        self._flowing = asyncio.Event()
        self._flowing.set()
        #: Bytes that, once seen going to the server, are passed on and then hang the relay.
        self._trigger: bytes | None = None

    def hang(self) -> None:
        """PostgreSQL hung (as under SIGSTOP): connections stay open, nothing answers."""
        self._flowing.clear()

    def hang_after(self, trigger: bytes) -> None:
        """Hang as soon as ``trigger`` has gone to the server: the server acts on it (a
        COMMIT commits), its answer never comes back."""
        self._trigger = trigger

    def unhang(self) -> None:
        self._trigger = None
        self._flowing.set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """PostgreSQL gone: stop listening (new connections refused) and drop every open one."""
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}

        async def pump(
            src: asyncio.StreamReader, dst: asyncio.StreamWriter, *, upstream: bool
        ) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    await self._flowing.wait()
                    dst.write(data)
                    await dst.drain()
                    if upstream and self._trigger is not None and self._trigger in data:
                        self.hang()
            dst.transport.abort()

        await asyncio.gather(
            pump(reader, up_writer, upstream=True), pump(up_reader, writer, upstream=False)
        )
        self._writers -= {writer, up_writer}


@contextlib.asynccontextmanager
async def relayed(pg_url: str) -> AsyncIterator[tuple[Relay, str]]:
    parts = urlsplit(pg_url)
    assert parts.hostname is not None and parts.port is not None
    relay = Relay(parts.hostname, parts.port)
    await relay.start()
    netloc = parts.netloc.rsplit(":", 1)[0] + f":{relay.port}"
    try:
        yield relay, urlunsplit(parts._replace(netloc=netloc))
    finally:
        with contextlib.suppress(Exception):
            await relay.cut()


async def _refused_during_outage(
    games: FakeChannel, mover: FakeUser, move: str, *, reads_work: bool
) -> None:
    """What a player meets while the database is down: the same clear sentence, delivered,
    for everything that writes (and, when reads fail too, for what only reads)."""
    assert await slash_move(mover, games, move) == DOWN
    for attempt in (
        mover.slash("mt leave", channel=games),
        mover.slash("mt me", channel=games, dms=False),
        mover.slash("mt away", channel=games, state="on"),
    ):
        answer = await said(await attempt, timeout=WAIT)
        assert answer.ephemeral and answer.text == DOWN, answer.text
    status = await said(await mover.slash("mt status", channel=games), timeout=WAIT)
    assert (status.text == DOWN) is not reads_work, status.text
    click = await said(await mover.click(last_public(games), label="Play"), timeout=WAIT)
    assert (click.text == DOWN) is not reads_work, click.text


async def _outage_then_recovery(
    fake: FakeDiscord,
    bot: MexicanTrainBot,
    caplog: pytest.LogCaptureFixture,
    cut: Callable[[], Awaitable[None]],
    restore: Callable[[], Awaitable[None]],
    *,
    reads_work: bool,
) -> None:
    games, alice, bob = fake.channel("games"), fake.user("alice"), fake.user("bob")
    people = {alice.id: alice, bob.id: bob}
    game = await open_game(fake, bot, games, alice, [bob], preset="quick")
    uid, view = await to_move(bot, game.id)
    move = str(pick(view.legal))
    before = await bot.service.history(game.id)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        await cut()
        await _refused_during_outage(games, people[uid], move, reads_work=reads_work)
        refused = 4 if reads_work else 6

        def logged() -> bool:  # an answer shows before its interaction's log line is written
            lines = [getattr(r, "mt_fields", {}).get("outcome") for r in caplog.records]
            return lines.count("unavailable") == refused

        await fake.wait_for(logged, timeout=WAIT, what="the refused interactions' log lines")
        during = list(caplog.records)
        await restore()
        answer = await slash_move(people[uid], games, move)
        assert answer.startswith("✅"), answer

        def ended() -> list[str] | None:
            said = [r.getMessage() for r in caplog.records if "again after" in r.getMessage()]
            return said or None

        ends = await fake.wait_for(ended, timeout=WAIT, what="the outage's end in the log")
    assert [r.getMessage() for r in during if r.exc_info] == []  # not one traceback
    errors = [r for r in during if r.levelno >= logging.ERROR]
    assert all("game database is unreachable" in r.getMessage() for r in errors), errors
    # Once per outage, per part of the bot that met it (the interactions; the scheduler).
    assert sorted(r.name for r in errors) == sorted({r.name for r in errors})
    assert [r.name for r in errors].count("bot.ui.host") == 1
    assert len(ends) == 1 and "interaction(s) were refused meanwhile" in ends[0], ends
    after = await bot.service.history(game.id)
    assert after[: len(before)] == before and len(after) > len(before)  # only the last move
    await bot.service.verify_game(game.id)


@pytest.mark.expect_errors(logger="bot.ui.host", match=r"database is unreachable: SQLite: ")
async def test_sqlite_that_cannot_write_is_one_clear_answer_and_one_log_line(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = make_bot()
    async with running_bot(fake_discord, bot):
        store = bot.service.store
        assert isinstance(store, SQLiteStore)
        writer = store._writer  # the fault is injected where SQLite sees it

        async def cut() -> None:
            await writer.execute("PRAGMA query_only = ON")

        async def restore() -> None:
            await writer.execute("PRAGMA query_only = OFF")

        await _outage_then_recovery(fake_discord, bot, caplog, cut, restore, reads_work=True)


@pytest.mark.expect_errors(
    logger="bot.ui.host",
    match=r"database is unreachable: the database server cannot be reached; the driver said",
)
async def test_postgresql_gone_is_one_clear_answer_and_one_log_line(
    fake_discord: FakeDiscord, pg_url: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    async with relayed(pg_url) as (relay, url):
        bot = create_bot(Config.from_env({"MT_DATABASE": url}), clock=clock, rng=random.Random(7))
        async with running_bot(fake_discord, bot):
            assert isinstance(bot, MexicanTrainBot)

            async def restore() -> None:
                await relay.start()  # the same port: the pool connects again

            await _outage_then_recovery(
                fake_discord, bot, caplog, relay.cut, restore, reads_work=False
            )


@pytest.mark.expect_errors(
    logger="bot.ui.host", match=r"database is unreachable: .*did not answer within 1 s"
)
async def test_postgresql_that_hangs_is_an_outage_like_one_gone(
    fake_discord: FakeDiscord, pg_url: str, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that stops answering (SIGSTOP, a network gone silent) is the same outage as
    one that refuses: each statement gives up after the store's command timeout (1 s here)
    as the store's own error, so players read the same sentence and the log one line."""
    async with relayed(pg_url) as (relay, url):
        store = await PgStore.connect(url, connect_timeout=1.0, command_timeout=1.0)
        config = Config.from_env({"MT_DATABASE": url})
        bot = create_bot(config, clock=clock, rng=random.Random(7), store=store)
        async with running_bot(fake_discord, bot):
            assert isinstance(bot, MexicanTrainBot)

            async def hang() -> None:
                relay.hang()

            async def unhang() -> None:
                relay.unhang()

            await _outage_then_recovery(fake_discord, bot, caplog, hang, unhang, reads_work=False)
