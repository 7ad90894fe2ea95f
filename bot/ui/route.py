"""How one announcement reaches Discord, spending the request budget only where it must.

Discord exempts an interaction's own endpoints from the bot's global limit of 50 requests a
second: its answer, the followups made with its token, and edits made with that token, for
15 minutes. So what follows a player's action rides on that action's interaction: their
private answer, the public turn post (a followup in the game's channel), and the edits of
posts that token made or was clicked on. Only what has no interaction to ride on goes through
the REST API with the bot token, and waits its turn in :mod:`bot.ui.limits`: a move the
scheduler made, a DM, an edit of a post made by an interaction that has expired.

:class:`Route` is one announcement's actor and interaction: the actor's private answer, and
whether a public post may ride on the interaction (:meth:`Route.rides`); which path a turn
post and its edits take is the turn post's (:mod:`bot.ui.turnpost`). :func:`dm_channel`
opens a player's DM channel once and keeps it in the database, so neither a restart nor
another process of a cluster opens it again. Every payload passes :func:`bot.ui.limits.fit`
on its way out, so nothing the turn cycle sends goes over Discord's limits.

The outbox's side of an announcement (issue 37) is here too, beside the sends it guards.
A committed move's debt (the post, the ping) is in the database from its own transaction
(:mod:`bot.service.outbox`); the announcer pays it at once and clears it here (:func:`settle`).
What failed for a reason that passes (:func:`passing`: Discord's 5xx, a timeout, a dropped
connection) is left for :mod:`bot.ui.deliver` to retry with backoff; a refusal that will not
pass (missing permissions, a 4xx) is not retried: the actor was told. Every post carries a
``nonce`` derived from the debt (:func:`post_nonce`), every turn DM one naming its turn
(:func:`dm_nonce`), sent with ``enforce_nonce``: Discord answers a second send with the same
nonce with the message already sent, so a retry after a crash posts and pings nothing twice.
The free ways to edit a post (a followup's token, a click's) are :mod:`bot.ui.turnpost`'s,
kept by :mod:`bot.ui.posts`."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord
from discord.utils import MISSING

from bot.engine import Draw, Pass
from bot.i18n import tr
from bot.service import GameSummary
from bot.service.turn import TurnNews
from bot.ui.host import GameBot
from bot.ui.interactions import Interaction, answered, locale_of
from bot.ui.limits import NONCE, fit
from bot.ui.posts import TOKEN_MARGIN

log = logging.getLogger(__name__)

#: Discord's "Unknown Channel" (the channel or thread is gone).
UNKNOWN_CHANNEL = 10003


#: Discord's answers that mean an interaction token can no longer be used.
DEAD_TOKEN = (10015, 50027, 10062)


def token_alive(interaction: Interaction) -> bool:
    """Whether the interaction's token still takes followups and edits (15 minutes, less a
    margin for the request itself), on the bot's clock: the bot and Discord both keep UTC, and
    a test or a load run hands the bot the fake Discord's clock, so that an hour between two
    moves expires the first move's token on both sides."""
    client = interaction.client
    now = client.now() if isinstance(client, GameBot) else discord.utils.utcnow()
    return now < interaction.expires_at - TOKEN_MARGIN


