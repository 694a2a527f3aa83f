"""Bounds from the trumps alone (DDS's later tricks, for the trump suit): ``top_trump_run``
(single deck), the tricks the side holding the highest trump is sure of from its run of top
trumps; ``trump_length_cut`` (double deck), the tricks one hand's trumps are sure of against
the other side's higher trumps.
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, highest_bit, popcount
from ..cards.layout import TRUMP_MASK
from ..config import NRT_FREE
from ..slots import W
from .quick_tricks import run_above, to_settle


@njit(**NRT_FREE)
def top_trump_run(w):
    """``(owner << 8 | k, cards)``: a seat of the side holding the highest trump still out,
    and k, the tricks that side is sure of from its run of top trumps (the trumps above any
    the other side holds): each wins the trick it is played to, and one hand plays one card a
    trick, so the side takes at least as many tricks as one of its hands holds of the run;
    ``cards`` that hand's cards of the run. 0 when no trump is left. The single deck's bound
    (``cutoffs``): the double deck's ``trump_length_cut`` counts this run too, with the twins
    a run has there."""
    h0 = w[W.HANDS]
    h1 = w[W.HANDS + 1]
    h2 = w[W.HANDS + 2]
    h3 = w[W.HANDS + 3]
    t = (h0 | h1 | h2 | h3) & TRUMP_MASK
    if t == 0:
        return 0, np.uint64(0)
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    top = ONE << np.uint64(highest_bit(t))
    owner = 0 if h0 & top else (1 if h1 & top else (2 if h2 & top else 3))
    side = decl if (decl >> owner) & 1 else active & ~decl
    # every hand of the side, or nothing (a mask of all ones or zeros per seat)
    m0 = np.uint64(0) - np.uint64(side & 1)
    m1 = np.uint64(0) - np.uint64((side >> 1) & 1)
    m2 = np.uint64(0) - np.uint64((side >> 2) & 1)
    m3 = np.uint64(0) - np.uint64((side >> 3) & 1)
    ours = ((h0 & m0) | (h1 & m1) | (h2 & m2) | (h3 & m3)) & TRUMP_MASK
    theirs = t & ~ours
    run = run_above(ours, theirs)
    # the hand holding most of the run: its cards of the run decide (the partner's are small
    # below them, and the other side's trumps all are)
    best = h0 & m0 & run
    for h in (h1 & m1 & run, h2 & m2 & run, h3 & m3 & run):
        if popcount(h) > popcount(best):
            best = h
    return (owner << 8) | popcount(best), best


@njit(**NRT_FREE)
def trump_length_cut(w, target, rem):
    """1 if a declarer's trumps alone make ``target`` of the ``rem`` tricks sure, 0 if a
    defender's make that impossible, else -1 (``w[W.REL]`` the trumps that decided it). A
    seat's trumps each win the trick they are played to unless the other side plays a higher
    trump to that trick (at most one per trick), so the seat's side is sure of its trumps less
    the most of them the other side's trumps can beat, matched from the top (in the double
    deck a twin played first beats its twin). Seats with too few trumps to decide are not
    counted. The deciding cards are the hand's trumps down to the one that made the count
    enough: a lower one is never counted, so it may be any small card."""
    active = np.int64(w[W.ACTIVE])
    decl = np.int64(w[W.DECL])
    seats = 0  # the seats with enough trumps to decide: most trick starts have none
    for s in range(4):
        if (active >> s) & 1 and popcount(w[W.HANDS + s] & TRUMP_MASK) >= \
                to_settle((decl >> s) & 1, target, rem):
            seats |= 1 << s
    if seats == 0:
        return np.int64(-1)
    double = np.int64(w[W.DOUBLE])
    ours = np.uint64(0)
    theirs = np.uint64(0)
    for s in range(4):
        if (decl >> s) & 1:
            ours |= w[W.HANDS + s]
        else:
            theirs |= w[W.HANDS + s]
    ours &= TRUMP_MASK
    theirs &= TRUMP_MASK
    for s in range(4):
        if not (seats >> s) & 1:
            continue
        mine = w[W.HANDS + s] & TRUMP_MASK
        declarer = (decl >> s) & 1
        need = to_settle(declarer, target, rem)
        a = theirs if declarer else ours
        x = mine
        sure = 0
        while x:
            tx = highest_bit(x)
            x ^= ONE << np.uint64(tx)
            if a:
                ta = highest_bit(a)
                if ta > tx or (double != 0 and (ta >> 1) == (tx >> 1)):
                    a ^= ONE << np.uint64(ta)
                    continue
            sure += 1
            if sure >= need:
                # the trumps counted so far decide: the hand's lower ones are small
                w[W.REL] = mine & ~x
                return np.int64(1 if declarer else 0)
    return np.int64(-1)
