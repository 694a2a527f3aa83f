"""Strategy tables: many random deals, every option played on each, aggregated with pandas
into tidy tables keyed by hand features.

The deals are seen from seat N. In bid and ghost N is the bidder (and leads) and every trump
suit is tried on every deal; in knock and cutthroat the upcard's suit is trump (the upcard's
rank and the dealer's seat cycle through every value, the suit is fixed: suits are
interchangeable) and N orders up, goes alone, or passes to the dealer.

Tables (pandas DataFrames, written as Parquet and CSV by ``euchre table``):
  features  option x trump count, bowers, trump ace and king, side aces, voids (and the seat
            relative to the dealer and the upcard's rank in knock and cutthroat): deals,
            P(make), P(march), P(euchred), net points, with 95% intervals
  strength  option x point-count strength (``kernels.bidding``, in half points)
  hands     every distinct hand class (hands equal up to renaming suits of the same colour
            role) with its best option
  swap      ghost: keeping the dealt hand against swapping for the unseen ghost hand, by
            strength (the ghost hand valued as a random hand)

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

from kernels import layout as L
from kernels import query as Q
from kernels import rules as K
from kernels.bidding import N_PARAMS, POINTS, SIDES, TRUMPS
from kernels.threads import num_threads

from .errors import UserError
from .odds import Query, _next_active
from .runner import run_chunks
from .solve import partner, table_bits
from .stats import Z95
from .strategies import DEFAULT_WORLDS, seat_policies
from .variants import Rules

CHUNK = 4096
FEATURES = ["n_trumps", "right", "left", "ace", "king", "side_aces", "voids"]
UPCARD_FEATURES = ["seat", "upcard"]
COUNTS = ["deals", "made", "march", "euchred", "points", "points_sq"]
SEAT_NAMES = {0: "dealer", 1: "first", 2: "second", 3: "third"}


@dataclass
class TableSpec:
    """One family of scenarios: the upcard and dealer it is dealt with (knock, cutthroat), the
    query, and the option of each scenario row."""

    query: Query
    options: list  # (scenario, option name, contract code, tricks needed, asker declares)
    upcard: int = -1
    seat: int = -1  # N's seat relative to the dealer


def _all_unseen(rules: Rules, exclude: int = 0):
    deck = int(L.deck_mask(rules.deck))
    return [c for c in range(64) if (deck >> c) & 1 and not (exclude >> c) & 1]


def _fix_hand(q: Query, hand: int) -> None:
    """Give N the cards of ``hand`` in every deal of the query (N's group shrinks to nothing)."""
    n = bin(hand).count("1")
    cards = [c for c in q.cards.tolist() if not (hand >> c) & 1]
    if len(cards) != len(q.cards) - n:
        raise UserError("the fixed hand holds the upcard")
    q.cards = np.array(cards, dtype=np.int64)
    g = q.group_seat.tolist().index(0)
    q.sizes = q.sizes.copy()
    q.sizes[g] -= n
    q.known = q.known.copy()
    q.known[0] = np.uint64(hand)


def table_specs(rules: Rules, hand: int | None = None) -> list[TableSpec]:
    """The scenario families of a variant's tables (see the module docstring); with ``hand``
    (a natural mask) N holds those cards in every deal."""
    specs = _table_specs(rules)
    if hand is not None:
        for spec in specs:
            _fix_hand(spec.query, hand)
    return specs


def _table_specs(rules: Rules) -> list[TableSpec]:
    n = rules.hand_size
    specs = []
    if rules.variant in ("bid", "ghost"):
        cards = _all_unseen(rules)
        seats = [0, 1, 2, 3]
        sizes = [n] * 4
        group_seat = [0, 1, 2, 3 if rules.variant == "bid" else -1]
        if len(cards) > 4 * n:
            sizes.append(len(cards) - 4 * n)
            group_seat.append(-1)
        q = Query(rules, 0, None, 0, -1, np.zeros(4, dtype=np.uint64),
                  np.array(cards, dtype=np.int64), np.array(sizes, dtype=np.int64),
                  np.array(group_seat, dtype=np.int64))
        options = []
        players = 15 if rules.variant == "bid" else 7
        for t in range(4):
            if rules.variant == "bid":
                team = q.add(t, 0, 15, 1 | (1 << partner(0)), 0)
                for k in rules.bid_ladder:
                    if k < K.ASK:
                        options.append((team, t, f"bid {k}", k, k, True))
                alone = 15 & ~(1 << partner(0))
                sc = q.add(t, 0, alone, 1, 0, Q.K_ASK, -1)
                options.append((sc, t, f"{n}-ask", K.ASK, n, True))
                sc = q.add(t, 0, alone, 1, 0)
                options.append((sc, t, "moon", K.MOON, n, True))
            else:
                sc = q.add(t, 0, players, 1, 0)
                for k in (3, 4, 5):
                    options.append((sc, t, f"bid {k}", k, k, True))
                options.append((sc, t, "moon", K.MOON, n, True))
        del seats
        specs.append(TableSpec(q, options))
        return specs
    # knock and cutthroat: hearts up, every rank, N in every seat relative to the dealer
    players = rules.players
    hearts = 2
    ranks = [r for r in range(8) if int(L.deck_mask(rules.deck)) >> (hearts * 8 + r) & 1]
    cut = rules.variant == "cutthroat"
    for rank in ranks:
        up = hearts * 8 + rank
        for dealer in range(players):
            seat_rel = (0 - dealer) % players  # N's seat counted clockwise from the dealer
            cards = _all_unseen(rules, 1 << up)
            group_seat = [0, 1, 2, 3]
            sizes = [n] * 4
            kitty = len(cards) - 4 * n
            sizes.append(kitty)
            group_seat.append(-1)
            q = Query(rules, 0, dealer, 0, up, np.zeros(4, dtype=np.uint64),
                      np.array(cards, dtype=np.int64), np.array(sizes, dtype=np.int64),
                      np.array(group_seat, dtype=np.int64))
            all_seats = (1 << players) - 1
            lead = _next_active(dealer, all_seats)
            options = []
            team = all_seats if cut else all_seats
            decl = 1 if cut else 1 | (1 << partner(0))
            dummy = Q.K_DUMMY if cut else 0
            sc = q.add(hearts, 0, team, decl, lead, Q.K_PICKUP | dummy, -1, dealer)
            options.append((sc, hearts, "order up", 0, 3, True))
            alone_active = all_seats if cut else all_seats & ~(1 << partner(0))
            alone_lead = _next_active(0, alone_active) if cut else _next_active(dealer,
                                                                                 alone_active)
            sc = q.add(hearts, 0, alone_active, 1, alone_lead, Q.K_PICKUP, -1, dealer)
            options.append((sc, hearts, "order up alone", K.CT_MAKER_ALONE, 3, True))
            if dealer != 0:
                d_decl = (1 << dealer) if cut else (1 << dealer) | (1 << partner(dealer))
                sc = q.add(hearts, dealer, all_seats, d_decl, lead, Q.K_PICKUP | dummy, -1,
                           dealer)
                options.append((sc, hearts, "pass: dealer picks up", 0, 3,
                                bool((d_decl >> 0) & 1)))
            specs.append(TableSpec(q, options, upcard=up, seat=seat_rel))
    return specs


# ---------------------------------------------------------------------------- features


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a.astype(np.uint64)).astype(np.int64)


