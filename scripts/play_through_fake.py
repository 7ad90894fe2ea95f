"""Play one whole match through the fake Discord and write what everyone saw.

Simulated people click and type exactly as a Discord client would (``/mt new``, Join, Start,
the turn message's Play button and its select, ``/play`` with autocomplete, ``/draw``,
``/pass``), choosing their moves with the engine's computer players (``bot.engine.ai``) from
their own seat view — or at random with ``--random``. The bot is the real one, on a fresh
database. Output in ``--out DIR``:

* ``transcript.md``: who did what, what the bot answered, each line marked *channel*,
  *ephemeral to X* or *DM to X*;
* every image the bot posted (``001-table.png``, ``002-hand-alice.png`` …), linked from it.

It also prints ONE JSON line that counts what the channel and the DMs got (the proof for
issue 17): channel posts against human turns and round ends, new DMs per player against that
player's turns, hand-message edits, and live buttons left on any post but the latest; and
(issue 25) every file the bot uploaded, posted or edited in, against those that carry a
description (alt text), and the longest description (the transcript quotes each picture's
description under it); the pings each player got (a new DM that notifies, a channel mention
that pings; silent DMs and edits do not), per human turn; and what the match spent of
Discord's request budget (issue 24): requests per human move, global-limited and exempt, per
route too, DM channel opens, 429s and violations. ``--rate-limits`` makes the fake enforce
Discord's limits (its clock ``--time-scale`` times faster, 20 by default, so a long match
stays short).

``--orders``: each player takes their turn DM's standing order (issue 46: their train's plan,
first tile now and the rest at their next turns) whenever it offers one — with ``--from-dm``
its one tap, else the same plan typed in the channel (``/play … then:``); the JSON adds
``order_taps``, ``order_turns`` and ``order_moves`` (the turns and moves orders played).
``--gaps realistic`` plays at the players' pace: between two players' moves the fake's clock
(which the bot shares) skips a gap drawn from a log-normal distribution (median
``--gap-median`` minutes, spread ``--gap-sigma``, at most ``--gap-max`` hours; the same player
again at once, a draw and its play being one sitting; docs/discord.md says why), so
interaction tokens expire between turns, posts are hours old when the next move comes, and an
idle thread archives itself. The JSON line then adds what Discord would have refused
(``refused_requests`` by code), interactions left unanswered and turns whose post never came.
``--emojis`` (issue 47.3: the tiles as application emojis, ``MT_TILE_EMOJIS``): ``off`` (the
default, as before), ``present`` (the application already owns the set, as at every start
after the first: the bot lists it, before the match) or ``missing`` (the bot's first start:
it uploads the set, paced, while the match is played); the JSON adds ``tile_emojis``.

    python scripts/play_through_fake.py --out /tmp/mt-game --players 2 --computers 2 \\
        --preset standard
    python scripts/play_through_fake.py --out /tmp/mt-limited --players 4 --preset standard \\
        --rate-limits
    python scripts/play_through_fake.py --out /tmp/mt-async --players 4 --preset standard \\
        --rate-limits --gaps realistic
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import math
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from bot.app import MexicanTrainBot, create_bot
from bot.cogs.timing import cog_of
from bot.config import Config
from bot.engine import Move, Play
from bot.engine.ai import Level, choose_move
from bot.engine.rules import preset
from bot.i18n import tr
from bot.store import GameStatus
from bot.ui.tileemoji import SET
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, fake_discord, running_bot
from tests.fakediscord.webhooks import MANAGE_WEBHOOKS

#: The application's emoji routes (the list and the uploads), in the requests' kinds.
EMOJIS = "/applications/{app_id}/emojis"

NAMES = ("alice", "bob", "carol", "dave", "erin", "fay", "gus", "hana", "ivan", "judy")
#: ``--long-names``: each name made 32 characters (Discord's most for a display name), the
#: underscores escaped in Markdown (issue 47's worst case for a turn DM's length).
LONG_TAIL = "_The_Magnificent_Train_Rider_"


def player_names(count: int, long: bool) -> list[str]:
    """The humans' names: ``alice``, ``bob``…, or, ``long``, each 32 characters."""
    names = list(NAMES[:count])
    return [(n + LONG_TAIL).ljust(32, "x")[:32] for n in names] if long else names


