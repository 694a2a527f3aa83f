"""Benchmarks that print figures (``euchre bench solve``): speed targets live here, not in
timed tests. Every figure comes from one run on fixed, seeded deals."""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from kernels.cards.layout import deck_natural_ids
from kernels.threads import max_threads, num_threads, set_threads

from .compute import engine, runner
from .compute.cluster import scheduler
from .compute.solver import Solver, solve_positions, solver_memory_bytes
from .game.notation import Deal, format_card
from .game.seating import seating
from .game.variants import Rules, make_rules
from .questions.advise.advise_games import card_choices
from .questions.odds.answer import decision_point, exact_estimate, odds
from .questions.odds.decide import prepare
from .questions.simulate.card_match import MatchSettings, match
from .questions.simulate.play import play_hands
from .questions.simulate.whole_games import simulate
from .questions.tables.solve import solve_deal
from .strategy.defaults import ADVISED, MATCH_PLAYERS, MATCH_WORLDS
from .strategy.seats import others_policies, seat_policies


@dataclass(frozen=True)
class SolveConfig:
    """One benchmark configuration: the rules, cards per hand, the seats that play, whether
    the declarer plays alone, and how many deals to time."""

    name: str
    rules: Rules
    cards: int
    seats: int
    alone: bool
    deals: int
    target: float | None = None  # exact solves a second on every thread


def solve_configs(scale: float = 1.0) -> list[SolveConfig]:
    """The configurations of ``euchre bench solve`` (``scale`` multiplies the deal counts)."""
    def n(k):
        return max(1, int(k * scale))

    knock, bid = make_rules("knock"), make_rules("bid")
    return [
        SolveConfig("knock", knock, 5, 4, False, n(40000), 150_000),
        SolveConfig("knock_alone", knock, 5, 3, True, n(40000)),
        SolveConfig("bid", bid, 6, 4, False, n(10000), 40_000),
        SolveConfig("bid_moon", bid, 6, 3, True, n(40000)),
        SolveConfig("ghost", make_rules("ghost"), 6, 3, True, n(40000)),
        SolveConfig("cutthroat", make_rules("cutthroat"), 5, 3, True, n(40000)),
        SolveConfig("double_deck", make_rules("bid", double_deck=True), 12, 4, False, n(50)),
        # random deals the benchmark's own set was not chosen from (another seed)
        SolveConfig("double_deck_unseen", make_rules("bid", double_deck=True), 12, 4, False,
                    n(20)),
    ]


def bench_deals(config: SolveConfig, seed: int = 2026):
    """Fixed random deals for a configuration: ``(hands[N, 4], trumps, leaders, active,
    decl)``; N declares, the playing seats get random hands, trump and leader are random."""
    rng = np.random.default_rng([seed] + [ord(c) for c in config.name])
    mode = "normal"
    if config.alone and config.rules.partnership:
        mode = "moon" if config.rules.has_ask else "alone"
    active, decl = seating(config.rules, 0, mode)
    seats = [s for s in range(4) if (active >> s) & 1]
    ids = deck_natural_ids(config.rules.deck)
    n = config.deals
    hands = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        perm = rng.permutation(ids)
        for k, s in enumerate(seats):
            cards = perm[k * config.cards:(k + 1) * config.cards]
            hands[i, s] = np.uint64(sum(1 << int(c) for c in cards))
    trumps = rng.integers(0, 4, n)
    leaders = rng.choice(seats, n)
    return hands, trumps, leaders, active, decl


def _time_solves(config, deals, repeats: int) -> tuple[float, np.ndarray, np.ndarray]:
    """Median wall time of ``repeats`` exact solves of all the deals, the answers, nodes."""
    hands, trumps, leaders, active, decl = deals
    solve_positions(config.rules, hands[:2], trumps[:2], leaders[:2], active, decl, -1)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        answers, nodes = solve_positions(config.rules, hands, trumps, leaders, active, decl, -1)
        times.append(time.perf_counter() - start)
    return statistics.median(times), answers, nodes


