"""Double-dummy solver: with every hand known, how many tricks can the declaring side take?

Positions are in the trump-normalised layout (``kernels.cards.layout``): four hand masks, the seats
that play (``active``, a 4-bit mask; 2, 3 or 4 seats), the declaring side (``decl``, a 4-bit
mask of seats), and the cards already on the table in the current trick.

The algorithm, one module per technique (docs/solver.md gives it as pseudocode):

  batch            the entry points: positions in the natural layout, in parallel over threads
  drivers          exact counts by zero-window probes from a first guess (MTD-style), sharing
                   one table; the value of every legal card
  search           "can the declaring side take at least k more tricks?": at each trick start
                   the cut-offs, the endgame, the table; else the plays of the trick as nested
                   loops, the next trick the one recursive call, the answer stored
  cutoffs          the bounds at a trick start, in order: already made or out of reach, the
                   quick tricks, the partner's entry, the run of top trumps, one hand's trumps
  quick_tricks     the tricks the side to lead cashes from the top (and through the partner)
  trump_bounds     the tricks a side's top trumps, or one hand's trumps, are sure of
  endgame          the last two tricks as flat loops
  moves            one move per run of equivalent cards, best first (the leads' history of
                   cut-offs, winners, cheap cards)
  partition_table  the transposition table: an entry holds for every position that agrees on
                   the shapes and on who holds the cards that decided the answer
  position         the work array ``w`` and the position loaded in it

Every answer of the search comes with the cards that decided it (``w[W.REL]``), which the
table stores. Working memory is one uint64 array ``w`` per thread (hands, counters, move
lists) and one ``tt`` table per thread; nothing is allocated during a search. The kernels and
``analyzer.compute.solver`` import the names below from here.
"""

from ..slots import DN, MAX_TRICKS_DEEP, Q, W
from .batch import card_values_batch, solve_batch, solve_hands, solve_one, values_one
from .drivers import card_values, exact, guess_tricks, solve_exact
from .position import (
    SMALL_TT_WAYS,
    TT_WAYS,
    new_deal,
    next_deal_same_table,
    set_position,
    solver_arrays,
    table_ways,
    tricks_left,
)
from .search import at_least

__all__ = [
    "DN", "MAX_TRICKS_DEEP", "Q", "SMALL_TT_WAYS", "TT_WAYS", "W", "at_least", "card_values",
    "card_values_batch", "exact", "guess_tricks", "new_deal", "next_deal_same_table",
    "set_position", "solve_batch", "solve_exact", "solve_hands", "solve_one", "solver_arrays",
    "table_ways", "tricks_left", "values_one",
]