class Transcript:
    """Collects every message the fake holds, in posting order, as Markdown."""

    def __init__(self, fake: FakeDiscord, out: Path) -> None:
        self.fake, self.out = fake, out
        self.lines: list[str] = []
        self.seen: set[int] = set()
        #: The edits seen of each private answer: one picked from (a move again's, issue 47)
        #: is replaced in place by the next move's answer, told again.
        self.edits: dict[int, int] = {}
        self.images = 0

    def action(self, who: FakeUser, what: str) -> None:
        self.lines.append(f"\n**{who.name}** — {what}")

    def collect(self) -> None:
        for message in list(self.fake.messages.values()):
            if message.loading:
                continue
            if message.id in self.seen:
                if message.visible_to is not None and self.edits[message.id] != message.edits:
                    self.edits[message.id] = message.edits
                    self.lines.append(self._format(message, again=True))
                continue
            self.seen.add(message.id)
            self.edits[message.id] = message.edits
            self.lines.append(self._format(message))

    def _where(self, message: FakeMessage) -> str:
        channel = self.fake.channels[message.channel_id]
        if channel.is_dm and channel.recipient is not None:
            return f"DM to {channel.recipient.name}"
        if message.visible_to is not None:
            return f"ephemeral to {self.fake.users[message.visible_to].name}"
        return f"#{channel.name}"

    def _format(self, message: FakeMessage, *, again: bool = False) -> str:
        where = self._where(message) + (" (the answer picked from, replaced)" if again else "")
        parts = [message.text] if message.text else []  # a card's: its Text Displays
        for embed in message.embeds:
            if embed.get("title"):
                parts.append(f"**{embed['title']}**")
            if embed.get("description"):
                parts.append(embed["description"])
            for field in embed.get("fields", []):
                parts.append(f"*{field['name']}*\n{field['value']}")
        for file in message.files:
            if file.is_image:
                self.images += 1
                kind = "hand" if "DM" in where or "ephemeral" in where else "table"
                name = f"{self.images:03d}-{kind}.png"
                (self.out / name).write_bytes(file.data)
                parts.append(f"![{name}]({name})")
                parts.append(f"*alt:* {file.description or '(none)'}")
        if message.card:
            gallery = " | ".join(message.alt_texts)
            parts.append(f"*(one card, Components V2; gallery alt:* {gallery or '(none)'}*)*")
        labels = [str(b.get("label")) for b in message.buttons]
        if labels:
            parts.append("buttons: " + " · ".join(f"[{label}]" for label in labels))
        for select in message.selects:
            options = ", ".join(o["label"] for o in select.get("options", []))
            parts.append(f"select: {options}")
        body = "\n".join(parts).replace("\n", "\n> ")
        return f"> *bot → {where}*\n> {body}"

    def images_in(self, message: FakeMessage) -> int:
        return sum(1 for f in message.files if f.is_image)

    def write(self) -> Path:
        path = self.out / "transcript.md"
        path.write_text("# Mexican Train through the fake Discord\n" + "\n".join(self.lines) + "\n")
        return path


def choose(view: Any, rng: random.Random, use_ai: bool) -> Move:
    if use_ai:
        return choose_move(view, Level.NORMAL, rng.randrange(2**32))
    return rng.choice(list(view.legal))


