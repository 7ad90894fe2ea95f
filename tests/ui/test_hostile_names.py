"""Every sentence that shows a name shows a hostile one inert, in English and French.

Two sweeps. The catalog's: every text key (enumerated from ``bot.i18n.CATALOG``, so a new key
is covered as soon as it exists), in both languages, with each placeholder that carries a
name filled with a hostile name as :func:`bot.ui.limits.shown` writes it — the text around it
must not undo the escaping (a name in a code span, on a line of its own) and must stay the
lines it was. A placeholder the sweep does not know fails it until it is declared a name or
not (:data:`NAME_FIELDS`, :data:`OTHER_FIELDS`). Then the message builders of
``bot/ui/messages.py`` and beside it, fed the hostile names raw as the service keeps them.
The whole match through Discord is ``tests/e2e/test_hostile_names.py``.
"""

from __future__ import annotations

import re
import string
from datetime import UTC, datetime

import pytest

from bot.engine import preset
from bot.engine.ai import Level
from bot.i18n import CATALOG, LANGUAGES, tr
from bot.service import GameOptions, GameStatus, GameSummary, Outcome, Player, Standing
from bot.service.outcome import Fact, FactCode
from bot.ui import facts, messages
from bot.ui.limits import in_code, shown
from tests.e2e.test_hostile_names import raw_names

#: Names as a hostile member may write them (Discord: up to 32 characters; the service
#: folds spaces and keeps 64), each with what it must not do in a message.
HOSTILE = [
    "[click](https://evil.example/x)",
    "@everyone <@&123456789012345678>",
    "**b** `c` _u_ ~~s~~ ||x||",
    "\u202e# > evil\u200b",
    "> evil",
    "-# evil",
    "line\nbreak\r\u2028evil",
    "tab\tevil\x00\x1b[2J",
    "[click](https://evil.e",  # a name cut short: its bracket must not stay open
    "evil\\",  # a trailing backslash must not escape what follows
    "x" * 64,
]

#: Placeholders that carry a player's name (or names, or a mention).
NAME_FIELDS = frozenset(
    {"name", "names", "owner", "catcher", "host", "leader", "leaders", "by", "by_name", "who",
     "a", "b", "list", "mention", "mentions", "changes"}
)  # fmt: skip
#: A name placeholder that names something else in one text: a house rule's (in code).
NOT_A_PLAYER = frozenset({("rules.house.item", "name")})
#: Placeholders that never do (numbers, tiles, our own words — `answer` is an answer the bot
#: already wrote, names made inert in it —, links, what a player typed,
#: which ``quote_input`` makes inert where it is filled).
OTHER_FIELDS = frozenset(
    {"above", "answer", "avg", "away", "below", "best", "bits", "change", "left", "provisional",
     "parts", "time",
     "rating", "spread", "bone", "caught", "channel", "channels", "choices",
     "computers", "count", "counts", "first", "next", "players", "standings", "days",
     "deadline", "detail", "dms", "double", "doubles",
     "end", "engine", "example", "frames", "game", "game_id", "games", "got", "grace", "high",
     "hours", "house", "how", "how_long", "icon", "knock", "label", "language", "last",
     "level", "limit", "line",
     "link", "local", "low", "max", "max_pip", "mean", "missed", "move", "moves", "n", "notes",
     "old", "open", "option", "page", "pages", "path", "perms", "pips", "place", "places",
     "points", "policy", "preset", "pts", "quiet", "rank", "rate", "reason", "ref", "role",
     "role_id", "round", "rounds", "rules", "seat", "seats", "server", "set", "stall", "start",
     "status", "tag", "text", "this", "thread", "tile", "tiles", "times", "total", "train",
     "trains", "url", "value", "what", "when", "where", "why", "wins", "won", "zone",
     "dates", "division", "table", "tables", "vacation",
     "after", "before", "rest", "stops",
     "better", "decisions", "examined", "gain", "luck", "played", "turn", "worlds",
     "hour", "minutes", "on", "since", "turns"}
)  # fmt: skip


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_placeholder_is_declared_a_name_or_not() -> None:
    unknown = {f for entry in CATALOG.values() for text in entry.values() for f in fields(text)}
    unknown -= NAME_FIELDS | OTHER_FIELDS
    assert not unknown, f"declare in NAME_FIELDS or OTHER_FIELDS: {sorted(unknown)}"


def names_in(key: str, text: str) -> set[str]:
    """The placeholders of ``text`` (the text of ``key``) that carry a player's name."""
    return {f for f in fields(text) & NAME_FIELDS if (key, f) not in NOT_A_PLAYER}


def _fill(key: str, text: str, name: str) -> dict[str, object]:
    return {f: name if f in names_in(key, text) else "7" for f in fields(text)}


