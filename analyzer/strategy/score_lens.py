"""Playing to the score: the analyzer strategy's calls by the chance of winning the game.

Score-blind, the analyzer makes the call with the best expected net points of the hand (its
table's or fitted model's value). At a score it makes the call with the best chance of
winning the game: ``sum_k P_k(call) * P(win | score + points_k, the next dealer)``. Two parts:

- **The outcomes** (``outcome_points``): every way a hand can end, as the points each unit
  scores, seen from the unit that calls (``[k, units]``: its own first, then the units after
  it clockwise; a redeal is all zeros). Knock has 7, cutthroat 13, bid 48. Ghost (defenders
  score their own tricks) and the double deck (168) have more than the kernels keep
  (``kernels.slots.LENS_K``): there the analyzer stays score-blind.
- **The lens** (``ScoreLens``): for each kind of call (a ladder's pass, bids, ask, moon, swap;
  the upcard auction's order, order alone, pass in round 1, name, name alone, pass in round
  2), the caller's place and the value its strategy gives the call in net points (bins of
  ``step`` points from ``low``), the chance of each outcome: counted on ``LENS_DEALS``
  deals where every call of seat N is played to the end of the hand (the strategy tables'
  decision rows, ``analyzer.compute.engine.decision_rows``, every seat bidding by the
  analyzer and playing heuristic). A call of a given value brings what calls of that value
  brought: the lens also undoes the optimism of a value that is the best of noisy estimates
  (the lone calls' margin is not needed at a score).

The kernel reads both from a seat's parameter row (``kernels.bidding.bidding.score_value``): the
lens (``fill_lens``) and, once the score is known, each outcome's chance of winning the game for
the seat's side (``PR.WORTH``, ``PR.SCORED``: ``set_score`` for a question's one score, the
game lens of ``game_lens`` for whole games, from the match-equity table).
"""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kernels.cards import codes as K
from kernels.drivers import games as G
from kernels.slots import FM, LENS_BIN_MAX, LENS_K, LENS_KINDS, PR, RW, SC, VALUE_SCALE, X

from ..compute.engine import decision_rows
from ..game.match_equity import EquityTable
from ..game.variants import UPCARD, Rules
from .best_response import (
    analyzer_rows,
    analyzer_table,
    built_deals,
    cache_path,
    shipped_file,
)
from .fitted import fill_model, fitted_model, has_model, model_path

LENS_DEALS = 1_000_000  # deals the lens is counted on (in chunks of 100,000)
LENS_SEED = 20261206
LENS_VERSION = 1
# the lens's value bins, by auction: (net points of the first bin, width, bins)
GEOMETRY = {UPCARD: (-3.0, 0.25, 33), "ladder": (-8.0, 0.5, 48)}
SMOOTH = 50.0  # rows' worth of weight a bin's chances take from the bins around it
NEIGHBOURS = 3  # ... up to this many bins each side
# the upcard auction's calls as the lens's kinds: (N's first call or its round-2 call, the
# table's option) -> kind (the fitted model's numbering: FM.R1_ORDER ... FM.R2_PASS)
UPCARD_KINDS = {(0, 0): FM.R1_ORDER, (0, 1): FM.R1_ALONE, (0, 2): FM.R1_PASS,
                (1, 3): FM.R2_NAME, (1, 4): FM.R2_NAME_ALONE, (1, 2): FM.R2_PASS}


def units_of(rules: Rules) -> int:
    """The units that score: 2 teams, or each of the players."""
    return 2 if rules.partnership else rules.players


def outcome_points(rules: Rules) -> np.ndarray | None:
    """Every outcome of a hand under ``rules``: ``[k, units]`` the points each unit scores,
    seen from the caller's unit (its own first, then the next clockwise; a redeal is the
    first row, all zeros), or None where defenders score their own tricks (ghost: the
    outcomes are too many to keep)."""
    if rules.defenders_score_own_tricks:
        return None
    units = units_of(rules)
    rows = {(0,) * units}
    for contract in rules.contracts:
        for tricks in range(rules.hand_size + 1):
            decl, defend = (int(x) for x in rules.points_table[contract, tricks])
            for at in range(units):  # the declaring unit, from the caller's
                rows.add(tuple(decl if u == at else defend for u in range(units)))
    return np.array(sorted(rows, key=lambda r: (any(r), r)), dtype=np.int64)