async def play(
    args: argparse.Namespace, fake: FakeDiscord, bot: MexicanTrainBot
) -> tuple[Path, dict[str, Any]]:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = Transcript(fake, out)
    channel = fake.channel("mexican-train")
    if args.language == "fr":  # the server's setting, before the match: not in its figures
        # Players whose Discord is in French (below), on a server its owner set to French
        # (/mt-admin settings language:, which needs Manage Server), as docs/admin.md tells.
        log.action(fake.owner, "`/mt-admin settings language:fr`")
        await (
            await fake.owner.slash("mt-admin settings", channel=channel, language="fr")
        ).message()
        log.collect()
    budget_before = fake.budget_report()  # the match from /mt new on, not the bot's start-up
    first_request = len(fake.requests)
    rng = random.Random(args.seed)
    if args.manage_webhooks:  # the admin granted the optional permission (docs/discord.md)
        channel.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    locale = "fr" if args.language == "fr" else "en-US"
    users = [fake.user(n, locale=locale) for n in player_names(args.players, args.long_names)]
    by_id = {u.id: u for u in users}
    if args.autoplay is not None:  # each player's /mt me autoplay:, set before the match
        for u in users:
            await bot.service.update_user_settings(u.id, bot.now(), autoplay=args.autoplay)

    rounds = {} if args.rounds_asked is None else {"rounds": args.rounds_asked}
    lobby, place, game = await open_match(
        fake, bot, channel, users, preset=args.preset, language=args.language,
        thread=args.thread, computers=args.computers, log=log, **rounds,
    )  # fmt: skip
    channel = place

    # A turn is one (round, seat, start time): a draw and the play that follows are one turn.
    turns: dict[int, set[tuple[int | None, int, object]]] = {u.id: set() for u in users}
    human_moves = from_dm = order_taps = 0
    one_move_turns: dict[str, int] = {}
    last_mover: int | None = None
    lost_turns = unable_to_act = reopened = 0
    for turn in range(args.max_moves):
        for _ in range(500):  # computer players move after the human's answer
            summary = await bot.service.game(game.id)
            if summary.turn is None or summary.turn.user_id is not None:
                break
            await asyncio.sleep(0.01)
        if summary.status is not GameStatus.ACTIVE or summary.turn is None:
            break
        uid = summary.turn.user_id
        assert uid is not None
        user = by_id[uid]
        if args.gaps == "realistic" and uid != last_mover:
            reopened += await away(fake, bot, gap(rng, args), channel)
        last_mover = uid
        told_before = told(channel)
        if getattr(channel, "archived", False):
            unable_to_act += 1  # Discord offers no command or button in an archived thread
            break
        key = (summary.round_no, summary.turn.seat, summary.turn_since)
        new_turn = key not in turns[uid]
        turns[uid].add(key)
        human_moves += 1
        view = await bot.service.seat_view(game.id, uid)
        if new_turn and len(view.legal) == 1:  # a turn that came with one legal move
            kind = "play" if isinstance(view.legal[0], Play) else str(view.legal[0])
            one_move_turns[kind] = one_move_turns.get(kind, 0) + 1
        move = choose(view, rng, not args.random)
        table = channel.last_message()
        dm = turn_dm(fake, user, summary.version) if args.from_dm or args.orders else None
        order = order_button(dm) if args.orders and dm is not None else None
        if order is not None and args.from_dm:  # --orders: their train's plan in one tap
            order_taps += 1
            log.action(user, f"clicks **{order['label']}** in their turn DM")
            assert dm is not None
            await (await user.click(dm, custom_id=str(order["custom_id"]))).message()
        elif order is not None:  # in the channel: the same plan typed, /play … then:
            order_taps += 1
            first, *rest = str(order["custom_id"]).rsplit(":", 1)[1].split(".")
            train, then = f"@{summary.turn.seat + 1}", " ".join(rest)
            log.action(user, f"`/play tile:{first} train:{train} then:{then}`")
            await (
                await user.slash("play", channel=channel, tile=first, train=train, then=then)
            ).message()
        else:
            dm = dm if args.from_dm else None
            from_dm += dm is not None
            button = turn % 2 == 0 and table is not None and bool(table.buttons)
            await send_move(bot, user, move, channel, args.language, log, dm=dm, button=button)
        await settle(bot)
        log.collect()
        if told(channel) == told_before and not await still_to_move(bot, game.id, uid):
            lost_turns += 1  # neither a new post nor the live one grown: nobody was told
            # (a draw that leaves its player to move may be told with their next move)
    await asyncio.sleep(0.05)
    log.collect()
    rounds = len(await bot.service.round_scores(game.id))
    figures = counts(fake, channel, users, turns, human_moves, rounds)
    figures |= budget(budget_before, fake.budget_report(), human_moves)
    figures["global_limited_by_kind"] = limited_kinds(fake, first_request, lobby.id)
    figures["webhook_by_kind"] = webhook_kinds(fake, first_request)
    figures |= refusals(fake, lost_turns) | {
        "thread": args.thread,
        "threads_archived_by_discord": reopened,
        "unable_to_act": unable_to_act,
    }
    figures |= autoplayed(await bot.service.game_record(game.id), figures)
    figures["moves_from_dm"] = from_dm
    figures |= ordered(await bot.service.game_record(game.id), order_taps)
    # Human turns (told to their player) that offered one legal move: the pings that asked
    # for no choice between moves (a single tile play is `/mt me autoplay: only`'s to play).
    figures["one_move_turns"] = one_move_turns
    return log.write(), figures


class NoTranscript:
    """A transcript that keeps nothing (a benchmark playing many matches)."""

    def action(self, who: FakeUser, what: str) -> None:
        pass

    def collect(self) -> None:
        pass


Log = Transcript | NoTranscript


