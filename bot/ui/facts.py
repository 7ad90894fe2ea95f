"""The words for the service's facts (:class:`~bot.service.Fact`): a turn the bot played for
someone, an undo, a player leaving or replaced, a game ended, the first line of a round.

A fact is a :class:`~bot.service.FactCode` and parameters; here each code the channel tells
gets its sentence in the reader's language, and every other code says where its words are
instead (:data:`TOLD_ELSEWHERE`: most facts restate a move, and the move's own sentence, from
the engine's ``Applied`` record, tells it). :func:`bot.ui.messages.outcome_parts` puts these
lines among the moves'. Kept apart from the moves' words because a plain move needs none of
them: only a turn played for someone, an undo, a change of seats or a new round comes here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.i18n import tr, tr_count
from bot.service import FactCode, Outcome, Step
from bot.ui.limits import shown


def _what_was_played(params: dict[str, object], locale: str | None) -> str:
    tiles = params.get("tiles") or ()
    shown = ", ".join(str(t) for t in tiles) if isinstance(tiles, tuple) else ""
    if shown:
        key = "schedule.what.drew-played" if params.get("drew") else "schedule.what.played"
        return tr(key, locale, tiles=shown)
    if params.get("drew") and not params.get("passed"):
        # Only a turn with no choice stops after the draw (the tile fits: where is theirs).
        return tr("schedule.what.drew", locale)
    if params.get("drew"):
        return tr("schedule.what.drew-passed", locale)
    if params.get("passed"):
        return tr("schedule.what.passed", locale)
    return tr("schedule.what.moved", locale)


def played_for_line(params: dict[str, object], locale: str | None) -> str:
    """The line for a turn played for an absent (timeout) or away player, or for one who had
    no choice (autoplay): it joins the turn post of whoever moves next, whether the scheduler
    or the announcer played it."""
    what = _what_was_played(params, locale)
    name = shown(str(params.get("name", "?")))  # a public post: the name inert
    if params.get("reason") == "away":
        return tr("schedule.away.played", locale, name=name, what=what)
    if params.get("reason") == "autoplay":
        return tr("autoplay.played", locale, name=name, what=what)
    if params.get("reason") == "order":  # the player's own standing order (issue 46)
        played = params.get("tiles")
        tiles = ", ".join(str(t) for t in played) if isinstance(played, tuple | list) else ""
        return tr("orders.played", locale, name=name, tiles=tiles)
    if params.get("replaced"):
        return tr(
            "schedule.timeout.replaced", locale, name=name, what=what, missed=params.get("missed")
        )
    key = "schedule.timeout.skip" if params.get("policy") == "skip" else "schedule.timeout.computer"
    return tr(key, locale, name=name, what=what)


def undone_line(params: dict[str, object], locale: str | None) -> str:
    """An undo told by a post the outbox owed (a crash before the live post): the live post's
    words (:func:`bot.ui.announcer.post_undo`)."""
    key = "undo.channel.own" if params.get("own") else "undo.channel"
    # A manager who holds no seat is named by mention (in the post's embed it pings nobody).
    host = shown(str(params["host"])) if params.get("host") else f"<@{params.get('by')}>"
    name = shown(str(params["name"]))
    line = tr(key, locale, host=host, name=name, moves=params["moves"])
    computers = int(str(params.get("computers", 0)))
    return f"{line}\n{tr_count('undo.computers', computers, locale)}" if computers else line


#: Facts told first, before the moves, each in a line of its own (code -> params, locale ->
#: line): a turn played for someone (the channel folds its moves into it: see
#: :func:`bot.ui.messages.outcome_parts`) and a turn taken back.
FACT_LINES: Mapping[FactCode, Callable[[dict[str, object], str | None], str]] = {
    FactCode.TURN_PLAYED_FOR: played_for_line,
    FactCode.UNDONE: undone_line,
}


def _facts(outcome: Outcome, code: FactCode) -> dict[int, dict[str, object]]:
    return {
        int(str(f.params.get("round_no", 0))): dict(f.params)
        for f in outcome.facts
        if f.code == code
    }


def round_start_line(outcome: Outcome, round_no: int, locale: str | None) -> str:
    fact = _facts(outcome, FactCode.ROUND_STARTED).get(round_no, {})
    return tr(
        "round.start",
        locale,
        round=round_no + 1,
        rounds=outcome.game.rules.rounds_total,
        engine=fact.get("engine", "?"),
        name=shown(str(fact.get("name", "?"))),
    )


def played_for_steps(outcome: Outcome, params: dict[str, object]) -> list[Step]:
    """The moves of the turn a ``turn-played-for`` fact tells: its seat's run of ``moves``
    moves from the fact's ``first`` (a post rebuilt after a crash may hold that seat's
    other turns too, before it or right after: a drawn tile they then played themselves),
    none when the seat cannot be told (a fact written before it named one)."""
    seat, first, count = params.get("seat"), params.get("first"), params.get("moves")
    if not isinstance(seat, int):
        return []
    run: list[Step] = []
    for step in outcome.steps:
        if isinstance(first, int) and step.seq < first:
            continue
        if isinstance(count, int) and len(run) >= count:
            break
        if step.player.seat == seat:
            run.append(step)
        elif run:
            break
    return run


def fact_line(code: FactCode, params: dict[str, object], locale: str | None) -> str:
    """A change at the table in one sentence (:data:`SAID`): who left, was removed or was
    replaced by a computer, or that the game was ended or abandoned."""
    key = SAID[code]
    if code in (FactCode.GAME_ENDED, FactCode.GAME_ABANDONED):
        return tr(key, locale)
    return tr(key, locale, name=shown(str(params.get("name", "?"))))


#: The changes at the table told after the first lines, in one sentence each
#: (:func:`fact_line`): the catalog key of each.
SAID: Mapping[FactCode, str] = {
    FactCode.KICKED: "fact.kicked",
    FactCode.LEFT: "fact.left",
    FactCode.COMPUTER_TOOK_OVER: "fact.took-over",
    FactCode.GAME_ENDED: "fact.ended",
    FactCode.GAME_ABANDONED: "fact.abandoned",
}

#: The facts the channel's outcome lines do not put into words here, and what tells them:
#: a new code must be added to :data:`FACT_LINES`, :data:`SAID` or here (tests/ui/test_facts.py).
TOLD_ELSEWHERE: Mapping[FactCode, str] = {
    FactCode.PLAYED: "the move's sentence (messages.describe_move)",
    FactCode.MEXICAN_STARTED: "the move's sentence (move.start.mexican)",
    FactCode.DOUBLE_SATISFIED: "the move's brackets (messages.play_extras)",
    FactCode.DOUBLE_OPENED: "the move's brackets (messages.play_extras)",
    FactCode.MARKER_REMOVED: "the move's brackets (messages.play_extras)",
    FactCode.DOUBLES_RELEASED: "the move's sentence (move.released)",
    FactCode.LAST_TILE: "the move's own line (move.last_tile)",
    FactCode.DREW: "the move's sentence (move.draw)",
    FactCode.PASSED: "the move's sentence (move.pass)",
    FactCode.FAST_START_DONE: "the move's sentence (move.done)",
    FactCode.KNOCKED: "the move's sentence (move.knock)",
    FactCode.CAUGHT: "the move's sentence (move.catch)",
    FactCode.ROUND_OVER: "the round's end line and post (messages.round_end_line, ui/roundend)",
    FactCode.ROUND_STARTED: "the round's first line (round_start_line, from the fact's params)",
    FactCode.MATCH_OVER: "the end of the match (ui/matchend, ui/announcer)",
    FactCode.LOBBY_OPENED: "the lobby card (ui/lobbycard)",
    FactCode.JOINED: "the lobby card's seats (messages.seats_text)",
    FactCode.COMPUTER_ADDED: "the lobby card's seats (messages.seats_text)",
    FactCode.COMPUTER_REMOVED: "the lobby card's seats (messages.seats_text)",
    FactCode.HOST_CHANGED: "the lobby card's seats (messages.seats_text)",
    FactCode.GAME_STARTED: "the first table post, with the deal's round_start_line",
    FactCode.REMATCH: "the rematch command's answer (cogs/lobby)",
}
