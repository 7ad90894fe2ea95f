"""A tile's emoji deleted while the bot runs (issue 47.3): the message that showed it is sent
again without the emojis, once, and the set is forgotten until the keeper has it whole again.

Discord refuses a whole message whose component shows an emoji the application no longer
owns: 400, code 50035 "Invalid Form Body", each such emoji named on its ``emoji.id``
("Invalid emoji"; docs/discord.md). A picture on a control is cosmetic; the message (a turn
DM, the Play list, an answer) is not. Every request the bot sends goes through one of two
senders, each wrapped in :func:`bot.ui.host.healed`: the bot token's ``HTTPClient.request``
(its messages and their edits: a turn DM) and discord.py's webhook adapter (interaction
answers, followups and their edits, the channel webhook: the Play list). On such a refusal
that names only tile emojis the wrapper calls :func:`resend`, which

- forgets the set (:meth:`TileEmojis.forget`: ``shown`` emptied, so every later control is
  text; the keeper in :mod:`bot.ui.tileupload` lists again and uploads what is missing) and
  logs one WARNING naming the refused emojis (INFO for a message built with ids already
  forgotten);
- sends the same request once more with every tile emoji taken off, nothing else changed:
  the same nonce (Discord keeps a nonce only for a message it made, and it made none), the
  same interaction token (a refused callback acknowledged nothing), the files rewound.

Anything else (another code, an emoji that is not a tile's, a body it cannot read) is raised
as it came. This module runs only on such a refusal: a move's path never enters it.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.ui.tileemoji import SET, TileEmojis

log = logging.getLogger(__name__)

#: Discord's "Invalid Form Body".
INVALID_FORM = 50035
#: A refused field, as discord.py flattens Discord's ``errors`` tree in the exception's text:
#: "In components.0.components.2.options.3.emoji.id: Invalid emoji".
_REFUSED = re.compile(r"^In (\S+?)\.emoji(?:\.\w+)?: ", re.MULTILINE)
#: The keyword each sender takes its JSON body by, and its multipart form by.
_BODIES = ("json", "payload")
_FORMS = ("form", "multipart")


async def resend(
    send: Callable[..., Awaitable[Any]],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    refusal: discord.HTTPException,
    emojis: TileEmojis,
) -> Any:
    """``send(*args, **kwargs)`` was refused with ``refusal`` (a 50035): sent once more
    without the tile emojis when what Discord refused is tile emojis; else ``refusal``."""
    body, put = _body(kwargs)
    refused = _refused(body, refusal.text) if body is not None else None
    if body is None or not refused:
        raise refusal
    names = sorted({name for name, _id in refused})
    if emojis.forget(emoji_id for _name, emoji_id in refused):
        log.warning(
            "tile emojis: Discord refused %s (deleted from the application?): the message is "
            "sent again without them, and the controls show text until the set is listed "
            "again and whole", ", ".join(names),
        )  # fmt: skip
    else:
        log.info("tile emojis: %s already forgotten: sent again without them", ", ".join(names))
    for file in kwargs.get("files") or ():
        file.reset(seek=True)  # the senders rewind only on their own retries
    return await send(*args, **put(_stripped(body)))


def _body(
    kwargs: dict[str, Any],
) -> tuple[Any, Callable[[Any], dict[str, Any]]]:
    """The request's JSON body (None if it has none), and how to make the same request's
    keyword arguments with another body."""
    for key in _BODIES:
        if isinstance(kwargs.get(key), dict):

            def replaced(body: Any, key: str = key) -> dict[str, Any]:
                return {**kwargs, key: body}

            return kwargs[key], replaced
    for key in _FORMS:
        form = kwargs.get(key)
        if not isinstance(form, list):
            continue
        for n, field in enumerate(form):
            if isinstance(field, dict) and field.get("name") == "payload_json":
                value = json.loads(field["value"])

                def put(body: Any, key: str = key, form: list[Any] = form, n: int = n) -> Any:
                    field = {**form[n], "value": json.dumps(body, separators=(",", ":"))}
                    return {**kwargs, key: [*form[:n], field, *form[n + 1 :]]}

                return value, put
    return None, lambda _body: kwargs


def _refused(body: Any, text: str) -> list[tuple[str, int]] | None:
    """The emojis (name, id) Discord's refusal names, each read at its path in ``body``;
    None unless there is one and every one is a tile's with its id."""
    found: list[tuple[str, int]] = []
    for match in _REFUSED.finditer(text):
        node = body
        for part in match[1].split("."):
            if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                return None
        emoji = node.get("emoji") if isinstance(node, dict) else None
        if not isinstance(emoji, dict) or emoji.get("name") not in SET:
            return None
        raw = str(emoji.get("id"))
        if not raw.isascii() or not raw.isdigit():
            return None
        found.append((str(emoji["name"]), int(raw)))
    return found or None


def _stripped(node: Any) -> Any:
    """``node`` (a request's JSON) without any tile emoji: each control keeps its text."""
    if isinstance(node, list):
        return [_stripped(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: _stripped(value)
        for key, value in node.items()
        if not (key == "emoji" and isinstance(value, dict) and value.get("name") in SET)
    }
