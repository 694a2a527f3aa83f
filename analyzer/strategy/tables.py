"""Strategy tables: many random deals, every option played on each, aggregated with pandas
into tidy tables keyed by hand features.

The deals are seen from seat N. In a ladder auction N is the bidder (and leads) and every
trump suit is tried on every deal; in the upcard auction the upcard's suit is trump (the
upcard's rank and the dealer's seat cycle through every value, the suit is fixed: suits are
interchangeable) and N orders up, goes alone, or passes to the dealer.

Tables (pandas DataFrames; ``analyzer.questions.tables`` writes them as Parquet and CSV):
  features  option x trump count, bowers, trump ace and king, side aces, voids (and the seat
            relative to the dealer and the upcard's rank in the upcard auction): deals,
            P(make), P(march), P(euchred), net points, with 95% intervals
  strength  option x point-count strength (``kernels.bidding``, in half points)
  hands     every distinct hand class (hands equal up to renaming suits of the same colour
            role) with its best option
  swap      with a ghost hand: keeping the dealt hand against swapping for the unseen ghost
            hand, by strength (the ghost hand valued as a random hand)

Work runs in chunks of deal indices; each chunk's counts are saved under ``DIR/chunks`` as it
finishes, so an interrupted run resumes where it stopped and gives the same final tables.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from kernels import codes as K
from kernels import layout as L
from kernels import query as Q

from ..compute.query import DealQuery, run_query
from ..compute.runner import run_chunks
from ..errors import UserError
from ..game.features import FEATURES, SUIT_PERMUTATIONS, hand_classes, hand_features
from ..game.notation import format_hand
from ..game.scoring import net_points
from ..game.seating import default_leader, seating, tricks_needed
from ..game.variants import DUMMY, GHOST, LADDER, PLAYER, Rules
from ..stats import mean_interval, wilson

CHUNK = 4096
UPCARD_FEATURES = ["seat", "upcard"]
COUNTS = ["deals", "made", "march", "euchred", "points", "points_sq"]
SEAT_NAMES = {0: "dealer", 1: "first", 2: "second", 3: "third"}
HEARTS = 2


@dataclass
class Option:
    """One option of a table: the scenario that plays it, its trump, name, contract code,
    and whether N is on the declaring side."""

    scenario: int
    trump: int
    name: str
    contract: int
    mine: bool


@dataclass
class TableSpec:
    """One family of scenarios: the upcard and dealer it is dealt with (upcard auction), the
    query and its options."""

    query: DealQuery
    options: list
    upcard: int = -1
    seat: int = -1  # N's seat relative to the dealer


def _unseen(rules: Rules, exclude: int = 0) -> list[int]:
    deck = int(L.deck_mask(rules.deck))
    return [c for c in range(64) if (deck >> c) & 1 and not (exclude >> c) & 1]


def _fix_hand(q: DealQuery, hand: int) -> None:
    """Give N the cards of ``hand`` in every deal of the query."""
    if hand & ~int(sum(1 << int(c) for c in q.cards)):
        raise UserError("the fixed hand holds the upcard")
    group = q.group_seat.tolist().index(0)
    for c in range(64):
        if (hand >> c) & 1:
            q.place(c, group)


def table_specs(rules: Rules, hand: int | None = None) -> list[TableSpec]:
    """The scenario families of a variant's tables (see the module docstring); with ``hand``
    (a natural mask) N holds those cards in every deal."""
    specs = _ladder_specs(rules) if rules.auction == LADDER else _upcard_specs(rules)
    if hand is not None:
        for spec in specs:
            _fix_hand(spec.query, hand)
    return specs


def _ladder_specs(rules: Rules) -> list[TableSpec]:
    """N bids every rung of the ladder in every trump suit, on the same deals."""
    n = rules.hand_size
    cards = _unseen(rules)
    sizes, group_seat = [n] * 4, [0, 1, 2, 3 if rules.seat_w == PLAYER else -1]
    if len(cards) > 4 * n:
        sizes.append(len(cards) - 4 * n)
        group_seat.append(-1)
    q = DealQuery(rules, np.zeros(4, dtype=np.uint64), -1, np.array(cards, dtype=np.int64),
                  np.array(sizes, dtype=np.int64), np.array(group_seat, dtype=np.int64))
    options = []
    for t in range(4):
        team = q.add(t, 0, *seating(rules, 0), 0)
        options += [Option(team, t, rules.bid_name(k), k, True) for k in rules.bid_ladder
                    if k < K.ASK]
        lone = seating(rules, 0, "moon") if rules.partnership else seating(rules, 0)
        if rules.has_ask:
            options.append(Option(q.add(t, 0, *lone, 0, Q.SK_ASK, -1), t,
                                  rules.bid_name(K.ASK), K.ASK, True))
        moon = q.add(t, 0, *lone, 0) if rules.partnership else team
        options.append(Option(moon, t, "moon", K.MOON, True))
    return [TableSpec(q, options)]


def _upcard_specs(rules: Rules) -> list[TableSpec]:
    """Hearts turned up, every rank, N in every seat relative to the dealer: N orders up,
    orders up alone, or passes and the dealer picks up."""
    n = rules.hand_size
    dummy = Q.SK_DUMMY if rules.seat_w == DUMMY else 0
    specs = []
    ranks = [r for r in range(8) if int(L.deck_mask(rules.deck)) >> (HEARTS * 8 + r) & 1]
    for rank in ranks:
        up = HEARTS * 8 + rank
        for dealer in range(rules.players):
            cards = _unseen(rules, 1 << up)
            q = DealQuery(rules, np.zeros(4, dtype=np.uint64), up,
                          np.array(cards, dtype=np.int64),
                          np.array([n] * 4 + [len(cards) - 4 * n], dtype=np.int64),
                          np.array([0, 1, 2, 3, -1], dtype=np.int64))
            specs.append(TableSpec(q, _upcard_options(rules, q, up, dealer, dummy), up,
                                   (0 - dealer) % rules.players))
    return specs


def _upcard_options(rules: Rules, q: DealQuery, up: int, dealer: int, dummy: int) -> list:
    """The scenarios of one (upcard, dealer) family."""
    active, decl = seating(rules, 0)
    lead = default_leader(rules, 0, active, dealer, False, None)
    options = [Option(q.add(HEARTS, 0, active, decl, lead, Q.SK_PICKUP | dummy, -1, dealer),
                      HEARTS, "order up", 0, True)]
    alone, alone_decl = seating(rules, 0, "alone")
    alone_lead = default_leader(rules, 0, alone, dealer, True, None)
    options.append(Option(q.add(HEARTS, 0, alone, alone_decl, alone_lead, Q.SK_PICKUP, -1,
                                dealer), HEARTS, "order up alone", K.CT_MAKER_ALONE, True))
    if dealer != 0:
        d_active, d_decl = seating(rules, dealer)
        sc = q.add(HEARTS, dealer, d_active, d_decl, lead, Q.SK_PICKUP | dummy, -1, dealer)
        options.append(Option(sc, HEARTS, "pass: dealer picks up", 0, bool(d_decl & 1)))
    return options


# ---------------------------------------------------------------------------- counting


def _option_rows(rules: Rules, option: Option, feats: pd.DataFrame,
                 tricks: np.ndarray) -> pd.DataFrame:
    """The per-deal counts of one option on the chunk's deals."""
    n = rules.hand_size
    pts = net_points(rules, option.contract, tricks, option.mine)
    rows = feats.copy()
    rows["option"] = option.name
    rows["deals"] = 1
    rows["made"] = (tricks >= tricks_needed(rules, option.contract)).astype(np.int64)
    rows["march"] = (tricks == n).astype(np.int64)
    rows["euchred"] = (tricks < rules.make).astype(np.int64)
    rows["points"] = pts
    rows["points_sq"] = pts * pts
    return rows


