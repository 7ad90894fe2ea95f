"""The post book's memory of the tokens that can edit a game's live post for free."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest

from bot.ui.posts import Editor, Post, PostBook

NOW = dt.datetime(2026, 11, 24, 12, 0, tzinfo=dt.UTC)


async def edit(**fields: Any) -> None:
    return None


def editor(message_id: int, minutes: float = 15) -> Editor:
    return Editor(message_id, NOW + dt.timedelta(minutes=minutes), edit)


def test_a_click_on_an_old_post_leaves_the_live_posts_token() -> None:
    book = PostBook()
    book.note_table(7, Post(1, 100), editor(100))
    book.note_editor(7, editor(50))  # someone clicked a button of an older post
    found = book.editor(7, 100, NOW)
    assert found is not None and found.message_id == 100
    assert book.editor(7, 50, NOW) is not None


def test_a_token_about_to_expire_is_not_offered() -> None:
    book = PostBook()
    book.note_table(7, Post(1, 100), editor(100, minutes=0.5))  # under the minute's margin
    assert book.editor(7, 100, NOW) is None
    book.note_editor(7, editor(100, minutes=10))  # a later click on it: good again
    assert book.editor(7, 100, NOW) is not None


def test_a_new_live_post_lets_the_old_tokens_go() -> None:
    book = PostBook()
    book.note_table(7, Post(1, 100), editor(100))
    book.note_table(7, Post(1, 101))
    assert book.editor(7, 100, NOW) is None
    book.note_table(7, Post(1, 101, live=False))  # the same post, quietened: nothing lost
    book.note_editor(7, editor(101))
    book.note_table(7, Post(1, 101, live=False))
    assert book.editor(7, 101, NOW) is not None


def test_a_token_discord_refused_is_dropped() -> None:
    book = PostBook()
    token = editor(100)
    book.note_table(7, Post(1, 100), token)
    book.drop_editor(7, token)
    assert book.editor(7, 100, NOW) is None


@pytest.mark.expect_errors(logger="bot.ui.posts", match=r"^could not record 2 table messages")
async def test_new_table_posts_are_recorded_in_one_batch_and_kept_when_the_write_fails() -> None:
    """The book writes each game's newest table post to the database, batched: a post grown
    or quietened is not written again, and rows a failed write could not take wait for the
    next flush (the one at close)."""
    written: list[list[tuple[int, str, int, int]]] = []
    failing = [True]

    async def record(rows: list[tuple[int, str, int, int]]) -> None:
        if failing[0]:
            raise OSError("disk full")
        written.append(rows)

    book = PostBook(record)
    book.flush_delay = 3600  # only the explicit flushes below write
    book.note_table(7, Post(1, 100))
    book.note_table(7, Post(1, 101))
    book.note_table(7, Post(1, 101, live=False))  # the same post, quietened
    book.note_table(8, Post(2, 200))
    assert book.unrecorded(7) == (1, 101) and book.unrecorded(9) is None
    await book.flush()  # fails: logged, rows kept
    assert written == [] and book.unrecorded(8) == (2, 200)
    failing[0] = False
    book.note_table(8, Post(2, 200, lines=("drew",)))  # grown: nothing new to write
    await book.close()
    assert written == [[(7, "table", 1, 101), (8, "table", 2, 200)]]
    assert book.unrecorded(7) is None
    await book.close()
    assert len(written) == 1


def test_clicks_on_the_webhooks_post_never_push_its_editor_out() -> None:
    # The webhook's editor does not expire and is the only way to edit its post without a
    # refused request: four clicks' tokens (each kept for 15 minutes) must not push it out.
    book = PostBook()
    hooked = Editor(100, dt.datetime.max.replace(tzinfo=dt.UTC), edit, free=False)
    book.note_table(7, Post(1, 100), hooked)
    for _ in range(5):
        book.note_editor(7, editor(100, minutes=1.5))
    later = NOW + dt.timedelta(minutes=5)  # every click's token has expired
    assert book.editor(7, 100, later) is None  # nothing free
    assert book.editor(7, 100, later, webhook=True) is hooked
    # Found again (after a 10015, a restart): it replaces the one kept, not beside it.
    again = Editor(100, hooked.expires, edit, free=False)
    book.note_editor(7, again)
    assert book.editor(7, 100, later, webhook=True) is again
    book.drop_editor(7, again)
    assert book.editor(7, 100, later, webhook=True) is None


async def test_a_post_being_written_is_still_found_and_one_noted_meanwhile_is_written_next() -> (
    None
):
    """Between the batch's start and its commit the database does not have the post yet: a
    reader then (a reminder's link to the table, /mt mygames) must still find it in the book
    (CI caught a reminder linking to the bare channel). And a post noted while a write is
    under way starts no task of its own: the running one writes it in its next pass."""
    writing, release = asyncio.Event(), asyncio.Event()
    written: list[list[tuple[int, str, int, int]]] = []

    async def record(rows: list[tuple[int, str, int, int]]) -> None:
        writing.set()
        await release.wait()
        written.append(rows)

    book = PostBook(record)
    book.flush_delay = 0
    book.note_table(7, Post(1, 100))
    await writing.wait()
    assert book.unrecorded(7) == (1, 100)  # mid-write: still the book's to tell
    book.note_table(7, Post(1, 101))  # a newer post, noted during the write
    writing.clear()
    release.set()
    for _ in range(100):
        if len(written) == 2:
            break
        await asyncio.sleep(0)
    assert written == [[(7, "table", 1, 100)], [(7, "table", 1, 101)]]
    assert book.unrecorded(7) is None
    await book.close()
    assert len(written) == 2