async def open_match(
    fake: FakeDiscord,
    bot: MexicanTrainBot,
    channel: Any,
    users: list[FakeUser],
    *,
    preset: str,
    language: str = "en",
    thread: bool = False,
    computers: int = 0,
    log: Log | None = None,
    **options: Any,
) -> tuple[FakeMessage, Any, Any]:
    """``/mt new`` by the first user (``options``: its other options), the others click Join,
    ``computers`` Easy computer players added, Start: the lobby card, where the game is played
    (its thread or ``channel``) and the game once started."""
    log = log or NoTranscript()
    host = users[0]
    opts = " ".join(f"{k}:{v}" for k, v in options.items())
    log.action(host, f"`/mt new preset:{preset}`" + (" thread:True" if thread else "") + (
        f" {opts}" if opts else ""))  # fmt: skip
    extra = {"thread": True} if thread else {}
    opened = await host.slash("mt new", channel=channel, preset=preset, **extra, **options)
    await opened.message()
    # The lobby card (a thread game's opens its thread): the command's followup, after its
    # answer, which names a thread game's thread once it is opened.
    await settle(bot)
    log.collect()
    lobby = channel.messages()[0]
    place = channel.threads()[0] if thread else channel  # where the game is played
    for user in users[1:]:
        log.action(user, "clicks **Join**")
        await (await user.click(lobby, label=tr("button.join", language))).message()
        log.collect()
    opened = await bot.service.game_in_channel(place.id)
    assert opened is not None
    for _ in range(computers):
        log.action(host, "picks **Add computer player: Easy**")
        add = f"mt:{opened.id}:lobby:cpu"
        await (await host.select(lobby, values=["easy"], custom_id=add)).message()
        log.collect()
    log.action(host, "clicks **Start**")
    await (await host.click(lobby, label=tr("button.start", language))).message()
    await settle(bot)
    log.collect()
    game = await bot.service.game_in_channel(place.id)
    assert game is not None
    return lobby, place, game


async def send_move(
    bot: MexicanTrainBot,
    user: FakeUser,
    move: Move,
    channel: Any,
    language: str,
    log: Log | None = None,
    *,
    dm: FakeMessage | None = None,
    button: bool = False,
) -> None:
    """``user`` makes ``move`` as a Discord client would: from their turn DM (``dm``), with
    the table post's Play button and its select (``button``, tile plays), else ``/play``
    (autocomplete first), ``/draw`` or ``/pass``."""
    log = log or NoTranscript()
    table = channel.last_message()
    if dm is not None:
        if isinstance(move, Play) or str(move) not in ("draw", "pass"):
            log.action(user, f"picks `{move}` in their turn DM")
            await (await user.select(dm, values=[str(move)])).message()
        else:
            label = tr(f"button.{move}", language)
            log.action(user, f"clicks **{label}** in their turn DM")
            await (await user.click(dm, label=label)).message()
    elif isinstance(move, Play) and button and table is not None and table.buttons:
        log.action(user, "clicks **Play**")
        play = tr("button.play", language)
        picker = await (await user.click(table, label=play)).message()
        await settle(bot)
        log.collect()
        log.action(user, f"picks `{move}`")
        await (await user.select(picker, values=[str(move)])).message()
    elif isinstance(move, Play):
        tile, train = str(move).split()
        choices = await user.autocomplete("play", focused="tile", channel=channel, tile="")
        offered = ", ".join(c["value"] for c in choices)
        log.action(user, f"types `/play tile:` — autocomplete offers {offered}")
        log.action(user, f"`/play tile:{tile} train:{train}`")
        await (await user.slash("play", channel=channel, tile=tile, train=train)).message()
    else:
        log.action(user, f"`/{move}`")
        await (await user.slash(str(move), channel=channel)).message()


def autoplayed(record: Any, figures: dict[str, Any]) -> dict[str, Any]:
    """Turns the bot played for a player who had no choice (``/mt me autoplay:``), off the
    event log: whole turns (they never had to decide: counted as human seat turns that needed
    no ping) and draws whose tile then fit (the rest of that turn was theirs)."""
    groups: list[list[str]] = []
    seat = None
    for e in record.events:
        data = json.loads(e.payload) if e.payload else {}
        if e.kind == "autoplay":
            groups.append([])
            seat = data.get("seat")
        elif e.kind == "move" and e.actor is None and data.get("seat") == seat:
            groups[-1].append(str(data.get("move")))
        else:
            seat = None
    whole = sum(1 for g in groups if g and g[-1] != "draw")
    seat_turns = figures["human_turns"] + whole
    return {
        "autoplayed_turns": whole,
        "autoplayed_draws": len(groups) - whole,
        "human_seat_turns": seat_turns,
        "pings_per_human_seat_turn": round(figures["pings"] / max(1, seat_turns), 3),
    }


def order_button(dm: FakeMessage) -> dict[str, Any] | None:
    """The turn DM's one-tap standing order (issue 46), if it offers one now."""
    return next((b for b in dm.buttons if ":dm:then:" in str(b.get("custom_id"))), None)


