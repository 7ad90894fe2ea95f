"""Settings: a player's own (hand DMs, language, time zone, reminders) and a server's
defaults (preset, house rules, allowed channels, host role), each checked field by field.

:func:`rules_with` is also how a lobby's rules are built (preset + house rules), so a bad
house rule gets the same typed refusal wherever it comes from.
"""

from __future__ import annotations

import dataclasses
import enum
import zoneinfo
from collections.abc import Collection, Mapping
from datetime import UTC, datetime, time, timedelta
from typing import Any, TypeVar

from bot.engine import Rules, RulesError, preset
from bot.service import errors
from bot.service.guards import utc
from bot.store import GuildSettings, Store, UserSettings
from bot.store import stats as extras_sql
from bot.store.schedule import ScheduleStore, ScheduleTx, UserScheduleRow

_S = TypeVar("_S", UserSettings, GuildSettings)

#: The languages a player may choose for their DMs.
LANGUAGES = ("en", "fr")
#: How a player's own pictures may draw the tiles (``renderers.TILE_MODES``; the service
#: does not import the renderers, so the names are repeated here and a test compares them).
TILE_MODES = ("pips", "numerals")
#: How a player may be told it is their turn (``/mt me ping:``): ``auto`` sends ONE ping, a
#: DM where one can be delivered, else a mention in the game's channel.
PINGS = ("auto", "dm", "mention", "both")
#: What a player may let the bot play for them at once (``/mt me autoplay:``): nothing; a turn
#: with no choice at all (``forced``: the draw, the pass); or also the only legal tile play
#: (``only``, the default since issue 46: one legal move is no decision, and a ping for it costs
#: the whole table a wait; ``bot.store.rows.DEFAULT_AUTOPLAY``).
AUTOPLAY = ("off", "forced", "only")
#: The hour of a player's day their daily digest comes at when they switch it on without
#: choosing one (``/mt me digest:True``): early evening, after a working day.
DIGEST_HOUR = 18
#: The reminder intervals ``/mt me remind_after:`` offers, in hours (issue 46: the interval
#: was stored, 12 h, but not offered); any whole number of minutes is kept.
REMIND_AFTER_HOURS = (2, 6, 12, 24)


