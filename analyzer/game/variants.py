"""The four variants as data (``VARIANTS``: one :class:`VariantSpec` each, from
``shared/RULES.md``) and their house-rule options (``OPTIONS``), as validated, typed
:class:`Rules`.

This is the only module that knows the variants by name. Everything else asks what the rules
in force can do: ``rules.partnership``, ``rules.auction == UPCARD``, ``rules.has_ask``,
``rules.seat_w == DUMMY`` ... ``make_rules("knock", joker=True)`` gives a frozen
:class:`Rules`; an option the variant does not have, a wrong type or an impossible
combination raises :class:`RulesError` with one line that names the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np

from kernels.cards import codes as K
from kernels.cards import layout as L
from kernels.cards.rules import RuleArrays
from kernels.slots import C

from ..errors import UserError
from .scoring import LadderScoring, UpcardScoring, points_rows

# How trump is made.
LADDER = "ladder"  # one round of rising bids; the highest bidder names trump
UPCARD = "upcard"  # order the upcard's suit, or name a suit in round 2
# What seat W is.
PLAYER = "player"
GHOST = "ghost hand"
DUMMY = "dummy"
# What W is called in records and deals, where it is not a player.
W_LABELS = {GHOST: "ghost", DUMMY: "dummy"}
# Who leads the first trick.
LEAD_DECLARER = "the declarer"
LEAD_LEFT_OF_DEALER = "left of the dealer"
LEAD_LEFT_OF_LONE = "left of the dealer, or of a lone player"


@dataclass(frozen=True)
class VariantSpec:
    """What a variant is: its players and partnerships, hands, auction, seat W, bid ladder,
    lead rule, game target and scoring (see RULES.md)."""

    name: str
    title: str
    players: int
    partnership: bool
    hand_size: int  # cards each player holds at the first lead (single deck)
    auction: str  # LADDER or UPCARD
    seat_w: str  # PLAYER, GHOST or DUMMY
    has_ask: bool  # the ladder has the n-ask ("give me your best")
    lead: str
    target: int
    lone_defender: str  # "never", "option" (the lone_defender option) or "always"
    scoring: LadderScoring | UpcardScoring


VARIANTS = {
    "bid": VariantSpec(
        "bid", "Bid Euchre (4 players, 2 partnerships)", players=4, partnership=True,
        hand_size=6, auction=LADDER, seat_w=PLAYER, has_ask=True, lead=LEAD_DECLARER,
        target=32, lone_defender="never", scoring=LadderScoring(defenders="team")),
    "ghost": VariantSpec(
        "ghost", "Ghost Hand Euchre (3 players, each for themselves)", players=3,
        partnership=False, hand_size=6, auction=LADDER, seat_w=GHOST, has_ask=False,
        lead=LEAD_DECLARER, target=32, lone_defender="never",
        scoring=LadderScoring(defenders="own")),
    "cutthroat": VariantSpec(
        "cutthroat", "Cutthroat Euchre (3 players with a dummy hand)", players=3,
        partnership=False, hand_size=5, auction=UPCARD, seat_w=DUMMY, has_ask=False,
        lead=LEAD_LEFT_OF_LONE, target=10, lone_defender="always",
        scoring=UpcardScoring(march=3, march_alone="lone_maker_march_points",
                              euchre_lone_defender=2, shutout_lone_defender=4)),
    "knock": VariantSpec(
        "knock", "Knock Euchre, standard turn-up Euchre (4 players, 2 partnerships)",
        players=4, partnership=True, hand_size=5, auction=UPCARD, seat_w=PLAYER,
        has_ask=False, lead=LEAD_LEFT_OF_DEALER, target=10, lone_defender="option",
        scoring=UpcardScoring(march=2, march_alone=4,
                              euchre_lone_defender="lone_defender_points",
                              shutout_lone_defender="lone_defender_points")),
}
VARIANT_NAMES = tuple(VARIANTS)

_AUCTION_CODES = {LADDER: K.AUCTION_LADDER, UPCARD: K.AUCTION_UPCARD}
_SEAT_W_CODES = {PLAYER: K.SEAT_W_PLAYER, GHOST: K.SEAT_W_GHOST, DUMMY: K.SEAT_W_DUMMY}
_LEAD_CODES = {LEAD_DECLARER: K.LEAD_DECLARER, LEAD_LEFT_OF_DEALER: K.LEAD_LEFT_OF_DEALER,
               LEAD_LEFT_OF_LONE: K.LEAD_LEFT_OF_LONE}


_CONFIGS: dict = {}  # Rules -> its config vector


class RulesError(UserError):
    """A variant or option that does not exist, does not fit the variant, or has a bad value."""


@dataclass(frozen=True)
class OptionSpec:
    """One house-rule option: its name, type, help, and the variants that have it with their
    defaults (``None`` as a default means "derived", see ``Rules``), and its name in words
    (the page's label)."""

    name: str
    kind: type
    help: str
    defaults: dict
    label: str = ""


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("stick_the_dealer", bool,
               "the dealer may not pass when everyone else has (must bid 3 / must name trump)",
               {"bid": False, "cutthroat": False, "knock": True}, "stick the dealer"),
    OptionSpec("ace_no_face", bool,
               "a player dealt an ace and no J, Q or K may call a redeal",
               {"bid": False}, "ace-no-face redeal"),
    OptionSpec("joker", bool,
               "add a joker, always the highest trump (25 cards)",
               {"bid": False, "knock": False}, "joker"),
    OptionSpec("double_deck", bool,
               "48 cards, 12 each; bids 3 to 11, then 12-ask and 12-moon",
               {"bid": False}, "double deck (48 cards)"),
    OptionSpec("deck32", bool,
               "32-card deck: add the 7s and 8s (the kitty grows to 12)",
               {"cutthroat": False, "knock": False}, "32-card deck (7s and 8s)"),
    OptionSpec("failed_moon_points", int,
               "points lost by a failed moon (default: the bid, 6; 12 with the double deck)",
               {"bid": None, "ghost": 6}, "points lost by a failed moon"),
    OptionSpec("name_turned_down", bool,
               "round 2 may name the suit of the turned-down upcard",
               {"cutthroat": False, "knock": False}, "may name the turned-down suit"),
    OptionSpec("lone_maker_march_points", int,
               "points for a lone maker who takes all five (default 3, no bonus)",
               {"cutthroat": 3}, "points for a lone maker's march"),
    OptionSpec("lone_defender", bool,
               "a defender may go alone (their partner sits out)",
               {"knock": False}, "a defender may go alone"),
    OptionSpec("lone_defender_points", int,
               "points when a lone defender euchres the makers (needs --lone-defender)",
               {"knock": 4}, "points for a lone defender's euchre"),
    OptionSpec("win_by_two", bool,
               "the game must be won by 2 points",
               {"knock": False}, "win by two"),
)
OPTION_BY_NAME = {o.name: o for o in OPTIONS}


