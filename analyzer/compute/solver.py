"""The solver's wrappers: positions in, answers out (``kernels.solver``)."""

from __future__ import annotations

import threading
from functools import lru_cache

import numpy as np

from kernels import solver as S
from kernels.solver.partition_table import E, table_buckets
from kernels.threads import num_threads

from ..game.variants import Rules


def solves_fast(rules: Rules) -> bool:
    """Whether a hand of ``rules`` solves double dummy fast enough to label or check by the
    thousand: hands of up to 6 cards (microseconds a position); the double deck's 12 cost
    about 25 ms a call here."""
    return rules.hand_size <= 6


def table_bits(rules: Rules) -> int:
    """log2 of the transposition-table rows per thread: small enough to stay in cache for the
    single deck (a deal touches a few hundred trick starts), large for the double deck."""
    return 20 if rules.double_deck else 12


def solver_memory_bytes(rules: Rules) -> int:
    """Memory the solver uses per thread, whatever the batch size."""
    return 8 * E.FIELDS * (1 << table_bits(rules)) + 8 * S.W.LEN


def new_solver_arrays(bits: int, nthreads: int) -> tuple[np.ndarray, np.ndarray]:
    """``(works, tables)`` for ``nthreads`` numba threads, each table of ``2**bits`` entries,
    as ``kernels.solver.solver_arrays`` makes them but allocated by numpy, which asks the
    kernel for huge pages for a large array: the double deck's 59 MB table then costs about
    30 page faults instead of 14,000 4-KB ones (a fresh table took 35 ms of a 65 ms median
    solve here; 8 ms this way)."""
    ways = S.table_ways(bits)
    buckets = table_buckets(bits, ways)
    works = np.zeros((nthreads, S.W.LEN), dtype=np.uint64)
    works[:, S.W.TT_MASK] = buckets - 1
    return works, np.zeros((nthreads, buckets, E.FIELDS, ways), dtype=np.uint64)


_reused = threading.local()  # one set of solver arrays per Python thread, see solver_arrays


def solver_arrays(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The solver's arrays for a batch under ``rules`` on the current numba threads, kept
    for the next batch of this Python thread: every position or deal starts a new table
    generation (stale entries count as free), so answers and node counts are those of fresh
    arrays, without allocating and first touching a table per call (59 MB a thread in the
    double deck). Per Python thread, so two batches never share them."""
    key = (table_bits(rules), num_threads())
    kept = getattr(_reused, "arrays", None)
    if kept is None or kept[0] != key:
        _reused.arrays = kept = (key, new_solver_arrays(*key))
    return kept[1]


def _i64(values, n) -> np.ndarray:
    arr = np.asarray(values, dtype=np.int64)
    return np.full(n, arr, dtype=np.int64) if arr.ndim == 0 else arr


def _positions(rules: Rules, hands, trumps, leaders, active, decl, table, targets=-1):
    """The position arrays of a batch: the hands, each position's numbers (slots
    ``kernels.slots.Q``; numbers broadcast to one per position, the cards on each table
    counted from ``table``'s -1 padding, the rules' double-deck flag) and the table."""
    n = len(hands)
    # C-contiguous arrays only: a strided view (a slice, a reversed batch) would compile the
    # batch kernels again for another array layout (10 s each, cold)
    table = np.full((n, 4), -1, dtype=np.int64) if table is None else \
        np.ascontiguousarray(table, dtype=np.int64)
    specs = np.zeros((n, S.Q.LEN), dtype=np.int64)
    specs[:, S.Q.TRUMP], specs[:, S.Q.LEADER] = _i64(trumps, n), _i64(leaders, n)
    specs[:, S.Q.ACTIVE], specs[:, S.Q.DECL] = _i64(active, n), _i64(decl, n)
    specs[:, S.Q.N_TABLE] = (table >= 0).sum(axis=1)
    specs[:, S.Q.TARGET] = _i64(targets, n)
    specs[:, S.Q.DOUBLE] = 1 if rules.double_deck else 0
    return np.ascontiguousarray(hands, dtype=np.uint64), specs, table


def solve_positions(rules: Rules, hands, trumps, leaders, active, decl, targets,
                    table=None) -> tuple[np.ndarray, np.ndarray]:
    """Solve N positions: natural masks ``hands[N, 4]`` of the cards still held, the trump,
    the seat that leads (or led) the current trick, 4-bit masks of the seats that play and of
    the declaring side, ``table[N, 4]`` the cards already on the table in the order played
    (padded with -1; None: none), and ``targets``: k >= 0 asks "can the declaring side take
    at least k of the tricks still to come?" (1/0), -1 asks for that number. Numbers are
    broadcast. Returns ``(answers, nodes)``; see ``kernels.solver.solve_batch``."""
    hands, specs, table = _positions(rules, hands, trumps, leaders, active, decl, table,
                                     targets)
    to_norm, _ = rules.layout
    return S.solve_batch(hands, specs, table, to_norm, *solver_arrays(rules))


def card_values(rules: Rules, hands, trumps, leaders, active, decl,
                table=None) -> tuple[np.ndarray, np.ndarray]:
    """Value of every legal card of the seat to play in N positions (tricks still to come for
    the declaring side; -1 where a card cannot be played), indexed by natural card id; the
    positions as in :func:`solve_positions`. Returns ``(values[N, 64], nodes[N])``."""
    hands, specs, table = _positions(rules, hands, trumps, leaders, active, decl, table)
    return S.card_values_batch(hands, specs, table, rules.arrays, *solver_arrays(rules))


def deal_numbers(rules: Rules, trump: int, leader: int, active: int, decl: int) -> int:
    """The numbers of a whole deal for :meth:`Solver.whole_deal`, packed in one int (bit
    fields ``kernels.slots.DN``): the trump, the first leader, the 4-bit masks of the seats
    that play and of the declaring side, and the rules' deck and hand size."""
    return (trump << S.DN.TRUMP | leader << S.DN.LEADER | active << S.DN.ACTIVE |
            decl << S.DN.DECL | bool(rules.double_deck) << S.DN.DOUBLE |
            rules.hand_size << S.DN.HAND_SIZE)


