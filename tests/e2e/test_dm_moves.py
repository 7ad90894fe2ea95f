"""Act from the turn DM (issue 34, item 2), through the fake Discord: the DM carries the legal
moves, Draw and Pass as they are legal, Catch me up and the link; a move picked there is made
exactly as in the channel (the same answer, the same channel post, the next player told);
the DM it was made from loses its controls; an old DM pressed later refuses, naming whose turn
it is and linking the live turn, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import DRAW, PASS, Play, SeatView
from bot.store import GameStatus
from tests.e2e.helpers import (
    dm_move,
    last_public,
    open_game,
    pick,
    play_until,
    said,
    slash_move,
    to_move,
    to_turn_dm,
)
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, running_bot

PAID_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def _turn_dm(user: FakeUser) -> FakeMessage:
    dm = user.dms()[-1]
    assert "Your turn" in dm.text, dm.text
    return dm


async def _press_any(user: FakeUser, dm: FakeMessage) -> FakeMessage:
    """Press the DM's first move control: its move list, else Draw or Pass."""
    if dm.selects:
        value = dm.selects[0]["options"][0]["value"]
        return await said(await user.select(dm, values=[value]))
    target = next(b for b in dm.buttons if b.get("label") in ("Draw", "Pass"))
    return await said(await user.click(dm, label=str(target["label"])))


def _with_a_double(_user: FakeUser, view: SeatView, dm: FakeMessage | None) -> bool:
    return dm is not None and any(isinstance(m, Play) and m.tile.is_double for m in view.legal)


async def test_moves_made_from_turn_dms_and_an_old_dm_pressed_later(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="quick")
        # Alice (the host) clicked Start: her first turn may ride on her answer; play until a
        # turn comes by DM.
        await to_turn_dm(bot, games, users)

        from_dm = moved_again = 0
        old: tuple[FakeUser, FakeMessage] | None = None
        for turn in range(300):
            if (await bot.service.game(game.id)).status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            user = users[uid]
            dm = user.dms()[-1]
            move = pick(view.legal)
            version = (await bot.service.game(game.id)).version
            # This turn's DM: its controls carry the table's version (a player sees it is
            # the newest DM; one of an older turn would refuse, as tested below).
            ids = [str(c.get("custom_id")) for c in [*dm.selects, *dm.buttons]]
            live = [i for i in ids if f":{version}:dm:" in i]
            if not live or turn % 3 == 2:
                # In the channel; this turn's DM (if any) stays as it was: pressed later.
                if live and old is None and turn > 6:
                    old = (user, dm)
                answer = await slash_move(user, games, str(move))
                assert answer.startswith("✅"), answer
                continue
            if dm.ephemeral:
                # The answer to their last move, for they move again (issue 47): a classic
                # message (a followup takes no V2 card with a file), the hand once.
                assert not dm.card and dm.text.startswith("✅"), dm.text
                assert "in the picture." in dm.text and "`" not in dm.text.split("\n\n")[-1]
                moved_again += 1
            else:
                # One card (issue 47): its text, the hand's picture with its alt text, then
                # the DM's controls: the legal moves, Draw/Pass as legal, Catch me up, the link.
                assert dm.card and dm.content == "" and dm.embeds == []
            assert len(dm.images()) == 1 and dm.alt_texts and all(dm.alt_texts)
            assert dm.alt_texts == [f.description for f in dm.files]
            labels = dm.button_labels
            assert "Catch me up" in labels and "Go to the table" in labels
            assert ("Draw" in labels) == (DRAW in view.legal)
            assert ("Pass" in labels) == (PASS in view.legal)
            plays = {o["value"] for s in dm.selects for o in s["options"]}
            assert {str(m) for m in view.legal if isinstance(m, Play)} <= plays
            before = version
            posts, edits = len(games.messages()), len(fake.requests_to(PAID_EDIT))
            answer = await dm_move(user, dm, move)
            assert answer.text.startswith("✅"), answer.text
            assert answer.ephemeral and answer.channel_id == dm.channel_id
            assert (await bot.service.game(game.id)).version > before
            after = await bot.service.game(game.id)
            still = after.turn is not None and after.turn.user_id == uid
            if still:
                # A draw whose tile fits, a double: the channel hears of it with the move
                # that follows, in one post (test_dm_requests), not by a paid edit now.
                assert len(games.messages()) == posts
                assert len(fake.requests_to(PAID_EDIT)) == edits  # (a free edit may grow it)
            else:
                assert len(games.messages()) > posts  # told in the channel
            if dm.ephemeral:
                # A move picked from the answer: that message is its new answer, in place.
                assert answer.id == dm.id
            else:
                # The DM it was made from keeps only Catch me up and the link, whether their
                # turn goes on or not (issue 47: its hand is no more; their moves are with
                # their answer when they move again).
                assert not dm.selects and [b for b in dm.buttons if b.get("custom_id")] == [
                    b for b in dm.buttons if b.get("label") == "Catch me up"
                ]
                # ... as a card still: its text and its picture kept (a V2 edit is a layout).
                assert dm.card and dm.text and len(dm.images()) == 1 and dm.alt_texts
            if still:
                # Their answer carries the hand as it is now, once, and the moves of now.
                now = (await bot.service.game(game.id)).version
                assert user.dms()[-1].id == answer.id and answer.ephemeral
                assert len(answer.images()) == 1 and answer.alt_texts and all(answer.alt_texts)
                ids = [str(c.get("custom_id")) for c in [*answer.selects, *answer.buttons]]
                assert any(f":{now}:dm:" in i for i in ids), ids
                assert "Undo" in answer.button_labels
            from_dm += 1
        else:
            raise AssertionError("the match did not end")
        assert from_dm >= 5 and old is not None and moved_again >= 1

        # An old DM pressed later: refused, pointing to the live turn; nothing changes.
        user, dm = old
        version = (await bot.service.game(game.id)).version
        refused = await _press_any(user, dm)
        assert refused.ephemeral
        assert "is over" in refused.text and "https://discord.com/channels/" in refused.text
        assert (await bot.service.game(game.id)).version == version
        assert not dm.selects  # the old DM's controls are taken off once pressed