class Route:
    """Where one announcement's messages go: through ``interaction`` where that is free, else
    through the channel with the bot token."""

    def __init__(
        self, bot: GameBot, interaction: Interaction | None, *, actor_id: int | None = None
    ) -> None:
        """``actor_id``: who acted, when there is no interaction to say it (the outbox
        delivering a move after a crash: the mover needs no ping, as when they were here)."""
        self.bot = bot
        self.interaction = interaction
        self._actor_id = actor_id
        #: The actor's private answer once it is a message of its own (after a silent
        #: acknowledgement), so a later word edits it instead of adding another.
        self._answer: discord.WebhookMessage | None = None
        self._told = False
        #: The actor's answer Discord failed to show (a 5xx or a timeout, after discord.py's
        #: own retries): said by the next word instead of a bare ✅, else by
        #: :meth:`answer_owed` at the announcement's end.
        self._unsaid: str | None = None
        #: What this announcement owed and could not deliver for now (``"post"``, ``"ping"``:
        #: a 5xx, a timeout): left in the outbox for :mod:`bot.ui.deliver` to retry.
        self.undelivered: set[str] = set()
        #: The post was held for the next one (a draw from the DM, ``TurnPost._hold``):
        #: the outbox keeps where it starts, so the next post tells it after a restart too.
        self.held = False
        #: DM channels this announcement opened (user -> channel; None: Discord said the
        #: kept one is gone), kept by :func:`settle` in the write that clears the debt.
        self.dm_channels: dict[int, int | None] = {}
        #: The actor's answer as last said (its words, its controls), and what grew it
        #: (:meth:`grow_answer`: a move again's hand and moves), kept under a later word.
        self._said: tuple[str, discord.ui.View | None] = ("", None)
        self._grown: tuple[str, discord.ui.View | None] | None = None
        #: Delivered again by the outbox (bot.ui.deliver): what carries no nonce (a followup)
        #: may have gone out before a crash, so the place is read first (the end DM's).
        self.redelivery = False

    @property
    def actor_id(self) -> int | None:
        return self.interaction.user.id if self.interaction is not None else self._actor_id

    def rides(self, channel_id: int) -> bool:
        """Whether a public post in ``channel_id`` can ride on the interaction: it was
        answered, its token lives and it was made in that channel (a followup goes where the
        interaction was)."""
        i = self.interaction
        return (
            i is not None and i.response.is_done() and i.channel_id == channel_id and token_alive(i)
        )

    # ------------------------------------------------------------------ the actor

    async def tell_actor(
        self,
        text: str,
        *,
        files: Sequence[discord.File] = (),
        view: discord.ui.View | None = None,
    ) -> None:
        """The actor's private answer (free): the first replaces "thinking…" (or, after a
        silent acknowledgement of a click, is a private message of its own); later ones edit
        it, so the actor reads one answer that grows. What :meth:`grow_answer` added stays
        under it (its picture kept)."""
        self._said = (text, view)
        if self._grown is not None and not files:
            more, controls = self._grown
            await self._say(f"{text}\n\n{more}", (), joined(controls, view), keep=True)
            return
        await self._say(text, files, view)

    async def grow_answer(
        self, text: str, *, files: Sequence[discord.File] = (), controls: discord.ui.View
    ) -> None:
        """Add ``text``, ``files`` and ``controls`` to the actor's answer, under what it says
        and beside its own controls (free: the answer is edited with the interaction's
        token): a player who moves again gets their hand and their moves there."""
        i = self.interaction
        if i is None or not token_alive(i):
            return
        self._grown, unsaid = (text, controls), self._unsaid
        said, own = self._said
        if not await self._say(f"{said}\n\n{text}" if said else text, files, joined(controls, own)):
            self._grown, self._unsaid = None, unsaid  # the answer stays as it was said

    async def _say(
        self,
        text: str,
        files: Sequence[discord.File],
        view: discord.ui.View | None,
        *,
        keep: bool = False,
    ) -> bool:
        """Show ``text`` as the actor's answer (see :meth:`tell_actor`); ``keep``: an edit
        keeps the answer's files. Whether Discord took it."""
        i = self.interaction
        if i is None:
            return False
        kept: dict[str, Any] = {} if keep else {"attachments": list(files)}
        try:
            if not i.response.is_done():
                await i.response.send_message(
                    ephemeral=True,
                    **fit("answer", content=text, files=list(files), view=view or MISSING),
                )
            elif self._answer is not None:
                await self._answer.edit(**fit("answer", content=text, view=view, **kept))
            elif self._answers_in_place(i):
                answered(i)
                await i.edit_original_response(**fit("answer", content=text, view=view, **kept))
            else:
                self._answer = await i.followup.send(
                    ephemeral=True,
                    wait=True,
                    **fit("answer", content=text, files=list(files), view=view or MISSING),
                )
            self._told = True
            self._unsaid = None
            return True
        except (discord.HTTPException, *PASSING) as exc:
            log.warning("could not answer interaction %s: %s", i.id, exc)
            if passing(exc):
                self._unsaid = text
            return False

    async def answer_owed(self) -> None:
        """The announcement's last word to the actor: an answer Discord failed to show and no
        later word carried (issue 50) is tried once more as it was (an edit that landed after
        all is made again, unchanged); failing again, and not already on screen (read back),
        it comes apart: a private followup where the answer was to replace a message of its
        own, else (a "thinking…" only an edit may replace) by DM. Never twice: an answer that
        was to be a message of its own (a followup) is not sent again, since a 5xx does not
        say it was not made, and Discord takes no nonce there."""
        i, text = self.interaction, self._unsaid
        if i is None or text is None or not token_alive(i):
            return
        in_place = self._answer is None and self._answers_in_place(i)
        if self._answer is None and not in_place:
            self._unsaid = None
            return
        await self.tell_actor(text)
        if self._unsaid is None or not in_place:
            self._unsaid = None
            return
        self._unsaid = None
        try:
            shown = await i.original_response()
            if shown.content == text:
                return  # the failed edit landed: nothing more to say
        except (discord.HTTPException, *PASSING) as exc:
            log.info("interaction %s: could not read its answer back: %s", i.id, exc)
        kind = i.response.type
        try:
            if kind is discord.InteractionResponseType.deferred_message_update:
                await i.followup.send(ephemeral=True, **fit("answer", content=text))
            else:
                said = tr("answer.by-dm", locale_of(i), channel=i.channel_id, answer=text)
                await send_dm(self.bot, i.user.id, said)
            log.info("interaction %s: its answer came apart after failed edits", i.id)
        except (discord.HTTPException, *PASSING) as exc:
            log.warning("interaction %s: its answer could not be given: %s", i.id, exc)

    @staticmethod
    def _answers_in_place(i: Interaction) -> bool:
        """Whether the answer replaces the interaction's own message: the "thinking…" it was
        acknowledged with, or the private message whose control was used (the move list
        becomes the move's answer). A click on a public post is answered privately apart."""
        kind = i.response.type
        if kind is discord.InteractionResponseType.deferred_channel_message:
            return True  # (and a second answer edits it again: the actor's answer grows)
        on_private = i.message is not None and i.message.flags.ephemeral
        return kind is discord.InteractionResponseType.deferred_message_update and on_private

    async def add_for_actor(self, text: str, *, files: Sequence[discord.File] = ()) -> None:
        """A second private message to the actor (e.g. their hand when they move again),
        after their answer, free."""
        i = self.interaction
        if i is None or not token_alive(i):
            return
        if not self._told:
            await self.tell_actor(text, files=files)
            return
        try:
            await i.followup.send(ephemeral=True, **fit("answer", content=text, files=list(files)))
        except discord.HTTPException as exc:
            log.warning("could not tell the actor of interaction %s: %s", i.id, exc)

    async def follows_up(self, channel_id: int) -> bool:
        """Whether a public post in ``channel_id`` (the turn post) may go now as a followup of
        this interaction: it rides (:meth:`rides`), and the actor's private answer was given
        first, since the first followup after a private "thinking…" would replace it,
        privately (an answer Discord failed to show is said now instead, issue 50)."""
        if not self.rides(channel_id):
            return False
        if not self._told:
            await self.tell_actor(self._unsaid or "✅")
        return self._told