def _chunk_rows(rules: Rules, spec: TableSpec, outcomes: np.ndarray, dealt: np.ndarray,
                ok: np.ndarray) -> dict:
    """One chunk's counts: feature rows, strength rows, hand-class rows (and, with a ghost
    hand, the distribution of each hand's best strength, for the swap table)."""
    hands = dealt[ok, 0]
    fixed = spec.seat >= 0
    by_trump = {}
    frames = []
    class_masks, perm_index = hand_classes(hands, HEARTS if fixed else None)
    for opt in spec.options:
        if opt.trump not in by_trump:
            by_trump[opt.trump] = hand_features(hands, opt.trump)
        rows = _option_rows(rules, opt, by_trump[opt.trump],
                            outcomes[ok, opt.scenario].astype(np.int64))
        rows["hand"] = class_masks
        rows["trump"] = SUIT_PERMUTATIONS[perm_index, opt.trump]
        if fixed:
            rows["seat"] = SEAT_NAMES[spec.seat]
            rows["upcard"] = "789TJQKA"[spec.upcard & 7]
        frames.append(rows)
    rows = pd.concat(frames, ignore_index=True)
    keys = count_keys(rules)
    out = {kind: rows.groupby(keys[kind], as_index=False)[cols].sum()
           for kind, cols in (("features", COUNTS), ("strength", COUNTS),
                              ("hands", ["deals", "made", "points", "points_sq"]))}
    if rules.seat_w == GHOST:
        best = np.max(np.stack([f["strength"].to_numpy() for f in by_trump.values()]), axis=0)
        out["best_strength"] = pd.DataFrame({"strength": best, "deals": 1}).groupby(
            "strength", as_index=False)["deals"].sum()
    return out