async def test_an_old_dm_in_a_live_game_names_whose_turn_it_is(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        user, _view, _dm = await to_turn_dm(bot, games, users)
        dm = _turn_dm(user)
        # They move in the channel instead, until the turn is someone else's.
        await play_until(bot, games, users, lambda mover, _v, _dm: mover is not user)
        version = (await bot.service.game(game.id)).version
        refused = await _press_any(user, dm)
        now = await bot.service.game(game.id)
        assert now.turn is not None
        assert refused.text.startswith(
            f"This DM is from a turn that is over: it's {now.turn.name}'s turn now."
        )
        latest = last_public(games)
        assert f"/{games.id}/{latest.id}" in refused.text  # the live turn post
        assert (await bot.service.game(game.id)).version == version
        assert not dm.selects


async def test_a_dm_pressed_after_the_table_changed_says_so_in_one_line_and_loses_its_moves(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """The player played a double in the channel (their turn goes on): their turn DM shows
    the hand before it. Pressed, it acts on nothing, says in one line that it is out of date
    and loses its move list, so no stale hand stands beside moves of today (issue 47); the
    channel's controls still play."""
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="standard")
        for _ in range(600):
            # A turn DM'd with a double to play (a double was played from a DM'd turn).
            user, view, dm = await play_until(bot, games, users, _with_a_double)
            assert dm is not None
            shown_before = dm.text
            doubles = [m for m in view.legal if isinstance(m, Play) and m.tile.is_double]
            await slash_move(user, games, str(doubles[0]))  # in the channel: a double
            after = await bot.service.game(game.id)
            if after.turn is None or after.turn.user_id != user.id:
                continue  # this rule passes the double on: try another
            changed = await _press_any(user, dm)
            assert changed.text.startswith("This DM is out of date"), changed.text
            assert "\n" not in changed.text
            assert (await bot.service.game(game.id)).version == after.version
            assert dm.selects == [] and not {"Draw", "Pass"} & set(dm.button_labels)
            assert dm.text == shown_before and "Catch me up" in dm.button_labels
            assert dm.card and len(dm.images()) == 1 and dm.alt_texts  # its picture kept
            _, view = await to_move(bot, game.id)
            answer = await slash_move(user, games, str(pick(view.legal)))
            assert answer.startswith("✅"), answer
            assert (await bot.service.game(game.id)).version > after.version
            return
        raise AssertionError("no double was played")