def ordered(record: Any, taps: int) -> dict[str, Any]:
    """``--orders``: the DM's one-tap orders taken, and the turns and moves orders played
    (their ``order`` markers in the log, and the moves by nobody of that seat after each)."""
    turns = moves = 0
    seat = None
    for e in record.events:
        data = json.loads(e.payload) if e.payload else {}
        if e.kind == "order":
            turns, seat = turns + 1, data.get("seat")
        elif e.kind == "move" and e.actor is None and data.get("seat") == seat:
            moves += 1
        else:
            seat = None
    return {"order_taps": taps, "order_turns": turns, "order_moves": moves}


async def still_to_move(bot: MexicanTrainBot, game_id: int, uid: int) -> bool:
    """Whether ``uid`` is still the one to move (after a draw whose tile fits)."""
    summary = await bot.service.game(game_id)
    return summary.turn is not None and summary.turn.user_id == uid


def gap(rng: random.Random, args: argparse.Namespace) -> float:
    """Seconds until the next player moves: log-normal (docs/discord.md), capped."""
    minutes = rng.lognormvariate(math.log(args.gap_median), args.gap_sigma)
    return min(minutes * 60, args.gap_max * 3600)


async def away(fake: FakeDiscord, bot: MexicanTrainBot, seconds: float, place: Any) -> int:
    """Nobody acts for ``seconds`` of Discord time: the clock skips them, the scheduler looks
    at what fell due meanwhile, and the bot finishes what that started. If Discord archived
    the game's thread meanwhile, the bot hears of it at once and has the rest of the gap to
    reopen it: wait (a bounded while) for that; returns 1 when it happened."""
    fake.advance(seconds)
    cog_of(bot).scheduler.wake()
    await asyncio.sleep(0)
    await settle(bot)
    if not getattr(place, "archived", False):
        return 0
    with contextlib.suppress(TimeoutError):  # still archived: counted as unable_to_act
        await fake.wait_for(lambda: not place.archived, timeout=30, what="reopened", on=place)
    return 1


def told(channel: Any) -> tuple[int, int]:
    """What the channel shows of the game: its public posts, and the edits of the last."""
    posts = channel.messages()
    return len(posts), posts[-1].edits if posts else 0


def refusals(fake: FakeDiscord, lost_turns: int) -> dict[str, Any]:
    """What Discord would have refused over the whole run (429s apart: they are counted with
    the budget), interactions nobody answered, and turns whose post never came."""
    refused: dict[str, int] = {}
    for request in fake.requests:
        if request.status >= 400 and request.status != 429:
            key = f"{request.status}/{request.error_code}"
            refused[key] = refused.get(key, 0) + 1
    return {
        "discord_days": round((fake.clock() - fake.started).total_seconds() / 86400, 2),
        "refused_requests": refused,
        "unanswered_interactions": sum(
            1 for r in fake.interactions.values() if r.callback_type is None
        ),
        "refused_answers": sum(len(r.rejections) for r in fake.interactions.values()),
        "lost_turns": lost_turns,
    }


def turn_dm(fake: FakeDiscord, user: FakeUser, version: int) -> FakeMessage | None:
    """The player's turn DM whose controls are for the table as it is (``--from-dm``): the
    newest DM carrying them — a turn DM, or the answer to their last move when they move
    again (issue 47: only they see it); None when they have none (their first turn rode on
    their own answer, or their DMs are closed)."""
    for message in reversed(fake.dm_channel(user).messages(visible_to=user)):
        ids = [str(c.get("custom_id")) for c in [*message.selects, *message.buttons]]
        if any(f":{version}:dm:" in i for i in ids):
            return message
    return None


async def settle(bot: Any) -> None:
    """Wait until the bot has finished what the last action started: the answer comes first,
    the posts and the ping after it, and the next player reads them."""
    if not await bot.metrics.wait_idle(60):
        raise RuntimeError("the bot is still busy after a minute")


