"""Every sentence in the reader's language (issue 34, item 8): on a server set to French with
``/mt-admin settings language:`` (its Discord locale left English), what the scheduler posts without
any interaction — the 12-hour reminder, the timeout's post — is French, like the rest of the
match; and French sentences name the French commands."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.cogs import timing
from bot.i18n import CATALOG
from bot.ui.posts import PostBook
from tests.clock import FakeClock
from tests.e2e.helpers import game_here, last_public, said, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, running_bot

HOUR = 3600
#: Words of English sentences the bot writes (none is French).
ENGLISH = (" played ", " drew ", "Your hand", "It's ", "your turn", "reminder", "time ran out",
           "Round ", " the computer ")  # fmt: skip


@pytest.fixture(autouse=True)
def no_pacing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timing.ScheduleCog, "send_interval", 0)
    monkeypatch.setattr(PostBook, "flush_delay", 0.01)


def _text(message: FakeMessage) -> str:
    parts = [message.text] + [str(e.get("description") or "") for e in message.embeds]
    return "\n".join(parts)


async def test_reminders_and_timeouts_follow_the_servers_chosen_language(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot], clock: FakeClock
) -> None:
    fake = fake_discord
    games = fake.channel("jeux")
    alice, bob = fake.user("alice", locale="fr"), fake.user("bob", locale="fr")
    bot = make_bot()
    async with running_bot(fake, bot):
        await said(await fake.owner.slash("mt-admin settings", channel=games, language="fr"))
        await said(await bob.slash("mt me", channel=games, reminder_dms=False))
        await said(await alice.slash("mt new", channel=games, preset="quick", deadline_hours=24))
        lobby = last_public(games)
        await said(await bob.click(lobby, label="Rejoindre"))
        await said(await alice.click(lobby, label="Commencer"))
        game = await game_here(bot, games)
        uid, _ = await to_move(bot, game.id)
        clock.tick(12 * HOUR)
        await timing.cog_of(bot).scheduler.tick()
        reminder = last_public(games)
        assert reminder.text.startswith(f"⏰ <@{uid}>"), reminder.text
        clock.tick(12 * HOUR)
        await timing.cog_of(bot).scheduler.tick()
        await fake.wait_for(lambda: last_public(games) is not reminder, timeout=5, what="timeout")
        posted = [_text(m) for m in games.messages()] + [_text(m) for m in alice.dms()]
        posted += [_text(m) for m in bob.dms()]
        english = [t for t in posted if any(w in t for w in ENGLISH)]
        assert english == [], english
        assert any("rappel" in t.casefold() for t in posted), posted


def test_french_sentences_name_the_french_commands_and_one_spelling_of_the_train() -> None:
    english_names = ("/mt new", "/mt join", "/mt leave", "/mt away", "/hand")
    for key, texts in CATALOG.items():
        fr = texts.get("fr", "")
        assert not any(n in fr for n in english_names), (key, fr)
        assert "Train Mexicain" not in fr, key
        assert "Rejoignez" not in fr and "Utilisez" not in fr, key  # tu, not vous, to one player
