"""Quick tricks: the tricks the side to lead is sure to cash from the top, counted at a trick
start (DDS's quick tricks). ``quick_tricks``: the leader's run of top trumps, then its runs
of top side cards for as many rounds as every opponent that can still ruff follows suit;
``entry_tricks`` (double deck): a low lead to a suit whose top card the partner holds, then
the partner's quick tricks. Each returns, with the count, the cards that counted it (the
deciding cards of the partition table).
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, highest_bit, lowest_bit, popcount
from ..cards.layout import SLOT_MASKS, TRUMP_MASK, TRUMP_SLOT
from ..cards.seating import partner
from ..config import NRT_FREE
from ..slots import W
from .partition_table import pdep


@njit(**NRT_FREE)
def run_above(mine, others):
    """The cards of ``mine`` above every card of ``others``: the unbroken run from the top
    that ``mine`` holds."""
    if not others:
        return mine
    bit = ONE << np.uint64(highest_bit(others))
    return mine & ~(bit | (bit - ONE))


@njit(inline="always", **NRT_FREE)
def to_settle(declarers, target, rem):
    """The sure tricks that settle "at least ``target`` of ``rem``" for a side
    (``declarers``: 1 for the declaring side): ``target`` for the declarers, for the
    defenders enough that fewer than ``target`` are left."""
    return target if declarers == 1 else rem - target + 1


@njit(**NRT_FREE)
def quick_tricks(w, leader, need, followed=-1):
    """``(tricks, cards)``: the tricks the side of ``leader`` is sure to take by leading now,
    counted up to ``need``, and the cards that count them: the run of top trumps the leader
    holds, then the runs of top cards of each side suit in the leader's hand, each for as
    many rounds as every opponent still holding a trump after those trump leads follows the
    suit (all of the run when none does). Once ``need`` tricks are counted the rest decide
    nothing: the fewer cards decide, the more positions the table's entry holds for (when
    the trumps alone reach ``need``, only the top ``need`` of them; else the whole trump run,
    whose leads the side suits' rounds count on). ``followed``: a side suit each opponent
    has just followed once more than its hand shows (``entry_tricks``), or -1."""
    own = w[W.HANDS + leader]
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    mine = decl if (decl >> leader) & 1 else active & ~decl
    allc = w[W.HANDS] | w[W.HANDS + 1] | w[W.HANDS + 2] | w[W.HANDS + 3]
    counted = run_above(own & TRUMP_MASK, allc & ~own & TRUMP_MASK)
    q = popcount(counted)
    if q >= need:
        return need, _top(counted, q, need)
    ruffers = 0  # the opponents still holding a trump after those trump leads
    for s in range(4):
        if (active >> s) & 1 and not (mine >> s) & 1 and \
                popcount(w[W.HANDS + s] & TRUMP_MASK) > q:
            ruffers |= 1 << s
    for slot in range(3):
        side = run_above(own & SLOT_MASKS[slot], allc & ~own & SLOT_MASKS[slot])
        k = n = popcount(side)
        for s in range(4):  # the rounds of the suit every one of them follows
            if k > 0 and (ruffers >> s) & 1:
                k = min(k, popcount(w[W.HANDS + s] & SLOT_MASKS[slot]) -
                        (1 if slot == followed else 0))
        if k > 0:
            k = min(k, need - q)
            q += k
            # the top k cards of the run decide; the ones below are small
            counted |= _top(side, n, k)
            if q >= need:
                break
    return q, counted


@njit(inline="always", **NRT_FREE)
def _top(run, n, k):
    """The top ``k`` cards of ``run`` (``n`` cards)."""
    return pdep(((ONE << np.uint64(k)) - ONE) << np.uint64(n - k), run)


@njit(inline="always", **NRT_FREE)
def ruffable_suits(hand):
    """The side suits ``hand`` can ruff (a 4-bit mask of slots): those it holds none of,
    when it holds a trump."""
    suits = 0
    if hand & TRUMP_MASK:
        for q in range(4):
            if q != TRUMP_SLOT and not (hand & SLOT_MASKS[q]):
                suits |= 1 << q
    return suits


@njit(**NRT_FREE)
def entry_tricks(w, leader, need):
    """``(tricks, cards)``: the tricks the side of ``leader`` is sure of by leading a card of a
    suit whose highest card still out its partner holds, to that card (the partner then leads):
    one, and the partner's quick tricks after it (0 when no such suit); counted up to
    ``need``, as ``quick_tricks``. The entry must win:
    the partner's card is the highest (double deck: the opponent playing before the partner
    does not hold its twin), and in a side suit each opponent follows or has no trump."""
    p = partner(leader)
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    if not (active >> p) & 1 or ((decl >> p) & 1) != ((decl >> leader) & 1):
        return 0, np.uint64(0)
    own = w[W.HANDS + leader]
    pard = w[W.HANDS + p]
    left = (leader + 1) & 3  # plays second, before the partner
    right = (leader + 3) & 3
    lho = w[W.HANDS + left] if (active >> left) & 1 else np.uint64(0)
    rho = w[W.HANDS + right] if (active >> right) & 1 else np.uint64(0)
    allc = own | pard | lho | rho
    double = w[W.DOUBLE] != 0
    ruffed = ruffable_suits(lho) | ruffable_suits(rho)
    best = 0
    best_cards = np.uint64(0)
    for slot in range(4):
        mask = SLOT_MASKS[slot]
        if not (pard & mask) or not (own & mask):
            continue
        hi = np.uint64(highest_bit(allc & mask))
        top = ONE << hi
        if not (pard & top):
            continue
        twin = ONE << (hi ^ ONE)
        if double and (lho & twin):
            continue
        low_own = own & mask & ~(top | twin)
        if not low_own:
            continue
        if (ruffed >> slot) & 1:
            continue
        lead = ONE << np.uint64(lowest_bit(low_own))
        w[W.HANDS + p] = pard ^ top
        w[W.HANDS + leader] = own ^ lead
        q, counted = quick_tricks(w, p, need - 1, slot if slot != TRUMP_SLOT else -1)
        w[W.HANDS + p] = pard
        w[W.HANDS + leader] = own
        if q + 1 > best:
            best = q + 1
            best_cards = counted | top | twin
            if best >= need:
                break
    return best, best_cards