def hand_features(rules: Rules, hands: np.ndarray, trump: int) -> pd.DataFrame:
    """Features of each natural hand mask in ``hands`` when ``trump`` is trump."""
    h = hands.astype(np.uint64)
    right = np.uint64(1 << (trump * 8 + L.RANK_J))
    left = np.uint64(1 << (L.same_colour_suit(trump) * 8 + L.RANK_J))
    ace = np.uint64(1 << (trump * 8 + L.RANK_A))
    king = np.uint64(1 << (trump * 8 + L.RANK_K))
    side_aces = np.uint64(sum(1 << (s * 8 + L.RANK_A) for s in range(4) if s != trump))
    voids = np.zeros(len(h), dtype=np.int64)
    for s in range(4):
        if s != trump:
            voids += ((h & np.uint64(SIDES[trump, s])) == 0).astype(np.int64)
    points = np.zeros(len(h))
    for c in range(64):
        if POINTS[trump, c]:
            points += ((h >> np.uint64(c)) & np.uint64(1)).astype(np.float64) * POINTS[trump, c]
    n_trumps = _popcount(h & np.uint64(TRUMPS[trump]))
    points += np.where(n_trumps >= 2, 0.5 * voids, 0.0)
    return pd.DataFrame({
        "n_trumps": n_trumps,
        "right": ((h & right) != 0).astype(np.int64),
        "left": ((h & left) != 0).astype(np.int64),
        "ace": ((h & ace) != 0).astype(np.int64),
        "king": ((h & king) != 0).astype(np.int64),
        "side_aces": _popcount(h & side_aces),
        "voids": voids,
        "strength": np.floor(points * 2) / 2,
    })


