"""The database schema as numbered migrations, tracked by SQLite's ``user_version``.

Migration *n* takes a database at version *n - 1* to version *n*; ``user_version`` is set in
the same transaction, so a migration is applied wholly or not at all. A released migration is
never edited: a change to the schema is a new migration at the end of :data:`MIGRATIONS`.
The first five, the game as first released, are :mod:`bot.store.firstschema`'s; this module
holds the later ones and the list.

Times are stored as ISO-8601 text in UTC with microseconds (``2025-01-31T18:04:05.000000+00:00``),
so they read well in a shell and sort as they compare. Discord ids (snowflakes) fit in
SQLite's signed 64-bit integers.
"""

from __future__ import annotations

from typing import Final

from bot.store.firstschema import FIRST_MIGRATIONS

_V6_STATS_LANGUAGE = (
    # Statistics per finished game and seat, computed from the event log when the match ends
    # (same transaction as the last move) and rebuildable from it at any time: derived, never
    # the truth. `user_id` is the human holding the seat at the end (NULL for a computer seat,
    # and for a seat a computer took over: the computer's play is not theirs); `computer` is
    # the level of a computer seat. `round_scores` is a JSON list, one score per round.
    """
    CREATE TABLE player_stats (
        game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat          INTEGER NOT NULL,
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER,
        computer      TEXT,
        name          TEXT NOT NULL,
        finished_at   TEXT NOT NULL,
        rounds        INTEGER NOT NULL,
        rounds_won    INTEGER NOT NULL,
        total         INTEGER NOT NULL,
        place         INTEGER NOT NULL,
        won           INTEGER NOT NULL CHECK (won IN (0, 1)),
        double_blank  INTEGER NOT NULL,
        longest_train INTEGER NOT NULL,
        vs_computer   INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
        round_scores  TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID
    """,
    """
    CREATE INDEX player_stats_by_player ON player_stats (guild_id, user_id, finished_at)
        WHERE user_id IS NOT NULL
    """,
    # The language of a server's channel messages (/mt-admin settings language:); absent: the
    # server's Discord locale decides.
    """
    CREATE TABLE guild_language (
        guild_id   INTEGER PRIMARY KEY,
        language   TEXT NOT NULL CHECK (language IN ('en', 'fr')),
        updated_at TEXT NOT NULL
    )
    """,
)


