"""Discord's rate limits, as the fake enforces and counts them.

Discord limits a bot twice (its "Rate Limits" page): a **global** budget of 50 requests per
second per bot token, shared by every process of that bot, from which the interaction
endpoints are exempt (the callback, and the webhook routes used with an interaction's token);
and **per-route buckets**, keyed by the route and its top-level resource (channel, guild,
webhook id + token), announced on every answer in ``X-RateLimit-*`` headers. A request past
either gets a 429 with ``retry_after``. ``RateLimiter`` plays both parts for ``FakeDiscord``
(``rate_limits=True``) and, whether enforcing or not, counts every request as global-limited
or exempt, per route template, plus DM channel opens, the 429s it sent by scope, and
**violations**: requests sent into a bucket the fake had already told the client was empty.

Time runs ``time_scale`` times faster for the limits (buckets refill faster, and every
duration told to the client, ``Reset-After`` and ``retry_after``, is divided by it), so a
whole match under the limits fits in a test; benchmarks use real time (1). The model is
documented in the fake's README ("Rate limits"); the numbers are ours, not Discord's (Discord
does not publish them and asks clients to read the headers).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

#: Discord's global budget: requests per second per bot token.
GLOBAL_PER_SECOND = 50

#: Routes of the interaction endpoints: exempt from the global budget (their own buckets
#: still apply). The webhook routes are the ones a bot uses with an interaction's token.
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
EXEMPT_ROUTES = frozenset(
    {
        CALLBACK,
        f"POST {WEBHOOK}",
        f"GET {WEBHOOK}/messages/{{message_id}}",
        f"PATCH {WEBHOOK}/messages/{{message_id}}",
        f"DELETE {WEBHOOK}/messages/{{message_id}}",
    }
)
DM_OPEN = "POST /users/@me/channels"

#: The parameters that make a route's bucket separate (Discord's "top-level resources"; the
#: interaction id + token for the callback, which has its own bucket per interaction).
MAJOR_PARAMETERS = ("channel_id", "guild_id", "webhook_id", "webhook_token")
CALLBACK_MAJOR = ("interaction_id", "interaction_token")

SCOPES = ("global", "user", "shared")


@dataclass(frozen=True)
class RouteLimit:
    """A per-route bucket: ``limit`` requests per ``per`` seconds; routes with the same
    ``name`` share one bucket (and one ``X-RateLimit-Bucket`` hash)."""

    limit: int
    per: float
    name: str

    @property
    def bucket_hash(self) -> str:
        # Stable across runs and processes, opaque like Discord's.
        return hashlib.blake2s(self.name.encode(), digest_size=8).hexdigest()


#: The per-route limits the fake applies (our choice; see the README's table). A route not
#: listed gets ``DEFAULT_LIMIT`` in a bucket of its own.
ROUTE_LIMITS: dict[str, RouteLimit] = {
    "POST /channels/{channel_id}/messages": RouteLimit(5, 5.0, "message-create"),
    "PATCH /channels/{channel_id}/messages/{message_id}": RouteLimit(5, 5.0, "message-edit"),
    "DELETE /channels/{channel_id}/messages/{message_id}": RouteLimit(5, 1.0, "message-delete"),
    DM_OPEN: RouteLimit(10, 1.0, "dm-open"),
    CALLBACK: RouteLimit(5, 1.0, "interaction-callback"),
    # One bucket per interaction token for everything done with it (followups, edits).
    **{route: RouteLimit(5, 2.0, "interaction-webhook") for route in EXEMPT_ROUTES - {CALLBACK}},
    "PUT /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me": RouteLimit(
        1, 0.25, "reaction"
    ),
    "DELETE /channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me": RouteLimit(
        1, 0.25, "reaction"
    ),
    "POST /channels/{channel_id}/messages/{message_id}/threads": RouteLimit(5, 5.0, "thread-from"),
    "POST /channels/{channel_id}/threads": RouteLimit(5, 5.0, "thread-new"),
    "PATCH /channels/{channel_id}": RouteLimit(5, 5.0, "channel-edit"),
}
#: A channel webhook's own bucket, per webhook id + token, for everything done with its
#: token (executions, edits of its messages): our number, as for the rest.
CHANNEL_WEBHOOK = RouteLimit(5, 2.0, "channel-webhook")
DEFAULT_PER_ROUTE = (10, 1.0)

# Durations told to the client are rounded up to the millisecond, so a client that waits
# exactly what it was told never arrives before the bucket refills; a request this close
# (Discord time) to the end of its wait is not a violation (timer and float rounding).
EPSILON = 1e-5


def ceil_ms(seconds: float) -> float:
    return math.ceil(max(0.0, seconds) * 1000 - 1e-6) / 1000


def route_limit(route: str) -> RouteLimit:
    if route in ROUTE_LIMITS:
        return ROUTE_LIMITS[route]
    limit, per = DEFAULT_PER_ROUTE
    return RouteLimit(limit, per, route)


@dataclass(eq=False)
class Window:
    """One bucket of one bot: ``limit`` requests in a fixed window of ``per`` seconds that
    opens with the first request after the previous window closed (what discord.py models
    from ``Reset-After``). The global budget is one too (50 per second): a client that never
    sends more than 50 requests in any one-second span never finds it empty."""

    limit: int
    per: float
    used: int = 0
    resets_at: float = 0.0
    #: Until when the fake has told the client this bucket is empty (remaining 0 or a 429).
    empty_until: float = 0.0

    def take(self, now: float) -> bool:
        """Spend one request if the window has one left."""
        if now >= self.resets_at:
            self.used, self.resets_at = 0, now + self.per
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


@dataclass(frozen=True)
class Violation:
    """A request sent into a bucket the fake had said was empty, ``early`` seconds (Discord
    time) before the client was told it could go."""

    route: str
    path: str
    scope: str
    early: float
    at: float


@dataclass(eq=False)
class Admission:
    """What the limiter decided for one request: a 429 to send instead of the answer
    (``refusal``), and the headers every answer carries."""

    headers: dict[str, str] = field(default_factory=dict)
    refusal: web.Response | None = None

    def decorate(self, response: web.StreamResponse) -> None:
        for name, value in self.headers.items():
            response.headers.setdefault(name, value)


@dataclass(eq=False)
class Storm:
    until: float
    scope: str
    retry_after: float | None
    routes: frozenset[str] | None


class RateLimiter:
    """Enforces (when ``enabled``) and counts (always) Discord's limits for a fake."""

    def __init__(
        self,
        *,
        enabled: bool = False,
        time_scale: float = 1.0,
        global_per_second: int = GLOBAL_PER_SECOND,
    ) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.enabled = enabled
        self.time_scale = time_scale
        self.global_per_second = global_per_second
        self.windows: dict[tuple[str, str, tuple[str, ...]], Window] = {}
        self.globals: dict[str, Window] = {}
        self.storms: list[Storm] = []
        # Counters (see ``report``).
        self.limited: Counter[str] = Counter()
        self.exempt: Counter[str] = Counter()
        #: Requests made with a channel webhook's token (webhooks.py): off the bot's global
        #: budget (no Authorization header: the IP's budget instead), in their own bucket.
        self.webhook: Counter[str] = Counter()
        #: The application's id: a ``/webhooks/{id}/{token}`` call with another id is a
        #: channel webhook's, not an interaction's (set by the server).
        self.application_id: int | None = None
        self.refused: Counter[str] = Counter()  # 429s sent, by route
        self.scopes: Counter[str] = Counter()  # 429s sent, by scope
        self.violations: list[Violation] = []

    # ------------------------------------------------------------------ time

    def now(self) -> float:
        """Discord time: seconds, ``time_scale`` times faster than the wall clock."""
        return time.monotonic() * self.time_scale

    def told(self, seconds: float) -> float:
        """A Discord-time duration as the client must wait it (scaled, rounded up)."""
        return ceil_ms(seconds / self.time_scale)

    # ------------------------------------------------------------------ test-facing

    def storm(
        self,
        seconds: float,
        *,
        scope: str = "global",
        retry_after: float | None = None,
        routes: Iterable[str] | None = None,
    ) -> Storm:
        """For ``seconds`` (Discord time), answer 429 to every global-limited request (or
        to those of ``routes``); ``retry_after`` defaults to the time left in the storm."""
        if scope not in SCOPES:
            raise ValueError(f"scope must be one of {SCOPES}")
        chosen = frozenset(routes) if routes is not None else None
        if chosen is not None and chosen & EXEMPT_ROUTES:
            raise ValueError("interaction endpoints are exempt from the global limit")
        storm = Storm(self.now() + seconds, scope, retry_after, chosen)
        self.storms.append(storm)
        return storm

    def lift(self, storm: Storm) -> None:
        """End ``storm`` now, as Discord lifts a limit. A test that must see requests land
        inside a storm starts a long one and lifts it once it has seen them, so a slow
        (loaded) machine cannot end the storm before they arrive."""
        if storm in self.storms:
            self.storms.remove(storm)

    def report(self) -> dict[str, Any]:
        """Every request counted as global-limited or exempt, per route template; DM channel
        opens; 429s sent by scope; violations."""
        routes = sorted(set(self.limited) | set(self.exempt) | set(self.webhook))
        limited, exempt = sum(self.limited.values()), sum(self.exempt.values())
        webhook = sum(self.webhook.values())
        return {
            "enabled": self.enabled,
            "time_scale": self.time_scale,
            "requests": limited + exempt + webhook,
            "global_limited": limited,
            "exempt": exempt,
            "webhook": webhook,
            "dm_opens": self.limited[DM_OPEN],
            "rate_limited": {scope: self.scopes[scope] for scope in SCOPES},
            "violations": len(self.violations),
            "routes": {
                route: {
                    "global_limited": self.limited[route],
                    "exempt": self.exempt[route],
                    "webhook": self.webhook[route],
                    "rate_limited": self.refused[route],
                }
                for route in routes
            },
        }

    # ------------------------------------------------------------------ the decision

    def admit(
        self, request: web.Request, method: str, template: str, params: Mapping[str, str]
    ) -> Admission:
        route = f"{method} {template}"
        exempt = route in EXEMPT_ROUTES
        hooked = exempt and route != CALLBACK and self.is_channel_hook(params)
        (self.webhook if hooked else self.exempt if exempt else self.limited)[route] += 1
        now = self.now()
        who = request.headers.get("Authorization") or f"ip:{request.remote}"
        if hooked:
            # Authorised by its path's token: the global budget that applies is the IP's
            # (``who`` is the bot token only if a client sent it anyway).
            if not self.enabled:
                return Admission()
            # (Discord's own 50 a second: ``global_per_second`` cuts the bot's budget only.)
            refusal = self._take_global(f"webhook:{who}", route, request.path, now)
            if refusal is not None:
                return refusal
            return self._take_route(who, route, request.path, params, now, CHANNEL_WEBHOOK)
        storm = None if exempt else self._storm(route, now)
        if storm is not None:
            return self._refuse_storm(storm, route, request.path, who, params, now)
        if not exempt and self.enabled:
            refusal = self._take_global(who, route, request.path, now)
            if refusal is not None:
                return refusal
        if not self.enabled:
            return Admission()
        return self._take_route(who, route, request.path, params, now)

    def is_channel_hook(self, params: Mapping[str, str]) -> bool:
        """Whether a webhook route's call is made with a channel webhook's token."""
        app = self.application_id
        return app is not None and params.get("webhook_id", str(app)) != str(app)

    def _storm(self, route: str, now: float) -> Storm | None:
        self.storms = [s for s in self.storms if s.until > now]
        for storm in self.storms:
            if storm.routes is None or route in storm.routes:
                return storm
        return None

    def _window(
        self, who: str, route: str, params: Mapping[str, str], limit: RouteLimit | None = None
    ) -> tuple[Window, RouteLimit]:
        limit = limit or route_limit(route)
        names = CALLBACK_MAJOR if route == CALLBACK else MAJOR_PARAMETERS
        major = tuple(params[name] for name in names if name in params)
        key = (who, limit.name, major)
        window = self.windows.get(key)
        if window is None:
            window = self.windows[key] = Window(limit.limit, limit.per)
        return window, limit

    def _violation(self, route: str, path: str, scope: str, until: float, now: float) -> None:
        if now < until - EPSILON:
            self.violations.append(Violation(route, path, scope, until - now, now))

    def _global(self, who: str) -> Window:
        window = self.globals.get(who)
        if window is None:
            per_second = GLOBAL_PER_SECOND if who.startswith("webhook:") else self.global_per_second
            window = self.globals[who] = Window(per_second, 1.0)
        return window

    def _take_global(self, who: str, route: str, path: str, now: float) -> Admission | None:
        window = self._global(who)
        # Only a 429 tells a client about the global budget (no headers announce it).
        self._violation(route, path, "global", window.empty_until, now)
        if window.take(now):
            return None
        window.empty_until = max(window.empty_until, window.resets_at)
        return self._refusal(route, "global", window.resets_at - now, {})

    def _take_route(
        self,
        who: str,
        route: str,
        path: str,
        params: Mapping[str, str],
        now: float,
        limit: RouteLimit | None = None,
    ) -> Admission:
        window, limit = self._window(who, route, params, limit)
        self._violation(route, path, "user", window.empty_until, now)
        if not window.take(now):
            window.empty_until = max(window.empty_until, window.resets_at)
            headers = self._route_headers(window, limit, now)
            return self._refusal(route, "user", window.resets_at - now, headers)
        if window.used >= window.limit:
            window.empty_until = window.resets_at  # "Remaining: 0" tells the client
        return Admission(self._route_headers(window, limit, now))

    def _route_headers(self, window: Window, limit: RouteLimit, now: float) -> dict[str, str]:
        reset_after = self.told(window.resets_at - now)
        return {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(max(0, window.limit - window.used)),
            "X-RateLimit-Reset": f"{math.ceil((time.time() + reset_after) * 1000) / 1000:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": limit.bucket_hash,
        }

    def _refuse_storm(
        self,
        storm: Storm,
        route: str,
        path: str,
        who: str,
        params: Mapping[str, str],
        now: float,
    ) -> Admission:
        wait = storm.until - now if storm.retry_after is None else storm.retry_after
        if storm.scope == "global":
            window = self._global(who)
            self._violation(route, path, "global", window.empty_until, now)
            window.empty_until = max(window.empty_until, now + wait)
            return self._refusal(route, "global", wait, {})
        window, limit = self._window(who, route, params)
        self._violation(route, path, storm.scope, window.empty_until, now)
        window.empty_until = max(window.empty_until, now + wait)
        headers = self._route_headers(window, limit, now) if self.enabled else {}
        return self._refusal(route, storm.scope, wait, headers)

    def count_refusal(self, route: str, scope: str) -> None:
        """Count a 429 sent (also those ``FakeDiscord.rate_limit`` injects)."""
        self.refused[route] += 1
        self.scopes[scope] += 1

    def _refusal(self, route: str, scope: str, wait: float, headers: dict[str, str]) -> Admission:
        """A 429 the way Discord's edge sends it (``Via`` set: without it discord.py takes a
        429 for a Cloudflare ban and gives up)."""
        self.count_refusal(route, scope)
        retry_after = self.told(wait)
        body = {
            "message": "You are being rate limited."
            if scope != "shared"
            else "The resource is being rate limited.",
            "retry_after": retry_after,
            "global": scope == "global",
        }
        all_headers = {
            **headers,
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if scope == "global":
            all_headers["X-RateLimit-Global"] = "true"
        response = web.Response(
            body=json.dumps(body).encode(), status=429, headers={"Content-Type": "application/json"}
        )
        return Admission(all_headers, response)  # the server puts the headers on it
