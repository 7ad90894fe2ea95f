"""Discord's limits, kept on our side of the wire: what a message may hold, and how many requests
the bot may send.

**What a message may hold**, checked in one place before a send; and how a player's name is
written in one (:func:`shown`: as typed, with mentions and markdown made inert). What a
refusal may repeat of what someone typed is :func:`bot.ui.refusals.quote_input`'s.

Discord refuses a whole message (400, code 50035 "Invalid Form Body") when one part is over
its limit: a 2,001-character answer, a field of 1,025, a button label of 81. A refused answer
leaves the player on "thinking…" and a refused table post loses the move's announcement, so
every send of the bot passes its keyword arguments through :func:`fit` first::

    await channel.send(**limits.fit("turn post", content=text, embed=embed, view=view))

``fit`` shortens what can be shortened without changing its meaning (text: cut, ending in
"…"; too many fields, select options, embeds, files or mention ids: the first that fit) and
logs a WARNING naming the field, so the cause is found and fixed; what cannot be shortened
(a ``custom_id`` or a select option's value, which the bot reads back) raises
:class:`PayloadRefused` instead of being sent. Autocomplete suggestions go through
:func:`fit_choices`. The same table of limits is enforced by the fake Discord of the tests
(``tests/fakediscord/limits.py``), so a send that forgot ``fit`` fails there.

**How many requests** (:class:`RequestBudget`): the bot's share of Discord's global request
budget. Discord allows a bot token 50 requests per second in all, whatever the number of
processes; only interaction endpoints (the answer to an interaction and the followups made
with its token) are exempt. discord.py follows the per-route buckets Discord announces in
its headers, but it learns of the global limit only from a 429, after the fact. So every
request that counts against the global limit passes :class:`RequestBudget` first: one every
``1 / rate`` seconds, evenly spaced, first come first served. Spaced, not in bursts: Discord
counts what it receives, and a burst sent at the end of one second reaches it, jostled by
the network and a busy event loop, partly in the next; evenly spaced requests keep the
margin (45 of 50) wherever Discord's second starts. A cluster's processes each take their
share (``MT_DISCORD_RATE``, default from the shards each runs), so together they stay under
the limit without talking to each other.

:func:`install` wraps the bot's ``HTTPClient.request`` — the path of every request made with
the bot token (interaction answers and followups take discord.py's webhook adapter instead, so
they never wait here) — and also keeps a request Discord still refused with 429 after
discord.py's own five tries (a 429 storm) from being lost: it waits and sends it again.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import time
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.http import Route

from bot.digits import read_decimal

log = logging.getLogger(__name__)

# ---------------------------------------------------------------------- the limits
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
#: All the text of all a message's embeds together.
EMBED_TOTAL = 6000
ROWS = 5
ROW_BUTTONS = 5
LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
CHOICES = 25
CHOICE_TEXT = 100
ATTACHMENTS = 10
ATTACHMENT_DESCRIPTION = 1024
#: User or role ids listed in ``allowed_mentions``.
MENTION_IDS = 100
#: A message's ``nonce`` (Discord keeps at most this many characters).
NONCE = 25
#: A thread's (or channel's) name.
THREAD_NAME = 100

ELLIPSIS = "…"
#: What an empty embed field shows (Discord refuses an empty field name or value).
BLANK = "\u200b"

_T = TypeVar("_T", str, int, float)


class PayloadRefused(ValueError):
    """A part of a message that cannot be shortened is over Discord's limit: not sent."""


def clip(text: str, limit: int, where: str, field: str) -> str:
    """``text`` cut to ``limit`` characters (ending in "…"), with a WARNING when cut."""
    if len(text) <= limit:
        return text
    log.warning(
        "%s: %s is %d characters, Discord takes %d: shortened", where, field, len(text), limit
    )
    return text[: limit - 1] + ELLIPSIS


