"""The solver's wrappers: positions in, answers out (``kernels.solver``)."""

from __future__ import annotations

import numpy as np

from kernels import solver as S
from kernels.partition_table import E
from kernels.threads import num_threads

from ..game.variants import Rules


def table_bits(rules: Rules) -> int:
    """log2 of the transposition-table rows per thread: small enough to stay in cache for the
    single deck (a deal touches a few hundred trick starts), large for the double deck."""
    return 20 if rules.double_deck else 12


def solver_memory_bytes(rules: Rules) -> int:
    """Memory the solver uses per thread, whatever the batch size."""
    return 8 * E.FIELDS * (1 << table_bits(rules)) + 8 * S.W.LEN


def _i64(values, n) -> np.ndarray:
    arr = np.asarray(values, dtype=np.int64)
    return np.full(n, arr, dtype=np.int64) if arr.ndim == 0 else arr


def _positions(hands, trumps, leaders, active, decl, table, n_table):
    """The position arrays of a batch, numbers broadcast to one per position."""
    n = len(hands)
    if table is None:
        table = np.full((n, 4), -1, dtype=np.int64)
        n_table = np.zeros(n, dtype=np.int64)
    return (np.asarray(hands, dtype=np.uint64), _i64(trumps, n), _i64(leaders, n),
            _i64(active, n), _i64(decl, n), np.asarray(table, dtype=np.int64),
            _i64(n_table, n))


def solve_positions(rules: Rules, hands, trumps, leaders, active, decl, targets,
                    table=None, n_table=None) -> tuple[np.ndarray, np.ndarray]:
    """Solve N positions: natural masks ``hands[N, 4]`` of the cards still held, the trump,
    the seat that leads (or led) the current trick, 4-bit masks of the seats that play and of
    the declaring side, ``table[N, :n_table]`` the cards already on the table, and
    ``targets``: k >= 0 asks "can the declaring side take at least k of the tricks still to
    come?" (1/0), -1 asks for that number. Numbers are broadcast. Returns ``(answers,
    nodes)``; see ``kernels.solver.solve_batch``."""
    pos = _positions(hands, trumps, leaders, active, decl, table, n_table)
    to_norm, _ = rules.layout
    return S.solve_batch(*pos, _i64(targets, len(hands)), to_norm,
                         1 if rules.double_deck else 0, table_bits(rules), num_threads())


def card_values(rules: Rules, hands, trumps, leaders, active, decl, table=None,
                n_table=None) -> tuple[np.ndarray, np.ndarray]:
    """Value of every legal card of the seat to play in N positions (tricks still to come for
    the declaring side; -1 where a card cannot be played), indexed by natural card id; the
    positions as in :func:`solve_positions`. Returns ``(values[N, 64], nodes[N])``."""
    pos = _positions(hands, trumps, leaders, active, decl, table, n_table)
    to_norm, from_norm = rules.layout
    return S.card_values_batch(*pos, to_norm, from_norm, 1 if rules.double_deck else 0,
                               table_bits(rules), num_threads())
