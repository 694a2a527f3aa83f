"""Strategy tables: on many random deals, seat N's decision points as they come up in play (every
seat bidding by a strategy up to N's turn), each legal call of N played out to the end of the
hand on the same deal, aggregated with pandas into tidy tables.

A row of the tables is a call at a kind of decision point, the *context*: N's seat relative to
the dealer and, in the upcard auction, the round and the upcard's rank (round 1) or whether
the suit named is the turned-down one's colour, "next", or not, "cross" (round 2); in a ladder
auction the bid so far and who holds it. The values are N's net points (``net_points``; a
redeal is worth 0) and the chances that our side makes or is set and that they make.

Tables (``analyzer.questions.tables.tables`` writes them as Parquet and CSV):
  strength  call x context x point-count strength (``kernels.bidding.bidding``, in half points):
            deals, the chances, net points with 95% intervals (the analyzer strategy's table)
  features  call x context x trump count, bowers, trump ace and king, side aces, voids
  hands     every distinct hand class (hands equal up to renaming suits of the same colour
            role) at N's first call, with its best call
  swap      with a ghost hand: keeping the dealt hand (its best call) against swapping for the
            unseen ghost hand, by strength
  advice    from how many points each call beats passing at each kind of point
            (``analyzer.strategy.advice``)
  gains     each call's gain over passing by seat and strength (and by upcard rank:
            ``gains_by_upcard``), for the plots

Work runs in chunks of deal indices; each chunk's counts are saved under ``DIR/chunks`` as it
finishes, so an interrupted run resumes where it stopped and gives the same final tables.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from kernels.bidding import bidding as B
from kernels.cards.codes import ASK
from kernels.drivers.decisions import RW
from kernels.slots import X

from ..compute.effort import Effort
from ..compute.engine import decision_rows
from ..compute.runner import run_chunks
from ..game.features import FEATURES, SUIT_PERMUTATIONS, hand_classes, hand_features
from ..game.notation import format_hand
from ..game.outcomes import PROBABILITIES, outcome_arrays
from ..game.variants import GHOST, LADDER, Rules
from ..stats import mean_interval, wilson
from .advice import advice_min_deals, advice_table, gain_tables

CHUNK = 4096
COUNTS = ["deals", *PROBABILITIES, "points", "points_sq"]
SEAT_NAMES = ["dealer", "first", "second", "third"]
RANKS = "789TJQKA"
TRUMP_BUCKETS = ["0-1", "2", "3", "4+"]


def bid_rows(rules: Rules) -> dict[int, str]:
    """``option -> bids``: the bids of the ladder each bid option of the table values
    (``kernels.bidding.bidding.ladder_option``), e.g. ``"3"`` in the single deck, ``"3-6"`` in the
    double deck."""
    rows: dict[int, list[int]] = {}
    for code in rules.bid_ladder:
        if code < ASK:
            rows.setdefault(int(B.ladder_option(code, rules.hand_size)), []).append(code)
    return {o: str(c[0]) if len(c) == 1 else f"{c[0]}-{c[-1]}" for o, c in rows.items()}


def bid_levels(rules: Rules) -> list[str]:
    """The names of a ladder context's current bid (``kernels.bidding.bidding.ladder_level``): none,
    then each bid row's bids."""
    return ["none", *bid_rows(rules).values()]  # the rows in the ladder's order


def option_names(rules: Rules) -> dict:
    """``(point, option) -> name`` of every option of the tables."""
    if rules.auction == LADDER:
        bids = {option: f"bid {codes}" for option, codes in bid_rows(rules).items()}
        names = {B.L_PASS: "pass", **bids, B.L_ASK: f"{rules.hand_size}-ask", B.L_MOON: "moon",
                 B.L_SWAP: "swap"}
        return {(0, k): v for k, v in names.items()}
    return {(0, B.U_PASS): "pass", (0, B.U_ORDER): "order up", (0, B.U_ALONE): "order up alone",
            (1, B.U_PASS): "pass", (1, B.U_NAME): "name", (1, B.U_NAME_ALONE): "name alone"}


def context_keys(rules: Rules) -> list[str]:
    """The columns that describe a context."""
    if rules.auction == LADDER:
        return ["seat", "bid_before", "holder", "trumps"]
    return ["round", "seat", "upcard", "suit", "trumps"]


