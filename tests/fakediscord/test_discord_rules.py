"""The fake refuses what Discord refuses, rule by rule (issue 50): each test names the page and
section of Discord's documentation (https://docs.discord.com/developers/...) it follows, and
checks the HTTP status and the JSON body (``code``, ``message``, ``errors``) Discord answers.

Most requests here are raw HTTP, as Discord sees them: the shape of a refusal is the point.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.interactions import Invocation
from tests.fakediscord.models import EPHEMERAL, LOADING, FakeChannel, FakeMessage
from tests.fakediscord.refusals import AUTOMOD_BLOCKED, NO_MUTUAL_GUILDS, TWO_FACTOR_REQUIRED
from tests.fakediscord.server import API_PREFIX
from tests.fakediscord.threads import FakeThread
from tests.fakediscord.webhooks import MANAGE_WEBHOOKS

V2 = 1 << 15
SUPPRESS_NOTIFICATIONS = 1 << 12
READ_MESSAGE_HISTORY = discord.Permissions(read_message_history=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value
CARD = [{"type": 10, "content": "**Game #1**: Alice to play"}]


@pytest.fixture
async def demo(fake_discord: FakeDiscord) -> AsyncIterator[DemoBot]:
    async with running_bot(fake_discord, DemoBot(guild_id=fake_discord.guild_id)) as bot:
        assert isinstance(bot, DemoBot)
        yield bot


async def rest(
    fake: FakeDiscord, method: str, path: str, body: Any = None, **query: str
) -> tuple[int, Any]:
    """One request to the fake as the bot sends it; the status and the decoded JSON body."""
    headers = {"Authorization": "Bot rules"}
    url = fake.base_url + API_PREFIX + path
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, url, json=body, params=query, headers=headers) as answer,
    ):
        raw = await answer.read()
        return answer.status, (json.loads(raw) if raw else None)


def form_error(field: str, code: str, message: str) -> dict[str, Any]:
    """Discord's 400/50035 body naming one refused field."""
    return {
        "message": "Invalid Form Body",
        "code": 50035,
        "errors": {field: {"_errors": [{"code": code, "message": message}]}},
    }


async def rest_files(
    fake: FakeDiscord, method: str, path: str, body: Any, files: dict[str, bytes], **query: str
) -> tuple[int, Any]:
    """As :func:`rest`, with files (``multipart/form-data``: ``payload_json`` and
    ``files[n]``, as discord.py sends them)."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    for n, (name, data) in enumerate(files.items()):
        form.add_field(f"files[{n}]", data, filename=name, content_type="image/png")
    headers = {"Authorization": "Bot rules"}
    url = fake.base_url + API_PREFIX + path
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, url, data=form, params=query, headers=headers) as answer,
    ):
        raw = await answer.read()
        return answer.status, (json.loads(raw) if raw else None)


async def posted(fake: FakeDiscord, channel: FakeChannel, body: dict[str, Any]) -> FakeMessage:
    status, payload = await rest(fake, "POST", f"/channels/{channel.id}/messages", body)
    assert status == 200, payload
    return fake.messages[int(payload["id"])]


async def unanswered(fake: FakeDiscord, channel: FakeChannel) -> Invocation:
    """An interaction the demo bot leaves alone (a click on a custom id no view of its has):
    the test answers it itself, as the bot would."""
    card = await posted(fake, channel, {"content": "a card"})
    return await fake.user("alice").forge_click(card, custom_id="rules:nobody")


def token_path(fake: FakeDiscord, invocation: Invocation, tail: str = "") -> str:
    return f"/webhooks/{fake.application_id}/{invocation.record.token}{tail}"


# ---------------------------------------------------------------------------- a. deferrals


async def test_a_deferral_keeps_only_ephemeral_and_its_answer_sets_components_v2(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Receiving and Responding, Interaction Response Object, "Interaction Callback Data
    Structure" (https://docs.discord.com/developers/interactions/receiving-and-responding
    #interaction-response-object-interaction-callback-data-structure), footnote: with
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE "the only valid message flag you may use is EPHEMERAL.
    If you'd like to create a component based message with IS_COMPONENTS_V2 you must do that
    with the edit original response endpoint". Discord drops the others (the deferral's message
    has flags 128, LOADING: discord-api-docs issue 7910), so the flag is not carried onto the
    answer; EPHEMERAL is (Create Followup Message: "an existing message's ephemeral state
    cannot be changed")."""
    fake = fake_discord
    click = await unanswered(fake, fake.channel("games"))
    path = f"/interactions/{click.record.id}/{click.record.token}/callback"
    flags = EPHEMERAL | V2 | SUPPRESS_NOTIFICATIONS | 4
    status, _ = await rest(fake, "POST", path, {"type": 5, "data": {"flags": flags}})
    assert status == 204
    thinking = click.record.original
    assert thinking is not None and thinking.flags == EPHEMERAL | LOADING

    status, answer = await rest(
        fake, "PATCH", token_path(fake, click, "/messages/@original"), {"content": "done"}
    )
    assert status == 200 and answer["flags"] == EPHEMERAL  # no V2 carried from the deferral

    click = await unanswered(fake, fake.channel("games"))
    path = f"/interactions/{click.record.id}/{click.record.token}/callback"
    assert (await rest(fake, "POST", path, {"type": 5, "data": {"flags": V2}}))[0] == 204
    status, answer = await rest(
        fake,
        "PATCH",
        token_path(fake, click, "/messages/@original"),
        {"flags": V2, "components": CARD},
    )
    assert status == 200 and answer["flags"] == V2 and answer["components"] == CARD