def joined(first: discord.ui.View | None, then: discord.ui.View | None) -> discord.ui.View | None:
    """One message's controls: ``first``'s, then ``then``'s (e.g. a move again's moves, then
    the answer's Undo)."""
    if first is None or then is None:
        return first or then
    controls = discord.ui.View(timeout=None)
    for item in [*first.children, *then.children]:
        controls.add_item(item)
    return controls


# ---------------------------------------------------------------------- DMs


async def dm_channel(
    bot: GameBot,
    user_id: int,
    known: int | None = None,
    *,
    kept: bool = False,
    route: Route | None = None,
) -> discord.abc.Messageable:
    """The player's DM channel: ``known`` or the one kept in the database, else opened once
    (a request that counts against the global limit) and kept. ``kept``: ``known`` is what
    the database keeps, already read with the player's settings (None: no channel kept), so
    it is not read again. ``route``: the announcement this DM is part of, whose
    :func:`settle` keeps a channel opened here (no write of its own); without one (a
    reminder, a DM sent later) it is kept at once. Raises like ``create_dm``."""
    if known is None and route is not None:
        known = route.dm_channels.get(user_id)  # opened earlier in this announcement
    if known is None and not kept:
        known = (await bot.service.user_settings(user_id)).dm_channel_id
    if known is not None:
        return bot.get_partial_messageable(known, type=discord.ChannelType.private)
    async with bot.dm_opening:
        channel = await bot.create_dm(discord.Object(user_id))
    await _keep_dm_channel(bot, route, user_id, channel.id)
    return channel


async def _keep_dm_channel(
    bot: GameBot, route: Route | None, user_id: int, channel_id: int | None
) -> None:
    """Keep a DM channel just opened (None: forget one Discord said is gone): with the
    announcement's last write when there is one (a move's first DM costs no write of its
    own), else now."""
    if route is not None:
        route.dm_channels[user_id] = channel_id
    else:
        await bot.service.remember_dm_channel(user_id, channel_id, bot.now())


