"""The rules a game is played by: one frozen value, named presets, and validation.

Every point where the five rule sheets disagree (see ``docs/rules.md``) is a field here, so a
host's house rules are data that is stored with the game, compared, and replayed, never a code
path chosen by a global switch. ``Rules.check(players)`` refuses combinations that cannot be
dealt or played with a message a host understands.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping
from typing import Any

from bot.engine.errors import EngineError
from bot.engine.tiles import SUPPORTED_SETS, Tile, double_set

#: Bumped whenever a rule's behaviour changes, so stored games can say which engine played them.
#: 1: the first engine. 2: a blocked round waits for a full lap of passes (issue 15); games
#: recorded by version 1 replay with version 1's early ending (see ``bot.engine.ending.blocked``).
ENGINE_VERSION = 2


class RulesError(EngineError):
    """A rules value, or rules for a player count, that cannot make a playable game."""

    default_code = "bad-rules"


class HandSizes(enum.Enum):
    """Which sheet's hand-size table deals the tiles (docs/rules.md, "The match")."""

    STANDARD = "standard"  # 001, 002: 2:16, 3:16, 4:15, 5:14, 6:12, 7:10, 8:9
    FUNDEX = "fundex"  # 000, 003: 2-4:15, 5-6:11, 7-8:8
    RULES_SITE = "rules-site"  # 004: <=4:15, 5-6:11, 7-8:10, 9-10:8
    DOUBLE_NINE = "double-9"  # 001 variation: 2:15, 3:13, 4:10


_HAND_TABLES: dict[HandSizes, dict[int, int]] = {
    HandSizes.STANDARD: {2: 16, 3: 16, 4: 15, 5: 14, 6: 12, 7: 10, 8: 9},
    HandSizes.FUNDEX: {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 8, 8: 8},
    HandSizes.RULES_SITE: {2: 15, 3: 15, 4: 15, 5: 11, 6: 11, 7: 10, 8: 10, 9: 8, 10: 8},
    HandSizes.DOUBLE_NINE: {2: 15, 3: 13, 4: 10},
}
#: 9 or 10 players are allowed with the 004 table "or a bigger set" (docs/rules.md); with a bigger
#: set and another table they take 004's eight tiles, the only figure any sheet gives.
_BIG_GROUP_HAND = 8


class EnginePlacement(enum.Enum):
    """How the round's centre double (the Engine) reaches the table."""

    SET_ASIDE = "set-aside"  # standard: taken out before the deal (000, 001, 003, 004-note)
    HIGHEST_DOUBLE = "highest-double"  # 000, 003: deal first, the highest double held starts
    DRAW_UNTIL_FOUND = "draw-until-found"  # 004: the round's double; draw in turn until found


class FirstPlayer(enum.Enum):
    ROTATE = "rotate"  # 001: the host starts round 1, then clockwise each round
    HIGHEST_TILE = "highest-tile"  # 002: whoever holds the highest tile of the engine's suit


class FirstTurn(enum.Enum):
    SINGLE = "single"  # 001, 002: one tile, like any turn
    FAST_START = "fast-start"  # 000, 003, 004: as many tiles as you can on your own train


class DoubleRule(enum.Enum):
    SATISFY = "satisfy"  # 000, 003, 004: the second tile goes on that double
    ANY_OPEN_TRAIN = "any-open-train"  # 001: a non-double, on the double or any eligible train
    CHAIN = "chain"  # 002: doubles in succession, then one non-double


