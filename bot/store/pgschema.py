"""The PostgreSQL schema as numbered migrations, tracked in the ``schema_migrations`` table.

Migration *n* here builds what SQLite's migration *n* (:mod:`bot.store.schema`) builds, with the
same tables, columns, keys and trigger behaviour, so one schema version means one schema in
both stores and ``store copy`` moves rows column for column. Each runs in one transaction with
its row in ``schema_migrations``, under an advisory lock, so two processes starting at once
apply it exactly once. A released migration is never edited: a change is a new migration at
the end, made in both files. The first five are :mod:`bot.store.pgfirstschema`'s, as on SQLite.

Where PostgreSQL differs, on purpose:

- Discord ids and every id are ``BIGINT``; game ids come from an identity column.
- Times stay the fixed-width UTC ISO-8601 text of the SQLite store (see
  :func:`bot.store.rows.to_db_time`): they sort as they compare, the shared SQL compares them
  the same way, and a copy moves them byte for byte. Flags stay 0/1 integers for the same reason.
- Event payloads stay ``TEXT``: the log keeps exactly the bytes that were written.
- The append-only log is guarded by a trigger that refuses UPDATE, DELETE and TRUNCATE.
- ``due_work`` has two more columns, ``claimed_by``/``claimed_until``: the lease a process
  takes on scheduled work (:meth:`bot.store.postgres.PgStore.claim_due`), cleared by a trigger
  whenever the row is re-planned. SQLite has no such columns: one process serves a file.
- No backfill statements (SQLite's migration 5 planned work for games already running): a
  PostgreSQL database is always created by the full list, so there is nothing to backfill.
"""

from __future__ import annotations

from typing import Final

from bot.store.pgfirstschema import PG_FIRST_MIGRATIONS

_V6_STATS_LANGUAGE = (
    """
    CREATE TABLE player_stats (
        game_id       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat          INTEGER NOT NULL,
        guild_id      BIGINT NOT NULL,
        user_id       BIGINT,
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
    )
    """,
    """
    CREATE INDEX player_stats_by_player ON player_stats (guild_id, user_id, finished_at)
        WHERE user_id IS NOT NULL
    """,
    """
    CREATE TABLE guild_language (
        guild_id   BIGINT PRIMARY KEY,
        language   TEXT NOT NULL CHECK (language IN ('en', 'fr')),
        updated_at TEXT NOT NULL
    )
    """,
)

