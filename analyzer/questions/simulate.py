"""Full-game simulation: two strategies play whole games to the target on the same deals
(duplicate sets, seats swapped), and ``simulate`` reports win rates with intervals, points per
hand, and how often each contract was declared and made by each side."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from kernels import codes as K

from ..compute.engine import Match, check_seed, games_per_set, play_game_chunk, uses_solver
from ..compute.runner import run_chunks, using_threads
from ..errors import UserError
from ..game.variants import LADDER, Rules
from ..stats import wilson
from ..strategy.named import DEFAULT_WORLDS
from ..strategy.seats import seat_policies


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
    if rules.auction == LADDER:
        return rules.bid_name(code)
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
    start = time.perf_counter()
    pa, ra = seat_policies(strategy, play, worlds, rules)
    pb, rb = seat_policies(vs, vs_play, worlds, rules)
    match = Match(np.stack([pa[0], pb[0]]), np.stack([ra[0], rb[0]]))
    copies = games_per_set(rules)
    games = -(-games // copies) * copies  # whole duplicate sets
    chunk = chunk or copies * (4 if uses_solver(match.policies) else 512)
    with using_threads(workers):
        totals = run_chunks(games, lambda first, n: play_game_chunk(rules, match, seed, first,
                                                                    n),
                            chunk=chunk, progress=progress, label="playing")
    if not totals.counts:
        raise UserError("interrupted before the first games were played")
    c = totals.counts
    hands = int(c["hands"])
    return SimResult(
        rules=rules, strategy=strategy, vs=vs, play=play, vs_play=vs_play, seed=seed,
        games=totals.done, win_rate=wilson(int(c["wins"]), totals.done),
        fair_share=1 / copies,
        points_per_hand={"A": int(c["points_a"]) / hands, "B": int(c["points_b"]) / hands},
        hands=hands, redeals=int(c["redeals"]), seconds=time.perf_counter() - start,
        decisions=_decisions(rules, c), interrupted=totals.interrupted)


def _decisions(rules: Rules, c: dict) -> pd.DataFrame:
    """How often each side declared and made each contract."""
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
    return pd.DataFrame(rows)


