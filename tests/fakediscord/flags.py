"""Which message flags each way of sending or editing a message takes, as Discord's pages say.

- **Create Message** (Message resource, Create Message, JSON Params ``flags``): "only
  ``SUPPRESS_EMBEDS``, ``SUPPRESS_NOTIFICATIONS``, ``IS_VOICE_MESSAGE``, and
  ``IS_COMPONENTS_V2`` can be set".
- **Execute Webhook** (Webhook resource, Execute Webhook, JSON/Form Params ``flags``): "only
  ``SUPPRESS_EMBEDS``, ``SUPPRESS_NOTIFICATIONS`` and ``IS_COMPONENTS_V2`` can be set".
- **An interaction's message** (Receiving and Responding, Interaction Callback Data Structure,
  Messages ``flags``; followups, Create Followup Message): ``SUPPRESS_EMBEDS``, ``EPHEMERAL``,
  ``IS_COMPONENTS_V2``, ``IS_VOICE_MESSAGE``, ``SUPPRESS_NOTIFICATIONS``.
- **A type-5 deferral** (same table, footnote): "the only valid message flag you may use is
  ``EPHEMERAL``. If you'd like to create a component based message with ``IS_COMPONENTS_V2``
  you must do that with the edit original response endpoint". Discord drops the others: a
  deferral sent with ``flags: 32768`` makes a message whose flags are 128 (``LOADING``) only
  (discord/discord-api-docs issue 7910; PR 7386: SUPPRESS_NOTIFICATIONS "ends up being
  filtered to just the ephemeral flag"). A type-6 deferral makes no message: nothing to flag.
- **Edits** (Message resource, Edit Message; Webhook resource, Edit Webhook Message,
  ``flags``: "``SUPPRESS_EMBEDS`` and ``IS_COMPONENTS_V2`` only"): "The ``SUPPRESS_EMBEDS`` flag
  can be both set and unset, while the ``IS_COMPONENTS_V2`` flag can only be set. When the
  ``IS_COMPONENTS_V2`` flag is set, any of the used ``content``, ``embeds`` [...] fields must
  have their values reset to empty [...] Failing to do this will result in a 400 BAD
  REQUEST". Message flags table: "Once a message has been sent with this flag, it can't be
  removed from that message" (an edit whose ``flags`` leave it out keeps it). The answer to a
  deferral is such an edit (of ``@original``), and keeps the deferral's ``EPHEMERAL``.
- **A Components V2 message** holds only components: "Providing ``content``, ``embeds`` [...]
  will fail with a 400 BAD REQUEST response" (Create Message, footnote), on every later edit
  too; its layout is checked as ``limits.py`` does for a V2 body (40 components, 4,000
  characters of text: Component Reference).
"""

from __future__ import annotations

from typing import Any

from .limits import COMPONENTS_V2, KEPT_FILES, FormError
from .models import EPHEMERAL, JSON, SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, FakeMessage

IS_VOICE_MESSAGE = 1 << 13
CREATE_MESSAGE = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | COMPONENTS_V2
EXECUTE_WEBHOOK = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
INTERACTION_MESSAGE = CREATE_MESSAGE | EPHEMERAL
DEFERRAL = EPHEMERAL
EDIT = SUPPRESS_EMBEDS | COMPONENTS_V2
LEGACY_FIELDS = ("content", "embeds")


def settable(body: JSON | None, allowed: int) -> int:
    """The flags of a new message: those of ``body`` that the route lets a sender set."""
    raw = (body or {}).get("flags")
    return int(raw or 0) & allowed


def as_edited(body: Any, message: FakeMessage | None) -> Any:
    """``body`` as Discord's limits check it: an edit of a V2 message (``message``, None when
    the route edits none) is a V2 body whatever its ``flags`` say, since the flag stays; an
    edit names the files the message keeps (for ``attachment://``: ``limits.KEPT_FILES``)."""
    if message is None or not isinstance(body, dict):
        return body
    if body.get("type") == 7 and isinstance(body.get("data"), dict):  # an UPDATE_MESSAGE answer
        return {**body, "data": as_edited(body["data"], message)}
    kept = [a.file.filename for a in message.attachments]
    if not message.flags & COMPONENTS_V2:
        return {**body, KEPT_FILES: kept}
    return {**body, "flags": int(body.get("flags") or 0) | COMPONENTS_V2, KEPT_FILES: kept}


def edit(message: FakeMessage, body: JSON) -> None:
    """Apply an edit's ``flags`` to ``message`` (Discord's rules above), refusing with a
    :class:`FormError` (400/50035) an edit that would leave a V2 message holding content or
    embeds, or a V2 layout over Discord's limits. Call before the body's fields are applied."""
    raw = body.get("flags")
    wanted = int(raw) if raw is not None else None
    was_v2 = bool(message.flags & COMPONENTS_V2)
    becomes_v2 = not was_v2 and wanted is not None and bool(wanted & COMPONENTS_V2)
    errors: dict[str, Any] = {}
    if was_v2 or becomes_v2:
        for key in LEGACY_FIELDS:
            kept = getattr(message, key) if key not in body else body[key]
            if kept:
                errors[key] = {
                    "_errors": [
                        {
                            "code": "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                            "message": f"{key} cannot be used with the IS_COMPONENTS_V2 flag",
                        }
                    ]
                }
    if errors:
        raise FormError(errors)
    if wanted is not None:
        kept_flags = message.flags & ~SUPPRESS_EMBEDS
        message.flags = kept_flags | (wanted & EDIT)
