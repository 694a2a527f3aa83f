"""The solver's entry points on positions in the natural layout: one position on one
thread's arrays (``solve_one``, ``values_one``) and N positions in parallel over numba
threads (``solve_batch``, ``card_values_batch``), each answer a pure function of its inputs.
"""

import numpy as np
from numba import get_thread_id, njit, prange

from ..cards.bits import popcount
from ..cards.layout import normalise_mask
from ..cards.rules import next_active
from ..config import JIT, NRT_FREE, PARALLEL_JIT
from ..slots import DN, Q, W
from .drivers import card_values, exact, guess_tricks
from .position import new_deal, set_position
from .search import at_least


@njit(**JIT)
def _load(w, hands, spec, table, to_norm, cards, seats):
    """Load one position given in the natural layout into ``w`` as a new deal (and its
    trick-so-far into ``cards``/``seats``, normalised): the hands, and from ``spec`` (slots
    ``Q``) the trump, the seats that play, the declaring side, the double-deck flag and the
    ``spec[Q.N_TABLE]`` cards of ``table`` already played to the current trick, in order from
    the leader."""
    trump = spec[Q.TRUMP]
    active = spec[Q.ACTIVE]
    nh = np.empty(4, dtype=np.uint64)
    for s in range(4):
        nh[s] = normalise_mask(hands[s], to_norm[trump])
    new_deal(w)
    set_position(w, nh, active, spec[Q.DECL], spec[Q.DOUBLE])
    seat = spec[Q.LEADER]
    for k in range(spec[Q.N_TABLE]):
        cards[k] = to_norm[trump, table[k]]
        seats[k] = seat
        seat = next_active(seat, active)


@njit(inline="always", **JIT)
def _load_on_thread(works, i, hands, specs, table, to_norm):
    """Position ``i`` of a batch loaded (``_load``) into the work array of the numba thread
    that runs it: ``(thread, w, cards, seats, spec)``. Inlined into the batches' parallel
    loops."""
    tid = get_thread_id()
    w = works[tid]
    cards = np.empty(4, dtype=np.int64)
    seats = np.empty(4, dtype=np.int64)
    spec = specs[i]
    _load(w, hands[i], spec, table[i], to_norm, cards, seats)
    return tid, w, cards, seats, spec


@njit(**NRT_FREE)
def _answer(w, tt, leader, cards, seats, n_table, target):
    """The answer for the position loaded in ``w``: 1/0 for ``target`` >= 0, else the
    declaring side's tricks still to come."""
    if target >= 0:
        return 1 if at_least(w, tt, leader, cards, seats, n_table, target) else 0
    return exact(w, tt, leader, cards, seats, n_table,
                 guess_tricks(w, leader) + (1 if n_table > 0 else 0))


@njit(**JIT)
def solve_one(w, tt, hands, spec, table, to_norm):
    """One position on one thread's ``w`` and ``tt`` (from ``solver_arrays``): natural masks
    ``hands[4]``, ``spec`` (int64, slots ``Q``), ``table`` the natural cards already on the
    table from the leader, ``to_norm`` the deck's layout map. Returns ``(answer, nodes)``, as
    one entry of ``solve_batch``; no thread pool and nothing allocated but two small arrays."""
    cards = np.empty(4, dtype=np.int64)
    seats = np.empty(4, dtype=np.int64)
    _load(w, hands, spec, table, to_norm, cards, seats)
    answer = _answer(w, tt, spec[Q.LEADER], cards, seats, spec[Q.N_TABLE], spec[Q.TARGET])
    return answer, np.int64(w[W.NODES])


@njit(**JIT)
def solve_hands(w, tt, to_norm, h0, h1, h2, h3, numbers):
    """A whole deal from its first lead on one thread's ``w`` and ``tt``: the natural masks of
    the four hands as int64 bit patterns (a seat that sits out is ignored) and ``numbers``
    (bit fields ``DN``: trump, leader, the seats that play, the declaring side, the
    double-deck flag, the cards a hand holds). Returns ``(tricks, nodes)``, the declaring
    side's tricks as ``solve_one`` counts them, or ``(-1 - seat, 0)`` when a seat that plays
    holds another number of cards (nothing solved)."""
    trump = numbers & 3
    active = (numbers >> DN.ACTIVE) & 15
    n = (numbers >> DN.HAND_SIZE) & 31
    nh = np.empty(4, dtype=np.uint64)
    nh[0], nh[1], nh[2], nh[3] = np.uint64(h0), np.uint64(h1), np.uint64(h2), np.uint64(h3)
    for s in range(4):
        if not (active >> s) & 1:
            nh[s] = 0
        elif popcount(nh[s]) != n:
            return -1 - s, np.int64(0)
        else:
            nh[s] = normalise_mask(nh[s], to_norm[trump])
    new_deal(w)
    set_position(w, nh, active, (numbers >> DN.DECL) & 15, (numbers >> DN.DOUBLE) & 1)
    none = np.empty(0, dtype=np.int64)  # no card on the table yet
    return _answer(w, tt, (numbers >> DN.LEADER) & 3, none, none, 0, -1), np.int64(w[W.NODES])


