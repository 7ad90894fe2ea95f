"""The length up front (issue 46): the lobby card and the answer to ``/mt new`` say how long
the match will take at the table's pace, and how to make it shorter; ``/mt new rounds:``
suggests full, half and short lengths with their days — in English and French, through the
fake Discord. The model itself: bot/service/pace.py (tests/service/test_pace.py)."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import PRESETS
from bot.service.pace import expected_length
from bot.ui.pacewords import how_long
from tests.e2e.helpers import last_public, said
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot


def _field(card: FakeMessage, name: str) -> str:
    fields = {f["name"]: f["value"] for f in card.embeds[0].get("fields", [])}
    assert name in fields, fields
    return str(fields[name])


async def test_the_lobby_and_the_answer_to_mt_new_tell_the_length(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    bot = make_bot()
    async with running_bot(fake, bot):
        answer = await said(await alice.slash("mt new", channel=games))
        four = expected_length(PRESETS["standard"], 4)
        words = how_long(four.days, "en")
        assert f"⏳ {words} for 13 rounds at 4 players" in answer.content, answer.content
        assert "A shorter match: /mt new rounds: (e.g. 5 rounds:" in answer.content
        card = last_public(games)
        length = _field(card, "Expected length")
        assert length.startswith(f"⏳ {words} for 13 rounds at 4 players, if each of you")
        # Five at the table, said on the card as they join; a computer seat never waits.
        for user in (bob, carol, fake.user("dave"), fake.user("erin")):
            await said(await user.click(card, label="Join"))
        five = expected_length(PRESETS["standard"], 5)
        length = _field(games.messages()[0], "Expected length")
        assert f"⏳ {how_long(five.days, 'en')} for 13 rounds at 5 players" in length, length
        game = await bot.service.game_in_channel(games.id)
        assert game is not None
        add = f"mt:{game.id}:lobby:cpu"
        await said(await alice.select(games.messages()[0], values=["easy"], custom_id=add))
        six = expected_length(PRESETS["standard"], 6, humans=5)
        assert six.days < five.days
        length = _field(games.messages()[0], "Expected length")
        assert f"⏳ {how_long(six.days, 'en')} for 13 rounds at 6 players" in length, length
        # Started: the card no longer promises a length.
        await said(await alice.click(games.messages()[0], label="Start"))
        fields = [f["name"] for f in games.messages()[0].embeds[0].get("fields", [])]
        assert "Expected length" not in fields


async def test_fewer_rounds_are_suggested_with_their_length_and_make_it_shorter(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice = fake.user("alice")
    async with running_bot(fake, make_bot()):
        offered = await alice.autocomplete("mt new", focused="rounds", channel=games, rounds="")
        names = [c["name"] for c in offered]
        assert [c["value"] for c in offered] == [13, 7, 5], offered
        assert names[0].startswith("full: 13 rounds, ") and names[0].endswith(" at 4 players")
        assert names[2].startswith("short: 5 rounds, "), names
        # A double-9 preset: 10 rounds at most; a number typed comes first, with its length.
        offered = await alice.autocomplete(
            "mt new", focused="rounds", channel=games, preset="double-9", rounds="3"
        )
        assert [c["value"] for c in offered] == [3, 10, 5, 4], offered
        short = expected_length(PRESETS["double-9"].replace(rounds=3), 4)
        assert (
            offered[0]["name"]
            == f"your choice: 3 rounds, {how_long(short.days, 'en')} at 4 players"
        )
        # Taking one: the card says the shorter length.
        await said(await alice.slash("mt new", channel=games, rounds=5))
        length = _field(last_public(games), "Expected length")
        five = expected_length(PRESETS["standard"].replace(rounds=5), 4)
        assert length.startswith(f"⏳ {how_long(five.days, 'en')} for 5 rounds at 4 players")
        assert five.days < expected_length(PRESETS["standard"], 4).days / 2


async def test_the_length_in_french(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("jeux")
    amelie = fake.user("amelie", locale="fr")
    async with running_bot(fake, make_bot()):
        await said(await fake.owner.slash("mt-admin settings", channel=games, language="fr"))
        offered = await amelie.autocomplete("mt new", focused="rounds", channel=games, rounds="")
        assert offered[0]["name"].startswith("complète : 13 manches, environ "), offered
        assert offered[0]["name"].endswith(" à 4 joueurs")
        answer = await said(await amelie.slash("mt new", channel=games))
        words = how_long(expected_length(PRESETS["standard"], 4).days, "fr")
        assert words.startswith("environ ")
        assert f"⏳ {words} pour 13 manches à 4 joueurs, si chacun" in answer.content
        assert "Une partie plus courte : /mt nouvelle manches: (par ex. 5 manches :" in (
            answer.content
        )
        length = _field(last_public(games), "Durée prévue")
        assert length.startswith(f"⏳ {words} pour 13 manches à 4 joueurs")
