"""A first run's engine compile on two cores. On an empty kernel cache the first question
compiles the hand engine, minutes of one core, its card play (every card player and the
solver) last. The first process that needs the engine (:func:`engine_for`) starts a helper
process that compiles the card play alone (``kernels.hand.pointers.compile_card_play``) into
the cache while it compiles the rest; numba loads a compiled function from the cache when
it reaches it, so the first process finds the card play there (``make demo`` measured this:
97 s against 159 s). One helper at a time, whatever the processes (a lock file in the cache);
a process that asks for the card play while a helper compiles it waits for it (the demo's
background simulation), and the helper finishes, filling the cache, even when the question
that started it is interrupted."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

from kernels.cache_locator import cache_folder as kernels_cache_folder
from kernels.hand.pointers import Engine, compile_card_play, engine_of

from ..game.variants import Rules, make_rules

HELPER_VARIABLE = "EUCHRE_COMPILE_HELPER"  # "0": no helper (the test suite's workers compile)
LOCK_NAME = "card-play.lock"  # in the kernels' cache folder while a process compiles card play
STALE_SECONDS = 900  # a lock older than this was left by a process that died
WAIT_STEP = 0.5  # seconds between looks at a lock another process holds
_started = False  # this process started (or decided against) a helper already


def cache_folder() -> Path:
    """The folder numba caches these kernel sources' machine code in."""
    return Path(kernels_cache_folder())


def engine_cached() -> bool:
    """Whether the hand engine's machine code is in the cache (a first run's is not)."""
    return any(cache_folder().glob("engine.play_hand-*.nbi"))


def engine_for(rules: Rules) -> Engine:
    """The hand engine of ``rules`` for a driver (``kernels.hand.pointers.engine_of``); on an
    empty cache the first call of the process starts the card-play helper first."""
    global _started
    if not _started:
        _started = True
        if os.environ.get(HELPER_VARIABLE) != "0" and (os.cpu_count() or 1) >= 2 and \
                not engine_cached() and not _locked():
            start_helper()
    return engine_of(rules.arrays)


def start_helper() -> subprocess.Popen:
    """Start the helper process (:func:`helper_main`), detached: it outlives an interrupted
    question and its output goes nowhere."""
    return subprocess.Popen(
        [sys.executable, "-c", "from analyzer.compute.first_compile import helper_main; "
                               "helper_main()"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)


def helper_main() -> None:
    """The helper's work: compile the card play into the cache, unless another process holds
    the lock (then there is nothing to do)."""
    with _lock(wait=False) as held:
        if held:
            compile_card_play(make_rules("knock").arrays)  # every rule set's arrays type alike


def compile_card_play_once(rules: Rules) -> None:
    """Compile the card play of ``rules`` into the cache under the lock, or, while another
    process compiles it, wait until it has (``make demo``'s background simulation)."""
    with _lock(wait=True) as held:
        if held:
            compile_card_play(rules.arrays)


def _lock_path() -> Path:
    return cache_folder() / LOCK_NAME


def _locked() -> bool:
    """Whether a live process holds the lock (a stale one is removed)."""
    path = _lock_path()
    try:
        age = time.time() - path.stat().st_mtime
    except FileNotFoundError:
        return False
    if age > STALE_SECONDS:
        path.unlink(missing_ok=True)
        return False
    return True


@contextlib.contextmanager
def _lock(wait: bool):
    """Hold the card-play lock for the block (yields True), or yield False when another
    process holds it — at once, or with ``wait`` once that process has let it go."""
    path = _lock_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    _locked()  # clears a stale lock
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        while wait and _locked():
            time.sleep(WAIT_STEP)
        yield False
        return
    try:
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        yield True
    finally:
        path.unlink(missing_ok=True)