_solve_one, _solve_hands = S.solve_one, S.solve_hands  # module globals: one lookup a call
_TRUMP, _LEADER, _ACTIVE, _DECL, _N_TABLE, _TARGET = (
    int(S.Q.TRUMP), int(S.Q.LEADER), int(S.Q.ACTIVE), int(S.Q.DECL), int(S.Q.N_TABLE),
    int(S.Q.TARGET))


class Solver:
    """A reusable one-thread double-dummy solver for one set of rules, for a caller (a bot)
    that asks about one position at a time: its table and work arrays are allocated once,
    and each call is one compiled function on plain arrays, with no thread pool. The table
    starts a new generation at each call (as ``solve_positions`` does at each position), so
    every answer and node count equals the batch's. Batches (``solve_positions``,
    ``card_values``) stay the fast path for many positions. See docs/solver.md."""

    def __init__(self, rules: Rules):
        self.rules = rules
        works, tables = new_solver_arrays(table_bits(rules), 1)
        self._work, self._table = works[0], tables[0]
        self._to_norm = rules.layout[0]
        self._arrays = rules.arrays
        self._spec = np.zeros(S.Q.LEN, dtype=np.int64)
        self._spec[S.Q.DOUBLE] = 1 if rules.double_deck else 0
        self._hands = np.zeros(4, dtype=np.uint64)
        self._cards = np.full(4, -1, dtype=np.int64)
        self._values = np.empty(64, dtype=np.int8)
        # the same memory as plain buffers: a bot pays the setting on every call, and a
        # memoryview takes Python ints without numpy's conversions (0.45 us -> 0.18 for
        # the four hands, 0.35 -> 0.21 for the six numbers)
        self._hands_mv = memoryview(self._hands).cast("B").cast("Q")
        self._spec_mv = memoryview(self._spec).cast("B").cast("q")
        self._solve_args = (self._work, self._table, self._hands, self._spec, self._cards,
                            self._to_norm)
        self.nodes = 0  # nodes searched by the last call

    def _set(self, hands, trump, leader, active, decl, table, target):
        if isinstance(hands, list):
            h = self._hands_mv
            h[0], h[1], h[2], h[3] = hands
        else:  # a numpy row: numpy copies it faster than its scalars can be unboxed
            self._hands[:] = hands
        spec = self._spec_mv
        # the slots as plain ints: an IntEnum member costs a lookup a use
        spec[_TRUMP], spec[_LEADER], spec[_ACTIVE] = trump, leader, active
        spec[_DECL], spec[_N_TABLE], spec[_TARGET] = decl, len(table), target
        if len(table):
            self._cards[:len(table)] = table

    def solve(self, hands, trump: int, leader: int, active: int, decl: int,
              target: int = -1, table=()) -> int:
        """The answer for one position, as one entry of :func:`solve_positions`: natural masks
        ``hands`` (4), the trump, the seat that leads (or led) the current trick, the 4-bit
        masks of the playing seats and of the declaring side, ``table`` the natural ids of the
        cards already on the table, and ``target`` (k: 1/0 for "at least k tricks still to
        come?", -1: how many)."""
        self._set(hands, trump, leader, active, decl, table, target)
        answer, self.nodes = _solve_one(*self._solve_args)
        return int(answer)

    def whole_deal(self, hands, numbers: int) -> int:
        """A whole deal from its first lead, the fastest one-call path (no array filled): the
        four hands as natural masks (a seat that sits out ignored) and ``numbers`` from
        :func:`deal_numbers`. Returns the declaring side's tricks (as :meth:`solve` counts
        them), or ``-1 - seat`` when a seat that plays holds another number of cards."""
        h0, h1, h2, h3 = hands
        if (h0 | h1 | h2 | h3) >> 63:  # the kernel takes int64 bit patterns
            h0, h1, h2, h3 = (h - (1 << 64) if h >> 63 else h for h in hands)
        tricks, self.nodes = _solve_hands(self._work, self._table, self._to_norm, h0, h1, h2,
                                          h3, numbers)
        return tricks

    def values(self, hands, trump: int, leader: int, active: int, decl: int,
               table=()) -> np.ndarray:
        """The value of every legal card of the seat to play (as :func:`card_values`):
        int8[64] by natural card id, -1 where a card cannot be played; a view that the next
        call overwrites."""
        self._set(hands, trump, leader, active, decl, table, -1)
        self.nodes = S.values_one(self._work, self._table, self._hands, self._spec,
                                  self._cards, self._arrays, self._values)
        return self._values


@lru_cache(maxsize=4)
def _solver_of(rules: Rules) -> Solver:
    return Solver(rules)


_LAST: list = [None, None]  # the rules asked last and their solver


def shared_solver(rules: Rules) -> Solver:
    """One :class:`Solver` per rule set for this process (one-position questions). The
    rules asked last are answered without hashing them (a bot asks the same ones each call:
    0.37 us -> 0.08)."""
    last = _LAST
    if rules is last[0]:
        return last[1]
    solver = _solver_of(rules)
    last[0], last[1] = rules, solver
    return solver
