"""Positions as JSON: a whole table, hidden parts included, that loads back equal.

A position is for tests, bug reports and puzzles: it freezes one moment (rules, names, scores so
far, every hand, the boneyard in draw order, trains, markers, open doubles, and the turn in
progress) without the events that led there. Tiles and trains are written in the same notation
as moves, so a position can be read and edited by hand. ``pretty()`` prints a text diagram.
"""

from __future__ import annotations

import json
from typing import Any

from bot.engine.errors import EngineError
from bot.engine.match import Match, check_engine_version
from bot.engine.moves import MEXICAN, MoveError, parse_move, parse_train, train_name
from bot.engine.round import Round
from bot.engine.rules import ENGINE_VERSION, Rules
from bot.engine.state import LogEntry, RoundResult
from bot.engine.tiles import Tile, format_tiles, parse_tiles

FORMAT = 1


class PositionError(EngineError):
    """A position that cannot be read or does not describe a consistent table."""

    default_code = "bad-position"


def round_to_dict(rnd: Round) -> dict[str, Any]:
    refs = [*range(rnd.players), MEXICAN]
    return {
        "round": rnd.round_no,
        "engine": str(rnd.engine),
        "hands": [format_tiles(h) for h in rnd.hands],
        # Written in draw order: the first tile listed is the next one drawn.
        "boneyard": format_tiles(rnd.boneyard[::-1]),
        "trains": {
            train_name(ref): {"tiles": format_tiles(tr.tiles), "marked": tr.marked}
            for ref, tr in zip(refs, rnd.trains, strict=True)
        },
        "open_doubles": [train_name(t) for t in rnd.open_doubles],
        "first_seat": rnd.first_seat,
        "turns_taken": list(rnd.turns_taken),
        "turn": {
            "seat": rnd.current,
            "drawn": rnd.drawn,
            "plays": rnd.turn_plays,
            "doubles": [train_name(t) for t in rnd.turn_doubles],
            "fast": rnd.fast,
        },
        "knock": {
            "knocked": [s for s in range(rnd.players) if rnd.knocked[s]],
            "window": rnd.knock_window,
            "catchable": sorted(rnd.catchable),
        },
        "result": None
        if rnd.result is None
        else {"scores": list(rnd.result.scores), "went_out": rnd.result.went_out},
        "log": [[e.seat, str(e.move)] for e in rnd.log],
    }


def round_from_dict(
    data: dict[str, Any],
    rules: Rules,
    names: tuple[str, ...],
    engine_version: int = ENGINE_VERSION,
) -> Round:
    mp = rules.max_pip
    players = len(names)
    try:
        engine = Tile.parse(data["engine"], mp)
        rnd = Round(rules, names, int(data["round"]), engine, engine_version)
        rnd.hands = [list(parse_tiles(h, mp)) for h in data["hands"]]
        if len(rnd.hands) != players:
            raise PositionError(f"{len(rnd.hands)} hands for {players} players")
        rnd.reindex()
        rnd.boneyard = list(parse_tiles(data["boneyard"], mp))[::-1]
        for name, tr in data["trains"].items():
            ref = parse_train(name, players=players)
            train = rnd.trains[ref]
            end = engine.high
            for t in parse_tiles(tr["tiles"], mp):
                if not t.has(end):
                    raise PositionError(f"{t} does not follow {end} on {name}")
                end = t.other(end)
                train.tiles.append(t)
            train.end = end
            train.marked = bool(tr["marked"])
            for t in train.tiles:
                rnd.table_pips[t.high] += 1
                if t.low != t.high:
                    rnd.table_pips[t.low] += 1
        rnd.open_doubles = [parse_train(t, players=players) for t in data["open_doubles"]]
        rnd.first_seat = int(data["first_seat"])
        rnd.turns_taken = [int(n) for n in data["turns_taken"]]
        turn = data["turn"]
        rnd.current = int(turn["seat"])
        rnd.drawn = bool(turn["drawn"])
        rnd.turn_plays = int(turn["plays"])
        rnd.turn_doubles = [parse_train(t, players=players) for t in turn["doubles"]]
        rnd.fast = bool(turn["fast"])
        knock = data["knock"]
        rnd.knocked = [s in knock["knocked"] for s in range(players)]
        rnd.knock_window = knock["window"]
        rnd.catchable = set(knock["catchable"])
        res = data["result"]
        if res is not None:
            rnd.result = RoundResult(tuple(res["scores"]), res["went_out"])
        rnd.log = [
            LogEntry(int(s), parse_move(m, players=players, max_pip=mp)) for s, m in data["log"]
        ]
    except (KeyError, TypeError, AttributeError, MoveError) as exc:
        raise PositionError(f"unreadable position: {exc!r}") from None
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    everything = sorted(rnd.tiles_everywhere())
    if everything != sorted(rules.tiles()):
        raise PositionError("the position does not hold every tile of the set exactly once")
    return rnd


