"""Manage Webhooks on a server that requires 2FA for moderation, when the bot's owner has none:
Discord refuses the webhook with 403/60003 "Two factor is required for this operation"
(https://docs.discord.com/developers/topics/opcodes-and-status-codes#json; Manage Webhooks is
one of the permissions that "require the owner account to use two-factor authentication when
used on a guild that has server-wide 2FA enabled",
https://docs.discord.com/developers/topics/permissions). The bot posts as itself, asks no
more in that server, logs one WARNING with the fix, and ``/mt-admin settings`` says so."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from tests.e2e.helpers import said
from tests.e2e.test_webhook_posts import CREATE, _move_from_a_dm, _open
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.webhooks import MANAGE_WEBHOOKS


async def test_a_webhook_refused_for_the_owners_2fa_falls_back_and_is_told_once(
    fake_discord: FakeDiscord,
    make_bot: Callable[[], MexicanTrainBot],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = fake_discord
    bot = make_bot()
    fake.webhooks.require_2fa(fake.guild_id)
    other = fake.channel("other")
    other.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    async with running_bot(fake, bot):
        games, users = await _open(fake, bot, webhooks=True)
        with caplog.at_level(logging.INFO, logger="bot.ui.hooks"):
            first, paid = await _move_from_a_dm(fake, bot, games, users)
            assert first.webhook_id is None and first.author is fake.bot_user and paid == 1
            assert [r.status for r in fake.requests_to(CREATE)] == [403]
            second, paid = await _move_from_a_dm(fake, bot, games, users)
            assert second.webhook_id is None and paid == 1
        # Asked once: not again for the next move, nor for another channel of the server.
        assert len(fake.requests_to(CREATE)) == 1
        assert bot.hooks.where(other.id) is None
        said_2fa = [r for r in caplog.records if "60003" in r.getMessage()]
        assert len(said_2fa) == 1 and said_2fa[0].levelno == logging.WARNING
        assert "2FA" in said_2fa[0].getMessage() and "owner" in said_2fa[0].getMessage()
        assert not fake.webhooks.of(games)
        # Where the server's admin looks: the settings answer says it, with the fix.
        answer = await said(await fake.owner.slash("mt-admin settings", channel=games))
        assert "requires 2FA" in answer.text and "60003" in answer.text
