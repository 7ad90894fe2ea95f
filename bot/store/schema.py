"""The database schema as numbered migrations, tracked by SQLite's ``user_version``.

Migration *n* takes a database at version *n - 1* to version *n*; ``user_version`` is set in
the same transaction, so a migration is applied wholly or not at all. A released migration is
never edited: a change to the schema is a new migration at the end of :data:`MIGRATIONS`.

Times are stored as ISO-8601 text in UTC with microseconds (``2025-01-31T18:04:05.000000+00:00``),
so they read well in a shell and sort as they compare. Discord ids (snowflakes) fit in
SQLite's signed 64-bit integers.
"""

from __future__ import annotations

from typing import Final

_V1_CORE = (
    # One row per game. `version` is bumped by every change to the game (seats, status, events):
    # it is how an in-memory copy knows it is still current, and the optimistic lock for
    # changes that append no event. `turn_seat`/`round_no` repeat what replaying the events
    # gives, so listings ("your games, whose turn") never need a replay.
    """
    CREATE TABLE games (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id        INTEGER NOT NULL,
        channel_id      INTEGER NOT NULL,
        host_id         INTEGER NOT NULL,
        preset          TEXT NOT NULL,
        rules           TEXT NOT NULL,
        engine_version  INTEGER NOT NULL,
        status          TEXT NOT NULL
                        CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        version         INTEGER NOT NULL DEFAULT 0,
        turn_seat       INTEGER,
        round_no        INTEGER,
        turn_deadline_s INTEGER CHECK (turn_deadline_s IS NULL OR turn_deadline_s > 0),
        hints           INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1)),
        created_at      TEXT NOT NULL,
        updated_at      TEXT NOT NULL
    )
    """,
    # At most one unfinished game per channel, enforced here rather than by check-then-insert.
    """
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'active')
    """,
    "CREATE INDEX games_by_guild ON games (guild_id, status)",
    # Seats: a human (user_id, computer NULL), a computer (user_id NULL, computer = level), or a
    # human replaced by a computer (both set: the seat remembers who sat there, for stats).
    """
    CREATE TABLE seats (
        game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL CHECK (seat >= 0),
        user_id      INTEGER,
        display_name TEXT NOT NULL,
        computer     TEXT CHECK (computer IS NULL OR computer IN ('easy', 'normal', 'hard')),
        joined_at    TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        CHECK (user_id IS NOT NULL OR computer IS NOT NULL)
    ) WITHOUT ROWID
    """,
    "CREATE UNIQUE INDEX seats_one_per_user ON seats (game_id, user_id) WHERE user_id IS NOT NULL",
    "CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL",
    # The truth: a game is its rules plus these events, in seq order. (game_id, seq) is the
    # optimistic lock: two writers that both read seq n cannot both append n + 1.
    """
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq     INTEGER NOT NULL CHECK (seq >= 1),
        kind    TEXT NOT NULL,
        payload TEXT NOT NULL,
        actor   INTEGER,
        at      TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END
    """,
    """
    CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END
    """,
)

_V2_SETTINGS = (
    """
    CREATE TABLE user_settings (
        user_id          INTEGER PRIMARY KEY,
        dms_open         INTEGER NOT NULL DEFAULT 1 CHECK (dms_open IN (0, 1)),
        hand_dms         INTEGER NOT NULL DEFAULT 1 CHECK (hand_dms IN (0, 1)),
        reminders        INTEGER NOT NULL DEFAULT 1 CHECK (reminders IN (0, 1)),
        reminder_after_s INTEGER NOT NULL DEFAULT 43200 CHECK (reminder_after_s > 0),
        time_zone        TEXT NOT NULL DEFAULT 'UTC',
        language         TEXT NOT NULL DEFAULT 'en',
        updated_at       TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE guild_settings (
        guild_id         INTEGER PRIMARY KEY,
        preset           TEXT NOT NULL DEFAULT 'standard',
        house_rules      TEXT NOT NULL DEFAULT '{}',
        allowed_channels TEXT NOT NULL DEFAULT '[]',
        host_role_id     INTEGER,
        updated_at       TEXT NOT NULL
    )
    """,
    # The bot's own messages per game (the latest table picture, the lobby card, ...), so a
    # later message can link back ("jump to the table") or edit them.
    """
    CREATE TABLE messages (
        game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind       TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (game_id, kind)
    ) WITHOUT ROWID
    """,
)

