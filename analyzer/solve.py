"""Double-dummy solving for the analyzer: who plays and who declares in each variant and
contract, thin callers of the solver kernels, and ``solve_deal`` behind ``euchre solve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from kernels import layout as L
from kernels import solver as S
from kernels.threads import num_threads

from .errors import UserError
from .notation import SEATS, Deal, format_card, format_hand
from .variants import Rules

MODES = ("normal", "alone", "ask", "moon")


def table_bits(rules: Rules) -> int:
    """log2 of the transposition-table rows per thread: small enough to stay in cache for the
    single deck (a deal touches a few hundred trick starts), large for the double deck."""
    return 20 if rules.double_deck else 12


def solver_memory_bytes(rules: Rules) -> int:
    """Memory the solver uses per thread, whatever the batch size."""
    return 40 * (1 << table_bits(rules)) + 8 * S.W_LEN


def partner(seat: int) -> int:
    """The seat opposite."""
    return (seat + 2) & 3


def seating(rules: Rules, declarer: int, mode: str = "normal",
            defender_alone: int | None = None) -> tuple[int, int]:
    """``(active, decl)`` 4-bit seat masks for a contract: who plays, and the declaring side.

    ``mode`` is ``normal``, ``alone`` (knock, cutthroat: the maker without partner / dummy),
    ``ask`` or ``moon`` (bid: the bidder plays alone); ``defender_alone`` a defender who goes
    alone (knock with the lone-defender option, cutthroat). Raises UserError for a contract
    the variant does not have."""
    players = (1 << rules.players) - 1
    if not 0 <= declarer < rules.players:
        raise UserError(f"{SEATS[declarer]} does not play in {rules.variant}, so it cannot "
                        f"declare")
    if mode not in MODES:
        raise UserError(f"unknown contract {mode!r}")
    if mode in ("ask", "moon") and rules.variant != "bid":
        raise UserError(f"--{mode} is a bid of Bid Euchre, not of {rules.variant}")
    if mode == "alone" and rules.variant not in ("knock", "cutthroat"):
        raise UserError(f"--alone is for knock and cutthroat; in {rules.variant} "
                        + ("bid --ask or --moon" if rules.variant == "bid" else
                           "the bidder always plays alone"))
    active = players
    if rules.players == 4:
        decl = (1 << declarer) | (1 << partner(declarer))
        if mode != "normal":
            active &= ~(1 << partner(declarer))
            decl = 1 << declarer
    else:
        decl = 1 << declarer
    if defender_alone is not None:
        if rules.variant not in ("knock", "cutthroat") or (
                rules.variant == "knock" and not rules.lone_defender):
            raise UserError("a defender may go alone only in cutthroat, or in knock with "
                            "--lone-defender")
        if not 0 <= defender_alone < rules.players or (decl >> defender_alone) & 1 or \
                defender_alone == declarer or \
                (rules.players == 4 and defender_alone == partner(declarer)):
            raise UserError(f"{SEATS[defender_alone]} is not a defender of {SEATS[declarer]}'s "
                            f"contract")
        if rules.players == 4:
            active &= ~(1 << partner(defender_alone))
        else:
            other = 3 - declarer - defender_alone
            active &= ~(1 << other)
    return active, decl


def default_leader(rules: Rules, declarer: int, active: int, dealer: int,
                   maker_alone: bool, defender_alone: int | None) -> int:
    """Who leads the first trick by the variant's rules (see RULES.md)."""
    def next_active(seat):
        s = (seat + 1) & 3
        while not (active >> s) & 1:
            s = (s + 1) & 3
        return s

    if rules.variant in ("bid", "ghost"):
        return declarer
    if rules.variant == "cutthroat" and maker_alone:
        return next_active(declarer)
    if rules.variant == "cutthroat" and defender_alone is not None:
        return next_active(defender_alone)
    return next_active(dealer)


def solve_positions(rules: Rules, hands, trumps, leaders, active, decl, targets,
                    table=None, n_table=None) -> tuple[np.ndarray, np.ndarray]:
    """Solve N positions (natural masks ``hands[N, 4]``; ``targets`` k >= 0 for "at least k
    of the tricks still to come", -1 for the exact number); see ``kernels.solver.solve_batch``.
    Returns ``(answers, nodes)``."""
    n = len(hands)
    if table is None:
        table = np.full((n, 4), -1, dtype=np.int64)
        n_table = np.zeros(n, dtype=np.int64)
    to_norm, _ = rules.layout
    return S.solve_batch(np.asarray(hands, dtype=np.uint64), _i64(trumps, n), _i64(leaders, n),
                         _i64(active, n), _i64(decl, n), np.asarray(table, dtype=np.int64),
                         _i64(n_table, n), _i64(targets, n), to_norm,
                         1 if rules.double_deck else 0, table_bits(rules), num_threads())