def fit(where: str, /, **kwargs: Any) -> dict[str, Any]:
    """The keyword arguments of a send or an edit (``content``, ``embed``/``embeds``,
    ``view``, ``file``/``files``/``attachments``, ``allowed_mentions``; others pass through),
    fitted to Discord's limits. ``where`` names the send in the warnings."""
    out = dict(kwargs)
    content = out.get("content")
    if isinstance(content, str):
        out["content"] = clip(content, CONTENT, where, "content")
    if isinstance(out.get("embed"), discord.Embed):
        fit_embeds(where, [out["embed"]])
    if isinstance(out.get("embeds"), Sequence):
        embeds = list(out["embeds"])
        if len(embeds) > EMBEDS:
            log.warning(
                "%s: %d embeds, Discord takes %d: the first kept", where, len(embeds), EMBEDS
            )
            embeds = embeds[:EMBEDS]
        fit_embeds(where, embeds)
        out["embeds"] = embeds
    if isinstance(out.get("view"), discord.ui.View):
        fit_view(where, out["view"])
    if isinstance(out.get("file"), discord.File):
        fit_files(where, [out["file"]])
    for key in ("files", "attachments"):  # a send's new files; an edit's kept and new ones
        if isinstance(out.get(key), Sequence):
            files = list(out[key])
            if len(files) > ATTACHMENTS:
                log.warning(
                    "%s: %d %s, Discord takes %d: the first kept",
                    where,
                    len(files),
                    key,
                    ATTACHMENTS,
                )
                files = files[:ATTACHMENTS]
            fit_files(where, [f for f in files if isinstance(f, discord.File)])
            out[key] = files
    if isinstance(out.get("allowed_mentions"), discord.AllowedMentions):
        out["allowed_mentions"] = fit_mentions(where, out["allowed_mentions"])
    return out


# ---------------------------------------------------------------------- embeds


def embed_size(embed: discord.Embed, count: Callable[[str], int] = len) -> int:
    """The characters Discord counts toward the 6,000 of a message's embeds (``count``
    measures one text: a stricter count, such as UTF-16 units, leaves a margin)."""
    parts = [embed.title, embed.description, embed.footer.text, embed.author.name]
    parts += [p for f in embed.fields for p in (f.name, f.value)]
    return sum(count(p or "") for p in parts)


def fit_embeds(where: str, embeds: list[discord.Embed]) -> None:
    """Each embed's parts to their limits, then all of them to 6,000 characters together:
    the longest text gives way first, until the whole fits."""
    for n, embed in enumerate(embeds):
        _fit_embed(where, f"embeds[{n}]", embed)
    excess = sum(embed_size(e) for e in embeds) - EMBED_TOTAL
    if excess <= 0:
        return
    log.warning(
        "%s: the embeds hold %d characters, Discord takes %d: shortened",
        where,
        excess + EMBED_TOTAL,
        EMBED_TOTAL,
    )
    while excess > 0:
        text, replace = max((p for e in embeds for p in _texts(e)), key=lambda p: len(p[0]))
        if len(text) <= 1:
            break  # nothing left to cut (cannot happen within Discord's other limits)
        keep = max(0, len(text) - excess - 1)
        replace(text[:keep] + ELLIPSIS)
        excess -= len(text) - (keep + 1)


def _texts(embed: discord.Embed) -> list[tuple[str, Callable[[str], Any]]]:
    """Every text of ``embed`` that counts toward the 6,000, with a way to replace it."""

    def setter(attr: str) -> Callable[[str], Any]:
        return lambda text: setattr(embed, attr, text)

    def field(i: int, part: str) -> Callable[[str], Any]:
        f = embed.fields[i]
        return lambda text: embed.set_field_at(
            i,
            name=text if part == "name" else f.name,
            value=text if part == "value" else f.value,
            inline=bool(f.inline),
        )

    footer, author = embed.footer, embed.author
    out: list[tuple[str, Callable[[str], Any]]] = [
        (embed.title or "", setter("title")),
        (embed.description or "", setter("description")),
        (footer.text or "", lambda text: embed.set_footer(text=text, icon_url=footer.icon_url)),
        (
            author.name or "",
            lambda text: embed.set_author(name=text, url=author.url, icon_url=author.icon_url),
        ),
    ]
    for i, f in enumerate(embed.fields):
        out += [(f.name or "", field(i, "name")), (f.value or "", field(i, "value"))]
    return out


