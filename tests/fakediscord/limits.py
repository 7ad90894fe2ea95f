"""Discord's documented limits on a message, an interaction answer and autocomplete choices,
enforced the way Discord does: 400 with code 50035 and the ``errors`` tree naming each field.

Every body the bot sends through a route that creates or edits a message (channel messages,
interaction callbacks, followups, webhook edits; and any other route whose body holds a
``message`` or message fields) passes :func:`check` before the route's handler runs, so every
end-to-end test is also a conformance test: a payload Discord would refuse is refused here,
with Discord's own body::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"embeds": {"0": {"fields": {"0": {"value": {"_errors": [
         {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 1024 or fewer in length."}]}}}}}}}

Lengths count code points (Discord's API is Python: ``len``). The limits are those of
https://discord.com/developers/docs (message, embed, component, autocomplete and allowed
mentions objects); the bot's side of the same table is ``bot/ui/limits.py``.
"""

from __future__ import annotations

from typing import Any

from .models import COMPONENTS_V2, FakeFile

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
ROWS = 5
ROW_WIDTH = 5
LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
CHOICES = 25
CHOICE_TEXT = 100
ATTACHMENTS = 10
ATTACHMENT_DESCRIPTION = 1024
MENTION_IDS = 100
#: Create Message's ``nonce``: "up to 25 characters" (Message resource, Create Message).
NONCE = 25
#: Execute Webhook's ``username`` is the webhook's name for one message: "webhook names can be
#: up to 80 characters" (Webhook resource, Create Webhook).
WEBHOOK_NAME = 80
CREATE_MESSAGE = "POST /channels/{channel_id}/messages"
EXECUTE_WEBHOOK = "POST /webhooks/{webhook_id}/{webhook_token}"
#: Components V2 (message flag IS_COMPONENTS_V2): Discord's "Component Reference".
V2_COMPONENTS = 40  # in all, nested ones included
V2_TEXT = 4000  # characters across every Text Display
SECTION_TEXTS = 3
GALLERY_ITEMS = 10
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR = (
    1, 2, 9, 10, 11, 12, 13, 14,
)  # fmt: skip
CONTAINER = 17
#: What a V2 message, and a Container, may hold at their top level.
V2_TOP = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = V2_TOP - {CONTAINER}
LINK, PREMIUM = 5, 6  # button styles

#: Routes whose body is a message (create or edit).
MESSAGE_ROUTES = {
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /webhooks/{webhook_id}/{webhook_token}",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
}
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{interaction_token}/callback"
#: Keys that make a dict a message body (for routes this module does not name).
MESSAGE_KEYS = ("content", "embeds", "components", "attachments", "allowed_mentions")

Errors = dict[str, Any]


class FormError(Exception):
    """A body Discord would refuse: ``errors`` is Discord's tree of field errors."""

    def __init__(self, errors: Errors) -> None:
        super().__init__("Invalid Form Body")
        self.errors = errors

    def fields(self) -> list[str]:
        """Each refused field as ``path: message`` (``embeds.0.fields.0.value: Must be…``)."""
        out: list[str] = []

        def walk(node: Errors, path: list[str]) -> None:
            for key, value in node.items():
                if key == "_errors":
                    out.extend(f"{'.'.join(path) or 'body'}: {e['message']}" for e in value)
                else:
                    walk(value, [*path, key])

        walk(self.errors, [])
        return out


class _Form:
    """Collects field errors into Discord's nested ``errors`` shape."""

    def __init__(self) -> None:
        self.errors: Errors = {}

    def add(self, path: list[str | int], code: str, message: str) -> None:
        node = self.errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def length(
        self, path: list[str | int], value: Any, high: int, *, low: int = 0, required: bool = False
    ) -> None:
        if value is None:
            if required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, str):
            self.add(path, "STRING_TYPE_CONVERT", "Could not interpret value as string.")
            return
        if len(value) > high and low <= 0:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def count(self, path: list[str | int], items: Any, high: int, *, low: int = 0) -> list[Any]:
        if items is None:
            return []
        if not isinstance(items, list):
            self.add(path, "LIST_TYPE_CONVERT", "Could not interpret value as list.")
            return []
        if len(items) > high and low <= 0:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif not low <= len(items) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
        return items


