"""The ``analyzer`` strategy's lookup table: expected net points by option and hand strength
(and, in knock and cutthroat, the seat relative to the dealer and the upcard's rank), taken
from the analyzer's own strategy tables (``analyzer.tables``) and laid out for the kernel's
bidder (``kernels.bidding.strat``). Tables are built once per rules and play method and kept
under the user's cache directory."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from kernels import bidding as B

from ..game.variants import LADDER, Rules
from .named import method_policies
from .tables import tabulate

TABLE_DEALS = {"ladder": 200_000, "upcard": 240_000}  # by auction kind
SEATS = {"dealer": 0, "first": 1, "second": 2, "third": 3}
RANKS = "789TJQKA"
SHRINK = 200  # deals' worth of weight on the pooled estimate
BID_OPTIONS = {"bid 3": B.O_BID3, "bid 4": B.O_BID4, "bid 5": B.O_BID5, "moon": B.O_MOON}


def cache_dir() -> Path:
    """Where built tables are kept (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "euchre-analyzer" / "strategy"


def _fill(values: np.ndarray) -> np.ndarray:
    """Fill missing strengths of each (option, context) from the nearest known strength."""
    out = values.copy()
    for o in range(out.shape[0]):
        for c in range(out.shape[1]):
            row = pd.Series(out[o, c])
            if row.notna().any():
                out[o, c] = row.ffill().bfill().to_numpy()
    return np.nan_to_num(out, nan=-1e9)


def _put(grid: np.ndarray, option: int, context: int, strength: pd.Series, ev: pd.Series):
    for s, v in zip(strength, ev, strict=True):
        grid[option, context, min(B.STRAT_BINS - 1, int(s * 2))] = v


def table_from(rules: Rules, tables: dict, min_deals: int = 20) -> tuple[np.ndarray, float]:
    """``(grid[options, contexts, bins], swap value)`` from strategy tables."""
    grid = np.full((B.STRAT_OPTIONS, B.STRAT_CONTEXTS, B.STRAT_BINS), np.nan)
    s = tables["strength"]
    s = s[s["deals"] >= min_deals]
    swap_value = 0.0
    if rules.auction == LADDER:
        names = dict(BID_OPTIONS)
        names[f"{rules.hand_size}-ask"] = B.O_ASK
        for name, o in names.items():
            rows = s[s["option"] == name]
            _put(grid, o, 0, rows["strength"], rows["ev"])
        if "swap" in tables:
            sw = tables["swap"]
            _put(grid, B.O_KEEP, 0, sw["strength"], sw["keep_ev"])
            swap_value = float(sw["swap_ev"].iloc[0])
        return _fill(grid), swap_value
    full = tables["strength"]
    for name, o in (("order up", B.O_ORDER), ("order up alone", B.O_ALONE),
                    ("pass: dealer picks up", B.O_PASS)):
        rows = full[full["option"] == name]
        pooled = rows.groupby(["seat", "strength"])[["deals", "points"]].sum()
        for (seat, rank), grp in rows.groupby(["seat", "upcard"]):
            # Shrink each (seat, upcard) estimate towards the seat's estimate over every
            # upcard: small cells are noisy, and the bidder takes maxima of them.
            prior = pooled.loc[seat].reindex(grp["strength"])
            ev = (grp["points"].to_numpy() + SHRINK * (prior["points"] / prior["deals"])
                  .to_numpy()) / (grp["deals"].to_numpy() + SHRINK)
            keep = (grp["deals"] >= min_deals).to_numpy()
            _put(grid, o, SEATS[seat] * 8 + RANKS.index(rank), grp["strength"][keep],
                 pd.Series(ev[keep]))
    for name, o in (("order up", B.O_NAME), ("order up alone", B.O_NAME_ALONE)):
        # Round 2 has no picked-up card; pooling every seat evens out whose side took it.
        pooled = full[full["option"] == name].groupby("strength", as_index=False)[
            ["deals", "points"]].sum()
        pooled = pooled[pooled["deals"] >= min_deals]
        for seat in SEATS.values():
            _put(grid, o, seat * 8, pooled["strength"], pooled["points"] / pooled["deals"])
    grid = _fill(grid)
    grid[B.O_PASS][grid[B.O_PASS] < -1e8] = 0.0  # the dealer never passes to itself
    return grid, swap_value


def analyzer_table(rules: Rules, method: str = "heuristic",
                   deals: int | None = None) -> tuple[np.ndarray, float]:
    """The analyzer bidder's grid and swap value for ``rules`` when hands are played by
    ``method`` (built with ``analyzer.tables`` and cached)."""
    deals = deals or TABLE_DEALS[rules.auction]
    key = json.dumps({"rules": rules.options, "variant": rules.variant, "method": method,
                      "deals": deals, "version": 2}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    path = cache_dir() / f"{rules.variant}-{method}-{digest}.npz"
    if path.exists():
        data = np.load(path)
        return data["grid"], float(data["swap"])
    tables = tabulate(rules, deals, *method_policies(method), seed=20261130)
    grid, swap = table_from(rules, tables)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, grid=grid, swap=swap)
    tmp.replace(path)
    return grid, swap


def fill_params(params_row: np.ndarray, grid: np.ndarray, swap: float) -> None:
    """Write the grid and swap value into one seat's parameter row."""
    params_row[B.STRAT_BASE:] = grid.reshape(-1)
    params_row[B.PR.SWAP_EV] = swap
