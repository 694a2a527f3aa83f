"""The last two tricks, without move lists or table: ``endgame`` plays the next-to-last trick
as nested loops over at most two cards a hand, ``last_trick`` the last one (every card
forced). ``by_rank``: the card that decided a trick won by rank, for the partition table.
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, lowest_bit
from ..cards.layout import SLOT_MASKS, beats
from ..cards.rules import next_active
from ..config import NRT_FREE
from ..slots import W
from .position import trick_seats


@njit(**NRT_FREE)
def by_rank(win_card, c0, c1, c2, c3, n):
    """The winning card's bit if another of the ``n`` cards of the trick is of its suit (it
    won by rank, so its rank decided the trick), else 0."""
    slot = win_card >> 4
    same = ((c0 >> 4) == slot) + ((c1 >> 4) == slot)
    if n > 2:
        same += (c2 >> 4) == slot
    if n > 3:
        same += (c3 >> 4) == slot
    return ONE << np.uint64(win_card) if same > 1 else np.uint64(0)


@njit(**NRT_FREE)
def last_trick(w, leader):
    """1 if the declaring side wins the last trick (one card each, all forced), else 0;
    ``w[W.REL]`` gets the cards that decided it."""
    active = np.int64(w[W.ACTIVE])
    double = np.int64(w[W.DOUBLE])
    best = np.int64(lowest_bit(w[W.HANDS + leader]))
    best_seat = leader
    suits = np.uint64(0)  # the suits played so far, and those played twice
    twice = np.uint64(0)
    s = leader
    while True:
        b = np.int64(lowest_bit(w[W.HANDS + s]))
        bit = ONE << np.uint64(b >> 4)
        twice |= suits & bit
        suits |= bit
        if s != leader and beats(b, best, double):
            best = b
            best_seat = s
        s = next_active(s, active)
        if s == leader:
            break
    w[W.REL] = ONE << np.uint64(best) if (twice >> np.uint64(best >> 4)) & ONE else np.uint64(0)
    return (np.int64(w[W.DECL]) >> best_seat) & 1


@njit(**NRT_FREE)
def _legal(hand, led):
    follow = hand & SLOT_MASKS[led]
    return follow if follow else hand


@njit(**NRT_FREE)
def _endgame_won(w, winner, target):
    """1 if the declaring side, ``winner`` having taken the next-to-last trick, ends with
    ``target`` of the last two tricks (the last one is forced); ``w[W.REL]`` gets the cards
    of the last trick that decided it."""
    need = target - ((np.int64(w[W.DECL]) >> winner) & 1)
    if need <= 0 or need > 1:
        w[W.REL] = 0
        return 1 if need <= 0 else 0
    return last_trick(w, winner)


@njit(**NRT_FREE)
def endgame(w, leader, target):
    """1 if the declaring side takes ``target`` of the last two tricks, ``leader`` to lead:
    the plays of the next-to-last trick as nested loops over at most two cards a hand,
    without move lists or table (loops, not recursion: numba's cache cannot reload a
    recursive function it has type-inferred). ``w[W.REL]`` gets the deciding cards."""
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    active = np.int64(w[W.ACTIVE])
    nact = np.int64(w[W.NACTIVE])
    p0, p1, p2, p3, s0, s1, s2, s3 = trick_seats(leader, active, decl)
    h0 = w[W.HANDS + p0]
    h1 = w[W.HANDS + p1]
    h2 = w[W.HANDS + p2]
    h3 = w[W.HANDS + p3]
    nodes = 0
    result = 1 - s0
    rel0 = np.uint64(0)
    # one loop a seat, unrolled on purpose as in search._search (`duplicates` finds the
    # levels alike): locals, no move lists, and no recursion, which numba's cache cannot
    # reload here
    m0 = h0
    while m0:
        c0 = lowest_bit(m0)
        m0 &= m0 - ONE
        w[W.HANDS + p0] = h0 ^ (ONE << np.uint64(c0))
        led = c0 >> 4
        r1 = 1 - s1
        rel1 = np.uint64(0)
        m1 = _legal(h1, led)
        while m1:
            c1 = lowest_bit(m1)
            m1 &= m1 - ONE
            w[W.HANDS + p1] = h1 ^ (ONE << np.uint64(c1))
            nodes += 1
            wc1, ws1 = (c1, p1) if beats(c1, c0, double) else (c0, p0)
            if nact == 2:
                r = _endgame_won(w, ws1, target)
                rel = w[W.REL] | by_rank(wc1, c0, c1, c1, c1, 2)
            else:
                r2 = 1 - s2
                rel2 = np.uint64(0)
                m2 = _legal(h2, led)
                while m2:
                    c2 = lowest_bit(m2)
                    m2 &= m2 - ONE
                    w[W.HANDS + p2] = h2 ^ (ONE << np.uint64(c2))
                    nodes += 1
                    wc2, ws2 = (c2, p2) if beats(c2, wc1, double) else (wc1, ws1)
                    if nact == 3:
                        r = _endgame_won(w, ws2, target)
                        rel = w[W.REL] | by_rank(wc2, c0, c1, c2, c2, 3)
                    else:
                        r3 = 1 - s3
                        rel3 = np.uint64(0)
                        m3 = _legal(h3, led)
                        while m3:
                            c3 = lowest_bit(m3)
                            m3 &= m3 - ONE
                            w[W.HANDS + p3] = h3 ^ (ONE << np.uint64(c3))
                            nodes += 1
                            wc3, ws3 = (c3, p3) if beats(c3, wc2, double) else (wc2, ws2)
                            r = _endgame_won(w, ws3, target)
                            rel = w[W.REL] | by_rank(wc3, c0, c1, c2, c3, 4)
                            if r == s3:
                                r3 = r
                                rel3 = rel
                                break
                            rel3 |= rel
                        w[W.HANDS + p3] = h3
                        r = r3
                        rel = rel3
                    if r == s2:
                        r2 = r
                        rel2 = rel
                        break
                    rel2 |= rel
                w[W.HANDS + p2] = h2
                r = r2
                rel = rel2
            if r == s1:
                r1 = r
                rel1 = rel
                break
            rel1 |= rel
        w[W.HANDS + p1] = h1
        nodes += 1
        if r1 == s0:
            result = r1
            rel0 = rel1
            break
        rel0 |= rel1
    w[W.HANDS + p0] = h0
    w[W.NODES] += np.uint64(nodes)
    w[W.REL] = rel0
    return result
