"""The bounds at a trick start, applied in order by ``cutoff``: the tricks already made or
out of reach, the last trick played out (``endgame``), the quick tricks of the side to lead
(``quick_tricks``), in the double deck those through the partner's entry, then the side's run
of top trumps (single deck) or one hand's trumps (double deck, ``trump_bounds``). The first
that settles the question answers it, with the cards that decided it in ``w[W.REL]``.
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
    that decided it), else -1: the tricks already made or out of reach, the quick tricks of
    the side to lead, (double deck) those through the partner's entry, and the run of top
    trumps one player holds or (double deck) the tricks one player's trumps are sure of,
    which counts that run too: with its deciding cards only the trumps counted, the run's
    bound settled nothing more and cost 2-3% of the time."""
    decl = np.int64(w[W.DECL])
    w[W.REL] = 0
    if target <= 0:
        return np.int64(1)
    if target > rem:
        return np.int64(0)
    if rem == 1:
        return last_trick(w, leader)
    s0 = (decl >> leader) & 1
    q, counted = quick_tricks(w, leader)
    cut = _sure_cut(w, s0, q, counted, target, rem)
    if cut >= 0:
        return cut
    if w[W.DOUBLE] != 0:  # in the single deck these cost more than they saved
        q, counted = entry_tricks(w, leader)
        cut = _sure_cut(w, s0, q, counted, target, rem)
        if cut >= 0:
            return cut
        return trump_length_cut(w, target, rem)
    run, counted = top_trump_run(w)
    if run > 0:
        cut = _sure_cut(w, (decl >> np.int64(run >> 8)) & 1, np.int64(run & 255), counted,
                        target, rem)
        if cut >= 0:
            return cut
    return np.int64(-1)
