"""The search: can the declaring side take at least ``target`` more tricks? A zero-window
alpha-beta over the plays of whole tricks. ``_trick`` at a trick start: the bounds
(``cutoffs``), the last two tricks (``endgame``), else ``_search``: the table's probe (then
the bounds asked only when it misses, ``cutoffs.quick_cut``), the plays of the trick as
nested loops over locals with their move lists (``moves``), the next trick the one
recursive call, and the answer stored with the cards that decided it
(``partition_table``). ``_partial`` starts in the middle of a trick; ``at_least`` is the
entry. The recursive functions share this module: numba's cache does not mix with
recursion across modules.
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, highest_bit, popcount
from ..cards.layout import beats
from ..cards.rules import next_active
from ..config import NRT_FREE
from ..slots import W
from .cutoffs import cutoff, quick_cut
from .endgame import by_rank, endgame
from .moves import card, covered, follow_moves, lead_moves, with_run
from .partition_table import bucket_of, position_key, probe, store
from .position import trick_seats


@njit(inline="always", **NRT_FREE)
def _trick(w, tt, leader, target, depth):
    """1 if the declaring side can take at least ``target`` more tricks from this trick start
    (``leader`` to lead), else 0; ``w[W.REL]`` gets the cards that decided the answer (see
    ``partition_table``): the bounds first, then the last two tricks by
    ``endgame``, else the search (``_search``)."""
    rem = popcount(w[W.HANDS + leader])
    cut = cutoff(w, leader, target, rem)
    if cut >= 0:
        return cut
    if rem == 2:
        return endgame(w, leader, target)
    return _search(w, tt, leader, target, depth, rem)


@njit(**NRT_FREE)
def _search(w, tt, leader, target, depth, rem):
    """``_trick`` at a trick start that no bound settles, ``rem`` (at least 3) tricks to go:
    the table, then the bounds asked only when it misses, else the plays of the trick as
    nested loops over locals; only the next trick is a (recursive) call, so the recursion
    is at most 12 deep. Kept apart from the bounds, which settle most trick starts: this
    function's frame is large. Move lists of this trick live at
    ``w[W.MOVES + 64 * depth + 16 * pos]``."""
    decl = np.int64(w[W.DECL])
    active = np.int64(w[W.ACTIVE])
    double = np.int64(w[W.DOUBLE])
    nact = np.int64(w[W.NACTIVE])
    key = position_key(w[W.HANDS:W.HANDS + 4], leader, active, decl, double)
    row = bucket_of(key, w[W.TT_MASK])
    known, region, best = probe(tt, row, key, w[W.STAMP], target, double)
    if known >= 0:
        w[W.REL] = region
        return known
    cut = quick_cut(w, leader, target, rem)
    if cut >= 0:
        return cut
    nodes_before = w[W.NODES]
    p0, p1, p2, p3, s0, s1, s2, s3 = trick_seats(leader, active, decl)
    h0 = w[W.HANDS + leader]
    base = W.MOVES + 64 * depth
    n0 = lead_moves(w, base, leader, best)
    result = 1 - s0
    rel0 = np.uint64(0)
    cov0 = np.uint64(0)
    best = 0
    nodes = 0
    # One loop a seat of the trick, unrolled on purpose (so `duplicates` finds the levels
    # alike): each level's card, winner and deciding cards live in locals, where a loop over
    # the seats would keep them in arrays of w; this is the solver's hottest code.
    for i0 in range(n0):
        c0 = card(w, base + i0)
        b0 = ONE << np.uint64(c0)
        if (cov0 >> np.uint64(c0)) & ONE:
            continue
        w[W.HANDS + p0] = h0 ^ b0
        nodes += 1
        led = c0 >> 4
        h1 = w[W.HANDS + p1]
        n1 = follow_moves(w, base + 16, h1, led, b0, c0, p0, 1, p1, double)
        r1 = 1 - s1
        rel1 = np.uint64(0)
        cov1 = np.uint64(0)
        for i1 in range(n1):
            c1 = card(w, base + 16 + i1)
            if (cov1 >> np.uint64(c1)) & ONE:
                continue
            w[W.HANDS + p1] = h1 ^ (ONE << np.uint64(c1))
            nodes += 1
            if beats(c1, c0, double):
                wc1 = c1
                ws1 = p1
            else:
                wc1 = c0
                ws1 = p0
            if nact == 2:
                r = _trick(w, tt, ws1, target - ((decl >> ws1) & 1), depth + 1)
                rel = w[W.REL] | by_rank(wc1, c0, c1, c1, c1, 2)
            else:
                h2 = w[W.HANDS + p2]
                n2 = follow_moves(w, base + 32, h2, led, ONE << np.uint64(wc1), wc1, ws1, 2, p2,
                                   double)
                r2 = 1 - s2
                rel2 = np.uint64(0)
                cov2 = np.uint64(0)
                for i2 in range(n2):
                    c2 = card(w, base + 32 + i2)
                    if (cov2 >> np.uint64(c2)) & ONE:
                        continue
                    w[W.HANDS + p2] = h2 ^ (ONE << np.uint64(c2))
                    nodes += 1
                    if beats(c2, wc1, double):
                        wc2 = c2
                        ws2 = p2
                    else:
                        wc2 = wc1
                        ws2 = ws1
                    if nact == 3:
                        r = _trick(w, tt, ws2, target - ((decl >> ws2) & 1), depth + 1)
                        rel = w[W.REL] | by_rank(wc2, c0, c1, c2, c2, 3)
                    else:
                        h3 = w[W.HANDS + p3]
                        n3 = follow_moves(w, base + 48, h3, led, ONE << np.uint64(wc2), wc2, ws2,
                                           3, p3, double)
                        r3 = 1 - s3
                        rel3 = np.uint64(0)
                        cov3 = np.uint64(0)
                        for i3 in range(n3):
                            c3 = card(w, base + 48 + i3)
                            if (cov3 >> np.uint64(c3)) & ONE:
                                continue
                            w[W.HANDS + p3] = h3 ^ (ONE << np.uint64(c3))
                            nodes += 1
                            if beats(c3, wc2, double):
                                wc3 = c3
                                ws3 = p3
                            else:
                                wc3 = wc2
                                ws3 = ws2
                            r = _trick(w, tt, ws3, target - ((decl >> ws3) & 1), depth + 1)
                            rel = w[W.REL] | by_rank(wc3, c0, c1, c2, c3, 4)
                            if r == s3:
                                r3 = r
                                rel3 = rel
                                break
                            lr = with_run(w, rel, h3, c3, ONE << np.uint64(wc2), double)
                            rel3 |= lr
                            cov3 |= covered(w, lr, h3, c3, ONE << np.uint64(wc2), double)
                        w[W.HANDS + p3] = h3
                        r = r3
                        rel = rel3
                    if r == s2:
                        r2 = r
                        rel2 = rel
                        break
                    lr = with_run(w, rel, h2, c2, ONE << np.uint64(wc1), double)
                    rel2 |= lr
                    cov2 |= covered(w, lr, h2, c2, ONE << np.uint64(wc1), double)
                w[W.HANDS + p2] = h2
                r = r2
                rel = rel2
            if r == s1:
                r1 = r
                rel1 = rel
                break
            lr = with_run(w, rel, h1, c1, b0, double)
            rel1 |= lr
            cov1 |= covered(w, lr, h1, c1, b0, double)
        w[W.HANDS + p1] = h1
        if r1 == s0:
            result = r1
            rel0 = rel1
            best = c0 + 1
            # the history of this lead: a cut-off with rem tricks left weighs 8**rem, so
            # the leads that decided large subtrees this deal are tried first everywhere
            w[W.HISTORY + 64 * p0 + c0] += ONE << np.uint64(3 * rem)
            break
        lr = with_run(w, rel1, h0, c0, np.uint64(0), double)
        rel0 |= lr
        cov0 |= covered(w, lr, h0, c0, np.uint64(0), double)
    w[W.HANDS + p0] = h0
    w[W.NODES] += np.uint64(nodes)
    weight = highest_bit(w[W.NODES] - nodes_before) + 1
    store(tt, row, key, w[W.STAMP], (result, target), rel0, best, weight, double,
          w[W.PROBES])
    w[W.REL] = rel0
    return result


@njit(**NRT_FREE)
def _partial(w, tt, pos, seat, led, win_card, win_seat, table, target):
    """Like ``_trick`` from the middle of a trick: ``seat`` plays card ``pos`` of a trick led
    in ``led``, ``win_card``/``win_seat`` winning so far, ``table`` its cards. Recursive over
    the (at most three) remaining plays of this trick, then ``_trick``."""
    decl = np.int64(w[W.DECL])
    double = np.int64(w[W.DOUBLE])
    side = (decl >> seat) & 1
    h = w[W.HANDS + seat]
    base = W.MOVES + 16 * pos
    n = follow_moves(w, base, h, led, ONE << np.uint64(win_card), win_card, win_seat, pos, seat,
                      double)
    last = pos == np.int64(w[W.NACTIVE]) - 1
    result = 1 - side
    for i in range(n):
        c = card(w, base + i)
        b = ONE << np.uint64(c)
        w[W.HANDS + seat] = h ^ b
        w[W.NODES] += ONE
        if beats(c, win_card, double):
            wc = c
            ws = seat
        else:
            wc = win_card
            ws = win_seat
        if last:
            r = _trick(w, tt, ws, target - ((decl >> ws) & 1), np.int64(1))
        else:
            r = _partial(w, tt, pos + 1, next_active(seat, np.int64(w[W.ACTIVE])), led, wc, ws,
                         table | b, target)
        if r == side:
            result = r
            break
    w[W.HANDS + seat] = h
    return result


@njit(**NRT_FREE)
def at_least(w, tt, leader, table_cards, table_seats, n_table, target):
    """Can the declaring side take at least ``target`` more tricks (counting the current one)
    from the position in ``w``, where ``leader`` led the trick on the table (``n_table`` cards
    in ``table_cards`` played by ``table_seats``; 0 at a trick boundary)?"""
    w[W.NODES] += ONE
    if n_table == 0:
        return _trick(w, tt, np.int64(leader), np.int64(target), np.int64(0)) == 1
    double = np.int64(w[W.DOUBLE])
    led = np.int64(table_cards[0] >> 4)
    wc = np.int64(table_cards[0])
    ws = np.int64(table_seats[0])
    table = ONE << np.uint64(table_cards[0])
    for i in range(1, n_table):
        if beats(table_cards[i], wc, double):
            wc = np.int64(table_cards[i])
            ws = np.int64(table_seats[i])
        table |= ONE << np.uint64(table_cards[i])
    seat = next_active(table_seats[n_table - 1], np.int64(w[W.ACTIVE]))
    return _partial(w, tt, np.int64(n_table), np.int64(seat), led, wc, ws, table,
                    np.int64(target)) == 1
