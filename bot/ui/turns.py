"""The turns nobody present will take, played before the announcer posts: computer players'
moves and the turns of away players (``/mt away``), so one post tells everything since the
last present human's turn (see ``docs/channel.md``).

Called by :func:`bot.ui.announcer.announce` under the game's posting lock; each move is its own
commit through the service, exactly as the scheduler or a computer's turn would make it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.engine import PASS
from bot.i18n import tr
from bot.service import GameService, Outcome
from bot.store import GameStatus
from bot.ui import messages
from bot.ui.host import GameBot


async def catch_up(bot: GameBot, game_id: int, outs: Sequence[Outcome]) -> list[Outcome]:
    """The turns nobody present will take, played now, after ``outs``: computer players'
    moves, and the turns of away players (``/mt away``) played for them exactly as the
    scheduler's ``away`` row would (:meth:`~bot.service.schedule.ScheduleService.play_away_turn`:
    same event, same line), in turn order, until a present human is to move or the match
    ends. The away player's row for that turn goes with the turn, so the scheduler finds
    nothing to do and posts nothing.

    Away turns stop at the second round end in one announcement: a game whose humans are
    all away advances a round or so per announcement (the next away turn is left to the
    scheduler, whose announcement goes on the same way), never a whole match under one lock.
    With a present human, their turn always comes before a second round end.
    """
    new: list[Outcome] = []
    last = outs[-1] if outs else None
    for _ in range(10_000):  # a bound, never reached: a second round end stops it
        if last is None or last.computer_pending:
            moved = await _computers_move(bot, game_id)
            new += moved
            last = moved[-1] if moved else last
        nxt = last.next_player if last is not None else None
        if (
            last is None
            or nxt is None
            or nxt.is_computer
            or nxt.user_id is None
            or last.game.status is not GameStatus.ACTIVE
            or sum(len(o.rounds_ended) for o in (*outs, *new)) > 1
        ):
            break
        played = await bot.schedule.play_away_turn(game_id, nxt.user_id, bot.now())
        if played is None:
            break  # a present human's turn: theirs to take
        new.append(played.outcome)
        last = played.outcome
    return new


async def _computers_move(bot: GameBot, game_id: int) -> list[Outcome]:
    """Computer players' moves, one commit each, until a human is to play (or the end)."""
    outs: list[Outcome] = []
    for _ in range(10_000):  # a bound, never reached: a round always ends
        out = await bot.service.advance_computers(game_id, bot.now(), max_moves=1)
        if not out.steps:
            break
        outs.append(out)
        if not out.computer_pending:
            break
    return outs


async def after_draw(
    service: GameService, out: Outcome, user_id: int, now: datetime, locale: str | None
) -> tuple[str | None, Outcome | None]:
    """What follows a player's draw, for them alone: where the drawn tile fits (they must
    play it), or — when it fits nowhere and passing is all that is left — the pass made for
    them at once (the rules leave no choice), returned as its own outcome to announce. Both
    front ends (``/draw`` and the Draw button, and the terminal game) say it the same way."""
    applied = out.steps[0].applied if out.steps else None
    if applied is None or not applied.drawn:
        return None, None
    tile = applied.drawn[-1]
    view = await service.seat_view(out.game_id, user_id)
    if applied.must_play_drawn:
        trains = messages.plays_by_tile(view).get(tile, [])
        where = ", ".join(messages.train_in_sentence(view.names, t, view.seat, locale)
                          for t in trains)  # fmt: skip
        return tr("draw.fits", locale, tile=str(tile), where=where or "?"), None
    if view.my_turn and tuple(view.legal) == (PASS,):
        passed = await service.pass_turn(out.game_id, user_id, now, computer_moves=0)
        return tr("draw.passed", locale, tile=str(tile)), passed
    return tr("draw.drew", locale, tile=str(tile)), None
