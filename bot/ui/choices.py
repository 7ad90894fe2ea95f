"""The choices slash-command options offer, shared by the cogs that declare those options.

Discord shows a choice's English name (translated through :mod:`bot.ui.translator`) and sends
its value; the time zone option autocompletes from :func:`zone_choices` instead, since there
are too many zones for a fixed list.
"""

from __future__ import annotations

import zoneinfo

from discord import app_commands

from bot.engine import PRESETS
from bot.service.settings import REMIND_AFTER_HOURS
from bot.service.timing import DEADLINE_HOURS
from bot.ui import limits
from bot.ui.interactions import Interaction
from bot.ui.options import quiet_autocomplete

#: Every text option has a ``max_length`` (Discord then refuses longer text in the client,
#: and :mod:`bot.ui.options` checks it again): one of the choices (their values are at most
#: 100 characters), a time zone; a tile and a train are :mod:`bot.ui.options`' own.
ChoiceText = app_commands.Range[str, 1, 100]
ZoneText = app_commands.Range[str, 1, 64]
#: A day typed as text (a season's first and last: ``2027-01-31``), with room to spare.
DateText = app_commands.Range[str, 1, 40]

PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in PRESETS]
LANGUAGE_CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Français", value="fr"),
]
#: How a player's own pictures draw the tiles (``/mt me tiles:``; ``renderers.TILE_MODES``).
TILE_CHOICES = [
    app_commands.Choice(name="pips with numbers", value="pips"),
    app_commands.Choice(name="big numbers (high contrast)", value="numerals"),
]
#: How a player hears that their turn came (``/mt me ping:``; ``bot.service.settings.PINGS``).
PING_CHOICES = [
    app_commands.Choice(name="one ping: a DM, or a mention if DMs fail (default)", value="auto"),
    app_commands.Choice(name="a DM", value="dm"),
    app_commands.Choice(name="a mention in the game's channel", value="mention"),
    app_commands.Choice(name="both a DM and a mention", value="both"),
]
#: What the bot may play for a player at once (``/mt me autoplay:``;
#: ``bot.service.settings.AUTOPLAY``).
AUTOPLAY_CHOICES = [
    app_commands.Choice(name="off: always wait for me", value="off"),
    app_commands.Choice(name="forced: a draw or a pass with no choice", value="forced"),
    app_commands.Choice(name="only-move: also my only legal move (default)", value="only"),
]
#: How long into a turn without a deadline a player is reminded (``/mt me remind_after:``;
#: ``bot.service.settings.REMIND_AFTER_HOURS``), or never (reminders off).
REMIND_AFTER_CHOICES = [
    app_commands.Choice(name="12 h (default)" if h == 12 else f"{h} h", value=str(h))
    for h in REMIND_AFTER_HOURS
] + [app_commands.Choice(name="never", value="never")]
#: A server's language for channel messages; "auto" goes back to its Discord locale.
SERVER_LANGUAGE_CHOICES = [
    *LANGUAGE_CHOICES,
    app_commands.Choice(name="server's Discord language", value="auto"),
]


#: Offered first by the time zone autocomplete; any IANA name is accepted.
COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Brussels",
    "Europe/Amsterdam",
    "Europe/Zurich",
    "Europe/Lisbon",
    "Europe/Athens",
    "Europe/Moscow",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Phoenix",
    "America/Los_Angeles",
    "America/Anchorage",
    "America/Toronto",
    "America/Montreal",
    "America/Vancouver",
    "America/Mexico_City",
    "America/Sao_Paulo",
    "America/Buenos_Aires",
    "Pacific/Honolulu",
    "Africa/Casablanca",
    "Africa/Dakar",
    "Africa/Abidjan",
    "Africa/Lagos",
    "Africa/Johannesburg",
    "Indian/Reunion",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Bangkok",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Australia/Perth",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Pacific/Noumea",
    "Pacific/Tahiti",
    "America/Martinique",
    "America/Guadeloupe",
)

DEADLINE_CHOICES = [app_commands.Choice(name="none", value=0)] + [
    app_commands.Choice(name=f"{h} h", value=h) for h in DEADLINE_HOURS
]
POLICY_CHOICES = [
    app_commands.Choice(name="computer plays that turn (default)", value="computer"),
    app_commands.Choice(name="skip: draw and pass", value="skip"),
    app_commands.Choice(name="computer takes the seat after K missed turns", value="replace"),
]


def zone_choices(typed: str) -> list[app_commands.Choice[str]]:
    """Time zones matching what was typed: common ones first, then any IANA name (25 max)."""
    needle = typed.strip().lower().replace(" ", "_")
    out = [z for z in COMMON_ZONES if needle in z.lower()]
    if len(out) < limits.CHOICES and needle:
        extra = sorted(z for z in zoneinfo.available_timezones() if needle in z.lower())
        out += [z for z in extra if z not in out]
    return [app_commands.Choice(name=z, value=z) for z in out[: limits.CHOICES]]


@quiet_autocomplete
async def time_zone_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return zone_choices(current)