SUIT_PERMUTATIONS = np.array([(0, 1, 2, 3), (3, 1, 2, 0), (0, 2, 1, 3), (3, 2, 1, 0),
                              (1, 0, 3, 2), (2, 0, 3, 1), (1, 3, 0, 2), (2, 3, 0, 1)])
# the colour-preserving renamings of the suits (clubs-spades and diamonds-hearts stay pairs)


def relabel(masks: np.ndarray, perm) -> np.ndarray:
    """Natural masks with suit ``s`` renamed ``perm[s]`` (vectorised; the joker stays)."""
    masks = masks.astype(np.uint64)
    out = masks & np.uint64(1 << L.JOKER)
    for copy in (0, 32):
        for suit in range(4):
            block = (masks >> np.uint64(copy + 8 * suit)) & np.uint64(0xFF)
            if copy and suit == 0:
                block &= np.uint64(0xFE)  # bit 32 is the joker, not a second-copy card
            out |= block << np.uint64(copy + 8 * int(perm[suit]))
    return out


def hand_classes(masks: np.ndarray, fixed_trump: int | None = None):
    """``(class masks, permutation index)`` of each hand: the smallest mask among its
    renamings (only those keeping ``fixed_trump`` when given), and which renaming gave it."""
    perms = [i for i, p in enumerate(SUIT_PERMUTATIONS)
             if fixed_trump is None or p[fixed_trump] == fixed_trump]
    candidates = np.stack([relabel(masks, SUIT_PERMUTATIONS[i]) for i in perms])
    best = np.argmin(candidates, axis=0)
    return candidates[best, np.arange(len(masks))], np.array(perms)[best]


# ---------------------------------------------------------------------------- running


def _points(rules: Rules, contract: int, tricks: np.ndarray, asker_declares: bool) -> np.ndarray:
    from .odds import Option
    from .odds import _points as option_points

    return option_points(rules, Option(0, "", 0, asker_declares, contract, 0), tricks)


def _chunk_rows(rules: Rules, spec: TableSpec, outcomes: np.ndarray, dealt: np.ndarray,
                ok: np.ndarray) -> dict:
    """One chunk's counts: feature rows, strength rows, hand-class rows (and in bid and ghost
    the distribution of each hand's best strength, for the swap table)."""
    n = rules.hand_size
    hands = dealt[ok, 0]
    fixed = spec.seat >= 0
    by_trump = {}
    frames = []
    class_masks, perm_index = hand_classes(hands, 2 if fixed else None)
    for scen, trump, name, contract, need, mine in spec.options:
        if trump not in by_trump:
            by_trump[trump] = hand_features(rules, hands, trump)
        feats = by_trump[trump].copy()
        tricks = outcomes[ok, scen].astype(np.int64)
        pts = _points(rules, contract, np.arange(n + 1), mine)[tricks]
        feats["option"] = name
        feats["deals"] = 1
        feats["made"] = (tricks >= need).astype(np.int64)
        feats["march"] = (tricks == n).astype(np.int64)
        feats["euchred"] = (tricks < 3).astype(np.int64)
        feats["points"] = pts
        feats["points_sq"] = pts * pts
        feats["hand"] = class_masks
        feats["trump"] = SUIT_PERMUTATIONS[perm_index, trump]
        if fixed:
            feats["seat"] = SEAT_NAMES[spec.seat]
            feats["upcard"] = "789TJQKA"[spec.upcard & 7]
        frames.append(feats)
    rows = pd.concat(frames, ignore_index=True)
    extra = UPCARD_FEATURES if fixed else []
    out = {
        "features": rows.groupby(["option"] + extra + FEATURES, as_index=False)[COUNTS].sum(),
        "strength": rows.groupby(["option"] + extra + ["strength"], as_index=False)[
            COUNTS].sum(),
        "hands": rows.groupby(["hand", "trump", "option"] + extra, as_index=False)[
            ["deals", "made", "points", "points_sq"]].sum(),
    }
    if rules.variant == "ghost":
        best = np.max(np.stack([f["strength"].to_numpy() for f in by_trump.values()]), axis=0)
        out["best_strength"] = pd.DataFrame({"strength": best, "deals": 1}).groupby(
            "strength", as_index=False)["deals"].sum()
    return out