@njit(**JIT)
def values_one(w, tt, hands, spec, table, rules, values):
    """``card_values`` of one position (as ``solve_one``; ``rules`` the ``RuleArrays``, whose
    layout maps it reads): fills ``values[64]`` (indexed by natural card id, -1 for cards that
    cannot be played) and returns the nodes searched."""
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    cards = np.empty(4, dtype=np.int64)
    seats = np.empty(4, dtype=np.int64)
    _load(w, hands, spec, table, to_norm, cards, seats)
    _natural_values(w, tt, spec[Q.LEADER], cards, seats, spec[Q.N_TABLE],
                    from_norm[spec[Q.TRUMP]], values)
    return np.int64(w[W.NODES])


@njit(**JIT)
def _natural_values(w, tt, leader, cards, seats, n_table, from_norm_t, values):
    """``card_values`` of the position loaded in ``w``, written to ``values[64]`` by natural
    card id (``from_norm_t``: the layout map of its trump), -1 for cards that cannot be played."""
    out = np.empty(64, dtype=np.int64)
    card_values(w, tt, leader, cards, seats, n_table, out)
    values[:] = -1
    for b in range(64):
        if out[b] >= 0:
            values[from_norm_t[b]] = out[b]


@njit(**PARALLEL_JIT)
def solve_batch(hands, specs, table, to_norm, works, tables):
    """Solve N positions in parallel, each a pure function of its inputs (the same answers
    and node counts whatever the thread count).

    Per position i: ``hands[i, 4]`` natural masks of the cards still held, ``specs[i]`` its
    numbers (slots ``Q``: the trump, who led or leads the current trick, the 4-bit masks of
    the seats that play and of the declaring side, the cards on the table, the target, the
    double-deck flag), ``table[i, :specs[i, Q.N_TABLE]]`` the natural cards already played to
    the current trick in order from the leader. A target k >= 0 asks "can the declaring side
    take at least k of the tricks still to come (counting the current one)?" (answer 1/0),
    -1 asks for that number exactly. ``to_norm`` is the deck's layout map; ``works`` and
    ``tables`` a work array and a table per numba thread (``solver_arrays``, or reused from
    an earlier batch: each position starts a new table generation). Returns ``(answers[N]
    int8, nodes[N] int64)``."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int8)
    nodes = np.empty(n, dtype=np.int64)
    for i in prange(n):
        tid, w, cards, seats, spec = _load_on_thread(works, i, hands, specs, table, to_norm)
        out[i] = _answer(w, tables[tid], spec[Q.LEADER], cards, seats, spec[Q.N_TABLE],
                         spec[Q.TARGET])
        nodes[i] = np.int64(w[W.NODES])
    return out, nodes


@njit(**PARALLEL_JIT)
def card_values_batch(hands, specs, table, rules, works, tables):
    """The per-card form of ``solve_batch`` ("solve board"): for each position, the value of
    every legal card of the seat to play, as tricks still to come (counting the current one)
    for the declaring side (``rules`` the ``RuleArrays``, whose layout maps it reads). Returns
    ``(values[N, 64] int8 indexed by natural card id, -1 for cards that cannot be played;
    nodes[N])``."""
    to_norm = rules.to_norm
    from_norm = rules.from_norm
    n = hands.shape[0]
    values = np.empty((n, 64), dtype=np.int8)
    nodes = np.empty(n, dtype=np.int64)
    for i in prange(n):
        tid, w, cards, seats, spec = _load_on_thread(works, i, hands, specs, table, to_norm)
        _natural_values(w, tables[tid], spec[Q.LEADER], cards, seats, spec[Q.N_TABLE],
                        from_norm[spec[Q.TRUMP]], values[i])
        nodes[i] = np.int64(w[W.NODES])
    return values, nodes
