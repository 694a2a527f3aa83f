"""The four variants and their house-rule options (``shared/RULES.md``), as validated, typed
values; the configuration vector and the points table the kernels play by.

``make_rules("knock", joker=True)`` gives a frozen :class:`Rules`. An option the variant does not
have, a wrong type or an impossible combination raises :class:`RulesError` with one line that
names the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from kernels import layout as L
from kernels import rules as K

from .errors import UserError

VARIANTS = ("bid", "ghost", "cutthroat", "knock")
VARIANT_CODES = {"bid": K.BID, "ghost": K.GHOST, "cutthroat": K.CUTTHROAT, "knock": K.KNOCK}
VARIANT_TITLES = {
    "bid": "Bid Euchre (4 players, 2 partnerships)",
    "ghost": "Ghost Hand Euchre (3 players, each for themselves)",
    "cutthroat": "Cutthroat Euchre (3 players with a dummy hand)",
    "knock": "Knock Euchre, standard turn-up Euchre (4 players, 2 partnerships)",
}


class RulesError(UserError):
    """A variant or option that does not exist, does not fit the variant, or has a bad value."""


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option: its name, type, help, and the variants that have it with their
    defaults (``None`` as a default means "derived", see ``Rules``)."""

    name: str
    kind: type
    help: str
    defaults: dict


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("stick_the_dealer", bool,
               "the dealer may not pass when everyone else has (must bid 3 / must name trump)",
               {"bid": False, "cutthroat": False, "knock": True}),
    OptionSpec("ace_no_face", bool,
               "a player dealt an ace and no J, Q or K may call a redeal",
               {"bid": False}),
    OptionSpec("joker", bool,
               "add a joker, always the highest trump (25 cards)",
               {"bid": False, "knock": False}),
    OptionSpec("double_deck", bool,
               "48 cards, 12 each; bids 3 to 11, then 12-ask and 12-moon",
               {"bid": False}),
    OptionSpec("deck32", bool,
               "32-card deck: add the 7s and 8s (the kitty grows to 12)",
               {"cutthroat": False, "knock": False}),
    OptionSpec("failed_moon_points", int,
               "points lost by a failed moon (default: the bid, 6; 12 with the double deck)",
               {"bid": None, "ghost": 6}),
    OptionSpec("name_turned_down", bool,
               "round 2 may name the suit of the turned-down upcard",
               {"cutthroat": False, "knock": False}),
    OptionSpec("lone_maker_march_points", int,
               "points for a lone maker who takes all five (default 3, no bonus)",
               {"cutthroat": 3}),
    OptionSpec("lone_defender", bool,
               "a defender may go alone (their partner sits out)",
               {"knock": False}),
    OptionSpec("lone_defender_points", int,
               "points when a lone defender euchres the makers (needs lone_defender)",
               {"knock": 4}),
    OptionSpec("win_by_two", bool,
               "the game must be won by 2 points",
               {"knock": False}),
)
OPTION_BY_NAME = {o.name: o for o in OPTIONS}


