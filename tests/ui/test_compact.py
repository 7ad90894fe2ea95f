"""A big table's turn DM names every move since your last turn (issue 47, item 4).

At 8 and 10 seats the turn DM used to give the others' moves only as counts ("… and 6 others
played 20 tiles; … drew 13 times"). The worst case is built here: 10 seats, every name 32
characters (with underscores, which the DM escapes, so each counts two), the reader's last
turn one full round of turns ago, and every other player's turn as long as the standard
rules (and the knock rule) make one: a double laid on another player's train, the draw that
follows, the tile that covers it, the knock; a catch besides; every open double, every
one-tile player and every opened train said too. And a fast start's turn (house rule): seven
tiles on one's own train and its end. The whole DM (its head, where the reader stands, the
digest, the hand and where it plays) stays within 1,200 characters and 30 phone lines, in
English and French, and every move is named: its player and its tile (or its word)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.engine import Applied, Catch, Draw, Knock, Play, Tile, parse_move, view_for
from bot.i18n import LANGUAGES
from bot.service import GameOptions, GameSummary, Player
from bot.service.outcome import Standing
from bot.store import GameStatus
from bot.ui.dmturn import DM_CHARS, DM_LINES, phone_lines, turn_dm_text
from bot.ui.limits import shown
from bot.ui.pictures import short_names
from tests.renderers.positions import playout
from tests.ui.test_catchup import digest

NAMES = tuple(f"X_The_Magnificent_Train_Rider_{i:02d}" for i in range(10))
MATCH = playout(10, 3, 0, preset="double-15", names=list(NAMES))
assert MATCH.round is not None
#: The reader: the player to move in this deal (their hand and their moves are real).
READER = MATCH.round.current
OTHERS = [(READER + k) % 10 for k in range(1, 10)]


def _move(seq: int, seat: int, text: str, **applied: object) -> tuple[int, int, str, dict]:
    return (seq, seat, text, applied)


def _standard_turns() -> list[tuple[int, int, str, dict]]:
    """The nine others, each: a double on another player's train, a draw, its cover, a knock;
    the fifth also catches the fourth (who had not knocked in time)."""
    out = []
    seq = 100
    for k, seat in enumerate(OTHERS):
        target = OTHERS[(k + 1) % 9]  # another player's train, never the reader's own
        a = 14 - k
        out += [
            _move(seq, seat, f"{a}-{a} @{target + 1}", opened_double=True, turn_over=False),
            _move(seq + 1, seat, "draw", turn_over=False, drawn=1),
            _move(seq + 2, seat, f"{a}-{(a + 3) % 15} @{target + 1}", satisfied=Tile(a, a)),
            _move(seq + 3, seat, "knock"),
        ]
        if k == 4:
            out.append(_move(seq + 4, seat, f"catch @{OTHERS[3] + 1}", drawn=2))
        seq += 10
    return out


def _fast_start_turns() -> list[tuple[int, int, str, dict]]:
    """The nine others on a fast start: seven tiles each on their own train, then its end."""
    out = []
    seq = 100
    for k, seat in enumerate(OTHERS):
        pips = [15, *range(k, k + 7)]
        for k in range(7):
            out.append(
                _move(seq + k, seat, f"{pips[k]}-{pips[k + 1] % 16} @{seat + 1}", turn_over=False)
            )
        out.append(_move(seq + 7, seat, "done"))
        seq += 10
    return out


def _digest(turns: list[tuple[int, int, str, dict]]):  # type: ignore[no-untyped-def]
    from bot.service.digest import OpenDouble, SeenMove

    moves = []
    for seq, seat, text, applied in turns:
        drawn = int(applied.pop("drawn", 0))  # type: ignore[call-overload]
        move = parse_move(text, players=10, max_pip=15)
        record = Applied(seat, move, **({"turn_over": True} | applied))  # type: ignore[arg-type]
        moves.append(SeenMove(seq, 0, seat, move, record, drawn, False, None))
    return digest(
        names=NAMES,
        seat=READER,
        moves=tuple(moves),
        totals=(0,) * 10,
        open_doubles=tuple(OpenDouble(s, Tile(s, s)) for s in OTHERS),
        one_tile=tuple((s, True) for s in OTHERS),
        opened=tuple(OTHERS),
        turn=READER,
    )


def _summary() -> GameSummary:
    players = tuple(Player(s, n, 100 + s, None) for s, n in enumerate(NAMES))
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return GameSummary(
        id=1, guild_id=10, channel_id=2000, host_id=100, status=GameStatus.ACTIVE,
        preset="double-15", rules=MATCH.rules, players=players, turn=players[READER],
        round_no=0, options=GameOptions(), version=1, created_at=now, updated_at=now,
        turn_since=now, deadline_at=None,
    )  # fmt: skip


def _standings() -> tuple[Standing, ...]:
    players = [Player(s, n, 100 + s, None) for s, n in enumerate(NAMES)]
    return tuple(
        Standing(player=p, total=1000 - s * 7, place=s + 1, rounds_won=1, won=s == 0)
        for s, p in enumerate(players)
    )


@pytest.mark.parametrize("turns", [_standard_turns, _fast_start_turns])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_longest_turn_dm_at_10_seats_names_every_move(turns, lang: str) -> None:  # type: ignore[no-untyped-def]
    assert {len(n) for n in NAMES} == {32}
    d = _digest(turns())
    view = view_for(MATCH, READER)
    assert view.my_turn and view.hand is not None
    head = "🎲 Your turn in game #1 (<#2000>). Play by <t:1700000000:R>."
    text = turn_dm_text(head, _summary(), d, view, _standings(), lang)
    assert len(text) <= DM_CHARS, (len(text), text)
    assert phone_lines(text) <= DM_LINES, (phone_lines(text), text)
    # Every move named: its player's cut name and its tile, in the compact line.
    cut = [shown(n) for n in short_names(NAMES)]
    assert len({c.casefold() for c in cut}) == 10
    since = next(line for line in text.splitlines() if line.startswith("↪️"))
    turns_told = since.split(" · ")
    assert len(turns_told) == 9
    for seat, told in zip(OTHERS, turns_told, strict=True):
        assert cut[seat] in told
        for m_ in (x for x in d.moves if x.seat == seat):
            move = m_.move
            if isinstance(move, Play):
                assert str(move.tile) in told, (move, told)
            elif isinstance(move, Draw):
                assert re.search("drew|pioche", told), told
            elif isinstance(move, Knock):
                assert re.search("knocked|frappe", told), told
            elif isinstance(move, Catch):
                assert cut[move.seat] in told, told
