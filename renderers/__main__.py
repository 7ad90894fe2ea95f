"""``python -m renderers``: draw a table, a hand or a round's end to a PNG file from the
command line.

``table`` plays a seeded random game to a point and draws it; ``round-end`` plays seeded
random rounds to the end of one and draws that round's end; ``position`` draws a position
saved as JSON (see ``bot/engine/position.py``). For looking at the pictures while working on
them, and for bug reports: the same seed always gives the same picture.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from bot.engine import PRESETS, Match, view_for
from bot.engine.position import PositionError, loads
from bot.engine.simulate import random_move
from bot.i18n import LANGUAGES
from renderers import TILE_MODES, HandOptions, TableOptions, render_hand, render_table, to_png
from renderers.round_end import RoundEndOptions, render_round_end
from renderers.theme import THEMES


def _play(preset: str, players: int, seed: int, moves: int) -> Match:
    rules = PRESETS[preset]
    rules.check(players)
    match = Match(rules, [f"Player {i + 1}" for i in range(players)])
    rng = random.Random(seed)
    match.start_round(match.shuffle(rng))
    for _ in range(moves):
        rnd = match.round
        assert rnd is not None
        if rnd.result is not None:
            if not match.needs_deal:
                break
            match.start_round(match.shuffle(rng))
            continue
        match.apply(random_move(rnd, rng))
    return match


def _play_rounds(preset: str, players: int, seed: int, rounds: int) -> Match:
    """Random moves from a seed until round ``rounds`` (1-based) is over."""
    rules = PRESETS[preset]
    rules.check(players)
    if not 1 <= rounds <= rules.rounds_total:
        raise ValueError(f"the {preset} preset has rounds 1 to {rules.rounds_total}")
    match = Match(rules, [f"Player {i + 1}" for i in range(players)])
    rng = random.Random(seed)
    while match.rounds_played < rounds:
        rnd = match.start_round(match.shuffle(rng))
        while rnd.result is None:
            match.apply(random_move(rnd, rng))
    return match


def _write(match: Match, args: argparse.Namespace) -> int:
    if args.command == "round-end":
        ended = RoundEndOptions(theme=args.theme, language=args.language, tiles=args.tiles)
        image = render_round_end(view_for(match, None), ended)
    elif args.hand is not None:
        seat = args.hand - 1
        if not 0 <= seat < match.players:
            print(f"error: there is no seat {args.hand}", file=sys.stderr)
            return 2
        options = HandOptions(theme=args.theme, language=args.language, tiles=args.tiles)
        image = render_hand(view_for(match, seat), options)
    else:
        table = TableOptions(theme=args.theme, language=args.language, tiles=args.tiles)
        image = render_table(view_for(match, None), table)
    Path(args.output).write_bytes(to_png(image))
    print(f"{args.output}: {image.width}x{image.height}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m renderers")
    sub = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--theme", choices=sorted(THEMES), default="dark")
    common.add_argument("--language", choices=LANGUAGES, default="en", help="the labels' language")
    common.add_argument(
        "--tiles", choices=TILE_MODES, default="pips", help="pips with numerals, or numerals only"
    )
    common.add_argument("--hand", type=int, metavar="SEAT", help="draw this seat's hand (1-based)")
    common.add_argument("-o", "--output", default="table.png")
    table = sub.add_parser("table", parents=[common], help="draw a seeded random game")
    table.add_argument("--seed", type=int, default=1)
    table.add_argument("--players", type=int, default=4)
    table.add_argument("--moves", type=int, default=40, help="random moves to play first")
    table.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    end = sub.add_parser("round-end", parents=[common], help="draw a seeded random round's end")
    end.add_argument("--seed", type=int, default=1)
    end.add_argument("--players", type=int, default=4)
    end.add_argument("--round", type=int, default=1, help="the round to end (1-based)")
    end.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    pos = sub.add_parser("position", parents=[common], help="draw a position saved as JSON")
    pos.add_argument("file")
    args = parser.parse_args(argv)
    try:
        if args.command == "table":
            match = _play(args.preset, args.players, args.seed, args.moves)
        elif args.command == "round-end":
            match = _play_rounds(args.preset, args.players, args.seed, args.round)
        else:
            match = loads(Path(args.file).read_text(encoding="utf-8"))
            if match.round is None:
                print("error: the position has no round dealt", file=sys.stderr)
                return 2
    except (PositionError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return _write(match, args)


if __name__ == "__main__":
    raise SystemExit(main())
