"""Numba settings shared by every kernel, and the on-disk cache location.

The cache directory must be set before numba is first imported, so this module is imported
first by ``kernels/__init__.py``. ``NUMBA_CACHE_DIR`` wins when the user sets it; otherwise the
cache lives under the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``), which works
for a user who cannot write to site-packages and in CI.

numba invalidates a cached function only when *its own* file changes, not when a kernel it
calls in another file does; so the default directory is keyed by a hash of every kernel source
file, and any edit to kernels/ starts a fresh cache instead of loading stale machine code.
"""

import hashlib
import os
from pathlib import Path

KERNELS_DIR = Path(__file__).resolve().parent


def sources_hash() -> str:
    """Short hash of the text of every kernels/*.py file."""
    h = hashlib.sha256()
    for path in sorted(KERNELS_DIR.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def default_cache_dir() -> Path:
    """Where numba caches compiled kernels when NUMBA_CACHE_DIR is unset."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "euchre-analyzer" / "numba" / sources_hash()


os.environ.setdefault("NUMBA_CACHE_DIR", str(default_cache_dir()))

# Every @njit in kernels/ uses these keyword arguments.
JIT = dict(cache=True, nogil=True, boundscheck=False)
PARALLEL_JIT = dict(cache=True, nogil=True, boundscheck=False, parallel=True)