def _reference():
    """tests/reference.py of this checkout, or None when the tests are not installed."""
    path = Path(__file__).resolve().parent.parent / "tests" / "reference.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("euchre_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _reference_seconds(ref, config, deals, count: int) -> float | None:
    """Mean seconds per deal of the pure-Python brute force on the first ``count`` deals."""
    if ref is None or config.rules.double_deck:
        return None
    hands, trumps, leaders, active, decl = deals
    start = time.perf_counter()
    for i in range(count):
        table = {}
        for s in range(4):
            if (active >> s) & 1:
                m = int(hands[i, s])
                table["NESW"[s]] = [format_card(c) for c in range(64) if (m >> c) & 1]
        ref.dd_tricks(table, "CDHS"[trumps[i]], "NESW"[leaders[i]],
                      [s for s in "NESW" if (active >> "NESW".index(s)) & 1],
                      {s for s in "NESW" if (decl >> "NESW".index(s)) & 1})
    return (time.perf_counter() - start) / count


def bench_solve(scale: float = 1.0, reference_deals: int = 10, progress=None) -> dict:
    """Run every solve benchmark; returns ``{config name: figures}`` (see the README)."""
    ref = _reference()
    threads = max_threads()
    out = {}
    for config in solve_configs(scale):
        if progress:
            progress(config.name)
        deals = bench_deals(config)
        before = num_threads()
        try:
            set_threads(threads)
            if config.rules.double_deck:
                figures = _bench_one_by_one(config, deals)
            else:
                seconds, _, nodes = _time_solves(config, deals, 3)
                set_threads(1)
                seconds_1, _, _ = _time_solves(config, deals, 3)
                figures = {"deals": config.deals, "threads": threads,
                           "solves_per_s": config.deals / seconds,
                           "solves_per_s_1thread": config.deals / seconds_1,
                           "mean_nodes": float(nodes.mean()), "max_nodes": int(nodes.max())}
        finally:
            set_threads(before)
        ref_s = _reference_seconds(ref, config, deals, min(reference_deals, config.deals))
        if ref_s is not None:
            figures["reference_s_per_deal"] = ref_s
            figures["speedup_vs_reference_1thread"] = ref_s * figures["solves_per_s_1thread"]
        figures["memory_per_thread_bytes"] = solver_memory_bytes(config.rules)
        out[config.name] = figures
    if progress:
        progress("single calls")
    out["single_calls"] = bench_single_calls(max(50, int(2000 * scale)))
    return out


SINGLE_CALL_ROUNDS = 7  # rounds of bench_single_calls, every call timed once a round


def bench_single_calls(count: int) -> dict:
    """What a bot pays to ask about one knock deal at a time, one thread: microseconds a
    solve in a batch, a ``Solver.solve`` call, a ``Solver.values`` call (every opening lead
    valued), a ``solve_deal`` call (the deal's tricks) and one whose every opening lead is
    read (valued on reading), over the same ``count`` deals; medians of three runs."""
    config = replace(solve_configs()[0], deals=count)  # the first: knock, four seats
    hands, trumps, leaders, active, decl = bench_deals(config)
    rules = config.rules
    solver = Solver(rules)
    deals = [Deal(hands={s: int(hands[i, s]) for s in range(4)}) for i in range(count)]
    # a bot's numbers are Python ints: the loops time the calls, not numpy's conversions
    trump_of, leader_of = trumps.tolist(), leaders.tolist()

    def batch():
        solve_positions(rules, hands, trumps, leaders, active, decl, -1)

    def one_by_one():
        for i in range(count):
            solver.solve(hands[i], trump_of[i], leader_of[i], active, decl)

    def leads():
        for i in range(count):
            solver.values(hands[i], trump_of[i], leader_of[i], active, decl)

    def whole_deals():
        for i in range(count):
            solve_deal(rules, deals[i], trump_of[i], 0, leader=leader_of[i])

    def whole_deals_and_leads():
        leads = 0
        for i in range(count):
            leads += len(solve_deal(rules, deals[i], trump_of[i], 0, leader=leader_of[i]).leads)
        return leads

    runs = {"batch": batch, "solver": one_by_one, "values": leads, "solve_deal": whole_deals,
            "leads": whole_deals_and_leads}
    before = num_threads()
    try:
        set_threads(1)
        times: dict = {name: [] for name in runs}
        for run in runs.values():
            run()
        # rounds of every call in turn: this host's pace drifts by ±30% over seconds, and
        # a ratio of two calls timed side by side drifts far less than either
        for _ in range(SINGLE_CALL_ROUNDS):
            for name, run in runs.items():
                start = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - start)
    finally:
        set_threads(before)
    micro = {name: 1e6 * statistics.median(t) / count for name, t in times.items()}
    return {"deals": count, "batch_us": micro["batch"], "solver_us": micro["solver"],
            "values_us": micro["values"], "solve_deal_us": micro["solve_deal"],
            "solve_deal_python_us": micro["solve_deal"] - micro["solver"],
            "solve_deal_leads_us": micro["leads"],
            "solver_overhead_us": micro["solver"] - micro["batch"],
            "solve_deal_ratio": statistics.median(
                a / b for a, b in zip(times["solve_deal"], times["batch"], strict=True))}


