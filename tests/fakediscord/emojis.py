"""Application emojis in the fake Discord: listed and made by the bot with its token, and
the only custom emojis a component may show.

Discord's rules, as its Emoji resource page states them
(https://discord.com/developers/docs/resources/emoji, discord-api-docs at c98d64b):

- List Application Emojis (``GET /applications/{id}/emojis``) "Returns an object containing a
  list of emoji objects for the given application under the ``items`` key", with a ``user``
  (the bot user for an emoji uploaded through the API).
- Create Application Emoji (``POST /applications/{id}/emojis``): JSON ``name`` and ``image``
  ("image data": a ``data:image/…;base64,`` URI, Reference, "Image Data"; the formats JPEG,
  PNG, GIF, WebP and AVIF, Emoji, "Emoji Formats"). "Emojis and animated emojis have a maximum
  file size of 256 KiB. Attempting to upload an emoji larger than this limit will fail and
  return 400 Bad Request and an error message, but not a JSON status code": code 0 here.
- "An application can own up to 2000 emojis" (Application-Owned Emoji); one more is refused
  with 30008 "Maximum number of emojis reached" (JSON Error Codes).
- A name of 2-32 characters of ``A-Za-z0-9_``: not on Discord's page; discord.py's
  ``create_application_emoji`` ("Must be between 2 and 32 characters long") and what Discord
  answers (400/50035 on ``name``). Two emojis of one application may not share a name: also
  not on the page; refused here with 400/50035, ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``
  (**ours**, the code Discord is seen to answer).
- Delete Application Emoji (``DELETE /applications/{id}/emojis/{emoji.id}``): "Delete the
  given emoji. Returns ``204 No Content`` on success"; an id that is none of the
  application's: 404/10014 "Unknown Emoji" (JSON Error Codes: "Unknown emoji"). What the
  portal's delete does too, or anyone holding the application's token, while the bot runs.
- A component's ``emoji`` is a partial emoji (``id``, ``name``, ``animated``: Component
  Reference, Button and String Select's option); an ``id`` the application cannot use (not
  one of its emojis, or one deleted since; here the bot is in one test server with no
  emojis) is refused with 400/50035 "Invalid Form Body", the whole message, each such
  emoji named on its ``emoji.id`` with ``BUTTON_COMPONENT_INVALID_EMOJI`` "Invalid emoji".
  That shape is not on Discord's pages: it is what Discord is seen to answer, for a select
  option too (discord/discord-api-docs#8071) and for a deleted emoji's id
  (HuyaneMatsu/Koishi#25). A bot that shows an id it never got, or one since deleted,
  fails its test.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .models import JSON
from .server import ApiError, Call, json_response

if TYPE_CHECKING:
    from .server import FakeDiscord

#: "An application can own up to 2000 emojis".
CAP = 2000
#: "a maximum file size of 256 KiB".
MAX_BYTES = 256 * 1024
NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
IMAGE = re.compile(r"data:image/(png|jpeg|jpg|gif|webp|avif);base64,(.*)", re.DOTALL)


@dataclass(eq=False)
class FakeEmoji:
    id: int
    name: str
    image: bytes

    def to_payload(self, fake: FakeDiscord) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": fake.bot_user.to_payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }


def _invalid(field: str, code: str, message: str) -> ApiError:
    errors = {field: {"_errors": [{"code": code, "message": message}]}}
    return ApiError(400, 50035, "Invalid Form Body", errors=errors)


class AppEmojis:
    """The application's own emojis (``fake.emojis``): they outlive a bot's restart."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.items: dict[int, FakeEmoji] = {}
        #: How many Create Application Emoji requests were accepted (a test's upload count).
        self.created = 0

    def add_routes(self) -> None:
        add = self.fake.routes.add
        add("GET", "/applications/{app_id}/emojis", self._list)
        add("POST", "/applications/{app_id}/emojis", self._create)
        add("DELETE", "/applications/{app_id}/emojis/{emoji_id}", self._delete)

    # ------------------------------------------------------------------ test-facing

    def seed(self, name: str, image: bytes = b"\x89PNG") -> FakeEmoji:
        """An emoji the application already owns (uploaded before the test, e.g. from the
        developer portal)."""
        emoji = FakeEmoji(self.fake.ids.next(), name, image)
        self.items[emoji.id] = emoji
        return emoji

    def by_name(self) -> dict[str, FakeEmoji]:
        return {e.name: e for e in self.items.values()}

    def check_components(self, body: Any) -> None:
        """400/50035 for every component emoji whose id the app does not own, each named on
        its ``emoji.id`` with ``BUTTON_COMPONENT_INVALID_EMOJI`` "Invalid emoji", as Discord
        answers (a select option's too: discord-api-docs#8071; a deleted emoji's id:
        HuyaneMatsu/Koishi#25)."""
        errors: JSON = {}
        for path, emoji in _emojis(body, []):
            raw = emoji.get("id")
            if raw is None or (str(raw).isdigit() and int(raw) in self.items):
                continue
            node = errors
            for key in path:
                node = node.setdefault(str(key), {})
            node["id"] = {"_errors": [{"code": "BUTTON_COMPONENT_INVALID_EMOJI",
                                       "message": "Invalid emoji"}]}  # fmt: skip
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors=errors)

    # ------------------------------------------------------------------ routes

    def _check_app(self, call: Call) -> None:
        if call.params["app_id"] != str(self.fake.application_id):
            raise ApiError(403, 50001, "Missing Access")

    async def _list(self, call: Call) -> Any:
        self._check_app(call)
        return json_response({"items": [e.to_payload(self.fake) for e in self.items.values()]})

    async def _create(self, call: Call) -> Any:
        self._check_app(call)
        body = call.body if isinstance(call.body, dict) else {}
        name, image = body.get("name"), body.get("image")
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise _invalid("name", "BASE_TYPE_BAD_LENGTH" if isinstance(name, str) and not
                           2 <= len(name) <= 32 else "STRING_TYPE_REGEX",
                           "A name of 2-32 characters of A-Za-z0-9_")  # fmt: skip
        found = IMAGE.fullmatch(image) if isinstance(image, str) else None
        if found is None:
            raise _invalid("image", "IMAGE_INVALID", "Invalid image data")
        try:
            data = base64.b64decode(found[2], validate=True)
        except (binascii.Error, ValueError):
            raise _invalid("image", "IMAGE_INVALID", "Invalid image data") from None
        if len(data) > MAX_BYTES:
            # "400 Bad Request and an error message, but not a JSON status code".
            raise ApiError(400, 0, "Maximum file size of 256 KiB exceeded")
        if name in self.by_name():
            raise _invalid(
                "name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "This name is already taken"
            )
        if len(self.items) >= CAP:
            raise ApiError(400, 30008, "Maximum number of emojis reached")
        emoji = FakeEmoji(self.fake.ids.next(), name, data)
        self.items[emoji.id] = emoji
        self.created += 1
        return json_response(emoji.to_payload(self.fake), status=201)

    async def _delete(self, call: Call) -> Any:
        """Delete Application Emoji: 204; an id that is none of the app's: 404/10014."""
        self._check_app(call)
        raw = call.params["emoji_id"]
        if not raw.isdigit() or self.items.pop(int(raw), None) is None:
            raise ApiError(404, 10014, "Unknown Emoji")
        return web.Response(status=204)


def _emojis(node: Any, path: list[str | int]) -> list[tuple[list[str | int], dict[str, Any]]]:
    """Every component's ``emoji`` in a request body (a select option's too), with its path."""
    found: list[tuple[list[str | int], dict[str, Any]]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "emoji" and isinstance(value, dict):
                found.append(([*path, key], value))
            else:
                found.extend(_emojis(value, [*path, key]))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            found.extend(_emojis(value, [*path, n]))
    return found