class Scoring(enum.Enum):
    PIPS = "pips"  # 001: the pips left in hand
    FUNDEX_BLANKS = "fundex-blanks"  # 000, 003: each blank half scores 25
    #: A table's house rule (not a seed sheet's): the double blank alone scores 50, so the
    #: tile worth nothing by its pips is the one to get rid of; every other tile scores its pips.
    DOUBLE_BLANK_50 = "double-blank-50"


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """A complete, immutable ruleset. Defaults are the standard rules of docs/rules.md.

    >>> Rules().rounds_total, Rules().engine_for_round(0), Rules(max_pip=9).rounds_total
    (13, Tile(12, 12), 10)
    """

    max_pip: int = 12
    hand_sizes: HandSizes = HandSizes.STANDARD
    #: A fixed hand size for every player count, overriding the table (``None``: the table).
    hand_size: int | None = None
    engine_placement: EnginePlacement = EnginePlacement.SET_ASIDE
    first_player: FirstPlayer = FirstPlayer.ROTATE
    first_turn: FirstTurn = FirstTurn.SINGLE
    #: 004's house rule when False: no starting the Mexican Train, nor playing on another
    #: player's train, during your own first turn of a round.
    mexican_train_on_first_turn: bool = True
    double_rule: DoubleRule = DoubleRule.SATISFY
    #: 001, 002: once every tile bearing a double's number is on the table it blocks nothing.
    release_unsatisfiable_doubles: bool = True
    #: 001, 004: a double that is your last tile ends the round at once.
    go_out_on_double: bool = True
    #: 000, 003: down to one tile you must knock before the next player acts, or be caught.
    knock: bool = False
    knock_penalty: int = 2
    scoring: Scoring = Scoring.PIPS
    #: 001: every hand is visible to everyone; the boneyard stays hidden.
    open_hands: bool = False
    #: How many rounds; ``None`` plays N+1 rounds (N-N down to 0-0).
    rounds: int | None = None
    #: The first round's engine double; ``None`` starts at N-N.
    starting_double: int | None = None
    #: Ties for the lowest total share the win; otherwise they are broken (see Match.winners).
    ties_share_win: bool = False

    # ---- derived facts -------------------------------------------------------------

    @property
    def set_size(self) -> int:
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def first_double(self) -> int:
        return self.max_pip if self.starting_double is None else self.starting_double

    @property
    def rounds_total(self) -> int:
        return self.first_double + 1 if self.rounds is None else self.rounds

    def engine_for_round(self, round_no: int) -> Tile:
        """The scheduled engine of round ``round_no`` (0-based): N-N, then N-1 … down to 0-0."""
        pip = self.first_double - round_no
        return Tile(pip, pip)

    def tiles(self) -> tuple[Tile, ...]:
        return double_set(self.max_pip)

    @property
    def player_range(self) -> tuple[int, int]:
        """The smallest and largest player count these rules deal for."""
        if self.hand_size is not None:
            most = (self.set_size - 1) // self.hand_size
            return 2, max(2, min(10, most))
        table = _HAND_TABLES[self.hand_sizes]
        most = max(table)
        if most == 8 and self.max_pip > 12:
            most = 10
        return min(table), most

    def hand_size_for(self, players: int) -> int:
        """How many tiles each of ``players`` players is dealt."""
        if self.hand_size is not None:
            return self.hand_size
        table = _HAND_TABLES[self.hand_sizes]
        if players in table:
            return table[players]
        if players in (9, 10) and self.max_pip > 12:
            return _BIG_GROUP_HAND
        low, high = min(table), max(table)
        raise RulesError(
            f"the {self.hand_sizes.value} hand-size table deals for {low} to {high} players, "
            f"not {players}"
            + (" (9-10 need the rules-site table or a bigger set)" if players in (9, 10) else "")
        )

    # ---- validation ----------------------------------------------------------------

    def check(self, players: int | None = None) -> Rules:
        """Return self if these rules make a playable game (for ``players``), else raise."""
        if self.max_pip not in SUPPORTED_SETS:
            sets = ", ".join(f"double-{n}" for n in SUPPORTED_SETS)
            raise RulesError(f"double-{self.max_pip} is not offered: choose {sets}")
        if not 0 <= self.first_double <= self.max_pip:
            raise RulesError(
                f"a double-{self.max_pip} set has no {self.first_double}-{self.first_double} "
                f"to start a round with"
            )
        if self.rounds is not None and not 1 <= self.rounds <= self.first_double + 1:
            raise RulesError(
                f"starting at {self.first_double}-{self.first_double} and counting down allows "
                f"1 to {self.first_double + 1} rounds, not {self.rounds}"
            )
        if self.hand_sizes is HandSizes.DOUBLE_NINE and self.max_pip != 9:
            raise RulesError("the double-9 hand-size table is for a double-9 set")
        if self.hand_size is not None and not 1 <= self.hand_size <= 40:
            raise RulesError(f"a hand of {self.hand_size} tiles is not playable")
        if not 0 <= self.knock_penalty <= 5:
            raise RulesError("the knock penalty is 0 to 5 tiles")
        if players is not None:
            if not 2 <= players <= 10:
                raise RulesError(f"Mexican Train is for 2 to 10 players, not {players}")
            hand = self.hand_size_for(players)
            # The engine is on the table, and the deal must leave tiles to draw.
            available = self.set_size - (
                1 if self.engine_placement is EnginePlacement.SET_ASIDE else 0
            )
            if players * hand >= available:
                raise RulesError(
                    f"{players} players with {hand}-tile hands need {players * hand + 1} tiles "
                    f"and a boneyard; a double-{self.max_pip} set has {self.set_size}"
                )
        return self

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    # ---- storage ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Load rules saved by :meth:`to_dict`; unknown keys are refused by name."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RulesError(f"unknown rule {unknown[0]!r}")
        kwargs: dict[str, Any] = {}
        for name, value in data.items():
            kind = _ENUM_FIELDS.get(name)
            if kind is not None:
                try:
                    kwargs[name] = kind(value)
                except ValueError:
                    options = ", ".join(m.value for m in kind)
                    raise RulesError(f"{name} must be one of {options}, not {value!r}") from None
            else:
                kwargs[name] = value
        return cls(**kwargs)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        return cls.from_dict(json.loads(text))

    def house_rules(self) -> dict[str, Any]:
        """The fields that differ from the standard rules, for display and storage."""
        base = Rules().to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}


