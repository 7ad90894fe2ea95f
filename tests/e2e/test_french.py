"""A whole game in French: two players whose Discord is in French, on a server set to French.

Their private answers follow their client's locale, their hand DMs follow the language the bot
learnt when they joined, the channel's messages, buttons and pictures follow the server's
setting, and the synced commands carry French names and descriptions.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import DRAW, PASS, Play
from bot.i18n import tr
from bot.store import GameStatus
from bot.ui.pictures import round_end_png
from tests.e2e.helpers import game_here, last_public, pick, said, settled, to_move
from tests.fakediscord import FakeDiscord, running_bot

ENGLISH = (" played ", " drew ", "Your hand", "It's ", " turn", "Not possible", "Round ")


async def test_a_french_game_from_lobby_to_rematch(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("jeux")
    alice, bob = fake.user("alice", locale="fr"), fake.user("bob", locale="fr")
    users = {alice.id: alice, bob.id: bob}
    async with running_bot(fake, bot):
        # The synced commands speak French to a French client.
        mt = fake.commands()["mt"]
        assert mt["description_localizations"]["fr"] == "Parties de Train mexicain"
        subs = {o["name"]: o for o in mt["options"]}
        assert subs["new"]["name_localizations"]["fr"] == "nouvelle"
        assert subs["undo"]["name_localizations"]["fr"] == "défaire"
        assert subs["history"]["description_localizations"]["fr"].startswith("Les coups")
        play = fake.commands()["play"]
        assert play["name_localizations"]["fr"] == "jouer"
        assert {o["name_localizations"]["fr"] for o in play["options"]} >= {"domino", "train"}

        # The server's channel messages in French (set by someone with Manage Server).
        answer = await said(
            await fake.owner.slash("mt-admin settings", channel=games, language="fr")
        )
        assert "Language of channel messages: Français" in answer.content

        opened = await said(await alice.slash("mt new", channel=games, preset="quick"))
        assert opened.content.startswith(
            "La partie n°1 est ouverte. Rejoins avec le bouton ou /mt rejoindre.\n⏳ environ "
        )  # (then how long: tests/e2e/test_match_length.py)
        lobby = last_public(games)
        assert lobby.embeds[0]["title"] == "Train mexicain — partie n°1"
        assert lobby.button_labels == ["Rejoindre", "Quitter", "Commencer", "Annuler"]
        assert lobby.selects[0]["placeholder"] == "Ajouter un joueur ordinateur…"
        joined = await said(await bob.click(lobby, label="Rejoindre"))
        assert joined.content == "Tu as rejoint la partie n°1."
        started = await said(await alice.click(lobby, label="Commencer"))
        assert started.content.startswith("La partie n°1 a commencé")
        game = await game_here(bot, games)
        # The player to move is told in French, with their hand: Bob by DM, Alice (who
        # pressed Start) privately beside her answer.
        first, _ = await to_move(bot, game.id)
        if first == bob.id:
            dm = bob.dms()[-1]
            assert dm.content.startswith("🎲 À toi de jouer") and dm.images()
            assert "**Ta main**" in dm.content
        else:
            hands = [m for m in games.messages(visible_to=alice) if m.images()]
            assert hands and hands[-1].content.startswith("**Ta main**")

        refusals = moves = 0
        while (await settled(bot, game.id)).status is GameStatus.ACTIVE:
            table = last_public(games)
            assert table.embeds[0]["title"].startswith("Partie n°1 — manche 1/1")
            assert "à toi de jouer" in table.content
            assert table.button_labels == [
                "Jouer",
                "Piocher",
                "Passer",
                "Ma main",
                "Quoi de neuf ?",
            ]
            uid, view = await to_move(bot, game.id)
            user = users[uid]
            other = bob if user is alice else alice
            if refusals < 2:
                wrong = await said(await other.slash("draw", channel=games))
                mover = (await bot.service.game(game.id)).turn
                assert mover is not None  # "C'est le tour d'Alice.", "… de Bob.": the mover named
                expected = tr("error.not-your-turn", "fr", name=mover.name)
                assert expected.startswith("C'est le tour d")
                assert wrong.content == expected, wrong.content
                refusals += 1
            move = pick(view.legal)
            if isinstance(move, Play):
                tile, train = str(move).split()
                answer = await said(await user.slash("play", channel=games, tile=tile, train=train))
            elif move is DRAW:
                answer = await said(await user.click(table, label="Piocher"))
            elif move is PASS:
                answer = await said(await user.slash("pass", channel=games))
            else:
                answer = await said(await user.slash("play", channel=games, tile=str(move)))
            assert answer.content.startswith("✅"), answer.content
            assert not any(word in answer.content for word in ENGLISH), answer.content
            moves += 1
        assert moves > 5

        final = last_public(games)
        fields = {f["name"]: f["value"] for f in final.embeds[0]["fields"]}
        assert "Classement final" in fields and "Tchou tchou" in final.embeds[0]["description"]
        assert fields["Classement final"].startswith("1. ")
        assert final.button_labels == ["Revanche"]
        # The picture's labels are French too: exactly the French drawing of the round's end,
        # and so is its description.
        report = await bot.service.round_report(game.id)
        assert final.images() == [round_end_png(report.board, game.players, "fr")]
        assert final.images() != [round_end_png(report.board, game.players, "en")]
        assert final.files[0].description.startswith("La manche 1 sur 1 est finie")
        for message in games.messages():
            text = message.content + "".join(e.get("description") or "" for e in message.embeds)
            assert not any(word in text for word in ENGLISH), text
        for user in (alice, bob):
            for dm in user.dms():
                assert not any(word in dm.content for word in ENGLISH), dm.content

        history = await said(await bob.slash("mt history", channel=games))
        assert history.content.startswith("Coups de la partie n°1")
        assert "Manche 1 · locomotive 12-12" in history.content or "(suite)" in history.content
        stats = await said(await bob.slash("mt stats", channel=games))
        assert "Statistiques de Bob" in stats.content and stats.images()
        board = await said(await bob.slash("mt leaderboard", channel=games))
        assert board.content.startswith("**Classement de ce serveur**")
        nothing = await said(await bob.slash("mt undo", channel=games))
        assert nothing.content == "Aucune partie dans ce salon. Lance-en une avec /mt nouvelle."

        again = await said(await bob.click(final, label="Revanche"))
        assert again.content.startswith("La partie n°2 est ouverte")
        rematch = last_public(games)
        assert rematch.content.startswith("Revanche de la partie n°1 !")
        assert rematch.button_labels == ["Rejoindre", "Quitter", "Commencer", "Annuler"]


async def test_the_server_language_survives_a_restart_and_can_go_back_to_auto(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice = fake.user("alice")  # an English client
    async with running_bot(fake, make_bot()):
        await said(await fake.owner.slash("mt-admin settings", channel=games, language="fr"))
    async with running_bot(fake, make_bot()):
        opened = await said(await alice.slash("mt new", channel=games, preset="quick"))
        assert "is open" in opened.content  # her own answer: her client's language
        assert last_public(games).button_labels == ["Rejoindre", "Quitter", "Commencer", "Annuler"]
        await said(await alice.slash("mt cancel", channel=games))
        answer = await said(
            await fake.owner.slash("mt-admin settings", channel=games, language="auto")
        )
        assert "the server's Discord language" in answer.content
        await said(await alice.slash("mt new", channel=games, preset="quick"))
        assert last_public(games).button_labels == ["Join", "Leave", "Start", "Cancel"]


async def test_computer_players_get_french_names_in_a_french_server(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """In a server whose channel messages are French, computer players are "Ordi 1",
    "Ordi 2" (they were "CPU 1" in French sentences); switched to English, "CPU 1"."""
    fake = fake_discord
    bot = make_bot()
    jeux, games = fake.channel("jeux"), fake.channel("games")
    alice = fake.user("alice", locale="fr")
    async with running_bot(fake, bot):
        await said(await fake.owner.slash("mt-admin settings", channel=jeux, language="fr"))
        await said(await alice.slash("mt new", channel=jeux, preset="quick"))
        for _ in range(2):
            await said(await alice.slash("mt computer", channel=jeux, level="easy"))
        names = [p.name for p in (await game_here(bot, jeux)).players]
        assert names == ["Alice", "Ordi 1", "Ordi 2"]
        assert "Ordi 2" in last_public(jeux).embeds[0]["fields"][0]["value"]
        await said(await fake.owner.slash("mt-admin settings", channel=games, language="en"))
        await said(await alice.slash("mt new", channel=games, preset="quick"))
        await said(await alice.slash("mt computer", channel=games, level="easy"))
        assert [p.name for p in (await game_here(bot, games)).players] == ["Alice", "CPU 1"]
