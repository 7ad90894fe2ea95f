"""A turn DM cuts each name one way (issue 47): its words and its move list name a player's
train alike ("15-5 → Alice_The…'s train (@1)" under "Alice_The…'s train" in the text), not the
whole 32-character name in the list under a cut one in the words."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.drawing.jobs import cut_names
from bot.engine import SeatView
from tests.e2e.helpers import game_here, open_game, play_until
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, running_bot

TAIL = "_The_Magnificent_Train_Rider_"


def _labels(dm: FakeMessage) -> list[str]:
    return [str(o.get("label")) for s in dm.selects for o in s.get("options", [])]


async def test_the_move_list_names_trains_as_the_dm_s_words_do(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    people = [fake.user((n + TAIL).ljust(32, "x")[:32]) for n in ("alice", "bob", "carol")]
    users = {u.id: u for u in people}
    bot = make_bot()
    async with running_bot(fake, bot):
        await open_game(fake, bot, games, people[0], people[1:], preset="quick")
        game = await game_here(bot, games)
        full = [p.name for p in game.players]
        cut = cut_names(full)
        assert all(c != f for c, f in zip(cut, full, strict=True))  # every name is cut

        def onto_another_train(_u: FakeUser, _v: SeatView, dm: FakeMessage | None) -> bool:
            return dm is not None and any("'s train (@" in label for label in _labels(dm))

        _user, _view, dm = await play_until(bot, games, users, onto_another_train, from_dm=True)
        assert dm is not None
        others = [label for label in _labels(dm) if "'s train (@" in label]
        for label in others:
            assert not any(f in label for f in full), label
            assert any(f"{c}'s train" in label for c in cut), (label, cut)
