"""The analyzer's fitted model of the upcard auction (``kernels.bidding.upcard_model``): a linear
model of the net points of each call, fitted to calls played out on random deals.

The deals are the strategy tables' (``analyzer.compute.engine.decision_rows``): on each, every
call seat N can make at its decision points is played to the end of the hand, every other
decision by the analyzer's table, the cards by heuristic play (as the table is built). Each
call's net points are regressed (ridge, least squares) on an intercept per context and the
hand's features by the seat's place and trump count
(``kernels.bidding.upcard_model.hand_features``), round 1's pass also on the features of the hand's
best other suit; then again on deals bid by that model, for ``GENERATIONS`` in all. Fitted once per
rule set (two to three minutes a generation) and cached beside the analyzer's table; the models of
the knock rule sets whose tables ship (``SHIPPED_MODELS``) ship with the package. The ``analyzer``
strategy bids by the model wherever ``has_model`` says (knock); ``table`` bids by the table alone.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from kernels.bidding import bidding as B
from kernels.bidding.upcard_model import hand_features_batch, round1_features_batch
from kernels.slots import FM, PR, RW, X

from ..compute.engine import decision_rows
from ..errors import UserError
from ..game.outcomes import outcome_arrays
from ..game.variants import UPCARD, Rules
from .best_response import (
    analyzer_rows,
    analyzer_table,
    built_deals,
    cache_path,
    max_rounds,
    read_cached,
    shipped_file,
)

FIT_DEALS = 1_000_000  # deals each generation is fitted on (in chunks of 100,000)
FIT_SEED = 20261202
GENERATIONS = 4  # the first fitted with the table at every seat, each next with the last model
RIDGE = 1.0  # the ridge penalty on every weight (an unseen context's intercept stays 0)
# the lone call must gain this much over the partner's help (``PR.ALONE_MARGIN``); measured
# with the first generation, knock against the point count, 100,000 games: 0.3 56.5%, 0.6
# 56.6%, 0.9 56.3%
ALONE_MARGIN = 0.6
MODEL_VERSION = 3  # 2: the dealer's round-1 hand with the upcard; 3: the side suits' shape
# fitted by `make strategies` (the knock sets of best_response.SHIPPED); others on first use
SHIPPED_MODELS = (("knock", {}), ("knock", {"stick_the_dealer": False}),
                  ("knock", {"lone_defender": True}), ("knock", {"deck32": True}),
                  ("knock", {"joker": True}))
# (the row's point: 0 N's first call, 1 its round-2 call; the table's option) -> model
MODELS = {(0, B.U_ORDER): FM.R1_ORDER, (0, B.U_ALONE): FM.R1_ALONE, (0, B.U_PASS): FM.R1_PASS,
          (1, B.U_NAME): FM.R2_NAME, (1, B.U_NAME_ALONE): FM.R2_NAME_ALONE,
          (1, B.U_PASS): FM.R2_PASS}


def has_model(rules: Rules) -> bool:
    """Whether the analyzer bids by a fitted model under ``rules``: the upcard auction between
    partnerships. Without partners (cutthroat: the maker takes the dummy's best five cards)
    the model lost to the table it was fitted on (100,000 games against the point count, seed
    3: 53.8% [53.5, 54.1] against 56.1% [55.8, 56.4]), so the table bids there."""
    return rules.auction == UPCARD and rules.partnership


def design(features: np.ndarray, other: np.ndarray, contexts: np.ndarray,
           places: np.ndarray) -> np.ndarray:
    """The model's inputs, one row per call (``FM.LEN`` columns in the order of its weights):
    the context's intercept, the hand's features in its block (``feature_block``: the place
    and the context's trump bucket), the other suit's in its block."""
    n = len(contexts)
    out = np.zeros((n, int(FM.LEN)))
    out[np.arange(n), contexts] = 1.0
    blocks = places * 4 + (contexts & 3)
    for b in range(FM.BLOCKS):
        at = blocks == b
        mine = FM.CONTEXTS + b * FM.FEATURES
        theirs = FM.CONTEXTS + (FM.BLOCKS + b) * FM.FEATURES
        out[at, mine:mine + FM.FEATURES] = features[at]
        out[at, theirs:theirs + FM.FEATURES] = other[at]
    return out


def _best_other(hands: np.ndarray, turned: np.ndarray) -> np.ndarray:
    """Each hand's best suit by the built-in point count other than ``turned`` (the first of
    equals, as ``kernels.bidding.bidding.best_suit``)."""
    points = np.stack([_points(hands, np.full(len(hands), t)) for t in range(4)], axis=1)
    points[np.arange(len(hands)), turned] = -np.inf
    return np.argmax(points, axis=1)


def _points(hands: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """The built-in point count (``kernels.bidding.bidding.hand_points`` of the default row: its
    voids count from two trumps, as the features' do)."""
    f = hand_features_batch(hands, trumps)
    return f[:, :B.W_COUNT] @ B.DEFAULT_WEIGHTS + B.DEFAULT_PARAMS[PR.VOID] * f[:, B.W_COUNT]


def chunk_equations(hands: np.ndarray, upcards: np.ndarray, rows: np.ndarray, net: np.ndarray
                    ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per model, ``(AᵀA, Aᵀy)`` of one chunk's calls: ``hands`` N's natural masks,
    ``upcards`` each deal's upcard, ``rows`` its decision rows (slots ``RW``), ``net`` N's net
    points of each row. Round 1's features are read from the dealer's hand with the upcard
    (``kernels.bidding.upcard_model.round1_hand``)."""
    out = []
    for (point, option), model in sorted(MODELS.items(), key=lambda item: item[1]):
        deal, k = np.nonzero((rows[:, :, RW.POINT] == point) & (rows[:, :, RW.OPTION] == option))
        ctx = rows[deal, k, RW.CONTEXT].astype(np.int64)
        trump = rows[deal, k, RW.TRUMP].astype(np.int64)
        h = hands[deal]
        places = (ctx // 32) if point == 0 else (ctx - 128) // 8
        f = round1_features_batch(h, trump, places, upcards[deal]) if point == 0 else \
            hand_features_batch(h, trump)
        other = np.zeros_like(f)
        if model == FM.R1_PASS:
            other = hand_features_batch(h, _best_other(h, trump))
        a = design(f, other, ctx, places)
        y = net[deal, k].astype(np.float64)
        out.append((a.T @ a, a.T @ y))
    return out


def fit_model(rules: Rules, deals: int = FIT_DEALS, seed: int = FIT_SEED,
              generations: int = GENERATIONS, progress=None) -> np.ndarray:
    """The weights ``[FM.MODELS, FM.LEN]`` fitted on ``deals`` deals of ``rules`` a generation
    (see the module docstring): the first generation's deals are bid by the analyzer's table
    at every seat, each next generation's by the model before it (fictitious play: against
    the point count, knock, 100,000 games, the generations won 56.6%, 57.0%, 57.3%, 57.3%).
    ``progress(generation)`` after each."""
    if not has_model(rules):
        raise UserError(f"the fitted model is for the upcard auction between partnerships; "
                        f"{rules.variant} bids by the analyzer's table")
    policies, params = analyzer_rows(analyzer_table(rules).grid)
    weights = None
    for generation in range(generations):
        if weights is not None:
            for seat in range(4):
                fill_model(params[seat], weights)
        weights = _fit_generation(rules, policies, params, deals, seed + generation)
        if progress:
            progress(generation + 1)
    return weights


def _fit_generation(rules: Rules, policies: np.ndarray, params: np.ndarray, deals: int,
                    seed: int) -> np.ndarray:
    lhs = np.zeros((FM.MODELS, FM.LEN, FM.LEN))
    rhs = np.zeros((FM.MODELS, FM.LEN))
    for first in range(0, deals, 100_000):
        n = min(100_000, deals - first)
        dealers = (first + np.arange(n)) % rules.players
        dealt, upcards, rows = decision_rows(rules, policies, params, seed, first, dealers,
                                             False)
        net = outcome_arrays(rules, 0, rows[..., RW.RESULT:RW.RESULT + X.LEN])["net"]
        for model, (ata, aty) in enumerate(chunk_equations(dealt[:, 0], upcards, rows, net)):
            lhs[model] += ata
            rhs[model] += aty
    ridge = RIDGE * np.eye(FM.LEN)
    return np.stack([np.linalg.solve(lhs[m] + ridge, rhs[m]) for m in range(FM.MODELS)])


def fit_deals() -> int:
    """Deals a generation of the fit: ``FIT_DEALS``, or ``$EUCHRE_STRATEGY_DEALS`` when set (the
    test suite fits on fewer, as it builds the tables on fewer)."""
    return built_deals(FIT_DEALS)


def fit_generations() -> int:
    """Generations of the fit: ``GENERATIONS``, or fewer when ``$EUCHRE_STRATEGY_ROUNDS`` caps
    the table's rounds below it (the test suite: 2; the cap is in the table's cache key, which
    the model's name starts with)."""
    return min(GENERATIONS, max_rounds())


def model_path(rules: Rules):
    """The cache file of the fitted model of ``rules`` (beside its analyzer table's; the
    deals a generation in its name)."""
    table = cache_path(rules)
    return table.with_name(f"{table.stem}-model{MODEL_VERSION}-{fit_deals()}.npz")


def model_files(rules: Rules) -> tuple:
    """Where the fitted model of ``rules`` is read from, in order: the cache's file, then the
    one shipped with the package."""
    return model_path(rules), shipped_file(lambda: model_path(rules).name)


def fitted_model(rules: Rules) -> np.ndarray:
    """The fitted model of ``rules``: cached, shipped, or fitted now (minutes, said on stderr)
    and cached."""
    path = model_path(rules)
    weights = read_cached(*model_files(rules), "weights")
    if weights is not None:
        return weights
    print(f"fitting the analyzer's model of these {rules.variant} house rules (first use; "
          f"cached after): {fit_generations()} generations of {fit_deals():,} deals",
          file=sys.stderr, flush=True)
    weights = fit_model(rules, fit_deals(), generations=fit_generations(),
                        progress=lambda g: print(f"  generation {g} done", file=sys.stderr,
                                                 flush=True))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez(tmp, weights=weights)
    tmp.replace(path)
    return weights


def ship_model(rules: Rules):
    """Write the fitted model of ``rules`` where the package ships it; returns the path."""
    weights = fitted_model(rules)
    path = model_files(rules)[1]
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp, weights=weights)
    tmp.replace(path)
    return path


def fill_model(params_row: np.ndarray, weights: np.ndarray) -> None:
    """Write the fitted model into one seat's parameter row and switch the seat to it."""
    params_row[PR.MODEL:PR.MODEL + FM.MODELS * FM.LEN] = weights.reshape(-1)
    params_row[PR.FITTED] = 1.0
    params_row[PR.ALONE_MARGIN] = ALONE_MARGIN
