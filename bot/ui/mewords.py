"""The words of ``/mt me`` (the player's own settings, their reminders and their cadence) and
the reading of its reminder options: apart from the command (``bot/cogs/admin.py``), which
only gathers the options and saves them."""

from __future__ import annotations

import zoneinfo

from bot.digits import read_int
from bot.i18n import tr
from bot.service.settings import REMIND_AFTER_HOURS
from bot.service.timing import MySettings
from bot.ui import messages
from bot.ui.interactions import Interaction, bot_of, locale_of
from bot.ui.refusals import Refusal


def remind_choice(reminders: bool | None, after: str | None) -> tuple[bool | None, int | None]:
    """``/mt me reminders:`` and ``remind_after:`` read together: (reminders on, seconds
    into a turn). ``never`` is reminders off; an interval, reminders on; the two disagreeing
    is refused, naming both."""
    if after is None:
        return reminders, None
    if after == "never":
        on, seconds = False, None
    else:
        hours = read_int(after, max_digits=2)
        if hours is None or hours not in REMIND_AFTER_HOURS:
            raise Refusal("error.bad-remind-after")
        on, seconds = True, hours * 3600
    if reminders is not None and reminders != on:
        raise Refusal("error.remind-conflict", on=reminders, after=after)
    return on, seconds


async def me_text(interaction: Interaction) -> str:
    """The time-zone part of ``/mt me``'s answer: the user's settings as they now stand."""
    bot = bot_of(interaction)
    locale = locale_of(interaction)
    mine = await bot.schedule.my_settings(interaction.user.id)
    s, sc = mine.settings, mine.schedule
    if sc.quiet_start is None or sc.quiet_end is None or sc.quiet_start == sc.quiet_end:
        quiet = tr("schedule.me.none", locale)
    else:
        quiet = tr("schedule.me.quiet", locale, start=sc.quiet_start, end=sc.quiet_end)
    if not s.reminders or sc.digest_hour is not None:  # a digest player gets no reminder
        how = tr("schedule.me.off", locale)
    else:
        how = tr("schedule.me.dm" if sc.remind_dm and s.dms_open else "schedule.me.channel", locale)
        how += ", " + remind_after_text(s.reminder_after_s, locale)
    local = bot.now().astimezone(zoneinfo.ZoneInfo(s.time_zone)).strftime("%H:%M")
    return (
        tr(
            "schedule.me",
            locale,
            zone=s.time_zone,
            local=local,
            quiet=quiet,
            how=how,
            away=tr("word.on" if sc.away else "word.off", locale),
        )
        + "\n"
        + cadence_text(mine, locale)
    )


def remind_after_text(seconds: int, locale: str | None) -> str:
    """When a reminder comes in a turn without a deadline: "12 h into a turn…"."""
    if seconds % 3600 == 0:
        return tr("me.remind-after", locale, hours=seconds // 3600)
    return tr("me.remind-minutes", locale, minutes=seconds // 60)


def cadence_text(mine: MySettings, locale: str | None) -> str:
    """``/mt me``'s line on the player's cadence: a ping per turn, or the daily digest (its
    hour, zone and next time)."""
    s, sc = mine.settings, mine.schedule
    if sc.digest_hour is None:
        return tr("me.cadence", locale, turns=tr("me.per-turn", locale))
    when = "" if sc.digest_due_at is None else messages.timestamp(sc.digest_due_at)
    turns = tr("me.digest", locale, hour=sc.digest_hour, zone=s.time_zone, when=when)
    return tr("me.cadence", locale, turns=turns)