def counts(
    fake: FakeDiscord,
    channel: Any,
    users: list[FakeUser],
    turns: dict[int, set[tuple[int | None, int, object]]],
    human_moves: int,
    rounds: int,
) -> dict[str, Any]:
    """What the channel and each player's DMs hold at the end, against the turns played."""
    posts = channel.messages()  # public only, in order (the lobby card first)
    human_turns = sum(len(t) for t in turns.values())
    dms: dict[str, dict[str, int]] = {}
    for u in users:
        mine = fake.dm_channel(u).messages()
        pings = fake.pings_for(u)
        dms[u.name] = {
            "new_dms": len(mine),
            "turns": len(turns[u.id]),
            "hand_messages": sum(1 for m in mine if m.images()),
            "turn_dms": sum(1 for m in mine if not m.images()),
            "longest_turn_dm_chars": max((len(m.text) for m in mine if is_turn_dm(m)), default=0),
            "hand_edits": sum(m.edits for m in mine),
            "pings": len(pings),
            "dm_pings": sum(1 for p in pings if p.how == "dm"),
            "mention_pings": sum(1 for p in pings if p.how == "mention"),
        }
    uploads = [f for r in fake.requests for f in r.files]
    return {
        "files_uploaded": len(uploads),
        "files_with_description": sum(1 for f in uploads if f.description),
        "files_without_description": sum(1 for f in uploads if not f.description),
        "longest_description": max((len(f.description or "") for f in uploads), default=0),
        "rounds": rounds,
        "humans": len(users),
        "channel_posts": len(posts),
        "table_pictures": sum(1 for m in posts if m.images()),
        "human_turns": human_turns,
        "human_moves": human_moves,
        "round_ends": rounds,
        "posts_per_human_turn": round(len(posts) / max(1, human_turns), 3),
        "posts_minus_turns_and_round_ends": len(posts) - human_turns - rounds,
        "dms": dms,
        "longest_turn_dm_chars": max((d["longest_turn_dm_chars"] for d in dms.values()), default=0),
        "new_dms": sum(d["new_dms"] for d in dms.values()),
        "hand_edits": sum(d["hand_edits"] for d in dms.values()),
        "table_post_edits": sum(m.edits for m in posts),
        "live_buttons_on_old_posts": sum(1 for m in posts[:-1] if m.buttons),
        **cards_and_controls(fake, posts),
        "pings": sum(d["pings"] for d in dms.values()),
        "pings_per_human_turn": round(
            sum(d["pings"] for d in dms.values()) / max(1, human_turns), 3
        ),
    }


def is_turn_dm(message: FakeMessage) -> bool:
    """A turn DM (its words open with the turn's head, "🎲 Your turn in game #…")."""
    return message.text.startswith("🎲")


#: A control that makes a move (a turn post's Play/Draw/Pass/Knock, a move list, a turn DM's
#: Draw/Pass and list); Catch me up, My hand and links show, and stay.
MOVE_CONTROL = re.compile(r"mt:[0-9]+:[0-9]+:(?:dm:)?(?:play|draw|pass|knock|pick)")


def path_of(fake: FakeDiscord, message: FakeMessage) -> str:
    """How a channel post was made: a followup of an interaction, the channel webhook, or
    the bot's own message."""
    if message.webhook_id is None:
        return "bot_message"
    return "followup" if message.webhook_id == fake.application_id else "webhook"


def cards_and_controls(fake: FakeDiscord, posts: list[FakeMessage]) -> dict[str, Any]:
    """Issue 47: the posts and DMs with a picture, by path, that are one card (Components
    V2) or classic; and the messages that still carry a move control at the match's end
    (every one is then older than the current turn: there is none)."""
    pictured: dict[str, dict[str, int]] = {}
    for m in posts:
        if m.images():
            kind = pictured.setdefault(path_of(fake, m), {"card": 0, "classic": 0})
            kind["card" if m.card else "classic"] += 1
    dms = [m for m in fake.messages.values() if fake.channels[m.channel_id].is_dm]
    dm_kind = {"card": 0, "classic": 0}
    for m in dms:
        if m.images():
            dm_kind["card" if m.card else "classic"] += 1
    pictured["dm"] = dm_kind

    def live(m: FakeMessage) -> bool:
        ids = [str(c.get("custom_id")) for c in [*m.buttons, *m.selects]]
        return not m.deleted and any(MOVE_CONTROL.fullmatch(i) for i in ids)

    private = [m for m in fake.messages.values() if m.ephemeral]
    by_path = {path: 0 for path in ("followup", "webhook", "bot_message")}
    for m in posts:
        if live(m):
            by_path[path_of(fake, m)] += 1
    return {
        "pictured_posts_by_path": pictured,
        "live_move_controls_at_end": {
            "channel_posts": sum(1 for m in posts if live(m)),
            "dms": sum(1 for m in dms if live(m)),
            "ephemeral": sum(1 for m in private if live(m)),
        },
        # Issue 47.2: the channel posts still live at the end, by the path that made them.
        "live_channel_posts_by_path": by_path,
    }


