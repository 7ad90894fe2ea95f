"""Seasons and the league (issue 48), on both stores: the tables' rule (3-5 by division and
rating), the moves up and down, a casual game left out of the ratings (and of a rebuild), a
season's end made once when two processes fire it at once, and the season's standings after
two matches that ended at once (nothing lost)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service import GameService
from bot.service import ratings as fold_
from bot.service.errors import LeagueTableOpened
from bot.service.league import LeagueMove, LeagueRefused, form, moves_of, table_sizes
from bot.service.seasons import (
    RatedChoice,
    SeasonEnd,
    SeasonRefused,
    SeasonRow,
    Seasons,
    StandingRow,
)
from bot.service.timing import RETRY_AFTER
from bot.store import GameStatus, Store
from bot.store import ratings as rows_sql
from bot.store import seasons as season_rows
from bot.store.seasons import TableLink
from tests.clock import FakeClock
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, NAMES
from tests.service.helpers import new_game, play_turn
from tests.service.test_ratings_race import _race, _two_finished


def test_tables_hold_three_to_five_and_differ_by_one_at_most() -> None:
    assert table_sizes(0) == [] and table_sizes(3) == [3] and table_sizes(5) == [5]
    assert table_sizes(6) == [3, 3] and table_sizes(7) == [4, 3] and table_sizes(11) == [4, 4, 3]
    for n in range(3, 200):
        sizes = table_sizes(n)
        assert sum(sizes) == n and min(sizes) >= 3 and max(sizes) <= 5
        assert max(sizes) - min(sizes) <= 1


def test_tables_follow_the_divisions_then_the_ratings() -> None:
    players = [1, 2, 3, 4, 5, 6, 7]
    ratings = {1: 900, 2: 1500, 3: 1200, 4: 700, 5: 1600, 6: 1000}  # 7: no rating yet
    assert form(players, ratings, {}) == [[5, 2, 3, 6], [1, 4, 7]]
    # Last season's divisions come first: 4 was promoted to division 1, 5 relegated to 2.
    divisions = {1: 1, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2}
    assert form(players, ratings, divisions) == [[2, 3, 1, 4], [5, 6, 7]]


def test_the_first_moves_up_and_the_last_moves_down() -> None:
    tables = [(1, [(10, 0), (11, 1), (12, 2)]), (2, [(20, 0), (21, 1), (22, 2)]),
              (3, [(30, 0), (31, 1), (32, 2)])]  # fmt: skip
    after = moves_of(tables, 3)
    assert after == {10: 1, 11: 1, 12: 2, 20: 1, 21: 2, 22: 3, 30: 2, 31: 3, 32: 3}
    assert moves_of([(1, [(10, 0), (11, 1)])], 1) == {10: 1, 11: 1}  # one division: no move


async def _season(seasons: Seasons, clock: FakeClock, days: int = 30) -> int:
    row = await seasons.open(
        guild_id=GUILD, channel_id=CHANNEL, name="Spring", starts_at=clock.now,
        ends_at=clock.now + timedelta(days=days), preset="quick", house_rules={},
        deadline=timedelta(hours=24), vacation=3, now=clock.now,
    )  # fmt: skip
    return row.id


async def test_a_season_refuses_what_makes_no_sense(store: Store, clock: FakeClock) -> None:
    seasons = Seasons(store)
    with pytest.raises(SeasonRefused) as bad:
        await seasons.open(guild_id=GUILD, channel_id=CHANNEL, name="  ", starts_at=clock.now,
                           ends_at=clock.now + timedelta(days=1), preset="quick",
                           house_rules={}, deadline=None, vacation=3, now=clock.now)  # fmt: skip
    assert bad.value.code == "season-name"
    with pytest.raises(SeasonRefused) as bad:
        await seasons.open(guild_id=GUILD, channel_id=CHANNEL, name="X", starts_at=clock.now,
                           ends_at=clock.now, preset="quick", house_rules={}, deadline=None,
                           vacation=3, now=clock.now)  # fmt: skip
    assert bad.value.code == "season-dates"
    assert await seasons.current(GUILD) is None  # nothing was written
    await _season(seasons, clock)
    with pytest.raises(SeasonRefused) as bad:
        await _season(seasons, clock)
    assert bad.value.code == "season-open" and bad.value.params["name"] == "Spring"
    # Rated games play the season's rules; rules of one's own are casual, or refused if rated.
    choice = await seasons.rated_choice(GUILD, None, None, {}, clock.now)
    assert choice.rated and choice.preset == "quick" and choice.season is not None
    assert not (await seasons.rated_choice(GUILD, None, "standard", {}, clock.now)).rated
    with pytest.raises(SeasonRefused) as bad:
        await seasons.rated_choice(GUILD, True, None, {"knock": True}, clock.now)
    assert bad.value.code == "season-rules"
    with pytest.raises(LeagueRefused) as no:
        await seasons.league.leave(GUILD, ALICE)
    assert no.value.code == "league-out"


async def test_a_casual_game_is_not_rated_even_after_a_rebuild(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    gids = []
    for rated in (False, True):
        out = await new_game(service, clock, humans=(ALICE, BOB), computers=1,
                             channel=CHANNEL + len(gids),
                             rated=RatedChoice(rated, None, "quick", {}))  # fmt: skip
        while (await service.game(out.game.id)).status is GameStatus.ACTIVE:
            await play_turn(service, out.game.id, clock)
        gids.append(out.game.id)
    assert await service.rating_changes(gids[0]) == []
    assert len(await service.rating_changes(gids[1])) == 3
    before = await rows_sql.all_ratings(store)
    assert {r.user_id: r.games for r in before} == {ALICE: 1, BOB: 1}
    await service.rebuild_ratings(only_missing=False)
    assert await service.rating_changes(gids[0]) == []
    assert await rows_sql.all_ratings(store) == before


async def test_a_rematch_s_choice_is_kept_by_the_commit_that_opens_it(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    """A casual game's rematch is casual from its first commit: the choice is written with
    the new lobby (``rated``), never in a transaction of its own after it."""
    casual = RatedChoice(False, None, "quick", {})
    out = await new_game(service, clock, humans=(ALICE, BOB), computers=1, rated=casual)
    gid = out.game.id
    while (await service.game(gid)).status is GameStatus.ACTIVE:
        await play_turn(service, gid, clock)
    old = await service.game(gid)
    choice = await service.seasons.rematch_choice(gid, GUILD, old.rules, clock.now)
    assert not choice.rated
    again = await service.rematch(gid, BOB, "Bob", clock.tick(), channel_id=CHANNEL, rated=choice)
    assert await rows_sql.is_casual(store, again.game.id)
    # A rated one's rematch: rated (no casual row).
    rated = await new_game(service, clock, channel=CHANNEL + 1, computers=1)
    while (await service.game(rated.game.id)).status is GameStatus.ACTIVE:
        await play_turn(service, rated.game.id, clock)
    choice = await service.seasons.rematch_choice(rated.game.id, GUILD, old.rules, clock.now)
    back = await service.rematch(rated.game.id, ALICE, "Alice", clock.tick(),
                                 channel_id=CHANNEL + 1, rated=choice)  # fmt: skip
    assert choice.rated and not await rows_sql.is_casual(store, back.game.id)


def test_a_season_s_end_pings_whom_its_post_names_and_tells_every_league_player() -> None:
    """The one ping rule at a season's end: its post pings exactly the players it names (the
    top players, then those moved up or down; each once) and every league player hears of
    their own result; a league player who stayed and is not among the top is not pinged."""
    day = datetime(2025, 3, 1, tzinfo=UTC)
    season = SeasonRow(1, GUILD, "Spring", day, day + timedelta(days=30), "quick", "{}",
                       CHANNEL, None, 3, "ended", "opened", True, day)  # fmt: skip
    top = (StandingRow(ALICE, 900, 40, 3), StandingRow(BOB, 850, 10, 2))
    moves = (LeagueMove(BOB, "Bob", 2, 1), LeagueMove(CAROL, "Carol", 1, 1),
             LeagueMove(DAVE, "Dave", 1, 2))  # fmt: skip
    heard = SeasonEnd(season, top, moves, {BOB: 850, CAROL: 700}).heard
    assert heard.named == (ALICE, BOB, DAVE)
    assert heard.end == (BOB, CAROL, DAVE)
    assert heard.turn is None and heard.owed is None


async def test_a_table_whose_game_has_begun_is_not_changed_while_others_wait(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    """Table 1's game opened; tables 2 and 3 wait (their channel busy). An admin may still
    move a player between the waiting tables, but not into or out of table 1 (its seats are
    its game's), and no sign-up, leave or forming again may rebuild the tables under it."""
    seasons = service.seasons
    await _season(seasons, clock)
    for uid in range(101, 112):
        await seasons.league.join(GUILD, uid, f"P{uid}", clock.now)
    season = await seasons.current(GUILD)
    assert season is not None
    tables = await seasons.league.form_tables(season)
    assert [len(t.players) for t in tables] == [4, 4, 3]
    linked = RatedChoice(True, season, "quick", {}, TableLink(season.id, 1))
    game = (await new_game(service, clock, humans=(tables[0].players[0][0],), start=False,
                           rated=linked)).game  # fmt: skip
    one, two = tables[0].players[0][0], tables[1].players[0][0]
    moved = await seasons.league.move(GUILD, two, 3)  # two waiting tables: fixed
    assert two in {u for u, _ in moved.players}
    for who, to in ((one, 2), (two, 1)):
        with pytest.raises(LeagueRefused) as begun:
            await seasons.league.move(GUILD, who, to)
        assert begun.value.code == "league-table-begun"
        assert begun.value.params["table"] == 1 and begun.value.params["game"] == game.id
    with pytest.raises(LeagueRefused) as late:
        await seasons.league.join(GUILD, 200, "Late", clock.now)
    assert late.value.code == "league-closed"
    with pytest.raises(LeagueRefused) as out:
        await seasons.league.leave(GUILD, one)
    assert out.value.code == "league-playing"
    with pytest.raises(LeagueRefused) as again:
        await seasons.league.form_tables(season)
    assert again.value.code == "league-playing"
    after = await seasons.league.tables(season)
    assert after[0].game_id == game.id and after[0].players == tables[0].players


async def test_two_processes_end_a_season_once(
    db_target: str | Path, store: Store, clock: FakeClock
) -> None:
    seasons = Seasons(store)
    sid = await _season(seasons, clock, days=1)
    for uid, name in ((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")):
        await seasons.league.join(GUILD, uid, name, clock.now)
    season = await seasons.current(GUILD)
    assert season is not None
    tables = await seasons.league.form_tables(season)
    assert [len(t.players) for t in tables] == [4]
    clock.tick(2 * 86400)
    others = [await Store.open(db_target, synchronous="NORMAL") for _ in range(2)]
    try:
        ends = await asyncio.gather(*(Seasons(s).end(sid, clock.now) for s in others))
    finally:
        for s in others:
            await s.close()
    assert sum(e is not None for e in ends) == 1
    row = await season_rows.season(store, sid)
    assert row is not None and row.status == "ended" and row.post_owed
    # Owed until posted: the loop's work says so, once; then nothing.
    assert [w.kind for w in await seasons.due(clock.now)] == ["post"]
    await seasons.posted(sid)
    assert await seasons.due(clock.now) == [] and await seasons.next_due() is None
    # Its one table never played: nobody moved.
    assert {(u, b, a) for u, b, a in await season_rows.moves(store, sid)} == {
        (ALICE, 1, 1), (BOB, 1, 1), (CAROL, 1, 1), (DAVE, 1, 1)}  # fmt: skip


async def test_two_matches_ending_at_once_both_count_in_the_standings(
    db_target: str | Path, store: Store, clock: FakeClock
) -> None:
    seasons = Seasons(store)
    start = clock.now
    await _season(seasons, clock)
    svc = GameService(store, cache_size=8)
    matches = await _two_finished(svc, clock)
    await _race(db_target, matches)
    season = await seasons.current(GUILD)
    assert season is not None and season.starts_at == start
    standings = {s.user_id: s for s in await seasons.standings(season)}
    assert {u: s.games for u, s in standings.items()} == {ALICE: 2, BOB: 1, CAROL: 1}
    _, expected = fold_.fold(matches)
    alice = next(r for r in expected if r.user_id == ALICE)
    assert standings[ALICE].rating == fold_.points(alice.mu, alice.sigma)


async def test_a_rematch_is_rated_only_with_the_season_s_rules(
    service: GameService, clock: FakeClock
) -> None:
    standard = (await new_game(service, clock, preset="standard", start=False)).game
    quick = (await new_game(service, clock, channel=CHANNEL + 1, start=False)).game
    casual = (await new_game(service, clock, channel=CHANNEL + 2, start=False,
                             rated=RatedChoice(False, None, "quick", {}))).game  # fmt: skip
    seasons = service.seasons
    # No season: a rematch is rated, unless its game was casual.
    assert (await seasons.rematch_choice(standard.id, GUILD, standard.rules, clock.now)).rated
    assert not (await seasons.rematch_choice(casual.id, GUILD, casual.rules, clock.now)).rated
    await _season(seasons, clock)  # its rated games play "quick"
    now = clock.tick()
    assert not (await seasons.rematch_choice(standard.id, GUILD, standard.rules, now)).rated
    rated = await seasons.rematch_choice(quick.id, GUILD, quick.rules, now)
    assert rated.rated and rated.season is not None and rated.season.name == "Spring"


async def test_two_admins_opening_seasons_at_once_get_one_each_or_a_reason(
    db_target: str | Path, store: Store, clock: FakeClock
) -> None:
    """Two processes open seasons at the same moment: in two servers both get one (distinct
    ids); in one server, one opens and the other is told the season is open."""
    others = [await Store.open(db_target, synchronous="NORMAL") for _ in range(4)]

    async def open_in(s: Store, guild: int, name: str) -> object:
        try:
            return await Seasons(s).open(
                guild_id=guild, channel_id=CHANNEL, name=name, starts_at=clock.now,
                ends_at=clock.now + timedelta(days=9), preset="quick", house_rules={},
                deadline=None, vacation=3, now=clock.now,
            )  # fmt: skip
        except SeasonRefused as exc:
            return exc.code

    try:
        two = await asyncio.gather(
            open_in(others[0], GUILD, "A"), open_in(others[1], GUILD + 1, "B")
        )
        same = await asyncio.gather(open_in(others[2], GUILD + 2, "C"),
                                    open_in(others[3], GUILD + 2, "D"))  # fmt: skip
    finally:
        for s in others:
            await s.close()
    ids = [getattr(r, "id", None) for r in two]
    assert None not in ids and len(set(ids)) == 2
    assert sorted(str(getattr(r, "name", r)) for r in same) in (
        ["C", "season-open"],
        ["D", "season-open"],
    )


async def test_a_late_sign_up_forms_the_tables_again(store: Store, clock: FakeClock) -> None:
    seasons = Seasons(store)
    await _season(seasons, clock)
    for uid in (ALICE, BOB, CAROL):
        await seasons.league.join(GUILD, uid, f"P{uid}", clock.now)
    season = await seasons.current(GUILD)
    assert season is not None
    assert [len(t.players) for t in await seasons.league.form_tables(season)] == [3]
    await seasons.league.join(GUILD, DAVE, "Dave", clock.now)
    season = await seasons.current(GUILD)
    assert season is not None
    assert [len(t.players) for t in await seasons.league.tables(season)] == [4]


async def _games(store: Store) -> list[int]:
    return [int(r[0]) for r in await store.fetch_all("SELECT id FROM games ORDER BY id")]


async def test_a_table_s_lobby_is_linked_to_it_in_its_own_commit(
    service: GameService, store: Store, clock: FakeClock
) -> None:
    """A table's lobby and its link to the table are one commit: a second lobby for a table
    that has its game is refused whole (no game, no row left), and one ended before its deal
    is replaced only by naming it; a dealt game is never taken for one ended before its
    deal (``round_no``)."""
    seasons = service.seasons
    await _season(seasons, clock)
    for uid in (ALICE, BOB, CAROL):
        await seasons.league.join(GUILD, uid, NAMES[uid], clock.now)
    season = await seasons.current(GUILD)
    assert season is not None
    await seasons.league.form_tables(season)

    def link(replaces: int | None = None) -> RatedChoice:
        return RatedChoice(True, season, "quick", {}, TableLink(season.id, 1, replaces))

    first = (await new_game(service, clock, humans=(ALICE,), start=False, rated=link())).game
    (table,) = await seasons.league.tables(season)
    assert table.game_id == first.id and not await rows_sql.is_casual(store, first.id)
    for again in (link(), link(replaces=first.id + 99)):  # another try; a wrong one
        with pytest.raises(LeagueTableOpened) as refused:
            await new_game(service, clock, humans=(BOB,), channel=CHANNEL + 1, start=False,
                           rated=again)  # fmt: skip
        assert refused.value.code == "league-table-opened" and refused.value.params["table"] == 1
        assert await _games(store) == [first.id]  # rolled back whole: no lobby blocks a channel
        assert await service.game_in_channel(CHANNEL + 1) is None
    # Ended before its deal (Discord refused its thread): a new lobby takes its place.
    ended = (await service.end(first.id, ALICE, clock.tick(), is_manager=True)).game
    assert ended.status is GameStatus.ABANDONED and ended.round_no is None
    second = (await new_game(service, clock, humans=(ALICE, BOB, CAROL),
                             rated=link(replaces=first.id))).game  # fmt: skip
    (table,) = await seasons.league.tables(season)
    assert table.game_id == second.id
    # Dealt, then ended: its round is known, so it is the table's game for good.
    out = await service.end(second.id, ALICE, clock.tick(), is_manager=True)
    assert out.game.status is GameStatus.ABANDONED and out.game.round_no is not None


async def test_one_process_takes_over_a_table_s_lobby_left_half_open(
    db_target: str | Path, service: GameService, store: Store, clock: FakeClock
) -> None:
    """A table's lobby whose opening stopped (a process died after its commit) is taken over
    to be dealt: not while it changed within the retry's delay (its opening may be under way
    in another process), and by one process only when two try at once."""
    seasons = service.seasons
    await _season(seasons, clock)
    for uid in (ALICE, BOB, CAROL):
        await seasons.league.join(GUILD, uid, NAMES[uid], clock.now)
    season = await seasons.current(GUILD)
    assert season is not None
    await seasons.league.form_tables(season)
    rated = RatedChoice(True, season, "quick", {}, TableLink(season.id, 1))
    lobby = (await new_game(service, clock, humans=(ALICE,), start=False, rated=rated)).game
    assert not await seasons.league.take_over(lobby, clock.tick(60), RETRY_AFTER)  # too fresh
    now = clock.tick(int(RETRY_AFTER.total_seconds()))
    others = [await Store.open(db_target, synchronous="NORMAL") for _ in range(2)]
    try:
        tries = (Seasons(s).league.take_over(lobby, now, RETRY_AFTER) for s in others)
        took = await asyncio.gather(*tries)
    finally:
        for s in others:
            await s.close()
    assert sorted(took) == [False, True]
    # The one that took it deals it; the service's copy of the game is not stale for it.
    await service.join(lobby.id, BOB, "Bob", clock.tick())
    out = await service.join(lobby.id, CAROL, "Carol", clock.tick())
    dealt = (await service.start(lobby.id, ALICE, clock.tick(), is_manager=True)).game
    assert out.game.status is GameStatus.LOBBY and dealt.status is GameStatus.ACTIVE
    # Dealt: nothing to take over.
    assert not await seasons.league.take_over(dealt, clock.tick(3600), RETRY_AFTER)
