"""A catalogue of hostile inputs, run through the fake Discord against the real bot, and how
each was answered.

Each :class:`Entry` is one interaction a careless or hostile person could send: text far
longer than any option takes, in every text option; values no choice offers; numbers out of
range; values of the wrong type; custom ids forged, mangled or from another server; select
values nobody offered; a control used by the wrong person or in the wrong channel; other
scripts, right-to-left and zero-width text; mentions in input; and a few plain requests the
bot must accept. :func:`run_catalogue` sends them one at a time and classifies each answer:

- **answered**: Discord got a first answer within its 3 s (else: *unanswered*);
- **delivered**: the answer the player sees arrived (a deferral's "thinking…" replaced, no
  answer refused by Discord; else an *undelivered* refusal);
- **refused clearly** / **accepted**: from the bot's own log line for the interaction
  (``outcome=refused:<code>`` or ``ok``), the answer being a short private sentence that
  does not repeat a long input;
- **tracebacks**: any log record at ERROR or with a traceback while the entry ran;
- **wrong**: a refusal that changed a game or the person's settings, or an entry whose
  result is not the one expected (a refusal accepted, an acceptance refused).

``scripts/hostile.py`` prints the counts as one JSON line; ``tests/e2e/test_hostile.py``
runs the whole catalogue and wants 0 unanswered, 0 tracebacks, 0 undelivered, 0 wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.app import MexicanTrainBot
from bot.service import GameSummary
from tests.e2e.helpers import game_here, last_public, lobby_elsewhere, open_game, said, to_move
from tests.fakediscord import WAIT, FakeChannel, FakeDiscord, FakeMessage, FakeUser, Invocation

#: An answer longer than this is not "a clear refusal" (it repeats too much).
CLEAR_LIMIT = 600
LONG = "x" * 2000
HUGE = "y" * 6000


@dataclasses.dataclass
class Ctx:
    """The stage: people, channels, messages and games the entries act on."""

    fake: FakeDiscord
    bot: MexicanTrainBot
    alice: FakeUser  # hosts the game in #games
    bob: FakeUser  # plays in it
    carol: FakeUser  # hosts the lobby in #lobby
    mallory: FakeUser  # in no game
    games: FakeChannel
    lobby_channel: FakeChannel
    quiet: FakeChannel  # no game
    game: GameSummary
    lobby: GameSummary
    far: GameSummary  # a lobby of another server
    table: FakeMessage  # the turn post with the turn buttons
    lobby_card: FakeMessage
    mover: FakeUser
    waiter: FakeUser


Action = Callable[[Ctx], Awaitable[Invocation]]


@dataclasses.dataclass
class Entry:
    category: str
    name: str
    expect: str  # "refuse" or "accept"
    run: Action


@dataclasses.dataclass
class Result:
    entry: Entry
    answered: bool = False
    delivered: bool = False
    outcome: str = ""
    text: str = ""
    tracebacks: list[str] = dataclasses.field(default_factory=list)
    changed: bool = False

    @property
    def refused_clearly(self) -> bool:
        return (
            self.delivered
            and self.outcome.startswith("refused:")
            and 0 < len(self.text) <= CLEAR_LIMIT
            and LONG[:100] not in self.text
        )

    @property
    def accepted(self) -> bool:
        return self.delivered and self.outcome in ("ok", "choices")

    @property
    def wrong(self) -> bool:
        if self.changed:
            return True
        return not (self.refused_clearly if self.entry.expect == "refuse" else self.accepted)


@dataclasses.dataclass
class Report:
    results: list[Result]

    def counts(self) -> dict[str, int]:
        r = self.results
        return {
            "total": len(r),
            "answered": sum(x.answered for x in r),
            "refused_clearly": sum(x.refused_clearly for x in r),
            "accepted": sum(x.accepted for x in r),
            "unanswered": sum(not x.answered for x in r),
            "tracebacks": sum(bool(x.tracebacks) for x in r),
            "undelivered": sum(x.answered and not x.delivered for x in r),
            "wrong": sum(x.wrong for x in r),
        }

    def problems(self) -> list[str]:
        return [
            f"[{x.entry.category}] {x.entry.name}: expected {x.entry.expect}, outcome "
            f"{x.outcome or '-'}, answered={x.answered} delivered={x.delivered} "
            f"changed={x.changed} text={x.text[:160]!r} {x.tracebacks[:1]}"
            for x in self.results
            if x.wrong or x.tracebacks or not x.answered or not x.delivered
        ]


# ---------------------------------------------------------------------- the catalogue


def _slash(user: str, path: str, where: str = "games", **options: Any) -> Action:
    async def run(c: Ctx) -> Invocation:
        person: FakeUser = getattr(c, user)
        return await person.slash(path, channel=getattr(c, where), **options)

    return run


def _forged(user: str, path: str, where: str = "games", **options: Any) -> Action:
    async def run(c: Ctx) -> Invocation:
        person: FakeUser = getattr(c, user)
        return await person.forge_slash(path, channel=getattr(c, where), **options)

    return run


def _click(
    user: str, message: str, custom_id: Callable[[Ctx], str], values: list[str] | None = None
) -> Action:
    async def run(c: Ctx) -> Invocation:
        person: FakeUser = getattr(c, user)
        return await person.forge_click(getattr(c, message), custom_id=custom_id(c), values=values)

    return run


def _real_click(user: str, message: str, label: str) -> Action:
    async def run(c: Ctx) -> Invocation:
        person: FakeUser = getattr(c, user)
        return await person.click(getattr(c, message), label=label)

    return run


def _autocomplete(
    user: str, path: str, focused: str, where: str = "games", **options: Any
) -> Action:
    async def run(c: Ctx) -> Invocation:
        person: FakeUser = getattr(c, user)
        known = set(c.fake.interactions)
        # The fake's autocomplete waits for the choices; the record is what is judged.
        task = asyncio.create_task(
            person.autocomplete(path, focused=focused, channel=getattr(c, where), **options)
        )
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        record = await c.fake.wait_for(
            lambda: next((r for i, r in c.fake.interactions.items() if i not in known), None),
            timeout=WAIT,
            what="the autocomplete interaction",
        )
        return Invocation(c.fake, record)

    return run


#: Text that is not Latin, not left to right, not visible, or that mentions people.
ODD_TEXT = {
    "arabic digits": "\u0661\u0662-\u0665",
    "fullwidth digits": "\uff11\uff12\uff0d\uff15",
    "zero-width inside": "12\u200b-5",
    "right-to-left override": "\u202e5-21",
    "BOM and joiners": "\ufeff12\u200d-\u200c5",
    "Greek": "δώδεκα-πέντε",
    "CJK": "十二-五",
    "emoji": "🁣🚂",
    "combining marks": "1\u03012-5\u0301",
    "NUL and controls": "12\x00-5\x07",
    "newlines": "12\n-\n5",
    "superscripts": "\u00b9\u00b2-\u2075",
    "Arabic-Indic digits (U+0663)": "\u0663-\u0665",
    "huge numbers": "9" * 12 + "-" + "9",
    "a tab and an escape": "12\t-\x1b[5",
    "@everyone": "@everyone",
    "@here": "@here",
    "a user mention": "<@123456789012345678>",
    "a role mention": "<@&123456789012345678>",
    "markdown": "**12**-__5__ `x` ||y||",
    "a link": "https://example.com/12-5",
}


def catalogue() -> list[Entry]:
    e: list[Entry] = []

    def add(category: str, name: str, expect: str, run: Action) -> None:
        e.append(Entry(category, name, expect, run))

    # 1. Long text in every text option (a client may send more than max_length).
    long_options = [
        ("play", {"tile": LONG}),
        ("play", {"tile": "12-5", "train": LONG}),
        ("play", {"tile": HUGE, "train": HUGE}),
        ("mt me", {"time_zone": LONG}),
        ("mt me", {"time_zone": HUGE}),
        ("mt me", {"language": LONG}),
        ("mt me", {"tiles": LONG}),
        ("mt new", {"preset": LONG}),
        ("mt new", {"double_rule": LONG}),
        ("mt new", {"scoring": LONG}),
        ("mt new", {"engine": LONG}),
        ("mt new", {"first_player": LONG}),
        ("mt new", {"on_timeout": LONG}),
        ("mt computer", {"level": LONG}),
        ("mt away", {"state": LONG}),
        ("mt-admin settings", {"preset": LONG}),
        ("mt-admin settings", {"language": LONG}),
        ("mt-admin settings", {"on_timeout": LONG}),
    ]
    for path, options in long_options:
        where = (
            "quiet" if path == "mt new" else "lobby_channel" if path == "mt computer" else "games"
        )
        user = "carol" if path == "mt computer" else "alice"
        add(
            "long text",
            f"/{path} {', '.join(options)}",
            "refuse",
            _forged(user, path, where, **options),
        )
    # Just within the declared lengths, still not a tile or a train or a zone.
    add("long text", "/play tile: 16 x", "refuse", _slash("alice", "play", tile="x" * 16))
    add(
        "long text",
        "/play train: 40 x",
        "refuse",
        _slash("alice", "play", tile="12-5", train="x" * 40),
    )
    add(
        "long text",
        "/mt me time_zone: 64 x",
        "refuse",
        _slash("mallory", "mt me", time_zone="x" * 64),
    )

    # 2. Values no choice offers.
    bad_choices = [
        ("mt computer", "lobby_channel", "carol", {"level": "godlike"}),
        ("mt computer", "lobby_channel", "carol", {"level": ""}),
        ("mt computer", "lobby_channel", "carol", {"level": "Hard"}),
        ("mt new", "quiet", "alice", {"preset": "godlike"}),
        ("mt new", "quiet", "alice", {"double_rule": "nuke"}),
        ("mt new", "quiet", "alice", {"scoring": "golf"}),
        ("mt new", "quiet", "alice", {"engine": "steam"}),
        ("mt new", "quiet", "alice", {"first_player": "me"}),
        ("mt new", "quiet", "alice", {"on_timeout": "explode"}),
        ("mt new", "quiet", "alice", {"deadline_hours": 7}),
        ("mt away", "games", "alice", {"state": "maybe"}),
        ("mt me", "games", "mallory", {"language": "xx"}),
        ("mt me", "games", "mallory", {"tiles": "braille"}),
        ("mt-admin settings", "games", "alice", {"language": "klingon"}),
        ("mt-admin settings", "games", "alice", {"preset": "../../etc"}),
        ("mt-admin settings", "games", "alice", {"deadline_hours": -24}),
    ]
    for path, where, user, options in bad_choices:
        add("forged choice", f"/{path} {options}", "refuse", _forged(user, path, where, **options))

    # 3. Numbers out of range, and values of the wrong type.
    out_of_range = [
        ("mt new", "quiet", {"rounds": 0}),
        ("mt new", "quiet", {"rounds": 99}),
        ("mt new", "quiet", {"starting_double": -1}),
        ("mt new", "quiet", {"starting_double": 19}),
        ("mt new", "quiet", {"replace_after": 0}),
        ("mt new", "quiet", {"remind_hours": 10**9}),
        ("mt me", "games", {"quiet_start": 24}),
        ("mt me", "games", {"quiet_end": -1}),
        ("mt history", "games", {"page": 0}),
        ("mt history", "games", {"game": -5}),
        ("mt history", "games", {"game": 2**70}),
        ("mt history", "games", {"game": 0, "file": True}),
        ("mt history", "games", {"file": "yes"}),
        ("mt status", "games", {"rules": 2}),
        ("mt replay", "games", {"round": 31}),
        ("mt-admin settings", "games", {"stall_days": 366}),
        ("play", "games", {"tile": 125}),
        ("play", "games", {"tile": ["12", "5"]}),
        ("mt new", "quiet", {"rounds": "ten"}),
        ("mt new", "quiet", {"knock": "yes"}),
        ("mt new", "quiet", {"rounds": 2.5}),
        ("mt me", "games", {"dms": 1}),
        # Numbers in other scripts' digits, and huge ones, where a number is asked for.
        ("mt history", "games", {"game": "\u0663"}),
        ("mt history", "games", {"game": "²"}),
        ("mt history", "games", {"game": "\uff11"}),
        ("mt history", "games", {"game": "1\n2"}),
        ("mt history", "games", {"game": 10**400}),
        ("mt history", "games", {"page": "\u0661"}),
        ("mt history", "games", {"game": "\u0663", "file": True}),
        ("mt replay", "games", {"round": "²"}),
        ("mt new", "quiet", {"rounds": "\u0663"}),
        ("mt new", "quiet", {"deadline_hours": "\uff12\uff14"}),
        ("mt new", "quiet", {"remind_hours": 2**64}),
        ("mt me", "games", {"quiet_start": "\u0662"}),
        ("mt-admin settings", "games", {"stall_days": "\u0663"}),
        ("mt-admin settings", "games", {"deadline_hours": 10**30}),
    ]
    for path, where, options in out_of_range:
        add(
            "range and type",
            f"/{path} {options}"[:80],
            "refuse",
            _forged("alice", path, where, **options),
        )

    # 4. Custom ids forged or mangled (on the real turn post and lobby card).
    def gid(c: Ctx) -> int:
        return c.game.id

    malformed: list[Callable[[Ctx], str]] = [
        lambda c: "mt:abc:5:draw",
        lambda c: f"mt:{gid(c)}:5:nuke",
        lambda c: f"mt:{gid(c)}:-1:draw",
        lambda c: f"mt:{gid(c)}:hist:-5:older",
        lambda c: f"mt:{gid(c)}:lobby:nuke",
        lambda c: "mt",
        lambda c: "",
        lambda c: "mt:",
        lambda c: "mt::",
        lambda c: ":::",
        lambda c: "x" * 100,
        lambda c: "mt:" + "9" * 30 + ":lobby:join",
        lambda c: "mt:" + "9" * 30 + ":1:draw",
        lambda c: "mt:" + "9" * 19 + ":rematch",
        lambda c: f"mt:{gid(c)}:{'9' * 40}:draw",
        lambda c: f"mt:{gid(c)}:hist:{'9' * 40}:older",
        lambda c: f"mt:{gid(c)}:hist:0:older",
        lambda c: "mt:٣:1:draw",
        lambda c: "mt:²:1:dm:draw",  # issue 50: int("²") raised before anything answered
        lambda c: "mt:²:1:draw",
        lambda c: f"mt:{gid(c)}:\u0661:draw",
        lambda c: "mt:\uff11:lobby:join",
        lambda c: f"mt:{gid(c)}:hist:\u00b9:older",
        lambda c: f"mt:{gid(c)}:1:dm:\u0663",
        lambda c: f"mt:{gid(c)}:1:draw\n1999-12-31T23:59:59.000Z CRITICAL forged",
        lambda c: f"mt:{gid(c)}\t:1:draw",
        lambda c: f"mt:{gid(c)}:1:draw\u2028x",
        lambda c: f"mt:{gid(c)}:1:draw\u200b",
        lambda c: f"MT:{gid(c)}:1:draw",
        lambda c: f" mt:{gid(c)}:1:draw",
        lambda c: f"mt:{gid(c)}:1:draw:extra",
        lambda c: f"mt:{gid(c)}:1:play|knock",
        lambda c: "mt:0:lobby:join",
        lambda c: "mt:999999:lobby:join",
        lambda c: "mt:999999:1:draw",
        lambda c: f"mt:{c.far.id}:lobby:join",
        lambda c: f"mt:{c.far.id}:1:draw",
        lambda c: f"mt:{c.lobby.id}:lobby:start",  # the lobby of another channel
        lambda c: f"mt:{gid(c)}:rematch",  # a game that is not over
        lambda c: f"mt:{gid(c)}:review",  # a review of a game that is not over
        lambda c: "mt:" + "9" * 19 + ":review",
        lambda c: f"mt:{gid(c)}:0:draw",  # a version long gone
        lambda c: f"mt:{gid(c)}:hist:1:older",  # a history page, not on an answer
        lambda c: "<@123456789012345678>",
        lambda c: "@everyone",
    ]
    for n, make in enumerate(malformed):
        add("custom id", f"custom id #{n}", "refuse", _click("bob", "table", make))
    add("custom id", "a forged select id on a button", "refuse",
        _click("carol", "lobby_card", lambda c: f"mt:{c.lobby.id}:lobby:cpu"))  # fmt: skip

    # 5. Select values nobody offered.
    def lobby(action: str) -> Callable[[Ctx], str]:
        return lambda c: f"mt:{c.lobby.id}:lobby:{action}"

    def pick(version: int | None = None) -> Callable[[Ctx], str]:
        return lambda c: f"mt:{c.game.id}:{c.game.version if version is None else version}:pick"

    selects: list[tuple[str, str, str, Callable[[Ctx], str], list[str]]] = [
        ("carol", "lobby_card", "cpu godlike", lobby("cpu"), ["godlike"]),
        ("carol", "lobby_card", "cpu empty", lobby("cpu"), [""]),
        ("carol", "lobby_card", "cpu none", lobby("cpu"), []),
        ("carol", "lobby_card", "cpu long", lobby("cpu"), ["h" * 100]),
        ("mallory", "lobby_card", "cpu godlike by a stranger", lobby("cpu"), ["godlike"]),
        ("carol", "lobby_card", "uncpu garbage", lobby("uncpu"), ["abc"]),
        ("carol", "lobby_card", "uncpu wrong seat", lobby("uncpu"), ["0:CPU 1"]),
        ("carol", "lobby_card", "uncpu far seat", lobby("uncpu"), ["99:CPU 1"]),
        ("carol", "lobby_card", "uncpu negative", lobby("uncpu"), ["-1:CPU 1"]),
        ("carol", "lobby_card", "uncpu huge", lobby("uncpu"), ["9" * 40 + ":x"]),
        ("mallory", "lobby_card", "uncpu by a stranger", lobby("uncpu"), ["1:CPU 1"]),
        ("mover", "table", "pick empty", pick(), [""]),
        ("mover", "table", "pick no values", pick(), []),
        ("mover", "table", "pick nonsense", pick(), ["99-99 mexican"]),
        ("mover", "table", "pick long", pick(), ["z" * 100]),
        ("mover", "table", "pick two", pick(), ["draw", "pass"]),
        ("mover", "table", "pick knock flag", pick(), ["|knock"]),
        ("mover", "table", "pick RTL", pick(), ["\u202eward"]),
        ("waiter", "table", "pick by the one waiting", pick(), ["draw"]),
        ("mallory", "table", "pick by a stranger", pick(), ["draw"]),
        ("mover", "table", "pick on a stale version", pick(0), ["draw"]),
    ]
    for user, message, name, make, values in selects:
        add("select value", name, "refuse", _click(user, message, make, values))

    # 6. The wrong person.
    wrong_user = [
        ("bob", "lobby_card", "Start", "someone else's lobby: Start"),
        ("mallory", "lobby_card", "Cancel", "someone else's lobby: Cancel"),
        ("mallory", "lobby_card", "Leave", "a lobby they are not in: Leave"),
        ("waiter", "table", "Draw", "Draw when it is not their turn"),
        ("waiter", "table", "Pass", "Pass when it is not their turn"),
        ("waiter", "table", "Play", "Play when it is not their turn"),
        ("mallory", "table", "Draw", "Draw by a stranger"),
    ]
    for user, message, label, name in wrong_user:
        add("wrong user", name, "refuse", _real_click(user, message, label))
    add("wrong user", "/mt end by a player who is not host", "refuse", _slash("bob", "mt end"))
    add("wrong user", "/mt undo by a player who is not host", "refuse", _slash("bob", "mt undo"))
    add(
        "wrong user",
        "/mt start by a stranger",
        "refuse",
        _slash("mallory", "mt start", "lobby_channel"),
    )
    add(
        "wrong user",
        "/mt-admin settings by a stranger",
        "refuse",
        _forged("mallory", "mt-admin settings", preset="standard"),  # (not shown to them)
    )
    add("wrong user", "/mt-admin sync by a stranger", "refuse", _forged("mallory", "mt-admin sync"))
    add("wrong user", "/mt leave by a stranger", "refuse", _slash("mallory", "mt leave"))
    add("wrong user", "/draw by a stranger", "refuse", _slash("mallory", "draw"))
    add("wrong user", "/pass by the one waiting", "refuse", _slash("waiter", "pass"))
    add("wrong user", "/knock by a stranger", "refuse", _slash("mallory", "knock"))
    add("wrong user", "/mt hint by a stranger", "refuse", _slash("mallory", "mt hint"))
    add("wrong user", "/hand by a stranger", "refuse", _slash("mallory", "hand"))
    add("wrong user", "/mt nudge by a stranger", "refuse", _slash("mallory", "mt nudge"))

    async def kick_by_bob(c: Ctx) -> Invocation:
        return await c.bob.slash("mt kick", channel=c.games, player=c.alice)

    async def catch_stranger(c: Ctx) -> Invocation:
        return await c.mallory.slash("catch", channel=c.games, player=c.alice)

    async def catch_nobody(c: Ctx) -> Invocation:
        return await c.alice.slash("catch", channel=c.games, player=c.mallory)

    add("wrong user", "/mt kick by a player who is not host", "refuse", kick_by_bob)
    add("wrong user", "/catch by a stranger", "refuse", catch_stranger)
    add("wrong user", "/catch of someone not seated", "refuse", catch_nobody)

    # 7. The wrong channel.
    add(
        "wrong channel",
        "/play where there is no game",
        "refuse",
        _slash("alice", "play", "quiet", tile="12-5"),
    )
    add("wrong channel", "/draw where there is no game", "refuse", _slash("alice", "draw", "quiet"))
    add(
        "wrong channel",
        "/mt start where there is no game",
        "refuse",
        _slash("alice", "mt start", "quiet"),
    )
    add(
        "wrong channel",
        "/mt status where there is no game",
        "refuse",
        _slash("alice", "mt status", "quiet"),
    )
    add(
        "wrong channel",
        "/mt new where a game is going",
        "refuse",
        _slash("mallory", "mt new", "games"),
    )
    add("wrong channel", "lobby Join of #lobby clicked in #games", "refuse",
        _click("mallory", "table", lambda c: f"mt:{c.lobby.id}:lobby:join"))  # fmt: skip
    add(
        "wrong channel",
        "turn Draw of #games clicked in #lobby",
        "refuse",
        _click("mover", "lobby_card", lambda c: f"mt:{c.game.id}:{c.game.version}:draw"),
    )
    add("wrong channel", "another server's lobby: Start", "refuse",
        _click("alice", "table", lambda c: f"mt:{c.far.id}:lobby:start"))  # fmt: skip
    add("wrong channel", "another server's game in /mt history", "refuse",
        lambda c: c.alice.slash("mt history", channel=c.games, game=c.far.id))  # fmt: skip

    # 8. Other scripts, right to left, invisible, mentions: as a tile, a train, a time zone.
    for name, text in ODD_TEXT.items():
        # By the seated player who is waiting: the tile is read, then the turn refused.
        add("odd text", f"tile: {name}", "refuse", _slash("waiter", "play", tile=text[:16]))
        add(
            "odd text",
            f"time zone: {name}",
            "refuse",
            _slash("mallory", "mt me", time_zone=text[:64]),
        )
    for name in ("right-to-left override", "@everyone", "zero-width inside", "CJK"):
        add(
            "odd text",
            f"train: {name}",
            "refuse",
            _slash("waiter", "play", tile="12-5", train=ODD_TEXT[name]),
        )

    # 9. Autocomplete with hostile text still answers, with at most 25 choices.
    add(
        "autocomplete",
        "tile: 6,000 characters",
        "accept",
        _autocomplete("mover", "play", "tile", tile=HUGE),
    )
    add(
        "autocomplete",
        "tile: right to left",
        "accept",
        _autocomplete("mover", "play", "tile", tile="\u202e5-21"),
    )
    add(
        "autocomplete",
        "tile: zero-width",
        "accept",
        _autocomplete("mover", "play", "tile", tile="\u200b" * 50),
    )
    add(
        "autocomplete",
        "tile: by a stranger",
        "accept",
        _autocomplete("mallory", "play", "tile", tile="1"),
    )
    add(
        "autocomplete",
        "tile: where there is no game",
        "accept",
        _autocomplete("alice", "play", "tile", "quiet", tile=""),
    )
    add("autocomplete", "train: with a huge tile", "accept",
        _autocomplete("mover", "play", "train", tile="x" * 16, train=HUGE))  # fmt: skip
    add(
        "autocomplete",
        "time zone: 6,000 characters",
        "accept",
        _autocomplete("mallory", "mt me", "time_zone", time_zone=HUGE),
    )
    add(
        "autocomplete",
        "time zone: @everyone",
        "accept",
        _autocomplete("mallory", "mt me", "time_zone", time_zone="@everyone"),
    )
    add(
        "autocomplete",
        "time zone: emoji",
        "accept",
        _autocomplete("mallory", "mt me", "time_zone", time_zone="🕰️"),
    )

    # 10. What the bot must accept, among all this.
    add("plain", "/mt status", "accept", _slash("alice", "mt status"))
    add("plain", "/mt status rules:True", "accept", _slash("bob", "mt status", rules=True))
    add(
        "plain",
        "/mt history page:2 file:True",
        "refuse",
        _slash("bob", "mt history", page=2, file=True),
    )
    add("plain", "/hand", "accept", _slash("bob", "hand"))
    add("plain", "/table", "accept", _slash("mallory", "table"))
    add("plain", "/mt history", "accept", _slash("mallory", "mt history"))
    add("plain", "/mt mygames", "accept", _slash("alice", "mt mygames"))
    add(
        "plain",
        "/mt me time_zone: Europe/Paris",
        "accept",
        _slash("mallory", "mt me", time_zone="Europe/Paris"),
    )
    return e


# ---------------------------------------------------------------------- running it


class Capture(logging.Handler):
    """Every log record while the catalogue runs (the bot's and the fake's)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def stage(fake: FakeDiscord, bot: MexicanTrainBot) -> Ctx:
    """The games and messages the catalogue acts on, set up through Discord."""
    alice, bob, carol, mallory = (fake.user(n) for n in ("alice", "bob", "carol", "mallory"))
    games, lobby_channel, quiet = (
        fake.channel("games"),
        fake.channel("lobby"),
        fake.channel("quiet"),
    )
    game = await open_game(fake, bot, games, alice, [bob])
    await said(await carol.slash("mt new", channel=lobby_channel))
    lobby_card = last_public(lobby_channel)
    await said(await carol.select(lobby_card, values=["normal"]))
    lobby = await game_here(bot, lobby_channel)
    far = await lobby_elsewhere(bot, fake, alice)
    mover_id, _ = await to_move(bot, game.id)
    mover, waiter = (alice, bob) if mover_id == alice.id else (bob, alice)
    return Ctx(
        fake, bot, alice, bob, carol, mallory, games, lobby_channel, quiet,
        await bot.service.game(game.id), lobby, far, last_public(games), lobby_card, mover, waiter,
    )  # fmt: skip


