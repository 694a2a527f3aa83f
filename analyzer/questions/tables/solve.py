"""``euchre solve``: a whole deal solved double dummy from the first lead, with the choices a
side still has (the dealer's discard, the maker's best five of ten with the dummy, the card
given away in an n-ask) made best for that side."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from kernels.bidding.exchange_rules import ask_returns, exchange_pool, made_on_upcard

from ...compute.solver import deal_numbers, shared_solver, solve_positions
from ...errors import UserError
from ...game.notation import CARD_TEXT, SEATS, Deal, format_card, format_hand
from ...game.seating import default_leader, partner, seating
from ...game.variants import DUMMY, LADDER, Rules


class SolveResult:
    """The double-dummy answer for one deal: tricks of each side with best play, the choices
    the solver made for a side (discards, the dummy, the ask exchange), and, when first read,
    the value of every opening lead (``leads``, a search about as long again as the deal's)
    and the hands as played (``hands``). A bot that wants only the tricks pays for one exact
    solve; ``nodes`` counts what was searched so far, the leads included once valued."""

    __slots__ = ("declarer_tricks", "choices", "_rules", "_played", "_position", "_declarer",
                 "_nodes", "_hand_size", "_leads")

    def __init__(self, rules: Rules, played: list, position: tuple, declarer: int,
                 tricks: int, nodes: int, choices: dict, hand_size: int | None = None):
        """``played`` the hands (natural masks) as played, ``position`` the numbers of the
        solver's call ``(trump, leader, active, decl)``, ``tricks`` the declaring side's,
        ``nodes`` those searched for them and ``hand_size`` the rules' (None: read from
        them)."""
        # only the numbers here: a bot solving deal after deal reads the tricks, and the
        # names are made when read (1.0 us a call -> 0.3)
        self.declarer_tricks = tricks
        self.choices = choices
        self._rules, self._played, self._position = rules, played, position
        self._declarer, self._nodes, self._hand_size = declarer, nodes, hand_size

    @property
    def declarer(self) -> str:
        """The declarer's seat name."""
        return SEATS[self._declarer]

    @property
    def leader(self) -> str:
        """The seat name of the opening leader."""
        return SEATS[self._position[1]]

    @property
    def trump(self) -> str:
        """The trump suit's letter."""
        return "CDHS"[self._position[0]]

    @property
    def defender_tricks(self) -> int:
        """The defending side's tricks."""
        return (self._hand_size or self._rules.hand_size) - self.declarer_tricks

    @property
    def leads(self) -> dict:
        """The declaring side's tricks after each opening lead, by card text (searched when
        first read)."""
        try:
            return self._leads[0]
        except AttributeError:
            pass
        solver = shared_solver(self._rules)
        active = self._position[2]
        values = solver.values([h if (active >> s) & 1 else 0 for s, h in enumerate(self._played)],
                               *self._position)
        self._leads = ({CARD_TEXT[c]: v for c, v in enumerate(values.tolist()) if v >= 0},
                       solver.nodes)
        return self._leads[0]

    @property
    def hands(self) -> dict:
        """The hands as played, by seat name."""
        active = self._position[2]
        return {SEATS[s]: format_hand(self._played[s]) for s in range(4) if (active >> s) & 1}

    @property
    def nodes(self) -> int:
        """Nodes searched: the deal's solve (and its options), and the leads once valued."""
        try:
            return self._nodes + self._leads[1]
        except AttributeError:
            return self._nodes

    def __repr__(self) -> str:
        return (f"SolveResult(declarer={self.declarer!r}, leader={self.leader!r}, "
                f"trump={self.trump!r}, declarer_tricks={self.declarer_tricks}, "
                f"defender_tricks={self.defender_tricks}, choices={self.choices!r})")

    def to_dict(self) -> dict:
        """The result as a JSON-ready dict (the keys of ``euchre solve --json``); values the
        leads."""
        leads = self.leads
        return {"declarer": self.declarer, "leader": self.leader, "trump": self.trump,
                "declarer_tricks": self.declarer_tricks,
                "defender_tricks": self.defender_tricks, "leads": leads,
                "nodes": self.nodes, "choices": self.choices, "hands": self.hands}


