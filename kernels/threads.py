"""The number of numba worker threads (the analyzer never imports numba itself)."""

from contextlib import contextmanager

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


@contextmanager
def deal_by_deal(n: int):
    """Within it, parallel kernel calls of ``n`` iterations (deals) hand them to the threads
    in pieces of about an eighth of a thread's share, each thread taking the next piece when
    it is free, instead of one equal share each: a double-deck deal's time is heavy-tailed
    (a deal of the bid question can take 60 times the median), and a share holding such a
    deal kept the other threads waiting at the end of each piece of a run (per Python
    thread, as numba keeps it). Results do not depend on it: each deal is its own."""
    previous = numba.set_parallel_chunksize(max(1, n // (8 * numba.get_num_threads())))
    try:
        yield
    finally:
        numba.set_parallel_chunksize(previous)
