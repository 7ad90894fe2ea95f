"""The turn commands: `/play`, `/draw`, `/pass`, `/knock`, `/catch`, `/hand` and `/table`.

Top-level, because they are typed many times a game. ``/play``'s ``tile`` and ``train``
options are :mod:`bot.ui.options`' transformers: they autocomplete only the tiles the
player may legally play now, then only the trains the chosen tile fits, and read the typed
tile against the game's set before the command's body runs.

The turn buttons (Play, Draw, Pass, My hand) and the move list end here too: every move, typed
or clicked, goes through :func:`make_move`, which hands the outcome to :mod:`bot.ui.announcer`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.digits import ID
from bot.engine import DRAW, KNOCK, PASS, Catch, Move, MoveError, Play, Tile, parse_move
from bot.i18n import tr
from bot.service import GameStatus, GameSummary, WaitingRow, errors, orders
from bot.service.queries import Look
from bot.ui import announcer, components, limits, messages, roundend
from bot.ui.components import MoveSelect, TurnButton
from bot.ui.dmclick import after_dm_move, set_controls, stale_dm
from bot.ui.dmturn import DmTurnButton
from bot.ui.host import GameBot
from bot.ui.interactions import (
    IN_DMS,
    SEEN,
    Interaction,
    answer,
    bot_of,
    game_here,
    guarded,
    locale_of,
    looked,
    my_game,
)
from bot.ui.mt import GameCog
from bot.ui.options import TileOption, TrainOption
from bot.ui.orders import order_text
from bot.ui.posts import click_editor
from bot.ui.refusals import Refusal, error_text


class Play_(GameCog, name="Play"):
    """The turn's top-level commands: ``/play``, ``/draw``, ``/pass``, ``/knock``, ``/catch``,
    ``/hand``, ``/table``."""

    @app_commands.command(name="play", description="Play a tile on a train")
    @app_commands.guild_only()
    @app_commands.describe(
        tile="The tile, e.g. 12-5 (the list shows only tiles you can play)",
        train="Where: mexican, or @N for seat N's train (the list shows where it fits)",
        knock="Knock with this move if it leaves you one tile (knock rule)",
        then="Then keep playing these tiles on your train at your next turns, e.g. 7-2 2-9",
    )
    async def play(
        self,
        interaction: Interaction,
        tile: app_commands.Transform[str, TileOption],
        train: app_commands.Transform[str, TrainOption] | None = None,
        knock: bool = False,
        then: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        async with guarded(interaction):
            picked = await TileOption.read(interaction, tile)
            move = TrainOption.move(picked.view, picked.tile, train)
            if not isinstance(move, Play):
                raise Refusal("error.which-train", tile=str(picked.tile))
            queued: tuple[Tile, ...] = ()
            if then is not None:  # a standing order after the move (issue 46): checked first
                view = picked.view
                queued = orders.read_chain(then[:200], view.rules.max_pip)
                orders.check_chain(view, queued, after=move)
            then_from = len(picked.view.log) if queued else None
            await make_move(
                interaction, picked.game.id, move, knock=knock, then=queued, then_from=then_from
            )

    @app_commands.command(name="draw", description="Draw a tile (only when nothing fits)")
    @app_commands.guild_only()
    async def draw(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            game = await game_here(interaction)
            await make_move(interaction, game.id, DRAW)

    @app_commands.command(name="pass", description="Pass (after drawing, or with no boneyard)")
    @app_commands.guild_only()
    async def pass_(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            game = await game_here(interaction)
            await make_move(interaction, game.id, PASS)

    @app_commands.command(name="knock", description="Announce your last tile (knock rule)")
    @app_commands.guild_only()
    async def knock(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            game = await game_here(interaction)
            await make_move(interaction, game.id, KNOCK)

    @app_commands.command(name="catch", description="Catch a player who did not knock")
    @app_commands.guild_only()
    async def catch(self, interaction: Interaction, player: discord.User) -> None:
        async with guarded(interaction):
            game = await game_here(interaction)
            target = game.player(player.id)
            if target is None:
                raise Refusal("error.not-seated", name=limits.shown(player.display_name))
            await make_move(interaction, game.id, Catch(target.seat))

    @app_commands.command(name="hand", description="See your hand (only you can see it)")
    @IN_DMS
    async def hand(self, interaction: Interaction) -> None:
        async with guarded(interaction):
            await show_hand(interaction)

    @app_commands.command(name="table", description="See the table again (only you)")
    @app_commands.guild_only()
    async def table(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        async with guarded(interaction):
            game = await roundend.game_or_finished(interaction)
            if game.status is GameStatus.FINISHED:  # until a new lobby opens here
                head = tr("re.table-over", locale, game=game.id)
                embed, files = await roundend.round_end_post(
                    self.bot, game, None, locale, lines=[head]
                )
                await answer(interaction, embed=embed, files=files)
                return
            if game.round_no is None:
                raise Refusal("error.not-started")
            view = await self.bot.service.table_view(game.id)
            embed = discord.Embed(
                title=tr(
                    "table.title",
                    locale,
                    game=game.id,
                    round=view.round_no + 1,
                    rounds=view.rounds_total,
                ),
                description="\n\n".join(
                    t
                    for t in (
                        messages.turn_line(game, game.turn, locale),
                        messages.open_hands_text(view, locale),
                    )
                    if t
                )[:4000]
                or None,
            )
            files = await self.bot.pictures.table_attached(embed, view, game.players, locale)
            await answer(interaction, **limits.fit("/table", embed=embed, files=files))


# ---------------------------------------------------------------------- turns and moves


#: The moves a turn button makes (Play and My hand open a list and a hand instead).
BUTTON_MOVES: dict[str, Move] = {"draw": DRAW, "pass": PASS, "knock": KNOCK}


async def turn_button(interaction: Interaction, game_id: int, version: int, action: str) -> None:
    """A turn button: only the player to move may use Play/Draw/Pass; My hand is anyone's own.

    The buttons act on the table as it is when pressed, on any turn post, old or new (so an
    old post needs no edit to take them off): Play lists the moves legal now (the list names
    the table's version: a pick from a list the table has since outrun is refused), Draw and
    Pass are checked against the rules now; pressed by anyone else, they say whose turn it is.

    The click is acknowledged without a message of its own (its answer is a private followup),
    so the click's token can edit the post it was made on for free: the announcer quietens or
    grows that post with it, and keeps a Play click's token for the move picked next."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    async with guarded(interaction, defer_first="update"):
        editor = click_editor(interaction)
        if editor is not None:
            bot.posts.note_editor(game_id, editor)
        if action == "hand":
            await show_hand(interaction, game_id)
            return
        look = await check_turn(interaction, game_id, None)  # the table as it is now
        now = look.game.version
        if action == "play":
            view = look.seat_view()
            options = components.move_options(view, locale, bot.tile_emojis.shown)
            picks = components.move_select_view(game_id, now, options, locale)
            await answer(
                interaction, **limits.fit("move list", content=tr("play.pick", locale), view=picks)
            )
            return
        await make_move(interaction, game_id, BUTTON_MOVES[action], expected_version=now)


async def check_turn(interaction: Interaction, game_id: int, version: int | None) -> Look:
    """A turn control is the player to move's, on the table as it is (``version``: the
    table the control was made for; None: whatever it is now): checked before the value a
    control carries is read (a client can send any value, and who may act comes first).
    The game is the one the click's place check read (:func:`looked`)."""
    look = looked(interaction, game_id) or await bot_of(interaction).service.look(game_id)
    game = look.game
    if game.status is not GameStatus.ACTIVE or game.turn is None:
        raise errors.WrongPhase("the game is over", code="game-over")
    if game.turn.user_id != interaction.user.id:
        raise Refusal("error.not-your-turn", name=limits.shown(game.turn.name))
    if version is not None and game.version != version:
        raise errors.TableChanged()
    return look


async def picked_move(interaction: Interaction, game_id: int, version: int, value: str) -> None:
    """A move picked in the move list: acknowledged in place, so the list becomes the answer.
    The move is the pick's one read of the game: where it was sent from (``made_in``: a
    client can send any game id), the table it was listed from (``version``: a list the
    table has outrun is refused) and whose turn it is are checked there, before the move is
    made; a refusal changes nothing."""
    async with guarded(interaction, defer_first="update"):
        made_in = (interaction.guild_id, interaction.channel_id or 0)
        await make_picked_move(interaction, game_id, version, value, made_in=made_in)


async def make_picked_move(
    interaction: Interaction,
    game_id: int,
    version: int,
    value: str,
    *,
    made_in: tuple[int | None, int] | None = None,
) -> None:
    """A pick's value (``notation|knock``, from a list the bot drew: a client can send any)
    read here, where the text arrives, then made as the move it names. A value that cannot
    be read is refused by the turn use case in the pick's one read, in the order the move
    would be (where it was sent, whose turn it is, then what was sent): the list is the
    bot's own, so the notation carries every seat and tile in full and reads without the
    table."""
    notation, _, flag = value.partition("|")
    try:
        move = parse_move(notation)
    except MoveError as exc:
        bot = bot_of(interaction)
        async with bot.game_lock(game_id):
            await bot.turns.refuse_unread(
                game_id, interaction.user.id, exc, expected_version=version, made_in=made_in
            )
    queued: tuple[Tile, ...] = ()
    then_from = None
    if flag.startswith("then:"):  # the turn DM's list: a standing order after the move
        view = await bot_of(interaction).service.seat_view(game_id, interaction.user.id)
        queued = orders.read_chain(flag[5:].replace(".", " "), view.rules.max_pip)
        orders.check_chain(view, queued, after=move)
        then_from = len(view.log)
    await make_move(
        interaction,
        game_id,
        move,
        expected_version=version,
        knock=flag == "knock",
        made_in=made_in,
        then=queued,
        then_from=then_from,
    )


async def make_move(
    interaction: Interaction,
    game_id: int,
    move: Move,
    *,
    expected_version: int | None = None,
    knock: bool = False,
    made_in: tuple[int | None, int] | None = None,
    then: Sequence[Tile] = (),
    then_from: int | None = None,
) -> None:
    """Apply one move for the interaction's user (:meth:`~bot.service.turn.Turns.take`: a
    draw that fits nowhere comes back with its forced pass), confirm it privately, then the
    announcer tells the rest (:func:`~bot.ui.announcer.announce`). ``then``: the standing
    order the player queued with it (issue 46; already checked against their hand), set
    before the rest of the turn is played so it goes on from this move (``then_from``: the
    round's log length before it)."""
    bot = bot_of(interaction)
    uid, locale = interaction.user.id, locale_of(interaction)
    async with bot.game_lock(game_id):
        turn = await bot.turns.take(
            game_id,
            uid,
            move,
            bot.now(),
            expected_version=expected_version,
            knock=knock,
            made_in=made_in,
            seen_version=seen_version(interaction, game_id),
        )
        names = [limits.shown(p.name) for p in turn.last.game.players]
        if turn.drawn is not None:
            seat = turn.outs[0].steps[0].applied.seat
            mine = [messages.drawn_note(turn.drawn, names, seat, locale)]
        else:
            nxt = turn.last.next_player
            again = nxt is not None and nxt.user_id == uid  # a double: they play on
            mine = [
                line
                for o in turn.outs
                for s in o.steps
                if s.player.user_id == uid
                for line in messages.own_step_lines(names, s, locale, again=again)
            ]
        said = "✅ " + ("\n".join(mine[:3]) or tr("word.done", locale))
        if then:
            try:  # checked before the move; a refusal now (a race) must not silence the move
                order = await bot.service.orders.set(
                    game_id, uid, then, bot.now(), log_from=then_from
                )
                said += "\n" + order_text(order, locale)
            except errors.ServiceError as exc:
                said += "\n" + error_text(exc, locale)
        if turn.waiting:
            said += "\n" + next_game_line(bot, turn.waiting, interaction.guild_id, locale)
        # Their answer first (with Undo: their own turn taken back in one tap, issue 47);
        # then the computer players who follow move, and one post tells the channel all.
        undo = discord.ui.View(timeout=None).add_item(UndoButton(game_id, locale))
        await announcer.announce(bot, turn.outs, interaction, answer=said, controls=undo)


def seen_version(interaction: Interaction, game_id: int) -> int | None:
    """The game's version as this interaction's look-up read it with the game's row (a
    click's place check, a typed command's game here): the move's commit then takes the
    cached game at that version without reading the version again, and checks it under its
    transaction's lock all the same (:meth:`bot.service.commit.Ledger.commit`)."""
    look = looked(interaction, game_id)
    seen = look.game if look is not None else interaction.extras.get(SEEN)
    return seen.version if isinstance(seen, GameSummary) and seen.id == game_id else None


def next_game_line(
    bot: GameBot, waiting: Sequence[WaitingRow], here: int | None, locale: str | None
) -> str:
    """The answer's "Next: game #12 on Friends' server is waiting on you" (issue 46):
    the first of the player's other games waiting on them, with a jump link to its latest
    table post (the post book's memory first, then the recorded row, else the channel), the
    rest counted. Names come from the client's cache (no request) and are shown inert."""
    first = waiting[0]
    url = f"https://discord.com/channels/{first.guild_id}/{first.channel_id}"
    known = bot.posts.known(first.game_id)
    message = known.message_id if known is not None else None
    if message is None and first.message is not None:
        message = first.message.message_id
    if message is not None:
        url += f"/{message}"
    guild = bot.get_guild(first.guild_id) if first.guild_id != here else None
    where = tr("next.in", locale, channel=f"<#{first.channel_id}>")
    if guild is not None:
        where = tr("next.on", locale, server=limits.shown(guild.name))
    line = tr("next.game", locale, game=first.game_id, where=where, url=url)
    if len(waiting) > 1:
        line += " " + tr("next.more", locale, n=len(waiting) - 1)
    return line


async def show_hand(interaction: Interaction, game_id: int | None = None) -> None:
    """``/hand`` and the My hand button: always ephemeral, picture + text."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    if game_id is not None:
        game = await bot.service.game(game_id)
    elif interaction.guild is not None:
        game = await roundend.game_or_finished(interaction)
    else:
        game = await my_game(interaction)
    if game.status is GameStatus.FINISHED:
        # Nothing is left to show privately: every hand was laid down at the end.
        raise Refusal("re.hand-over", game=game.id, link=await roundend.result_link(bot, game))
    view = await bot.service.seat_view(game.id, interaction.user.id)
    tiles = (await bot.service.user_settings(interaction.user.id)).tiles  # /mt me tiles:
    picture = await bot.pictures.hand_attached(view, game.options.hints, locale, tiles)
    file = picture if picture is not None else discord.utils.MISSING
    text = messages.hand_text(view, game, locale)
    await answer(interaction, **limits.fit("hand", content=text, file=file))


async def _turn_clicked(interaction: Interaction, item: TurnButton) -> None:
    await turn_button(interaction, item.game_id, item.version, item.action)


async def _move_picked(interaction: Interaction, item: MoveSelect) -> None:
    """A pick in a move list: the channel's (after Play) or a turn DM's."""
    move = dm_move if item.dm else picked_move
    await move(interaction, item.game_id, item.version, item.value(interaction))


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"mt:(?P<game>{ID}):undo"
):
    """Undo, on the mover's own answer (issue 47): takes back their own last turn, as ``/mt
    undo`` does, by the service's rule (until the next human acts; after that it says who
    has played since, in one line)."""

    place: ClassVar[str] = "player"

    def __init__(self, game_id: int, locale: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=tr("button.undo", locale),
                style=discord.ButtonStyle.secondary,
                custom_id=f"mt:{game_id}:undo",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: Interaction) -> None:
        await components.clicked(interaction, self)


async def _undo_clicked(interaction: Interaction, item: UndoButton) -> None:
    """The mover's Undo: their own last turn only (no host's power from an answer)."""
    bot, locale = bot_of(interaction), locale_of(interaction)
    async with guarded(interaction), bot.game_lock(item.game_id):
        out = await bot.service.undo(
            item.game_id, interaction.user.id, bot.now(), is_manager=False, player_user_id=None
        )
        answer = tr("undo.done", locale, moves=", ".join(out.moves))
        await announcer.post_undo(bot, interaction, out, answer)


async def dm_move(interaction: Interaction, game_id: int, version: int, value: str) -> None:
    """A move made from a turn DM (:mod:`bot.ui.dmturn`): the DM's turn checked first (an
    old DM refuses, pointing to the live turn), then the same path as a move made in the
    channel; then the DM's controls follow the turn (free: the click's own message)."""
    controls = None
    async with guarded(interaction, defer_first="update"):
        stale = await stale_dm(interaction, game_id, version)
        if stale is not None:
            refusal, controls = stale
            raise refusal  # answered first; then the DM's controls follow the table
        await make_picked_move(interaction, game_id, version, value)
        await after_dm_move(interaction, game_id, version)
    if controls is not None:
        await set_controls(interaction, controls)


async def _dm_clicked(interaction: Interaction, item: DmTurnButton) -> None:
    await dm_move(interaction, item.game_id, item.version, item.action)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, GameBot)
    components.listen(bot, TurnButton, _turn_clicked)
    components.listen(bot, MoveSelect, _move_picked)
    components.listen(bot, DmTurnButton, _dm_clicked)
    components.listen(bot, UndoButton, _undo_clicked)
    await bot.add_cog(Play_(bot))


async def teardown(bot: commands.Bot) -> None:
    components.unlisten(bot, TurnButton, MoveSelect, DmTurnButton, UndoButton)
