"""A phone-sized turn DM at any table size (issue 34, item 6): 10 players with 32-character
names through two rounds of a double-15 match; every turn DM's text, in both languages, is at
most 1,200 characters and 30 phone lines, names are cut as the picture cuts them and never
two alike, where to play is grouped by train, and from the second round on one line says
where the reader stands."""

from __future__ import annotations

from bot.i18n import LANGUAGES
from bot.service import GameService
from bot.ui.dmturn import DM_CHARS, DM_LINES, phone_lines, turn_dm_text
from bot.ui.pictures import short_names
from tests.clock import FakeClock
from tests.service.conftest import CHANNEL, GUILD
from tests.service.helpers import pick

PLAYERS = 10
NAMES = [f"Bartholomew Fitzgerald-Ngozi {i:03d}" for i in range(PLAYERS)]
USERS = [100 + i for i in range(PLAYERS)]


async def test_every_turn_dm_fits_a_phone_at_10_players_with_32_character_names(
    service: GameService, clock: FakeClock
) -> None:
    assert {len(n) for n in NAMES} == {32}
    out = await service.create_lobby(
        guild_id=GUILD, channel_id=CHANNEL, user_id=USERS[0], display_name=NAMES[0],
        now=clock.tick(), preset_name="double-15",
    )  # fmt: skip
    gid = out.game.id
    for uid, name in zip(USERS[1:], NAMES[1:], strict=True):
        await service.join(gid, uid, name, clock.tick())
    await service.start(gid, USERS[0], clock.tick())
    short = short_names(NAMES)
    assert len({s.casefold() for s in short}) == PLAYERS and max(map(len, short)) < 20
    checked = standings_lines = 0
    told_round_end: set[int] = set()
    for turn in range(3000):
        game = await service.game(gid)
        if game.round_no is None or game.round_no >= 2 or game.turn is None:
            break
        uid = game.turn.user_id
        assert uid is not None
        view = await service.seat_view(gid, uid)
        # A sample of the turns, both languages, and every player's first turn of round 2
        # (their digest tells round 1's end and everyone's totals).
        first_of_round_2 = game.round_no == 1 and uid not in told_round_end
        if turn % 7 == 0 or first_of_round_2:
            digest = await service.digest(gid, uid)
            standings = await service.standings(gid)
            for lang in LANGUAGES:
                text = turn_dm_text("🎲 Your turn in game #1 (<#2000>).", game, digest, view,
                                    standings, lang)  # fmt: skip
                assert len(text) <= DM_CHARS and phone_lines(text) <= DM_LINES, text
                assert not any(n in text for n in NAMES), "a name was not cut"
                # Where to play: one line per train, never one per tile.
                arrows = [line for line in text.splitlines() if line.startswith("→ ")]
                assert len(arrows) == len({line.split(":")[0] for line in arrows})
                standings_lines += "📊" in text
                # Where they stand, said once: the digest's totals or the "You: 3rd" line.
                assert sum(line.startswith("📊") for line in text.splitlines()) <= 1, text
                if first_of_round_2 and "📊 Totals" in text:
                    told_round_end.add(uid)
                checked += 1
            if game.round_no >= 1:
                assert "📊" in text
        await service.move(gid, uid, pick(view.legal), clock.tick())
    assert checked > 20 and standings_lines > 0 and told_round_end  # a round's end was told
