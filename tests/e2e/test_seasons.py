"""A season and its league played through the fake Discord, end to end (issue 48): a server
admin opens a season; six players sign up (one reads French); at the season's start the
scheduler forms two tables of three by rating and opens each table's game in its own thread
with the league's deadline; every move is typed in the threads; ``/mt new`` is rated with the
season's rules or casual; ``/mt season`` shows the standings; at the season's end the
scheduler posts the top players (a picture) once, and moves the winner of table 2 up and the
last of table 1 down, which the next season's tables follow."""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.cogs import timing
from bot.config import Config
from bot.service.seasons import Seasons
from bot.store import GameStatus, Store, Tx
from bot.store import ratings as rating_rows
from tests.clock import FakeClock
from tests.e2e.helpers import pick, said, slash_move, to_move
from tests.errorlog import ErrorLog
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser, running_bot

DAY = 86400


async def _play(bot: MexicanTrainBot, thread: FakeChannel, users: dict[int, FakeUser]) -> int:
    """Every human move typed in the table's thread, to the match's end; the game's id."""
    game = await bot.service.game_in_channel(thread.id)
    assert game is not None, "no game in the table's thread"
    for _ in range(400):
        if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
            return game.id
        uid, view = await to_move(bot, game.id)
        answer = await slash_move(users[uid], thread, str(pick(view.legal)))
        assert answer.startswith("✅"), answer
    raise AssertionError("the table's match did not end")


