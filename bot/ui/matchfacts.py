"""A finished match in a few figures beyond its standings (issue 47, item 6): how long it
took, how many turns, the best round, who went out most — one line of the match's last post
and of each player's end DM ("📈 3 days of play · 412 turns · best round: Carol, round 7
(3 pts) · out most: Bob (5 rounds).").

The figures are the service's (:class:`~bot.service.roundend.MatchFacts`, read off the
match's events with its final report); how long it took is the game's own dates, from the
lobby's opening to the last move.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.i18n import tr, tr_count
from bot.service import GameSummary
from bot.service.roundend import RoundReport
from bot.ui.limits import shown


def how_long(start: datetime, end: datetime, locale: str | None) -> str:
    """ "3 days", "5 hours", "12 minutes": the largest unit that is at least one, rounded."""
    took = max(end - start, timedelta(0))
    if took >= timedelta(days=1):
        return tr("end.facts.days", locale, n=round(took / timedelta(days=1)))
    if took >= timedelta(hours=1):
        return tr("end.facts.hours", locale, n=round(took / timedelta(hours=1)))
    return tr("end.facts.minutes", locale, n=max(1, round(took / timedelta(minutes=1))))


def facts_line(game: GameSummary, report: RoundReport, locale: str | None) -> str:
    """The match's figures in one line; empty before its end."""
    facts = report.facts
    if facts is None:
        return ""
    names = [shown(p.name) for p in report.players]
    parts = [
        tr("end.facts.took", locale, time=how_long(game.created_at, game.updated_at, locale)),
        tr("end.facts.turns", locale, n=facts.turns),
    ]
    if facts.best_round is not None:
        seat, round_no, points = facts.best_round
        pts = tr_count("re.pts", points, locale)
        parts.append(tr("end.facts.best", locale, name=names[seat], round=round_no + 1, pts=pts))
    if facts.went_out_most:
        most = ", ".join(names[s] for s in facts.went_out_most)
        parts.append(tr("end.facts.out", locale, names=most, n=facts.went_out_count))
    return tr("end.facts", locale, parts=" · ".join(parts))
