"""Decision rules of the point-count bidder (``points``): a hand is worth points per trump
suit, and fixed thresholds (per-seat parameters, slots ``PR``) turn points into bids, calls and
alone declarations. Natural masks in; only the seat's own hand and public facts are read.

Points for trump suit t: right bower 3, left bower 2.5, ace 2, king 1.5, queen 1.25, ten and
nine 1 (7 and 8 0.75), joker 3.5; each side-suit ace 1; each void 0.5 when holding at least
two trumps. A typical hand is worth about 3.
"""

from enum import IntEnum

import numpy as np
from numba import njit

from .bits import lowest_bit, popcount
from .codes import ASK, MOON
from .config import JIT
from .layout import JOKER, RANK_A, RANK_J, RANK_K, RANK_Q, same_colour_suit


class PR(IntEnum):
    """Parameter slots of one seat's row ``params[seat]`` (float64)."""

    BID3 = 0  # ladder: points for a bid of 3
    BID4 = 1
    BID5 = 2
    ASK = 3
    MOON = 4
    ORDER = 5  # upcard auction: points to order up / name trump
    ALONE = 6
    SWAP = 7  # swap for the ghost hand below this many points
    PIMC_WORLDS = 8  # pimc: worlds sampled per decision
    DEFEND_ALONE = 9
    PASS_EV = 10  # analyzer: bid or order only above this many expected net points
    SWAP_EV = 11  # analyzer: the value of swapping for the ghost hand


# The analyzer bidder's table rides in each seat's parameter row: expected net points by
# option, context and strength (half points, 0..16), at params[seat, STRAT_BASE + ...].
STRAT_BASE = 16
STRAT_OPTIONS = 8
STRAT_CONTEXTS = 32  # upcard auction: seat relative to the dealer * 8 + upcard rank
STRAT_BINS = 33
N_PARAMS = STRAT_BASE + STRAT_OPTIONS * STRAT_CONTEXTS * STRAT_BINS
# ladder options                             upcard-auction options
O_BID3, O_BID4, O_BID5, O_ASK, O_MOON, O_KEEP = 0, 1, 2, 3, 4, 5
O_ORDER, O_ALONE, O_PASS, O_NAME, O_NAME_ALONE = 0, 1, 2, 3, 4

DEFAULT_PARAMS = np.zeros(N_PARAMS)
DEFAULT_PARAMS[:12] = [4.0, 5.5, 7.0, 8.5, 11.0, 4.5, 8.5, 2.5, 20.0, 99.0, 0.0, 0.0]

ONE = np.uint64(1)


@njit(**JIT)
def card_points(card, trump):
    """Points of natural card ``card`` when ``trump`` is trump (0 for side cards but aces)."""
    if card == JOKER:
        return 3.5
    suit = (card & 31) >> 3
    rank = card & 7
    if rank == RANK_J and suit == trump:
        return 3.0
    if rank == RANK_J and suit == same_colour_suit(trump):
        return 2.5
    if suit == trump:
        if rank == RANK_A:
            return 2.0
        if rank == RANK_K:
            return 1.5
        if rank == RANK_Q:
            return 1.25
        if rank >= 2:  # 9, T
            return 1.0
        return 0.75
    if rank == RANK_A:
        return 1.0
    return 0.0


@njit(**JIT)
def is_trump(card, trump):
    """Whether natural card ``card`` is a trump (the bowers and the joker included)."""
    if card == JOKER:
        return True
    suit = (card & 31) >> 3
    rank = card & 7
    return suit == trump or (rank == RANK_J and suit == same_colour_suit(trump))


@njit(**JIT)
def _tables():
    """``(points[trump, card], trumps[trump], sides[trump, suit])``: each natural card's
    points, the natural mask of trumps (bowers and joker included), and of each suit's side
    cards (without the left bower), for every trump suit."""
    points = np.zeros((4, 64), dtype=np.float64)
    trumps = np.zeros(4, dtype=np.uint64)
    sides = np.zeros((4, 4), dtype=np.uint64)
    for t in range(4):
        for card in range(64):
            points[t, card] = card_points(card, t)
            if is_trump(card, t):
                trumps[t] |= ONE << np.uint64(card)
            elif card != JOKER:
                sides[t, (card & 31) >> 3] |= ONE << np.uint64(card)
    return points, trumps, sides


POINTS, TRUMPS, SIDES = _tables()


@njit(**JIT)
def hand_points(hand, trump):
    """Points of natural mask ``hand`` for ``trump`` (see the module docstring)."""
    total = 0.0
    m = np.uint64(hand)
    while m:
        total += POINTS[trump, lowest_bit(m)]
        m &= m - ONE
    if popcount(hand & TRUMPS[trump]) >= 2:
        for s in range(4):
            if s != trump and (hand & SIDES[trump, s]) == 0:
                total += 0.5
    return total


