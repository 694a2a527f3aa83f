"""The bounds at a trick start, applied in order by ``cutoff``: the tricks already made or
out of reach, the last trick played out (``endgame``), the trumps alone (``trump_bounds``:
one hand's trumps in the double deck, the side's run of top trumps in the single deck),
then the quick tricks of the side to lead (``quick_tricks``) and, in the double deck, those
through the partner's entry. The first that settles the question answers it, with the cards
that decided it in ``w[W.REL]``: the trumps first, since they decide with the fewest cards
(one suit) and the table's entry then holds for the most positions.
"""

import numpy as np
from numba import njit

from ..config import NRT_FREE
from ..slots import W
from .endgame import last_trick
from .quick_tricks import entry_tricks, quick_tricks
from .trump_bounds import top_trump_run, trump_length_cut


@njit(inline="always", **NRT_FREE)
def _sure_cut(w, declarers, q, counted, target, rem):
    """1 or 0 when the ``q`` tricks a side is sure of (``declarers``: 1 for the declaring
    side) settle ``target`` of ``rem`` (``w[W.REL]`` gets ``counted``, the cards that
    counted them), else -1."""
    if declarers == 1:
        if q >= target:
            w[W.REL] = counted
            return np.int64(1)
    elif rem - q < target:
        w[W.REL] = counted
        return np.int64(0)
    return np.int64(-1)


@njit(inline="always", **NRT_FREE)
def cutoff(w, leader, target, rem):
    """The answer at a trick start when a bound settles it (1 or 0, ``w[W.REL]`` the cards
    that decided it), else -1: the tricks already made or out of reach, then the tricks one
    player's trumps are sure of (double deck; it counts the run of top trumps too) or the
    run of top trumps one player holds (single deck), then the quick tricks of the side to
    lead and (double deck) those through the partner's entry, each counted only up to the
    tricks that settle the question. Trumps first: their bound decides with cards of one
    suit, so the entry stored above holds for more positions (double-deck nodes -4% on the
    question's rows, -8% on random deals)."""
    decl = np.int64(w[W.DECL])
    w[W.REL] = 0
    if target <= 0:
        return np.int64(1)
    if target > rem:
        return np.int64(0)
    if rem == 1:
        return last_trick(w, leader)
    s0 = (decl >> leader) & 1
    if w[W.DOUBLE] != 0:
        cut = trump_length_cut(w, target, rem)
        if cut >= 0:
            return cut
    else:
        run, counted = top_trump_run(w)
        if run > 0:
            cut = _sure_cut(w, (decl >> np.int64(run >> 8)) & 1, np.int64(run & 255), counted,
                            target, rem)
            if cut >= 0:
                return cut
    need = target if s0 == 1 else rem - target + 1  # the tricks that settle it
    q, counted = quick_tricks(w, leader, need)
    cut = _sure_cut(w, s0, q, counted, target, rem)
    if cut >= 0:
        return cut
    if w[W.DOUBLE] != 0:  # in the single deck these cost more than they saved
        q, counted = entry_tricks(w, leader, need)
        cut = _sure_cut(w, s0, q, counted, target, rem)
        if cut >= 0:
            return cut
    return np.int64(-1)