def _bench_one_by_one(config, deals) -> dict:
    """Double deck: deals are slow enough to time one at a time on one thread."""
    hands, trumps, leaders, active, decl = deals
    set_threads(1)
    times, all_nodes = [], []
    for i in range(config.deals):
        start = time.perf_counter()
        _, nodes = solve_positions(config.rules, hands[i:i + 1], trumps[i:i + 1],
                                   leaders[i:i + 1], active, decl, -1)
        times.append(time.perf_counter() - start)
        all_nodes.append(int(nodes[0]))
    return {"deals": config.deals, "threads": 1, "solves_per_s": config.deals / sum(times),
            "solves_per_s_1thread": config.deals / sum(times),
            "median_ms": 1000 * statistics.median(times), "max_ms": 1000 * max(times),
            "mean_nodes": float(np.mean(all_nodes)), "max_nodes": int(max(all_nodes))}


def cold_start_seconds() -> tuple[float, float]:
    """``(cold, warm)``: seconds for a fresh process to import the analyzer and solve one deal
    with an empty numba cache (everything compiled), then again with that cache filled."""
    code = ("from analyzer.bench import solve_configs, bench_deals, solve_positions\n"
            "c = solve_configs(0.0001)[0]\n"
            "h, t, l, a, d = bench_deals(c)\n"
            "solve_positions(c.rules, h[:1], t[:1], l[:1], a, d, -1)\n")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
        warm = time.perf_counter() - start
    return cold, warm


BENCH_HAND = "JH AH KH QD 9S TC"
PLAY_VARIANTS = ["bid", "knock"]  # the play benchmark's variants
KNOCK_QUESTION = {"hand": "JS AS KS 9H TD", "variant": "knock", "upcard": "QS", "seat": "E",
                  "dealer": "N"}
HEARD_QUESTION = {"hand": BENCH_HAND, "variant": "bid", "seat": "S", "dealer": "W",
                  "auction": "N 3, E 4"}
# decisions in the play (issue 42): docs/odds.md's lead after winning trick 1, the dealer's
# discard after an order-up, and a bid lead
KNOCK_CARD = {"hand": "AS KS 9H TD", "variant": "knock", "upcard": "QS", "seat": "S",
              "dealer": "W", "auction": "N pass, E pass, S order",
              "played": "N 9C, E TC, S JC, W AC"}
KNOCK_DISCARD = {"hand": "9D KH QH AC KC AD", "variant": "knock", "upcard": "AD", "seat": "W",
                 "dealer": "W", "auction": "N pass, E order"}
BID_CARD = {"hand": BENCH_HAND, "variant": "bid", "seat": "S", "dealer": "W",
            "auction": "N 3, E 4, S 5, W pass", "trump": "H"}
