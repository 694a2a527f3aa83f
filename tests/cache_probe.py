"""Run in a fresh process by test_kernels_cache.py: play and solve a little, print the results,
and with --types list every float64 scalar in the typing of a compiled kernel."""

import importlib
import inspect
import json
import pkgutil
import sys

import numpy as np
from numba import types
from numba.core.registry import CPUDispatcher

import kernels
from analyzer.compute.solver import card_values, solve_positions
from analyzer.game.variants import make_rules
from analyzer.questions.simulate.play import play_hands
from kernels.slots import R

# Functions that compute in floats on purpose: the point count (card weights, hand points,
# thresholds) and the decisions comparing points or the analyzer's expected net points. Every
# other kernel works in integers, where a float64 can only come from numba unifying uint64
# with int64.
FLOAT_FUNCTIONS = {"card_weight", "points_table", "threshold", "hand_points", "best_suit",
                   "order_points", "choose_bid", "choose_ladder_call", "choose_upcard_call",
                   "_round1", "choose_swap",
                   "choose_yes_no", "choose_trump", "choose_card_from", "choose_card_solving",
                   "strat", "analyzer_ladder", "analyzer_round2",
                   # the analyzer's fitted model of the upcard auction
                   "hand_features", "feature_block", "model_value", "fitted_values",
                   "upcard_call_values", "analyzer_alone",
                   # the tremble of inference: values of the calls and their likelihoods
                   "ladder_values", "upcard_values", "call_likelihood", "_kept", "tolerated",
                   "flip_kept", "_kept_as_tremble", "lone_value",
                   # playing to the score: a call's chance of winning the game, and the flags
                   # of a seat's row it reads (kernels.bidding.bidding.score_value)
                   "plays_to_score", "score_value", "call_value", "with_or_alone",
                   "goes_alone", "upcard_choices", "upcard_raw_values",
                   # a strategy table's rows carry the analyzer's values of the calls
                   "_row", "fixed_value", "ladder_rows", "upcard_rows"}


def float_scalars(dispatchers) -> list[str]:
    """``name:variable`` for every float64 scalar in the typing of the compiled dispatchers
    (``name -> dispatcher``) outside ``FLOAT_FUNCTIONS``; only freshly compiled functions
    carry their typing."""
    found = set()
    for name, disp in dispatchers.items():
        if disp.py_func.__name__ in FLOAT_FUNCTIONS:
            continue
        for cres in disp.overloads.values():
            # a string, not a TypeAnnotation, for some overloads (seen in a fresh CI clone)
            typemap = getattr(getattr(cres, "type_annotation", None), "typemap", None)
            for var, typ in (typemap.items() if isinstance(typemap, dict) else ()):
                if typ == types.float64:
                    found.add(f"{name}:{var}")
    return sorted(found)


def kernel_dispatchers() -> dict:
    """Every jitted function of every module of kernels/."""
    out = {}
    for info in pkgutil.iter_modules(kernels.__path__):
        module = importlib.import_module(f"kernels.{info.name}")
        for attr, obj in inspect.getmembers(module):
            if isinstance(obj, CPUDispatcher):
                out[f"{info.name}.{attr}"] = obj
    return out


def main():
    rules = make_rules("knock")
    # the point count bids: the analyzer strategy would be built here on first use (minutes,
    # and which kernels that compiles would depend on whether another process built it first)
    _, recs = play_hands(rules, 50, seed=3, strategy="points")
    bid_hands = np.array([[0x7C, 0x7C00, 0x7C0000, 0x7C000000]], dtype=np.uint64)
    answers, nodes = solve_positions(make_rules("bid"), bid_hands, 2, 0, 15, 5, -1)
    knock_hands = np.array([[0x3E, 0x3E00, 0x3E0000, 0x3E000000]], dtype=np.uint64)
    values, _ = card_values(rules, knock_hands, 1, 0, 15, 5)
    floats = float_scalars(kernel_dispatchers()) if "--types" in sys.argv else []
    print(json.dumps({"points": recs[:, R.POINTS:R.POINTS + 4].sum(axis=0).tolist(),
                      "answers": answers.tolist(), "nodes": nodes.tolist(),
                      "values": values[0].tolist(), "floats": floats}))


if __name__ == "__main__":
    main()