_ENUM_FIELDS: dict[str, type[enum.Enum]] = {
    "hand_sizes": HandSizes,
    "engine_placement": EnginePlacement,
    "first_player": FirstPlayer,
    "first_turn": FirstTurn,
    "double_rule": DoubleRule,
    "scoring": Scoring,
}

#: Named rulesets a host picks from; house rules are then switched on top of a preset.
PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    # 000 and 003, the Fundex box: its hand table, fast start, knocking, blanks score 25.
    "fundex": Rules(
        hand_sizes=HandSizes.FUNDEX,
        first_turn=FirstTurn.FAST_START,
        knock=True,
        scoring=Scoring.FUNDEX_BLANKS,
    ),
    # 004, the rules-site write-up: its table (up to 10 players), the round's double found by
    # drawing, fast start without the Mexican Train on the first turn.
    "rules-site": Rules(
        hand_sizes=HandSizes.RULES_SITE,
        engine_placement=EnginePlacement.DRAW_UNTIL_FOUND,
        first_turn=FirstTurn.FAST_START,
        mexican_train_on_first_turn=False,
    ),
    # 002, a family's house rules: chained doubles, the highest 12-x tile starts.
    "family": Rules(double_rule=DoubleRule.CHAIN, first_player=FirstPlayer.HIGHEST_TILE),
    # 001's variation for 2-4 players: a double-9 set.
    "double-9": Rules(max_pip=9, hand_sizes=HandSizes.DOUBLE_NINE),
    "double-15": Rules(max_pip=15),
    "double-18": Rules(max_pip=18),
    # One round from 12-12, for a quick game.
    "quick": Rules(rounds=1),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"there is no preset {name!r}: choose one of {', '.join(PRESETS)}"
        ) from None