class Settings:
    """A user's and a server's settings over one store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.store.user_settings(user_id)

    async def update_user_settings(
        self,
        user_id: int,
        now: datetime,
        *,
        dms_open: bool | None = None,
        hand_dms: bool | None = None,
        reminders: bool | None = None,
        reminder_after_s: int | None = None,
        time_zone: str | None = None,
        language: str | None = None,
        tiles: str | None = None,
        ping: str | None = None,
        autoplay: str | None = None,
        quiet_start: int | None = None,
        quiet_end: int | None = None,
        reminder_dms: bool | None = None,
        digest: bool | None = None,
        digest_hour: int | None = None,
    ) -> UserSettings:
        """Change a user's own settings (None leaves one as it is) — the one writer of them,
        ``/mt me`` and the schedule's :meth:`~bot.service.timing.SchedulePlayers.update_my_settings`
        alike, so every field is checked once and all of it lands in one transaction or, on
        a refusal, none of it. ``time_zone`` is an IANA name (``Europe/Paris``); ``language``
        one of :data:`LANGUAGES`; ``tiles`` one of :data:`TILE_MODES`; ``ping`` one of
        :data:`PINGS`; ``autoplay`` one of :data:`AUTOPLAY`. The schedule's own row:
        ``quiet_start``/``quiet_end`` (0-23; equal hours: none; one alone keeps the other,
        or makes both the same), ``reminder_dms`` (reminders by DM) and the daily digest
        (``digest``: one DM a day listing the games waiting on them instead of a DM per turn;
        ``digest_hour``: its hour of their day, 0-23, which switches it on; :data:`DIGEST_HOUR`
        when none was ever chosen). Its next due time follows the hour and the time zone."""
        changes = _given(
            dms_open=dms_open,
            hand_dms=hand_dms,
            reminders=reminders,
            reminder_after_s=reminder_after_s,
            time_zone=time_zone,
            language=language,
            tiles=tiles,
            ping=ping,
            autoplay=autoplay,
        )
        if time_zone is not None:
            changes["time_zone"] = check_time_zone(time_zone)
        for hour in (quiet_start, quiet_end):
            if hour is not None and not 0 <= hour <= 23:
                raise errors.BadSetting("quiet hours are whole hours, 0 to 23", code="bad-quiet")
        new = _replace_checked(await self.store.user_settings(user_id), changes)
        if new.language not in LANGUAGES:
            raise errors.BadSetting(
                f"language must be one of {', '.join(LANGUAGES)}", code="bad-language"
            )
        if new.tiles not in TILE_MODES:
            raise errors.BadSetting(
                f"tiles must be one of {', '.join(TILE_MODES)}", code="bad-tiles"
            )
        if new.ping not in PINGS:
            raise errors.BadSetting(f"ping must be one of {', '.join(PINGS)}", code="bad-ping")
        if new.autoplay is not None and new.autoplay not in AUTOPLAY:
            raise errors.BadSetting(
                f"autoplay must be one of {', '.join(AUTOPLAY)}", code="bad-autoplay"
            )
        if new.reminder_after_s < 60:
            raise errors.BadSetting("a reminder waits at least a minute", code="bad-reminder")
        if digest_hour is not None and not 0 <= digest_hour <= 23:
            raise errors.BadSetting("a digest hour is a whole hour, 0 to 23", code="bad-digest")
        if digest is False and digest_hour is not None:
            raise errors.BadSetting("a digest hour with the digest off", code="digest-off-hour")
        daily = digest is not None or digest_hour is not None
        timed = _given(quiet_start=quiet_start, quiet_end=quiet_end, reminder_dms=reminder_dms)
        schedule = None
        # A new time zone moves a digest's next time; DMs switched off cannot carry one.
        if timed or daily or time_zone is not None or hand_dms is False:
            schedule = await ScheduleStore(self.store).user_schedule(user_id)
            if quiet_start is not None or quiet_end is not None:
                start = quiet_start if quiet_start is not None else schedule.quiet_start
                end = quiet_end if quiet_end is not None else schedule.quiet_end
                if start is None or end is None:
                    start = end = start if start is not None else end
                schedule = dataclasses.replace(schedule, quiet_start=start, quiet_end=end)
            if reminder_dms is not None:
                schedule = dataclasses.replace(schedule, remind_dm=reminder_dms)
            schedule = _daily(schedule, digest, digest_hour, new.time_zone, utc(now))
            if schedule.digest_hour is not None and not new.hand_dms:
                raise errors.BadSetting("the daily digest is a DM", code="digest-no-dms")
            if not (timed or daily) and schedule.digest_hour is None:
                schedule = None  # no digest to move or to refuse: the schedule's row stays
        now = utc(now)
        async with self.store.transaction() as tx:
            # A change of the schedule's row alone leaves a user with no settings row
            # without one (a first game still gives it the client's language).
            if changes or schedule is None:
                await tx.put_user_settings(new, now)
            if schedule is not None:
                await ScheduleTx(tx).put_user_schedule(schedule, now)
        return new

    async def remember_dm_channel(
        self, user_id: int, channel_id: int | None, now: datetime
    ) -> None:
        """Keep a user's DM channel (None forgets it: Discord said it is gone), touching no
        other setting."""
        async with self.store.transaction() as tx:
            await tx.put_dm_channel(user_id, channel_id, utc(now))

    async def has_user_settings(self, user_id: int) -> bool:
        """Whether the user has ever had settings stored (chosen, or given at a first game)."""
        return await extras_sql.has_user_settings(self.store, user_id)

    async def server_languages(self) -> dict[int, str]:
        """Every server's chosen language for channel messages (``/mt-admin settings
        language:``)."""
        return await extras_sql.all_guild_languages(self.store)

    async def server_language(self, guild_id: int) -> str | None:
        return await extras_sql.guild_language(self.store, guild_id)

    async def set_server_language(self, guild_id: int, language: str | None, now: datetime) -> None:
        """Choose (or with None, forget) a server's language for channel messages."""
        async with self.store.transaction() as tx:
            await extras_sql.set_guild_language(tx, guild_id, language, utc(now))

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    async def update_guild_settings(
        self,
        guild_id: int,
        now: datetime,
        *,
        is_manager: bool,
        preset_name: str | None = None,
        house_rules: Mapping[str, Any] | None = None,
        allowed_channels: Collection[int] | None = None,
        host_role_id: int | None = None,
        clear_host_role: bool = False,
        threads: bool | None = None,
    ) -> GuildSettings:
        """Change a server's settings (server managers only; None leaves one as it is). An
        empty ``allowed_channels`` allows every channel."""
        if not is_manager:
            raise errors.ServiceError(
                "only a server manager can change the server's settings", code="not-manager"
            )
        changes = _given(
            preset=preset_name,
            house_rules=None if house_rules is None else dict(house_rules),
            allowed_channels=None if allowed_channels is None else tuple(allowed_channels),
            host_role_id=host_role_id,
            threads=threads,
        )
        new = _replace_checked(await self.store.guild_settings(guild_id), changes)
        if clear_host_role:
            new = dataclasses.replace(new, host_role_id=None)
        rules_with(preset_rules(new.preset), new.house_rules)  # refuse defaults that cannot play
        async with self.store.transaction() as tx:
            await tx.put_guild_settings(new, utc(now))
        return new