#: Facts about this installation rather than any game, as key -> text: for now the hash of
#: the slash commands last pushed to Discord (``bot/ops/sync.py``), so a restart with
#: MT_SYNC_COMMANDS=1 left on syncs only when the commands changed.
_V7_META = (
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )
    """,
)

#: How a player wants the tiles of their own pictures drawn (``/mt me tiles:``): ``pips``
#: (pips with a numeral) or ``numerals`` (big black numerals, the high-contrast choice).
_V8_TILE_MODE = (
    """
    ALTER TABLE user_settings ADD COLUMN tiles TEXT NOT NULL DEFAULT 'pips'
        CHECK (tiles IN ('pips', 'numerals'))
    """,
)

#: Spending Discord's request budget well, and the Expert level (issues 24, 28, 29):
#: ``dm_channel_id`` keeps each player's DM channel, so a DM never opens its channel again
#: (``POST /users/@me/channels`` counts against the bot's global limit) after a restart or
#: from another process of a cluster; ``ping`` is how a player is told it is their turn
#: (``auto``: a DM where one can be delivered, else a mention; ``dm``; ``mention``; ``both``);
#: ``guild_settings.threads`` opens new games in a thread of their channel by default. The
#: seats table is rebuilt (SQLite cannot alter a CHECK) to accept an ``expert`` level, which
#: was then not offered (it did not beat Hard; docs/computer-players.md): no seat holds it,
#: and the wider check lets the research on branch ``expert`` land without a migration.
_V9_BUDGET_THREADS_EXPERT = (
    "ALTER TABLE user_settings ADD COLUMN dm_channel_id INTEGER",
    """
    ALTER TABLE user_settings ADD COLUMN ping TEXT NOT NULL DEFAULT 'auto'
        CHECK (ping IN ('auto', 'dm', 'mention', 'both'))
    """,
    """
    ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 0
        CHECK (threads IN (0, 1))
    """,
    """
    CREATE TABLE seats_v9 (
        game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL CHECK (seat >= 0),
        user_id      INTEGER,
        display_name TEXT NOT NULL,
        computer     TEXT CHECK (
                         computer IS NULL OR computer IN ('easy', 'normal', 'hard', 'expert')
                     ),
        joined_at    TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        CHECK (user_id IS NOT NULL OR computer IS NOT NULL)
    ) WITHOUT ROWID
    """,
    """
    INSERT INTO seats_v9 (game_id, seat, user_id, display_name, computer, joined_at)
    SELECT game_id, seat, user_id, display_name, computer, joined_at FROM seats
    """,
    "DROP TABLE seats",
    "ALTER TABLE seats_v9 RENAME TO seats",
    "CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL",
    "CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL",
)

#: Forced turns that play themselves (issue 34): ``autoplay`` is what a player lets the bot
#: play for them at once, as a rule of the turn (``/mt me autoplay:``): ``off``; ``forced``
#: (a draw, a pass or the end of a fast start when it is the only legal move: the default);
#: ``only`` (also the only legal tile play). Self-contained: one column, its check.
_V10_AUTOPLAY = (
    """
    ALTER TABLE user_settings ADD COLUMN autoplay TEXT NOT NULL DEFAULT 'forced'
        CHECK (autoplay IN ('off', 'forced', 'only'))
    """,
)

#: A finished match's log, compacted (issue 39): when a match ends, its events leave the
#: ``events`` table for one row here, ``events`` being the zlib-compressed JSON list of its
#: rows (``[seq, kind, payload, actor, at]``, in seq order), and only its last round snapshot
#: is kept. ``Store.load`` reads it back as the same rows, so the history, replays, exports and
#: statistics read a finished match as before; ``events`` holds the live games only, which
#: keeps the start-up check's work to what can still change. Self-contained; the same table on
#: PostgreSQL.
_V11_EVENT_ARCHIVE = (
    """
    CREATE TABLE event_archive (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        events  BLOB NOT NULL,
        count   INTEGER NOT NULL CHECK (count >= 0)
    )
    """,
    # The log stays append-only: an event may leave ``events`` only into the archive row of
    # its finished match (a row that already holds it).
    "DROP TRIGGER events_append_only_delete",
    """
    CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
    WHEN NOT EXISTS (
        SELECT 1 FROM event_archive a JOIN games g ON g.id = a.game_id
        WHERE a.game_id = OLD.game_id AND g.status = 'finished' AND a.count >= OLD.seq
    )
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END
    """,
)

#: The outbox (issue 37): what a committed move still owes the players, written in the move's
#: own transaction and cleared once delivered, so a crash between the commit and the posts
#: leaves the debt in the database for the next start (``bot/ui/deliver.py``). One row per
#: game: the post owed (``post_owed``) tells every event from ``from_seq`` on, for the game
#: as it stands at ``version``; ``ping_user`` is the human owed the "your turn" ping at that
#: version. Intents, not rendered messages: the deliverer re-derives the words from the log.
#: ``due_at`` is when a deliverer other than the committing one may take it (a grace for the
#: normal path, then a retry's backoff); ``claimed_*`` lease it to one process of a cluster.
_V12_OUTBOX = (
    """
    CREATE TABLE outbox (
        game_id       INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        from_seq      INTEGER NOT NULL,
        version       INTEGER NOT NULL,
        post_owed     INTEGER NOT NULL DEFAULT 1 CHECK (post_owed IN (0, 1)),
        ping_user     INTEGER,
        attempts      INTEGER NOT NULL DEFAULT 0,
        due_at        TEXT NOT NULL,
        claimed_by    TEXT,
        claimed_until TEXT
    )
    """,
    "CREATE INDEX outbox_by_due ON outbox (due_at)",
)

#: The end of a match is part of the outbox's debt (issue 37): the humans still owed the DM (or
#: the mention) that tells them how the match ended, as their user ids separated by spaces;
#: NULL when nobody is. Written by the match's last move with the rest of its debt, cleared
#: one player at a time as each is told, so a crash between two DMs tells nobody twice.
_V13_OUTBOX_END = ("ALTER TABLE outbox ADD COLUMN end_users TEXT",)

#: A draw held for the next post (issue 34: a draw from the turn DM is told with the move
#: that follows it, not by a paid edit): the first event the channel has not been told yet,
#: kept once the draw's own post is no longer owed, so that the next post tells it after a
#: restart too. The seq, not the words: the post re-derives them from the log.
_V14_OUTBOX_HELD = ("ALTER TABLE outbox ADD COLUMN held_from INTEGER",)

#: Ratings (issue 48): derived from the event log by the fold of ``bot/service/ratings.py``
#: (rebuildable at any time; see ``bot/store/ratings.py``). ``rating_changes``: one row per
#: rated seat of a rated match, the fold's input (who, the rank) and its result (mu and sigma
#: before and after; a computer's are its level's fixed anchor). ``ratings``: each player's
#: rating now in a server. ``rating_games``: the finished matches the fold has looked at,
#: rated or not (the start-up backfill reads only the others).
_V15_RATINGS = (
    """
    CREATE TABLE rating_changes (
        game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER,
        computer     TEXT,
        finished_at  TEXT NOT NULL,
        rank         INTEGER NOT NULL,
        mu_before    REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after     REAL NOT NULL,
        sigma_after  REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    )
    """,
    "CREATE INDEX rating_changes_by_guild ON rating_changes (guild_id, finished_at, game_id)",
    """
    CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, user_id, finished_at)
        WHERE user_id IS NOT NULL
    """,
    """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        mu       REAL NOT NULL,
        sigma    REAL NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE rating_games (
        game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id INTEGER NOT NULL
    )
    """,
)

#: Issue 48 (seasons and the league): a server's seasons (name, dates, the rules of its rated
#: games, the league's deadline and vacation allowance, whether it has ended and whether its
#: end post is still owed: the outbox pattern); each game's rated or casual choice (none: rated,
#: as before seasons); the league's sign-ups, tables and divisions, and each season's moves up
#: and down. Seasons carry their own ids (no identity column: ``store copy`` keeps them).
_V16_SEASONS = (
    """
    CREATE TABLE seasons (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER NOT NULL,
        name         TEXT NOT NULL,
        starts_at    TEXT NOT NULL,
        ends_at      TEXT NOT NULL,
        preset       TEXT NOT NULL,
        rules        TEXT NOT NULL,
        channel_id   INTEGER NOT NULL,
        deadline_s   INTEGER,
        vacation     INTEGER NOT NULL,
        status       TEXT NOT NULL CHECK (status IN ('open', 'ended')),
        league       TEXT NOT NULL CHECK (league IN ('signup', 'formed', 'opened')),
        post_owed    INTEGER NOT NULL CHECK (post_owed IN (0, 1)),
        created_at   TEXT NOT NULL
    )
    """,
    "CREATE INDEX seasons_by_guild ON seasons (guild_id, status)",
    """
    CREATE TABLE game_rated (
        game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        season_id INTEGER,
        rated     INTEGER NOT NULL CHECK (rated IN (0, 1))
    )
    """,
    """
    CREATE TABLE league_players (
        season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        user_id   INTEGER NOT NULL,
        name      TEXT NOT NULL,
        joined_at TEXT NOT NULL,
        table_no  INTEGER,
        PRIMARY KEY (season_id, user_id)
    )
    """,
    """
    CREATE TABLE league_tables (
        season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        table_no  INTEGER NOT NULL,
        division  INTEGER NOT NULL,
        game_id   INTEGER,
        PRIMARY KEY (season_id, table_no)
    )
    """,
    """
    CREATE TABLE league_divisions (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        division INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE league_moves (
        season_id INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        user_id   INTEGER NOT NULL,
        div_before INTEGER NOT NULL,
        div_after  INTEGER NOT NULL,
        PRIMARY KEY (season_id, user_id)
    )
    """,
)

#: Issue 49: each finished match's review, per seat, computed once on demand (``/mt review``,
#: the end-of-match DM's button) and kept: derived from the event log (it can be deleted and
#: computed again), never the truth. ``body`` is the review as JSON
#: (:mod:`bot.store.reviews`), ``settings`` how hard it looked.
_V17_REVIEWS = (
    """
    CREATE TABLE match_reviews (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat       INTEGER NOT NULL,
        settings   TEXT NOT NULL,
        body       TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )
    """,
)

#: Standing orders (issue 46): the next tiles a player queued for their own train, played at
#: their turns while the order's stops hold (``bot/service/orders.py``). Private: never in the
#: event log (what an order plays is, as the moves it makes, after an ``order`` marker).
#: ``tiles``: the queue, a JSON list; ``stops``: a JSON object of the player's stop
#: conditions; ``log_from``: where in the round's log the order began watching; ``waits``: set
#: during the player's own turn, it plays only once they have moved since; ``note``: why
#: it stopped (JSON), for the player's next turn DM; ``round_no``: an order ends with its round.
_V18_ORDERS = (
    """
    CREATE TABLE orders (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id    INTEGER NOT NULL,
        round_no   INTEGER NOT NULL,
        tiles      TEXT NOT NULL,
        stops      TEXT NOT NULL,
        log_from   INTEGER NOT NULL,
        waits      INTEGER NOT NULL DEFAULT 0,
        note       TEXT,
        PRIMARY KEY (game_id, user_id)
    )
    """,
)

#: ``autoplay: only`` becomes the default (issue 46): ``user_settings.autoplay`` holds what a
#: player CHOSE, NULL for "never chosen: the bot's default" (``bot.store.rows.DEFAULT_AUTOPLAY``),
#: so a later change of the default reaches everyone who never chose. Before, every row held a
#: value: the column's default ``forced``, written along with any other setting (a first game's
#: language), so a ``forced`` that was chosen cannot be told from one that was not; it becomes
#: the default (almost all of them never chose it, and ``/mt me autoplay:forced`` sets it back).
#: ``off`` and ``only`` were chosen (neither was ever a default) and stay. SQLite cannot drop a
#: NOT NULL: a new column takes the chosen values, the old one is dropped (its check is its own),
#: the new one takes its name.
_V19_AUTOPLAY_DEFAULT = (
    """
    ALTER TABLE user_settings ADD COLUMN autoplay_chosen TEXT
        CHECK (autoplay_chosen IS NULL OR autoplay_chosen IN ('off', 'forced', 'only'))
    """,
    "UPDATE user_settings SET autoplay_chosen = autoplay WHERE autoplay <> 'forced'",
    "ALTER TABLE user_settings DROP COLUMN autoplay",
    "ALTER TABLE user_settings RENAME COLUMN autoplay_chosen TO autoplay",
)

#: Each player's own cadence (issue 46): a daily digest instead of one DM per turn.
#: ``digest_hour``: the whole hour of the player's day (in ``user_settings.time_zone``) their
#: digest comes at, NULL for a DM per turn; ``digest_due_at``: when the next one is due (UTC),
#: what the scheduler sleeps towards beside ``due_work``, moved to the next day only once the
#: digest was delivered (a crash before that sends it again with the same nonce).
_V20_DIGEST = (
    "ALTER TABLE user_schedule ADD COLUMN digest_hour INTEGER "
    "CHECK (digest_hour IS NULL OR digest_hour BETWEEN 0 AND 23)",
    "ALTER TABLE user_schedule ADD COLUMN digest_due_at TEXT",
    "CREATE INDEX user_schedule_by_digest ON user_schedule (digest_due_at) "
    "WHERE digest_due_at IS NOT NULL",
)

#: ``MIGRATIONS[n - 1]`` takes the schema from version ``n - 1`` to ``n``.
MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    *FIRST_MIGRATIONS,
    _V6_STATS_LANGUAGE,
    _V7_META,
    _V8_TILE_MODE,
    _V9_BUDGET_THREADS_EXPERT,
    _V10_AUTOPLAY,
    _V11_EVENT_ARCHIVE,
    _V12_OUTBOX,
    _V13_OUTBOX_END,
    _V14_OUTBOX_HELD,
    _V15_RATINGS,
    _V16_SEASONS,
    _V17_REVIEWS,
    _V18_ORDERS,
    _V19_AUTOPLAY_DEFAULT,
    _V20_DIGEST,
)
SCHEMA_VERSION: Final = len(MIGRATIONS)

#: What each migration does, in one line (``MIGRATION_NOTES[n - 1]`` for migration *n*, the
#: same on PostgreSQL): ``init`` prints, and start-up logs, one line per migration applied.
MIGRATION_NOTES: Final[tuple[str, ...]] = (
    "the games, seats and event log",
    "server and channel settings",
    "turn deadlines and statistics",
    "round snapshots (quicker loading of long games)",
    "reminders, deadlines and stalled games scheduled",
    "statistics kept per language",
    "installation facts (the hash of the last command sync)",
    "each player's tile style (pips or numerals)",
    "DM channels kept, turn pings, game threads, the Expert level",
    "forced turns that play themselves (autoplay)",
    "finished matches' logs archived in one row each",
    "the outbox: what a committed move still owes the players",
    "the end of a match in the outbox",
    "a draw held for the next post",
    "players' ratings (rated matches, each server's ratings)",
    "seasons, rated or casual games, and the league",
    "finished matches' reviews, kept once computed",
    "standing orders: the next tiles a player queued for their own train",
    "autoplay's default (only-move) for players who never chose",
    "each player's daily digest (one DM a day instead of one per turn)",
)


def upgrade_lines(migrated: tuple[int, ...]) -> list[str]:
    """One line per migration an upgrade applied (``migration 10: forced turns …``); none for
    a new database (every migration from 1, nothing to tell) or one already current."""
    if not migrated or migrated[0] == 1:
        return []
    return [f"migration {number}: {MIGRATION_NOTES[number - 1]}" for number in migrated]