def _family_work(rules: Rules, spec: TableSpec, index: int, seed: int, policies, params,
                 chunk_dir: Path | None, parts: dict):
    """``(work, collect, skip)`` of one scenario family for ``run_chunks``: ``work`` deals,
    plays and counts a chunk (pure: it may run on a cluster worker); ``collect`` stores the
    counts in Parquet files under ``chunk_dir`` (or in ``parts``); ``skip`` says a chunk is
    already on disk."""
    q = spec.query
    scen = np.array(q.scenarios, dtype=np.int64).reshape(-1, Q.S_LEN)
    to_norm, from_norm = rules.layout
    stream = seed * 1000 + index  # each family has deals of its own
    kinds = list(parts)

    def files(first: int, count: int) -> dict:
        stem = f"f{index:03d}_{first:010d}_{count}"
        return {k: chunk_dir / f"{stem}.{k}.parquet" for k in kinds}

    def work(first: int, count: int) -> dict:
        outcomes, _aux, tries, _nodes, dealt = Q.run_chunk(
            np.int64(stream), np.int64(first), np.int64(count), False, q.known,
            np.int64(q.upcard), q.cards, q.sizes, q.group_seat, *q.cons, np.int64(1), scen,
            np.int64(rules.hand_size), to_norm, from_norm, 1 if rules.double_deck else 0,
            table_bits(rules), num_threads(), rules.config(), policies, params)
        return _chunk_rows(rules, spec, outcomes, dealt, tries > 0)

    def collect(first: int, count: int, rows: dict) -> None:
        if chunk_dir is None:
            for k, frame in rows.items():
                parts[k].append(frame)
            return
        for k, path in files(first, count).items():
            tmp = path.with_suffix(".tmp")
            rows[k].to_parquet(tmp, index=False)
            tmp.replace(path)  # a chunk is on disk whole or not at all

    def skip(first: int, count: int) -> bool:
        return chunk_dir is not None and all(f.exists() for f in files(first, count).values())

    return work, collect, skip


def build_tables(rules: Rules, deals: int, out_dir: Path | None = None, *, seed: int = 0,
                 method: str = "dd", worlds: int = DEFAULT_WORLDS, progress: bool = False,
                 chunk: int = CHUNK, hand: int | None = None) -> dict:
    """Deal ``deals`` random deals (split evenly over the upcard ranks and dealer seats in
    knock and cutthroat), play every option on each and aggregate; returns the tables as
    DataFrames (see the module docstring) and ``meta``. With ``out_dir``, each chunk's counts
    are saved under it and reused when the same run is started again; Ctrl-C raises
    KeyboardInterrupt after the chunk in progress is saved. ``hand`` (a natural mask) fixes
    N's cards, which checks the tables against direct odds queries."""
    if deals < 1:
        raise UserError("--deals must be at least 1")
    if method not in ("dd", "heuristic", "pimc"):
        raise UserError(f"unknown method {method!r}: choose dd, heuristic or pimc")
    specs = table_specs(rules, hand)
    per_family = max(1, math.ceil(deals / len(specs)))
    chunk_dir = None
    if out_dir is not None:
        chunk_dir = Path(out_dir) / "chunks"
        chunk_dir.mkdir(parents=True, exist_ok=True)
        meta = {"variant": rules.variant, "rules": rules.options, "deals": deals,
                "seed": seed, "method": method, "worlds": worlds, "chunk": chunk}
        meta_path = chunk_dir / "run.json"
        if meta_path.exists() and json.loads(meta_path.read_text()) != meta:
            for old in chunk_dir.glob("*.parquet"):
                old.unlink()  # a different run: start afresh
        meta_path.write_text(json.dumps(meta, sort_keys=True))
    parts: dict[str, list] = {"features": [], "strength": [], "hands": []}
    if rules.variant == "ghost":
        parts["best_strength"] = []
    if method == "dd":
        policies = np.zeros((4, 2), dtype=np.int64)
        params = np.zeros((4, N_PARAMS))
    else:
        policies, params = seat_policies("points", method, worlds)
    done = 0
    for index, spec in enumerate(specs):
        work, collect, skip = _family_work(rules, spec, index, seed, policies, params,
                                           chunk_dir, parts)
        totals = run_chunks(per_family, work, chunk=chunk, progress=progress,
                            label=f"part {index + 1}/{len(specs)}", collect=collect, skip=skip)
        done += totals.done
        if totals.interrupted:
            raise KeyboardInterrupt
    keys = _count_keys(rules)
    for k in parts:
        frames = (pd.read_parquet(f) for f in sorted(chunk_dir.glob(f"*.{k}.parquet"))) \
            if chunk_dir is not None else parts[k]
        parts[k] = [_fold(frames, keys[k])]
    tables = summarise_tables(rules, parts)
    tables["meta"] = {"variant": rules.variant, "rules": rules.options, "deals": done,
                      "seed": seed, "method": method,
                      "worlds": worlds if method == "pimc" else None}
    return tables