def _fit_embed(where: str, name: str, embed: discord.Embed) -> None:
    if embed.title is not None:
        embed.title = clip(str(embed.title), EMBED_TITLE, where, f"{name}.title")
    if embed.description is not None:
        text = clip(str(embed.description), EMBED_DESCRIPTION, where, f"{name}.description")
        embed.description = text
    if len(embed.fields) > EMBED_FIELDS:
        log.warning(
            "%s: %s has %d fields, Discord takes %d: the first kept",
            where,
            name,
            len(embed.fields),
            EMBED_FIELDS,
        )
        while len(embed.fields) > EMBED_FIELDS:
            embed.remove_field(EMBED_FIELDS)
    for i, field in enumerate(embed.fields):
        label = clip(str(field.name or ""), FIELD_NAME, where, f"{name}.fields[{i}].name")
        value = clip(str(field.value or ""), FIELD_VALUE, where, f"{name}.fields[{i}].value")
        embed.set_field_at(i, name=label or BLANK, value=value or BLANK, inline=bool(field.inline))
    footer = embed.footer
    if footer.text is not None and len(footer.text) > FOOTER:
        text = clip(footer.text, FOOTER, where, f"{name}.footer.text")
        embed.set_footer(text=text, icon_url=footer.icon_url)
    author = embed.author
    if author.name is not None and len(author.name) > AUTHOR:
        text = clip(author.name, AUTHOR, where, f"{name}.author.name")
        embed.set_author(name=text, url=author.url, icon_url=author.icon_url)


# ---------------------------------------------------------------------- components


def fit_view(where: str, view: discord.ui.View) -> None:
    """Labels, placeholders and option texts shortened, options beyond 25 dropped; a
    ``custom_id`` or option value over 100 (which the bot reads back) refused."""
    # discord.py itself refuses a 26th item or a sixth button in a row when they are added.
    for n, child in enumerate(view.children):
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str) and not 1 <= len(custom_id) <= CUSTOM_ID:
            raise PayloadRefused(f"{where}: components[{n}].custom_id has {len(custom_id)} chars")
        if isinstance(item, discord.ui.Button):
            if item.label is not None:
                item.label = clip(item.label, LABEL, where, f"components[{n}].label")
        elif isinstance(item, discord.ui.Select):
            _fit_select(where, f"components[{n}]", item)
    if len(view.children) > ROWS * ROW_BUTTONS:
        raise PayloadRefused(f"{where}: {len(view.children)} components, Discord takes 25")


def _fit_select(where: str, name: str, select: discord.ui.Select[Any]) -> None:
    if select.placeholder is not None:
        select.placeholder = clip(select.placeholder, PLACEHOLDER, where, f"{name}.placeholder")
    options = list(select.options)
    if len(options) > SELECT_OPTIONS:
        log.warning(
            "%s: %s has %d options, Discord takes %d: the first kept",
            where,
            name,
            len(options),
            SELECT_OPTIONS,
        )
        options = options[:SELECT_OPTIONS]
    for i, option in enumerate(options):
        if not 1 <= len(option.value) <= OPTION_TEXT:
            raise PayloadRefused(
                f"{where}: {name}.options[{i}].value has {len(option.value)} chars"
            )
        label = clip(option.label, OPTION_TEXT, where, f"{name}.options[{i}].label")
        option.label = label or BLANK
        if option.description is not None:
            option.description = clip(
                option.description, OPTION_TEXT, where, f"{name}.options[{i}].description"
            )
    select.options = options
    select.max_values = min(select.max_values, len(options))
    select.min_values = min(select.min_values, select.max_values)


# ---------------------------------------------------------------------- files, mentions, choices


def fit_files(where: str, files: list[discord.File]) -> None:
    for n, file in enumerate(files):
        if file.description is not None:
            field = f"attachments[{n}].description"
            file.description = clip(file.description, ATTACHMENT_DESCRIPTION, where, field)


