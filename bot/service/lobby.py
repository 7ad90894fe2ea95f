"""The lobby and the table's seats: open, join, computer players, leave, kick, start, end.

Each call names who acts and when (``now``, an aware datetime: the service never reads a
clock), checks the phase and the host's rights, and commits through the ledger's commit
context (:meth:`~bot.service.commit.Ledger.commit`). In the lobby a change rewrites the seats;
once the game is dealt, a player who leaves or is kicked hands their seat to a computer
player, as an event.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.engine import ENGINE_VERSION, Match, RulesError
from bot.engine.ai import Level
from bot.service import errors
from bot.service.commit import Commit, Ledger
from bot.service.guards import (
    need_active,
    need_host,
    need_lobby,
    need_unfinished,
    seat_row,
    seated,
    utc,
)
from bot.service.names import clean_name
from bot.service.outcome import Fact, FactCode, GameOptions, Outcome, players_of
from bot.service.settings import preset_rules, rules_with
from bot.store import ChannelBusy as StoreChannelBusy
from bot.store import GameStatus, SeatRow, Tx
from bot.store import seasons as season_rows

if TYPE_CHECKING:
    from bot.service.seasons import RatedChoice


class Lobbies:
    """Opening a game and changing who sits at it."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        display_name: str,
        now: datetime,
        preset_name: str | None = None,
        house_rules: Mapping[str, Any] | None = None,
        options: GameOptions | None = None,
        is_manager: bool = False,
        role_ids: Collection[int] = (),
        rated: RatedChoice | None = None,
    ) -> Outcome:
        """Open a lobby in a channel, with the creator as host in seat 1.

        Rules are ``preset_name`` (default: the server's default preset and house rules) with
        ``house_rules`` (rule field -> value, e.g. ``{"knock": True}``) on top. ``rated``: the
        host's rated or casual choice (:meth:`bot.service.seasons.Seasons.rated_choice`),
        kept in the commit that opens the lobby, so no crash leaves a casual game rated.
        """
        now = utc(now)
        host_name = clean_name(display_name)
        guild = await self.ledger.store.guild_settings(guild_id)
        if guild.allowed_channels and channel_id not in guild.allowed_channels:
            raise errors.ChannelNotAllowed()
        if guild.host_role_id is not None and not is_manager and guild.host_role_id not in role_ids:
            raise errors.NeedsHostRole(guild.host_role_id)
        if preset_name is None:
            name, base = guild.preset, preset_rules(guild.preset)
            overrides = {**guild.house_rules, **(house_rules or {})}
        else:
            name, base, overrides = preset_name, preset_rules(preset_name), dict(house_rules or {})
        rules = rules_with(base, overrides)
        options = options or GameOptions()
        deadline = options.turn_deadline
        if deadline is not None and deadline < timedelta(minutes=1):
            raise errors.BadSetting("a turn deadline is at least a minute", code="bad-deadline")
        try:
            async with self.ledger.store.transaction() as tx:
                game_id = await tx.insert_game(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    host_id=user_id,
                    preset=name,
                    rules_json=rules.to_json(),
                    engine_version=ENGINE_VERSION,
                    turn_deadline_s=None if deadline is None else int(deadline.total_seconds()),
                    hints=options.hints,
                    now=now,
                )
                await tx.insert_seat(
                    game_id,
                    0,
                    user_id=user_id,
                    display_name=host_name,
                    computer=None,
                    now=now,
                )
                if rated is not None:
                    await put_rated(tx, game_id, rated)
        except StoreChannelBusy:
            raise await self.ledger.channel_busy(channel_id) from None
        async with self.ledger.locked(game_id):
            g = await self.ledger.get(game_id)
        p = players_of(g.seats)[0]
        return Outcome(
            self.ledger.summary(g),
            facts=(Fact.of(FactCode.LOBBY_OPENED, game_id=game_id, host=p.name, preset=name),),
        )

    async def move_to_thread(
        self, game_id: int, user_id: int, channel_id: int, now: datetime
    ) -> Outcome:
        """Move a lobby into the thread just opened for it (``/mt new thread:``): from then on
        the thread is the game's channel, so one game per channel still holds there. Only its
        host, only while it is a lobby."""
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            need_lobby(g)
            need_host(g, user_id, False, "move the lobby")
            try:
                await c.write_lobby(g.seats, channel_id=channel_id)
            except StoreChannelBusy:
                raise await self.ledger.channel_busy(channel_id) from None
            return Outcome(self.ledger.summary(g))

    async def join(self, game_id: int, user_id: int, display_name: str, now: datetime) -> Outcome:
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            need_lobby(g)
            if any(s.user_id == user_id for s in g.seats):
                raise errors.AlreadyInGame()
            self.ledger.check_room(g)
            seat = len(g.seats)
            new = SeatRow(game_id, seat, user_id, clean_name(display_name), None, now)
            await c.write_lobby((*g.seats, new))
            return self.ledger.lobby_outcome(
                g, Fact.of(FactCode.JOINED, seat=seat, name=new.display_name, user_id=user_id)
            )

    async def add_computer(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        level: Level = Level.NORMAL,
        name: str | None = None,
        is_manager: bool = False,
        stem: str = "CPU",
    ) -> Outcome:
        """Seat a computer player (host only). ``name`` defaults to ``{stem} n``: the caller
        gives the stem in the channel's language (``Ordi 1`` in French), the service has none."""
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            need_lobby(g)
            need_host(g, user_id, is_manager, "add computer players")
            self.ledger.check_room(g)
            seat = len(g.seats)
            taken = {s.display_name for s in g.seats}
            if name is None:
                n = 1 + sum(1 for s in g.seats if s.user_id is None)
                while f"{stem} {n}" in taken:
                    n += 1
                name = f"{stem} {n}"
            new = SeatRow(game_id, seat, None, clean_name(name), level.value, now)
            await c.write_lobby((*g.seats, new))
            return self.ledger.lobby_outcome(
                g,
                Fact.of(
                    FactCode.COMPUTER_ADDED, seat=seat, name=new.display_name, level=level.value
                ),
            )

    async def remove_computer(
        self,
        game_id: int,
        user_id: int,
        seat: int,
        now: datetime,
        *,
        is_manager: bool = False,
        name: str | None = None,
    ) -> Outcome:
        """Take a computer player out of the lobby (host only); ``seat`` is 0-based.

        ``name`` is the computer the caller saw at that seat: seats move up when one is
        removed, so a request from an older picture of the lobby whose seat now holds someone
        else gets :class:`TableChanged` instead of removing them.
        """
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            need_lobby(g)
            need_host(g, user_id, is_manager, "remove computer players")
            target = seat_row(g, seat)
            if name is not None and (target.user_id is not None or target.display_name != name):
                raise errors.TableChanged()
            if target.user_id is not None:
                raise errors.NoSuchSeat(
                    f"seat {seat + 1} is not a computer player", code="not-computer", seat=seat
                )
            rest = tuple(s for s in g.seats if s.seat != seat)
            await c.write_lobby(rest)
            return self.ledger.lobby_outcome(
                g, Fact.of(FactCode.COMPUTER_REMOVED, seat=seat, name=target.display_name)
            )

    async def leave(
        self, game_id: int, user_id: int, now: datetime, *, computer_moves: int | None = None
    ) -> Outcome:
        """Leave a game. In the lobby the seat goes; during play a computer takes it over.

        When the host leaves, the next human becomes host; when no human is left the game is
        abandoned.
        """
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            me = seated(g, user_id)
            return await self._remove_human(
                c, g.seats[me.seat], by=user_id, computer_moves=computer_moves
            )

    async def kick(
        self,
        game_id: int,
        user_id: int,
        target_user_id: int,
        now: datetime,
        *,
        is_manager: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Remove a player (host or server manager): from the lobby, or to a computer player."""
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            need_unfinished(g)
            need_host(g, user_id, is_manager, "kick players")
            if target_user_id == user_id:
                raise errors.NoSuchSeat("you can't kick yourself: leave instead", code="kick-self")
            target = next(
                (s for s in g.seats if s.user_id == target_user_id and s.computer is None), None
            )
            if target is None:
                raise errors.NoSuchSeat(
                    "that player is not in this game", code="not-a-player", user_id=target_user_id
                )
            return await self._remove_human(
                c, target, by=user_id, kicked=True, computer_moves=computer_moves
            )

    async def start(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        is_manager: bool = False,
        computer_moves: int | None = None,
    ) -> Outcome:
        """Deal the first round (host or server manager). The host sits first."""
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            need_lobby(g)
            need_host(g, user_id, is_manager, "start")
            if len(g.seats) < 2:
                raise errors.NotEnoughPlayers(
                    "you need at least 2 players to start", players=len(g.seats)
                )
            try:
                g.rules.check(len(g.seats))
            except RulesError as exc:
                raise errors.BadRules(str(exc), players=len(g.seats)) from None
            host = [s for s in g.seats if s.user_id == g.row.host_id]
            ordered = host + [s for s in g.seats if s.user_id != g.row.host_id or not host]
            seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(ordered))
            match = Match(g.rules, [s.display_name for s in seats], g.row.engine_version)
            c.begin(match, seats)
            c.event(
                "start",
                {"seats": [[s.user_id, s.display_name, s.computer] for s in seats]},
                user_id,
            )
            c.facts.append(Fact.of(FactCode.GAME_STARTED, players=len(seats)))
            c.deal()
            return await c.write(await c.after_move(computer_moves))

    # ================================================================== play

    async def end(
        self, game_id: int, user_id: int, now: datetime, *, is_manager: bool = False
    ) -> Outcome:
        """Abandon a lobby or a game in play (host or server manager). Nobody wins."""
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            g = c.game
            need_unfinished(g)
            need_host(g, user_id, is_manager, "end the game")
            c.event("end", {"by": user_id, "reason": "ended"}, user_id)
            c.facts.append(Fact.of(FactCode.GAME_ENDED, by=user_id))
            return await c.write(False, status=GameStatus.ABANDONED)

    async def place_gone(self, game_id: int, now: datetime, reason: str) -> Outcome:
        """End a game whose place is gone: its channel or thread was deleted, or the bot was
        removed from its server (``reason``: ``channel-deleted``, ``server-left``). Nobody
        wins; nobody did it. Its deadlines go with it (the scheduler skips a finished game)."""
        now = utc(now)
        async with self.ledger.commit(game_id, now) as c:
            need_unfinished(c.game)
            c.event("end", {"by": None, "reason": reason}, None)
            c.facts.append(Fact.of(FactCode.GAME_ABANDONED, reason=reason))
            return await c.write(False, status=GameStatus.ABANDONED)

    async def _remove_human(
        self,
        c: Commit,
        target: SeatRow,
        *,
        by: int,
        kicked: bool = False,
        computer_moves: int | None,
    ) -> Outcome:
        g = c.game
        players = players_of(g.seats)
        p = players[target.seat]
        fact = Fact.of(
            FactCode.KICKED if kicked else FactCode.LEFT,
            seat=target.seat,
            name=target.display_name,
            by=by,
        )
        humans_left = [s for s in g.seats if s.computer is None and s.seat != target.seat]
        new_host = g.row.host_id
        if target.user_id == g.row.host_id and humans_left:
            new_host = humans_left[0].user_id or new_host
        facts = [fact]
        if new_host != g.row.host_id:
            facts.append(Fact.of(FactCode.HOST_CHANGED, user_id=new_host))
        if g.row.status is GameStatus.LOBBY:
            columns: dict[str, Any] = {"host_id": new_host}
            if not humans_left:
                columns["status"] = GameStatus.ABANDONED
                facts.append(Fact.of(FactCode.GAME_ABANDONED, reason="no-players"))
            rest = tuple(s for s in g.seats if s.seat != target.seat)
            await c.write_lobby(rest, **columns)
            return Outcome(self.ledger.summary(g), facts=tuple(facts))
        need_active(g)
        level = self.ledger.replacement_level
        seats = tuple(
            dataclasses.replace(s, computer=level.value) if s.seat == target.seat else s
            for s in g.seats
        )
        c.reseat(seats)
        c.event(
            "kick" if kicked else "leave",
            {"seat": target.seat, "user": target.user_id, "computer": level.value, "by": by},
            by,
        )
        c.facts.extend(facts)
        c.facts.append(
            Fact.of(FactCode.COMPUTER_TOOK_OVER, seat=p.seat, name=p.name, level=level.value)
        )
        status = None
        pending = False
        if not humans_left:
            c.event("end", {"by": None, "reason": "no-players"}, None)
            c.facts.append(Fact.of(FactCode.GAME_ABANDONED, reason="no-players"))
            status = GameStatus.ABANDONED
        else:
            pending = await c.after_move(computer_moves)
        return await c.write(pending, status=status, host_id=new_host)


async def put_rated(tx: Tx, game_id: int, choice: RatedChoice) -> None:
    """A new game's rated or casual choice, written in the transaction that opens it (a
    lobby, a rematch): a game without a row is rated (``game_rated``). A league table's game
    is linked to its table in it too, so no crash leaves a lobby its table does not know
    (:class:`~bot.service.errors.LeagueTableOpened` when the table has its game already:
    nothing is opened)."""
    season_id = None if choice.season is None else choice.season.id
    await season_rows.put_rated(tx, game_id, season_id, choice.rated)
    table = choice.table
    if table is not None and not await season_rows.link_table(tx, game_id, table):
        raise errors.LeagueTableOpened(table.table_no)