_V3_DEADLINES_STATS = (
    # When the current turn's deadline falls (games with a turn deadline option), for the
    # timeout sweeper; kept with the turn, in the same transaction as the move.
    "ALTER TABLE games ADD COLUMN deadline_at TEXT",
    "ALTER TABLE games ADD COLUMN turn_since TEXT",
    """
    CREATE INDEX games_by_deadline ON games (deadline_at)
        WHERE status = 'active' AND deadline_at IS NOT NULL
    """,
    # Reminders sent, so a restart does not nag twice.
    """
    CREATE TABLE reminders (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        kind    TEXT NOT NULL,
        due_at  TEXT NOT NULL,
        sent_at TEXT,
        PRIMARY KEY (game_id, user_id, kind)
    ) WITHOUT ROWID
    """,
    # Final standings of finished games, written with the last move, for statistics.
    """
    CREATE TABLE results (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        user_id     INTEGER,
        computer    TEXT,
        total       INTEGER NOT NULL,
        place       INTEGER NOT NULL,
        won         INTEGER NOT NULL CHECK (won IN (0, 1)),
        rounds_won  INTEGER NOT NULL,
        finished_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX results_by_user ON results (user_id, finished_at) WHERE user_id IS NOT NULL",
)

_V4_ROUND_SNAPSHOTS = (
    # A disposable shortcut for loading long games: at each deal, the results of the rounds
    # before it (the same JSON as a position's "rounds"). A load may start from the latest
    # one and replay only the current round; without it (or if it disagrees), the load
    # replays every event. Never the truth: the event log is.
    """
    CREATE TABLE round_snapshots (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq     INTEGER NOT NULL,
        rounds  TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
)

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


#: SQL for "the stored time ``column`` plus ``days`` days", in the stored format (UTC, six
#: fractional digits: SQLite's %f gives three, so three zeros are appended). Used by triggers.
def _plus_days(column: str, days: str) -> str:
    return f"strftime('%Y-%m-%dT%H:%M:%f', {column}, '+' || {days} || ' days') || '000+00:00'"


_STALL_DAYS = "COALESCE((SELECT stall_days FROM guild_schedule WHERE guild_id = NEW.guild_id), 14)"

_V5_SCHEDULE = (
    # Work the scheduler must do, one row per game and kind, with the identity of what it
    # was planned for (`turn_key`: "seat@turn_since" for turn work; "warn"/"close" for a stall)
    # so a row that outlived its turn is recognised as stale and does nothing. Turn rows are
    # written with the move that starts the turn, in its transaction (a commit hook of the
    # game service); stall rows by the triggers below, so every change to a game (by any
    # code path) pushes its stall date back. The scheduler sleeps until MIN(due_at).
    """
    CREATE TABLE due_work (
        game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        kind     TEXT NOT NULL CHECK (kind IN ('timeout', 'remind', 'away', 'stall')),
        turn_key TEXT NOT NULL,
        user_id  INTEGER,
        due_at   TEXT NOT NULL,
        PRIMARY KEY (game_id, kind)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX due_work_by_time ON due_work (due_at)",
    # What the host chose at /mt new for an absent player (copied from the server's defaults).
    """
    CREATE TABLE game_schedule (
        game_id         INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        timeout_policy  TEXT NOT NULL DEFAULT 'computer'
                        CHECK (timeout_policy IN ('computer', 'skip', 'replace')),
        replace_after   INTEGER NOT NULL DEFAULT 3 CHECK (replace_after >= 1),
        remind_before_s INTEGER CHECK (remind_before_s IS NULL OR remind_before_s > 0)
    )
    """,
    # A player's quiet hours (whole hours of their day, in user_settings.time_zone; equal or
    # NULL: none), DM reminders (opt-in) and away mode. Apart from user_settings, whose
    # writer replaces whole rows.
    """
    CREATE TABLE user_schedule (
        user_id     INTEGER PRIMARY KEY,
        quiet_start INTEGER CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 23),
        quiet_end   INTEGER CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 23),
        remind_dm   INTEGER NOT NULL DEFAULT 0 CHECK (remind_dm IN (0, 1)),
        away        INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
        updated_at  TEXT NOT NULL
    )
    """,
    # A server's defaults for new games and its stalled-game limit (0: never close).
    """
    CREATE TABLE guild_schedule (
        guild_id       INTEGER PRIMARY KEY,
        deadline_s     INTEGER CHECK (deadline_s IS NULL OR deadline_s > 0),
        timeout_policy TEXT NOT NULL DEFAULT 'computer'
                       CHECK (timeout_policy IN ('computer', 'skip', 'replace')),
        stall_days     INTEGER NOT NULL DEFAULT 14 CHECK (stall_days >= 0),
        updated_at     TEXT NOT NULL
    )
    """,
    f"""
    CREATE TRIGGER due_work_stall_new AFTER INSERT ON games
    WHEN NEW.status IN ('lobby', 'active')
    BEGIN
        INSERT OR REPLACE INTO due_work (game_id, kind, turn_key, user_id, due_at)
        SELECT NEW.id, 'stall', 'warn', NULL, {_plus_days("NEW.updated_at", "d")}
        FROM (SELECT {_STALL_DAYS} AS d) WHERE d > 0;
    END
    """,
    # Any change to a game is activity: the stall date moves (and a warning is forgotten);
    # a game that ends drops all its work.
    f"""
    CREATE TRIGGER due_work_stall_touch AFTER UPDATE OF updated_at, status ON games
    BEGIN
        DELETE FROM due_work WHERE game_id = NEW.id
            AND (NEW.status NOT IN ('lobby', 'active') OR kind = 'stall');
        INSERT INTO due_work (game_id, kind, turn_key, user_id, due_at)
        SELECT NEW.id, 'stall', 'warn', NULL, {_plus_days("NEW.updated_at", "d")}
        FROM (SELECT {_STALL_DAYS} AS d) WHERE d > 0 AND NEW.status IN ('lobby', 'active');
    END
    """,
    # A new turn (or the game's end) retires the old turn's work, whoever wrote the change;
    # the service's commit hook then plans the new turn's rows in the same transaction.
    """
    CREATE TRIGGER due_work_turn AFTER UPDATE OF turn_since, status ON games
    WHEN NEW.turn_since IS NOT OLD.turn_since OR NEW.status IS NOT OLD.status
    BEGIN
        DELETE FROM due_work WHERE game_id = NEW.id AND kind IN ('timeout', 'remind', 'away');
    END
    """,
    # Games already running when this migration runs: their stall dates and timeouts.
    f"""
    INSERT INTO due_work (game_id, kind, turn_key, user_id, due_at)
    SELECT g.id, 'stall', 'warn', NULL, {_plus_days("g.updated_at", "14")}
    FROM games g WHERE g.status IN ('lobby', 'active')
    """,
    """
    INSERT INTO due_work (game_id, kind, turn_key, user_id, due_at)
    SELECT g.id, 'timeout', g.turn_seat || '@' || g.turn_since, s.user_id, g.deadline_at
    FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.turn_seat
    WHERE g.status = 'active' AND g.deadline_at IS NOT NULL AND g.turn_since IS NOT NULL
        AND s.computer IS NULL AND s.user_id IS NOT NULL
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

#: ``MIGRATIONS[n - 1]`` takes the schema from version ``n - 1`` to ``n``.
MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    _V1_CORE,
    _V2_SETTINGS,
    _V3_DEADLINES_STATS,
    _V4_ROUND_SNAPSHOTS,
    _V5_SCHEDULE,
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
)


def upgrade_lines(migrated: tuple[int, ...]) -> list[str]:
    """One line per migration an upgrade applied (``migration 10: forced turns …``); none for
    a new database (every migration from 1, nothing to tell) or one already current."""
    if not migrated or migrated[0] == 1:
        return []
    return [f"migration {number}: {MIGRATION_NOTES[number - 1]}" for number in migrated]