def limited_kinds(fake: FakeDiscord, first: int, lobby_id: int) -> dict[str, int]:
    """What each request against the bot's global limit was (interaction routes are exempt):
    a DM opened, a turn DM (its words open with the turn's head), another DM (the end of the
    match), a channel post, the lobby card's edits, an edit taking a post's buttons off, and
    other edits of a post (a draw grown into it, a round's end)."""
    found: dict[str, int] = {}
    for r in fake.requests[first:]:
        if r.route is None or r.route.startswith(("/interactions", "/webhooks")):
            continue
        body = r.body if isinstance(r.body, dict) else {}
        if r.route == "/users/@me/channels":
            kind = "dm_open"
        elif r.method == "POST" and r.route == "/channels/{channel_id}/messages":
            channel = fake.channels.get(int(r.path.split("/")[2]))
            if channel is not None and channel.is_dm:
                # A turn DM opens with the turn's head ("🎲 …"); the end DM has a button too.
                turn = "🎲" in json.dumps(body.get("components") or [], ensure_ascii=False)
                kind = "turn_dm" if turn or body.get("content", "").startswith("🎲") else "other_dm"
            else:
                kind = "channel_post"
        elif r.route == "/channels/{channel_id}/webhooks":
            kind = "webhook_find" if r.method == "GET" else "webhook_make"
        elif r.route == EMOJIS:
            kind = "emoji_list" if r.method == "GET" else "emoji_upload"
        elif r.method == "PATCH" and r.route == "/channels/{channel_id}/messages/{message_id}":
            if int(r.path.split("/")[4]) == lobby_id:
                kind = "lobby_edit"
            elif body.get("components") == [] and "embeds" not in body:
                kind = "buttons_off_edit"
            else:
                kind = "post_edit"
        else:
            kind = f"{r.method} {r.route}"
        found[kind] = found.get(kind, 0) + 1
    return found


def tile_emoji_figures(fake: FakeDiscord, bot: MexicanTrainBot) -> dict[str, Any]:
    """The tiles' emojis at the match's end: the set whole (shown on the controls), the
    bot's lists and uploads since it started, and the DMs sent with a move list (the turn
    DMs; their lists are gone once their turn ends), with it showing the tiles' emojis."""
    calls = [r for r in fake.requests if r.route == EMOJIS]
    lists = shown = 0
    for r in fake.requests:
        if r.method != "POST" or r.route != "/channels/{channel_id}/messages":
            continue
        channel = fake.channels.get(int(r.path.split("/")[2]))
        body = json.dumps(r.body if isinstance(r.body, dict) else {})
        if channel is not None and channel.is_dm and '"options"' in body:
            lists += 1
            shown += re.search(r'"emoji": \{[^}]*"mt_\d', body) is not None
    return {
        "set_whole": bot.tile_emojis.whole,
        "lists": sum(r.method == "GET" for r in calls),
        "uploads": sum(r.method == "POST" and r.error_code is None for r in calls),
        "dms_sent_with_a_move_list": lists,
        "of_which_show_tile_emojis": shown,
    }


def webhook_kinds(fake: FakeDiscord, first: int) -> dict[str, int]:
    """What each request made with a channel webhook's token was (off the bot's global
    limit: a bucket per webhook): a post, an edit of one of its posts, another."""
    found: dict[str, int] = {}
    app = f"/webhooks/{fake.application_id}/"
    for r in fake.requests[first:]:
        if r.route is None or not r.route.startswith("/webhooks/") or r.path.startswith(app):
            continue
        kind = {"POST": "webhook_post", "PATCH": "webhook_edit"}.get(r.method, r.method.lower())
        found[kind] = found.get(kind, 0) + 1
    return found


def budget(before: dict[str, Any], after: dict[str, Any], human_moves: int) -> dict[str, Any]:
    """What the match (from ``/mt new`` on) spent of Discord's request budget, per human move
    (``FakeDiscord.budget_report`` before and after)."""
    per = 1 / max(1, human_moves)
    routes = {}
    for route, counted in after["routes"].items():
        old = before["routes"].get(route, {})
        limited = counted["global_limited"] - old.get("global_limited", 0)
        exempt = counted["exempt"] - old.get("exempt", 0)
        hooked = counted.get("webhook", 0) - old.get("webhook", 0)
        if limited or exempt or hooked:
            routes[route] = {"global_limited": limited, "exempt": exempt}
            if hooked:
                routes[route]["webhook"] = hooked
    limited = after["global_limited"] - before["global_limited"]
    exempt = after["exempt"] - before["exempt"]
    hooked = after.get("webhook", 0) - before.get("webhook", 0)
    return {
        "rate_limits": after["enabled"],
        "time_scale": after["time_scale"],
        "requests": limited + exempt + hooked,
        "global_limited_per_human_move": round(limited * per, 3),
        "exempt_per_human_move": round(exempt * per, 3),
        "webhook_per_human_move": round(hooked * per, 3),
        "dm_opens": after["dm_opens"] - before["dm_opens"],
        "rate_limited_429s": {
            scope: n - before["rate_limited"][scope] for scope, n in after["rate_limited"].items()
        },
        "violations": after["violations"] - before["violations"],
        "routes": routes,
    }


