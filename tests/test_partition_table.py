"""The solver's table of partitions (kernels/solver/partition_table.py): an entry's bound
holds for every position of its partition and for no position outside it, and a new stamp
makes an entry stale."""

import numpy as np
import pytest
from numba import njit

from kernels.solver.partition_table import bucket_of, new_tables, position_key, probe, store

pytestmark = pytest.mark.solver


def test_a_double_deck_entry_holds_whatever_the_small_cards_pair_up_to():
    """A table entry decided by the top spade holds for a position whose small spades pair up
    differently (E's twin of N's 9 against a 10: two classes of spades out against three),
    and not for one where another hand holds the top spade (``kernels.solver.partition_table``)."""
    fill = [[(1, 0, 0)], [(1, 1, 0), (1, 2, 0)], [(2, 0, 0), (2, 1, 0), (2, 2, 0)],
            [(3, 0, 0), (3, 1, 0), (3, 2, 0)]]

    def position(north, east):
        return _dd_hands([north + fill[0], east + fill[1], fill[2], fill[3]])

    ace, king, nine, twin, ten = (0, 5, 0), (0, 4, 0), (0, 0, 0), (0, 0, 1), (0, 1, 0)
    stored = position([ace, nine], [twin])
    other_pairing = position([ace, nine], [ten])
    ace_elsewhere = position([king, nine], [ace])
    same_bucket, found, region, elsewhere, stale = _store_then_probe(
        stored, other_pairing, ace_elsewhere, np.uint64(1 << 10))
    assert same_bucket
    assert found == 1
    assert int(region) == 0b11 << 10  # the region is the ace class (both copies) of spades
    assert elsewhere == -1
    assert stale == -1  # another deal's stamp


@njit
def _store_then_probe(stored, other, changed, deciding):
    """Store "at least 2" for ``stored`` (decided by ``deciding``) in a fresh table, N to lead,
    N-S declaring, and probe ``other`` and ``changed`` in its bucket (the argument types are
    the solver's)."""
    tables, mask = new_tables(1, 16, 64)
    tt = tables[0]
    seats = (np.int64(0), np.int64(15), np.int64(5), np.int64(1))
    stamp = np.uint64(1)
    key = position_key(stored, *seats)
    bucket = bucket_of(key, mask)
    store(tt, bucket, key, stamp, (np.int64(1), np.int64(2)), deciding, np.int64(0),
          np.int64(1), np.int64(1), np.uint64(0))
    key_b = position_key(other, *seats)
    found, region, _ = probe(tt, bucket, key_b, stamp, np.int64(2), np.int64(1))
    elsewhere = probe(tt, bucket, position_key(changed, *seats), stamp, np.int64(2),
                      np.int64(1))[0]
    stale = probe(tt, bucket, key_b, stamp + np.uint64(1), np.int64(2), np.int64(1))[0]
    return bucket_of(key_b, mask) == bucket, found, region, elsewhere, stale


def _dd_hands(cards_by_seat):
    """Normalised double-deck masks from ``(suit slot, class, copy)`` triples per seat."""
    return np.array([sum(1 << (16 * q + 2 * k + c) for q, k, c in cards)
                     for cards in cards_by_seat], dtype=np.uint64)
