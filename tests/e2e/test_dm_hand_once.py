"""A turn DM shows the hand once (issue 47): with its picture, the card's words do not list
the tiles again (the picture shows the hand and marks what plays; the move list under it
names the moves); without a picture (it could not be drawn), the words carry every tile and
where it plays, so the DM is still all a player needs."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.drawing import jobs
from bot.engine import Match, Rules, SeatView, Tile, view_for
from bot.engine.simulate import random_move
from bot.ui.dmturn import hand_lines
from tests.e2e.helpers import open_game, play_until, to_turn_dm
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot
from tests.ui.test_french_marks import _game


def _named(text: str, tile: Tile) -> int:
    """How many times ``text`` names ``tile`` (either way round, as a tile, not inside another)."""
    ways = {f"{tile.high}-{tile.low}", f"{tile.low}-{tile.high}"}
    return sum(len(re.findall(rf"(?<![\d-]){re.escape(w)}(?![\d-])", text)) for w in ways)


def _hand(view: SeatView) -> list[Tile]:
    assert view.hand is not None
    return list(view.hand)


async def test_a_turn_dm_names_the_hand_once_with_its_picture_and_in_full_without(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()  # pictures drawn in this process, so the renderer can be broken
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        _user, view, dm = await to_turn_dm(bot, games, users)
        assert dm.card and dm.images() and dm.alt_texts  # the picture, described
        for tile in _hand(view):
            assert _named(dm.text, tile) <= 1, (tile, dm.text)
        assert "Your hand" in dm.text  # the words still say what the picture is
        assert dm.selects or dm.button_labels[:1] in (["Draw"], ["Pass"])

        def broken(*args: object) -> bytes:
            raise ValueError("the renderer hit a bug")

        monkeypatch.setattr(jobs, "draw_hand", broken)

        def unpictured(_u: object, _v: SeatView, dm: FakeMessage | None) -> bool:
            return dm is not None and not dm.images()

        _user, view, plain = await play_until(bot, games, users, unpictured)
        assert plain is not None and not plain.alt_texts
        for tile in _hand(view):
            assert _named(plain.text, tile) >= 1, (tile, plain.text)
        assert "You can play" in plain.text or "nothing fits" in plain.text


def test_the_pictured_hand_s_words_in_english_and_french_name_no_tile() -> None:
    rng = random.Random(3)
    m = Match(Rules(max_pip=12), ["Alice", "Bob", "Carol"])
    m.start_round(m.shuffle(rng))
    seen: set[str] = set()
    for _ in range(80):
        assert m.round is not None
        if m.round.result is not None:
            break
        view = view_for(m, m.round.current)
        for lang in ("en", "fr"):
            said_ = hand_lines(view, _game(), lang, pictured=True)
            assert not [t for t in _hand(view) if _named(said_, t)], said_
            full = hand_lines(view, _game(), lang)
            assert all(_named(full, t) for t in _hand(view)), full
            seen.add(said_.splitlines()[-1])
        m.apply(random_move(m.round, rng))
    assert "It's your turn: pick your move in the list under the picture." in seen
    assert "À toi de jouer : choisis ton coup dans la liste sous l'image." in seen
    assert any(s.startswith("À toi de jouer et rien ne va : ") for s in seen)