def _holders(rules: Rules, group: np.ndarray) -> np.ndarray:
    if rules.partnership:
        return np.array(["none", "partner", "opponent", "?"])[group]
    names = np.array(["none", "opponent", "none, swapped", "opponent, swapped"])
    return names[group]


def context_frame(rules: Rules, ctx: np.ndarray, upcards: np.ndarray) -> pd.DataFrame:
    """The context columns (``context_keys``) of rows with table context ``ctx`` (see
    ``kernels.bidding.bidding``)."""
    trumps = np.array(TRUMP_BUCKETS)[ctx % 4]
    base = ctx // 4
    if rules.auction == LADDER:
        return pd.DataFrame({"seat": np.array(SEAT_NAMES)[base // 16],
                             "bid_before": np.array(bid_levels(rules))[base % 4],
                             "holder": _holders(rules, (base // 4) % 4), "trumps": trumps})
    round2 = ctx >= 128
    place = np.where(round2, (base - 32) // 2, base // 8)
    return pd.DataFrame({"round": np.where(round2, 2, 1),
                         "seat": np.array(SEAT_NAMES)[place],
                         "upcard": np.array(list(RANKS))[upcards & 7],
                         "suit": np.where(round2, np.where(base % 2 == 0, "next", "cross"),
                                          "turned"),
                         "trumps": trumps})


def _row_frame(rules: Rules, dealt: np.ndarray, upcards: np.ndarray,
               rows: np.ndarray) -> pd.DataFrame:
    """One line per call played: its option, context, N's hand features for its trump, and
    the counts of how the hand ended."""
    deal, k = np.nonzero(rows[:, :, RW.OPTION] >= 0)
    r = rows[deal, k].astype(np.int64)
    hands = dealt[deal, 0]
    trumps = r[:, RW.TRUMP]
    by_trump = [hand_features(hands, t) for t in range(4)]
    pick = np.arange(len(r))
    feats = pd.DataFrame({c: np.stack([f[c].to_numpy() for f in by_trump])[trumps, pick]
                          for c in by_trump[0].columns})
    names = option_names(rules)
    frame = pd.concat([context_frame(rules, r[:, RW.CONTEXT], upcards[deal]), feats], axis=1)
    frame.insert(0, "option", [names[(p, o)] for p, o in zip(r[:, RW.POINT], r[:, RW.OPTION],
                                                             strict=True)])
    frame["context"] = r[:, RW.CONTEXT]
    frame["grid_option"] = r[:, RW.OPTION]
    frame["hand"], perm = hand_classes(hands)
    frame["trump"] = SUIT_PERMUTATIONS[perm, trumps]
    frame["first"] = r[:, RW.POINT] == 0
    o = outcome_arrays(rules, 0, r[:, RW.RESULT:RW.RESULT + X.LEN])
    frame["deals"] = 1
    for name in PROBABILITIES:
        frame[name] = o[name].astype(np.int64)
    frame["points"] = o["net"]
    frame["points_sq"] = o["net"] ** 2
    return frame


def count_keys(rules: Rules) -> dict:
    """The key columns of each kind of chunk frame (every other column is a count)."""
    ctx = context_keys(rules)
    return {"strength": ["option", *ctx, "context", "grid_option", "strength"],
            "features": ["option", *ctx, *FEATURES],
            "hands": ["hand", "trump", "option", *ctx]}


def chunk_frames(rules: Rules, dealt: np.ndarray, upcards: np.ndarray,
                 rows: np.ndarray) -> dict:
    """One chunk's counts, summed by the keys of each table."""
    frame = _row_frame(rules, dealt, upcards, rows)
    keys = count_keys(rules)
    out = {kind: frame.groupby(keys[kind], as_index=False)[COUNTS].sum()
           for kind in ("strength", "features")}
    first = frame[frame["first"]]
    out["hands"] = first.groupby(keys["hands"], as_index=False)[COUNTS].sum()
    return out


# ---------------------------------------------------------------------------- running


class ChunkFiles:
    """Where the chunk counts are kept: Parquet files under ``chunk_dir``, or (``chunk_dir``
    None) lists in ``parts``."""

    def __init__(self, chunk_dir: Path | None, parts: dict):
        self.chunk_dir, self.parts = chunk_dir, parts

    def files(self, first: int, count: int) -> dict:
        """The file of each kind of counts of one chunk."""
        return {k: self.chunk_dir / f"{first:010d}_{count}.{k}.parquet" for k in self.parts}

    def collect(self, first: int, count: int, frames: dict) -> None:
        """Keep one chunk's counts (on disk whole or not at all)."""
        if self.chunk_dir is None:
            for k, frame in frames.items():
                self.parts[k].append(frame)
            return
        for k, path in self.files(first, count).items():
            tmp = path.with_suffix(".tmp")
            frames[k].to_parquet(tmp, index=False)
            tmp.replace(path)

    def skip(self, first: int, count: int) -> bool:
        """Whether a chunk is already on disk."""
        return self.chunk_dir is not None and all(
            f.exists() for f in self.files(first, count).values())

    def frames(self, kind: str):
        """Every chunk's counts of one kind, in chunk order."""
        if self.chunk_dir is None:
            return iter(self.parts[kind])
        return (pd.read_parquet(f) for f in sorted(self.chunk_dir.glob(f"*.{kind}.parquet")))


def _prepare_chunk_dir(out_dir: Path | None, meta: dict) -> Path | None:
    """The run's chunk directory under ``out_dir``, or None. Chunks another run left there
    are removed, except those of the same run with another number of deals: deal i depends
    only on the seed and i, so each chunk both runs share is kept and not played again."""
    if out_dir is None:
        return None
    chunk_dir = Path(out_dir) / "chunks"
    chunk_dir.mkdir(parents=True, exist_ok=True)
    meta_path = chunk_dir / "run.json"
    if meta_path.exists():
        before = json.loads(meta_path.read_text())
        same = {k: v for k, v in before.items() if k != "deals"} == \
            {k: v for k, v in meta.items() if k != "deals"}
        for old in chunk_dir.glob("*.parquet"):
            if not (same and _chunk_of(old.name, meta["deals"], meta["chunk"])):
                old.unlink()
    meta_path.write_text(json.dumps(meta, sort_keys=True))
    return chunk_dir


def _chunk_of(name: str, deals: int, chunk: int) -> bool:
    """Whether the chunk file ``name`` (``FIRST_COUNT.kind.parquet``) is a chunk of a run of
    ``deals`` deals in chunks of ``chunk``."""
    first, _, count = name.split(".", 1)[0].partition("_")
    if not (first.isdigit() and count.isdigit()):
        return False
    first, count = int(first), int(count)
    return first % chunk == 0 and first < deals and count == min(chunk, deals - first)


def tabulate(rules: Rules, policies: np.ndarray, params: np.ndarray, effort: Effort,
             out_dir: Path | None = None, *, solve: bool = False,
             run: dict | None = None) -> dict:
    """The tables over ``effort.deals`` random deals (required) from ``effort.seed`` (the dealer
    rotating; ``effort.chunk`` deals a chunk), every seat bidding by ``policies``/``params``
    and playing its cards by them (``solve``: the tricks double dummy); returns the tables as
    DataFrames and ``meta`` (``run`` added to it). With ``out_dir``, each chunk's counts are
    saved under it and reused when the same run is started again; Ctrl-C raises
    KeyboardInterrupt after the chunk in progress is saved."""
    effort.check()
    deals, seed, chunk = effort.deals, effort.seed, effort.chunk
    meta = {"variant": rules.variant, "rules": rules.options, "deals": deals, "seed": seed,
            "chunk": chunk, "tables": 2, **(run or {})}
    files = ChunkFiles(_prepare_chunk_dir(out_dir, meta),
                       {"strength": [], "features": [], "hands": []})

    def work(first: int, count: int) -> dict:
        dealers = (first + np.arange(count)) % rules.players
        dealt, upcards, rows = decision_rows(rules, policies, params, seed, first, dealers,
                                             solve)
        return chunk_frames(rules, dealt, upcards, rows)

    totals = run_chunks(deals, work, chunk=chunk, progress=effort.progress, label="tables",
                        store=files)
    if totals.interrupted:
        raise KeyboardInterrupt
    keys = count_keys(rules)
    tables = summarise_tables(rules, {k: _fold(files.frames(k), keys[k]) for k in keys},
                              totals.done)
    tables["meta"] = {"variant": rules.variant, "rules": rules.options, "deals": totals.done,
                      "seed": seed, **(run or {})}
    return tables


def _fold(frames, keys: list, batch: int = 64) -> pd.DataFrame:
    """Sum the counts of many chunk frames by ``keys``, ``batch`` frames at a time, so memory
    holds one summed frame and a batch rather than every chunk (the counts are integers, or
    quarters in floats, so the sums are exact in any grouping)."""
    total = None
    buf = []

    def fold():
        frame = pd.concat(([total] if total is not None else []) + buf, ignore_index=True)
        counts = [c for c in frame.columns if c not in keys]
        return frame.groupby(keys, as_index=False)[counts].sum()

    for frame in frames:
        buf.append(frame)
        if len(buf) >= batch:
            total = fold()
            buf = []
    if buf or total is None:
        total = fold() if buf else pd.DataFrame(columns=keys + COUNTS)
    return total


def finish(frame: pd.DataFrame) -> pd.DataFrame:
    """Add each probability and the net points, with 95% intervals, to summed counts."""
    g = frame.copy()
    for name in PROBABILITIES:
        g[f"p_{name}"], g[f"p_{name}_low"], g[f"p_{name}_high"] = wilson(g[name], g["deals"])
    g["ev"], g["ev_low"], g["ev_high"] = mean_interval(g["points"], g["points_sq"], g["deals"])
    return g


def _best_hands(hands_all: pd.DataFrame, keys: list) -> pd.DataFrame:
    """Per hand class and context, its best call (and trump)."""
    # every call of a deal is on one row per trump it reads: the most of any call per trump
    deals = hands_all.groupby([*keys, "trump"], as_index=False)["deals"].max() \
        .groupby(keys, as_index=False)["deals"].sum()
    best = hands_all.sort_values(["ev", "option"], ascending=[False, True], kind="stable") \
        .groupby(keys, as_index=False).head(1).drop(columns=["deals"])
    hands = best.merge(deals, on=keys).rename(columns={"option": "best_option",
                                                       "trump": "best_trump"})
    hands["best_trump"] = hands["best_trump"].map(lambda t: "CDHS"[int(t)])
    hands["hand"] = [format_hand(int(m)) for m in hands["hand"]]
    return hands.sort_values(["deals", "ev", "hand"], ascending=[False, False, True],
                             kind="stable").reset_index(drop=True)


def summarise_tables(rules: Rules, parts: dict, deals: int) -> dict:
    """The final tables of a run of ``deals`` deals from the summed chunk counts (one frame
    per kind), with the advice drawn from them."""
    ctx = context_keys(rules)
    tables = {"strength": finish(parts["strength"]), "features": finish(parts["features"]),
              "hands": _best_hands(finish(parts["hands"]), ["hand", *ctx])}
    tables["advice"] = advice_table(rules.auction, tables["strength"], advice_min_deals(deals))
    tables.update(gain_tables(rules.auction, tables["strength"]))
    if rules.seat_w == GHOST:
        tables["swap"] = swap_table(tables["strength"])
    return tables


def swap_table(strength: pd.DataFrame) -> pd.DataFrame:
    """By strength, where swapping was possible: the net points of keeping the dealt hand
    (its best call) against swapping for the ghost hand, and the advice."""
    cells = ["context", "strength"]
    can = strength[strength["option"] == "swap"][cells]
    rows = strength.merge(can, on=cells)
    swap = rows[rows["option"] == "swap"].groupby("strength")[["deals", "points",
                                                              "points_sq"]].sum()
    keep = rows[rows["option"] != "swap"].sort_values("points", ascending=False) \
        .groupby(cells).head(1).groupby("strength")[["deals", "points", "points_sq"]].sum()
    out = pd.DataFrame({"deals": swap["deals"]})
    out["keep_ev"], out["keep_ev_low"], out["keep_ev_high"] = mean_interval(
        keep["points"], keep["points_sq"], keep["deals"])
    out["swap_ev"], out["swap_ev_low"], out["swap_ev_high"] = mean_interval(
        swap["points"], swap["points_sq"], swap["deals"])
    out["advice"] = np.where(out["keep_ev_high"] < out["swap_ev_low"], "swap",
                             np.where(out["keep_ev_low"] > out["swap_ev_high"], "keep",
                                      "close"))
    return out.reset_index()
