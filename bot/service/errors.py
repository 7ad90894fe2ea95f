"""Every refusal the service makes: one :class:`ServiceError` base with a code and a message.

``code`` is stable, for translation and tests; ``str(error)`` is a short English sentence a
player can read; ``params`` holds the facts in the message for a translator. A refused call
changes nothing. Engine refusals keep the engine's own code (``no-fit``, ``not-your-turn``…).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bot.store.outage import Outage as Outage  # the memory of one outage, for the log
from bot.store.outage import log_failure as log_failure  # one line per outage, no traceback
from bot.store.outage import unreachable as unreachable  # which driver errors are an outage
from bot.store.outage import unsure as unsure  # a commit whose answer never came

Param = str | int | None


class ServiceError(Exception):
    """A request the service refused; nothing was changed."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: Param) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.params: Mapping[str, Param] = MappingProxyType(dict(params))

    def __str__(self) -> str:
        return self.message


class GameNotFound(ServiceError):
    code = "no-game"


class OtherChannel(ServiceError):
    """A move sent from a channel where its game is not played (only a forged click can)."""

    code = "other-channel"


class NotInGame(ServiceError):
    code = "not-in-game"

    def __init__(self) -> None:
        super().__init__("you are not in this game")


class SeatGiven(NotInGame):
    """The user's seat went to a computer player (they left, were kicked, or timed out too
    often): its hand is the computer's now, and private like any other player's."""

    code = "seat-given"


class AlreadyInGame(ServiceError):
    code = "already-in-game"

    def __init__(self) -> None:
        super().__init__("you are already in this game")


class GameFull(ServiceError):
    code = "game-full"

    def __init__(self, players: int) -> None:
        super().__init__("the game is full", players=players)


class NotHost(ServiceError):
    code = "not-host"

    def __init__(self, action: str) -> None:
        super().__init__(f"only the host can {action}", action=action)


class WrongPhase(ServiceError):
    """The game is not in the phase the request needs (lobby, playing, over)."""

    code = "wrong-phase"


class ChannelBusy(ServiceError):
    code = "channel-busy"

    def __init__(self, game_id: int) -> None:
        super().__init__("this channel already has a game going", game_id=game_id)


class LeagueTableOpened(ServiceError):
    """A league table's lobby refused: the table already has its game (another try, another
    process, opened it first) or is gone; nothing was opened."""

    code = "league-table-opened"

    def __init__(self, table: int) -> None:
        super().__init__("that league table's game is already open", table=table)


class ChannelNotAllowed(ServiceError):
    code = "channel-not-allowed"

    def __init__(self) -> None:
        super().__init__("games can't be played in this channel on this server")


class NeedsHostRole(ServiceError):
    code = "host-role"

    def __init__(self, role_id: int) -> None:
        super().__init__("you need the host role to start a game here", role_id=role_id)


class BadRules(ServiceError):
    code = "bad-rules"


class BadMove(ServiceError):
    """A move that could not be read (the notation), not one the rules refuse."""

    code = "bad-move"


class MoveRefused(ServiceError):
    """The rules refuse the move; ``code`` is the engine's reason (``no-fit``, …)."""

    code = "illegal-move"


class NotEnoughPlayers(ServiceError):
    code = "not-enough-players"


class NoSuchSeat(ServiceError):
    code = "no-seat"


class TableChanged(ServiceError):
    """Someone else's move landed first; the request was not applied and may be retried."""

    code = "table-changed"

    def __init__(self) -> None:
        super().__init__("the table changed, try again")


class GameCorrupt(ServiceError):
    """A stored game that cannot be read back; other games are unaffected."""

    code = "game-corrupt"

    def __init__(self, game_id: int, detail: str, seq: int | None = None) -> None:
        where = f" at event {seq}" if seq is not None else ""
        super().__init__(
            f"game #{game_id} cannot be loaded{where}: {detail}",
            game_id=game_id,
            seq=seq,
            detail=detail,
        )
        self.game_id = game_id
        self.seq = seq


class BadSetting(ServiceError):
    code = "bad-setting"
