"""Run in a fresh process by test_kernels_cache.py: solve (with --values and --play, value
cards and play) a little and print the results; with --types list every float64 scalar in the
typing of a kernel the process compiled or loaded from the cache."""

import importlib
import inspect
import json
import pkgutil
import sys

import numpy as np
from numba import types
from numba.core import compiler
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.registry import CPUDispatcher
from numba.core.typed_passes import NopythonTypeInference

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
                   "_row", "fixed_value", "ladder_rows", "upcard_rows",
                   # the analyzer card player's network: its weights and the cards' scores
                   # (kernels.play.analyzer_player), and its fingerprint (which seats share it)
                   "network", "view_layer", "card_score", "analyzer_card", "network_rows"}


@register_pass(mutates_CFG=False, analysis_only=True)
class _TypedAndDone(FunctionPass):
    """The last pass of :class:`_TypingOnly`: ends the compile with the typing."""

    _name = "euchre_tests_typed_and_done"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        raise compiler._EarlyPipelineCompletion(dict(state.typemap))


class _TypingOnly(compiler.CompilerBase):
    """numba's nopython pipeline up to its type inference: a function's typing in seconds,
    without generating machine code (and without a cache, which keeps no typing)."""

    def define_pipelines(self):
        pm = compiler.DefaultPassBuilder.define_untyped_pipeline(self.state)
        pm.add_pass(NopythonTypeInference, "nopython frontend")
        pm.add_pass(_TypedAndDone, "typing only")
        pm.finalize()
        return [pm]


def typing_of(disp, signature) -> dict:
    """``variable -> numba type`` of the jitted function ``disp`` typed for ``signature`` (a
    tuple of argument types, as ``disp.overloads`` keys them), inferred afresh as numba's
    compile would (its flags and locals): an overload loaded from the cache keeps none."""
    c = disp._compiler
    flags = compiler.Flags()
    c.targetdescr.options.parse_as_flags(flags, c.targetoptions)
    flags = c._customize_flags(flags)
    return compiler.compile_extra(c.targetdescr.typing_context, c.targetdescr.target_context,
                                  c._get_implementation(signature, {}), args=signature,
                                  return_type=None, flags=flags, locals=c.locals,
                                  pipeline_class=_TypingOnly)


def float_scalars(dispatchers) -> list[str]:
    """``name:variable`` for every float64 scalar outside ``FLOAT_FUNCTIONS`` in the typing of
    every overload of the dispatchers (``name -> dispatcher``) this process compiled or
    loaded, and of every kernel those call: a kernel loaded from the cache brings none of its
    callees, typing it loads them (from the cache, or compiles them), and they are typed in
    turn."""
    found = set()
    typed = set()
    while todo := [(name, disp, signature) for name, disp in dispatchers.items()
                   for signature in list(disp.overloads) if (name, signature) not in typed]:
        for name, disp, signature in todo:
            typed.add((name, signature))
            typing = typing_of(disp, signature)
            if disp.py_func.__name__ not in FLOAT_FUNCTIONS:
                found.update(f"{name}:{var}" for var, typ in typing.items()
                             if typ == types.float64)
    return sorted(found)


def kernel_dispatchers() -> dict:
    """Every jitted function of every module of kernels/ and its rooms (``room.module.name``),
    each under the module that defines it."""
    out = {}
    for info in pkgutil.walk_packages(kernels.__path__, "kernels."):
        module = importlib.import_module(info.name)
        for attr, obj in inspect.getmembers(module):
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == info.name:
                out[f"{info.name.removeprefix('kernels.')}.{attr}"] = obj
    return out


def main():
    """Solve a bid deal (the solver's recursive search); with ``--values`` also a knock
    deal's card values, with ``--play`` play 50 knock hands (the hand engine: every phase,
    every play policy); print the results as one JSON line, and with ``--types`` the float64
    scalars of every kernel the process used."""
    rules = make_rules("knock")
    out = {}
    if "--play" in sys.argv:
        # the point count bids: the analyzer strategy would be built here on first use
        # (minutes, and which kernels that compiles would depend on whether another process
        # built it first)
        _, recs = play_hands(rules, 50, seed=3, strategy="points")
        out["points"] = recs[:, R.POINTS:R.POINTS + 4].sum(axis=0).tolist()
    bid_hands = np.array([[0x7C, 0x7C00, 0x7C0000, 0x7C000000]], dtype=np.uint64)
    answers, nodes = solve_positions(make_rules("bid"), bid_hands, 2, 0, 15, 5, -1)
    out |= {"answers": answers.tolist(), "nodes": nodes.tolist()}
    if "--values" in sys.argv:
        knock_hands = np.array([[0x3E, 0x3E00, 0x3E0000, 0x3E000000]], dtype=np.uint64)
        values, _ = card_values(rules, knock_hands, 1, 0, 15, 5)
        out["values"] = values[0].tolist()
    if "--types" in sys.argv:
        out["floats"] = float_scalars(kernel_dispatchers())
    print(json.dumps(out))


if __name__ == "__main__":
    main()