async def test_a_season_and_its_league_end_to_end(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    hall, lounge = fake.channel("league"), fake.channel("lounge")
    names = ["ann", "ben", "cat", "dan", "eve", "fay"]
    players = [fake.user(n, locale="fr" if n == "fay" else "en-US") for n in names]
    users = {u.id: u for u in players}
    admin = fake.owner
    bot = make_bot()
    async with running_bot(fake, bot):
        # A member cannot open a season; a bad date is refused and changes nothing.
        refused = await said(await players[0].forge_slash(
            "mt-admin season", channel=hall, name="Autumn", end="2025-03-31"))  # fmt: skip
        assert "Manage Server" in refused.content
        bad = await said(await admin.slash("mt-admin season", channel=hall, name="Autumn",
                                           end="31/03/2025"))  # fmt: skip
        assert "is not a day: write it YYYY-MM-DD" in bad.content
        assert await bot.service.seasons.current(fake.guild_id) is None
        opened = await said(await admin.slash(
            "mt-admin season", channel=hall, name="Autumn", start="2025-03-02", end="2025-03-31",
            rules="quick", deadline_hours=24, vacation=2))  # fmt: skip
        assert "Season **Autumn** is open" in opened.content
        assert "**quick** rules" in opened.content and "after 2 missed turns" in opened.content

        # Six sign-ups before the season's start.
        for u in players:
            joined = await said(await u.slash("mt season", channel=hall, league="join"))
            assert "league of season Autumn" in joined.content or "ligue" in joined.content
        again = await said(await players[0].slash("mt season", channel=hall, league="join"))
        assert "already in the league of season Autumn" in again.content

        # The season's start: the loop forms the tables and opens each game in a thread.
        clock.now = clock.now.replace(day=2)
        await timing.cog_of(bot).scheduler.tick()
        threads = await fake.wait_for(lambda: hall.threads() if len(hall.threads()) == 2 else None,
                                      what="two table threads", timeout=10)  # fmt: skip
        cards = [m.content for m in hall.messages() if "League · season Autumn" in m.content]
        assert len(cards) == 2 and "table 1 (division 1)" in cards[0], cards
        tables = await said(await players[1].slash("mt season", channel=hall, league="tables"))
        assert "Table 1 (division 1)" in tables.content and "Table 2 (division 2)" in tables.content
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None and season.league == "opened"
        seated = {t.table_no: [u for u, _ in t.players]
                  for t in await bot.service.seasons.league.tables(season)}  # fmt: skip
        assert sorted(len(s) for s in seated.values()) == [3, 3]
        late = await said(await fake.user("gus").slash("mt season", channel=hall, league="join"))
        assert "have begun: sign up for the next season's" in late.content
        stay = await said(await players[1].slash("mt season", channel=hall, league="leave"))
        assert "the tables stay as they are" in stay.content
        # An admin cannot move a player into (or out of) a table whose game has begun.
        first = seated[1][0]
        busy = await said(await admin.slash("mt-admin league", channel=hall, action="move",
                                            player=users[first], table=2))  # fmt: skip
        game2 = next(t.game_id for t in await bot.service.seasons.league.tables(season)
                     if t.table_no == 2)  # fmt: skip
        assert f"Table 2's game has begun (game #{game2}): its players are" in busy.content
        assert "`/mt kick` hands a player's seat to the computer" in busy.content
        # /mt new during the season: rated by the season's rules, or casual.
        own = await said(await players[0].slash("mt new", channel=lounge, rated=True,
                                                preset="standard"))  # fmt: skip
        assert "play its rules" in own.content and "rated:False" in own.content
        assert await bot.service.game_in_channel(lounge.id) is None  # nothing was opened
        rated = await said(await players[0].slash("mt new", channel=lounge))
        assert "Rated: it counts for season Autumn" in rated.content
        lobby = await bot.service.game_in_channel(lounge.id)
        assert lobby is not None and lobby.preset == "quick"
        await said(await players[0].slash("mt cancel", channel=lounge))
        casual = await said(await players[0].slash("mt new", channel=lounge, rated=False))
        assert "Casual: not rated." in casual.content
        await said(await players[0].slash("mt cancel", channel=lounge))

        games = []
        for thread in threads:
            game = await bot.service.game_in_channel(thread.id)
            assert game is not None and game.status is GameStatus.ACTIVE
            assert game.preset == "quick" and game.options.turn_deadline is not None
            assert (await bot.schedule.game_schedule(game.id)).replace_after == 2  # vacation
            games.append(await _play(bot, thread, users))
        for gid in games:  # rated, in the season
            changes = await bot.service.rating_changes(gid)
            assert len(changes) == 3
        # Each table's result beside its thread says every player's change ("+23 → 1,412").
        results = [m.content for m in hall.messages() if "is over (" in m.content]
        assert len(results) == 2 and all("\nRatings: " in r for r in results), results
        assert all("→" in r for r in results)
        # A table game's rematch keeps the season's rules: rated in the season too.
        result = next(m for m in hall.messages() if "is over (" in m.content)
        again = await said(await players[0].click(result, label="Rematch"))
        assert "Rated: it counts for season Autumn" in again.content, again.content

        # The standings: six players, each with one rated match of the season.
        standings = await said(await players[2].slash("mt season", channel=hall))
        assert "**Season Autumn**" in standings.content
        assert all(f"<@{u.id}>" in standings.content for u in players)
        assert standings.content.count("(+") + standings.content.count("(-") == 6
        assert "1 rated match)" in standings.content
        fr = await said(await players[5].slash("mt season", channel=hall))
        assert "**Saison Autumn**" in fr.content and "(+130, 1 classée)" in fr.content

        # The season's end: one post with the top players and the moves.
        winner2 = await _first(bot, games, seated, 2)
        last1 = await _last(bot, games, seated, 1)
        before = len(hall.messages())
        dms_before = {u.id: len(u.dms()) for u in players}
        fake.close_dms(players[2])  # cat: the result DM is refused (50007), and remembered
        ending = clock.now.replace(month=4, day=1)
        dan = players[3]  # in his quiet hours at the end: named without a ping, a silent DM
        quiet = {"quiet_start": ending.hour, "quiet_end": (ending.hour + 2) % 24}
        await said(await dan.slash("mt me", channel=hall, time_zone="UTC", **quiet))
        dan_pings = len(fake.pings_for(dan))
        clock.now = ending
        await timing.cog_of(bot).scheduler.tick()
        await timing.cog_of(bot).scheduler.tick()  # nothing more is due: posted once
        posts = [m for m in hall.messages()[before:] if "is over!" in m.content]
        assert len(posts) == 1, [m.content for m in hall.messages()[before:]]
        post = posts[0]
        assert post.content.startswith("🏆 **Season Autumn is over!**")
        assert f"⬆️ Up: <@{winner2}> to division 1" in post.content
        assert f"⬇️ Down: <@{last1}> to division 2" in post.content
        assert "Ratings carry over into the next season unchanged." in post.content
        assert post.files and post.files[0].filename == "season.png"
        # It pings exactly the players it names (the top players, the moves), nobody else.
        named = {int(u) for u in re.findall(r"<@(\d+)>", post.content)}
        assert named == {u.id for u in players}  # all six played a rated match
        assert sorted(post.pinged) == sorted(named - {dan.id})  # dan: quiet hours
        assert "@everyone" not in post.content and "<@&" not in post.content
        assert len(fake.pings_for(dan)) == dan_pings and len(dan.dms()) > dms_before[dan.id]
        # Each league player is told their own result by DM, in their language.
        said_to = {u.id: [m.content for m in u.dms()[dms_before[u.id] :]] for u in players}
        assert said_to[players[2].id] == []  # DMs closed: told by the post only
        assert (await bot.service.user_settings(players[2].id)).dms_open is False
        for u in players:
            if u is players[2]:
                continue
            (dm,) = said_to[u.id]
            if u is players[5]:
                assert dm.startswith("🏆 La saison **Autumn** est finie"), dm
                assert "Ta cote finale : " in dm
                continue
            assert dm.startswith(f"🏆 Season **Autumn** is over (<#{hall.id}>).\n"), dm
            if u.id == winner2:
                assert "You move up from division 2 to division 1. Your final rating: " in dm
            elif u.id == last1:
                assert "You move down from division 1 to division 2. Your final rating: " in dm
            else:
                assert "You stay in division " in dm and "Your final rating: " in dm
        ended = await bot.service.seasons.current(fake.guild_id)
        assert ended is not None and ended.status == "ended" and not ended.post_owed

    # A restart owes nothing more; the next season's tables follow the moves.
    bot = make_bot()
    async with running_bot(fake, bot):
        await timing.cog_of(bot).scheduler.tick()
        assert len([m for m in hall.messages() if "is over!" in m.content]) == 1
        await said(await admin.slash("mt-admin season", channel=hall, name="Winter",
                                     end="2025-06-30", rules="quick"))  # fmt: skip
        for u in players:
            await said(await u.slash("mt season", channel=hall, league="join"))
        formed = await said(await admin.slash("mt-admin league", channel=hall, action="form"))
        assert "League of season Winter" in formed.content
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None and season.name == "Winter"
        now = {t.table_no: [u for u, _ in t.players]
               for t in await bot.service.seasons.league.tables(season)}  # fmt: skip
        assert winner2 in now[1] and last1 in now[2]
        # An admin's fix: move a player to the other table, before the games open.
        moved = await said(await admin.slash("mt-admin league", channel=hall, action="move",
                                             player=users[winner2], table=2))  # fmt: skip
        assert f"<@{winner2}>" in moved.content.split("Table 2")[1]
        full = await said(await admin.slash("mt-admin league", channel=hall, action="move",
                                            player=users[winner2], table=9))  # fmt: skip
        assert "There is no table 9: the tables are 1 to 2." in full.content


async def _first(bot: MexicanTrainBot, games: list[int], seated: dict[int, list[int]],
                 table: int) -> int:  # fmt: skip
    return (await _order(bot, games, seated, table))[0]


async def _last(bot: MexicanTrainBot, games: list[int], seated: dict[int, list[int]],
                table: int) -> int:  # fmt: skip
    return (await _order(bot, games, seated, table))[-1]


async def _order(bot: MexicanTrainBot, games: list[int], seated: dict[int, list[int]],
                 table: int) -> list[int]:  # fmt: skip
    """The table's players by place (ties: the better rating), as the season's end reads it."""
    for gid in games:
        changes = await bot.service.rating_changes(gid)
        ids = {c.user_id for c in changes}
        if ids == set(seated[table]):
            ranks = {c.user_id: c for c in changes}
            standings = await bot.service.standings(gid)
            place = {s.player.user_id: s.place for s in standings}
            return sorted(ids, key=lambda u: (place[u], -ranks[u].after, u))  # type: ignore[arg-type]
    raise AssertionError(f"no game for table {table}")


async def test_a_table_that_cannot_open_waits_and_opens_later(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    """The season's channel holds a lobby of its own at the season's start: the table cannot
    open there (one game per channel), nothing is left half-open, the loop does not spin on
    it, and once the channel is free the table opens at the next try."""
    fake = fake_discord
    hall = fake.channel("league")
    players = [fake.user(n) for n in ("ann", "ben", "cat")]
    bot = make_bot()
    async with running_bot(fake, bot):
        opened = await said(await fake.owner.slash(
            "mt-admin season", channel=hall, name="Spring", start="2025-03-02", end="2025-03-31",
            knock=True))  # fmt: skip
        assert "Rated games play the **standard, knock=True** rules." in opened.content
        for u in players:
            await said(await u.slash("mt season", channel=hall, league="join"))
        lobby = await said(await players[0].slash("mt new", channel=hall))
        assert "is open" in lobby.content
        clock.now = clock.now.replace(day=2)
        loop = timing.cog_of(bot).scheduler
        await loop.tick()
        assert hall.threads() == []
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None and season.league == "formed"
        (table,) = await bot.service.seasons.league.tables(season)
        assert table.game_id is None  # undone: tried again later
        assert await loop.sleep_time() > 60  # held back, not a tight loop
        await said(await players[0].slash("mt cancel", channel=hall))
        clock.tick(6 * 60)
        await loop.tick()
        (thread,) = await fake.wait_for(lambda: hall.threads() or None, timeout=10,
                                        what="the table's thread")  # fmt: skip
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.status is GameStatus.ACTIVE
        assert {p.user_id for p in game.players} == {u.id for u in players}
        assert game.preset == "standard" and game.rules.knock  # the season's house rules
        # A season is opened in a channel, never in a thread (its games open in threads).
        refused = await said(await fake.owner.slash("mt-admin season", channel=thread,
                                                    name="Summer", end="2025-08-31"))  # fmt: skip
        assert "in a channel, not a thread" in refused.content


async def test_an_end_owed_by_a_process_that_died_is_posted_once_at_the_restart(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    clock: FakeClock,
    db_path: Path,
) -> None:
    """The season's end is committed with its post owed; the process dies before posting. The
    next start's loop posts it, once, in French for a French server."""
    fake = fake_discord
    hall = fake.channel("league")
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await fake.owner.slash("mt-admin settings", channel=hall, language="fr"))
        await said(await fake.owner.slash("mt-admin season", channel=hall, name="Printemps",
                                          end="2025-03-31"))  # fmt: skip
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None
    clock.now = clock.now.replace(month=4, day=2)
    # What the dead process committed: the end, its post owed (no bot running, nothing sent).
    store = await Store.open(db_path)
    try:
        ended = await Seasons(store).end(season.id, clock.now)
    finally:
        await store.close()
    assert ended is not None and ended.season.post_owed
    assert not [m for m in hall.messages() if "finie" in m.content]
    bot = make_bot()
    async with running_bot(fake, bot):
        await timing.cog_of(bot).scheduler.tick()
        await timing.cog_of(bot).scheduler.tick()
        posts = [m for m in hall.messages() if "La saison Printemps est finie" in m.content]
        assert len(posts) == 1
        assert "Aucune partie classée" in posts[0].content
        assert "Les cotes passent telles quelles à la saison suivante." in posts[0].content
        row = await bot.service.seasons.current(fake.guild_id)
        assert row is not None and not row.post_owed


async def test_a_season_s_name_is_shown_inert(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """An admin's season name is text typed into Discord: it never becomes a link, bold or a
    mention wherever the bot writes it."""
    fake = fake_discord
    hall = fake.channel("league")
    bot = make_bot()
    async with running_bot(fake, bot):
        name = "[x](https://evil.e) **bold** @everyone"
        opened = await said(await fake.owner.slash("mt-admin season", channel=hall, name=name,
                                                   end="2025-03-31"))  # fmt: skip
        standings = await said(await fake.user("zed").slash("mt season", channel=hall))
        joined = await said(await fake.user("amy").slash("mt season", channel=hall, league="join"))
        for text in (opened.content, standings.content, joined.content):
            assert "\\[x](https://evil.e) \\*\\*bold\\*\\* @\u200beveryone" in text, text


class Died(Exception):
    """The process was killed: nothing it would write after this is written."""


async def test_a_casual_choice_commits_with_its_lobby(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    error_log: ErrorLog,
) -> None:
    """``/mt new rated:False``: the process dies right after the commit that opens the lobby
    (every later write is lost). The game it left is casual all the same: the host's choice
    was in that commit, so a crash can never leave a game the host chose casual rated."""
    fake = fake_discord
    lounge = fake.channel("lounge")
    bot = make_bot()
    async with running_bot(fake, bot):
        store_type = type(bot.service.store)
        opened: list[int] = []
        real_insert, real_tx = Tx.insert_game, store_type.transaction

        async def insert_game(self: Tx, **kwargs: Any) -> int:
            game_id = await real_insert(self, **kwargs)
            opened.append(game_id)  # this transaction commits; the process dies after it
            return game_id

        @contextlib.asynccontextmanager
        async def transaction(self: Store) -> AsyncIterator[Tx]:
            if opened:
                raise Died("killed after the lobby's commit")
            async with real_tx(self) as tx:
                yield tx

        monkeypatch.setattr(Tx, "insert_game", insert_game)
        monkeypatch.setattr(store_type, "transaction", transaction)
        error_log.expect(logger="bot", match="killed after the lobby's commit")
        answer = await said(await fake.user("ann").slash("mt new", channel=lounge, rated=False))
        monkeypatch.undo()
        assert "Something went wrong" in answer.content, answer.content
    assert len(opened) == 1
    store = await Store.open(db_path)
    try:
        game = await store.game(opened[0])
        assert game is not None and game.status is GameStatus.LOBBY  # the open was committed
        assert await rating_rows.is_casual(store, opened[0])  # and the choice with it
    finally:
        await store.close()


async def test_a_table_s_game_commits_with_its_link_and_is_taken_over_after_a_crash(
    fake_discord: FakeDiscord,
    db_target: str | Path,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    error_log: ErrorLog,
) -> None:
    """At the season's start the process dies right after the commit that opens a table's
    lobby (every later write is lost), on either store. That commit also linked the lobby to
    its table, so nothing is left that nobody knows of: after the restart the loop takes the
    lobby over once its opening has stopped (no change for the retry's delay) and deals it in
    the table's thread, the one game of that table, rated in the season, played to its end."""
    fake = fake_discord
    hall = fake.channel("league")
    players = [fake.user(n) for n in ("ann", "ben", "cat")]
    users = {u.id: u for u in players}
    url = db_target if isinstance(db_target, str) else None
    config = Config(database=db_target if isinstance(db_target, Path) else Path("unused"),
                    database_url=url, synchronous="NORMAL", render_workers=0)  # fmt: skip

    def make_bot() -> MexicanTrainBot:
        bot = create_bot(config, clock=clock, rng=random.Random(7))
        assert isinstance(bot, MexicanTrainBot)
        return bot

    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await fake.owner.slash("mt-admin season", channel=hall, name="Spring",
                                          start="2025-03-02", end="2025-03-31",
                                          rules="quick"))  # fmt: skip
        for u in players:
            await said(await u.slash("mt season", channel=hall, league="join"))
        store_type = type(bot.service.store)
        opened: list[int] = []
        real_insert, real_tx = Tx.insert_game, store_type.transaction

        async def insert_game(self: Tx, **kwargs: Any) -> int:
            game_id = await real_insert(self, **kwargs)
            opened.append(game_id)  # this transaction commits; the process dies after it
            return game_id

        @contextlib.asynccontextmanager
        async def transaction(self: Store) -> AsyncIterator[Tx]:
            if opened:
                raise Died("killed after the table's lobby's commit")
            async with real_tx(self) as tx:
                yield tx

        monkeypatch.setattr(Tx, "insert_game", insert_game)
        monkeypatch.setattr(store_type, "transaction", transaction)
        error_log.expect(logger="bot", match="killed after the table's lobby's commit")
        clock.now = clock.now.replace(day=2)
        await timing.cog_of(bot).scheduler.tick()
        monkeypatch.undo()
        assert len(opened) == 1 and hall.threads() == []
    (lobby,) = opened

    bot = make_bot()  # the restart
    async with running_bot(fake, bot):
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None
        (table,) = await bot.service.seasons.league.tables(season)
        assert table.game_id == lobby  # linked in the commit that opened it
        loop = timing.cog_of(bot).scheduler
        await loop.tick()  # its opening may still be under way elsewhere: not yet
        assert hall.threads() == []
        assert (await bot.service.game(lobby)).status is GameStatus.LOBBY
        clock.tick(6 * 60)
        await loop.tick()
        (thread,) = await fake.wait_for(lambda: hall.threads() or None, timeout=10,
                                        what="the table's thread")  # fmt: skip
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.id == lobby and game.status is GameStatus.ACTIVE
        assert {p.user_id for p in game.players} == set(users)
        cards = [m for m in hall.messages() if "League · season Spring" in m.content]
        assert len(cards) == 1
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None and season.league == "opened"
        ids = [int(r[0]) for r in await bot.service.store.fetch_all("SELECT id FROM games")]
        assert ids == [lobby]  # the table's one game: nothing else was opened
        assert await _play(bot, thread, users) == lobby
        assert len(await bot.service.rating_changes(lobby)) == 3  # rated, in the season


async def test_a_table_whose_thread_was_refused_opens_a_new_game_in_its_place(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    """Discord refuses the table's thread once: that lobby ends before its deal (its card says
    so) and the next try opens the table a new game in its place, linked to the table in the
    new lobby's own commit; the table has that one game, dealt in its thread."""
    fake = fake_discord
    hall = fake.channel("league")
    players = [fake.user(n) for n in ("ann", "ben", "cat")]
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await fake.owner.slash("mt-admin season", channel=hall, name="Spring",
                                          start="2025-03-02", end="2025-03-31",
                                          rules="quick"))  # fmt: skip
        for u in players:
            await said(await u.slash("mt season", channel=hall, league="join"))
        fake.fail_next("POST", "/channels/{channel_id}/messages/{message_id}/threads")
        clock.now = clock.now.replace(day=2)
        loop = timing.cog_of(bot).scheduler
        await loop.tick()
        assert hall.threads() == []
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None and season.league == "formed"
        (table,) = await bot.service.seasons.league.tables(season)
        first = table.game_id
        assert first is not None
        ended = await bot.service.game(first)
        assert ended.status is GameStatus.ABANDONED and ended.round_no is None
        clock.tick(6 * 60)
        await loop.tick()
        (thread,) = await fake.wait_for(lambda: hall.threads() or None, timeout=10,
                                        what="the table's thread")  # fmt: skip
        game = await bot.service.game_in_channel(thread.id)
        assert game is not None and game.id != first and game.status is GameStatus.ACTIVE
        (table,) = await bot.service.seasons.league.tables(season)
        assert table.game_id == game.id
        assert {p.user_id for p in game.players} == {u.id for u in players}
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None and season.league == "opened"


async def test_a_table_s_thread_made_before_a_crash_is_the_one_its_game_moves_into(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    error_log: ErrorLog,
) -> None:
    """The process dies after Discord made the table's thread from its card, before the lobby
    moved into it was committed. After the restart the loop takes the lobby over, finds the
    thread the card already has (Discord refuses a second one) and deals the game there: one
    card, one thread."""
    fake = fake_discord
    hall = fake.channel("league")
    players = [fake.user(n) for n in ("ann", "ben", "cat")]
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await fake.owner.slash("mt-admin season", channel=hall, name="Spring",
                                          start="2025-03-02", end="2025-03-31",
                                          rules="quick"))  # fmt: skip
        for u in players:
            await said(await u.slash("mt season", channel=hall, league="join"))

        async def move_to_thread(*args: Any, **kwargs: Any) -> Any:
            raise Died("killed before the lobby moved into its thread")

        monkeypatch.setattr(bot.service, "move_to_thread", move_to_thread)
        error_log.expect(logger="bot", match="killed before the lobby moved into its thread")
        clock.now = clock.now.replace(day=2)
        await timing.cog_of(bot).scheduler.tick()
        monkeypatch.undo()
        (made,) = hall.threads()
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None
        (table,) = await bot.service.seasons.league.tables(season)
        assert table.game_id is not None
        lobby = await bot.service.game(table.game_id)
        assert lobby.status is GameStatus.LOBBY and lobby.channel_id == hall.id

    bot = make_bot()
    async with running_bot(fake, bot):
        clock.tick(6 * 60)
        await timing.cog_of(bot).scheduler.tick()
        game = await bot.service.game(table.game_id)
        assert game.status is GameStatus.ACTIVE and game.channel_id == made.id
        assert [t.id for t in hall.threads()] == [made.id]
        cards = [m for m in hall.messages() if "League · season Spring" in m.content]
        assert len(cards) == 1
        season = await bot.service.seasons.current(fake.guild_id)
        assert season is not None and season.league == "opened"
