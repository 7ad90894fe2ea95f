"""The tiles as pictures on the controls (issue 47.3), through the fake Discord: a bot that
starts uploads the tiles' emojis to its application once, a restart lists them and uploads
nothing, and a turn DM's move list shows each tile's emoji beside its notation; when the
application's emojis cannot be listed or the upload stops, the controls are text, as before."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine import Play
from bot.ui import tileupload
from bot.ui.tileemoji import SET, emoji_name
from renderers.emoji import MAX_BYTES, SIZE
from tests.clock import FakeClock
from tests.e2e.helpers import game_here, last_public, open_game, said, to_move, to_turn_dm
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot
from tests.fakediscord.server import ApiError

LIST = "/applications/{app_id}/emojis"
WAIT = 120.0


@pytest.fixture
def emoji_bot(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> Callable[[], MexicanTrainBot]:
    """A bot with ``MT_TILE_EMOJIS`` on (a ``Config`` built in code has it off), uploading
    without the production pause between two emojis (the fake has no other traffic then)."""
    monkeypatch.setattr(tileupload, "PACE", 0.0)

    def make() -> MexicanTrainBot:
        config = Config(database=db_path, synchronous="NORMAL", render_workers=0,
                        think_workers=0, tile_emojis=True)  # fmt: skip
        return create_bot(config, clock=clock, rng=random.Random(7))

    return make


def _emoji_requests(fake: FakeDiscord) -> tuple[int, int]:
    """(lists, uploads) of the application's emojis the bot made so far."""
    calls = [r for r in fake.requests if r.route == LIST]
    return sum(r.method == "GET" for r in calls), sum(r.method == "POST" for r in calls)


def _turn_dm_options(dm: FakeMessage) -> list[dict[str, object]]:
    assert dm.selects, "the turn DM has a move list"
    options = dm.selects[0]["options"]
    assert isinstance(options, list)
    return options


async def test_the_set_is_uploaded_once_and_the_move_list_shows_it(
    fake_discord: FakeDiscord, emoji_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = emoji_bot()
    async with running_bot(fake, bot):
        await fake.wait_for(lambda: bot.tile_emojis.whole, timeout=WAIT, what="the set")
    assert _emoji_requests(fake) == (1, len(SET)) == (1, 190)
    owned = fake.emojis.by_name()
    assert set(owned) == set(SET) and fake.emojis.created == 190
    for emoji in owned.values():  # Discord's 128x128 image, under its 256 KiB
        assert emoji.image.startswith(b"\x89PNG") and len(emoji.image) < MAX_BYTES
        assert int.from_bytes(emoji.image[16:20]) == int.from_bytes(emoji.image[20:24]) == SIZE

    # A restart lists them again and uploads nothing.
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    bot = emoji_bot()
    async with running_bot(fake, bot):
        await fake.wait_for(lambda: bot.tile_emojis.whole, timeout=WAIT, what="the set")
        assert _emoji_requests(fake) == (2, 190) and fake.emojis.created == 190
        await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        _user, view, dm = await to_turn_dm(bot, games, users)
        plays = {str(m): m for m in view.legal if isinstance(m, Play)}
        assert plays, "a turn with a tile to play"
        for option in _turn_dm_options(dm):
            move = plays.get(str(option["value"]).split("|")[0])
            if move is None:  # Draw or Pass: words only
                assert "emoji" not in option
                continue
            # The tile's own emoji, and its notation as the text a screen reader says.
            emoji = option["emoji"]
            assert isinstance(emoji, dict) and emoji["name"] == emoji_name(move.tile)
            assert str(emoji["id"]) == str(owned[emoji_name(move.tile)].id)
            label, value = str(option["label"]), str(option["value"])
            if "|then:" in value:  # the one-tap order in the list: "📋 12-1, then keep playing…"
                assert f"📋 {move.tile}, " in label
            else:
                assert label.startswith(f"{move.tile} → ")
        for button in dm.buttons:  # the one-tap order names its first tile: its emoji
            if "📋" in str(button.get("label")):
                first = str(button["custom_id"]).split(":")[-1].split(".")[0]
                assert button["emoji"]["name"] == f"mt_{first.replace('-', '_')}"
        # The channel's move list too (the turn post's Play, answered to the player alone).
        uid, view = await to_move(bot, (await game_here(bot, games)).id)
        picker = await said(await users[uid].click(last_public(games), label="Play"))
        for option in picker.selects[0]["options"]:
            move = next((m for m in view.legal if str(m) == option["value"]), None)
            if isinstance(move, Play):
                assert option["emoji"]["name"] == emoji_name(move.tile)
    assert _emoji_requests(fake) == (2, 190)


@pytest.mark.parametrize("failing", ["list", "upload"])
async def test_without_the_whole_set_the_controls_are_text(
    fake_discord: FakeDiscord, emoji_bot: Callable[[], MexicanTrainBot], failing: str
) -> None:
    """The list refused (a 403), or the upload stopped after some emojis (a 500): the move
    list shows no emoji, its options as before; the next start uploads the rest."""
    fake = fake_discord
    if failing == "list":
        fake.refuse("GET", LIST, ApiError(403, 50001, "Missing Access"))
    else:
        fake.refuse(
            "POST", LIST, ApiError(400, 30008, "Maximum number of emojis reached"),
            when=lambda _r: fake.emojis.created >= 20,
        )  # fmt: skip
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    bot = emoji_bot()
    async with running_bot(fake, bot):
        await fake.wait_for(lambda: fake.refusals.served == 1, timeout=WAIT, what="refusal")
        assert not bot.tile_emojis.whole
        assert fake.emojis.created == (0 if failing == "list" else 20)
        await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        _user, _view, dm = await to_turn_dm(bot, games, users)
        options = _turn_dm_options(dm)
        assert options and all("emoji" not in o for o in options)
    bot = emoji_bot()
    async with running_bot(fake, bot):
        await fake.wait_for(lambda: bot.tile_emojis.whole, timeout=WAIT, what="the set")
    assert fake.emojis.created == 190 and set(fake.emojis.by_name()) == set(SET)
