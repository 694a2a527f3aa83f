"""numba kernels: plain arrays in, arrays out. No Python objects and no I/O in jitted code."""

from . import config  # noqa: F401  (sets NUMBA_CACHE_DIR before numba is imported)
