"""Rematch: a new lobby with the same people and the same rules, where it is asked for.

What players expect from a "Rematch" button: the humans who finished the game are seated
again (anyone who would rather not clicks Leave), the computer players come back at the same
level and under the same names, and the rules and options are exactly the old game's. Whoever
asked hosts the new lobby and starts it when everyone is ready. Players who left or were
kicked during the game (a computer finished their seat) are not seated again.

Only a finished game (not an abandoned one) has a rematch, and only its players can ask (the
server's channel restrictions still apply; its host role does not: they played here
already). The new lobby is recorded in ``channel_id``, the channel it will be posted in (the
Discord layer only offers Rematch in the old game's channel), so the two never differ. The
channel's one-unfinished-game rule makes two clicks race safely: the second gets
:class:`~bot.service.errors.ChannelBusy` naming the new game.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from bot.engine import ENGINE_VERSION
from bot.service import errors
from bot.service.commit import Ledger
from bot.service.guards import utc
from bot.service.lobby import put_rated
from bot.service.names import clean_name
from bot.service.outcome import Fact, FactCode, Outcome, summarise
from bot.store import ChannelBusy as StoreChannelBusy
from bot.store import GameStatus

if TYPE_CHECKING:
    from bot.service.seasons import RatedChoice


class RematchRefused(errors.ServiceError):
    pass


async def open_rematch(
    ledger: Ledger,
    game_id: int,
    user_id: int,
    display_name: str,
    now: datetime,
    *,
    channel_id: int,
    rated: RatedChoice | None = None,
) -> Outcome:
    """Open the rematch lobby of a finished game in ``channel_id``; the asker hosts it.
    ``rated``: its rated or casual choice (:meth:`bot.service.seasons.Seasons.rematch_choice`),
    kept in the commit that opens it."""
    now = utc(now)
    row = await ledger.store.game(game_id)
    if row is None:
        raise errors.GameNotFound(f"there is no game #{game_id}", game_id=game_id)
    if row.status is not GameStatus.FINISHED:
        raise RematchRefused("that game is not over yet", code="rematch-not-over")
    seats = await ledger.store.seats(game_id)
    humans = [s for s in seats if s.user_id is not None and s.computer is None]
    computers = [s for s in seats if s.user_id is None and s.computer is not None]
    asker = next((s for s in humans if s.user_id == user_id), None)
    if asker is None:
        raise RematchRefused(
            f"only the players of game #{game_id} can ask for a rematch",
            code="rematch-not-player",
            game=game_id,
        )
    guild = await ledger.store.guild_settings(row.guild_id)
    if guild.allowed_channels and channel_id not in guild.allowed_channels:
        raise errors.ChannelNotAllowed()
    # The asker first (the host deals first), then the others in their old seat order.
    order: list[tuple[int | None, str, str | None]] = [(user_id, clean_name(display_name), None)]
    order += [(s.user_id, s.display_name, None) for s in humans if s.user_id != user_id]
    order += [(None, s.display_name, s.computer) for s in computers]
    try:
        async with ledger.store.transaction() as tx:
            new_id = await tx.insert_game(
                guild_id=row.guild_id,
                channel_id=channel_id,
                host_id=user_id,
                preset=row.preset,
                rules_json=row.rules_json,
                engine_version=ENGINE_VERSION,
                turn_deadline_s=row.turn_deadline_s,
                hints=row.hints,
                now=now,
            )
            for seat, (uid, name, computer) in enumerate(order):
                await tx.insert_seat(
                    new_id, seat, user_id=uid, display_name=name, computer=computer, now=now
                )
            if rated is not None:
                await put_rated(tx, new_id, rated)
    except StoreChannelBusy:
        raise await ledger.channel_busy(channel_id) from None
    new_row = await ledger.store.game(new_id)
    assert new_row is not None  # just written
    game = summarise(new_row, tuple(await ledger.store.seats(new_id)))
    return Outcome(
        game,
        facts=(
            Fact.of(FactCode.REMATCH, game_id=new_id, previous=game_id, host=game.players[0].name),
        ),
    )