@dataclass(frozen=True)
class Rules:
    """The rules in force: a variant and the value of each of its options. Options the
    variant does not have stay ``None``. Build with :func:`make_rules`."""

    variant: str
    stick_the_dealer: bool | None = None
    ace_no_face: bool | None = None
    joker: bool | None = None
    double_deck: bool | None = None
    deck32: bool | None = None
    failed_moon_points: int | None = None
    name_turned_down: bool | None = None
    lone_maker_march_points: int | None = None
    lone_defender: bool | None = None
    lone_defender_points: int | None = None
    win_by_two: bool | None = None

    @property
    def code(self) -> int:
        """The kernels' integer code of the variant."""
        return VARIANT_CODES[self.variant]

    @property
    def options(self) -> dict:
        """Every option of the variant with its value, in the order of ``OPTIONS``."""
        return {o.name: getattr(self, o.name) for o in OPTIONS if self.variant in o.defaults}

    @property
    def changed_options(self) -> dict:
        """The options whose value differs from the variant's default."""
        base = make_rules(self.variant)
        return {k: v for k, v in self.options.items() if getattr(base, k) != v}

    @property
    def players(self) -> int:
        """Players at the table: 4 (bid, knock) or 3 (ghost, cutthroat)."""
        return 4 if self.variant in ("bid", "knock") else 3

    @property
    def deck(self) -> int:
        """The kernels' deck code (``kernels.layout.DECK_*`` flags)."""
        code = 0
        if self.joker:
            code |= L.DECK_JOKER
        if self.double_deck:
            code |= L.DECK_DOUBLE
        if self.deck32:
            code |= L.DECK_LOW
        return code

    @property
    def deck_size(self) -> int:
        """Number of cards in the deck."""
        base = (32 if self.deck32 else 24) * (2 if self.double_deck else 1)
        return base + (1 if self.joker else 0)

    @property
    def hand_size(self) -> int:
        """Cards each player holds at the first lead, which is also the number of tricks."""
        if self.variant in ("bid", "ghost"):
            return 12 if self.double_deck else 6
        return 5

    @property
    def kitty_size(self) -> int:
        """Cards not dealt to the four hands (the upcard is the top one)."""
        return self.deck_size - 4 * self.hand_size

    @property
    def target(self) -> int:
        """Points that win a game."""
        return 32 if self.variant in ("bid", "ghost") else 10

    @property
    def bid_ladder(self) -> tuple[int, ...]:
        """Call codes of every bid, lowest first (bid and ghost)."""
        if self.variant == "bid":
            return tuple(range(3, self.hand_size)) + (K.ASK, K.MOON)
        if self.variant == "ghost":
            return (3, 4, 5, K.MOON)
        return ()

    def config(self) -> np.ndarray:
        """The int64 configuration vector the kernels read (``kernels.rules.C_*``)."""
        cfg = np.zeros(K.C_LEN, dtype=np.int64)
        cfg[K.C_VARIANT] = self.code
        cfg[K.C_DECK] = self.deck
        cfg[K.C_HAND] = self.hand_size
        cfg[K.C_PLAYERS] = self.players
        cfg[K.C_STICK] = int(bool(self.stick_the_dealer))
        cfg[K.C_ACE_NO_FACE] = int(bool(self.ace_no_face))
        cfg[K.C_NAME_TURNED_DOWN] = int(bool(self.name_turned_down))
        cfg[K.C_LONE_DEFENDER] = int(bool(self.lone_defender))
        cfg[K.C_DEAL] = self.hand_size
        cfg[K.C_KITTY] = self.kitty_size
        return cfg

    @cached_property
    def layout(self) -> tuple[np.ndarray, np.ndarray]:
        """``(to_norm, from_norm)``: the natural <-> trump-normalised maps of the deck."""
        return L.build_normalisation(self.deck)

    @cached_property
    def points_table(self) -> np.ndarray:
        """``table[contract, declaring side's tricks] = (declaring side, each defending side)``
        points, int64 of shape (32, 13, 2). See :func:`points_rows` for the rows it holds."""
        table = np.zeros((32, K.MAX_TRICKS + 1, 2), dtype=np.int64)
        for contract, tricks, decl, defend in points_rows(self):
            table[contract, tricks] = (decl, defend)
        table.setflags(write=False)
        return table

    def score(self, contract: int, declarer_tricks: int) -> tuple[int, int]:
        """Points of (the declaring side, each defending side) for a contract code (a bid call
        in bid/ghost; ``CT_*`` alone flags in knock/cutthroat) and the declaring side's tricks.
        In ghost each defender adds their own tricks to the second number (which is 0)."""
        if contract not in self.contracts:
            raise RulesError(f"contract {contract} does not exist in {self.variant}")
        if not 0 <= declarer_tricks <= self.hand_size:
            raise RulesError(f"{declarer_tricks} tricks is impossible in a "
                             f"{self.hand_size}-trick hand")
        d, f = self.points_table[contract, declarer_tricks]
        return int(d), int(f)

    @property
    def contracts(self) -> tuple[int, ...]:
        """Every contract code of the variant."""
        if self.variant in ("bid", "ghost"):
            return self.bid_ladder
        if self.variant == "knock" and not self.lone_defender:
            return (0, K.CT_MAKER_ALONE)
        return (0, K.CT_MAKER_ALONE, K.CT_DEFENDER_ALONE, K.CT_MAKER_ALONE | K.CT_DEFENDER_ALONE)