def solve_deal(rules: Rules, deal: Deal, trump: int, declarer: int, *, leader: int | None = None,
               mode: str = "normal", dealer: int | None = None,
               defender_alone: int | None = None) -> SolveResult:
    """Solve a whole deal double dummy from the first lead.

    ``deal`` holds every playing hand (see the README for what each variant needs: the upcard
    and dealer for a pick-up, the dummy in cutthroat, the partner's hand for a 6-ask). Where a
    side still has a choice (the dealer's discard, the maker's best 5 of 10 with the dummy,
    the card given away in a 6-ask) every option is solved and the best one for that side is
    used. The result values each opening lead when its ``leads`` are first read. Raises
    UserError for an impossible deal."""
    key = (declarer, mode, dealer, leader, defender_alone)
    last = _LAST
    if rules is not last[0]:  # the rules solved last are known without hashing them
        last[0], last[1] = rules, {}
    c = last[1].get(key)
    if c is None:
        c = last[1][key] = _contract(rules, *key)
    given = deal.hands
    # a bot's common call, solved as given: nothing to choose (no upcard, discard, dummy or
    # n-ask) and every hand the contract needs there (the solver checks their cards)
    if c.as_given and deal.upcard is None and deal.discard is None and \
            not (c.dummy and 3 in given) and not (c.all_four and len(given) < 4):
        get = given.get
        hands = [get(0, 0), get(1, 0), get(2, 0), get(3, 0)]
        solver = shared_solver(rules)
        tricks = solver.whole_deal(hands, c.numbers | trump)
        if tricks >= 0:  # else a hand's count is wrong: the checks below say which
            return SolveResult(rules, hands, (trump, c.leader, c.active, c.decl), declarer,
                               tricks, solver.nodes, {}, c.hand_size)
    options, chooser, labels = _options(rules, deal, trump, declarer, mode, c)
    n = c.hand_size
    for hands in options:
        for s in c.seats:
            if hands[s].bit_count() != n:
                raise UserError(f"{SEATS[s]} holds {hands[s].bit_count()} cards; "
                                f"{rules.variant} hands have {n} at the first lead")
    if len(options) > 1:
        hands = np.array(options, dtype=np.uint64)
        values, used = solve_positions(rules, hands, trump, c.leader, c.active, c.decl, -1)
        picks = values if (c.decl >> chooser) & 1 else -values.astype(np.int64)
        best = int(np.argmax(picks))
        tricks, nodes = int(values[best]), int(used.sum())
    else:
        best = 0
        # not kept in the cached contract: 256 of them would each keep a solver alive
        # (59 MB in the double deck) after shared_solver let it go
        solver = shared_solver(rules)
        tricks = solver.solve(options[0], trump, c.leader, c.active, c.decl)
        nodes = solver.nodes
    return SolveResult(rules, options[best], (trump, c.leader, c.active, c.decl), declarer,
                       tricks, nodes, labels[best], n)


@dataclass(frozen=True)
class _Contract:
    """What a deal's solve needs of its contract and rules, read once (a bot solving deal
    after deal asks the same few; ``solve_deal`` is its one-call path): the seats that play
    (``active``, ``seats``), the declaring side, the dealer and the leader, the cards a hand
    holds at the first lead, whether trump is made by a ladder auction (no upcard),
    and whether the maker may take the dummy (W)."""

    active: int
    decl: int
    dealer: int
    leader: int
    seats: tuple
    hand_size: int
    ladder: bool
    partnership: bool
    dummy: bool
    numbers: int  # the solver's numbers of a whole deal, the trump's bits 0 (deal_numbers)
    as_given: bool  # no n-ask: a deal's hands may be solved as given
    all_four: bool  # a ladder auction with partners: every hand plays or is asked


_LAST: list = [None, None]  # the rules solve_deal was asked last, and their contracts by call


def _contract(rules: Rules, declarer: int, mode: str, dealer: int | None, leader: int | None,
              defender_alone: int | None) -> _Contract:
    """The contract of a deal's solve, the dealer and leader defaulted by the variant's rules
    (kept in ``_LAST`` for the rules asked last). Raises UserError for a contract, dealer or
    leader the variant does not have."""
    active, decl = seating(rules, declarer, mode, defender_alone)
    if dealer is None:
        dealer = rules.players - 1  # so that N is left of the dealer
    if not 0 <= dealer < rules.players:
        raise UserError(f"{SEATS[dealer]} does not play in {rules.variant}, so it cannot deal")
    if leader is None:
        leader = default_leader(rules, declarer, active, dealer, mode == "alone",
                                defender_alone)
    if not (active >> leader) & 1:
        raise UserError(f"{SEATS[leader]} sits out this hand, so it cannot lead")
    return _Contract(active, decl, dealer, leader,
                     tuple(s for s in range(4) if (active >> s) & 1), rules.hand_size,
                     rules.auction == LADDER, rules.partnership,
                     rules.seat_w == DUMMY and mode != "alone",
                     deal_numbers(rules, 0, leader, active, decl),
                     not (rules.auction == LADDER and mode == "ask"),
                     rules.auction == LADDER and rules.partnership)