def plays_to_score(rules: Rules) -> bool:
    """Whether the analyzer plays to the score under ``rules``: its outcomes fit the
    kernels' lens (``LENS_K``; not ghost, not the double deck)."""
    points = outcome_points(rules)
    return points is not None and len(points) <= LENS_K


def index_of(outcomes: np.ndarray, points: np.ndarray) -> np.ndarray:
    """The row of ``outcomes`` (``[k, units]``) equal to each row of ``points`` (``[...,
    units]``); -1 for points that are no outcome."""
    span = int(max(np.abs(outcomes).max(), np.abs(points).max(initial=0))) * 2 + 1

    def code(rows):
        out = np.zeros(rows.shape[:-1], dtype=np.int64)
        for u in range(rows.shape[-1]):
            out = out * span + rows[..., u] + span // 2
        return out

    keys = code(np.asarray(outcomes, dtype=np.int64))
    order = np.argsort(keys)
    wanted = code(np.asarray(points, dtype=np.int64))
    at = np.minimum(np.searchsorted(keys[order], wanted), len(keys) - 1)
    found = order[at]
    return np.where(keys[found] == wanted, found, -1)


def outcome_index(rules: Rules, results: np.ndarray, seat: int = 0) -> np.ndarray:
    """The outcome (row of ``outcome_points``) of each result (``results[..., X.LEN]``,
    slots ``X``) seen from ``seat``'s unit; -1 where the option could not be played."""
    units = units_of(rules)
    status = results[..., X.STATUS].astype(np.int64)
    played = status == K.ST_PLAYED
    contract = np.where(played, results[..., X.CONTRACT], 0).astype(np.int64)
    tricks = np.where(played, results[..., X.TRICKS], 0).astype(np.int64)
    decl_unit = np.where(played, results[..., X.DECLARER].astype(np.int64) % units, 0)
    at = (decl_unit - seat % units) % units
    table = rules.points_table[contract, tricks]  # [..., 2]: declaring side, each other
    points = np.stack([np.where(played, np.where(at == u, table[..., 0], table[..., 1]), 0)
                       for u in range(units)], axis=-1)
    return np.where(status < 0, -1, index_of(outcome_points(rules), points))


