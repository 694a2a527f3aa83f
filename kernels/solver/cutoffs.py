"""The bounds at a trick start. ``cutoff``, before the table: the tricks already made or out
of reach, the last trick played out (``endgame``), the trumps alone (``trump_bounds``: one
hand's trumps in the double deck, the side's run of top trumps in the single deck), and in
the single deck the quick tricks of the side to lead (``quick_tricks``). ``quick_cut``, in
the double deck once the table has missed: the quick tricks, then those through the
partner's entry. The first that settles the question answers it, with the cards that
decided it in ``w[W.REL]``.
"""

import numpy as np
from numba import njit

from ..config import NRT_FREE
from ..slots import W
from .endgame import last_trick
from .quick_tricks import entry_tricks, quick_tricks, to_settle
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
    """The answer at a trick start when a bound settles it before the table is looked at (1
    or 0, ``w[W.REL]`` the cards that decided it), else -1: the tricks already made or out of
    reach, the last trick played out, then in the double deck the tricks one player's trumps
    are sure of (which counts the run of top trumps too; the quick tricks come after the
    table, ``quick_cut``), in the single deck the run of top trumps one player holds and the
    quick tricks of the side to lead. The trumps come first: they settle most of the trick
    starts a bound settles, cheaply, and decide with cards of one suit, so the entry stored
    above holds for more positions."""
    decl = np.int64(w[W.DECL])
    w[W.REL] = 0
    if target <= 0:
        return np.int64(1)
    if target > rem:
        return np.int64(0)
    if rem == 1:
        return last_trick(w, leader)
    if w[W.DOUBLE] != 0:
        return trump_length_cut(w, target, rem)
    run, counted = top_trump_run(w)
    if run > 0:
        cut = _sure_cut(w, (decl >> np.int64(run >> 8)) & 1, np.int64(run & 255), counted,
                        target, rem)
        if cut >= 0:
            return cut
    return _quick(w, leader, target, rem, False)


@njit(**NRT_FREE)
def quick_cut(w, leader, target, rem):
    """As ``cutoff``, after the table missed: in the double deck the quick tricks of the side
    to lead, then those through the partner's entry (-1 in the single deck, whose quick
    tricks ``cutoff`` asked). The table answers most of the positions they would settle,
    and they cost more a position than the lookup (about -8% time on the question's rows
    and on random double-deck deals; in the single deck, where the quick tricks are
    cheaper, no faster)."""
    if w[W.DOUBLE] == 0:
        return np.int64(-1)
    return _quick(w, leader, target, rem, True)


@njit(inline="always", **NRT_FREE)
def _quick(w, leader, target, rem, entry):
    """1 or 0 when the quick tricks of the side of ``leader`` (and with ``entry`` those
    through the partner's entry) settle ``target`` of ``rem``, else -1; each counted only
    up to the tricks that settle it."""
    side = (np.int64(w[W.DECL]) >> leader) & 1
    need = to_settle(side, target, rem)
    q, counted = quick_tricks(w, leader, need)
    cut = _sure_cut(w, side, q, counted, target, rem)
    if cut >= 0 or not entry:
        return cut
    q, counted = entry_tricks(w, leader, need)
    return _sure_cut(w, side, q, counted, target, rem)