async def send_dm(
    bot: GameBot,
    user_id: int,
    content: str | None,
    *,
    known: int | None = None,
    kept: bool = False,
    route: Route | None = None,
    **kwargs: Any,
) -> discord.Message:
    """Send a DM through the kept channel (``known``: its id, already read; ``kept`` and
    ``route``: see :func:`dm_channel`); if Discord says that channel is gone, open a new one
    once. Raises :class:`discord.Forbidden` (50007: DMs closed) like ``send``."""
    kwargs = fit("DM", content=content, **kwargs)
    channel = await dm_channel(bot, user_id, known, kept=kept, route=route)
    try:
        return await channel.send(**kwargs)
    except discord.NotFound:
        await _keep_dm_channel(bot, route, user_id, None)
        for file in kwargs.get("files") or ([kwargs["file"]] if kwargs.get("file") else []):
            file.reset(seek=True)
        channel = await dm_channel(bot, user_id, None, kept=True, route=route)
        return await channel.send(**kwargs)


# ---------------------------------------------------------------------- the outbox's side

#: Failures that pass: worth a retry by the outbox.
PASSING = (TimeoutError, aiohttp.ClientError)
#: A DM (a turn's, a match's end) that failed this many times (5xx, timeouts) gives way to a
#: mention in the game's channel.
DM_TRIES = 4


def passing(exc: BaseException) -> bool:
    """Whether a failed send may succeed later: a Discord 5xx, a timeout, a lost connection."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500
    return isinstance(exc, PASSING)


def gone(bot: GameBot, channel_id: int, exc: BaseException) -> bool:
    """A post in a game's channel answered 404 Unknown Channel (10003): the channel or thread
    was deleted and no delete event reached the bot (missed while it was away past a
    resume). Its game ends as a delete event ends it (``mt_channel_gone``, heard by
    :mod:`bot.cogs.places`), so it stops being reminded, retried and holding its players.
    True when that was the failure."""
    if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL:
        bot.dispatch("mt_channel_gone", channel_id)
        return True
    return False


def note_failure(route: Route, part: str, exc: BaseException) -> None:
    """Remember that ``part`` (``post``, ``ping``) of this announcement is still owed, when the
    failure is one that passes."""
    if passing(exc):
        route.undelivered.add(part)


def post_nonce(game: GameSummary, index: int) -> str:
    """The nonce of the ``index``-th post owed for the game as it stands (Discord keeps at
    most :data:`~bot.ui.limits.NONCE` characters)."""
    return f"mt{game.id}.{game.version}.{index}"[:NONCE]


def dm_nonce(game: GameSummary, user_id: int, news: TurnNews) -> str:
    """The nonce of the turn DM telling ``user_id`` (``news``: what it tells them) that this
    turn is theirs: the same for as long as the turn lasts, whatever else moves the game's
    version meanwhile (a draw played for them, a player leaving, a restart's delivery), so a
    DM sent again for it is answered by Discord with the first (issue 50: a version in the
    nonce pinged a player twice for one turn after a crash). The turn is named by its round,
    where it starts in the round's log (after the last move of another seat, or a tile the
    player played: a double, then a draw played for them after a restart, is news), when it
    began, and the turns of theirs taken back since their last (an undo gives a turn back
    anew); hashed to fit in 25 characters, and naming the player, since Discord checks a
    nonce per author and the bot writes every DM."""
    view = news.view
    moves, seat = (view.log, view.seat) if view is not None else ((), None)
    start = len(moves)
    while (
        start and moves[start - 1].seat == seat and isinstance(moves[start - 1].move, Draw | Pass)
    ):
        start -= 1  # a draw played for them is the same news; a tile they played is not
    since = game.turn_since.isoformat() if game.turn_since is not None else ""
    undone = news.digest.undone if news.digest is not None else ()
    key = f"{game.id}:{user_id}:{game.round_no}:{seat}:{start}:{since}:{undone}"
    return f"mtt{hashlib.blake2b(key.encode(), digest_size=11).hexdigest()}"


async def settle(bot: GameBot, route: Route, game: GameSummary) -> None:
    """Clear from the outbox what this announcement delivered for ``game`` (as it stands),
    and keep the DM channels it opened, in one write; what is still owed stays, and the
    deliverer is woken to retry it. A database that does not answer leaves the debt too: the
    deliverer finds the post already in the channel."""
    post, ping = "post" not in route.undelivered, "ping" not in route.undelivered
    try:
        await bot.service.outbox.delivered(
            game.id,
            game.version,
            post=post,
            ping=ping,
            held=route.held,
            dm_channels=route.dm_channels,
            now=bot.now(),
        )
    except Exception as exc:  # the store's outage is logged once by its own poll
        log.info("game %s: could not clear the outbox (%s); the deliverer will", game.id, exc)
    if not (post and ping) or "end" in route.undelivered:
        bot.dispatch("mt_owed", game.id)