def check(route: str, body: Any, files: list[FakeFile]) -> None:
    """Raise :class:`FormError` if ``body`` (sent to ``route``, ``"METHOD /template"``)
    breaks one of Discord's limits; return quietly otherwise."""
    form = _Form()
    if route == CALLBACK_ROUTE:
        if isinstance(body, dict) and isinstance(body.get("data"), dict):
            kind, data = body.get("type"), body["data"]
            if kind in (4, 7):
                _message(form, ["data"], data, files)
            elif kind == 8:
                _choices(form, ["data", "choices"], data.get("choices"))
    elif route in MESSAGE_ROUTES:
        if isinstance(body, dict):
            _message(form, [], body, files)
            if route == CREATE_MESSAGE and body.get("nonce") is not None:
                form.length(["nonce"], str(body["nonce"]), NONCE)
            if route == EXECUTE_WEBHOOK:
                form.length(["username"], body.get("username"), WEBHOOK_NAME, low=1)
                if int(body.get("flags") or 0) & COMPONENTS_V2 and files:
                    # Execute Webhook (and a followup, which "functions the same"): "When
                    # the flag IS_COMPONENTS_V2 is set, the webhook message can only contain
                    # components. Providing content, embeds, files[n] or poll will fail with
                    # a 400 BAD REQUEST response." Create Message's footnote leaves files out.
                    form.add(
                        ["files"],
                        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                        "files cannot be used with the IS_COMPONENTS_V2 flag on a webhook",
                    )
    elif isinstance(body, dict):
        # Routes this module does not name (a thread's first message, a forum post): the
        # same limits wherever a message travels.
        if isinstance(body.get("message"), dict):
            _message(form, ["message"], body["message"], files)
        elif any(key in body for key in MESSAGE_KEYS):
            _message(form, [], body, files)
    if form.errors:
        raise FormError(form.errors)


def _message(form: _Form, at: list[str | int], body: dict[str, Any], files: list[FakeFile]) -> None:
    form.length([*at, "content"], body.get("content"), CONTENT)
    embeds = form.count([*at, "embeds"], body.get("embeds"), EMBEDS)
    total = 0
    for n, embed in enumerate(embeds):
        if isinstance(embed, dict):
            total += _embed(form, [*at, "embeds", n], embed)
    if total > EMBED_TOTAL:
        form.add(
            [*at, "embeds"],
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL}",
        )
    if int(body.get("flags") or 0) & COMPONENTS_V2:
        _layout(form, at, body, files)
    else:
        rows = form.count([*at, "components"], body.get("components"), ROWS)
        for n, row in enumerate(rows):
            _row(form, [*at, "components", n], row)
    _unique_ids(form, at, body.get("components"))
    attachments = form.count([*at, "attachments"], body.get("attachments"), ATTACHMENTS)
    for n, attachment in enumerate(attachments):
        if isinstance(attachment, dict):
            form.length(
                [*at, "attachments", n, "description"],
                attachment.get("description"),
                ATTACHMENT_DESCRIPTION,
            )
    if len(files) > ATTACHMENTS:
        form.add(
            [*at, "files"], "BASE_TYPE_MAX_LENGTH", f"Must be {ATTACHMENTS} or fewer in length."
        )
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, dict):
        _mentions(form, [*at, "allowed_mentions"], mentions)


def _embed(form: _Form, at: list[str | int], embed: dict[str, Any]) -> int:
    """Check one embed; its characters toward the 6,000 of the message."""
    size = 0
    for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
        form.length([*at, key], embed.get(key), limit)
        size += len(embed.get(key) or "")
    fields = form.count([*at, "fields"], embed.get("fields"), EMBED_FIELDS)
    for n, field in enumerate(fields):
        if not isinstance(field, dict):
            continue
        form.length([*at, "fields", n, "name"], field.get("name"), FIELD_NAME, low=1, required=True)
        form.length(
            [*at, "fields", n, "value"], field.get("value"), FIELD_VALUE, low=1, required=True
        )
        size += len(field.get("name") or "") + len(field.get("value") or "")
    for key, inner, limit in (("footer", "text", FOOTER), ("author", "name", AUTHOR)):
        part = embed.get(key)
        if isinstance(part, dict):
            form.length([*at, key, inner], part.get(inner), limit)
            size += len(part.get(inner) or "")
    return size


def _row(form: _Form, at: list[str | int], row: Any) -> None:
    if not isinstance(row, dict) or row.get("type") != 1:
        form.add(at, "COMPONENT_TYPE_INVALID", "Component type must be an action row.")
        return
    items = form.count([*at, "components"], row.get("components"), ROW_WIDTH, low=1)
    width = 0
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        where: list[str | int] = [*at, "components", n]
        kind = item.get("type")
        if kind == BUTTON:
            width += 1
            _button(form, where, item)
        elif kind in (3, 5, 6, 7, 8):
            width += ROW_WIDTH
            _select(form, where, item)
        else:
            form.add(where, "COMPONENT_TYPE_INVALID", f"Component type {kind} is not allowed here.")
    if width > ROW_WIDTH:
        form.add(
            [*at, "components"],
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )


