"""The SQLite schema's first five migrations: the game itself, as first released.

Games, seats and the event log (1), server and channel settings (2), turn deadlines and
statistics (3), round snapshots (4) and the scheduler's due work (5): what a match needs to be
played over days. :mod:`bot.store.schema` holds every later one, what running the bot taught,
and the numbered list that runs them all; a released migration is never edited here either.
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


#: Migrations 1 to 5, in order (``MIGRATIONS[:5]`` in :mod:`bot.store.schema`).
FIRST_MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    _V1_CORE,
    _V2_SETTINGS,
    _V3_DEADLINES_STATS,
    _V4_ROUND_SNAPSHOTS,
    _V5_SCHEDULE,
)