async def _state(c: Ctx) -> tuple[object, ...]:
    """What a refusal must leave as it was: the games, the empty channel, everyone's settings."""
    service = c.bot.service
    games = []
    for game_id in (c.game.id, c.lobby.id, c.far.id):
        g = await service.game(game_id)
        games.append(
            (g.status, g.version, tuple((p.user_id, p.name, p.computer) for p in g.players))
        )
    quiet = await service.game_in_channel(c.quiet.id)
    people = [await service.user_settings(u.id) for u in (c.alice, c.bob, c.carol, c.mallory)]
    return (*games, quiet is None, *people)


async def run_entry(c: Ctx, entry: Entry, capture: Capture) -> Result:
    fake = c.fake
    result = Result(entry)
    first = len(capture.records)
    before = await _state(c) if entry.expect == "refuse" else None
    invocation = await entry.run(c)
    record = invocation.record
    user = record.user
    with contextlib.suppress(TimeoutError):
        await fake.wait_for(
            lambda: record.callback_type is not None or bool(record.rejections),
            timeout=WAIT,  # a late answer is refused by the fake: the wait ends then too
            on=record,
            what=f"an answer to {entry.name}",
        )
    result.answered = record.callback_type is not None
    if record.type == 4:  # autocomplete: its answer is the choices
        result.delivered = result.answered and not record.rejections
        result.outcome = "choices" if result.delivered and len(record.choices or []) <= 25 else ""
    else:

        def logged() -> logging.LogRecord | None:
            for r in capture.records[first:]:
                fields = getattr(r, "mt_fields", None)
                if fields and fields.get("user") == user.id:
                    return r
            return None

        try:
            line = await fake.wait_for(logged, timeout=WAIT, what=f"the log line of {entry.name}")
            result.outcome = str(line.mt_fields["outcome"])  # type: ignore[attr-defined]
        except TimeoutError:
            result.outcome = ""
        shown = record.original if record.callback_type != 6 else None
        if record.callback_type == 6:  # an update: the refusal or the new page came after
            shown = record.followups[-1] if record.followups else record.source
        result.delivered = (
            result.answered and not record.rejections and shown is not None and not shown.loading
        )
        result.text = shown.text if shown is not None else ""
        # A background post of an accepted request finishes before the next entry, so its
        # log lines are this entry's: wait for the bot to be idle (counted, not timed).
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while c.bot.metrics.in_flight > 0 or c.bot.games_busy() > 0:
            assert loop.time() < deadline, f"the bot still busy after {entry.name}"
            await asyncio.sleep(0.01)
    result.tracebacks = [
        f"{r.levelname} {r.name}: {r.getMessage()[:200]}"
        for r in capture.records[first:]
        if r.levelno >= logging.ERROR or r.exc_info
    ]
    result.tracebacks += fake.server_errors
    fake.server_errors.clear()
    if before is not None:
        result.changed = await _state(c) != before
    return result


async def run_catalogue(
    fake: FakeDiscord, bot: MexicanTrainBot, entries: list[Entry] | None = None
) -> Report:
    """Stage the games, then send every entry, one at a time, and classify its answer."""
    c = await stage(fake, bot)
    capture = Capture()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(capture)
    root.setLevel(logging.INFO)
    try:
        results = []
        for entry in entries if entries is not None else catalogue():
            results.append(await run_entry(c, entry, capture))
            c.game = await c.bot.service.game(c.game.id)
        return Report(results)
    finally:
        root.removeHandler(capture)
        root.setLevel(old_level)
