"""Full-game simulation: two strategies play whole games to the target on the same deals
(duplicate sets, seats swapped), and ``simulate`` reports win rates with intervals, points per
hand, and how often each contract was declared and made by each side."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from kernels import rules as K
from kernels.games import G_HANDS, G_POINTS_A, G_POINTS_B, G_REDEALS, G_WINNER_IS_A, play_games
from kernels.threads import max_threads, num_threads, set_threads

from .errors import UserError
from .hands import check_seed
from .runner import run_chunks
from .solve import table_bits
from .stats import mean_interval, wilson
from .strategies import DEFAULT_WORLDS, P, seat_policies
from .variants import Rules


@dataclass
class SimResult:
    """A match: who played, how many games, A's win rate with its 95% interval (the fair
    share is 1/2 with four players, 1/3 with three), points per hand, and the contracts each
    side declared (``decisions``: side, contract, declared, made, rate)."""

    rules: Rules
    strategy: str
    vs: str
    play: str
    vs_play: str
    seed: int
    games: int
    win_rate: tuple
    fair_share: float
    points_per_hand: dict
    hands: int
    redeals: int
    seconds: float
    decisions: pd.DataFrame
    interrupted: bool = False

    def to_dict(self) -> dict:
        """A JSON-ready dict (``euchre simulate --json``)."""
        return {"variant": self.rules.variant, "rules": self.rules.options,
                "strategy": self.strategy, "vs": self.vs, "play": self.play,
                "vs_play": self.vs_play, "seed": self.seed, "games": self.games,
                "win_rate": self.win_rate[0], "win_rate_low": self.win_rate[1],
                "win_rate_high": self.win_rate[2], "fair_share": self.fair_share,
                "points_per_hand": self.points_per_hand, "hands": self.hands,
                "redeals": self.redeals, "seconds": self.seconds,
                "interrupted": self.interrupted,
                "decisions": self.decisions.to_dict(orient="records")}


def contract_label(rules: Rules, code: int) -> str:
    """Words for a contract code of ``kernels.games.contract_code``."""
    n = rules.hand_size
    if rules.variant in ("bid", "ghost"):
        return {K.ASK: f"{n}-ask", K.MOON: "moon"}.get(code, f"bid {code}")
    words = ["named in round 2" if code & 4 else "ordered up"]
    if code & K.CT_MAKER_ALONE:
        words.append("alone")
    if code & K.CT_DEFENDER_ALONE:
        words.append("against a lone defender")
    return ", ".join(words)


def simulate(rules: Rules, games: int, strategy: str = "points", vs: str = "points",
             play: str = "heuristic", vs_play: str | None = None, seed: int = 0,
             worlds: int = DEFAULT_WORLDS, workers: int | None = None,
             progress: bool = False, chunk: int | None = None) -> SimResult:
    """Play ``games`` games between strategy A (``strategy``/``play``) and B (``vs``/
    ``vs_play``) on the same deals; see :class:`SimResult`."""
    check_seed(seed)
    if games < 1:
        raise UserError("--games must be at least 1")
    vs_play = vs_play or play
    pa, ra = seat_policies(strategy, play, worlds, rules)
    pb, rb = seat_policies(vs, vs_play, worlds, rules)
    policies = np.stack([pa[0], pb[0]])
    params = np.stack([ra[0], rb[0]])
    copies = 2 if rules.players == 4 else 3
    games = -(-games // copies) * copies  # whole duplicate sets
    to_norm, from_norm = rules.layout
    solving = bool(np.isin(policies[:, 1], (P.P_DD, P.P_PIMC)).any())
    win_by = 2 if rules.win_by_two else 1
    cfg = rules.config()
    if chunk is None:
        chunk = copies * (4 if solving else 512)

    def work(first: int, n: int) -> dict:
        results, decls, makes = play_games(
            cfg, rules.points_table, to_norm, from_norm, policies, params, np.int64(seed),
            np.int64(first), np.int64(n), np.int64(rules.target), np.int64(win_by),
            np.int64(rules.hand_size), table_bits(rules) if solving else 1, num_threads())
        return {"wins": np.int64(results[:, G_WINNER_IS_A].sum()),
                "hands": np.int64(results[:, G_HANDS].sum()),
                "redeals": np.int64(results[:, G_REDEALS].sum()),
                "points_a": np.int64(results[:, G_POINTS_A].sum()),
                "points_b": np.int64(results[:, G_POINTS_B].sum()),
                "declared": decls.sum(axis=0), "made": makes.sum(axis=0)}

    before = num_threads()
    if workers is not None:
        if not 1 <= workers <= max_threads():
            raise UserError(f"--workers must be between 1 and {max_threads()}")
        set_threads(workers)
    start = time.perf_counter()
    try:
        totals = run_chunks(games, work, chunk=chunk, progress=progress, label="playing")
    finally:
        set_threads(before)
    c = totals.counts
    if not c:
        raise UserError("interrupted before the first games were played")
    played = totals.done
    hands = int(c["hands"])
    rows = []
    for side, name in ((0, "A"), (1, "B")):
        for code in np.nonzero(c["declared"][side])[0]:
            d = int(c["declared"][side, code])
            m = int(c["made"][side, code])
            p, lo, hi = wilson(m, d)
            rows.append({"side": name, "contract": contract_label(rules, int(code)),
                         "declared": d, "per_100_hands": 100 * d / hands, "made": m,
                         "made_rate": p, "made_rate_low": lo, "made_rate_high": hi})
    return SimResult(
        rules=rules, strategy=strategy, vs=vs, play=play, vs_play=vs_play, seed=seed,
        games=played, win_rate=wilson(int(c["wins"]), played),
        fair_share=0.5 if rules.players == 4 else 1 / 3,
        points_per_hand={"A": int(c["points_a"]) / hands, "B": int(c["points_b"]) / hands},
        hands=hands, redeals=int(c["redeals"]), seconds=time.perf_counter() - start,
        decisions=pd.DataFrame(rows), interrupted=totals.interrupted)


__all__ = ["SimResult", "simulate", "mean_interval"]
