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


# ---------------------------------------------------------------------- turns played for you

#: The reader's own turns the bot played for them (no choice), one after each earlier rotation.
FOR_READER = ("draw|pass", f"5-3 @{READER + 1}", "draw|pass")


def _rotation(seq: int, round_no: int, k: int) -> list[tuple[int, int, str, dict]]:
    """An ordinary rotation of the nine others: a tile on one's own train, or a draw and a
    pass (every third player), numbered from ``seq``."""
    out = []
    for i, seat in enumerate(OTHERS):
        if (i + k) % 3 == 0:
            out += [
                _move(seq, seat, "draw", turn_over=False, drawn=1, round_no=round_no),
                _move(seq + 1, seat, "pass", marker_raised=True, round_no=round_no),
            ]
        else:
            pip = (i + k) % 15
            out.append(_move(seq, seat, f"{pip}-{(pip + 1) % 15} @{seat + 1}", round_no=round_no))
        seq += 2
    return out


def _for_reader(seq: int, round_no: int, what: str) -> list[tuple[int, int, str, dict]]:
    if what == "draw|pass":
        return [
            _move(seq, READER, "draw", turn_over=False, drawn=1, played_for="autoplay",
                  round_no=round_no),
            _move(seq + 1, READER, "pass", played_for="autoplay", round_no=round_no),
        ]  # fmt: skip
    return [_move(seq, READER, what, played_for="autoplay", round_no=round_no)]


def _played_for_digest(round_end: bool):  # type: ignore[no-untyped-def]
    """The reader's last three turns played for them, an ordinary rotation of the others
    before each, then the longest rotation since their last turn (:func:`_standard_turns`).
    ``round_end``: the first rotation and turn are the last of round 1 (the reader's turn
    played for them ends it: they went out), the rest in round 2."""
    from bot.service.digest import OpenDouble, RoundOver, SeenMove

    moves = []
    seq = 10
    for k, what in enumerate(FOR_READER):
        round_no = 0 if round_end and k == 0 else int(round_end)
        moves += _rotation(seq, round_no, k) + _for_reader(seq + 20, round_no, what)
        seq += 30
    # The longest rotation since: in a round just dealt nobody holds one tile, so nobody
    # knocks or is caught (the double, the draw, the cover).
    last = [t for t in _standard_turns() if not (round_end and t[2].startswith(("knock", "catch")))]
    moves += [(s, seat, t, a | {"round_no": int(round_end)}) for s, seat, t, a in last]
    seen = []
    for seq_, seat, text, applied in moves:
        applied = dict(applied)
        drawn = int(applied.pop("drawn", 0))
        played_for = applied.pop("played_for", None)
        round_no = int(applied.pop("round_no", 0))
        move = parse_move(text, players=10, max_pip=15)
        record = Applied(seat, move, **({"turn_over": True} | applied))
        seen.append(SeenMove(seq_, round_no, seat, move, record, drawn, False, played_for))
    over = ()
    if round_end:
        scores = tuple(0 if s == READER else 10 + s for s in range(10))
        over = (RoundOver(0, scores, READER, scores),)
    return digest(
        names=NAMES,
        seat=READER,
        moves=tuple(seen),
        rounds_over=over,
        since_round=0,
        round_no=int(round_end),
        totals=over[0].totals if over else (0,) * 10,
        open_doubles=tuple(OpenDouble(s, Tile(s, s)) for s in OTHERS),
        one_tile=() if round_end else tuple((s, True) for s in OTHERS),
        opened=tuple(OTHERS),
        turn=READER,
    )


def _named(line: str, moves, cut: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Every move of ``moves`` (the others' since the reader's last turn) named in ``line``,
    turn by turn: its player's cut name and its tile (or its word)."""
    told = line.split(" · ")
    seats = list(dict.fromkeys(m.seat for m in moves))
    assert len(told) == len(seats), (len(told), line)
    for seat, turn in zip(seats, told, strict=True):
        assert cut[seat] in turn, (seat, turn)
        for m_ in (x for x in moves if x.seat == seat):
            move = m_.move
            if isinstance(move, Play):
                assert str(move.tile) in turn, (move, turn)
            elif isinstance(move, Draw):
                assert re.search("drew|pioche", turn), turn
            elif isinstance(move, Knock):
                assert re.search("knocked|frappe", turn), turn
            elif isinstance(move, Catch):
                assert cut[move.seat] in turn, turn


@pytest.mark.parametrize("round_end", [False, True], ids=["same_round", "across_round_end"])
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("pictured", [False, True], ids=["text_hand", "pictured_hand"])
def test_after_three_turns_played_for_you_every_move_since_the_last_is_named(
    round_end: bool, lang: str, pictured: bool
) -> None:
    """The 10-seat match's 125 turn DMs of 786 that gave the others' moves only as counts
    ("Fay_The…, Judy_The…, Bob_The… and 6 others played 18 tiles…"): the reader's turns had
    been played for them, so the DM covered several rotations. A turn played for you is a
    turn: the rotation since the last one is named in full, compactly, the turns played for
    you by their own line, the rotations before only counted — across a round end too."""
    d = _played_for_digest(round_end)
    view = view_for(MATCH, READER)
    head = "🎲 Your turn in game #1 (<#2000>). Play by <t:1700000000:R>."
    text = turn_dm_text(head, _summary(), d, view, _standings(), lang, pictured=pictured)
    assert len(text) <= DM_CHARS, (len(text), text)
    assert phone_lines(text) <= DM_LINES, (phone_lines(text), text)
    cut = [shown(n) for n in short_names(NAMES)]
    lines = text.splitlines()
    others = [line for line in lines if line.startswith("↪️")]
    assert len(others) == 1, text
    since = [m for m in d.moves if m.seq >= 100]  # the rotation since the reader's last turn
    _named(others[0], since, cut)
    # Only the last rotation is named: the earlier ones are not (they are counted).
    before = {str(m.tile) for m in d.moves if m.seq < 100 and m.tile is not None}
    assert not before & set(re.findall(r"\d+-\d+", others[0])), others[0]
    # Never only counted ("… and 6 others played 36 tiles; … drew 18 times").
    counted = r"\d+ (others|autres)|(played|posé) \d+|\d+ (times|fois)|(coups?|moves?), (by|par)"
    assert not re.search(counted, text), text
    # The turns played for the reader are told by their own line.
    assert any(line.startswith("⏩ 3 ") for line in lines), text
    if round_end:
        assert any(line.startswith("🏁") for line in lines), text
