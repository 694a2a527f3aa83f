"""The ``analyzer`` strategy: at every call it takes the option with the best expected net
points for its hand's point count in that kind of decision point, read from its own strategy
tables (``analyzer.strategy.tables``: every call played out where it is made).

The strategy is a best response to itself: round 1 tables are built with every seat bidding by
the point count, round r tables with every seat bidding by the analyzer strategy of round r-1;
each round's tables are added to the ones before (fictitious play), and the rounds stop when
fewer than 1% of the table's cells (a context and a strength with two or more calls seen
often enough) change their best call. The tables are built with heuristic
card play (seconds a round) and cached under the user's cache directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from kernels.bidding import bidding as B
from kernels.hand import policies as P

from ..compute.effort import Effort
from ..game.variants import LADDER, Rules
from .defaults import BUILT_PLAY
from .named import policy_rows
from .tables import CHUNK, bid_rows, tabulate

TABLE_DEALS = 500_000  # deals a round (fewer leave the cells too thin to beat the point count)
DEALS_VARIABLE = "EUCHRE_STRATEGY_DEALS"  # overrides TABLE_DEALS (the test suite uses fewer)
ROUNDS_VARIABLE = "EUCHRE_STRATEGY_ROUNDS"  # overrides MAX_ROUNDS (likewise)
MAX_ROUNDS = 12
STABLE = 0.01
SHRINK = 100  # deals' worth of weight on the estimate pooled over a seat's contexts
MIN_DEALS = 20
VERSION = 5


# the strategies of the default rules and of the common house-rule sets, built by `euchre
# strategy build` and shipped (`make strategies`), so a first question needs no build (other
# house rules build on first use and are cached); ~30 KB each, the folder kept under 500 KB
BUILT_DIR = Path(__file__).parent / "built"
SHIPPED = (("bid", {}), ("ghost", {}), ("cutthroat", {}), ("knock", {}),
           ("knock", {"stick_the_dealer": False}), ("knock", {"lone_defender": True}),
           ("knock", {"deck32": True}), ("knock", {"joker": True}),
           ("bid", {"stick_the_dealer": True}), ("bid", {"double_deck": True}))


def cache_dir() -> Path:
    """Where built tables are kept (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "euchre-analyzer" / "strategy"


def read_cached(cached: Path, shipped: Path, key: str) -> np.ndarray | None:
    """Array ``key`` of the first of the ``cached`` and ``shipped`` ``.npz`` files that reads;
    a cached file that does not read is removed (it is built again); None when neither."""
    for found in (cached, shipped):
        if found.exists():
            try:
                with np.load(found) as data:
                    return data[key]
            except (OSError, ValueError, KeyError, EOFError):
                if found == cached:
                    cached.unlink(missing_ok=True)
    return None


def _pool(rules: Rules, context):
    """The group a context's estimate is shrunk towards: the same context but for its least
    telling part (a ladder call's trump count; round 1's upcard rank; round 2's suit)."""
    base, trumps = context // 4, context % 4
    if rules.auction == LADDER:
        return base
    return np.where(context >= 128, 1000 + ((base - 32) // 2) * 4 + trumps,
                    (base // 8) * 4 + trumps)


def grid_from(rules: Rules, strength: pd.DataFrame) -> np.ndarray:
    """``grid[option, context, bin]``: expected net points from the strength table, small
    cells shrunk towards the seat's estimate over its contexts (the strategy takes maxima of
    noisy estimates), unseen strengths filled from the nearest seen one, and calls never
    seen at -1e9 (never chosen)."""
    s = strength[strength["deals"] > 0].copy()
    s["pool"] = _pool(rules, s["context"])
    pooled = s.groupby(["grid_option", "pool", "strength"])[["deals", "points"]].transform("sum")
    s["ev"] = (s["points"] + SHRINK * pooled["points"] / pooled["deals"]) / \
        (s["deals"] + SHRINK)
    s = s[s["deals"] >= MIN_DEALS]
    grid = np.full((B.STRAT_OPTIONS, B.STRAT_CONTEXTS, B.STRAT_BINS), np.nan)
    bins = np.minimum(B.STRAT_BINS - 1, (s["strength"].to_numpy() * 2).astype(np.int64))
    grid[s["grid_option"].to_numpy(), s["context"].to_numpy(), bins] = s["ev"].to_numpy()
    return _filled(grid)


def _filled(grid: np.ndarray) -> np.ndarray:
    """Fill missing strengths of each (option, context) from the nearest known strength."""
    out = grid.copy()
    for o in range(out.shape[0]):
        for c in range(out.shape[1]):
            row = pd.Series(out[o, c])
            if row.notna().any():
                out[o, c] = row.ffill().bfill().to_numpy()
    return np.nan_to_num(out, nan=-1e9)


def best_calls(grid: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """The best option of each (context, bin) cell where two or more were ``seen`` (-1
    elsewhere)."""
    masked = np.where(seen, grid, -np.inf)
    best = np.argmax(masked, axis=0)
    return np.where(seen.sum(axis=0) >= 2, best, -1)


def _seen(strength: pd.DataFrame) -> np.ndarray:
    seen = np.zeros((B.STRAT_OPTIONS, B.STRAT_CONTEXTS, B.STRAT_BINS), dtype=bool)
    s = strength[strength["deals"] >= MIN_DEALS]
    bins = np.minimum(B.STRAT_BINS - 1, (s["strength"].to_numpy() * 2).astype(np.int64))
    seen[s["grid_option"].to_numpy(), s["context"].to_numpy(), bins] = True
    return seen


def analyzer_rows(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Policy rows of four seats bidding by the analyzer strategy of ``grid``, playing
    heuristic."""
    policies, params = policy_rows("points", BUILT_PLAY)
    policies[:, 0] = P.D_ANALYZER
    for seat in range(4):
        fill_params(params[seat], grid)
    return policies, params


def fill_params(params_row: np.ndarray, grid: np.ndarray) -> None:
    """Write the grid into one seat's parameter row."""
    params_row[B.PR.STRAT:B.PR.MODEL] = grid.reshape(-1)


@dataclass
class Built:
    """The analyzer strategy's grid, and how the rounds went: per round the share of the
    cells whose best call changed."""

    grid: np.ndarray
    changes: list

    @property
    def converged(self) -> bool:
        """Whether the last round changed the best call of fewer than 1% of the cells (a
        build that ran out of rounds first is used as it is, and says so)."""
        return bool(self.changes) and self.changes[-1] < STABLE

    def unconverged_note(self) -> str:
        """One line for a build that stopped before converging ("" otherwise)."""
        if self.converged or not self.changes:
            return ""
        return (f"the strategy stopped after {len(self.changes) + 1} rounds with "
                f"{self.changes[-1]:.1%} of cells still changing their best call (the rule is "
                f"under {STABLE:.0%}); it is used as it is")


def best_response(rules: Rules, deals: int, seed: int = 20261130, progress=None) -> Built:
    """Build the grid by rounds of best response (see the module docstring). Each round's
    table is averaged into the grid the next round plays by (fictitious play: a plain best
    response flips between near-equal calls from round to round)."""
    policies, params = policy_rows("points", BUILT_PLAY)
    total = None
    before = None
    changes = []
    for r in range(1, max_rounds() + 1):
        strength = tabulate(rules, policies, params, Effort(deals, seed=seed,
                                                            chunk=CHUNK))["strength"]
        keys = ["grid_option", "context", "strength"]
        counts = strength[keys + ["deals", "points"]]
        total = counts if total is None else pd.concat([total, counts]).groupby(
            keys, as_index=False)[["deals", "points"]].sum()
        grid = grid_from(rules, total)
        best = best_calls(grid, _seen(total))
        if before is not None:
            both = (best >= 0) & (before >= 0)
            changes.append(float((best[both] != before[both]).mean()) if both.any() else 0.0)
        if progress:
            progress(r, changes[-1] if changes else None)
        if changes and changes[-1] < STABLE:
            break
        before = best
        policies, params = analyzer_rows(grid)
    return Built(grid, changes)


# set while a shipped file's name is computed (see shipped_file); per thread
_AS_SHIPPED = ContextVar("as_shipped", default=False)


def _setting(variable: str, default: int) -> int:
    text = "" if _AS_SHIPPED.get() else os.environ.get(variable, "")
    return int(text) if text.isdigit() and int(text) > 0 else default


def shipped_file(name_of) -> Path:
    """The file the package ships under the name ``name_of()`` gives at the build's own
    settings: ``$EUCHRE_STRATEGY_DEALS`` and ``$EUCHRE_STRATEGY_ROUNDS`` size a strategy
    built here (the test suite's are small), never which shipped strategy is read."""
    token = _AS_SHIPPED.set(True)
    try:
        return BUILT_DIR / name_of()
    finally:
        _AS_SHIPPED.reset(token)


def table_deals() -> int:
    """Deals a round of the build: ``$EUCHRE_STRATEGY_DEALS`` or TABLE_DEALS."""
    return _setting(DEALS_VARIABLE, TABLE_DEALS)


def built_deals(default: int) -> int:
    """Deals a built file beside the table (a fitted model, a score lens) is counted on:
    ``default``, or the table's ``$EUCHRE_STRATEGY_DEALS`` when that is set (the test suite
    builds them all on fewer)."""
    return _setting(DEALS_VARIABLE, default)


def max_rounds() -> int:
    """The most rounds a build runs: ``$EUCHRE_STRATEGY_ROUNDS`` or MAX_ROUNDS."""
    return _setting(ROUNDS_VARIABLE, MAX_ROUNDS)


def cache_path(rules: Rules, deals: int | None = None) -> Path:
    """The cache file of the analyzer strategy of ``rules`` (built with ``deals`` a round)."""
    deals = deals or table_deals()
    meta = {"rules": rules.options, "variant": rules.variant, "deals": deals,
            "rounds": max_rounds(), "version": VERSION}
    shared = [bids for bids in bid_rows(rules).values() if "-" in bids]
    if shared:  # a table built before its rows held several bids is not read with them
        meta["bid_rows"] = shared
    key = json.dumps(meta, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return cache_dir() / f"{rules.variant}-{digest}.npz"


def _first_use(rules: Rules):
    """Progress on stderr while the strategy is built on first use (minutes): what is
    happening, how long a round takes, and that ``--others points`` answers at once."""
    print(f"building the analyzer strategy of these {rules.variant} house rules (first use; "
          f"cached after): up to {max_rounds()} rounds of {table_deals():,} deals, a minute or "
          f"more each; '--others points' answers at once", file=sys.stderr, flush=True)
    start = time.perf_counter()

    def show(r: int, change: float | None) -> None:
        tail = "" if change is None else f": {change:.1%} of cells changed their best call"
        each = (time.perf_counter() - start) / r
        print(f"  round {r} done{tail} ({each:.0f} s a round)", file=sys.stderr, flush=True)
    return show


def analyzer_table(rules: Rules, deals: int | None = None, progress=None) -> Built:
    """The analyzer strategy of ``rules`` (built by :func:`best_response` and cached; a build
    reports each round to ``progress(round, change)``, by default on stderr)."""
    path = cache_path(rules, deals)
    shipped = shipped_file(lambda: cache_path(rules, deals).name)
    for found in (path, shipped):
        if found.exists():
            try:
                with np.load(found) as data:
                    return Built(data["grid"], data["changes"].tolist())
            except (OSError, ValueError, KeyError, EOFError):
                if found == path:
                    path.unlink(missing_ok=True)  # a damaged cache file is rebuilt
    built = best_response(rules, deals or table_deals(),
                          progress=progress or _first_use(rules))
    if built.unconverged_note():
        print(f"note: {built.unconverged_note()}", file=sys.stderr, flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez(tmp, grid=built.grid, changes=np.array(built.changes))
    tmp.replace(path)
    return built


def ship(rules: Rules) -> Path:
    """Build (or find in the cache) the full analyzer strategy of ``rules`` and write it,
    compressed, where the package ships it; returns the path (see ``SHIPPED``)."""
    built = analyzer_table(rules)
    path = shipped_file(lambda: cache_path(rules).name)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp, grid=built.grid, changes=np.array(built.changes))
    tmp.replace(path)
    return path