def _of_spec(name: str, doc: str) -> property:
    """A property of ``Rules`` read from its variant's spec (the variants are data)."""
    return property(lambda self: getattr(self.spec, name), doc=doc)


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

    def __hash__(self) -> int:
        # the rules key many caches (a bot's one-position calls look them up several times
        # a call), and the dataclass's own hash walks all twelve fields each time
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self)))

    def __getstate__(self) -> dict:
        # a string's hash differs between processes: a worker computes its own
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    # ------------------------------------------------------------------ what the variant is

    @property
    def spec(self) -> VariantSpec:
        """The variant's :class:`VariantSpec`."""
        return VARIANTS[self.variant]

    title = _of_spec("title", "The variant's name in words.")
    players = _of_spec("players", "Players at the table: 4 or 3.")
    partnership = _of_spec("partnership", "True when two partnerships play, partners "
                           "opposite; False: each for themselves.")
    auction = _of_spec("auction", "How trump is made: ``LADDER`` or ``UPCARD``.")

    @property
    def has_upcard(self) -> bool:
        """True when a card is turned up for round 1 (the upcard auction)."""
        return self.auction == UPCARD

    seat_w = _of_spec("seat_w", "What seat W is: ``PLAYER``, ``GHOST`` (a ghost hand) or "
                      "``DUMMY``.")
    has_ask = _of_spec("has_ask", "True when the ladder has the n-ask.")
    lead = _of_spec("lead", "Who leads the first trick (``LEAD_*``).")
    target = _of_spec("target", "Points that win a game.")
    scoring = _of_spec("scoring", "The scoring rules (``analyzer.game.scoring``).")

    @property
    def defenders_score_own_tricks(self) -> bool:
        """True when each defender scores their own tricks (not a team's)."""
        return self.auction == LADDER and self.scoring.defenders == "own"

    @property
    def lone_defender_allowed(self) -> bool:
        """True when a defender may go alone."""
        rule = self.spec.lone_defender
        return rule == "always" or (rule == "option" and bool(self.lone_defender))

    @property
    def seat_w_name(self) -> str:
        """What W is called in records and deals: ``ghost``, ``dummy`` or '' (a player)."""
        return W_LABELS.get(self.seat_w, "")

    # ------------------------------------------------------------------ cards and contracts

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
    def deck(self) -> int:
        """The kernels' deck code (``kernels.cards.layout.DECK_*`` flags)."""
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
        return self.spec.hand_size * (2 if self.double_deck else 1)

    @property
    def kitty_size(self) -> int:
        """Cards not dealt to the four hands (the upcard is the top one)."""
        return self.deck_size - 4 * self.hand_size

    @property
    def dealer_extra(self) -> int:
        """Cards the dealer takes (and as many discards) before a ladder auction: the cards
        left over after the deal (bid with the joker); 0 otherwise."""
        return self.kitty_size if self.auction == LADDER else 0

    def bid_name(self, code: int) -> str:
        """Words for a bid of the ladder: ``bid 4``, ``6-ask``, ``moon``."""
        if code == K.ASK:
            return f"{self.hand_size}-ask"
        return "moon" if code == K.MOON else f"bid {code}"

    @property
    def make(self) -> int:
        """Tricks an upcard-auction contract needs."""
        return 3

    @cached_property
    def bid_ladder(self) -> tuple[int, ...]:
        """Call codes of every bid of a ladder auction, lowest first (empty otherwise): 3 up
        to one less than the hand size, the n-ask where the variant has it, the moon — read
        from the engine's ladder (``kernels.hand.auction.ladder_mask``), the rule's one home."""
        if self.auction != LADDER:
            return ()
        from kernels.hand.auction import ladder_mask  # here: a compiled kernel, not for --help

        mask = int(ladder_mask(self.config()))
        return tuple(c for c in range(64) if (mask >> c) & 1)

    @property
    def contracts(self) -> tuple[int, ...]:
        """Every contract code: the bids of a ladder; the alone flags of the upcard auction."""
        if self.auction == LADDER:
            return self.bid_ladder
        if not self.lone_defender_allowed:
            return (0, K.CT_MAKER_ALONE)
        return (0, K.CT_MAKER_ALONE, K.CT_DEFENDER_ALONE, K.CT_MAKER_ALONE | K.CT_DEFENDER_ALONE)

    def config(self) -> np.ndarray:
        """The int64 configuration vector the kernels read (slots ``kernels.slots.C``); one
        array per rule set, built once (nothing writes to it)."""
        cfg = _CONFIGS.get(self)
        if cfg is None:
            cfg = _CONFIGS[self] = self._build_config()
        return cfg

    def _build_config(self) -> np.ndarray:
        cfg = np.zeros(C.LEN, dtype=np.int64)
        cfg[C.DECK] = self.deck
        cfg[C.HAND] = self.hand_size
        cfg[C.PLAYERS] = self.players
        cfg[C.PARTNERS] = int(self.partnership)
        cfg[C.AUCTION] = _AUCTION_CODES[self.auction]
        cfg[C.SEAT_W] = _SEAT_W_CODES[self.seat_w]
        cfg[C.HAS_ASK] = int(self.has_ask)
        cfg[C.LEAD] = _LEAD_CODES[self.lead]
        cfg[C.LONE_DEFENDER] = int(self.lone_defender_allowed)
        cfg[C.DEF_OWN_TRICKS] = int(self.defenders_score_own_tricks)
        cfg[C.STICK] = int(bool(self.stick_the_dealer))
        cfg[C.ACE_NO_FACE] = int(bool(self.ace_no_face))
        cfg[C.NAME_TURNED_DOWN] = int(bool(self.name_turned_down))
        cfg[C.DEAL] = self.hand_size
        cfg[C.KITTY] = self.kitty_size
        cfg[C.MAKE] = self.make
        cfg[C.TARGET] = self.target
        cfg[C.WIN_BY] = 2 if self.win_by_two else 1
        return cfg

    @cached_property
    def arrays(self) -> RuleArrays:
        """The rules as the engine's kernels take them (``kernels.cards.rules.RuleArrays``): the
        configuration vector, the points table, the layout maps and the deck, built once."""
        to_norm, from_norm = self.layout
        return RuleArrays(self.config(), self.points_table, to_norm, from_norm,
                          L.deck_natural_ids(self.deck), np.uint64(L.deck_mask(self.deck)),
                          L.normalised_decks(self.deck, to_norm))

    @cached_property
    def layout(self) -> tuple[np.ndarray, np.ndarray]:
        """``(to_norm, from_norm)``: the natural <-> trump-normalised maps of the deck."""
        return L.build_normalisation(self.deck)

    @cached_property
    def points_table(self) -> np.ndarray:
        """``table[contract, declaring side's tricks] = (declaring side, each defending side)``
        points, int64 of shape (32, 13, 2); see ``analyzer.game.scoring.points_rows``."""
        table = np.zeros((32, K.MAX_TRICKS + 1, 2), dtype=np.int64)
        for contract, tricks, decl, defend in points_rows(self):
            table[contract, tricks] = (decl, defend)
        table.setflags(write=False)
        return table

    def score(self, contract: int, declarer_tricks: int) -> tuple[int, int]:
        """Points of (the declaring side, each defending side) for a contract code and the
        declaring side's tricks. Where defenders score their own tricks they add them to the
        second number (which is 0)."""
        if contract not in self.contracts:
            raise RulesError(f"contract {contract} does not exist in {self.variant}")
        if not 0 <= declarer_tricks <= self.hand_size:
            raise RulesError(f"{declarer_tricks} tricks is impossible in a "
                             f"{self.hand_size}-trick hand")
        d, f = self.points_table[contract, declarer_tricks]
        return int(d), int(f)