# Questions timed as a player asks them, ``euchre odds ARGS --json`` in a fresh process of
# the checkout measured (so ``--against`` times a revision that has no such figure too):
# name -> (what, the odds arguments). Each is run once with 4 deals first (compiling, and
# building the strategy), then timed; its figures are the answer's own seconds (the play
# check included), the deals it used and the calls racing dropped.
DOUBLE_DECK_HAND = "AH AH KH KH QH JH JH JD TH 9H AS AC"
ODDS_QUESTIONS = {
    "bid_default": ("the default bid question", [BENCH_HAND, "--variant", "bid"]),
    "ghost_default": ("the default ghost question", [BENCH_HAND, "--variant", "ghost"]),
    "double_deck": ("the double-deck bid question", [
        DOUBLE_DECK_HAND, "--variant", "bid", "--double-deck", "--seat", "N", "--dealer", "W"]),
}


def question_figures(root: Path, args: list[str], others: str = "analyzer") -> dict:
    """The figures of ``euchre odds ARGS`` in the checkout at ``root`` (a fresh process, as
    :data:`ODDS_QUESTIONS` says): ``seconds``, ``deals``, ``calls`` and ``dropped``."""
    env = dict(os.environ, PYTHONPATH=str(root))
    env.pop("NUMBA_CACHE_DIR", None)  # each checkout's sources key their own cache
    out = {}
    for extra in (["--deals", "4"], []):
        result = subprocess.run(
            [sys.executable, "-m", "analyzer", "odds", *args, "--others", others, "--json",
             *extra], cwd=root, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            last = (result.stderr.strip().splitlines() or ["no message"])[-1]
            raise RuntimeError(f"odds {' '.join(args)} in {root} failed: {last}")
        out = json.loads(result.stdout)
    options = out["options"]
    dropped = {(o["option"], o["trump"]) for o in options if o.get("dropped_after") is not None}
    return {"seconds": out["seconds"], "deals": out["deals"],
            "calls": len({(o["option"], o["trump"]) for o in options}),
            "dropped": len(dropped)}


RANDOM_HANDS = 4  # random double-deck hands ``euchre bench odds`` times by default
RANDOM_HANDS_SEED = 55  # they are drawn by this seed (issue 55), never chosen
RANDOM_SEATS = {"seat": "N", "dealer": "W"}  # as the issue asked them


def random_double_deck_hands(count: int, seed: int = RANDOM_HANDS_SEED) -> list[str]:
    """``count`` random 12-card double-deck hands (text), drawn by ``seed``."""
    cards = [rank + suit for rank in "9TJQKA" for suit in "CDHS"] * 2
    rng = np.random.default_rng(seed)
    return [" ".join(cards[i] for i in sorted(rng.choice(len(cards), 12, replace=False)))
            for _ in range(count)]


def timed_question(question: dict) -> dict:
    """Ask the odds ``question`` here, watching its progress as the page does: its
    ``seconds`` (the answer's own), ``deals``, whether the run stopped on a clear answer
    (``clear``) and the best two were apart (``separated``), and ``estimate``: the first
    time-left estimate (the page's and the command line's) as a ratio to the seconds that
    were really left then (None when the run ended before it had one)."""
    estimates = []  # (seconds since asked, seconds left) of the first run

    def heard(seconds: float | None) -> None:
        if seconds is not None and not estimates:
            estimates.append((time.perf_counter() - start, seconds))

    start = time.perf_counter()
    with runner.observed(lambda done, total: None, threading.Event(), heard):
        result = odds(**question)
    end = time.perf_counter() - start
    best = result.best
    return {"seconds": result.seconds, "deals": result.deals,
            "clear": result.stopped.startswith("stopped once"),
            "separated": bool(best.get("runner_up") is None or not best["too_close"]),
            "estimate": estimates[0][1] / max(end - estimates[0][0], 1e-3) if estimates
            else None}


def random_hand_figures(hands: int = RANDOM_HANDS, others: str = "analyzer",
                        progress=None) -> dict:
    """The double deck's default bid question (``euchre odds HAND --variant bid
    --double-deck --seat N --dealer W``) on ``hands`` random hands
    (:func:`random_double_deck_hands`), each after one that compiles: the median and
    slowest seconds, the median deals, how many stopped on a clear answer and how many had
    the best two apart, and the first time-left estimate's error (the ratio estimate/truth:
    median, and the worst, the farthest from 1 either way)."""
    ask = {"rules": make_rules("bid", double_deck=True), **RANDOM_SEATS, "others": others}
    odds(DOUBLE_DECK_HAND, **ask, deals=4)  # compile, and build the strategy
    runs = []
    for i, hand in enumerate(random_double_deck_hands(hands)):
        if progress:
            progress(f"random double-deck hand {i + 1} of {hands}")
        runs.append(timed_question({"hand": hand, **ask}))
    seconds = [r["seconds"] for r in runs]
    out = {"hands": hands, "median_s": statistics.median(seconds), "slowest_s": max(seconds),
           "median_deals": statistics.median(r["deals"] for r in runs),
           "clear": sum(r["clear"] for r in runs), "separated": sum(r["separated"] for r in runs)}
    ratios = [r["estimate"] for r in runs if r["estimate"] is not None]
    if ratios:
        out["estimate_median"] = statistics.median(ratios)
        out["estimate_worst"] = max(ratios, key=lambda r: max(r, 1 / r))
    out["runs"] = runs
    return out


def odds_question_figures(root: Path, others: str = "analyzer", progress=None) -> dict:
    """:func:`question_figures` of every question of :data:`ODDS_QUESTIONS`."""
    out = {}
    for name, (what, args) in ODDS_QUESTIONS.items():
        if progress:
            progress(what)
        out[name] = question_figures(root, args, others)
    return out


@dataclass(frozen=True)
class Figure:
    """One printed benchmark figure: its key among the flattened figures, what it measures,
    its unit, the target (None: no target) and whether more is better."""

    key: str
    label: str
    unit: str
    target: float | None = None
    more_is_better: bool = True


DECISION_TARGETS = {"analyzer": 200_000}  # issue 53: the analyzer's card player
DECISIONS_COUNTED = ("cards played from at least two legal cards, knock, one thread, whole "
                     "hands timed (dealt, bid by the point count, played)")
DECISION_HANDS = 2_000  # hands a player's card decisions are counted on
DECISION_SECONDS = 1.0  # what a card player's timing takes at least
DECISION_BATCH = 16_384  # hands a timed call plays at most (their records stay small)


# issue 55: the knock solver at ten times the best public numba solver on one thread
ONE_THREAD_TARGETS = {"knock": 200_000}
FIGURES = {
    "solve": [
        *(f for c in solve_configs() if not c.rules.double_deck
          for f in (Figure(f"{c.name}.solves_per_s", f"{c.name} solves, all threads", "/s",
                           c.target),
                    Figure(f"{c.name}.solves_per_s_1thread", f"{c.name} solves, 1 thread",
                           "/s", ONE_THREAD_TARGETS.get(c.name)),
                    Figure(f"{c.name}.mean_nodes", f"{c.name} nodes a solve", "", None,
                           False))),
        Figure("double_deck.median_ms", "double deck 4×12: median solve", "ms", 50, False),
        Figure("double_deck.max_ms", "double deck 4×12: slowest solve", "ms", 2000, False),
        Figure("double_deck.mean_nodes", "double deck 4×12: nodes a solve", "", None, False),
        Figure("double_deck_unseen.median_ms", "double deck, other random deals: median", "ms",
               50, False),
        Figure("double_deck_unseen.max_ms", "double deck, other random deals: slowest", "ms",
               2000, False),
        Figure("single_calls.batch_us", "knock, one solve in a batch (1 thread)", "µs", None,
               False),
        Figure("single_calls.solver_overhead_us", "knock, a Solver.solve call over that", "µs",
               5, False),
        Figure("single_calls.solve_deal_ratio", "knock, a solve_deal call ÷ a batch solve",
               "×", 1.3, False),
        Figure("single_calls.values_us", "knock, a Solver.values call (every lead valued)",
               "µs", None, False),
        Figure("single_calls.solve_deal_python_us",
               "knock, a solve_deal call over a Solver.solve call", "µs", None, False),
        Figure("single_calls.solve_deal_leads_us",
               "knock, a solve_deal call with every lead's value read", "µs", None, False),
        Figure("cold_start_s", "a fresh process, empty numba cache, one solve", "s", None,
               False),
    ],
    "odds": [
        Figure("bid_default.seconds", "bid, the default question (stops when clear)", "s", 1,
               False),
        Figure("bid_default.deals", "... the deals it used", "", None, False),
        Figure("ghost_default.seconds", "ghost, the default question", "s", 1, False),
        Figure("ghost_default.deals", "... the deals it used", "", None, False),
        Figure("double_deck.seconds", "double-deck bid question, default (issue 44)", "s", 30,
               False),
        Figure("double_deck.deals", "... the deals it used", "", None, False),
        Figure("double_deck.dropped", "... calls racing dropped, of 56", "", None),
        Figure("double_deck_random.median_s", "double deck, default, random hands: median",
               "s", 10, False),
        Figure("double_deck_random.slowest_s", "... the slowest", "s", 10, False),
        Figure("double_deck_random.median_deals", "... the median deals", "", None, False),
        Figure("double_deck_random.clear", "... hands stopped on a clear answer", "", None),
        Figure("double_deck_random.separated", "... hands with the best two apart", "", None),
        Figure("double_deck_random.estimate_median",
               "... first time-left estimate ÷ the truth: median", "×", None, False),
        Figure("double_deck_random.estimate_worst", "... the farthest from 1", "×", None,
               False),
        Figure("default_bid_s", "bid, the default query at 10,000 deals", "s", 2, False),
        Figure("all_options_s", "bid, 100,000 deals, every option in every trump", "s", 8,
               False),
        Figure("trick_distribution_s", "bid, 100,000 deals, bid 3 only", "s", None, False),
        Figure("knock_point_s", "knock decision point (10,000 deals)", "s", 5, False),
        Figure("bid_heard_s", "bid after two calls heard (10,000 deals)", "s", 30, False),
        Figure("knock_card_s", "knock card at trick 2 (2,000 deals)", "s", 0.3, False),
        Figure("knock_discard_s", "knock dealer's discard (10,000 deals)", "s", 0.3, False),
        Figure("bid_card_s", "bid lead after the auction (10,000 deals)", "s", 1.5, False),
        Figure("exact_estimated_s", "exact mode, one bid hand and trump (extrapolated)", "s",
               300, False),
        Figure("peak_memory_mb", "peak memory", "MB", None, False),
    ],
    "play": [
        Figure("heuristic_bid_hands_per_s", "heuristic whole hands, bid", "/s", 2_000_000),
        Figure("heuristic_knock_hands_per_s", "heuristic whole hands, knock", "/s",
               2_000_000),
        Figure("pimc20_bid_hands_per_s", "PIMC-20 whole hands, bid", "/s", 1000),
        Figure("pimc20_knock_hands_per_s", "PIMC-20 whole hands, knock", "/s", 1000),
        Figure("bid_10000_games_s", "10,000-game bid match, heuristic play", "s", None, False),
        *(Figure(f"decisions_per_s.{name}", f"{name} card decisions, 1 thread, knock", "/s",
                 DECISION_TARGETS.get(name)) for name in MATCH_PLAYERS),
    ],
}


def met(figure: Figure, value: float) -> bool | None:
    """Whether ``value`` meets the figure's target (None when it has none)."""
    if figure.target is None:
        return None
    return value >= figure.target if figure.more_is_better else value <= figure.target


def _timed(**question) -> float:
    start = time.perf_counter()
    odds(**question)
    return time.perf_counter() - start


def bench_odds(deals: int = 100_000, others: str = "analyzer", progress=None,
               hands: int = RANDOM_HANDS) -> dict:
    """The odds engine's figures (seconds): the default
    bid query (10,000 deals, first to speak); a bid hand with ``deals`` deals, every option
    in every trump, and the trick distribution of bid 3 alone; a knock decision point and a
    bid point after two calls heard (10,000 deals, inference on); a knock card at trick 2
    (2,000 deals), a knock dealer's discard and a bid lead (10,000 deals); exact mode for one
    hand and trump, extrapolated from timing 4,096 layouts; the peak memory; and the
    questions of ``ODDS_QUESTIONS`` as a player asks them (the default bid and ghost
    questions, the double-deck bid question: seconds, deals used, calls dropped); the
    double deck's default question on ``hands`` random hands (:func:`random_hand_figures`).
    Later calls by ``others``. Their targets are in ``FIGURES``."""
    import resource

    out = {"hand": BENCH_HAND, "deals": deals, "threads": max_threads(), "others": others}
    for q in ({"hand": BENCH_HAND, "variant": "bid"}, KNOCK_QUESTION, HEARD_QUESTION,
              KNOCK_CARD, KNOCK_DISCARD, BID_CARD):
        odds(**q, deals=200, seed=1, others=others)  # compile, and build the strategy
    steps = [("default_bid_s", "the default bid query", {"hand": BENCH_HAND, "variant": "bid",
                                                           "deals": 10_000}),
             ("all_options_s", "every option, all trumps", {"hand": BENCH_HAND,
                                                             "variant": "bid", "deals": deals}),
             ("trick_distribution_s", "bid 3 only, all trumps",
              {"hand": BENCH_HAND, "variant": "bid", "deals": deals, "bid": "3"}),
             ("knock_point_s", "a knock decision point", {**KNOCK_QUESTION, "deals": 10_000}),
             ("bid_heard_s", "a bid point after two calls", {**HEARD_QUESTION,
                                                             "deals": 10_000}),
             ("knock_card_s", "a knock card", {**KNOCK_CARD, "deals": 2_000}),
             ("knock_discard_s", "a knock discard", {**KNOCK_DISCARD, "deals": 10_000}),
             ("bid_card_s", "a bid card", {**BID_CARD, "deals": 10_000})]
    for key, what, question in steps:
        if progress:
            progress(what)
        out[key] = _timed(**question, seed=1, others=others)
    if progress:
        progress("exact mode sample")
    rules = make_rules("bid")
    point = decision_point(rules, BENCH_HAND, "N", None, None, None)
    policies, params = others_policies(others, "dd", rules)
    d = prepare(point, True, True, trumps=[2], bids={3})  # bid 3 in hearts
    d.query.policies, d.query.params = policies, params
    out["exact_layouts"], out["exact_estimated_s"] = exact_estimate(d, 1, 4096)
    out["peak_memory_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.update(odds_question_figures(Path(__file__).resolve().parent.parent, others, progress))
    out["double_deck_random"] = random_hand_figures(hands, others, progress)
    return out


def bench_play(progress=None) -> dict:
    """Play-engine targets: heuristic hands per second (whole games, every seat heuristic),
    PIMC hands per second with 20 worlds (every seat PIMC), a 10,000-game Bid Euchre
    match with heuristic play, and each card player's decisions a second on one thread
    (``decisions_per_s``: :func:`bench_decisions`)."""

    out = {"threads": max_threads()}
    for variant in PLAY_VARIANTS:
        rules = make_rules(variant)
        if progress:
            progress(f"heuristic {variant}")
        simulate(rules, 200, seed=1)
        start = time.perf_counter()
        result = simulate(rules, 200_000, seed=1)
        seconds = time.perf_counter() - start
        out[f"heuristic_{variant}_hands_per_s"] = result.hands / seconds
        if progress:
            progress(f"pimc {variant}")
        play_hands(rules, 4, seed=1, strategy="points", play="pimc", worlds=20)
        start = time.perf_counter()
        play_hands(rules, 400, seed=2, strategy="points", play="pimc", worlds=20)
        out[f"pimc20_{variant}_hands_per_s"] = 400 / (time.perf_counter() - start)
    if progress:
        progress("10,000-game bid match")
    start = time.perf_counter()
    simulate(make_rules("bid"), 10_000, "points", "points", seed=3)
    out["bid_10000_games_s"] = time.perf_counter() - start
    out["decisions_per_s"] = bench_decisions(progress)
    out["decisions_counted"] = DECISIONS_COUNTED
    return out


def bench_decisions(progress=None) -> dict:
    """Card decisions a second of each card player of ``euchre match`` (``MATCH_PLAYERS``)
    on one thread, in knock: every seat plays by it (pimc with the match's worlds, advise by
    its default question), bidding by the point count. A decision is a card played from at
    least two legal cards (a lone legal card is played without asking by every player); the
    time is whole hands' (dealt, bid and played: what a rollout pays a decision). Returns
    ``{player: decisions a second}``."""
    rules = make_rules("knock")
    before = num_threads()
    out = {}
    try:
        set_threads(1)
        for name in MATCH_PLAYERS:
            if progress:
                progress(f"{name} card decisions")
            out[name] = _advised_decisions(rules) if name == ADVISED else \
                _card_decisions(rules, name)
    finally:
        set_threads(before)
    return out


def _card_decisions(rules: Rules, name: str) -> float:
    """Card decisions a second of the kernels' play policy ``name`` (see
    :func:`bench_decisions`): hands in batches doubling to ``DECISION_BATCH`` until
    ``DECISION_SECONDS`` have passed, the decisions counted on the first ``DECISION_HANDS``
    and scaled to every hand timed."""
    policies, params = seat_policies("points", name, MATCH_WORLDS, rules)
    engine.play_hands(rules, 4, policies, params, seed=1)  # compiled, not timed
    hands = counted = choices = 0
    seconds, n = 0.0, 16
    while seconds < DECISION_SECONDS:
        start = time.perf_counter()
        masks, recs = engine.play_hands(rules, n, policies, params, 2, hands)
        seconds += time.perf_counter() - start
        for i in range(min(n, DECISION_HANDS - counted)):
            choices += card_choices(rules, masks[i], recs[i])
            counted += 1
        hands += n
        n = min(2 * n, DECISION_BATCH)
    return choices / counted * hands / seconds


def _advised_decisions(rules: Rules) -> float:
    """Card decisions a second of the advise player (see :func:`bench_decisions`): every
    seat asks the card question (by dd on its default deals) in one duplicate pair, after
    one that loads the kernels; each question is one decision."""
    settings = MatchSettings(bidding="points")
    match(rules, ADVISED, ADVISED, 1, 1, settings, workers=1)  # compiled, not timed
    figures = match(rules, ADVISED, ADVISED, 1, 2, settings, workers=1).played.figures()
    return figures["questions"] / figures["seconds"]


CLUSTER_QUERY = {"hand": "AH JH KD QD JD", "variant": "knock", "upcard": "9H", "seat": "E",
                 "dealer": "N"}


def bench_cluster(deals: int = 1_000_000, workers: int = 2, progress=None) -> dict:
    """Scheduler overhead: the same ``deals``-deal knock query (double dummy, every option)
    run embedded (this process, every core) and on a ``local:workers`` Dask cluster, with
    the cluster's start-up timed apart; the median of ``repeats`` runs each, alternating."""

    out = {"query": " ".join(CLUSTER_QUERY.values()), "deals": deals, "workers": workers,
           "cores": max_threads()}
    odds(**CLUSTER_QUERY, deals=4_000, seed=1)  # warm the kernels here
    embedded, clustered = [], []
    results = {}
    start = time.perf_counter()
    with scheduler(f"local:{workers}"):
        out["cluster_start_s"] = time.perf_counter() - start
        for repeat in range(3):
            for where in ("embedded", "cluster"):
                if progress:
                    progress(f"{where}, run {repeat + 1} of 3")
                backend = runner.current_backend()
                if where == "embedded":
                    runner.set_backend(None)
                try:
                    t = time.perf_counter()
                    r = odds(**CLUSTER_QUERY, deals=deals, seed=1)
                    (embedded if where == "embedded" else clustered).append(
                        time.perf_counter() - t)
                finally:
                    runner.set_backend(backend)
                results[where] = r.options
    out["embedded_s"] = statistics.median(embedded)
    out["cluster_s"] = statistics.median(clustered)
    out["embedded_deals_per_s"] = deals / out["embedded_s"]
    out["cluster_deals_per_s"] = deals / out["cluster_s"]
    out["throughput_ratio"] = out["embedded_s"] / out["cluster_s"]
    out["identical"] = bool(results["embedded"].equals(results["cluster"]))
    return out
