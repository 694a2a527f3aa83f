"""Compiled kernels from a cold and a warm numba cache give identical results (the solver
recurses, which numba's cache has mishandled before), and no kernel's typing produces a
float64 scalar (numba unifies uint64 with int64 into float64, silently dropping card bits)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from tests.cache_probe import float_scalars, kernel_dispatchers, typing_of

pytestmark = [pytest.mark.structure, pytest.mark.solver]

PROBE = Path(__file__).with_name("cache_probe.py")


def run_probe(cache_dir, *args):
    """The probe's JSON line, run in a fresh process on the numba cache ``cache_dir`` (None:
    the suite's own)."""
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    done = subprocess.run([sys.executable, str(PROBE), *args], env=env, capture_output=True,
                          text=True, cwd=PROBE.parent.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def cold_then_warm(cache, *args):
    """The probe's results compiled into the empty folder ``cache``, then loaded from it."""
    cold = run_probe(cache, *args)
    assert list(cache.rglob("search._search-*.nbi")), "the solver's search was not cached"
    warm = run_probe(cache, *args)
    assert warm == cold
    return cold


@pytest.mark.slow
def test_cold_then_warm_cache(tmp_path):
    """The solver (its recursive search, under one bid deal's solve) compiled into an empty
    folder of the probe's own, never the suite's cache: under pytest-xdist another worker
    compiles into that at the same moment, and the probe then loaded part of its kernels cold
    and part warm (a fresh clone failed here once in two). The slow suite's (a minute of
    compiling): `.ci/run` compiles every kernel cold in `make demo` and `make test` then
    checks the solver's answers against the brute force on what was cached."""
    cold_then_warm(tmp_path)


@pytest.mark.slow
def test_cold_then_warm_cache_with_the_engine(tmp_path):
    """The solver's solves and card values and the hand engine (every phase and play policy)
    compiled cold and loaded warm give the same results (minutes of compiling)."""
    cold = cold_then_warm(tmp_path, "--values", "--play")
    assert list(tmp_path.rglob("engine.play_batch-*.nbi")), "the engine was not cached"
    assert len(cold["points"]) == 4


def test_no_kernel_mixes_uint64_and_int64_into_float64():
    """Every kernel the probe plays and solves with is typed afresh (numba's type inference
    alone, whether the suite's cache held its machine code or not): no float64 scalar outside
    the functions that compute in floats on purpose."""
    assert run_probe(None, "--values", "--play", "--types")["floats"] == [], \
        "kernels mix uint64 and int64 into float64"


def test_the_float_scan_sees_every_room_of_kernels():
    """The scan walks the rooms of kernels/ (it once looked at the top modules only and, after
    kernels/ was grouped into rooms, saw the solver's exports and nothing else)."""
    rooms = {name.split(".")[0] for name in kernel_dispatchers()}
    assert rooms >= {"bidding", "cards", "deal", "drivers", "hand", "play", "solver"}, rooms
    assert "hand.engine.play_batch" in kernel_dispatchers()


def test_the_float_scan_finds_the_trap():
    @njit
    def mixed(mask, on):
        return mask if on else 0  # uint64 vs int64 literal: unified to float64

    mixed(np.uint64(5), True)
    assert float_scalars({"mixed": mixed})
    # the scan's own type inference is the one numba compiled with
    (signature, compiled), = mixed.overloads.items()
    assert typing_of(mixed, signature) == compiled.type_annotation.typemap


def test_the_cache_is_the_kernels_own_when_numba_was_imported_first(tmp_path):
    """A script (or test module) that imports numba before the kernels still caches in the
    kernels' own directory, keyed by every kernel source: numba read its settings when it was
    imported, and beside the sources it would key each function by its own file only and
    load a caller's stale machine code after a kernel it calls changed."""
    code = ("import numba\nfrom kernels.cards.bits import popcount\nfrom kernels.config import "
            "default_cache_dir\nprint(popcount._cache._cache_path)\nprint(default_cache_dir())")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, cwd=PROBE.parent.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    used, wanted = done.stdout.split()
    assert Path(used).is_relative_to(wanted)


def test_two_checkouts_of_the_same_kernels_share_one_cache(tmp_path):
    """numba filed a kernel's cache by its source file's path, so a second checkout of the
    same revision compiled every kernel again (minutes); the cache is now found by the
    kernel sources' hash: the second checkout loads what the first compiled."""
    import shutil

    src = PROBE.parent.parent / "kernels"
    code = ("import numpy as np\nfrom numba.core import event\nfrom kernels.cards.bits import "
            "popcount\ncompiled = []\nclass Heard(event.Listener):\n"
            "    def on_start(self, ev): compiled.append(1)\n"
            "    def on_end(self, ev): pass\nevent.register('numba:compile', Heard())\n"
            "print(int(popcount(np.uint64(7))), len(compiled))\n")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    seen = []
    for name in ("one", "two"):
        shutil.copytree(src, tmp_path / name / "kernels",
                        ignore=shutil.ignore_patterns("__pycache__"))
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, cwd=tmp_path / name)
        assert done.returncode == 0, done.stderr[-2000:]
        seen.append(done.stdout.split())
    assert seen[0][0] == seen[1][0] == "3"
    assert int(seen[0][1]) > 0 and seen[1][1] == "0", seen  # compiled once, loaded once


def test_the_drivers_call_the_engine_by_numbas_own_convention():
    """The drivers take the engine as function pointers (``kernels.hand.pointers``: each driver
    compiled the whole engine into itself before); numba calls them by its own calling
    convention only when it knows the function's address, else through a C wrapper that cost
    5-10% of the hands a second. The hook that tells numba the address is in place, and the
    hands played through it are those played through the wrapper."""
    from numba.experimental import function_type

    from analyzer.game.variants import make_rules
    from analyzer.questions.simulate.play import play_hands
    from kernels.hand import pointers

    rules = make_rules("knock")
    for pointer in pointers.engine_of(rules.arrays):
        address = function_type._get_jit_address(pointer, pointer.signature())
        assert address == pointer.jit_address and address > 0
        assert pointer.__wrapper_address__() > 0 and pointer.__wrapper_address__() != address
    masks, records = play_hands(rules, 50, seed=3, strategy="points", play="heuristic")
    saved = function_type._get_jit_address
    try:
        function_type._get_jit_address = lambda func, sig: 0  # numba's C wrapper instead
        masks2, records2 = play_hands(rules, 50, seed=3, strategy="points", play="heuristic")
    finally:
        function_type._get_jit_address = saved
    assert (records == records2).all() and (masks == masks2).all()