def card_values(rules: Rules, hands, trumps, leaders, active, decl, table=None,
                n_table=None) -> tuple[np.ndarray, np.ndarray]:
    """Value of every legal card of the seat to play in N positions (tricks still to come for
    the declaring side; -1 where a card cannot be played), indexed by natural card id.
    Returns ``(values[N, 64], nodes[N])``."""
    n = len(hands)
    if table is None:
        table = np.full((n, 4), -1, dtype=np.int64)
        n_table = np.zeros(n, dtype=np.int64)
    to_norm, from_norm = rules.layout
    return S.card_values_batch(np.asarray(hands, dtype=np.uint64), _i64(trumps, n),
                               _i64(leaders, n), _i64(active, n), _i64(decl, n),
                               np.asarray(table, dtype=np.int64), _i64(n_table, n), to_norm,
                               from_norm, 1 if rules.double_deck else 0, table_bits(rules),
                               num_threads())


def _i64(values, n) -> np.ndarray:
    arr = np.asarray(values, dtype=np.int64)
    return np.full(n, arr, dtype=np.int64) if arr.ndim == 0 else arr


@dataclass
class SolveResult:
    """The double-dummy answer for one deal: tricks of each side with best play, the value of
    every opening lead, the choices the solver made for a side (discards, the dummy, the ask
    exchange), the hands as played, and the nodes searched."""

    declarer: str
    leader: str
    trump: str
    declarer_tricks: int
    defender_tricks: int
    leads: dict
    nodes: int
    choices: dict = field(default_factory=dict)
    hands: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The result as a JSON-ready dict (the keys of ``euchre solve --json``)."""
        return {"declarer": self.declarer, "leader": self.leader, "trump": self.trump,
                "declarer_tricks": self.declarer_tricks,
                "defender_tricks": self.defender_tricks, "leads": self.leads,
                "nodes": self.nodes, "choices": self.choices, "hands": self.hands}


def _bits(mask: int) -> list[int]:
    return [i for i in range(64) if (mask >> i) & 1]


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def solve_deal(rules: Rules, deal: Deal, trump: int, declarer: int, *, leader: int | None = None,
               mode: str = "normal", dealer: int | None = None,
               defender_alone: int | None = None) -> SolveResult:
    """Solve a whole deal double dummy from the first lead.

    ``deal`` holds every playing hand (see the README for what each variant needs: the upcard
    and dealer for a pick-up, the dummy in cutthroat, the partner's hand for a 6-ask). Where a
    side still has a choice (the dealer's discard, the maker's best 5 of 10 with the dummy,
    the card given away in a 6-ask) every option is solved and the best one for that side is
    used. Raises UserError for an impossible deal."""
    active, decl = seating(rules, declarer, mode, defender_alone)
    if dealer is None:
        dealer = (3 if rules.players == 4 else 2)  # so that N is left of the dealer
    if not 0 <= dealer < rules.players:
        raise UserError(f"{SEATS[dealer]} does not play in {rules.variant}, so it cannot deal")
    if leader is None:
        leader = default_leader(rules, declarer, active, dealer, mode == "alone",
                                defender_alone)
    if not (active >> leader) & 1:
        raise UserError(f"{SEATS[leader]} sits out this hand, so it cannot lead")
    options, chooser, labels = _options(rules, deal, trump, declarer, mode, dealer, active)
    n = rules.hand_size
    hands = np.array([[o[s] for s in range(4)] for o in options], dtype=np.uint64)
    for s in range(4):
        if (active >> s) & 1 and any(_popcount(o[s]) != n for o in options):
            raise UserError(f"{SEATS[s]} holds {_popcount(options[0][s])} cards; "
                            f"{rules.variant} hands have {n} at the first lead")
    nodes = 0
    best = 0
    if len(options) > 1:
        values, used = solve_positions(rules, hands, trump, leader, active, decl, -1)
        nodes += int(used.sum())
        picks = values if (decl >> chooser) & 1 else -values.astype(np.int64)
        best = int(np.argmax(picks))
    values, used = card_values(rules, hands[best:best + 1], trump, leader, active, decl)
    nodes += int(used.sum())
    leads = {}
    for cid in np.nonzero(values[0] >= 0)[0]:
        leads[format_card(int(cid))] = int(values[0, cid])
    lead_side = (decl >> leader) & 1
    total = max(leads.values()) if lead_side else min(leads.values())
    return SolveResult(
        declarer=SEATS[declarer], leader=SEATS[leader], trump="CDHS"[trump],
        declarer_tricks=total, defender_tricks=n - total, leads=leads, nodes=nodes,
        choices=labels[best],
        hands={SEATS[s]: format_hand(options[best][s]) for s in range(4) if (active >> s) & 1})


def _options(rules: Rules, deal: Deal, trump: int, declarer: int, mode: str, dealer: int,
             active: int):
    """The hand sets to choose from (each a list of 4 natural masks), the seat whose side
    chooses among them, and a label (dict) describing each for the output."""
    n = rules.hand_size
    given = dict(deal.hands)
    for s in range(4):
        if (active >> s) & 1 and s not in given:
            raise UserError(f"the deal has no hand for {SEATS[s]}, who plays")
    base = [given.get(s, 0) if (active >> s) & 1 else 0 for s in range(4)]
    if rules.variant == "bid":
        if len(given) < 4:
            raise UserError("a bid deal needs all four hands (N, E, S, W)")
        if mode != "ask":
            return [base], declarer, [{}]
        part = partner(declarer)
        if _popcount(given[part]) != n:
            raise UserError(f"{SEATS[part]} holds {_popcount(given[part])} cards; bid hands "
                            f"have {n}")
        to_norm, from_norm = rules.layout
        normal = int(L.normalise_mask(np.uint64(given[part]), to_norm[trump]))
        trumps = normal & int(L.SLOT_MASKS[L.TRUMP_SLOT])
        receives = [int(from_norm[trump, trumps.bit_length() - 1])] if trumps else \
            _bits(given[part])
        options, labels = [], []
        for give in _bits(given[declarer]):
            for get in receives:
                hands = list(base)
                hands[declarer] = (given[declarer] & ~(1 << give)) | (1 << get)
                options.append(hands)
                labels.append({"give": format_card(give), "receive": format_card(get)})
        return options, declarer, labels

    if rules.variant == "ghost":
        return [base], declarer, [{}]

    # knock and cutthroat: the dealer's pick-up, and cutthroat's dummy
    hands = list(base)
    dealer_choices = [hands]
    dealer_labels = [{}]
    up = deal.upcard
    if up is not None:
        up_suit = -1 if up == L.JOKER else (up & 31) // 8
        if up_suit == trump or up == L.JOKER:
            if (hands[dealer] >> up) & 1 == 0:
                if _popcount(hands[dealer]) != n:
                    raise UserError(f"the dealer {SEATS[dealer]} should hold {n} cards before "
                                    f"taking the upcard")
                hands[dealer] |= 1 << up
    if (active >> dealer) & 1 and _popcount(hands[dealer]) == n + 1:
        if deal.discard is not None:
            if _popcount(deal.discard) != 1 or not hands[dealer] & deal.discard:
                raise UserError("'discard' must be one card of the dealer's six")
            hands[dealer] &= ~deal.discard
        else:
            dealer_choices, dealer_labels = [], []
            for d in _bits(hands[dealer]):
                h = list(hands)
                h[dealer] &= ~(1 << d)
                dealer_choices.append(h)
                dealer_labels.append({"discard": format_card(d)})
    if rules.variant == "cutthroat" and mode != "alone" and 3 in given:
        if len(dealer_choices) > 1:
            raise UserError("give the dealer's discard ('discard: …') when the solver also "
                            "chooses the maker's best five of ten")
        ten = dealer_choices[0][declarer] | given[3]
        if _popcount(ten) != 2 * n:
            raise UserError(f"the maker and the dummy should hold {2 * n} cards together")
        options, labels = [], []
        for keep in combinations(_bits(ten), n):
            h = list(dealer_choices[0])
            h[declarer] = sum(1 << c for c in keep)
            options.append(h)
            labels.append(dict(dealer_labels[0],
                               dummy_discard=format_hand(ten & ~h[declarer])))
        return options, declarer, labels
    return dealer_choices, dealer, dealer_labels

