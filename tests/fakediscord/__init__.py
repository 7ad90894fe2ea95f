"""A loopback fake Discord for end-to-end tests of the real discord.py bot.

Start one with the ``fake_discord`` fixture (tests/conftest.py), connect a bot with
``running_bot(fake, bot)``, then act as users::

    alice, games = fake.user("alice"), fake.channel("games")
    reply = await (await alice.slash("mt new", channel=games, seats=4)).message()
    await (await fake.user("bob").click(reply, label="Join")).message()

See DISCORD.md for the Discord behaviour it copies.
"""

from .harness import fake_discord, running_bot
from .interactions import DEFAULT_TIMEOUT as WAIT
from .interactions import Answer, Invocation
from .models import FakeChannel, FakeFile, FakeMessage, FakeRole, FakeUser
from .server import FakeDiscord, Rejection

__all__ = [
    "WAIT",
    "Answer",
    "FakeChannel",
    "FakeDiscord",
    "FakeFile",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Invocation",
    "Rejection",
    "fake_discord",
    "running_bot",
]
