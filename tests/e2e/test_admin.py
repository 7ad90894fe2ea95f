"""Admin and looking commands through Discord: status, scores, rules, history, kick, end,
server settings, command sync; each answers privately."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from bot.app import MexicanTrainBot
from bot.store import GameStatus
from tests.e2e.helpers import game_here, last_public, open_game, pick, said, settled, to_move
from tests.fakediscord import FakeDiscord, running_bot


async def test_admin_commands(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users = {u.id: u for u in (alice, bob, carol)}
    async with running_bot(fake, bot):
        game = await open_game(
            fake, bot, games, alice, [bob, carol], preset="standard", rounds=2, open_hands=False
        )
        answer = await said(await carol.slash("mt status", channel=games, rules=True))
        assert answer.ephemeral and "standard" in answer.text and "rounds" in answer.text
        for _ in range(5):
            uid, view = await to_move(bot, game.id)
            move = pick(view.legal)
            text = str(move)
            if " " in text:
                tile, train = text.split()
                await said(await users[uid].slash("play", channel=games, tile=tile, train=train))
            else:
                await said(await users[uid].slash(text, channel=games))
        status = await said(await carol.slash("mt status", channel=games))
        assert status.ephemeral and "in play" in status.text and "Boneyard" in status.text
        history = await said(await carol.slash("mt history", channel=games))
        assert "page 1/1" in history.text and "Round 1 · engine 12-12" in history.text
        scores = await said(await carol.slash("mt scores", channel=games))
        assert scores.ephemeral and "no round is over yet" in scores.text
        table = await said(await carol.slash("table", channel=games))
        assert table.ephemeral and table.images()

        # Kick: only the host (or Manage Server); the seat goes to a computer player.
        refused = await said(await carol.slash("mt kick", channel=games, player=bob))
        assert "Only the host" in refused.text
        answer = await said(await alice.slash("mt kick", channel=games, player=bob))
        assert "computer plays their seat" in answer.text
        after = await settled(bot, game.id)
        bob_seat = next(p for p in after.players if p.name == "Bob")
        assert bob_seat.is_computer
        assert any("computer player now plays Bob" in (m.embeds[0].get("description") or "")
                   for m in games.messages() if m.embeds)  # fmt: skip

        # End: host or Manage Server only.
        refused = await said(await carol.slash("mt end", channel=games))
        assert "Only the host" in refused.text
        answer = await said(await alice.slash("mt end", channel=games))
        assert "ended" in answer.text
        assert (await bot.service.game(game.id)).status is GameStatus.ABANDONED
        assert "was ended" in last_public(games).embeds[0]["description"]

        # Server settings: Manage Server only; channels and a host role limit who opens games.
        # /mt-admin is not even shown to a member without Manage Server (its
        # default_member_permissions); a client that sends it anyway is refused by the bot.
        with pytest.raises(PermissionError, match="default_member_permissions"):
            await carol.slash("mt-admin settings", channel=games, knock=True)
        refused = await said(await carol.forge_slash("mt-admin settings", channel=games,
                                                     knock=True))  # fmt: skip
        assert "Manage Server" in refused.text
        owner = fake.owner  # the guild owner has every permission
        other = fake.channel("elsewhere")
        answer = await said(
            await owner.slash("mt-admin settings", channel=games, allow_channel=games, knock=True)
        )
        assert "knock=True" in answer.text and f"<#{games.id}>" in answer.text
        refused = await said(await alice.slash("mt new", channel=other))
        assert "can't be played in this channel" in refused.text
        opened = await said(await alice.slash("mt new", channel=games))
        assert "is open" in opened.text
        assert (await game_here(bot, games)).rules.knock  # the server's default house rule
        await said(await alice.slash("mt cancel", channel=games))
        assert await bot.service.game_in_channel(games.id) is None
        answer = await said(
            await owner.slash("mt-admin settings", channel=games, all_channels=True)
        )
        assert "every channel" in answer.text

        # Sync is the bot owner's alone.
        refused = await said(await alice.forge_slash("mt-admin sync", channel=games))
        assert "owner" in refused.text
        puts = len(fake.requests_to("PUT /applications/{app_id}/commands"))
        answer = await said(await owner.slash("mt-admin sync", channel=games))
        assert "synced" in answer.text
        assert len(fake.requests_to("PUT /applications/{app_id}/commands")) == puts + 1


async def test_no_sync_at_start_unless_asked(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    async with running_bot(fake, make_bot(), sync=False):
        assert not fake.requests_to("PUT /applications/{app_id}/commands")
    bot = make_bot()
    bot.config = dataclasses.replace(bot.config, sync_commands=True)
    async with running_bot(fake, bot, sync=False):
        assert fake.requests_to("PUT /applications/{app_id}/commands")
        assert "mt" in fake.commands() and "play" in fake.commands()


async def test_mt_settings_tells_the_admin_that_manage_webhooks_is_missing_and_no_one_else(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Without Manage Webhooks the turns of moves made from DMs cost about twice the
    rate-limited requests (docs/discord.md): the admin reads it in one line of ``/mt
    settings``, where they look; the players' posts and DMs never say it, and with the
    permission the line is gone."""
    from bot.i18n import tr
    from tests.e2e.helpers import slash_move
    from tests.fakediscord.webhooks import MANAGE_WEBHOOKS

    fake = fake_discord
    bot = make_bot()
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users = {u.id: u for u in (alice, bob)}
    line = tr("settings.no-webhooks", "en")
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        for _ in range(4):
            uid, view = await to_move(bot, game.id)
            await slash_move(users[uid], games, str(pick(view.legal)))
        answer = await said(await fake.owner.slash("mt-admin settings", channel=games))
        assert answer.ephemeral and answer.text.endswith("\n" + line), answer.text
        assert answer.text.count("Manage Webhooks") == 1
        told = [m for m in fake.messages.values() if "Manage Webhooks" in (m.text or "")]
        assert told == [answer], [m.text for m in told]

        games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
        answer = await said(await fake.owner.slash("mt-admin settings", channel=games))
        assert answer.ephemeral and "Manage Webhooks" not in answer.text, answer.text
        assert answer.text.startswith("Server settings: preset ")


async def test_the_start_up_log_names_the_servers_where_manage_webhooks_is_missing(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """The admin who runs the bot reads it once, under the ready line: which servers, and
    what the permission gains; a server where the bot's role has it is not named."""
    from bot.run import webhooks_line
    from tests.fakediscord.webhooks import MANAGE_WEBHOOKS

    fake = fake_discord
    fake.guild("Second server")
    bot = make_bot()
    async with running_bot(fake, bot):
        line = webhooks_line(bot)
        assert line is not None
        assert line.startswith(
            "Manage Webhooks is missing in 2 of 2 servers (Mexican Train Club, Second server): "
            "with it the turns of moves made from DMs post through the bot's own channel webhook"
        ), line
        assert "(Mexican Train Club and 1 more)" in (webhooks_line(bot, named=1) or "")
    fake.roles[fake.bot_user.role_ids[0]].permissions |= MANAGE_WEBHOOKS
    bot = make_bot()
    async with running_bot(fake, bot):
        line = webhooks_line(bot)
        assert line is not None and " 1 of 2 servers (Second server): " in line, line
