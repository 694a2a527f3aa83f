"""Full-game simulation: two strategies play whole games to the target on the same deals
(duplicate sets, seats swapped), and ``simulate`` reports win rates with intervals, points per
hand, and how often each contract was declared and made by each side."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from kernels.cards import codes as K
from kernels.slots import TALLY

from ...compute.engine import Match, games_per_set, play_game_chunk, uses_solver
from ...compute.runner import run_chunks, using_threads
from ...compute.seeds import check_seed
from ...errors import UserError
from ...game.variants import LADDER, Rules
from ...stats import wilson
from ...strategy.defaults import DEFAULT_PLAY
from ...strategy.named import DEFAULT_WORLDS
from ...strategy.seats import seat_policies
from ..equity.to_score import scored_match
from .rollout import BASE, play_rollout_games, rollout_deals, rollout_for


@dataclass
class SimResult:
    """A match: who played, how many games, A's win rate with its 95% interval (the fair
    share is 1/2 with four players, 1/3 with three), points per hand, the contracts each
    side declared (``decisions``: side, contract, declared, made and marched with rates, net
    points a hand, alone or not) and each side's lone hands (``lone_hands``: see
    :func:`lone_summary`)."""

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
    lone_hands: dict
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
                "decisions": self.decisions.to_dict(orient="records"),
                "lone_hands": self.lone_hands}


def contract_label(rules: Rules, code: int) -> str:
    """Words for a contract code of ``kernels.drivers.games.contract_code``."""
    if rules.auction == LADDER:
        return rules.bid_name(code)
    words = ["named in round 2" if code & 4 else "ordered up"]
    if code & K.CT_MAKER_ALONE:
        words.append("alone")
    if code & K.CT_DEFENDER_ALONE:
        words.append("against a lone defender")
    return ", ".join(words)


def simulate(rules: Rules, games: int, strategy: str = "points", vs: str = "points",
             play: str = DEFAULT_PLAY, vs_play: str | None = None, seed: int = 0,
             worlds: int = DEFAULT_WORLDS, workers: int | None = None,
             progress: bool = False, chunk: int | None = None) -> SimResult:
    """Play ``games`` games between strategy A (``strategy``/``play``) and B (``vs``/
    ``vs_play``) on the same deals; see :class:`SimResult`."""
    check_seed(seed)
    if games < 1:
        raise UserError("--games must be at least 1")
    vs_play = vs_play or play
    start = time.perf_counter()
    rolls = (rollout_deals(strategy), rollout_deals(vs))
    if all(rolls):
        raise UserError("only one side can bid by rollout (it is measured against a table "
                        "strategy)")
    pa, ra = seat_policies(BASE if rolls[0] else strategy, play, worlds, rules)
    pb, rb = seat_policies(BASE if rolls[1] else vs, vs_play, worlds, rules)
    match = scored_match(rules, Match(np.stack([pa[0], pb[0]]), np.stack([ra[0], rb[0]])))
    copies = games_per_set(rules)
    games = -(-games // copies) * copies  # whole duplicate sets
    if any(rolls):
        side = 0 if rolls[0] else 1
        roll = rollout_for(rules, rolls[side], (play, vs_play)[side])

        def work(first, n):
            return play_rollout_games(rules, match, side, roll, seed, first, n)
        chunk = chunk or copies
    else:
        def work(first, n):
            return play_game_chunk(rules, match, seed, first, n)
        chunk = chunk or copies * (4 if uses_solver(match.policies) else 512)
    with using_threads(workers):
        totals = run_chunks(games, work, chunk=chunk, progress=progress, label="playing")
    if not totals.counts:
        raise UserError("interrupted before the first games were played")
    c = totals.counts
    hands = int(c["hands"])
    decisions = _decisions(rules, c)
    return SimResult(
        rules=rules, strategy=strategy, vs=vs, play=play, vs_play=vs_play, seed=seed,
        games=totals.done, win_rate=wilson(int(c["wins"]), totals.done),
        fair_share=1 / copies,
        points_per_hand={"A": int(c["points_a"]) / hands, "B": int(c["points_b"]) / hands},
        hands=hands, redeals=int(c["redeals"]), seconds=time.perf_counter() - start,
        decisions=decisions, lone_hands=lone_summary(decisions, hands),
        interrupted=totals.interrupted)


def _decisions(rules: Rules, c: dict) -> pd.DataFrame:
    """Per side and contract: how often it was declared (and per 100 hands), made and
    marched (with 95% intervals), the net points a hand to the declaring side, and whether
    the declarer played alone."""
    hands = int(c["hands"])
    tally = c["tally"]
    rows = []
    for side, name in ((0, "A"), (1, "B")):
        for code in np.nonzero(tally[side, :, TALLY.DECLARED])[0]:
            row = tally[side, code]
            d = int(row[TALLY.DECLARED])
            p, lo, hi = wilson(int(row[TALLY.MADE]), d)
            q, qlo, qhi = wilson(int(row[TALLY.MARCHED]), d)
            rows.append({"side": name, "contract": contract_label(rules, int(code)),
                         "declared": d, "per_100_hands": 100 * d / hands,
                         "made": int(row[TALLY.MADE]), "made_rate": p, "made_rate_low": lo,
                         "made_rate_high": hi, "marched": int(row[TALLY.MARCHED]),
                         "march_rate": q, "march_rate_low": qlo, "march_rate_high": qhi,
                         "net_points_per_hand": int(row[TALLY.NET]) / d,
                         "alone": bool(row[TALLY.ALONE] == d)})
    return pd.DataFrame(rows)


def lone_summary(decisions: pd.DataFrame, hands: int) -> dict:
    """Each side's lone hands (the contracts its declarer played alone) from ``decisions``:
    ``{side: {"declared", "per_100_hands", "march_rate", "march_rate_low",
    "march_rate_high", "made_rate", "net_points_per_hand"}}``; sides that never went alone
    are left out."""
    out = {}
    if not len(decisions):
        return out
    for side, rows in decisions[decisions["alone"]].groupby("side"):
        d = int(rows["declared"].sum())
        p, lo, hi = wilson(int(rows["marched"].sum()), d)
        out[side] = {"declared": d, "per_100_hands": 100 * d / hands, "march_rate": p,
                     "march_rate_low": lo, "march_rate_high": hi,
                     "made_rate": int(rows["made"].sum()) / d,
                     "net_points_per_hand": float((rows["net_points_per_hand"] *
                                                   rows["declared"]).sum() / d)}
    return out