KEYS = sorted(k for k, entry in CATALOG.items() if any(names_in(k, t) for t in entry.values()))


def test_the_sweep_covers_the_sentences_that_name_players() -> None:
    assert len(KEYS) > 140
    assert {"schedule.away.played", "autoplay.played", "round.start", "move.catch"} <= set(KEYS)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", KEYS)
def test_a_catalog_sentence_keeps_a_hostile_name_inert(key: str, language: str) -> None:
    template = CATALOG[key].get(language) or CATALOG[key]["en"]
    for line in template.splitlines():
        for f in names_in(key, line):
            before = line.split("{" + f, 1)[0]
            # In a code span an escape shows its backslash and a backtick ends the span.
            assert before.count("`") % 2 == 0, f"{key} ({language}) puts {{{f}}} in code"
    plain = tr(key, language, **_fill(key, template, "Zed"))
    for name in HOSTILE:
        text = tr(key, language, **_fill(key, template, shown(name)))
        assert not raw_names(text), (key, language, name, text)
        assert text.count("\n") == plain.count("\n"), (key, language, name, text)
        assert not any(ch in text for ch in "\r\x00\x1b\u2028\u202e\t"), (key, name, text)


# ---------------------------------------------------------------------- the builders


def _players(names: list[str]) -> tuple[Player, ...]:
    return tuple(Player(seat, n, 100 + seat, None) for seat, n in enumerate(names))


def _game(players: tuple[Player, ...]) -> GameSummary:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    return GameSummary(
        id=1, guild_id=10, channel_id=20, host_id=100, status=GameStatus.ACTIVE,
        preset="quick", rules=preset("quick"), players=players, turn=players[0], round_no=0,
        options=GameOptions(), version=1, created_at=now, updated_at=now, turn_since=None,
        deadline_at=None,
    )  # fmt: skip


def builder_texts(name: str, language: str) -> list[str]:
    """What each builder says of a player called ``name`` (the name raw, as the service
    keeps it)."""
    players = _players([name, "Zed", name])
    game = _game(players)
    out = []
    for params in (
        {"reason": "away", "name": name, "drew": True},
        {"reason": "autoplay", "name": name, "passed": True},
        {"replaced": True, "name": name, "missed": 3},
        {"policy": "skip", "name": name},
        {"policy": "computer", "name": name, "tiles": ("12-5",)},
    ):
        out.append(facts.played_for_line(dict(params), language))
    started = Outcome(
        game,
        rounds_started=(0,),
        facts=(Fact.of(FactCode.ROUND_STARTED, round_no=0, engine="12-12", name=name),),
    )
    out.append(facts.round_start_line(started, 0, language))
    for code in (FactCode.COMPUTER_TOOK_OVER, FactCode.KICKED, FactCode.LEFT):
        out.append(facts.fact_line(code, {"name": name}, language))
    out.append(facts.undone_line({"host": name, "name": name, "moves": "12-5", "by": 7}, language))
    standings = [Standing(p, 10 * p.seat, p.seat + 1, 1, p.seat == 0) for p in players]
    out.append(messages.standings_text(standings, language))
    out.append(messages.scores_table(players, [[1, 2, 3]], [1, 2, 3], language))
    computers = tuple(Player(p.seat, p.name, None, Level.EASY) for p in players)
    out.append(messages.seats_text(_game(computers), language))
    out.append(messages.turn_line(_game(computers), computers[0], language))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", HOSTILE)
def test_the_message_builders_keep_a_hostile_name_inert(name: str, language: str) -> None:
    plain = builder_texts("Zed", language)
    for text, calm in zip(builder_texts(name, language), plain, strict=True):
        assert not raw_names(text), (name, language, text)
        assert text.count("\n") == calm.count("\n"), (name, text)
        assert not any(ch in text for ch in "\r\x00\x1b\u2028\u202e\t"), (name, text)


def test_issue_50_s_two_lines_escape_the_name() -> None:
    name = "[click](https://evil.example/x)"
    line = facts.played_for_line({"reason": "autoplay", "name": name}, "en")
    assert line.startswith("⏩ \\[click](https://evil.example/x) had no choice"), line
    started = Outcome(
        _game(_players([name])),
        facts=(Fact.of(FactCode.ROUND_STARTED, round_no=0, engine="12-12", name=name),),
    )
    assert facts.round_start_line(started, 0, "en").endswith(
        "\\[click](https://evil.example/x) starts."
    )


def test_a_code_block_keeps_names_as_written_but_no_backtick() -> None:
    assert in_code("**b** `c`") == "**b** \u02cbc\u02cb"
    table = messages.scores_table(_players(["a```b", "Zed"]), [[1, 2]], [1, 2], "en")
    assert table.count("```") == 2 and re.search(r"a\u02cb{3}b", table), table
