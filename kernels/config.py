"""Numba settings shared by every kernel, and the on-disk cache location.

The cache directory must be set before numba is first imported, so this module is imported
first by ``kernels/__init__.py``. ``NUMBA_CACHE_DIR`` wins when the user sets it; otherwise the
cache lives under the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``), which works
for a user who cannot write to site-packages and in CI.

numba invalidates a cached function only when *its own* file changes, not when a kernel it
calls in another file does; so the default directory is keyed by a hash of every kernel source
file, and any edit to kernels/ starts a fresh cache instead of loading stale machine code.
"""

import functools
import hashlib
import os
import sys
from pathlib import Path

KERNELS_DIR = Path(__file__).resolve().parent


@functools.cache
def sources_hash() -> str:
    """Short hash of the text of every kernel source file (kernels/ and its sub-packages:
    a stale cache would load silently), by their paths inside kernels/."""
    h = hashlib.sha256()
    for path in sorted(KERNELS_DIR.rglob("*.py")):
        h.update(path.relative_to(KERNELS_DIR).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def host_has_bmi2() -> bool:
    """True if kernels may use the BMI2 ``pext`` instruction: the host CPU has it, numba
    compiles for the host (``NUMBA_CPU_NAME`` unset) and ``EUCHRE_NO_BMI2`` is unset."""
    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("EUCHRE_NO_BMI2"):
        return False
    import llvmlite.binding as llvm

    return bool(llvm.get_host_cpu_features().get("bmi2", False))


HAVE_BMI2 = host_has_bmi2()


def default_cache_dir() -> Path:
    """Where numba caches compiled kernels when NUMBA_CACHE_DIR is unset: one directory per
    version of the kernel sources and per instruction-set choice."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    flavour = "bmi2" if HAVE_BMI2 else "generic"
    return Path(base) / "euchre-analyzer" / "numba" / f"{sources_hash()}-{flavour}"


os.environ.setdefault("NUMBA_CACHE_DIR", str(default_cache_dir()))
# OpenMP's worker threads sleep when a parallel kernel returns instead of spinning for the
# next one (the user may say otherwise): a run's pieces come one after another with the
# Python thread adding up each in between, and a spinning worker took the core it needed on
# two cores. The default bid question took 1.3-1.4 s spinning, 0.6 s sleeping (issue 44).
os.environ.setdefault("OMP_WAIT_POLICY", "passive")
# the cache of a kernel is found by the sources' hash, not by the checkout's path (see
# kernels/cache_locator.py): two checkouts of one revision compile once
os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = "kernels.cache_locator.SourcesKeyedLocator"
if "numba" in sys.modules:
    # numba read its settings when it was imported (a test module or a user's script may
    # import it first): without this, it would cache beside the sources, by each file's own
    # time stamp, and load a caller's stale machine code after a kernel it calls changed
    from numba.core import config as _numba_config

    _numba_config.reload_config()

# Every @njit in kernels/ uses these keyword arguments. ``_nrt`` is set either way: numba lets a
# callee that leaves it unset inherit its caller's, and a kernel that allocates must keep NRT
# when a kernel without it (NRT_FREE, below) calls it.
JIT = dict(cache=True, nogil=True, boundscheck=False, _nrt=True)
PARALLEL_JIT = dict(cache=True, nogil=True, boundscheck=False, parallel=True, _nrt=True)
# Every kernel that allocates no array (nor returns one) is compiled without NRT, numba's
# reference counting: with it, each call increfs and decrefs every array it is passed (each
# field of a tuple of arrays such as the rules or the agents), an atomic operation each; the
# solver's search, the engine's phases and the policies call each other millions of times a
# second. tests/test_structure.py checks that no such kernel allocates.
NRT_FREE = dict(JIT, _nrt=False)
