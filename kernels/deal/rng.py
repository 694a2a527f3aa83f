"""Counter-based random numbers: every stream is a pure function of (seed, stream, index).

Deal ``i`` of a query draws from ``stream_state(seed, STREAM_DEAL, i)``, so results do not
depend on thread count, chunk size or where a chunk runs. A stream is SplitMix64 (Steele,
Lea & Flood 2014) started from a key mixed out of the three numbers; its state is one uint64
held in a length-1 array so kernels can advance it in place.
"""

import numpy as np
from numba import njit

from ..cards.bits import lowest_bit, popcount
from ..config import JIT, NRT_FREE

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
STREAM_DEAL = 1  # the cards
STREAM_PLAY = 2  # random choices of policies in a hand or an option played out
STREAM_SCENARIO = 3  # the same in the scenario rows of a query (deal i, row s of n: i * n + s)


@njit(**NRT_FREE)
def mix64(z):
    """SplitMix64 finaliser: a bijective avalanche mix of one uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(**JIT)
def stream_state(seed, stream, index):
    """A fresh generator state (length-1 uint64 array) for ``(seed, stream, index)``."""
    k = mix64(np.uint64(seed) + GOLDEN)
    k = mix64(k ^ (np.uint64(stream) * GOLDEN))
    k = mix64(k ^ np.uint64(index))
    state = np.empty(1, dtype=np.uint64)
    state[0] = k
    return state


@njit(**NRT_FREE)
def reseed(state, seed, stream, index):
    """Restart the generator ``state`` in place at stream ``(seed, stream, index)`` (the same
    numbers as a fresh ``stream_state``, without allocating)."""
    k = mix64(np.uint64(seed) + GOLDEN)
    k = mix64(k ^ (np.uint64(stream) * GOLDEN))
    state[0] = mix64(k ^ np.uint64(index))


@njit(**NRT_FREE)
def next_u64(state):
    """Advance ``state`` and return the next uint64."""
    state[0] += GOLDEN
    return mix64(state[0])


@njit(**NRT_FREE)
def uniform_int(state, n):
    """An exactly uniform integer in [0, n) for 0 < n < 2**32 (Lemire's method with rejection)."""
    n64 = np.uint64(n)
    while True:
        x = next_u64(state) >> np.uint64(32)
        m = x * n64
        low = m & np.uint64(0xFFFFFFFF)
        if low >= n64:
            return np.int64(m >> np.uint64(32))
        threshold = (np.uint64(0x100000000) - n64) % n64
        if low >= threshold:
            return np.int64(m >> np.uint64(32))


@njit(**NRT_FREE)
def shuffle(state, values):
    """Fisher-Yates shuffle of the int64 array ``values`` in place."""
    for i in range(values.shape[0] - 1, 0, -1):
        j = uniform_int(state, i + 1)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp


@njit(**NRT_FREE)
def random_set_bit(state, mask):
    """A uniformly chosen set bit index of the non-zero uint64 ``mask``."""
    k = uniform_int(state, popcount(mask))
    m = np.uint64(mask)
    for _ in range(k):
        m &= m - np.uint64(1)
    return lowest_bit(m)