def preset_rules(name: str) -> Rules:
    try:
        return preset(name)
    except RulesError as exc:
        raise errors.BadRules(str(exc), code="bad-preset", preset=name) from None


def rules_with(base: Rules, overrides: Mapping[str, Any]) -> Rules:
    """``base`` with house rules switched on top, checked field by field (typed errors)."""
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    for key, value in overrides.items():
        f = fields.get(key)
        if f is None:
            raise errors.BadRules(f"there is no house rule {key!r}", code="unknown-rule", rule=key)
        current = getattr(base, key)
        kind = str(f.type)
        if isinstance(current, enum.Enum):
            ok = isinstance(value, str | type(current))
        elif isinstance(current, bool):
            ok = isinstance(value, bool)
        else:
            ok = (value is None and "None" in kind) or (
                isinstance(value, int) and not isinstance(value, bool)
            )
        if not ok:
            raise errors.BadRules(
                f"{value!r} is not a value for {key}", code="bad-rule-value", rule=key
            )
    try:
        return Rules.from_dict({**base.to_dict(), **overrides}).check()
    except (RulesError, TypeError) as exc:
        raise errors.BadRules(str(exc)) from None


def _daily(
    row: UserScheduleRow, digest: bool | None, hour: int | None, zone: str, now: datetime
) -> UserScheduleRow:
    """``row`` with the daily digest as asked (on at ``hour``, on at the hour it had or
    :data:`DIGEST_HOUR`, or off), its next due time computed in the player's ``zone``."""
    if digest is False:
        return dataclasses.replace(row, digest_hour=None, digest_due_at=None)
    if hour is None and digest:
        hour = row.digest_hour if row.digest_hour is not None else DIGEST_HOUR
    hour = hour if hour is not None else row.digest_hour
    if hour is None:
        return row
    return dataclasses.replace(row, digest_hour=hour, digest_due_at=next_digest(now, zone, hour))


def next_digest(now: datetime, time_zone: str, hour: int) -> datetime:
    """The first ``hour``:00 of the player's own day (in ``time_zone``) after ``now``, as UTC:
    when their next daily digest is due, on the right day across daylight saving changes (an
    hour a spring-forward skips reads with the old offset: the instant after the gap)."""
    try:
        zone = zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    day = now.astimezone(zone).date()
    while True:
        when = datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)
        if when > now:
            return when
        day += timedelta(days=1)


def _given(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _replace_checked(current: _S, changes: Mapping[str, Any]) -> _S:
    """``current`` with ``changes``, refusing values of the wrong type (typed errors)."""
    for key, value in changes.items():
        old = getattr(current, key)
        ok = old is None or type(old) is type(value)
        if isinstance(old, tuple):
            ok = all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        if not ok:
            raise errors.BadSetting(f"{value!r} is not a value for {key}", code="bad-setting")
    return dataclasses.replace(current, **changes)


def check_time_zone(name: str) -> str:
    """``name`` as a time zone is kept (an IANA name, spaces around it dropped), or the one
    refusal every setting of a time zone gives (``/mt me time_zone:``, the schedule's own)."""
    name = name.strip()
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise errors.BadSetting(
            f"{name!r} is not a time zone (try Europe/Paris)", code="bad-time-zone", zone=name
        ) from None
    return name
