"""A move made from the turn DM that leaves its player to move again (issue 47), through the
fake Discord: a draw whose tile they may play (the same turn goes on), and a new turn of
theirs (every other seat's turn played for them). Their answer carries their hand as it is
now, once (the pictured words and the picture, with its alt text), and the moves of the
table as it is now, free (the click's own followup); the DM they pressed keeps only Catch me
up and the link, so no message shows a hand that is no more beside the moves of today, and
only the newest carries live move controls. Before, the DM pressed got the new moves under
its old hand, and a new turn's hand came as a message of its own listing the tiles three
times, with no controls."""

from __future__ import annotations

from collections.abc import Callable

from bot.app import MexicanTrainBot
from bot.engine import DRAW, Play
from bot.store import GameStatus
from tests.e2e.helpers import dm_move, open_game, play_until, said, slash_move, to_move
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser, running_bot

#: A request against the bot's global limit that sends a DM.
DM_POST = "POST /channels/{channel_id}/messages"
MOVE_IDS = (":dm:draw", ":dm:pass", ":dm:pick")


def move_controls(message: FakeMessage) -> list[str]:
    """The controls on ``message`` that make a move (the move list, Draw, Pass)."""
    ids = [str(c.get("custom_id")) for c in [*message.selects, *message.buttons]]
    return [i for i in ids if i.endswith(MOVE_IDS) or (":dm:" in i and message.selects)]


def quiet(dm: FakeMessage) -> bool:
    """The DM keeps only Catch me up and the link: no move list, no Draw or Pass."""
    return not dm.selects and not {"Draw", "Pass"} & set(dm.button_labels)


def dm_posts(fake: FakeDiscord, user: FakeUser) -> int:
    channel = user.dm_channel
    return sum(1 for r in fake.requests_to(DM_POST) if channel and f"/{channel.id}/" in r.path)


async def test_a_draw_from_the_dm_that_fits_comes_back_with_the_hand_and_the_moves_of_now(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    fake = fake_discord
    games = fake.channel("games")
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob, carol)}
    bot = make_bot()
    async with running_bot(fake, bot):
        for user in users.values():  # their draws are theirs to make (no autoplay)
            off = await said(await user.slash("mt me", channel=games, autoplay="off"))
            assert "✅" in off.text or "off" in off.text.lower(), off.text
        game = await open_game(fake, bot, games, alice, [bob, carol], preset="standard")
        for _ in range(200):
            user, _view, dm = await play_until(
                bot, games, users,
                lambda _u, v, dm: dm is not None and not dm.ephemeral and DRAW in v.legal,
                from_dm=True,
            )  # fmt: skip
            assert dm is not None
            shown_before, posts = dm.text, dm_posts(fake, user)
            answer = await dm_move(user, dm, DRAW)
            after = await bot.service.game(game.id)
            if after.turn is None or after.turn.user_id != user.id:
                continue  # it fit nowhere: their turn passed; wait for another draw
            _, now = await to_move(bot, game.id)
            drawn = next(m.tile for m in now.legal if isinstance(m, Play))
            # The answer: what the draw brought (the tile, once, and where it fits), then the
            # hand as it is now, once: the words name no tile, the picture shows them.
            said_lines = answer.text.split("\n\n")
            assert said_lines[0].startswith(f"✅ You drew `{drawn}`: it fits on"), answer.text
            assert answer.text.count(str(drawn)) == 1, answer.text
            assert said_lines[1] == (
                f"**Your hand** — round {now.round_no + 1}/{now.rounds_total}, "
                f"{len(now.hand or ())} tiles: in the picture.\n"
                "Pick your move in the list under the picture."
            ), answer.text
            assert answer.ephemeral and not answer.card and len(answer.images()) == 1
            assert answer.alt_texts and str(drawn) in answer.alt_texts[0]
            # ... the moves of the table as it is now (the drawn tile), and Undo.
            values = {o["value"] for s in answer.selects for o in s["options"]}
            assert {str(m) for m in now.legal if isinstance(m, Play)} <= values
            assert all(f":{after.version}:dm:" in i for i in move_controls(answer))
            assert "Undo" in answer.button_labels
            # The DM pressed keeps its old hand, and no move beside it.
            assert quiet(dm) and dm.text == shown_before and "Catch me up" in dm.button_labels
            assert user.dms()[-1].id == answer.id  # the newest message has the moves
            assert dm_posts(fake, user) == posts  # free: no DM sent against the global limit
            # Picked from the answer: the answer becomes the move's, in place; it keeps no
            # move control, and no picture of a hand that is no more.
            move = next(m for m in now.legal if isinstance(m, Play))
            again = await said(await user.select(answer, values=[str(move)]))
            assert again.id == answer.id and again.text.startswith("✅ You played"), again.text
            later = await bot.service.game(game.id)
            if later.turn is not None and later.turn.user_id == user.id:
                return  # a double: they move again, and the same answer carries it
            assert move_controls(again) == [] and again.images() == []
            assert "Undo" in again.button_labels
            return
        raise AssertionError("no draw that fits was made from a DM")


