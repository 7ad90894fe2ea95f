"""The one facade the Discord layer calls: :class:`GameService`.

Each mutating call names who acts (a user id, plus a display name or ``is_manager`` where it
matters) and when (``now``, an aware datetime: the service never reads a clock), checks
permission and turn, applies the move through the engine, appends the events and returns an
:class:`~bot.service.outcome.Outcome`.

The work is split by use case over one shared commit path (:class:`~bot.service.commit.Ledger`:
load, lock, commit): :mod:`~bot.service.lobby` (open, join, seats, start, end),
:mod:`~bot.service.play` (moves and computer players), :mod:`~bot.service.queries` (reads, the
digest of what changed since a player's last turn among them),
:mod:`~bot.service.settings` (user and server settings), and the features built on the same
path — :mod:`~bot.service.undo`, :mod:`~bot.service.rematch`, :mod:`~bot.service.stats`. This
class only composes them, so a caller has one object and one place to read the whole API.
"""

from __future__ import annotations

import functools
import random
from datetime import datetime
from typing import TYPE_CHECKING

from bot.engine import Match
from bot.engine.ai import Level
from bot.service import ratings, ratingviews, stats
from bot.service.commit import CommitHook, CommittedHook, Ledger
from bot.service.computers import Chooser
from bot.service.lobby import Lobbies
from bot.service.orders import Orders
from bot.service.outbox import Outbox, owed_outcome
from bot.service.outcome import Outcome
from bot.service.play import Plays
from bot.service.queries import Queries
from bot.service.rematch import open_rematch
from bot.service.reviews import Reviews
from bot.service.settings import Settings
from bot.service.undo import Undone, take_back
from bot.store import Store

if TYPE_CHECKING:
    from bot.service.seasons import RatedChoice, Seasons