def points_rows(rules: Rules):
    """The points table of a variant as rows ``(contract, declaring side's tricks, declaring
    side's points, each defending side's points)``, straight from RULES.md."""
    n = rules.hand_size
    if rules.variant in ("bid", "ghost"):
        for bid in rules.bid_ladder:
            for t in range(n + 1):
                # Defenders score a point a trick: as a team in bid, each for themselves in
                # ghost (the engine adds each defender's own tricks to the 0 here).
                defend = n - t if rules.variant == "bid" else 0
                if bid == K.ASK:
                    decl = 2 * n if t == n else -n
                elif bid == K.MOON:
                    decl = 4 * n if t == n else -rules.failed_moon_points
                else:
                    decl = t if t >= bid else -bid
                yield bid, t, decl, defend
        return
    for contract in rules.contracts:
        maker_alone = bool(contract & K.CT_MAKER_ALONE)
        defender_alone = bool(contract & K.CT_DEFENDER_ALONE)
        for t in range(n + 1):
            if t == n:
                if rules.variant == "knock":
                    yield contract, t, (4 if maker_alone else 2), 0
                else:
                    yield contract, t, (rules.lone_maker_march_points if maker_alone else 3), 0
            elif t >= 3:
                yield contract, t, 1, 0
            elif rules.variant == "knock":
                yield contract, t, 0, (rules.lone_defender_points if defender_alone else 2)
            else:  # cutthroat: each defender scores
                yield contract, t, 0, (4 if defender_alone and t == 0 else 2)


def make_rules(variant: str, **given) -> Rules:
    """Validated :class:`Rules` for ``variant`` with the options in ``given`` (name -> value;
    a value of ``None`` means "not given"). Raises :class:`RulesError`."""
    if variant not in VARIANTS:
        raise RulesError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    values = {}
    for name, value in given.items():
        if value is None:
            continue
        spec = OPTION_BY_NAME.get(name)
        if spec is None:
            raise RulesError(f"unknown option {name!r}")
        if variant not in spec.defaults:
            have = ", ".join(sorted(n for n, s in OPTION_BY_NAME.items() if variant in s.defaults))
            raise RulesError(f"option {option_flag(name)} does not apply to {variant} "
                             f"(its options: {have})")
        if spec.kind is bool and not isinstance(value, bool):
            raise RulesError(f"option {option_flag(name)} takes true or false, not {value!r}")
        if spec.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise RulesError(f"option {option_flag(name)} takes a whole number, not {value!r}")
        values[name] = value
    for spec in OPTIONS:
        if variant in spec.defaults and spec.name not in values:
            values[spec.name] = spec.defaults[variant]
    if values.get("joker") and values.get("double_deck"):
        raise RulesError("the joker and the double deck cannot be combined")
    if variant == "bid" and values["failed_moon_points"] is None:
        values["failed_moon_points"] = 12 if values["double_deck"] else 6
    for name in ("failed_moon_points", "lone_maker_march_points", "lone_defender_points"):
        if name in values and not 0 <= values[name] <= 1000:
            raise RulesError(f"option {option_flag(name)} must be between 0 and 1000")
    lone_default = OPTION_BY_NAME["lone_defender_points"].defaults.get(variant)
    if variant == "knock" and not values["lone_defender"] and \
            values["lone_defender_points"] != lone_default:
        raise RulesError("option --lone-defender-points needs --lone-defender")
    return Rules(variant=variant, **values)


def option_flag(name: str) -> str:
    """The command-line flag of an option (``failed_moon_points`` -> ``--failed-moon-points``)."""
    return "--" + name.replace("_", "-")


def rules_from_dict(data: dict) -> Rules:
    """Rules from a JSON-style mapping ``{"variant": ..., "options": {...}}``."""
    if not isinstance(data.get("options", {}), dict):
        raise RulesError("'options' must be an object of option names and values")
    return make_rules(data.get("variant"), **data.get("options", {}))