async def test_a_new_turn_of_the_mover_comes_with_their_answer_and_an_old_control_refuses(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """Bob is away: his turns are played at once, so every move Alice makes from her DM
    brings her turn back. Her answer says what was played since her move, then carries her
    new hand once and its moves; picked from
    there, the answer is replaced in place by the next move's; pressed once the table moved
    on (she played in the channel), it answers in one line and its moves go."""
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="standard")
        _, _, dm = await play_until(
            bot, games, users, lambda u, _v, dm: u is alice and dm is not None
        )
        assert dm is not None and dm.card
        away = await said(await bob.slash("mt away", channel=games, state="on"))
        assert "away" in away.text.lower(), away.text
        _, view = await to_move(bot, game.id)
        move = next(m for m in view.legal if isinstance(m, Play))
        posts = dm_posts(fake, alice)
        answer = await dm_move(alice, dm, move)
        now = await bot.service.game(game.id)
        assert now.status is GameStatus.ACTIVE and now.turn is not None
        assert now.turn.user_id == alice.id  # Bob's turn was played for him
        _, mine = await to_move(bot, game.id)
        head, since, hand = answer.text.split("\n\n")
        assert head.startswith("✅ You played"), answer.text
        # What happened since her move (the channel's post, which she does not see here).
        assert since.startswith("**Since your last turn:**") and "Bob" in since, answer.text
        first, what = hand.split("\n")
        assert first == (
            f"**Your hand** — round {mine.round_no + 1}/{mine.rounds_total}, "
            f"{len(mine.hand or ())} tiles: in the picture."
        ), answer.text
        plays = any(isinstance(m, Play) for m in mine.legal)
        assert what == "It's your turn: pick your move in the list under the picture." or (
            not plays and what.startswith("It's your turn and nothing fits:")
        ), answer.text
        # The hand once: no tile list, no "You can play:" list, the picture with its alt text.
        assert "You can play" not in answer.text and "`" not in hand
        assert len(answer.images()) == 1 and answer.alt_texts and answer.alt_texts[0]
        assert move_controls(answer) and all(
            f":{now.version}:dm:" in i for i in move_controls(answer)
        )
        assert quiet(dm) and dm.card and len(dm.images()) == 1  # the card keeps its picture
        assert [m.id for m in alice.dms() if move_controls(m)] == [answer.id]
        assert dm_posts(fake, alice) == posts  # no DM against the global limit

        # Picked from the answer: the same message, in place, with the turn after it.
        _, mine = await to_move(bot, game.id)
        nxt = next((m for m in mine.legal if isinstance(m, Play)), mine.legal[0])
        again = await dm_move(alice, answer, nxt)
        assert again.id == answer.id and again.text.startswith("✅"), again.text
        later = await bot.service.game(game.id)
        if later.status is GameStatus.ACTIVE and later.turn and later.turn.user_id == alice.id:
            assert all(f":{later.version}:dm:" in i for i in move_controls(again))
            assert [m.id for m in alice.dms() if move_controls(m)] == [answer.id]
            # Played in the channel instead: the answer's moves are out of date. Pressed, it
            # answers in one line and loses its moves (an old control, unchanged).
            _, mine = await to_move(bot, game.id)
            await slash_move(alice, games, str(next(iter(mine.legal))))
            version = (await bot.service.game(game.id)).version
            values = [o["value"] for s in again.selects for o in s["options"]]
            if values:
                refused = await said(await alice.select(again, values=[values[0]]))
            else:
                label = next(b for b in again.button_labels if b in ("Draw", "Pass"))
                refused = await said(await alice.click(again, label=str(label)))
            assert "\n" not in refused.text and "https://discord.com/channels/" in refused.text
            assert (await bot.service.game(game.id)).version == version
            assert move_controls(again) == []


def live_controls(user: FakeUser, version: int) -> FakeMessage | None:
    """The newest of the user's DMs (their own answers too) whose moves act at ``version``."""
    for message in reversed(user.dms()):
        if any(f":{version}:dm:" in i for i in move_controls(message)):
            return message
    return None


async def test_the_final_mover_from_the_dm_still_gets_the_end_dm_once(
    fake_discord: FakeDiscord, make_bot: Callable[[], MexicanTrainBot]
) -> None:
    """The ping rule keeps "at the match's end every human who played it" for the player
    whose move ended it: their answer says only what they played (not the result, their
    place, the sheet or its link), and an answer is private and goes when the client reloads,
    so the end DM, the record they keep, is still theirs, once. Every move is made from the
    newest message with live moves (a turn DM, or the answer of a player moving again)."""
    fake = fake_discord
    games = fake.channel("games")
    alice, bob = fake.user("alice"), fake.user("bob")
    users: dict[int, FakeUser] = {u.id: u for u in (alice, bob)}
    bot = make_bot()
    async with running_bot(fake, bot):
        game = await open_game(fake, bot, games, alice, [bob], preset="quick")
        last: tuple[FakeUser, FakeMessage | str, int] | None = None
        for _ in range(400):
            now = await bot.service.game(game.id)
            if now.status is not GameStatus.ACTIVE:
                break
            uid, view = await to_move(bot, game.id)
            user = users[uid]
            pings = len(fake.pings_for(user))
            message = live_controls(user, now.version)
            move = next((m for m in view.legal if isinstance(m, Play)), view.legal[0])
            if message is None:
                last = (user, await slash_move(user, games, str(move)), pings)
            else:
                last = (user, await dm_move(user, message, move), pings)
        else:
            raise AssertionError("the match did not end")
        assert last is not None
        user, answer, pings = last
        assert not isinstance(answer, str), "the final move was typed, not made from the DM"
        assert answer.text.startswith("✅") and "is over" not in answer.text, answer.text
        assert move_controls(answer) == []  # nothing left to play
        told = fake.pings_for(user)[pings:]
        assert [p.how for p in told] == ["dm"]
        end = user.dms()[-1]
        assert f"Game #{game.id} (<#{games.id}>) is over" in end.text, end.text
        # No message of anyone's keeps a live move at the match's end.
        for u in users.values():
            assert [m.id for m in u.dms() if move_controls(m)] == []