@njit(**JIT)
def best_suit(hand, allowed):
    """``(points, suit)`` of the best-scoring suit among the 4-bit mask ``allowed``."""
    best = -1.0
    suit = -1
    for t in range(4):
        if (allowed >> t) & 1:
            p = hand_points(hand, t)
            if p > best:
                best = p
                suit = t
    return best, suit


@njit(**JIT)
def give_card(hand, trump):
    """The card a 6-asker gives away: the lowest side card (lowest rank, from the shortest
    suit), else the lowest trump."""
    best = -1
    best_key = 1 << 30
    for card in range(64):
        if (np.uint64(hand) >> np.uint64(card)) & ONE:
            t = is_trump(card, trump)
            key = (1000 if t else 0) + (card & 7) * 10
            if not t and card != JOKER:
                suit = (card & 31) >> 3
                length = 0
                for r in range(8):
                    if (np.uint64(hand) >> np.uint64(suit * 8 + r)) & ONE:
                        length += 1
                key += length
            if key < best_key:
                best_key = key
                best = card
    return best


@njit(**JIT)
def partner_return(hand, trump):
    """A trumpless partner in a 6-ask passes back its best card: an ace, else its highest."""
    best = -1
    best_key = -1
    for card in range(64):
        if (np.uint64(hand) >> np.uint64(card)) & ONE:
            key = (100 if (card & 7) == RANK_A else 0) + (card & 7)
            if key > best_key:
                best_key = key
                best = card
    return best


@njit(**JIT)
def choose_bid(hand, allowed, params, seat):
    """A bid among the call codes in ``allowed`` (uint64 mask): the highest whose threshold
    the best suit's points reach, else pass (code 0) if allowed, else the lowest allowed."""
    points, _ = best_suit(hand, 15)
    best = -1
    thresholds = ((3, PR.BID3), (4, PR.BID4), (5, PR.BID5))
    for k, slot in thresholds:
        if points >= params[seat, slot] and (allowed >> np.uint64(k)) & ONE:
            best = k
    if points >= params[seat, PR.ASK] and (allowed >> np.uint64(ASK)) & ONE:
        best = ASK
    if points >= params[seat, PR.MOON] and (allowed >> np.uint64(MOON)) & ONE:
        best = MOON
    if best >= 0:
        return best
    return pass_or_lowest(allowed)


@njit(**JIT)
def pass_or_lowest(allowed):
    """Pass when passing is allowed (bit 0 of ``allowed``), else the lowest call allowed
    (stick the dealer)."""
    if allowed & ONE:
        return 0
    m = allowed
    k = 0
    while not (m & ONE):
        m >>= ONE
        k += 1
    return k


@njit(**JIT)
def order_points(hand, trump, upcard, seat, dealer, players):
    """Points of ordering the upcard's suit from ``seat``: the dealer counts the upcard in
    place of its worst card, the dealer's partner gains it, an opponent of the dealer gives
    it away. Three players: the dealer gains it, the others give it away."""
    p = hand_points(hand, trump)
    up = card_points(upcard, trump)
    if seat == dealer:
        return hand_points(hand | (ONE << np.uint64(upcard)), trump) - 0.5
    if players == 4 and (seat + 2) % 4 == dealer:
        return p + up * 0.75
    return p - up * 0.5


@njit(**JIT)
def strat(params, seat, option, context, points):
    """The analyzer bidder's expected net points for ``option`` in ``context`` with a hand of
    ``points`` (read from the seat's parameter row)."""
    b = np.int64(points * 2.0)
    if b < 0:
        b = 0
    if b >= STRAT_BINS:
        b = STRAT_BINS - 1
    return params[seat, STRAT_BASE + (option * STRAT_CONTEXTS + context) * STRAT_BINS + b]


@njit(**JIT)
def analyzer_bid(hand, allowed, params, seat):
    """The analyzer bidder's call: over every trump suit and allowed bid, the one with the
    best expected net points in its table, if that beats ``PR.PASS_EV``; else pass (or, when
    passing is not allowed, the lowest bid)."""
    best_ev = -1e9
    best = -1
    codes = (3, 4, 5, ASK, MOON)
    for t in range(4):
        p = hand_points(hand, t)
        for i in range(5):
            code = codes[i]
            if (allowed >> np.uint64(code)) & ONE:
                ev = strat(params, seat, i, 0, p)
                if ev > best_ev:
                    best_ev = ev
                    best = code
    if best >= 0 and best_ev > params[seat, PR.PASS_EV]:
        return best
    return pass_or_lowest(allowed)


@njit(**JIT)
def analyzer_trump(hand, allowed, params, seat, contract):
    """The suit the analyzer bidder names for the contract it won: the best for that bid."""
    option = O_ASK if contract == ASK else (O_MOON if contract == MOON else
                                           (O_BID3 if contract <= 3 else contract - 3))
    best_ev = -1e9
    suit = 0
    for t in range(4):
        if (allowed >> t) & 1:
            ev = strat(params, seat, option, 0, hand_points(hand, t))
            if ev > best_ev:
                best_ev = ev
                suit = t
    return suit