def count_keys(rules: Rules) -> dict:
    """The key columns of each kind of chunk frame (every other column is a count)."""
    extra = UPCARD_FEATURES if rules.has_upcard else []
    return {"features": ["option"] + extra + FEATURES,
            "strength": ["option"] + extra + ["strength"],
            "hands": ["hand", "trump", "option"] + extra, "best_strength": ["strength"]}


# ---------------------------------------------------------------------------- running


class ChunkFiles:
    """Where one scenario family's chunk counts are kept: Parquet files under ``chunk_dir``,
    or (``chunk_dir`` None) lists in ``parts``."""

    def __init__(self, chunk_dir: Path | None, index: int, parts: dict):
        self.chunk_dir, self.index, self.parts = chunk_dir, index, parts

    def files(self, first: int, count: int) -> dict:
        """The file of each kind of counts of one chunk."""
        stem = f"f{self.index:03d}_{first:010d}_{count}"
        return {k: self.chunk_dir / f"{stem}.{k}.parquet" for k in self.parts}

    def collect(self, first: int, count: int, rows: dict) -> None:
        """Keep one chunk's counts (on disk whole or not at all)."""
        if self.chunk_dir is None:
            for k, frame in rows.items():
                self.parts[k].append(frame)
            return
        for k, path in self.files(first, count).items():
            tmp = path.with_suffix(".tmp")
            rows[k].to_parquet(tmp, index=False)
            tmp.replace(path)

    def skip(self, first: int, count: int) -> bool:
        """Whether a chunk is already on disk."""
        return self.chunk_dir is not None and all(
            f.exists() for f in self.files(first, count).values())


def _prepare_chunk_dir(out_dir: Path | None, meta: dict) -> Path | None:
    """The run's chunk directory under ``out_dir`` (emptied when it holds another run's
    chunks), or None."""
    if out_dir is None:
        return None
    chunk_dir = Path(out_dir) / "chunks"
    chunk_dir.mkdir(parents=True, exist_ok=True)
    meta_path = chunk_dir / "run.json"
    if meta_path.exists() and json.loads(meta_path.read_text()) != meta:
        for old in chunk_dir.glob("*.parquet"):
            old.unlink()  # a different run: start afresh
    meta_path.write_text(json.dumps(meta, sort_keys=True))
    return chunk_dir


def tabulate(rules: Rules, deals: int, policies: np.ndarray, params: np.ndarray,
             out_dir: Path | None = None, *, seed: int = 0, run: dict | None = None,
             progress: bool = False, chunk: int = CHUNK, hand: int | None = None) -> dict:
    """Deal ``deals`` random deals (split evenly over the upcard ranks and dealer seats in the
    upcard auction), play every option on each with ``policies``/``params`` (play policy 0:
    double dummy) and aggregate; returns the tables as DataFrames (see the module docstring)
    and ``meta`` (``run`` added to it). With ``out_dir``, each chunk's counts are saved under
    it and reused when the same run is started again; Ctrl-C raises KeyboardInterrupt after
    the chunk in progress is saved. ``hand`` (a natural mask) fixes N's cards."""
    if deals < 1:
        raise UserError("--deals must be at least 1")
    specs = table_specs(rules, hand)
    per_family = max(1, math.ceil(deals / len(specs)))
    meta = {"variant": rules.variant, "rules": rules.options, "deals": deals, "seed": seed,
            "chunk": chunk, **(run or {})}
    chunk_dir = _prepare_chunk_dir(out_dir, meta)
    parts: dict[str, list] = {"features": [], "strength": [], "hands": []}
    if rules.seat_w == GHOST:
        parts["best_strength"] = []
    done = 0
    for index, spec in enumerate(specs):
        q = spec.query
        q.policies, q.params = policies, params
        stream = seed * 1000 + index  # each family has deals of its own

        def work(first: int, count: int, q=q, spec=spec, stream=stream) -> dict:
            c = run_query(q, stream, first, count, max_tries=1)
            return _chunk_rows(rules, spec, c.outcomes, c.dealt, c.ok)

        files = ChunkFiles(chunk_dir, index, parts)
        totals = run_chunks(per_family, work, chunk=chunk, progress=progress,
                            label=f"part {index + 1}/{len(specs)}", collect=files.collect,
                            skip=files.skip)
        done += totals.done
        if totals.interrupted:
            raise KeyboardInterrupt
    tables = summarise_tables(rules, _folded(rules, parts, chunk_dir))
    tables["meta"] = {"variant": rules.variant, "rules": rules.options, "deals": done,
                      "seed": seed, **(run or {})}
    return tables