async def main(args: argparse.Namespace) -> None:
    logging.getLogger("discord").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(database=Path(tmp) / "play.sqlite3", synchronous="NORMAL",
                        tile_emojis=args.emojis != "off")  # fmt: skip
        limits = {"rate_limits": args.rate_limits, "time_scale": args.time_scale}
        async with fake_discord(**limits) as fake:
            fake.threads.archive_after = args.archive_early
            if args.emojis == "present":  # uploaded at an earlier start
                for name in SET:
                    fake.emojis.seed(name)
            # The bot keeps Discord's time, as in production (both UTC): the fake's clock.
            bot = create_bot(config, clock=fake.clock, rng=random.Random(args.seed))
            async with running_bot(fake, bot):
                if args.emojis == "present":  # listed at start, before any game
                    await fake.wait_for(lambda: bot.tile_emojis.whole, timeout=60, what="set")
                path, figures = await play(args, fake, bot)
                figures["tile_emojis"] = tile_emoji_figures(fake, bot)
    print(path, file=sys.stderr)
    print(json.dumps({"script": "play_through_fake", **vars(args), **figures}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder for transcript.md and images")
    parser.add_argument("--players", type=int, default=3, choices=range(1, 11), help="humans")
    parser.add_argument("--preset", default="quick")
    parser.add_argument(
        "--rounds", type=int, dest="rounds_asked",
        help="/mt new rounds: (e.g. one round of double-15 at 10 seats)",
    )  # fmt: skip
    parser.add_argument(
        "--long-names", action="store_true", help="every player's name 32 characters long"
    )
    parser.add_argument(
        "--computers",
        type=int,
        nargs="?",
        const=1,
        default=0,
        help="how many Easy computer players to add (the bare flag: one)",
    )
    parser.add_argument("--random", action="store_true", help="random legal moves, not the AI")
    parser.add_argument(
        "--from-dm", action="store_true",
        help="every move made from the player's turn DM when it has one (issue 34)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=2000)
    parser.add_argument(
        "--autoplay",
        choices=("off", "forced", "only"),
        help="every player's /mt me autoplay: (default: the bot's default)",
    )
    parser.add_argument(
        "--rate-limits", action="store_true", help="the fake enforces Discord's rate limits"
    )
    parser.add_argument(
        "--time-scale", type=float, default=20.0,
        help="with --rate-limits: run the limits' clock N times faster (1: real time)",
    )  # fmt: skip
    parser.add_argument(
        "--gaps", choices=("none", "realistic"), default="none",
        help="realistic: players move minutes to hours apart on the fake's clock",
    )  # fmt: skip
    parser.add_argument("--thread", action="store_true", help="the game in its own thread")
    parser.add_argument(
        "--orders", action="store_true",
        help="players take their turn DM's one-tap standing order whenever it is offered",
    )  # fmt: skip
    parser.add_argument(
        "--language",
        choices=("en", "fr"),
        default="en",
        help="fr: the players' Discord in French, the server set to French",
    )
    parser.add_argument(
        "--manage-webhooks", action="store_true",
        help="grant the bot Manage Webhooks in the game's channel (turn posts via its webhook)",
    )  # fmt: skip
    parser.add_argument(
        "--archive-early", type=float, default=1.0,
        help="Discord archives an idle thread after this share of the time asked (busy server)",
    )  # fmt: skip
    parser.add_argument(
        "--emojis", choices=("off", "present", "missing"), default="off",
        help="the tiles' application emojis: off, already uploaded, or uploaded during the match",
    )  # fmt: skip
    parser.add_argument("--gap-median", type=float, default=45.0, help="minutes")
    parser.add_argument("--gap-sigma", type=float, default=1.2, help="log-normal spread")
    parser.add_argument("--gap-max", type=float, default=24.0, help="hours")
    parsed = parser.parse_args()
    seats = preset(parsed.preset).player_range[1]
    if parsed.players + parsed.computers > seats:  # the lobby would say "full" and play on
        parser.error(f"--preset {parsed.preset} seats at most {seats} players (10: double-15)")
    asyncio.run(main(parsed))