def fit_mentions(where: str, mentions: discord.AllowedMentions) -> discord.AllowedMentions:
    users, roles = mentions.users, mentions.roles
    if isinstance(users, list) and len(users) > MENTION_IDS:
        log.warning("%s: %d users to mention, Discord takes %d", where, len(users), MENTION_IDS)
        users = users[:MENTION_IDS]
    if isinstance(roles, list) and len(roles) > MENTION_IDS:
        log.warning("%s: %d roles to mention, Discord takes %d", where, len(roles), MENTION_IDS)
        roles = roles[:MENTION_IDS]
    return discord.AllowedMentions(
        everyone=mentions.everyone,
        users=users,
        roles=roles,
        replied_user=mentions.replied_user,
    )


def fit_choices(choices: Sequence[app_commands.Choice[_T]]) -> list[app_commands.Choice[_T]]:
    """Autocomplete suggestions Discord takes: at most 25, names cut to 100 characters,
    and no choice whose text value is over 100 (it could not be sent back as typed)."""
    out: list[app_commands.Choice[_T]] = []
    if len(choices) > CHOICES:
        log.warning(
            "autocomplete: %d choices, Discord takes %d: the first kept", len(choices), CHOICES
        )
    for choice in choices:
        if isinstance(choice.value, str) and not len(choice.value) <= CHOICE_TEXT:
            log.warning(
                "autocomplete: a choice's value has %d characters: left out", len(choice.value)
            )
            continue
        name = clip(choice.name, CHOICE_TEXT, "autocomplete", "choices.name") or BLANK
        out.append(app_commands.Choice(name=name, value=choice.value))
        if len(out) == CHOICES:
            break
    return out


# ---------------------------------------------------------------------- the request budget

#: How long a request refused with 429 after discord.py's own retries waits before it is
#: sent again when Discord's answer gave no ``retry_after`` (a storm: keep trying, slowly).
STORM_PAUSE = 1.0
#: How long one request may keep meeting 429s before it is given up (and logged): posts and
#: DMs are delayed by a storm, never dropped, unless Discord refuses them for this long.
STORM_LIMIT = 15 * 60.0


