"""Shared test settings: the rule configurations that change play, and hypothesis profiles."""

import os

# Thread-identity tests compare runs on 1 and 2+ numba threads, so numba gets at least two
# even on a one-core machine (set before numba is first imported).
os.environ.setdefault("NUMBA_NUM_THREADS", str(max(2, os.cpu_count() or 1)))
# The tests read the shipped strategies where the rules ship them; for other house rules the
# analyzer strategy is built on first use, and the tests build a small one (fewer deals and
# rounds; its cache key differs, so it never stands in for the user's full one).
os.environ.setdefault("EUCHRE_STRATEGY_DEALS", "20000")
os.environ.setdefault("EUCHRE_STRATEGY_ROUNDS", "2")
# A first run's card-play helper process (analyzer.compute.first_compile) stays off: the
# suite's two workers already compile on both cores, and a helper would compete with them.
os.environ.setdefault("EUCHRE_COMPILE_HELPER", "0")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

settings.register_profile("default", max_examples=200, deadline=None)
settings.register_profile("slow", max_examples=2000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Every variant, and every option that changes how a hand is dealt or played.
PLAY_CONFIGS = [
    ("bid", {}),
    ("bid", {"joker": True}),
    ("bid", {"double_deck": True}),
    ("bid", {"stick_the_dealer": True, "ace_no_face": True, "failed_moon_points": 24}),
    ("ghost", {}),
    ("cutthroat", {}),
    ("cutthroat", {"deck32": True, "stick_the_dealer": True, "name_turned_down": True}),
    ("knock", {}),
    ("knock", {"joker": True}),
    ("knock", {"deck32": True, "stick_the_dealer": False}),
    ("knock", {"lone_defender": True, "lone_defender_points": 5}),
]


def config_id(cfg):
    variant, opts = cfg
    return variant + "".join(f"-{k}" for k in opts)


def thread_counts(available: int) -> list[int]:
    """The numba thread counts a thread-identity test compares: 1, 2 and all of them."""
    return sorted({1, min(2, available), available})


def pytest_collection_modifyitems(items):
    """The cold-cache test first (``make test-slow``): a long one (the solver compiled cold into a
    folder of its own, tests/test_kernels_cache.py) starts at once on one worker while the
    others work. The cluster's
    tests last: each of their worker processes loads the kernels, and compiles them itself
    when the suite has not yet (pytest-xdist hands out tests in this order)."""
    items.sort(key=lambda item: 0 if item.name == "test_cold_then_warm_cache" else
               2 if item.module.__name__.endswith("test_cluster") else 1)


@pytest.fixture(scope="module")
def small_tables():
    """Strategy tables of ghost and knock on 2,000 deals (the tables' and the report's tests
    read them)."""
    from analyzer.game.variants import make_rules
    from analyzer.questions.tables.tables import build_tables, table_meta

    out = {}
    for variant in ("ghost", "knock"):
        rules = make_rules(variant)
        t = build_tables(rules, 2000, seed=1)
        t["meta"] = table_meta(rules, t)
        out[variant] = t
    return out