def make_rules(variant: str, **given) -> Rules:
    """Validated :class:`Rules` for ``variant`` with the options in ``given`` (name -> value;
    a value of ``None`` means "not given"). Raises :class:`RulesError`."""
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise RulesError(f"unknown variant {variant!r}: choose one of "
                         f"{', '.join(VARIANT_NAMES)}")
    values = {name: _checked(variant, name, value) for name, value in given.items()
              if value is not None}
    for spec in OPTIONS:
        if variant in spec.defaults and spec.name not in values:
            values[spec.name] = spec.defaults[variant]
    if values.get("joker") and values.get("double_deck"):
        raise RulesError("the joker and the double deck cannot be combined")
    if "failed_moon_points" in values and values["failed_moon_points"] is None:
        values["failed_moon_points"] = VARIANTS[variant].hand_size * (
            2 if values.get("double_deck") else 1)
    for name in ("failed_moon_points", "lone_maker_march_points", "lone_defender_points"):
        if name in values and not 0 <= values[name] <= 1000:
            raise RulesError(f"option {option_flag(name)} must be between 0 and 1000")
    if "lone_defender_points" in values and not values["lone_defender"] and \
            values["lone_defender_points"] != OPTION_BY_NAME["lone_defender_points"].defaults[
                variant]:
        raise RulesError("option --lone-defender-points needs --lone-defender")
    return Rules(variant=variant, **values)


def _checked(variant: str, name: str, value):
    """``value`` of option ``name`` for ``variant``, or RulesError saying what is wrong."""
    spec = OPTION_BY_NAME.get(name)
    if spec is None:
        raise RulesError(f"unknown option {name!r}")
    if variant not in spec.defaults:
        have = ", ".join(option_flag(n) for n, s in sorted(OPTION_BY_NAME.items())
                         if variant in s.defaults)
        raise RulesError(f"option {option_flag(name)} does not apply to {variant} "
                         f"(its options: {have})")
    if spec.kind is bool and not isinstance(value, bool):
        raise RulesError(f"option {option_flag(name)} takes true or false, not {value!r}")
    if spec.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise RulesError(f"option {option_flag(name)} takes a whole number, not {value!r}")
    return value


def option_flag(name: str) -> str:
    """The command-line flag of an option (``failed_moon_points`` -> ``--failed-moon-points``)."""
    return "--" + name.replace("_", "-")


def rules_from_dict(data: dict) -> Rules:
    """Rules from a JSON-style mapping ``{"variant": ..., "options": {...}}``."""
    if not isinstance(data.get("options", {}), dict):
        raise RulesError("'options' must be an object of option names and values")
    return make_rules(data.get("variant"), **data.get("options", {}))