class GameService:
    """The use cases over one :class:`~bot.store.Store` (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 512,
        rng: random.Random | None = None,
        replacement_level: Level = Level.NORMAL,
        chooser: Chooser | None = None,
    ) -> None:
        """``rng`` shuffles the deals (default: the OS's ``SystemRandom``; tests pass a seeded
        one). ``replacement_level`` plays the seats of players who leave or are kicked.
        ``chooser`` chooses the computer players' moves (the bot's thinking pool; default:
        :class:`~bot.service.computers.Inline`, on the event loop)."""
        self.store = store
        #: The shared commit path; features that change games (the scheduler) build on it.
        self.ledger = Ledger(
            store,
            cache_size=cache_size,
            rng=rng,
            replacement_level=replacement_level,
            chooser=chooser,
        )
        lobby, play = Lobbies(self.ledger), Plays(self.ledger)
        queries, settings = Queries(self.ledger), Settings(store)
        # The lobby and its seats.
        self.create_lobby = lobby.create_lobby
        self.join = lobby.join
        self.add_computer = lobby.add_computer
        self.remove_computer = lobby.remove_computer
        self.leave = lobby.leave
        self.kick = lobby.kick
        self.start = lobby.start
        self.move_to_thread = lobby.move_to_thread
        self.end = lobby.end
        self.place_gone = lobby.place_gone
        # Moves.
        self.move = play.move
        self.refuse_unread = play.refuse_unread
        self.advance_computers = play.advance_computers
        # Reads.
        self.game = queries.game
        self.game_in_channel = queries.game_in_channel
        self.finished_in_channel = queries.finished_in_channel
        self.latest_dealt_in_channel = queries.latest_dealt_in_channel
        self.where = queries.where
        self.look = queries.look
        self.look_here = queries.look_here
        self.games_for_user = queries.games_for_user
        self.seat_view = queries.seat_view
        self.table_view = queries.table_view
        self.whose_turn = queries.whose_turn
        self.history = queries.history
        self.standings = queries.standings
        self.round_scores = queries.round_scores
        self.round_report = queries.round_report
        self.verify_game = queries.verify_game
        self.computer_turns = queries.computer_turns
        self.unfinished_places = queries.unfinished_places
        self.due_deadlines = queries.due_deadlines
        self.game_record = queries.game_record
        self.record_message = queries.record_message
        self.messages = queries.messages
        self.digest = queries.digest
        # Settings.
        #: Standing orders (issue 46): set, read, cancel; played by the turn use case.
        self.orders = Orders(self.ledger)
        self.user_settings = settings.user_settings
        self.update_user_settings = settings.update_user_settings
        self.remember_dm_channel = settings.remember_dm_channel
        self.has_user_settings = settings.has_user_settings
        self.server_languages = settings.server_languages
        self.server_language = settings.server_language
        self.set_server_language = settings.set_server_language
        self.guild_settings = settings.guild_settings
        self.update_guild_settings = settings.update_guild_settings
        #: What committed moves still owe the players (issue 37; ``bot/ui/deliver.py``).
        self.outbox = Outbox(store)
        #: A finished match's review for one of its players, computed once (issue 49).
        self.match_review = Reviews(store).review

    @functools.cached_property
    def seasons(self) -> Seasons:
        """Seasons and the league (issue 48; :mod:`bot.service.seasons`), loaded at first use:
        nothing of them runs on a move."""
        from bot.service.seasons import Seasons

        return Seasons(self.store)

    def add_commit_hook(self, hook: CommitHook, committed: CommittedHook | None = None) -> None:
        """Run ``hook(tx, before, after, seats, now)`` inside every move's transaction, after its
        writes (``before``/``after``: the game row before and after; ``seats`` after), and
        ``committed(game_id)`` once it committed. Features keep their own rows in step with
        the game this way (the scheduler plans the new turn)."""
        self.ledger.add_commit_hook(hook, committed)

    def cached(self, game_id: int) -> Match | None:
        """The cached match, if any (for tests comparing the cache with a replay)."""
        return self.ledger.cached(game_id)

    def clear_cache(self) -> None:
        self.ledger.clear_cache()

    # ------------------------------------------------------------------ features on the ledger

    async def undo(
        self,
        game_id: int,
        user_id: int,
        now: datetime,
        *,
        is_manager: bool = False,
        player_user_id: int | None = None,
    ) -> Undone:
        """Take back the last human turn (see :mod:`bot.service.undo`)."""
        return await take_back(
            self.ledger,
            game_id,
            user_id,
            now,
            is_manager=is_manager,
            player_user_id=player_user_id,
        )

    async def rematch(
        self,
        game_id: int,
        user_id: int,
        display_name: str,
        now: datetime,
        *,
        channel_id: int,
        rated: RatedChoice | None = None,
    ) -> Outcome:
        """Open a finished game's rematch lobby in ``channel_id``, where it will be posted
        (see :mod:`bot.service.rematch`); ``rated``: its rated or casual choice, kept with it."""
        return await open_rematch(
            self.ledger, game_id, user_id, display_name, now, channel_id=channel_id, rated=rated
        )

    async def player_stats(self, guild_id: int, user_id: int) -> stats.PlayerSummary:
        return await stats.player(self.store, guild_id, user_id)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[stats.PlayerSummary]:
        return await stats.leaderboard(self.store, guild_id, limit)

    async def rebuild_stats(self, *, only_missing: bool = True) -> int:
        """Recompute statistics from the event log; returns how many games were done."""
        return await stats.rebuild(self.store, only_missing=only_missing)

    # Ratings (issue 48): bot.service.ratings folds them, bot.service.ratingviews shows them.
    async def player_rating(self, guild_id: int, user_id: int) -> ratingviews.PlayerRating | None:
        return await ratingviews.player(self.store, guild_id, user_id)

    async def rating_board(self, guild_id: int, limit: int = 10) -> list[ratingviews.PlayerRating]:
        return await ratingviews.board(self.store, guild_id, limit)

    async def rating_changes(self, game_id: int) -> list[ratingviews.RatingChange]:
        return await ratingviews.match_changes(self.store, game_id)

    async def rebuild_ratings(self, *, only_missing: bool = True) -> int:
        """Refold ratings from the event log; returns how many servers were refolded."""
        return await ratings.rebuild(self.store, only_missing=only_missing)

    async def owed_outcome(self, game_id: int, from_seq: int) -> Outcome | None:
        """What a post owed since ``from_seq`` tells, rebuilt from the log (None: no game)."""
        record = await self.store.load(game_id)
        return None if record is None else owed_outcome(record, from_seq)