def _folded(rules: Rules, parts: dict, chunk_dir: Path | None) -> dict:
    """Every kind of chunk counts summed into one frame."""
    keys = count_keys(rules)
    out = {}
    for k in parts:
        frames = (pd.read_parquet(f) for f in sorted(chunk_dir.glob(f"*.{k}.parquet"))) \
            if chunk_dir is not None else parts[k]
        out[k] = _fold(frames, keys[k])
    return out


def _finish(frame: pd.DataFrame, keys: list) -> pd.DataFrame:
    """Sum the counts over ``keys`` and add probabilities and intervals."""
    cols = [c for c in COUNTS if c in frame.columns]
    g = frame.groupby(keys, as_index=False)[cols].sum()
    for col in ("made", "march", "euchred"):
        if col in g:
            g[f"p_{col}"], g[f"p_{col}_low"], g[f"p_{col}_high"] = wilson(g[col], g["deals"])
    g["ev"], g["ev_low"], g["ev_high"] = mean_interval(g["points"], g["points_sq"], g["deals"])
    return g


def _fold(frames, keys: list, batch: int = 64) -> pd.DataFrame:
    """Sum the counts of many chunk frames by ``keys``, ``batch`` frames at a time, so memory
    holds one summed frame and a batch rather than every chunk (the counts are integers, or
    halves in floats, so the sums are exact in any grouping)."""
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
        total = fold() if buf else pd.DataFrame(columns=keys)
    return total


def _best_hands(hands_all: pd.DataFrame, keys: list) -> pd.DataFrame:
    """Per hand class, its best option and trump."""
    deals = hands_all.groupby(keys, as_index=False)["deals"].max()
    best = hands_all.sort_values(["ev", "option"], ascending=[False, True], kind="stable") \
        .groupby(keys, as_index=False).head(1).drop(columns=["deals"])
    hands = best.merge(deals, on=keys).rename(columns={"option": "best_option",
                                                       "trump": "best_trump"})
    hands["best_trump"] = hands["best_trump"].map(lambda t: "CDHS"[int(t)])
    hands["hand"] = [format_hand(int(m)) for m in hands["hand"]]
    return hands.sort_values(["deals", "ev", "hand"], ascending=[False, False, True],
                             kind="stable").reset_index(drop=True)


def summarise_tables(rules: Rules, parts: dict) -> dict:
    """The final tables from the summed chunk counts (one frame per kind)."""
    keys = count_keys(rules)
    extra = keys["features"][1:-len(FEATURES)]
    tables = {"features": _finish(parts["features"], keys["features"]),
              "strength": _finish(parts["strength"], keys["strength"]),
              "hands": _best_hands(_finish(parts["hands"], keys["hands"]), ["hand"] + extra)}
    if rules.seat_w == GHOST:
        dist = parts["best_strength"].groupby("strength", as_index=False)["deals"].sum()
        tables["swap"] = swap_table(tables["strength"], dist)
    return tables


def swap_table(strength: pd.DataFrame, best_strength: pd.DataFrame) -> pd.DataFrame:
    """By the dealt hand's strength (its best suit's points): the expected net points of
    keeping it (the best bid at that strength) against swapping for a hand of unknown cards
    (the best bid's value averaged over how strong a random hand's best suit is): the ghost
    hand is such a random hand."""
    best = strength.sort_values("ev", ascending=False, kind="stable").groupby(
        "strength", as_index=False).head(1)
    value = dict(zip(best["strength"], best["ev"], strict=True))
    dist = best_strength[best_strength["strength"].isin(value)]
    weights = dist["deals"] / dist["deals"].sum()
    swap_value = float(sum(w * value[s] for s, w in zip(dist["strength"], weights,
                                                        strict=True)))
    out = best[["strength", "option", "deals", "ev", "ev_low", "ev_high"]].rename(
        columns={"option": "best_bid", "ev": "keep_ev", "ev_low": "keep_ev_low",
                 "ev_high": "keep_ev_high"}).sort_values("strength").reset_index(drop=True)
    out["swap_ev"] = swap_value
    out["advice"] = np.where(out["keep_ev_high"] < swap_value, "swap",
                             np.where(out["keep_ev_low"] > swap_value, "keep", "close"))
    return out
