"""A finished match's review in the reader's words (issue 49): ``/mt review`` and the button on
the end-of-match DM, answered privately to the player it is about.

The words name only the reader's own moves and the moves they could have made (tiles of
their own hand, the trains), and the picture is the table as the reader saw it then (their
own view: other hands are never drawn), so a review tells nothing of another player's hidden
tiles (a test checks every tile named). The review is the service's (computed once in the
review worker, then kept); this module words it and draws its one picture.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.drawing import draw_table
from bot.engine import Draw, Move, Pass, Play
from bot.engine.ai.review import ReviewSettings
from bot.engine.moves import MEXICAN
from bot.i18n import language_of, tr, tr_count
from bot.service.reviews import MatchReview
from bot.ui import limits
from bot.ui.alt_text import picture_file
from bot.ui.interactions import Interaction, bot_of, guarded, locale_of, reply
from bot.ui.matchend import ReviewButton
from bot.ui.pictures import computer_seats
from bot.ui.refusals import Refusal
from bot.workers import WorkerFailed
from renderers import TableOptions

log = logging.getLogger(__name__)

#: Findings listed in one answer, the costliest first (the rest are counted).
SHOWN = 12


def move_words(move: Move, names: tuple[str, ...], seat: int, locale: str | None) -> str:
    """A move as the review says it: "5-7 on your train", "drawing"."""
    if isinstance(move, Play):
        ref = f"@{move.train + 1}"
        if move.train == MEXICAN:
            train = tr("review.train.mexican", locale)
        elif move.train == seat:
            train = tr("review.train.own", locale, ref=ref)
        else:
            train = tr("review.train.other", locale, name=limits.shown(names[move.train]), ref=ref)
        return tr("review.move.play", locale, tile=f"`{move.tile}`", train=train)
    if isinstance(move, Draw):
        return tr("review.move.draw", locale)
    if isinstance(move, Pass):
        return tr("review.move.pass", locale)
    return tr("review.move.other", locale, move=str(move))


def _points(value: float) -> str:
    return f"{value:+.0f}" if round(value) else "0"


def review_text(found: MatchReview, locale: str | None) -> str:
    """The whole review in the reader's words, within one message: the costliest findings
    first give way to a count when they do not all fit."""
    for shown in range(SHOWN, -1, -1):
        text = _review_text(found, locale, shown)
        if len(text) <= limits.CONTENT - 10:
            return text
    return text[: limits.CONTENT - 10]


def _review_text(found: MatchReview, locale: str | None, shown: int) -> str:
    r = found.review
    name = limits.shown(found.names[found.seat])
    lines = [tr("review.head", locale, game=found.game_id, name=name, examined=r.examined)]
    if not r.complete:
        lines.append(tr("review.partial", locale, examined=r.examined, decisions=r.decisions))
    if r.findings:
        lines.append(tr_count("review.some", len(r.findings), locale))
        costliest = sorted(r.findings, key=lambda f: -f.gain)[:shown]
        for f in sorted(costliest, key=lambda f: f.at):
            sure = round(f.low) == round(f.high)
            lines.append(
                tr(
                    "review.finding.sure" if sure else "review.finding",
                    locale,
                    round=f.round_no + 1,
                    turn=f.turn,
                    played=move_words(f.played, found.names, found.seat, locale),
                    better=move_words(f.better, found.names, found.seat, locale),
                    gain=max(1, round(f.gain)),
                    low=max(0, round(f.low)),
                    high=round(f.high),
                )
            )
        if len(r.findings) > shown:
            lines.append(tr("review.more", locale, count=len(r.findings) - shown))
    else:
        lines.append(tr("review.none", locale))
    rounds = ", ".join(_points(x) for x in r.luck)
    lines.append(tr("review.luck", locale, luck=_points(r.luck_total), rounds=rounds))
    lines.append(tr("review.how", locale, worlds=found.worlds))
    return "\n".join(lines)


async def show_review(interaction: Interaction, game_id: int) -> None:
    """Answer the clicker (or the command's caller) with their review of ``game_id``."""
    bot, locale = bot_of(interaction), locale_of(interaction)
    settings = ReviewSettings(budget_s=float(bot.config.review_cpu))
    try:
        found = await bot.service.match_review(
            game_id, interaction.user.id, bot.now(), compute=bot.thinker.review, settings=settings
        )
    except WorkerFailed as exc:
        log.warning("game %s: review not computed: %s", game_id, exc)
        raise Refusal("review.failed") from None
    text = review_text(found, locale)
    extra: dict[str, Any] = {}
    if found.worst is not None:
        worst = max(found.review.findings, key=lambda f: f.gain)
        game = await bot.service.game(game_id)
        options = TableOptions(
            is_computer=computer_seats(game.players), language=language_of(locale)
        )
        try:
            png = await bot.pictures.run(draw_table, found.worst, options)
            said = tr("review.picture", locale, round=worst.round_no + 1, turn=worst.turn)
            extra["file"] = picture_file(png, "review.png", said)
        except WorkerFailed as exc:  # the words are the review; the picture is a help
            log.warning("game %s: review picture not drawn: %s", game_id, exc)
    await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none(), **extra)


async def review_clicked(interaction: Interaction, item: ReviewButton) -> None:
    async with guarded(interaction):
        await show_review(interaction, item.game_id)