def _finish(frame: pd.DataFrame, keys: list) -> pd.DataFrame:
    """Sum the counts over ``keys`` and add probabilities and intervals."""
    cols = [c for c in COUNTS if c in frame.columns]
    g = frame.groupby(keys, as_index=False)[cols].sum()
    n = g["deals"].astype(float)
    for col in ("made", "march", "euchred"):
        if col not in g:
            continue
        p = g[col] / n
        denom = 1 + Z95 ** 2 / n
        centre = (p + Z95 ** 2 / (2 * n)) / denom
        half = Z95 * np.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
        g[f"p_{col}"] = p
        g[f"p_{col}_low"] = (centre - half).clip(lower=0)
        g[f"p_{col}_high"] = (centre + half).clip(upper=1)
    mean = g["points"] / n
    var = ((g["points_sq"] - g["points"] ** 2 / n) / (n - 1)).clip(lower=0)
    half = Z95 * np.sqrt(var / n)
    g["ev"] = mean
    g["ev_low"] = mean - half
    g["ev_high"] = mean + half
    return g


def _count_keys(rules: Rules) -> dict:
    """The key columns of each kind of chunk frame (every other column is a count)."""
    extra = UPCARD_FEATURES if rules.variant in ("knock", "cutthroat") else []
    return {"features": ["option"] + extra + FEATURES,
            "strength": ["option"] + extra + ["strength"],
            "hands": ["hand", "trump", "option"] + extra, "best_strength": ["strength"]}


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


def summarise_tables(rules: Rules, parts: dict) -> dict:
    """The final tables from the chunks' counts."""
    from .notation import format_hand

    upcard = rules.variant in ("knock", "cutthroat")
    extra = UPCARD_FEATURES if upcard else []
    features = _finish(pd.concat(parts["features"], ignore_index=True),
                       ["option"] + extra + FEATURES)
    strength = _finish(pd.concat(parts["strength"], ignore_index=True),
                       ["option"] + extra + ["strength"])
    hands_all = _finish(pd.concat(parts["hands"], ignore_index=True),
                        ["hand", "trump", "option"] + extra)
    keys = ["hand"] + extra
    deals = hands_all.groupby(keys, as_index=False)["deals"].max()
    best = hands_all.sort_values(["ev", "option"], ascending=[False, True], kind="stable") \
        .groupby(keys, as_index=False).head(1).drop(columns=["deals"])
    hands = best.merge(deals, on=keys).rename(columns={"option": "best_option",
                                                       "trump": "best_trump"})
    hands["best_trump"] = hands["best_trump"].map(lambda t: "CDHS"[int(t)])
    hands["hand"] = [format_hand(int(m)) for m in hands["hand"]]
    hands = hands.sort_values(["deals", "ev", "hand"], ascending=[False, False, True],
                              kind="stable").reset_index(drop=True)
    tables = {"features": features, "strength": strength, "hands": hands}
    if rules.variant == "ghost":
        dist = pd.concat(parts["best_strength"], ignore_index=True).groupby(
            "strength", as_index=False)["deals"].sum()
        tables["swap"] = swap_table(strength, dist)
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


def table_meta(rules: Rules, tables: dict) -> dict:
    """Add what reports need to a table run's ``meta``: the options that differ from the
    defaults and the rules in words."""
    from .describe import describe

    meta = dict(tables["meta"])
    meta["changed"] = rules.changed_options
    meta["rules_text"] = describe(rules)
    return meta


def write_tables(tables: dict, out_dir: Path) -> list[Path]:
    """Write every table as Parquet and CSV (and ``meta.json``) into ``out_dir``; returns the
    files written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, frame in tables.items():
        if name == "meta":
            continue
        for suffix, writer in ((".parquet", frame.to_parquet), (".csv", frame.to_csv)):
            path = out_dir / f"{name}{suffix}"
            writer(path, index=False)
            written.append(path)
    meta_path = out_dir / "meta.json"
    meta_path.write_text(json.dumps(tables["meta"], indent=2, default=str))
    written.append(meta_path)
    return written
