"""A first run's engine compile on two cores (``analyzer.compute.first_compile``): the first
process to need the engine on an empty cache starts one card-play helper, a warm cache or a
helper already at work starts none, and the lock keeps two processes from compiling the card
play at once (the demo's background simulation waits for a helper's)."""

import os
import threading
import time

import pytest

from analyzer.compute import first_compile as fc
from analyzer.game.variants import make_rules


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty kernel cache folder, a fresh process's state, and the engine and the helper
    stubbed (recording the helpers started)."""
    monkeypatch.setattr(fc, "cache_folder", lambda: tmp_path)
    monkeypatch.setattr(fc, "_started", False)
    monkeypatch.setattr(fc, "engine_of", lambda arrays: "engine")
    started = []
    monkeypatch.setattr(fc, "start_helper", lambda: started.append(1))
    monkeypatch.setattr(fc.os, "cpu_count", lambda: 2)
    monkeypatch.delenv(fc.HELPER_VARIABLE, raising=False)  # the suite turns it off
    return tmp_path, started


def test_an_empty_cache_starts_one_helper_for_the_process(cache):
    folder, started = cache
    rules = make_rules("knock")
    assert fc.engine_for(rules) == "engine" and fc.engine_for(rules) == "engine"
    assert started == [1]


def test_a_warm_cache_or_a_helper_at_work_starts_none(cache, monkeypatch):
    folder, started = cache
    (folder / "engine.play_hand-70.py311.nbi").write_bytes(b"")
    fc.engine_for(make_rules("knock"))
    (folder / "engine.play_hand-70.py311.nbi").unlink()
    monkeypatch.setattr(fc, "_started", False)
    (folder / fc.LOCK_NAME).write_text("1")
    fc.engine_for(make_rules("knock"))
    assert started == []


def test_one_core_or_the_variable_at_0_starts_none(cache, monkeypatch):
    folder, started = cache
    monkeypatch.setattr(fc.os, "cpu_count", lambda: 1)
    fc.engine_for(make_rules("knock"))
    monkeypatch.setattr(fc.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(fc, "_started", False)
    monkeypatch.setenv(fc.HELPER_VARIABLE, "0")
    fc.engine_for(make_rules("knock"))
    assert started == []


def test_the_lock_lets_one_process_compile_and_the_other_wait(cache, monkeypatch):
    """A helper finding the lock held does nothing; ``compile_card_play_once`` (the demo's
    simulation) waits until the holder is done and then compiles nothing; a lock left by a
    dead process (older than ``STALE_SECONDS``) is cleared."""
    folder, _ = cache
    compiled = []
    monkeypatch.setattr(fc, "compile_card_play", lambda arrays: compiled.append(1))
    monkeypatch.setattr(fc, "WAIT_STEP", 0.02)
    with fc._lock(wait=False) as held:
        assert held and (folder / fc.LOCK_NAME).exists()
        fc.helper_main()
        assert compiled == []
        done = []
        waiter = threading.Thread(
            target=lambda: (fc.compile_card_play_once(make_rules("knock")), done.append(1)))
        waiter.start()
        time.sleep(0.2)
        assert done == []  # still waiting for the holder
    waiter.join(5)
    assert done == [1] and compiled == [] and not (folder / fc.LOCK_NAME).exists()
    (folder / fc.LOCK_NAME).write_text("1")
    old = time.time() - fc.STALE_SECONDS - 1
    os.utime(folder / fc.LOCK_NAME, (old, old))
    fc.helper_main()
    assert compiled == [1] and not (folder / fc.LOCK_NAME).exists()
