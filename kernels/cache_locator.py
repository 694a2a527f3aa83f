"""Where numba caches a kernel: keyed by the kernel sources, not by where they sit on disk.

numba's own locator files a function's cache under a hash of its source file's absolute
path, so two checkouts of the same revision (or a moved one) compiled every kernel again:
minutes each. This locator (named by ``kernels.config`` in ``NUMBA_CACHE_LOCATOR_CLASSES``)
files it under the hash of every kernel source instead (``config.sources_hash``): the same
sources share one cache wherever they are, and any change to any kernel file starts a fresh
one (numba alone would reuse a caller's machine code after a kernel it calls changed). Plain
Python: it is imported by numba when it first caches a function."""

import os

from numba.core import config as numba_config
from numba.core.caching import UserProvidedCacheLocator

from .config import sources_hash


def cache_folder() -> str:
    """The folder the kernels of these sources are cached in."""
    return os.path.join(numba_config.CACHE_DIR, f"kernels-{sources_hash()}")


class SourcesKeyedLocator(UserProvidedCacheLocator):
    """numba's locator for ``NUMBA_CACHE_DIR``, with the sub-folder named by the kernel
    sources' hash instead of the source file's path."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = cache_folder()
