"""Perfect-information Monte Carlo (``pimc``) and double-dummy (``dd``) card players.

A PIMC player samples layouts ("worlds") of the cards it cannot see that agree with what it
knows: its own hand, every card played, the suits each player has shown out of, the upcard in
the dealer's hand until played, the cards it knows are dead (its own discard, its old hand
after a ghost swap, what it dropped with the dummy). It solves each world double dummy from
the current position with the solver's per-card form and plays the card with the best
average. The sample of each world depends only on the policy stream of the hand, so results
are reproducible whatever the threads.
"""

import numpy as np
from numba import njit

from ..cards.bits import EVEN_BITS, ODD_BITS, ONE, highest_bit, lowest_bit, popcount
from ..cards.codes import NOBODY
from ..cards.layout import SLOT_MASKS
from ..config import JIT, NRT_FREE
from ..deal.rng import random_set_bit, uniform_int
from ..slots import TR, K
from ..solver import card_values, set_position


@njit(**JIT)
def sample_world(rng, seat, hands, active, know, out):
    """Write into ``out`` (normalised masks) a layout of the cards ``seat`` cannot see that
    agrees with its knowledge. Of ``hands`` only this seat's own cards and each other hand's
    size are read (all a player can see). A few uniform tries against the void constraints,
    then a constrained greedy deal."""
    own = hands[seat]
    pool = know[K.DECK] & ~know[K.PLAYED] & ~own & ~know[K.DEAD + seat]
    need = np.zeros(4, dtype=np.int64)
    base = np.zeros(4, dtype=np.uint64)
    base[seat] = own
    for s in range(4):
        if s != seat and (active >> s) & 1:
            need[s] = popcount(hands[s])
    holder = np.int64(know[K.UP_HOLDER])
    up = np.int64(know[K.UPCARD])
    if holder != NOBODY and holder != seat and (active >> holder) & 1 and need[holder] > 0 \
            and (pool >> np.uint64(up)) & ONE:
        base[holder] = ONE << np.uint64(up)
        need[holder] -= 1
        pool &= ~(ONE << np.uint64(up))
    cards = np.empty(64, dtype=np.int64)
    n = 0
    m = pool
    while m:
        cards[n] = lowest_bit(m)
        m &= m - ONE
        n += 1
    for _attempt in range(8):
        for i in range(n - 1, 0, -1):
            j = uniform_int(rng, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        k = 0
        ok = True
        for s in range(4):
            hand = np.uint64(0)
            for _ in range(need[s]):
                hand |= ONE << np.uint64(cards[k])
                k += 1
            if hand & _void_mask(know[K.VOIDS + s]):
                ok = False
                break
            out[s] = base[s] | hand
        if ok:
            return
    # constrained greedy: fill the most constrained seats first from what they may hold
    left = pool
    for s in range(4):
        out[s] = base[s]
    order = np.argsort(-_void_counts(know))
    for s in order:
        allowed = left & ~_void_mask(know[K.VOIDS + s])
        for _ in range(need[s]):
            if allowed == 0:
                allowed = left  # the knowledge cannot be met exactly: relax the voids
            if allowed == 0:
                break
            b = random_set_bit(rng, allowed)
            out[s] |= ONE << np.uint64(b)
            left &= ~(ONE << np.uint64(b))
            allowed &= ~(ONE << np.uint64(b))


@njit(**NRT_FREE)
def _void_mask(voids):
    m = np.uint64(0)
    for slot in range(4):
        if (voids >> np.uint64(slot)) & ONE:
            m |= SLOT_MASKS[slot]
    return m


@njit(**JIT)
def _void_counts(know):
    c = np.zeros(4, dtype=np.int64)
    for s in range(4):
        c[s] = popcount(know[K.VOIDS + s])
    return c


@njit(**NRT_FREE)
def best_of(totals, legal, maximise):
    """The legal card with the best total (highest for the declaring side, lowest for the
    defenders); ties go to the lowest card."""
    best = -1
    best_v = 0
    m = legal
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        v = totals[b]
        if best < 0 or (v > best_v if maximise else v < best_v):
            best = b
            best_v = v
    return best


@njit(**NRT_FREE)
def solve_card(w, tt, hands, decl, double, trick, seat, legal, totals, values):
    """Add to ``totals`` the double-dummy value of every legal card of ``seat`` in the layout
    ``hands`` (normalised), the current trick given by the engine's trick array ``trick``
    (slots ``TR``: the leader, the cards on the table and their seats, the seats that
    play)."""
    set_position(w, hands, trick[TR.ACTIVE], decl, double)
    card_values(w, tt, trick[TR.LEADER], trick[TR.CARDS:TR.CARDS + 4],
                trick[TR.SEATS:TR.SEATS + 4], trick[TR.COUNT], values)
    m = legal
    while m:
        b = lowest_bit(m)
        m &= m - ONE
        totals[b] += values[b]


@njit(**NRT_FREE)
def one_class(legal, others, double):
    """True if the cards of ``legal`` are all equivalent whatever the layout: one suit, and no
    card of ``others`` (the cards other seats still hold, and the cards on the table) between
    any two of them (double deck: nor a card of the same power)."""
    low = lowest_bit(legal)
    top = highest_bit(legal)
    if (low >> 4) != (top >> 4):
        return False
    if double:
        others |= ((others & EVEN_BITS) << ONE) | ((others & ODD_BITS) >> ONE)
    span = ((ONE << np.uint64(top + 1)) - ONE) & ~((ONE << np.uint64(low)) - ONE)
    return not (others & span)


@njit(**JIT)
def dd_card(w, tt, hands, decl, double, trick, seat, legal):
    """The double-dummy player: sees every hand and plays its best card."""
    totals = np.zeros(64, dtype=np.int64)
    values = np.empty(64, dtype=np.int64)
    solve_card(w, tt, hands, decl, double, trick, seat, legal, totals, values)
    return best_of(totals, legal, (decl >> seat) & 1 == 1)


@njit(**JIT)
def pimc_card(ag, worlds, hands, decl, double, trick, seat, legal):
    """The PIMC player: the best average over ``worlds`` sampled layouts (from ``ag``'s
    stream and knowledge, solved on its work array and table); no sampling when every legal
    card is alike in every world."""
    know = ag.know
    table = np.uint64(0)
    for i in range(trick[TR.COUNT]):
        table |= ONE << np.uint64(trick[TR.CARDS + i])
    others = (know[K.DECK] & ~know[K.PLAYED] & ~hands[seat]) | table
    if legal & (legal - ONE) == 0 or one_class(legal, others, double):
        return lowest_bit(legal)
    totals = np.zeros(64, dtype=np.int64)
    values = np.empty(64, dtype=np.int64)
    world = np.empty(4, dtype=np.uint64)
    for _ in range(worlds):
        sample_world(ag.rng, seat, hands, trick[TR.ACTIVE], know, world)
        solve_card(ag.work, ag.table, world, decl, double, trick, seat, legal, totals, values)
    return best_of(totals, legal, (decl >> seat) & 1 == 1)