def _bits(mask: int) -> list[int]:
    return [i for i in range(64) if (mask >> i) & 1]


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _options(rules: Rules, deal: Deal, trump: int, declarer: int, mode: str, c: _Contract):
    """The hand sets to choose from (each a list of 4 natural masks), the seat whose side
    chooses among them, and a label (dict) describing each for the output."""
    given = deal.hands
    base = [0, 0, 0, 0]
    for s in c.seats:
        if s not in given:
            raise UserError(f"the deal has no hand for {SEATS[s]}, who plays")
        base[s] = given[s]
    if c.ladder:
        if c.partnership and len(given) < 4:  # the partner's hand plays or is asked
            raise UserError(f"a {rules.variant} deal needs all four hands (N, E, S, W)")
        if mode != "ask":
            return [base], declarer, [{}]
        return _ask_options(rules, given, base, trump, declarer)
    if deal.upcard is None and deal.discard is None and \
            base[c.dealer].bit_count() != c.hand_size + 1 and not (c.dummy and 3 in given):
        return [base], c.dealer, [{}]  # nothing to choose: no pick-up, no dummy
    choices, labels = _pickup_options(rules, deal, base, trump, c.dealer, c.active)
    if c.dummy and 3 in given:
        if len(choices) > 1:
            raise UserError("give the dealer's discard ('discard: …') when the solver also "
                            "chooses the maker's best five of ten")
        return _dummy_options(rules, choices[0], labels[0], given[3], declarer)
    return choices, c.dealer, labels


def _ask_options(rules: Rules, given: dict, base: list, trump: int, declarer: int):
    """Every card the n-asker can give, with the card the partner returns (their best trump,
    or any card when they have none)."""
    n = rules.hand_size
    part = partner(declarer)
    if _popcount(given[part]) != n:
        raise UserError(f"{SEATS[part]} holds {_popcount(given[part])} cards; "
                        f"{rules.variant} hands have {n}")
    receives = _bits(int(ask_returns(np.uint64(given[part]), trump, rules.arrays)))
    options, labels = [], []
    for give in _bits(given[declarer]):
        for get in receives:
            hands = list(base)
            hands[declarer] = (given[declarer] & ~(1 << give)) | (1 << get)
            options.append(hands)
            labels.append({"give": format_card(give), "receive": format_card(get)})
    return options, declarer, labels


def _pickup_options(rules: Rules, deal: Deal, base: list, trump: int, dealer: int,
                    active: int):
    """The dealer takes the upcard when trump is its suit, and discards (the card given, or
    every choice)."""
    n = rules.hand_size
    hands = list(base)
    up = deal.upcard
    if up is not None and made_on_upcard(up, trump) and not (hands[dealer] >> up) & 1:
        if _popcount(hands[dealer]) != n:
            raise UserError(f"the dealer {SEATS[dealer]} should hold {n} cards before "
                            f"taking the upcard")
        hands[dealer] = int(exchange_pool(rules.arrays, np.uint64(hands[dealer]),
                                          np.uint64(1 << up))[0])
    if not ((active >> dealer) & 1 and _popcount(hands[dealer]) == n + 1):
        return [hands], [{}]
    if deal.discard is not None:
        if _popcount(deal.discard) != 1 or not hands[dealer] & deal.discard:
            raise UserError("'discard' must be one card of the dealer's six")
        hands[dealer] &= ~deal.discard
        return [hands], [{}]
    choices, labels = [], []
    for d in _bits(hands[dealer]):
        h = list(hands)
        h[dealer] &= ~(1 << d)
        choices.append(h)
        labels.append({"discard": format_card(d)})
    return choices, labels


def _dummy_options(rules: Rules, hands: list, label: dict, dummy: int, declarer: int):
    """Every five the maker can keep of their hand and the dummy."""
    pool, keep_n = exchange_pool(rules.arrays, np.uint64(hands[declarer]), np.uint64(dummy))
    ten, n = int(pool), int(keep_n)
    if _popcount(ten) != 2 * n:
        raise UserError(f"the maker and the dummy should hold {2 * n} cards together")
    options, labels = [], []
    for keep in combinations(_bits(ten), n):
        h = list(hands)
        h[declarer] = sum(1 << c for c in keep)
        options.append(h)
        labels.append(dict(label, dummy_discard=format_hand(ten & ~h[declarer])))
    return options, declarer, labels
