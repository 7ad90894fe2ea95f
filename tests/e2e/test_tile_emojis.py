"""The tiles as pictures on the controls (issue 47.3), through the fake Discord: a bot that
starts uploads the tiles' emojis to its application once, a restart lists them and uploads
nothing, and a turn DM's move list shows each tile's emoji beside its notation; when the
application's emojis cannot be listed or the upload stops, the controls are text, as before."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest

from bot.app import MexicanTrainBot, create_bot
from bot.config import Config
from bot.engine import Play
from bot.ui import tileupload
from bot.ui.tileemoji import SET, emoji_name
from renderers.emoji import MAX_BYTES, SIZE
from tests.clock import FakeClock
from tests.e2e.helpers import (
    dm_move,
    game_here,
    last_public,
    open_game,
    play_until,
    said,
    to_move,
    to_turn_dm,
)
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot
from tests.fakediscord.server import API_PREFIX, ApiError

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


# ---------------------------------------------------------------------- an emoji deleted


async def _delete_through_the_api(fake: FakeDiscord, emoji_id: int) -> None:
    """Delete Application Emoji as the portal, or anyone holding the token, does while the
    bot runs: the fake's endpoint, not the bot's client."""
    url = f"{fake.base_url}{API_PREFIX}/applications/{fake.application_id}/emojis/{emoji_id}"
    headers = {"Authorization": "Bot fake-token"}
    async with aiohttp.ClientSession() as http, http.delete(url, headers=headers) as answer:
        assert answer.status == 204


def _refused(fake: FakeDiscord) -> list[str]:
    """The bot's requests Discord refused as an invalid form (here: a component's emoji)."""
    return [f"{r.method} {r.route}" for r in fake.requests if r.error_code == 50035]


def _shows_emojis(message: FakeMessage) -> bool:
    return any("emoji" in o for s in message.selects for o in s["options"])


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    said = [(r.levelno, r.getMessage()) for r in caplog.records]
    return [text for level, text in said if level == logging.WARNING and "tile emoji" in text]


async def test_an_emoji_deleted_mid_match_costs_no_message_and_comes_back(
    fake_discord: FakeDiscord,
    emoji_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The set whole, a tile's emoji deleted in the portal mid-match: Discord refuses the
    whole message that still shows it (400/50035 on its ``emoji.id``). The Play list that
    showed it, and later a turn DM that did, still arrive, once each, their controls text;
    one WARNING each time; the keeper lists again, uploads the deleted one and the emojis
    come back."""
    monkeypatch.setattr(tileupload, "HEAL_AFTER", 0.0)
    caplog.set_level(logging.WARNING)
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    bot = emoji_bot()
    async with running_bot(fake, bot):
        await fake.wait_for(lambda: bot.tile_emojis.whole, timeout=WAIT, what="the set")
        await open_game(fake, bot, games, alice, [bob], preset="quick")
        user, view, dm = await play_until(
            bot, games, users, lambda _u, v, dm: dm is not None
            and sum(isinstance(m, Play) for m in v.legal) >= 2, from_dm=True,
        )  # fmt: skip
        assert dm is not None and _shows_emojis(dm)
        first, second = [m for m in view.legal if isinstance(m, Play)][:2]
        tile = first.tile
        old = fake.emojis.by_name()[emoji_name(tile)]
        await _delete_through_the_api(fake, old.id)
        assert emoji_name(tile) not in fake.emojis.by_name() and not _warnings(caplog)

        # The channel's Play list (an interaction's followup) shows the deleted id: refused,
        # sent again without the emojis, once.
        click = await user.click(last_public(games), label="Play")
        picker = await said(click)
        assert _refused(fake) == ["POST /webhooks/{webhook_id}/{webhook_token}"]
        assert len(click.followups) == 1 and picker.selects and not _shows_emojis(picker)
        assert str(first) in [o["value"] for o in picker.selects[0]["options"]]
        assert len(_warnings(caplog)) == 1 and emoji_name(tile) in _warnings(caplog)[0]
        # The keeper lists again and uploads the one deleted: the set is whole again.
        await fake.wait_for(lambda: bot.tile_emojis.whole, timeout=WAIT, what="healed")
        again = fake.emojis.by_name()[emoji_name(tile)]
        assert again.id != old.id and fake.emojis.created == len(SET) + 1
        assert bot.tile_emojis.shown[tile].id == again.id

        # The player keeps the tile (plays another from the DM); then it is deleted again.
        await dm_move(user, dm, second)
        await _delete_through_the_api(fake, again.id)
        # The next turn DM that lists it (this player's, when the tile can be played):
        # refused, sent again without the emojis, once; every move made from the DMs.
        user, view, dm = await play_until(
            bot, games, users, lambda *_: len(_refused(fake)) == 2, from_dm=True
        )
        assert _refused(fake)[1] == "POST /channels/{channel_id}/messages"  # the turn DM
        assert dm is not None and dm.selects and not _shows_emojis(dm)
        assert dm.files and dm.files[0].data.startswith(b"\x89PNG")  # the hand, sent again
        labels = [str(o["label"]) for o in dm.selects[0]["options"]]
        assert any(label.startswith(f"{tile} → ") for label in labels), labels
        version = (await game_here(bot, games)).version
        turn = [m for m in user.dms() if any(f":{version}:dm:" in str(c.get("custom_id"))
                                             for c in [*m.selects, *m.buttons])]  # fmt: skip
        assert turn == [dm]  # one DM for the turn, no twin
        assert len(_warnings(caplog)) == 2
        # Whole again, and the emojis are back on the next turn DM.
        await fake.wait_for(lambda: bot.tile_emojis.whole, timeout=WAIT, what="healed")
        assert fake.emojis.created == len(SET) + 2
        healed = dm
        _user, _view, dm = await play_until(
            bot, games, users, lambda _u, v, dm: dm not in (None, healed)
            and any(isinstance(m, Play) for m in v.legal), from_dm=True,
        )  # fmt: skip
        assert dm is not None and _shows_emojis(dm)
    assert len(_warnings(caplog)) == 2