def _button(form: _Form, at: list[str | int], item: dict[str, Any]) -> None:
    """A button: a link (style 5) has a ``url`` and no ``custom_id``; a premium one (6) a
    ``sku_id`` only; any other a ``custom_id`` and no ``url``."""
    form.length([*at, "label"], item.get("label"), LABEL)
    style = item.get("style")
    if style == LINK:
        form.length([*at, "url"], item.get("url"), 512, low=1, required=True)
        if "custom_id" in item:
            form.add([*at, "custom_id"], "BUTTON_LINK_CUSTOM_ID", "A link button has no custom_id.")
    elif style == PREMIUM:
        if "sku_id" not in item:
            form.add([*at, "sku_id"], "BASE_TYPE_REQUIRED", "This field is required")
    else:
        form.length([*at, "custom_id"], item.get("custom_id"), CUSTOM_ID, low=1, required=True)
        if "url" in item:
            form.add([*at, "url"], "BUTTON_URL_NOT_LINK", "Only a link button has a url.")


def _unique_ids(form: _Form, at: list[str | int], components: Any) -> None:
    """Every ``custom_id`` on one message is its own (Discord refuses a duplicate)."""
    seen: set[str] = set()

    def walk(items: Any, path: list[str | int]) -> None:
        if not isinstance(items, list):
            return
        for n, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            here = [*path, n]
            custom_id = item.get("custom_id")
            if isinstance(custom_id, str):
                if custom_id in seen:
                    form.add([*here, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED",
                             "Component custom id cannot be duplicated")  # fmt: skip
                seen.add(custom_id)
            walk(item.get("components"), [*here, "components"])
            accessory = item.get("accessory")
            if isinstance(accessory, dict):
                walk([accessory], [*here, "accessory"])

    walk(components, [*at, "components"])


def _layout(form: _Form, at: list[str | int], body: dict[str, Any], files: list[FakeFile]) -> None:
    """A Components V2 message: no ``content`` or ``embeds``; its components are the layout
    (Discord's "Component Reference": what each may hold, 40 in all, 4,000 characters of
    text). Attachments "won't show by default - they must be exposed through components"
    (Component Reference, "Components V2"), by ``attachment://<filename>``: a name that is
    not a file of the message (uploaded now, or kept by an edit) is refused."""
    names = attached_names(body, files)
    for key in ("content", "embeds"):
        if body.get(key):
            form.add([*at, key], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                     f"{key} cannot be used with the IS_COMPONENTS_V2 flag")  # fmt: skip
    counted = {"components": 0, "text": 0}

    def node(item: Any, where: list[str | int], allowed: set[int]) -> None:
        counted["components"] += 1
        if not isinstance(item, dict) or item.get("type") not in allowed:
            kind = item.get("type") if isinstance(item, dict) else None
            form.add(where, "COMPONENT_TYPE_INVALID", f"Component type {kind} is not allowed here.")
            return
        kind = item["type"]
        if kind == ACTION_ROW:
            counted["components"] += len(item.get("components") or [])
            _row(form, where, item)
        elif kind == TEXT_DISPLAY:
            form.length([*where, "content"], item.get("content"), V2_TEXT, low=1, required=True)
            counted["text"] += len(item.get("content") or "")
        elif kind == SECTION:
            texts = form.count([*where, "components"], item.get("components"), SECTION_TEXTS,
                               low=1)  # fmt: skip
            for n, text in enumerate(texts):
                node(text, [*where, "components", n], {TEXT_DISPLAY})
            accessory = item.get("accessory")
            if accessory is None:
                form.add([*where, "accessory"], "BASE_TYPE_REQUIRED", "This field is required")
            else:
                node(accessory, [*where, "accessory"], {THUMBNAIL, BUTTON})
        elif kind == BUTTON:
            _button(form, where, item)
        elif kind == THUMBNAIL:
            _media(form, [*where, "media"], item.get("media"), names)
        elif kind == MEDIA_GALLERY:
            items = form.count([*where, "items"], item.get("items"), GALLERY_ITEMS, low=1)
            for n, entry in enumerate(items):
                media = entry.get("media") if isinstance(entry, dict) else None
                _media(form, [*where, "items", n, "media"], media, names)
        elif kind == FILE:
            url = (
                (item.get("file") or {}).get("url") if isinstance(item.get("file"), dict) else None
            )
            if not isinstance(url, str) or not url.startswith("attachment://"):
                form.add([*where, "file", "url"], "UNFURLED_MEDIA_ITEM_ATTACHMENT_ONLY",
                         "A file component shows an attachment (attachment://name).")  # fmt: skip
            else:
                _media(form, [*where, "file"], item.get("file"), names)
        elif kind == SEPARATOR:
            if item.get("spacing", 1) not in (1, 2):
                form.add([*where, "spacing"], "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
        elif kind == CONTAINER:
            children = form.count([*where, "components"], item.get("components"), V2_COMPONENTS,
                                  low=1)  # fmt: skip
            for n, child in enumerate(children):
                node(child, [*where, "components", n], IN_CONTAINER)

    components = form.count([*at, "components"], body.get("components"), V2_COMPONENTS, low=1)
    for n, item in enumerate(components):
        node(item, [*at, "components", n], V2_TOP)
    if counted["components"] > V2_COMPONENTS:
        form.add([*at, "components"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {V2_COMPONENTS} or fewer components in all.")  # fmt: skip
    if counted["text"] > V2_TEXT:
        form.add([*at, "components"], "BASE_TYPE_MAX_LENGTH",
                 f"Must be {V2_TEXT} or fewer characters of text in all.")  # fmt: skip


def _media(form: _Form, at: list[str | int], media: Any, names: set[str]) -> None:
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url.startswith(("https://", "http://", "attachment://")):
        form.add([*at, "url"], "BASE_TYPE_REQUIRED", "A media item needs a url or attachment://.")
    elif url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
        name = url.removeprefix("attachment://")
        form.add(
            [*at, "url"],
            "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
            f"No attachment named {name!r} on this message.",
        )


#: An edit's body as checked carries the names of the files the message keeps (an edit
#: without ``attachments`` keeps them all): ``flags.as_edited`` puts them here.
KEPT_FILES = "_kept_files"


def attached_names(body: dict[str, Any], files: list[FakeFile]) -> set[str]:
    """The file names a message's ``attachment://`` may name: the files uploaded with the
    request, those its ``attachments`` list keeps or describes, and (an edit without that
    list) those the message already has."""
    names = {f.filename for f in files}
    for entry in body.get("attachments") or ():
        if isinstance(entry, dict) and isinstance(entry.get("filename"), str):
            names.add(entry["filename"])
    if "attachments" not in body:
        names.update(body.get(KEPT_FILES) or ())
    return names


def _select(form: _Form, at: list[str | int], select: dict[str, Any]) -> None:
    form.length([*at, "custom_id"], select.get("custom_id"), CUSTOM_ID, low=1, required=True)
    form.length([*at, "placeholder"], select.get("placeholder"), PLACEHOLDER)
    options: list[Any] = []
    if select.get("type") == 3:
        options = form.count([*at, "options"], select.get("options"), SELECT_OPTIONS, low=1)
        if select.get("options") is None:
            form.add([*at, "options"], "BASE_TYPE_REQUIRED", "This field is required")
    for n, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        for key in ("label", "value"):
            form.length([*at, "options", n, key], option.get(key), OPTION_TEXT, low=1,
                        required=True)  # fmt: skip
        form.length([*at, "options", n, "description"], option.get("description"), OPTION_TEXT)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not (isinstance(low, int) and 0 <= low <= SELECT_OPTIONS):
        form.add(
            [*at, "min_values"], "NUMBER_TYPE_MAX", f"int value should be <= {SELECT_OPTIONS}."
        )
    if not (isinstance(high, int) and 1 <= high <= SELECT_OPTIONS):
        form.add(
            [*at, "max_values"], "NUMBER_TYPE_MAX", f"int value should be <= {SELECT_OPTIONS}."
        )
    elif options and high > len(options):
        form.add(
            [*at, "max_values"],
            "SELECT_COMPONENT_MAX_VALUES_EXCEEDED",
            "max_values may not be more than the number of options",
        )


def _mentions(form: _Form, at: list[str | int], mentions: dict[str, Any]) -> None:
    parse = mentions.get("parse") or []
    for key in ("users", "roles"):
        ids = form.count([*at, key], mentions.get(key), MENTION_IDS)
        if ids and key in parse:
            form.add(
                [*at, "parse"],
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{key}"] and {key}: [ids...] are mutually exclusive.',
            )


def _choices(form: _Form, at: list[str | int], choices: Any) -> None:
    for n, choice in enumerate(form.count(at, choices, CHOICES)):
        if not isinstance(choice, dict):
            continue
        form.length([*at, n, "name"], choice.get("name"), CHOICE_TEXT, low=1, required=True)
        value = choice.get("value")
        if isinstance(value, str):
            form.length([*at, n, "value"], value, CHOICE_TEXT, low=1, required=True)
        elif value is None:
            form.add([*at, n, "value"], "BASE_TYPE_REQUIRED", "This field is required")