class RequestBudget:
    """At most ``rate`` requests per ``per`` seconds (one second, as Discord counts), one
    every ``per / rate`` seconds: so no window of ``per`` seconds holds more than ``rate`` + 1,
    wherever it starts."""

    def __init__(
        self, rate: float, *, per: float = 1.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if not rate > 0 or not per > 0:
            raise ValueError("a request budget needs a positive rate")
        self.rate = rate
        self.interval = per / rate
        self._clock = clock
        self._next = -math.inf  # when the next request may go
        self._turn = asyncio.Lock()
        #: Requests let through, and the seconds they waited in all (for /metrics).
        self.taken = 0
        self.waited = 0.0

    def delay(self) -> float:
        """Seconds until one more request may go (0: now)."""
        return max(0.0, self._next - self._clock())

    def idle(self) -> bool:
        """Whether a request sent now would wait behind none (nothing queued, none due)."""
        return not self._turn.locked() and self.delay() == 0

    async def take(self) -> float:
        """Wait for this request's turn; returns the seconds waited."""
        start = self._clock()
        async with self._turn:  # FIFO: asyncio.Lock wakes its waiters in order
            while (pause := self.delay()) > 0:
                await asyncio.sleep(pause)
            self._next = self._clock() + self.interval
        self.taken += 1
        waited = self._clock() - start
        self.waited += waited
        return waited


def install(
    client: discord.Client,
    budget: RequestBudget,
    on_wait: Callable[[str, float], None] | None = None,
) -> None:
    """Send every bot-token request of ``client`` through ``budget``, telling ``on_wait``
    (scope, seconds) how long each waited: ``global`` for its turn in the budget, ``429`` for
    a refusal discord.py gave up on. Installing again only swaps the budget (a test gives a
    bot the scaled budget of a scaled fake Discord)."""
    http = client.http
    installed = getattr(http, "mt_budget", None) is not None
    http.mt_budget = budget  # type: ignore[attr-defined]
    if installed:
        return
    original = http.request

    def waited(scope: str, seconds: float) -> None:
        if on_wait is not None:
            on_wait(scope, seconds)

    async def request(route: Route, **kwargs: Any) -> Any:
        started = time.monotonic()
        while True:
            waited("global", await http.mt_budget.take())  # type: ignore[attr-defined]
            try:
                return await original(route, **kwargs)
            except discord.HTTPException as exc:
                if exc.status != 429 or time.monotonic() - started > STORM_LIMIT:
                    raise
                if exc.response is None or not exc.response.headers.get("Via"):
                    raise  # not Discord's limiter but Cloudflare's ban: retrying makes it worse
                pause = _retry_after(exc)
                log.warning(
                    "%s %s still refused with 429 after discord.py's retries; again in %.1f s",
                    route.method,
                    route.path,
                    pause,
                )
                await asyncio.sleep(pause)
                waited("429", pause)
                for file in kwargs.get("files") or ():
                    file.reset(seek=True)  # discord.py rewinds only on its own retries

    http.request = request  # type: ignore[method-assign]


def _retry_after(exc: discord.HTTPException) -> float:
    """The wait a 429 asked for (discord.py keeps the JSON body on the exception's response
    only as text), else :data:`STORM_PAUSE`."""
    header = exc.response.headers.get("Retry-After") if exc.response is not None else None
    # Read strictly (float() takes "inf", "1e9", other scripts' digits) and never longer
    # than the storm's whole limit: a header is outside text too.
    seconds = read_decimal(str(header).strip()) if header else None
    return STORM_PAUSE if seconds is None else min(max(0.05, seconds), STORM_LIMIT)


# ---------------------------------------------------------------------- a name, shown


#: Characters that reorder or hide the text after them (bidirectional controls), dropped from
#: a name in a message: a name's override would run on into the sentence around it.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Line breaks and tabs: a name in a message is one line, so each is a space.
_BREAKS = frozenset("\r\n\t\x0b\x0c\x85\u2028\u2029")
#: Unicode categories never shown from a name: controls, surrogates, private use, unassigned.
_HIDDEN = frozenset(("Cc", "Cs", "Co", "Cn"))
#: An opening bracket nothing escaped yet (after an even run of backslashes, each pair one
#: written backslash): ``escape_markdown`` escapes a masked link only when it is whole, so a
#: cut name ("[click](https://ev…") would leave it open for the text after.
_OPEN_BRACKET = re.compile(r"(?<!\\)((?:\\\\)*)\[")


def _plain(name: str) -> str:
    """``name`` on one line, without controls or bidirectional overrides."""
    return "".join(
        " " if ch in _BREAKS else ch
        for ch in name
        if ch not in _BIDI and (ch in _BREAKS or unicodedata.category(ch) not in _HIDDEN)
    )


def shown(name: str) -> str:
    """A player's name as a message shows it: as written, whatever it holds — a ``<@&role>``
    or ``@everyone`` is text, not a mention (rendered or pinging), ``*stars*`` are stars,
    ``[a](link)`` is not a link, ``# name`` opening a line is no heading: markdown made
    inert, after control characters and bidirectional overrides are dropped (a line break is
    a space), so what they hid cannot turn back into markdown. Pictures draw names as they
    are; only text needs this."""
    # A backslash is written as one (doubled), so it cannot escape what follows the name.
    escaped = discord.utils.escape_markdown(_plain(name).replace("\\", "\\\\"))
    return discord.utils.escape_mentions(_OPEN_BRACKET.sub(r"\1\\[", escaped))


def in_code(name: str) -> str:
    """A name inside a code block (a monospace table), where markdown and mentions show as
    written and escapes would show their backslashes: only a backtick could end the block,
    so it becomes a look-alike (U+02CB); controls and overrides are dropped as in
    :func:`shown`."""
    return _plain(name).replace("`", "\u02cb")
