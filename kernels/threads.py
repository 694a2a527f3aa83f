"""The number of numba worker threads (the analyzer never imports numba itself)."""

import numba


def num_threads() -> int:
    """Threads the parallel kernels use now."""
    return numba.get_num_threads()


def max_threads() -> int:
    """Threads available (NUMBA_NUM_THREADS, by default the number of cores)."""
    return numba.config.NUMBA_NUM_THREADS


def set_threads(n: int) -> None:
    """Use ``n`` threads (1 .. max_threads()) in later kernel calls."""
    numba.set_num_threads(n)