_V7_META = (
    # Small facts about the installation itself (e.g. the hash of the last synced command
    # tree), by key. Same name and columns as SQLite's migration 7.
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )
    """,
)

_V8_TILE_MODE = (
    # How a player wants the tiles of their own pictures drawn (``/mt me tiles:``). Same
    # column and check as SQLite's migration 8.
    """
    ALTER TABLE user_settings ADD COLUMN tiles TEXT NOT NULL DEFAULT 'pips'
        CHECK (tiles IN ('pips', 'numerals'))
    """,
)

_V9_BUDGET_THREADS_EXPERT = (
    # DM channel ids, how a player is pinged, games in threads by default, and room for an
    # Expert level (not offered: see SQLite's migration 9). Same columns and checks as
    # SQLite's migration 9 (which must rebuild seats).
    "ALTER TABLE user_settings ADD COLUMN dm_channel_id BIGINT",
    """
    ALTER TABLE user_settings ADD COLUMN ping TEXT NOT NULL DEFAULT 'auto'
        CHECK (ping IN ('auto', 'dm', 'mention', 'both'))
    """,
    """
    ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 0
        CHECK (threads IN (0, 1))
    """,
    "ALTER TABLE seats DROP CONSTRAINT seats_computer_check",
    """
    ALTER TABLE seats ADD CONSTRAINT seats_computer_check
        CHECK (computer IS NULL OR computer IN ('easy', 'normal', 'hard', 'expert'))
    """,
)

_V10_AUTOPLAY = (
    # What a player lets the bot play for them at once (see SQLite's migration 10). Same
    # column and check.
    """
    ALTER TABLE user_settings ADD COLUMN autoplay TEXT NOT NULL DEFAULT 'forced'
        CHECK (autoplay IN ('off', 'forced', 'only'))
    """,
)

_V11_EVENT_ARCHIVE = (
    # A finished match's log, compacted into one row (see SQLite's migration 11).
    """
    CREATE TABLE event_archive (
        game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        events  BYTEA NOT NULL,
        count   INTEGER NOT NULL CHECK (count >= 0)
    )
    """,
    # The log stays append-only: an event may leave ``events`` only into the archive row of
    # its finished match (a row that already holds it); UPDATE and TRUNCATE stay refused.
    """
    CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            IF EXISTS (
                SELECT 1 FROM event_archive a JOIN games g ON g.id = a.game_id
                WHERE a.game_id = OLD.game_id AND g.status = 'finished' AND a.count >= OLD.seq
            ) THEN
                RETURN OLD;
            END IF;
        END IF;
        RAISE EXCEPTION 'the event log is append-only'
            USING ERRCODE = 'integrity_constraint_violation',
                  CONSTRAINT = 'events_append_only';
    END
    $$
    """,
)

_V12_OUTBOX = (
    # What a committed move still owes the players (issue 37). Same table, columns and index
    # as SQLite's migration 12.
    """
    CREATE TABLE outbox (
        game_id       BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        from_seq      INTEGER NOT NULL,
        version       INTEGER NOT NULL,
        post_owed     INTEGER NOT NULL DEFAULT 1 CHECK (post_owed IN (0, 1)),
        ping_user     BIGINT,
        attempts      INTEGER NOT NULL DEFAULT 0,
        due_at        TEXT NOT NULL,
        claimed_by    TEXT,
        claimed_until TEXT
    )
    """,
    "CREATE INDEX outbox_by_due ON outbox (due_at)",
)

#: The end of a match in the outbox's debt (issue 37): as SQLite's migration 13.
_V13_OUTBOX_END = ("ALTER TABLE outbox ADD COLUMN end_users TEXT",)

#: A draw held for the next post (issue 34): as SQLite's migration 14.
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
        game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        guild_id     BIGINT NOT NULL,
        user_id      BIGINT,
        computer     TEXT,
        finished_at  TEXT NOT NULL,
        rank         INTEGER NOT NULL,
        mu_before    DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu_after     DOUBLE PRECISION NOT NULL,
        sigma_after  DOUBLE PRECISION NOT NULL,
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
        guild_id BIGINT NOT NULL,
        user_id  BIGINT NOT NULL,
        mu       DOUBLE PRECISION NOT NULL,
        sigma    DOUBLE PRECISION NOT NULL,
        games    INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE rating_games (
        game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        guild_id BIGINT NOT NULL
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
        id           BIGINT PRIMARY KEY,
        guild_id     BIGINT NOT NULL,
        name         TEXT NOT NULL,
        starts_at    TEXT NOT NULL,
        ends_at      TEXT NOT NULL,
        preset       TEXT NOT NULL,
        rules        TEXT NOT NULL,
        channel_id   BIGINT NOT NULL,
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
        game_id   BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        season_id BIGINT,
        rated     INTEGER NOT NULL CHECK (rated IN (0, 1))
    )
    """,
    """
    CREATE TABLE league_players (
        season_id BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        user_id   BIGINT NOT NULL,
        name      TEXT NOT NULL,
        joined_at TEXT NOT NULL,
        table_no  INTEGER,
        PRIMARY KEY (season_id, user_id)
    )
    """,
    """
    CREATE TABLE league_tables (
        season_id BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        table_no  INTEGER NOT NULL,
        division  INTEGER NOT NULL,
        game_id   BIGINT,
        PRIMARY KEY (season_id, table_no)
    )
    """,
    """
    CREATE TABLE league_divisions (
        guild_id BIGINT NOT NULL,
        user_id  BIGINT NOT NULL,
        division INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    )
    """,
    """
    CREATE TABLE league_moves (
        season_id BIGINT NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        user_id   BIGINT NOT NULL,
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
        game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
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
        game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id    BIGINT NOT NULL,
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

#: ``autoplay: only`` becomes the default (see SQLite's migration 17): the column holds what a
#: player chose, NULL for the default; a stored ``forced`` becomes the default.
_V19_AUTOPLAY_DEFAULT = (
    "ALTER TABLE user_settings ALTER COLUMN autoplay DROP NOT NULL",
    "ALTER TABLE user_settings ALTER COLUMN autoplay DROP DEFAULT",
    "UPDATE user_settings SET autoplay = NULL WHERE autoplay = 'forced'",
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

#: ``PG_MIGRATIONS[n - 1]`` takes the schema from version ``n - 1`` to ``n``.
PG_MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    *PG_FIRST_MIGRATIONS,
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
PG_SCHEMA_VERSION: Final = len(PG_MIGRATIONS)
