"""Refusals a test orders: Discord's errors that depend on things the fake does not model.

Some of Discord's refusals come from state no test builds (the bot owner's two-factor
setting, a server's AutoMod rules, whether a user still shares a server with the bot). A test
makes them happen with one general hook instead of a model of each::

    fake.refuse("POST", "/channels/{channel_id}/messages", AUTOMOD_BLOCKED,
                when=lambda request: "spoiler" in str(request.body))

The next request(s) to that route (a template, as ``fake.requests`` shows them) that ``when``
accepts are answered with the error, in Discord's shape (``{"code", "message"}`` with its HTTP
status), before the route runs: nothing changes, as when Discord refuses. ``times=None`` keeps
refusing until :meth:`Refusal.lift`. ``fake.fail_next`` (a 5xx in an incident) is one of them.

The codes and their words are those of Discord's "Opcodes and Status Codes" page, JSON Error
Codes (https://docs.discord.com/developers/topics/opcodes-and-status-codes#json-json-error-codes);
the page gives no HTTP status, so the status is the one Discord is seen to send with each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .server import ApiError, RecordedRequest

#: 50278 "Cannot send messages to this user due to having no mutual guilds" (a DM to a user who
#: left every server the bot shares); 403 like its sibling 50007.
NO_MUTUAL_GUILDS = ApiError(
    403, 50278, "Cannot send messages to this user due to having no mutual guilds"
)
#: 60003 "Two factor is required for this operation" (Manage Webhooks and other moderation
#: actions on a server that requires 2FA, when the bot's owner has none): 403.
TWO_FACTOR_REQUIRED = ApiError(403, 60003, "Two factor is required for this operation")
#: 200000 "Message was blocked by automatic moderation" (an AutoMod rule of the server): 400.
AUTOMOD_BLOCKED = ApiError(400, 200000, "Message was blocked by automatic moderation")
#: Discord in an incident: a 5xx discord.py does not retry itself.
SERVICE_UNAVAILABLE = ApiError(503, 0, "Service Unavailable")


@dataclass(eq=False)
class Refusal:
    """One ordered refusal: ``times`` more answers (None: until lifted), ``served`` so far."""

    method: str
    route: str
    error: ApiError
    times: int | None
    when: Callable[[RecordedRequest], bool] | None
    served: int = 0

    def lift(self) -> None:
        """Stop refusing."""
        self.times = 0


class Refusals:
    """The refusals pending, in the order ordered; the first that matches a request answers."""

    def __init__(self) -> None:
        self.pending: list[Refusal] = []

    def add(
        self,
        method: str,
        route: str,
        error: ApiError,
        *,
        times: int | None = 1,
        when: Callable[[RecordedRequest], bool] | None = None,
    ) -> Refusal:
        refusal = Refusal(method, route, error, times, when)
        self.pending.append(refusal)
        return refusal

    def take(self, request: RecordedRequest) -> ApiError | None:
        """The error to answer ``request`` with, if a pending refusal matches it."""
        for refusal in self.pending:
            if refusal.times is not None and refusal.times <= 0:
                continue
            if (refusal.method, refusal.route) != (request.method, request.route):
                continue
            if refusal.when is not None and not refusal.when(request):
                continue
            if refusal.times is not None:
                refusal.times -= 1
            refusal.served += 1
            return refusal.error
        return None

    @property
    def served(self) -> int:
        return sum(r.served for r in self.pending)
