"""The solver's working memory and the position loaded in it.

One uint64 work array ``w`` per thread (slots ``kernels.slots.W``: the four hands, the seats
that play and the declaring side, the counters, the move lists of the tricks the search has
open, the memo of ``solve_exact`` and the history of the leads that cut off) and one
partition table ``tt`` per thread (``partition_table``); nothing is allocated during a
search. The sizes: a table bucket's ways here; the tricks a search nests at most
(``MAX_TRICKS_DEEP``, which W's layout follows) in ``kernels.slots``.
"""

import numpy as np
from numba import njit

from ..cards.bits import ONE, popcount
from ..cards.rules import next_active
from ..config import JIT, NRT_FREE
from ..slots import MEMO_ENTRIES, MEMO_WORDS, W
from .partition_table import new_tables

TT_WAYS = 64  # entries of a bucket in a large (double-deck) table
SMALL_TT_WAYS = 4  # in a small (single-deck) one, where a deal visits few positions


@njit(**NRT_FREE)
def table_ways(tt_bits):
    """Entries a bucket of a table of ``2**tt_bits`` entries holds: many in a large
    (double-deck) table, few in a small one."""
    return TT_WAYS if tt_bits >= 16 else SMALL_TT_WAYS


@njit(**JIT)
def solver_arrays(nthreads, tt_bits):
    """``(works, tables)``: a work array and a table of ``2**tt_bits`` entries per thread."""
    works = np.zeros((nthreads, np.int64(W.LEN)), dtype=np.uint64)
    tables, bucket_mask = new_tables(nthreads, tt_bits, table_ways(tt_bits))
    for t in range(nthreads):
        works[t, W.TT_MASK] = bucket_mask
    return works, tables


@njit(**NRT_FREE)
def new_deal(w):
    """Start a new table generation in ``w``: entries and remembered answers of earlier deals
    are ignored from here on. Every entry holds for any deal (it is keyed by the position
    itself), so this is only to make node counts depend on the deal alone, whatever a thread
    solved before it; the solves of one deal share their entries."""
    w[W.STAMP] += ONE
    next_deal_same_table(w)


@njit(**NRT_FREE)
def next_deal_same_table(w):
    """Start a new deal in ``w`` that keeps the table's entries (the remembered answers and
    the history of cut-offs are the deal's own): for runs of deals that share many positions,
    such as consecutive layouts of exact mode, in a fixed order so node counts stay
    reproducible (``kernels.drivers.query.run_chunk``)."""
    for e in range(MEMO_ENTRIES):
        w[W.MEMO + e * MEMO_WORDS + 4] = 0
    w[W.HISTORY:W.HISTORY + 4 * 64] = 0


@njit(**NRT_FREE)
def set_position(w, hands, active, decl, double):
    """Load a position into ``w``: normalised ``hands`` (4 masks), the 4-bit masks of playing
    seats and of the declaring side, and the double-deck flag; zeroes the node count. The
    table keeps its entries (see ``new_deal``)."""
    for s in range(4):
        w[W.HANDS + s] = hands[s] if (active >> s) & 1 else np.uint64(0)
    w[W.ACTIVE] = active
    w[W.DECL] = decl & active
    w[W.DOUBLE] = double
    n = 0
    for s in range(4):
        n += (active >> s) & 1
    w[W.NACTIVE] = n
    w[W.NODES] = 0


@njit(**NRT_FREE)
def tricks_left(w, leader, n_table):
    """Tricks still to be completed, counting a trick in progress."""
    if n_table == 0:
        return popcount(w[W.HANDS + leader])
    return popcount(w[W.HANDS + leader]) + 1


@njit(inline="always", **NRT_FREE)
def trick_seats(leader, active, decl):
    """The seats of a trick in the order they play from ``leader`` (``active``: the 4-bit
    mask of the seats that play; with fewer than four the order comes round again) and the
    side of each, 1 for the declaring side (``decl``, a 4-bit mask): ``(p0, p1, p2, p3, s0,
    s1, s2, s3)``. Inlined: the search and the endgame start every trick with it."""
    p1 = next_active(leader, active)
    p2 = next_active(p1, active)
    p3 = next_active(p2, active)
    return (leader, p1, p2, p3, (decl >> leader) & 1, (decl >> p1) & 1, (decl >> p2) & 1,
            (decl >> p3) & 1)