async def test_a_deferred_update_makes_no_message_and_its_flags_change_nothing(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Receiving and Responding, "Interaction Callback Type"
    (https://docs.discord.com/developers/interactions/receiving-and-responding
    #interaction-response-object-interaction-callback-type): DEFERRED_UPDATE_MESSAGE (6) acks
    a component interaction "and edit[s] the original message later; the user does not see a
    loading state": it makes no message, so flags sent with it have nothing to mark (the
    message clicked keeps its own)."""
    fake = fake_discord
    click = await unanswered(fake, fake.channel("games"))
    source = click.record.source
    assert source is not None
    path = f"/interactions/{click.record.id}/{click.record.token}/callback"
    status, _ = await rest(fake, "POST", path, {"type": 6, "data": {"flags": EPHEMERAL | V2}})
    assert status == 204
    assert source.flags == 0 and not source.ephemeral and source.edits == 0


# ---------------------------------------------------------------------------- b. Components V2


async def test_a_webhook_post_keeps_components_v2_and_its_rules(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Webhook resource, Execute Webhook, "JSON/Form Params"
    (https://docs.discord.com/developers/resources/webhook#execute-webhook-json/form-params):
    ``flags`` "only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set";
    "When the flag IS_COMPONENTS_V2 is set, the webhook message can only contain components.
    Providing content, embeds [...] will fail with a 400 BAD REQUEST response". The layout's
    limits are the Component Reference's (40 components, 4,000 characters of text)."""
    fake = fake_discord
    games = fake.channel("games")
    hook = fake.webhooks.make(games, "TrainBot")  # the bot's: application-owned
    path = f"/webhooks/{hook.id}/{hook.token}"
    # Without ``with_components`` the components are not "respected" (query string): a V2
    # post left with none is refused.
    status, refused = await rest(fake, "POST", path, {"flags": V2, "components": CARD}, wait="1")
    assert status == 400 and refused["code"] == 50035
    status, sent = await rest(
        fake, "POST", path, {"flags": V2, "components": CARD}, wait="true", with_components="1"
    )
    assert status == 200 and sent["flags"] == V2 and sent["components"] == CARD

    status, refused = await rest(
        fake, "POST", path, {"flags": V2, "components": CARD, "content": "hi"}, wait="true"
    )
    assert (status, refused) == (
        400,
        form_error(
            "content",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "content cannot be used with the IS_COMPONENTS_V2 flag",
        ),
    )
    many = [{"type": 10, "content": "x"}] * 41
    status, refused = await rest(fake, "POST", path, {"flags": V2, "components": many})
    assert status == 400 and refused["code"] == 50035
    long_text = [{"type": 10, "content": "x" * 2000}] * 3
    status, refused = await rest(fake, "POST", path, {"flags": V2, "components": long_text})
    assert status == 400 and refused["errors"]["components"]["_errors"] == [
        {
            "code": "BASE_TYPE_MAX_LENGTH",
            "message": "Must be 4000 or fewer characters of text in all.",
        }
    ]
    assert [m.flags for m in games.messages()] == [V2]  # only the first was posted


async def test_an_edit_turns_a_message_into_components_v2_once_and_for_good(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Message resource, Edit Message, "JSON/Form Params"
    (https://docs.discord.com/developers/resources/message#edit-message-json/form-params):
    ``flags`` "SUPPRESS_EMBEDS and IS_COMPONENTS_V2 only"; "the IS_COMPONENTS_V2 flag can only
    be set. When the IS_COMPONENTS_V2 flag is set, any of the used content, embeds [...] fields
    must have their values reset to empty [...] Failing to do this will result in a 400 BAD
    REQUEST response"; Message Flags (#message-object-message-flags): "Once a message has been
    sent with this flag, it can't be removed from that message"."""
    fake = fake_discord
    games = fake.channel("games")
    message = await posted(fake, games, {"content": "Alice to play"})
    path = f"/channels/{games.id}/messages/{message.id}"
    status, refused = await rest(fake, "PATCH", path, {"flags": V2, "components": CARD})
    assert (status, refused) == (
        400,
        form_error(
            "content",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "content cannot be used with the IS_COMPONENTS_V2 flag",
        ),
    )
    assert message.content == "Alice to play" and message.flags == 0  # nothing changed

    body = {"flags": V2, "components": CARD, "content": None, "embeds": []}
    status, edited = await rest(fake, "PATCH", path, body)
    assert status == 200 and edited["flags"] == V2 and edited["content"] == ""

    status, edited = await rest(fake, "PATCH", path, {"flags": 0, "components": CARD})
    assert status == 200 and edited["flags"] == V2, edited  # never back
    status, refused = await rest(fake, "PATCH", path, {"content": "classic again"})
    assert status == 400 and refused["code"] == 50035 and "content" in refused["errors"]
    status, refused = await rest(fake, "PATCH", path, {"components": [{"type": 10}]})
    assert status == 400 and "components" in refused["errors"]  # still checked as a layout


async def test_a_webhook_edit_sets_components_v2(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    """Webhook resource, Edit Webhook Message, "JSON/Form Params"
    (https://docs.discord.com/developers/resources/webhook#edit-webhook-message-json/form-params):
    ``flags`` "SUPPRESS_EMBEDS and IS_COMPONENTS_V2 only"; IS_COMPONENTS_V2 "can only be set",
    with ``content`` and ``embeds`` "set to null first, otherwise it will fail with a 400 BAD
    REQUEST response"."""
    fake = fake_discord
    games = fake.channel("games")
    hook = fake.webhooks.make(games, "TrainBot")
    path = f"/webhooks/{hook.id}/{hook.token}"
    status, sent = await rest(fake, "POST", path, {"content": "Bob to play"}, wait="true")
    assert status == 200 and sent["flags"] == 0
    edit = f"{path}/messages/{sent['id']}"
    v2 = {"flags": V2, "components": CARD}
    status, refused = await rest(fake, "PATCH", edit, v2, with_components="1")
    assert status == 400 and refused["code"] == 50035 and "content" in refused["errors"]
    status, edited = await rest(fake, "PATCH", edit, {**v2, "content": None}, with_components="1")
    assert status == 200 and edited["flags"] == V2 and edited["components"] == CARD


# ------------------------------------------------------------------ c, e. the message list


async def test_the_message_list_needs_view_channel_and_shows_nothing_without_history(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Message resource, "Get Channel Messages"
    (https://docs.discord.com/developers/resources/message#get-channel-messages): "this endpoint
    requires the current user to have the VIEW_CHANNEL permission" (else 403, 50001 "Missing
    access": Opcodes and Status Codes, #json-json-error-codes); "If the current user is missing
    the READ_MESSAGE_HISTORY permission in the channel, then no messages will be returned"."""
    fake = fake_discord
    games = fake.channel("games")
    await posted(fake, games, {"content": "one"})
    path = f"/channels/{games.id}/messages"
    status, listed = await rest(fake, "GET", path)
    assert status == 200 and [m["content"] for m in listed] == ["one"]

    games.set_permissions(fake.bot_user, deny=READ_MESSAGE_HISTORY)
    assert await rest(fake, "GET", path) == (200, [])
    games.set_permissions(fake.bot_user, deny=VIEW_CHANNEL)
    assert await rest(fake, "GET", path) == (403, {"message": "Missing Access", "code": 50001})


async def test_one_message_needs_view_channel_and_read_message_history(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Message resource, "Get Channel Message"
    (https://docs.discord.com/developers/resources/message#get-channel-message): "this endpoint
    requires the current user to have the VIEW_CHANNEL and READ_MESSAGE_HISTORY permissions";
    the page names no code: the fake answers 403 50001 "Missing access" (Opcodes and Status
    Codes, #json-json-error-codes), as for a channel it cannot see."""
    fake = fake_discord
    games = fake.channel("games")
    message = await posted(fake, games, {"content": "one"})
    path = f"/channels/{games.id}/messages/{message.id}"
    assert (await rest(fake, "GET", path))[0] == 200
    games.set_permissions(fake.bot_user, deny=READ_MESSAGE_HISTORY)
    assert await rest(fake, "GET", path) == (403, {"message": "Missing Access", "code": 50001})


async def test_the_message_list_takes_a_limit_of_1_to_100(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Message resource, Get Channel Messages, "Query String Params"
    (https://docs.discord.com/developers/resources/message
    #get-channel-messages-query-string-params): ``limit`` "Max number of messages to return
    (1-100)", default 50; outside it, 400 50035 "Invalid Form Body" naming ``limit``."""
    fake = fake_discord
    games = fake.channel("games")
    path = f"/channels/{games.id}/messages"
    assert await rest(fake, "GET", path, limit="101") == (
        400,
        form_error("limit", "NUMBER_TYPE_MAX", "int value should be less than or equal to 100."),
    )
    assert await rest(fake, "GET", path, limit="0") == (
        400,
        form_error("limit", "NUMBER_TYPE_MIN", "int value should be greater than or equal to 1."),
    )
    assert await rest(fake, "GET", path, limit="100") == (200, [])


# ---------------------------------------------------------------------------- e. lengths


async def test_a_nonce_is_at_most_25_characters(fake_discord: FakeDiscord, demo: DemoBot) -> None:
    """Message resource, Create Message, "JSON/Form Params"
    (https://docs.discord.com/developers/resources/message#create-message-json/form-params):
    ``nonce`` "Can be used to verify a message was sent (up to 25 characters)": longer is a
    400 50035 naming ``nonce``, with or without ``enforce_nonce``."""
    fake = fake_discord
    games = fake.channel("games")
    path = f"/channels/{games.id}/messages"
    refused = form_error("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for enforce in (False, True):
        body = {"content": "hi", "nonce": "n" * 26, "enforce_nonce": enforce}
        assert await rest(fake, "POST", path, body) == (400, refused)
    assert games.messages() == []
    status, _ = await rest(fake, "POST", path, {"content": "hi", "nonce": "n" * 25})
    assert status == 200


async def test_a_webhook_username_is_at_most_80_characters(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Webhook resource, Execute Webhook, "JSON/Form Params"
    (https://docs.discord.com/developers/resources/webhook#execute-webhook-json/form-params):
    ``username`` overrides "the default username of the webhook", a webhook name, and "webhook
    names can be up to 80 characters" (Create Webhook, #create-webhook): longer is a 400 50035
    naming ``username``."""
    fake = fake_discord
    games = fake.channel("games")
    hook = fake.webhooks.make(games, "TrainBot")
    path = f"/webhooks/{hook.id}/{hook.token}"
    body = {"content": "hi", "username": "u" * 81}
    assert await rest(fake, "POST", path, body) == (
        400,
        form_error("username", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 80 in length."),
    )
    status, _ = await rest(fake, "POST", path, {"content": "hi", "username": "u" * 80})
    assert status == 204 and len(games.messages()) == 1


# ---------------------------------------------------------------------------- d. archived threads


async def archived_thread(fake: FakeDiscord, *, locked: bool = False) -> FakeThread:
    thread = fake.channel("games").start_thread("Game #1", by=fake.user("alice"))
    assert isinstance(thread, FakeThread)
    thread.archived, thread.locked = True, locked
    fake.threads.changed(thread)
    return thread


async def answered_in(fake: FakeDiscord, thread: FakeThread) -> Invocation:
    """An interaction from ``thread`` (still open), answered with a message by the test."""
    click = await unanswered(fake, thread)
    path = f"/interactions/{click.record.id}/{click.record.token}/callback"
    status, _ = await rest(fake, "POST", path, {"type": 4, "data": {"content": "ok"}})
    assert status == 204
    return click


async def test_every_message_sent_into_an_archived_thread_unarchives_it(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Threads topic, "Active & Archived Threads"
    (https://docs.discord.com/developers/topics/threads#active-archived-threads): "Sending a
    message will automatically unarchive the thread, unless the thread has been locked by a
    moderator" — the bot's message, a webhook's (Execute Webhook ``thread_id``: "The thread will
    automatically be unarchived") and an interaction's followup alike; a locked one refuses
    with 400 50083 ("Tried to perform an operation on an archived thread": Opcodes and Status
    Codes, #json-json-error-codes)."""
    fake = fake_discord
    games = fake.channel("games")
    games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    hook = fake.webhooks.make(games, "TrainBot")

    thread = await archived_thread(fake)
    await posted(fake, thread, {"content": "bot"})
    assert not thread.archived

    thread = await archived_thread(fake)
    path = f"/webhooks/{hook.id}/{hook.token}"
    assert (await rest(fake, "POST", path, {"content": "hook"}, thread_id=str(thread.id)))[0] == 204
    assert not thread.archived

    opened = fake.channel("games").start_thread("Game #2", by=fake.user("alice"))
    assert isinstance(opened, FakeThread)
    click = await answered_in(fake, opened)
    opened.archived = True
    fake.threads.changed(opened)
    status, _ = await rest(fake, "POST", token_path(fake, click), {"content": "f"})
    assert status == 204 and not opened.archived
    assert opened.messages()[-1].content == "f"

    opened.archived = opened.locked = True
    status, refused = await rest(fake, "POST", token_path(fake, click), {"content": "g"})
    assert (status, refused) == (400, {"message": "Thread is archived", "code": 50083})
    assert opened.archived and opened.messages()[-1].content == "f"


async def test_no_edit_reaches_an_archived_thread_not_even_with_a_token(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Threads topic, "Active & Archived Threads"
    (https://docs.discord.com/developers/topics/threads#active-archived-threads): "Users cannot
    edit messages [...] in archived threads. The only operation that should happen within an
    archived thread is messages being deleted": the bot's edit, a webhook's and an interaction
    token's (Edit Original Interaction Response) answer 400 50083 and the thread stays
    archived."""
    fake = fake_discord
    thread = fake.channel("games").start_thread("Game #1", by=fake.user("alice"))
    assert isinstance(thread, FakeThread)
    click = await answered_in(fake, thread)
    mine = await posted(fake, thread, {"content": "table"})
    hook = fake.webhooks.make(fake.channel("games"), "TrainBot")
    hooked = f"/webhooks/{hook.id}/{hook.token}"
    status, theirs = await rest(
        fake, "POST", hooked, {"content": "hook"}, wait="true", thread_id=str(thread.id)
    )
    assert status == 200
    thread.archived = True
    fake.threads.changed(thread)
    archived = (400, {"message": "Thread is archived", "code": 50083})
    original = token_path(fake, click, "/messages/@original")
    assert await rest(fake, "PATCH", original, {"content": "edited"}) == archived
    bot_edit = f"/channels/{thread.id}/messages/{mine.id}"
    assert await rest(fake, "PATCH", bot_edit, {"content": "edited"}) == archived
    hook_edit = f"{hooked}/messages/{theirs['id']}"
    assert await rest(fake, "PATCH", hook_edit, {"content": "x"}, thread_id=str(thread.id)) == (
        archived
    )
    assert thread.archived
    assert [m.content for m in thread.messages()] == ["a card", "ok", "table", "hook"]
    assert (await rest(fake, "DELETE", original))[0] == 204  # deleting is allowed


# ---------------------------------------------------------------------------- f. one clock


async def test_timestamps_and_ids_are_on_the_fakes_clock(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Reference, "Snowflakes" (https://docs.discord.com/developers/reference#snowflakes): an id
    carries the milliseconds since Discord's epoch of its making, and a message's ``timestamp``
    is "when this message was sent" (Message resource, #message-object): both read one clock,
    the fake's, even when a test moved it a day away from the wall clock; so do
    ``edited_timestamp`` and a thread's ``archive_timestamp``."""
    fake = fake_discord
    fake.advance(24 * 3600)
    games = fake.channel("games")
    message = await posted(fake, games, {"content": "tomorrow"})
    sent = datetime.datetime.fromisoformat(message.to_payload()["timestamp"])
    assert sent == discord.utils.snowflake_time(message.id)
    assert abs((sent - fake.clock()).total_seconds()) < 60
    wall = datetime.datetime.now(datetime.UTC)
    assert (sent - wall).total_seconds() > 23 * 3600
    status, edited = await rest(
        fake, "PATCH", f"/channels/{games.id}/messages/{message.id}", {"content": "x"}
    )
    assert status == 200
    edited_at = datetime.datetime.fromisoformat(edited["edited_timestamp"])
    assert 0 <= (edited_at - sent).total_seconds() < 60
    thread = await archived_thread(fake)
    archived_at = datetime.datetime.fromisoformat(
        thread.to_payload()["thread_metadata"]["archive_timestamp"]
    )
    assert (archived_at - wall).total_seconds() > 23 * 3600


async def test_a_nonce_is_remembered_for_minutes_of_the_fakes_clock(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Message resource, Create Message, "JSON/Form Params"
    (https://docs.discord.com/developers/resources/message#create-message-json/form-params):
    ``enforce_nonce``: "If true and nonce is present, it will be checked for uniqueness in the
    past few minutes" — minutes of Discord's time, the fake's clock (five, ours): a repeat
    within them returns the first message, a repeat after a skipped hour posts anew."""
    fake = fake_discord
    games = fake.channel("games")
    path = f"/channels/{games.id}/messages"
    body = {"content": "Bob to play", "nonce": "mt1.7.0", "enforce_nonce": True}
    first = await rest(fake, "POST", path, body)
    assert await rest(fake, "POST", path, body) == first and len(games.messages()) == 1
    fake.advance(3600)
    status, again = await rest(fake, "POST", path, body)
    assert status == 200 and again["id"] != first[1]["id"] and len(games.messages()) == 2


# ---------------------------------------------------------------------------- g. ordered refusals


async def test_refusals_discord_gives_for_state_the_fake_does_not_model(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Opcodes and Status Codes, "JSON Error Codes"
    (https://docs.discord.com/developers/topics/opcodes-and-status-codes#json-json-error-codes):
    50278 "Cannot send messages to this user due to having no mutual guilds", 60003 "Two factor
    is required for this operation", 200000 "Message was blocked by automatic moderation". A
    test orders them with ``fake.refuse`` (the route, the error, how many times, which
    requests); discord.py raises them as Discord's (``Forbidden``/``HTTPException`` with the
    code), and nothing is changed."""
    fake = fake_discord
    games = fake.channel("games")
    games.set_permissions(fake.bot_user, allow=MANAGE_WEBHOOKS)
    channel = await fake.wait_for(lambda: demo.get_channel(games.id), timeout=30, what="channel")
    assert isinstance(channel, discord.TextChannel)

    fake.refuse("POST", "/channels/{channel_id}/webhooks", TWO_FACTOR_REQUIRED)
    with pytest.raises(discord.Forbidden) as two_factor:
        await channel.create_webhook(name="TrainBot")
    assert two_factor.value.code == 60003 and fake.webhooks.of(games) == []
    assert (await channel.create_webhook(name="TrainBot")).token  # once only

    automod = fake.refuse(
        "POST", "/channels/{channel_id}/messages", AUTOMOD_BLOCKED, times=None,
        when=lambda request: "forbidden word" in str((request.body or {}).get("content")),
    )  # fmt: skip
    with pytest.raises(discord.HTTPException) as blocked:
        await channel.send("a forbidden word")
    assert (blocked.value.status, blocked.value.code) == (400, 200000)
    await channel.send("fine words")
    with pytest.raises(discord.HTTPException):
        await channel.send("the forbidden word again")
    automod.lift()
    await channel.send("a forbidden word, allowed now")
    assert [m.content for m in games.messages()] == ["fine words", "a forbidden word, allowed now"]
    assert automod.served == 2

    bob = fake.user("bob")
    dms = f"/channels/{fake.dm_channel(bob).id}/messages"
    fake.refuse("POST", "/channels/{channel_id}/messages", NO_MUTUAL_GUILDS,
                when=lambda request: request.path == dms)  # fmt: skip
    user = await demo.fetch_user(bob.id)
    with pytest.raises(discord.Forbidden) as left:
        await user.send("your turn")
    assert left.value.code == 50278 and bob.dms() == []


PNG = b"\x89PNG\r\n\x1a\n" + b"0" * 32


def gallery(name: str) -> list[dict[str, Any]]:
    """A card: its text and a picture shown by ``attachment://name``."""
    return [
        {
            "type": 17,
            "components": [
                {"type": 10, "content": "**Game #1**: Alice to play"},
                {"type": 12, "items": [{"media": {"url": f"attachment://{name}"}}]},
            ],
        }
    ]


async def test_a_card_shows_only_files_of_its_message_and_a_webhook_takes_none(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Component Reference, "Components V2": "Attachments won't show by default - they must
    be exposed through components" (https://docs.discord.com/developers/components/reference),
    by ``attachment://<filename>`` (Unfurled Media Item: "Supports arbitrary urls and
    attachment://<filename> references"): a name that is no file of the message is refused.
    Create Message takes files with the flag (its footnote names content, embeds, sticker_ids,
    poll); Execute Webhook does not: "When the flag IS_COMPONENTS_V2 is set, the webhook
    message can only contain components. Providing content, embeds, files[n] or poll will fail
    with a 400 BAD REQUEST response"
    (https://docs.discord.com/developers/resources/webhook#execute-webhook-json/form-params);
    a followup "functions the same as Execute Webhook"."""
    fake = fake_discord
    games = fake.channel("games")
    path = f"/channels/{games.id}/messages"
    body = {"flags": V2, "components": gallery("table.png")}
    status, sent = await rest_files(fake, "POST", path, body, {"table.png": PNG})
    assert status == 200, sent
    assert sent["flags"] == V2 and [a["filename"] for a in sent["attachments"]] == ["table.png"]
    status, refused = await rest_files(fake, "POST", path, body, {"hand.png": PNG})
    assert status == 400 and refused["code"] == 50035
    (error,) = refused["errors"]["components"]["0"]["components"]["1"]["items"]["0"]["media"][
        "url"
    ]["_errors"]
    assert error["code"] == "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"
    # An edit may name a file the message keeps.
    edit = f"{path}/{sent['id']}"
    status, edited = await rest(fake, "PATCH", edit, {"components": gallery("table.png")})
    assert status == 200, edited
    status, refused = await rest(fake, "PATCH", edit, {"components": gallery("other.png")})
    assert status == 400 and refused["code"] == 50035

    hook = fake.webhooks.make(games, "TrainBot")
    hooked = f"/webhooks/{hook.id}/{hook.token}"
    status, refused = await rest_files(
        fake, "POST", hooked, body, {"table.png": PNG}, wait="1", with_components="1"
    )
    assert status == 400 and "files" in refused["errors"]
    assert [m.flags for m in games.messages()] == [V2]  # only the bot's own card went out


async def test_a_webhook_edit_without_with_components_leaves_the_controls(
    fake_discord: FakeDiscord, demo: DemoBot
) -> None:
    """Edit Webhook Message, query string ``with_components``: "whether to respect the
    components field of the request" (defaults to false)
    (https://docs.discord.com/developers/resources/webhook#edit-webhook-message): an edit
    with ``components: []`` and no ``with_components`` (discord.py's ``view=None``) takes
    no button off; with it, it does."""
    fake = fake_discord
    games = fake.channel("games")
    hook = fake.webhooks.make(games, "TrainBot")
    hooked = f"/webhooks/{hook.id}/{hook.token}"
    row = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Play", "custom_id": "p"}]}]
    status, sent = await rest(
        fake, "POST", hooked, {"content": "Alice to play", "components": row},
        wait="1", with_components="1",
    )  # fmt: skip
    assert status == 200 and sent["components"] == row
    edit = f"{hooked}/messages/{sent['id']}"
    status, edited = await rest(fake, "PATCH", edit, {"components": []})
    assert status == 200 and edited["components"] == row
    status, edited = await rest(fake, "PATCH", edit, {"components": []}, with_components="1")
    assert status == 200 and edited["components"] == []