def to_position(match: Match) -> dict[str, Any]:
    """The whole match at this moment as a JSON-ready dict."""
    return {
        "format": FORMAT,
        "engine_version": match.engine_version,
        "rules": match.rules.to_dict(),
        "names": list(match.names),
        "rounds": [{"scores": list(r.scores), "went_out": r.went_out} for r in match.results],
        "current_round": None if match.round is None else round_to_dict(match.round),
    }


def from_position(data: dict[str, Any]) -> Match:
    """Load a match saved by :func:`to_position` (without its event history).

    The position's ``engine_version`` says which engine's rules it plays on by, so a position
    saved from an old game continues exactly as that game would.
    """
    if data.get("format") != FORMAT:
        raise PositionError(f"unknown position format {data.get('format')!r}")
    try:
        version = check_engine_version(data["engine_version"])
        rules = Rules.from_dict(data["rules"])
        names = tuple(str(n) for n in data["names"])
        match = Match(rules, names, version)
        for r in data["rounds"]:
            match.results.append(RoundResult(tuple(r["scores"]), r["went_out"]))
            for s, pts in enumerate(r["scores"]):
                match.totals[s] += pts
    except (KeyError, TypeError) as exc:
        raise PositionError(f"unreadable position: {exc!r}") from None
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    if data["current_round"] is not None:
        match.round = round_from_dict(data["current_round"], rules, names, version)
        if match.round.result is not None and match.results:
            # The finished round's result is the same object the match scored.
            match.round.result = match.results[-1]
    return match


def dumps(match: Match) -> str:
    return json.dumps(to_position(match), indent=1, ensure_ascii=False)


def loads(text: str) -> Match:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PositionError("a position is a JSON object")
    return from_position(data)


def pretty(rnd: Round, reveal: bool = True) -> str:
    """A text diagram of the table, for bug reports and the command line."""
    lines = [f"Round {rnd.round_no + 1}, engine {rnd.engine}, boneyard {len(rnd.boneyard)}"]
    refs = [*range(rnd.players), MEXICAN]
    for ref, tr in zip(refs, rnd.trains, strict=True):
        who = "Mexican" if ref == MEXICAN else rnd.names[ref]
        flag = " [marker]" if tr.marked else ""
        open_ = " (open double)" if ref in rnd.open_doubles else ""
        lines.append(f"  {train_name(ref):>8} {who}: {format_tiles(tr.tiles) or '-'}{flag}{open_}")
    for s, h in enumerate(rnd.hands):
        turn = " <- to play" if rnd.current_seat == s else ""
        shown = format_tiles(sorted(h, reverse=True)) if reveal else f"{len(h)} tiles"
        lines.append(f"  hand @{s + 1} {rnd.names[s]}: {shown}{turn}")
    if rnd.result is not None:
        lines.append(f"  over: scores {list(rnd.result.scores)}")
    return "\n".join(lines)
