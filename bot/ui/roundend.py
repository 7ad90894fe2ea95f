"""A round's end in the channel, and the match after its end: the post with its picture, the
scores as a list that fits Discord, and what ``/mt scores``, ``/table`` and ``/hand`` answer
once the match is over.

Everything here starts from the service's :class:`~bot.service.roundend.RoundReport`, rebuilt
from the event log: the board and every leftover hand as the round ended (public by then),
the standings after it with places shared on ties. :func:`round_end_post` is the one call the
announcer makes for a round's end (the match's end included): an embed with the round's last
moves, the scores, and the round-end picture with a description of it in words (its alt
text). The scores are a vertical list, one player to an entry ("1. **Alice** — 12 pts
(this round +0)"), then, from the second round on, the score sheet: every round of every
player in a table that lines up on a phone, its totals the sum of its rounds
(:mod:`bot.ui.sheet`). 10 players, 19 rounds and 32-character names stay inside Discord's
limits (checked in tests).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine import MEXICAN, SeatView
from bot.i18n import tr, tr_count
from bot.service import GameSummary, RoundEnd, Standing, errors
from bot.service.roundend import RoundReport
from bot.service.turn import PlayedOut
from bot.ui import components, ratings
from bot.ui.alt_text import picture_file
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, bot_of
from bot.ui.limits import (
    ATTACHMENT_DESCRIPTION,
    CONTENT,
    EMBED_DESCRIPTION,
    EMBED_FIELDS,
    EMBED_TOTAL,
    FIELD_VALUE,
    embed_size,
    shown,
)
from bot.ui.lobbycard import in_thread
from bot.ui.matchfacts import facts_line
from bot.ui.refusals import Refusal
from bot.ui.sheet import code_block, sheet_tables

#: What the scores may take of a post (two fields at most): the rest is the round's moves.
SCORES_BUDGET = 2000
#: What the scores may take of a plain answer (``/mt scores``), under its header.
ANSWER_BUDGET = 1800
#: The longest a name is shown in the scores before it is cut (Discord's own limit is 32).
NAME_MAX = 32
PICTURE = "round.png"


def size(text: str) -> int:
    """A text's length as Discord may count it: in UTF-16 code units, so an emoji in a
    name counts twice (never less than Python's ``len``: the limits hold either way)."""
    return len(text.encode("utf-16-le")) // 2


def clip_lines(lines: Sequence[str], room: int) -> str:
    """The lines joined, keeping the newest that fit ``room`` (an "…" first when some are
    left out)."""
    kept: list[str] = []
    used = 2  # room for the "…" line
    for line in reversed(lines):
        if used + size(line) + 1 > room:
            return "\n".join(["…", *reversed(kept)]) if room >= 2 else ""
        kept.append(line)
        used += size(line) + 1
    return "\n".join(reversed(kept))


# ---------------------------------------------------------------------- the scores as text


def winners_line(report: RoundReport, locale: str | None) -> str:
    """ "Bob won the match", the winners' names inert (a public post)."""
    return tr("match.winner", locale, names=", ".join(shown(p.name) for p in report.winners))


def _name(standing: Standing, keep: int) -> str:
    name = " ".join(standing.player.name.split()) or f"#{standing.player.seat + 1}"
    if len(name) > keep:
        name = name[: max(1, keep - 1)].rstrip() + "…"
    return shown(name)


def _head_line(
    standing: Standing,
    this_round: int,
    went_out: bool,
    final: bool,
    keep: int,
    locale: str | None,
    one_round: bool = False,
) -> str:
    medal = "🏆 " if final and standing.won else ""
    name = f"{medal}**{_name(standing, keep)}**"
    total = tr_count("re.pts", standing.total, locale)
    if final:
        won = tr_count("count.rounds-won", standing.rounds_won, locale)
        key = "re.final-line.one-round" if one_round else "re.final-line"
        return tr(key, locale, place=standing.place, name=name, total=total, won=won)
    key = "re.this-round-out" if went_out else "re.this-round"
    this = tr(key, locale, n=this_round)
    return tr("re.line", locale, place=standing.place, name=name, total=total, this=this)


def score_entries(
    standings: Sequence[Standing],
    history: Sequence[Sequence[int]],
    locale: str | None,
    *,
    went_out: int | None = None,
    final: bool = False,
    budget: int = SCORES_BUDGET,
) -> list[str]:
    """One entry per player, best first: "1. **Alice** — 12 pts (this round +0)" (at the
    match's end "(3 rounds won)", with a trophy for the winners; nothing of rounds won after
    a match of one round). Together, joined by
    newlines, at most ``budget`` characters: names are cut if the lines would not fit. The
    rounds one by one are the sheet's (:func:`sheet_fields`)."""
    last = history[-1] if history else ()
    keep = NAME_MAX
    while True:
        heads = [
            _head_line(
                s,
                last[s.player.seat] if last else 0,
                went_out == s.player.seat,
                final,
                keep,
                locale,
                len(history) == 1,
            )
            for s in standings
        ]
        used = sum(size(h) + 1 for h in heads)
        if used <= budget or keep <= 4:
            return heads
        keep -= 4


def sheet_blocks(standings: Sequence[Standing], history: Sequence[Sequence[int]]) -> list[str]:
    """The score sheet's tables in code blocks (:mod:`bot.ui.sheet`), from the second round
    on: after one round "this round" in the standings says it all."""
    if len(history) < 2:
        return []
    return [code_block(t) for t in sheet_tables(standings, history)]


def sheet_embeds(report: RoundReport, told: str, locale: str | None) -> list[discord.Embed]:
    """The score sheet in an embed of its own beside a text that could not hold it (``told``
    has no code block): a big table's sheet (10 players over 16 rounds) is longer than a
    message's 2,000 characters with its standings, and an embed takes 6,000 (a table a
    field). None when the text has it already, or after one round."""
    blocks = sheet_blocks(report.standings, report.history)
    if not blocks or "```" in told:
        return []
    embed = discord.Embed(title=tr("re.sheet", locale), colour=discord.Colour.dark_green())
    for block in blocks[:EMBED_FIELDS]:
        embed.add_field(name="\u200b", value=block, inline=False)
    return [embed]


def score_fields(title: str, entries: Sequence[str]) -> list[tuple[str, str]]:
    """The entries packed into embed fields of at most :data:`FIELD_VALUE` characters, never
    splitting a player's entry: the first field named ``title``, the rest unnamed."""
    fields: list[tuple[str, str]] = []
    value = ""
    for entry in entries:
        if value and size(value) + 1 + size(entry) > FIELD_VALUE:
            fields.append((title if not fields else "\u200b", value))
            value = ""
        value = f"{value}\n{entry}" if value else entry
    if value or not fields:
        fields.append((title if not fields else "\u200b", value or "—"))
    return fields[:EMBED_FIELDS]


# ---------------------------------------------------------------------- the picture in words


def _pts(n: int, locale: str | None) -> str:
    return tr_count("re.pts", n, locale)


def alt_text(report: RoundReport, locale: str | None) -> str:
    """The round-end picture in words, for screen readers (Discord's alt text): how the
    round ended, each player's points and total best first, the tiles left in each hand,
    and where each train ends. At most Discord's 1,024 characters for a description: what
    does not fit is left out from the end (the board first), with "…"."""
    board = report.board
    names = [" ".join(p.name.split()) for p in report.players]
    out = report.went_out
    head_key = "re.alt.head.blocked" if out is None else "re.alt.head.out"
    parts = [
        tr(
            head_key,
            locale,
            round=report.round_no + 1,
            rounds=report.rounds_total,
            name=names[out] if out is not None else "",
        )
    ]
    if report.match_over and report.winners:
        winners = " & ".join(names[p.seat] for p in report.winners)
        parts.append(tr("re.alt.winner", locale, names=winners))
    parts.append(tr("re.alt.scores", locale))
    for s in report.standings:
        seat = s.player.seat
        got, total = report.scores[seat], _pts(s.total, locale)
        parts.append(
            tr("re.alt.player", locale, place=s.place, name=names[seat], got=got, total=total) + ";"
        )
    hands = [(s.player.seat, board.visible_hands[s.player.seat] or ()) for s in report.standings]
    if any(tiles for _, tiles in hands):
        parts.append(tr("re.alt.left", locale))
        for seat, tiles in hands:
            if tiles:
                shown = " ".join(str(t) for t in sorted(tiles, key=lambda t: -t.pips))
                parts.append(tr("re.alt.hand", locale, name=names[seat], tiles=shown) + ";")
    parts.append(tr("re.alt.board", locale, engine=board.engine))
    parts += [_train_words(board, names, t.owner, locale) + ";" for t in board.trains]
    return _fit_words(parts, ATTACHMENT_DESCRIPTION)


def _train_words(board: SeatView, names: Sequence[str], ref: int, locale: str | None) -> str:
    train = board.trains[ref]
    name = tr("pic.mexican", locale) if ref == MEXICAN else names[ref]
    return tr("re.alt.train", locale, name=name, count=len(train.tiles), end=train.end)


def _fit_words(parts: Sequence[str], limit: int) -> str:
    """``parts`` joined by spaces, stopping (with "…") before the first that would pass
    ``limit``; a last ";" becomes ".". A single part too long is cut."""
    text = ""
    for part in parts:
        joined = f"{text} {part}" if text else part
        if size(joined) > limit - 2:
            return (text or _cut(part, limit - 2)).rstrip(";") + " …"
        text = joined
    return text[:-1] + "." if text.endswith(";") else text


def _cut(text: str, room: int) -> str:
    while size(text) > room:
        text = text[:-1]
    return text


# ---------------------------------------------------------------------- the post


def round_end_embed(
    game_id: int,
    report: RoundReport,
    locale: str | None,
    *,
    lines: Sequence[str] = (),
    colour: discord.Colour | None = None,
) -> discord.Embed:
    """The round-end post's embed without its picture: ``lines`` (the round's last moves)
    then, at the match's end, the winners; the scores as a list in fields (the final
    standings at the match's end). Within Discord's embed limits whatever the names, the
    player count and the number of rounds: the scores take at most
    :data:`SCORES_BUDGET` characters, and the moves keep their newest lines in the rest."""
    final, number, rounds = report.match_over, report.round_no + 1, report.rounds_total
    embed = discord.Embed(
        title=tr("table.title", locale, game=game_id, round=number, rounds=rounds),
        colour=colour or discord.Colour.dark_green(),
    )
    if final:
        title = tr("table.final", locale)
    else:
        title = tr("re.scores-after", locale, round=number, rounds=rounds)
    entries = score_entries(
        report.standings, report.history, locale, went_out=report.went_out, final=final
    )
    for name, value in score_fields(title, entries):
        embed.add_field(name=name, value=value, inline=False)
    for i, block in enumerate(sheet_blocks(report.standings, report.history)):
        name = tr("re.sheet", locale) if i == 0 else "\u200b"
        embed.add_field(name=name, value=block, inline=False)
    told = list(lines)
    if final and report.winners:
        told.append(winners_line(report, locale))
    room = min(EMBED_DESCRIPTION, EMBED_TOTAL - embed_size(embed, size)) - 16
    embed.description = clip_lines(told, room) or None
    return embed


async def round_end_post(
    bot: GameBot,
    game: GameSummary,
    round_no: int | None,
    locale: str,
    *,
    lines: Sequence[str] = (),
    colour: discord.Colour | None = None,
    report: RoundReport | None = None,
) -> tuple[discord.Embed, list[discord.File]]:
    """The post for the end of round ``round_no`` (None: the latest round over; the
    match's end when it was the last): :func:`round_end_embed` with the round-end picture
    and its alt text, or without a picture when it could not be made. ``report``: that round
    as the turn's result already holds it (:class:`~bot.service.turn.PlayedOut`), else read."""
    if report is None:
        report = await bot.service.round_report(game.id, round_no)
    if report.match_over:  # issue 48: each player's rating change ("+23 → 1,412")
        lines = [*lines, *await ratings.end_line(bot, game.id, report.players, locale)]
        # issue 47: the match in figures (how long, how many turns, the best round, …)
        lines = [*lines, facts_line(game, report, locale)]
    embed = round_end_embed(game.id, report, locale, lines=lines, colour=colour)
    png = await bot.pictures.round_end(report.board, report.players, locale)
    if png is None:
        return embed, []
    embed.set_image(url=f"attachment://{PICTURE}")
    return embed, [picture_file(png, PICTURE, alt_text(report, locale))]


async def round_end_posts(
    bot: GameBot,
    played: PlayedOut,
    parts: Sequence[tuple[list[str], RoundEnd | None]],
    locale: str,
    colour: discord.Colour | None,
) -> list[tuple[discord.Embed, list[discord.File], discord.ui.View | None]]:
    """A post per round that ended in a turn's result (``parts``: its lines cut after each
    round's end): its last moves, its picture (every leftover hand, the points, the totals)
    and the scores, as :func:`round_end_post` makes it; the match's end adds the final
    standings and the Rematch button; each round as the turn's result holds it. The turn
    post (:mod:`bot.ui.turnpost`) sends them before its own."""
    last, reports = played.last, {r.round_no: r for r in played.rounds}
    game = last.game
    ends = [(lines, end) for lines, end in parts if end is not None]
    final = max((end.round_no for _, end in ends), default=-1)
    # A thread game's Rematch goes beside the thread, which is archived at the end.
    here = last.match_over is not None and not await in_thread(bot, game)
    posts = []
    for lines, end in ends:
        report = reports.get(end.round_no)
        embed, files = await round_end_post(
            bot, game, end.round_no, locale, lines=lines, colour=colour, report=report
        )
        rematch = here and end.round_no == final
        posts.append((embed, files, components.rematch_view(game.id, locale) if rematch else None))
    return posts


# ---------------------------------------------------------------------- after the match


async def game_or_finished(interaction: Interaction) -> GameSummary:
    """This channel's unfinished game, else its last match when that was played to its end
    and no lobby has opened here since; else a refusal saying there is no game."""
    bot = bot_of(interaction)
    channel, guild = interaction.channel_id, interaction.guild_id
    if channel is None:
        raise Refusal("error.no-game-here")
    game = await bot.service.game_in_channel(channel)
    if game is None and guild is not None:
        game = await bot.service.finished_in_channel(guild, channel)
    if game is None:
        raise Refusal("error.no-game-here")
    return game


async def scores_answer(
    bot: GameBot, game: GameSummary, locale: str | None
) -> tuple[str, list[discord.Embed]]:
    """``/mt scores``: see :func:`scores_text` (before any round is over, a line saying so),
    with the sheet in an embed when the text cannot hold it (:func:`sheet_embeds`)."""
    if game.round_no is None:
        raise Refusal("error.no-scores")
    try:
        report = await bot.service.round_report(game.id)
    except errors.WrongPhase as exc:
        if exc.code != "no-round-over":
            raise
        return tr("re.none-yet", locale, game=game.id, rounds=game.rules.rounds_total), []
    text = scores_text(game.id, report, locale)
    return text, sheet_embeds(report, text, locale)


def scores_text(game_id: int, report: RoundReport, locale: str | None) -> str:
    """The standings after the latest round over (best first, places shared on ties) with
    each player's rounds, or the final standings once the match is over, within a
    message's 2,000 characters."""
    final, done, rounds = report.match_over, report.round_no + 1, report.rounds_total
    if final:
        head = tr("re.over-scores", locale, game=game_id)
    else:
        head = tr("re.so-far", locale, game=game_id, round=done, rounds=rounds, next=done + 1)
    entries = score_entries(
        report.standings,
        report.history,
        locale,
        went_out=report.went_out,
        final=final,
        budget=ANSWER_BUDGET,
    )
    lines = [head, *entries]
    # The sheet when it fits whole (a table cut short would not add up): most matches; not
    # 10 players with four-digit scores over 19 rounds, whose post shows it in its fields.
    blocks = sheet_blocks(report.standings, report.history)
    if blocks and size("\n".join([*lines, *blocks])) <= CONTENT - 200:
        lines += blocks
    if final and report.winners:
        lines.append(winners_line(report, locale))
    return _first_lines(lines, CONTENT)


async def result_lines(bot: GameBot, game: GameSummary, locale: str | None) -> list[str]:
    """A finished match's result for ``/mt status`` (issue 47: it said "**Game #1** — over"
    and nothing of how): the final standings, best first, who won, and the link to the
    result post. Empty when the match ended before any round was over."""
    try:
        report = await bot.service.round_report(game.id)
    except errors.WrongPhase:
        return []
    lines = score_entries(report.standings, report.history, locale, final=True, budget=1500)
    if report.winners:
        lines.append(winners_line(report, locale))
    return [*lines, tr("end.link", locale, link=await result_link(bot, game))]


def _first_lines(lines: Sequence[str], room: int) -> str:
    """The lines joined, as many from the first as fit ``room``."""
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + size(line) + 1 > room:
            break
        kept.append(line)
        used += size(line) + 1
    return "\n".join(kept)


async def result_link(bot: GameBot, game: GameSummary) -> str:
    """A link to the match's result: a thread game's result post beside its thread (where
    Rematch is, :func:`bot.ui.lobbycard.thread_result`), else the match's last post in its
    channel, else the channel."""
    result = (await bot.service.messages(game.id)).get("result")
    if result is not None:
        where = f"{game.guild_id}/{result.channel_id}/{result.message_id}"
        return f"https://discord.com/channels/{where}"
    base = f"https://discord.com/channels/{game.guild_id}/{game.channel_id}"
    post = await bot.posts.latest_table(bot.service, game.id)
    return f"{base}/{post.message_id}" if post is not None else base
