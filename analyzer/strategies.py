"""Named strategies: who bids how (decision policy) and who plays how (play policy), with
their parameters. The kernels see integer ids (``kernels.policies``) and a parameter row per
seat (``kernels.bidding.PR_*``)."""

from __future__ import annotations

import numpy as np

from kernels import policies as P
from kernels.bidding import DEFAULT_PARAMS, N_PARAMS, PR_PIMC_WORLDS

from .errors import UserError

DECISIONS = {
    "random": P.D_RANDOM,
    "points": P.D_POINTS,
    "analyzer": P.D_ANALYZER,
}
DECISION_HELP = {
    "random": "every decision uniformly at random among the legal ones",
    "points": "point-count thresholds: right bower 3, left 2.5, trump A 2, K 1.5, Q 1.25, "
              "other trumps 1, side aces 1, voids 0.5",
    "analyzer": "the option with the best expected net points in the analyzer's own tables "
                "(by point count; in knock and cutthroat by seat and upcard too)",
}
PLAYS = {
    "random": P.P_RANDOM,
    "heuristic": P.P_HEURISTIC,
    "dd": P.P_DD,
    "pimc": P.P_PIMC,
}
PLAY_HELP = {
    "random": "a uniformly random legal card",
    "heuristic": "rules of thumb (lead trump as maker, cash winners, second hand low, third "
                 "hand high, trump in when partner is not winning, discard the lowest loser)",
    "dd": "double dummy: sees every card (an upper bound on skill)",
    "pimc": "perfect-information Monte Carlo: samples the unseen cards from what it has seen",
}
DEFAULT_WORLDS = 20


def decision_id(name: str) -> int:
    """The kernel id of a decision policy; UserError naming the choices."""
    key = name.lower()
    if key not in DECISIONS:
        raise UserError(f"unknown strategy {name!r}: choose one of {', '.join(DECISIONS)}")
    return DECISIONS[key]


def play_id(name: str) -> int:
    """The kernel id of a play policy; UserError naming the choices."""
    key = name.lower()
    if key not in PLAYS:
        raise UserError(f"unknown play policy {name!r}: choose one of {', '.join(PLAYS)}")
    return PLAYS[key]


def seat_policies(decide: list[str] | str, play: list[str] | str,
                  worlds: int = DEFAULT_WORLDS, rules=None) -> tuple[np.ndarray, np.ndarray]:
    """``(policies[4, 2], params[4, N_PARAMS])`` for the four seats from strategy and play
    names (one name for every seat, or a list of four). The ``analyzer`` strategy needs the
    ``rules`` (its table is built for them, with each seat's play method)."""
    decide = [decide] * 4 if isinstance(decide, str) else list(decide)
    play = [play] * 4 if isinstance(play, str) else list(play)
    policies = np.array([[decision_id(d), play_id(p)] for d, p in zip(decide, play, strict=True)],
                        dtype=np.int64)
    if not 1 <= worlds <= 10_000:
        raise UserError("--worlds must be between 1 and 10,000")
    params = np.tile(np.asarray(DEFAULT_PARAMS, dtype=np.float64)[:N_PARAMS], (4, 1))
    params[:, PR_PIMC_WORLDS] = worlds
    for seat in range(4):
        if policies[seat, 0] == P.D_ANALYZER:
            if rules is None:
                raise UserError("the analyzer strategy needs the rules it bids under")
            from .analyzer_bidder import analyzer_table, fill_params

            method = "dd" if play[seat].lower() in ("dd", "pimc") else "heuristic"
            grid, swap = analyzer_table(rules, method)
            fill_params(params[seat], grid, swap)
    return policies, params