def call_kinds(rules: Rules, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lens's kind (``UPCARD_KINDS``; a ladder's option) and the caller's place of
    decision rows (slots ``RW``; -1 where a row is unused)."""
    option = rows[..., RW.OPTION].astype(np.int64)
    ctx = rows[..., RW.CONTEXT].astype(np.int64)
    if rules.auction != UPCARD:
        return np.where(option >= 0, option, -1), ctx // 64
    point = rows[..., RW.POINT].astype(np.int64)
    kind = np.full(option.shape, -1, dtype=np.int64)
    for (p, o), k in UPCARD_KINDS.items():
        kind[(point == p) & (option == o)] = k
    place = np.where(ctx >= 128, (ctx - 128) // 8, ctx // 32)
    return kind, place


@dataclass(frozen=True)
class ScoreLens:
    """The chance of each outcome after a call: ``counts[kind, place, bin, k]`` (the rows
    counted, each split between the two bins around its value) of calls of ``kind`` from
    ``place`` valued at about ``low + bin * step`` net points; ``outcomes[k, units]`` as
    ``outcome_points``; ``rows`` counted on ``deals`` deals."""

    low: float
    step: float
    outcomes: np.ndarray
    counts: np.ndarray
    deals: int

    @functools.cached_property
    def chances(self) -> np.ndarray:
        """``[kind, place, bin, k]``: each bin's chances of the outcomes, a thin bin's drawn
        towards its neighbours' (``SMOOTH`` rows' worth, up to ``NEIGHBOURS`` bins away), an
        empty one's the nearest bin's; zeros for a kind never called from a place."""
        counts = self.counts
        kernel = np.zeros(counts.shape)
        for d in range(-NEIGHBOURS, NEIGHBOURS + 1):
            lo, hi = max(d, 0), counts.shape[2] + min(d, 0)
            kernel[:, :, lo - d:hi - d] += counts[:, :, lo:hi]
        n = counts.sum(axis=3, keepdims=True)
        near = kernel / np.maximum(kernel.sum(axis=3, keepdims=True), 1e-300)
        out = (counts + SMOOTH * near) / (n + SMOOTH)
        seen = kernel.sum(axis=3) > 0
        for kind in range(counts.shape[0]):
            for place in range(counts.shape[1]):
                known = np.flatnonzero(seen[kind, place])
                if known.size == 0:
                    out[kind, place] = 0.0
                    continue
                nearest = known[np.abs(np.arange(counts.shape[2])[:, None] -
                                       known[None, :]).argmin(axis=1)]
                out[kind, place] = out[kind, place, nearest]
        return out


def count_rows(rules: Rules, rows: np.ndarray, low: float, step: float, bins: int,
               counts: np.ndarray) -> None:
    """Add decision rows (``rows[n, MAX_ROWS, RW.LEN]``, seat N's calls played out) to the
    lens's ``counts[kind, place, bin, k]``: each row split between the two bins around its
    value (as ``kernels.bidding.bidding.score_value`` reads them); calls the strategy never makes
    and rows not played are left out."""
    kind, place = call_kinds(rules, rows)
    value = rows[..., RW.VALUE].astype(np.float64) / VALUE_SCALE
    k = outcome_index(rules, rows[..., RW.RESULT:RW.RESULT + X.LEN])
    use = (kind >= 0) & (k >= 0) & (value > -100.0)
    x = np.clip((value[use] - low) / step, 0.0, bins - 1.0)
    i = np.minimum(x.astype(np.int64), bins - 2)
    share = x - i
    at = (kind[use], place[use], i, k[use])
    np.add.at(counts, at, 1.0 - share)
    np.add.at(counts, (at[0], at[1], i + 1, at[3]), share)


def analyzer_params(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Policy rows of four seats bidding by the analyzer strategy of ``rules`` (its table,
    and its fitted model where it has one), score-blind."""
    policies, params = analyzer_rows(analyzer_table(rules).grid)
    if has_model(rules):
        model = fitted_model(rules)
        for seat in range(4):
            fill_model(params[seat], model)
    return policies, params


def build_lens(rules: Rules, deals: int, seed: int = LENS_SEED, progress=None) -> ScoreLens:
    """Count the lens of ``rules`` on ``deals`` deals (see the module docstring);
    ``progress(done, deals)`` after each chunk."""
    low, step, bins = GEOMETRY[UPCARD if rules.auction == UPCARD else "ladder"]
    points = outcome_points(rules)
    policies, params = analyzer_params(rules)
    counts = np.zeros((LENS_KINDS, 4, bins, len(points)))
    for first in range(0, deals, 100_000):
        n = min(100_000, deals - first)
        dealers = (first + np.arange(n)) % rules.players
        _, _, rows = decision_rows(rules, policies, params, seed, first, dealers, False)
        count_rows(rules, rows, low, step, bins, counts)
        if progress:
            progress(first + n, deals)
    return ScoreLens(low, step, points, counts, deals)


def lens_deals() -> int:
    """Deals the lens is counted on: ``LENS_DEALS``, or the strategy tables' deals when
    ``$EUCHRE_STRATEGY_DEALS`` is set (the test suite's: fewer)."""
    return built_deals(LENS_DEALS)


def lens_name(rules: Rules, deals: int | None = None) -> str:
    """The file name of the lens of ``rules``: the strategy's (its fitted model's where it
    has one), the version and the deals."""
    strategy = model_path(rules) if has_model(rules) else cache_path(rules)
    return f"{strategy.stem}-lens{LENS_VERSION}-{deals or lens_deals()}.npz"


def _read_lens(path: Path) -> ScoreLens | None:
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            return ScoreLens(float(data["low"]), float(data["step"]), data["outcomes"],
                             data["counts"].astype(np.float64), int(data["deals"]))
    except (OSError, ValueError, KeyError, EOFError):
        return None


def _write_lens(path: Path, lens: ScoreLens) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    # the counts are halves and quarters' worth of rows: float32 keeps them to the row
    np.savez_compressed(tmp, low=lens.low, step=lens.step, outcomes=lens.outcomes,
                        counts=lens.counts.astype(np.float32), deals=lens.deals)
    tmp.replace(path)
    return path


_LENSES: dict = {}


def score_lens(rules: Rules) -> ScoreLens:
    """The lens of ``rules``: from this process's memory, the user's cache, the package, or
    counted now (a minute or two, said on stderr) and cached."""
    name = lens_name(rules)
    if name in _LENSES:
        return _LENSES[name]
    cached = cache_path(rules).with_name(name)
    lens = _read_lens(cached) or _read_lens(shipped_file(lambda: lens_name(rules)))
    if lens is None:
        print(f"counting the analyzer's lens of the score for these {rules.variant} house "
              f"rules (first use; cached after): {lens_deals():,} deals",
              file=sys.stderr, flush=True)
        lens = build_lens(rules, lens_deals())
        _write_lens(cached, lens)
    _LENSES[name] = lens
    return lens


def ship_lens(rules: Rules) -> Path:
    """Write the lens of ``rules`` where the package ships it; returns the path."""
    return _write_lens(shipped_file(lambda: lens_name(rules)), score_lens(rules))


def fill_lens(params_row: np.ndarray, lens: ScoreLens) -> None:
    """Write the lens into one seat's parameter row (``PR.LENS`` and its geometry); the seat
    plays to the score once its row has ``PR.TO_SCORE`` and is told the score."""
    chances = lens.chances
    kinds, places, bins, k = chances.shape
    block = np.zeros((LENS_KINDS, 4, LENS_BIN_MAX, LENS_K))
    block[:kinds, :places, :bins, :k] = chances
    params_row[PR.LENS:PR.LENS + block.size] = block.reshape(-1)
    params_row[PR.OUTCOMES] = k
    params_row[PR.LENS_LOW] = lens.low
    params_row[PR.LENS_STEP] = lens.step
    params_row[PR.LENS_BINS] = bins


def seat_worth(table: EquityTable, outcomes: np.ndarray, score, dealer: int,
               seat: int) -> np.ndarray:
    """``worth[k]``: the chance that ``seat``'s unit wins the game after outcome ``k``
    (``outcomes[k]``, from the seat's unit) of a hand ``dealer`` deals at ``score`` (the
    units' scores: teams N-S, E-W, or players N, E, S)."""
    units = table.rules.units
    unit = table.unit_of(seat)
    points = np.zeros((len(outcomes), units), dtype=np.int64)
    for i in range(units):
        points[:, (unit + i) % units] = outcomes[:, i]
    return table.after_hand(np.asarray(score), dealer, points)[:, unit]


def set_score(params: np.ndarray, table: EquityTable, lens: ScoreLens, score,
              dealer: int) -> None:
    """Tell the seats of ``params`` (``[4, PR.LEN]``) the game's ``score`` (per unit) with
    ``dealer`` dealing the hand: every seat whose strategy plays to the score
    (``PR.TO_SCORE``) gets the lens (``fill_lens``) and each outcome's chance of winning the
    game (``tell_worth``); the others are left score-blind."""
    for seat in range(table.players):
        if params[seat, PR.TO_SCORE] == 1.0:
            fill_lens(params[seat], lens)
    tell_worth(params, table, lens, score, dealer)


def net_points(outcomes: np.ndarray) -> np.ndarray | None:
    """Each outcome's net points for the caller's side (ours less theirs), as the strategy's
    values count them; None without partners (a cutthroat call's value is not that)."""
    return outcomes[:, 0] - outcomes[:, 1] if outcomes.shape[1] == 2 else None


def split_worth(worth: np.ndarray, lens: ScoreLens) -> tuple[np.ndarray, float]:
    """``(rest, slope)``: the chance of winning after each outcome (``worth[..., k]``) as a
    slope per net point (the least-squares line through the outcomes, each weighted by how
    often the lens saw it) and what the line leaves (``worth - slope * net``); the kernel
    counts a call's own value at the slope (``kernels.bidding.bidding.score_value``), so the lens
    gives the shape of a call's outcomes and the strategy's value their mean. Without
    partners: the worth as it is, slope 0."""
    net = net_points(lens.outcomes)
    if net is None:
        return worth, np.zeros(worth.shape[:-1])
    weight = lens.counts.sum(axis=(0, 1, 2))
    weight = weight / weight.sum()
    centred = net - weight @ net
    slope = (worth @ (weight * centred)) / (weight @ centred ** 2)
    return worth - slope[..., None] * net, slope


def tell_worth(params: np.ndarray, table: EquityTable, lens: ScoreLens, score,
               dealer: int) -> None:
    """Write each outcome's chance of winning the game at ``score`` (``seat_worth``, split
    by ``split_worth``) into ``PR.WORTH`` and ``PR.SLOPE`` of every seat of ``params`` that
    plays to the score, and mark it scored (``PR.SCORED``); its lens must be in its row
    already."""
    outcomes = lens.outcomes
    for seat in range(table.players):
        if params[seat, PR.TO_SCORE] == 1.0:
            rest, slope = split_worth(seat_worth(table, outcomes, score, dealer, seat), lens)
            params[seat, PR.WORTH:PR.WORTH + len(outcomes)] = rest
            params[seat, PR.SLOPE] = slope
            params[seat, PR.SCORED] = 1.0


def worth_table(table: EquityTable, lens: ScoreLens) -> np.ndarray:
    """``worth[cell, position, k]`` over every cell of the table's box of scores (in deal
    order, as ``kernels.drivers.games.score_cell`` finds them): the chance that the unit
    ``position`` places after the dealer's wins the game after outcome ``k`` seen from it,
    split by ``split_worth`` (``k`` < outcomes), and the slope (the last ``k``)."""
    rules = table.rules
    outcomes = lens.outcomes
    axis = np.arange(rules.low, rules.high + 1)
    scores = np.stack(np.meshgrid(*([axis] * rules.units), indexing="ij"), -1).reshape(
        -1, rules.units)  # cell order: the first unit's score slowest (ScoreRules.cell)
    out = np.zeros((len(scores), rules.units, len(outcomes) + 1))
    for position in range(rules.units):  # the dealer is seat 0: deal order is seat order
        for k, row in enumerate(outcomes):
            points = np.zeros(rules.units, dtype=np.int64)
            for i in range(rules.units):
                points[(position + i) % rules.units] = row[i]
            out[:, position, k] = table.win_chance(scores + points, 1 % table.players)[
                :, position]
        rest, slope = split_worth(out[:, position, :-1], lens)
        out[:, position, :-1] = rest
        out[:, position, -1] = slope
    return out


def game_lens(table: EquityTable, lens: ScoreLens) -> G.Lens:
    """The game lens (``kernels.drivers.games.Lens``) by which the game kernel tells the seats the
    score before each hand, from the match-equity table and the outcomes of ``lens``."""
    geom = np.zeros(SC.LEN, dtype=np.int64)
    geom[SC.ON] = 1
    geom[SC.UNITS] = table.rules.units
    geom[SC.LOW] = table.rules.low
    geom[SC.HIGH] = table.rules.high
    geom[SC.OUTCOMES] = len(lens.outcomes)
    return G.Lens(geom, worth_table(table, lens))
