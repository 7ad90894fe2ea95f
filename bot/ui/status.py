"""A game's status in words: the seats, whose turn it is (and by when), the time policy,
the score table, the hands laid open under that house rule.

What ``/mt status`` and ``/table`` say, the lobby card's seats, the answer to a button that no
longer works, the terminal game's scores: the state of a game as it stands, apart from
:mod:`bot.ui.messages`, which tells what moves did. Pure functions from the service's values
to strings, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import SeatView
from bot.i18n import tr
from bot.service import GameScheduleRow, GameStatus, GameSummary, Player
from bot.ui.messages import timestamp
from bot.ui.quoting import in_code, shown


def seats_text(summary: GameSummary, locale: str | None) -> str:
    lines = []
    for p in summary.players:
        if p.computer is not None:
            level = tr(f"level.word.{p.computer.value}", locale)
            who = tr("seat.computer", locale, name=shown(p.name), level=level)
        else:
            who = f"<@{p.user_id}>"
            if p.user_id == summary.host_id:
                who += " " + tr("seat.host", locale)
        lines.append(f"{p.seat + 1}. {who}")
    return "\n".join(lines) or "—"


def scores_table(
    players: Sequence[Player],
    round_scores: Sequence[Sequence[int]],
    totals: Sequence[int],
    locale: str | None = None,
) -> str:
    """A monospace table: a row per player, a column per round, then the total."""
    names = [in_code(p.name) for p in players]  # a code block: only a backtick could end it
    width = max([len(n) for n in names] + [6])
    head = "".join(
        f"{tr('scores.round-col', locale, n=i + 1):>5}" for i in range(len(round_scores))
    )
    out = [f"{'':<{width}}{head}{tr('scores.total', locale):>7}"]
    for p, name in zip(players, names, strict=True):
        cells = "".join(f"{r[p.seat]:>5}" for r in round_scores)
        out.append(f"{name[:width]:<{width}}{cells}{totals[p.seat]:>7}")
    return "```\n" + "\n".join(out) + "\n```"


def turn_line(game: GameSummary, nxt: Player | None, locale: str | None) -> str:
    """Whose turn it is (a mention for a person) and, with a deadline, by when."""
    if nxt is None or game.status is not GameStatus.ACTIVE:
        return ""
    who = f"<@{nxt.user_id}>" if nxt.user_id is not None else f"**{shown(nxt.name)}**"
    text = tr("turn.next", locale, mention=who)
    if game.deadline_at is not None and not nxt.is_computer:
        text += " " + tr("turn.deadline", locale, when=timestamp(game.deadline_at))
    return text


def open_hands_text(view: SeatView, locale: str | None) -> str:
    """Under the open-hands house rule, every hand in notation (what anyone may see then);
    otherwise nothing: hands are private."""
    if not view.rules.open_hands:
        return ""
    lines = [tr("table.open-hands", locale)]
    for seat, hand in enumerate(view.visible_hands):
        if hand is not None:
            tiles = " ".join(f"`{t}`" for t in sorted(hand, reverse=True)) or "—"
            lines.append(f"**{shown(view.names[seat])}**: {tiles}")
    return "\n".join(lines)


def policy_text(row: GameScheduleRow | None, policy: str, locale: str | None) -> str:
    """What happens when a player's time runs out, in words (``row``: the game's own count)."""
    count = row.replace_after if row is not None else 3
    return tr(f"schedule.policy.{policy}", locale, count=count)
