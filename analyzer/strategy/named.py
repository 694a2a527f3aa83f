"""Named strategies: who bids how (decision policy) and who plays how (play policy), with
their parameters. The kernels see integer ids (``kernels.hand.policies``) and a parameter row per
seat (slots ``kernels.slots.PR``)."""

from __future__ import annotations

import numpy as np

from kernels.bidding.bidding import DEFAULT_PARAMS, N_PARAMS, PR
from kernels.hand import policies as P

from ..errors import UserError
from .defaults import DECISION_NAMES, DEFAULT_WORLDS, METHODS, PLAY_NAMES  # noqa: F401

# "table" is the analyzer without its fitted model of the upcard auction (analyzer.strategy.fitted);
# "analyzer-points" the analyzer that never plays to the score (analyzer.strategy.score_lens)
DECISIONS = dict(zip(DECISION_NAMES, (P.D_RANDOM, P.D_POINTS, P.D_ANALYZER, P.D_ANALYZER,
                                      P.D_ANALYZER), strict=True))
PLAYS = dict(zip(PLAY_NAMES, (P.P_RANDOM, P.P_HEURISTIC, P.P_DD, P.P_PIMC, P.P_ANALYZER),
                 strict=True))


def decision_id(name: str) -> int:
    """The kernel id of a decision policy (a strategy file, ``*.toml``, is a point count
    with its own parameters); UserError naming the choices."""
    key = name.lower()
    if key.endswith(".toml"):
        return P.D_POINTS
    if key not in DECISIONS:
        raise UserError(f"unknown strategy {name!r}: choose one of {', '.join(DECISIONS)} "
                        "or a strategy file (*.toml)")
    return DECISIONS[key]


def play_id(name: str) -> int:
    """The kernel id of a play policy; UserError naming the choices."""
    key = name.lower()
    if key not in PLAYS:
        raise UserError(f"unknown play policy {name!r}: choose one of {', '.join(PLAYS)}")
    return PLAYS[key]


def policy_rows(decide: list[str] | str, play: list[str] | str,
                worlds: int = DEFAULT_WORLDS) -> tuple[np.ndarray, np.ndarray]:
    """``(policies[4, 2], params[4, N_PARAMS])`` for the four seats from strategy and play
    names (one name for every seat, or a list of four), with the default parameters; the
    ``analyzer`` strategy's table is filled in by ``analyzer.strategy.seats``."""
    decide = [decide] * 4 if isinstance(decide, str) else list(decide)
    play = [play] * 4 if isinstance(play, str) else list(play)
    policies = np.array([[decision_id(d), play_id(p)] for d, p in zip(decide, play, strict=True)],
                        dtype=np.int64)
    if not 1 <= worlds <= 10_000:
        raise UserError("--worlds must be between 1 and 10,000")
    params = np.tile(np.asarray(DEFAULT_PARAMS, dtype=np.float64)[:N_PARAMS], (4, 1))
    params[:, PR.WORLDS] = worlds
    return policies, params
