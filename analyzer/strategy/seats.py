"""The policy rows of the four seats from strategy names, the ``analyzer`` strategy's table
included."""

from __future__ import annotations

import numpy as np

from kernels import policies as P

from ..game.variants import Rules
from .analyzer import analyzer_table, fill_params
from .named import DEFAULT_WORLDS, policy_rows


def seat_policies(decide: list[str] | str, play: list[str] | str,
                  worlds: int = DEFAULT_WORLDS, rules: Rules | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``(policies[4, 2], params[4, N_PARAMS])`` for the four seats from strategy and play
    names (one name for every seat, or a list of four). The ``analyzer`` strategy needs the
    ``rules`` (its table is built for them, with each seat's play method)."""
    policies, params = policy_rows(decide, play, worlds)
    plays = [play] * 4 if isinstance(play, str) else list(play)
    for seat in range(4):
        if policies[seat, 0] == P.D_ANALYZER:
            if rules is None:
                raise ValueError("the analyzer strategy needs the rules it bids under")
            method = "dd" if plays[seat].lower() in ("dd", "pimc") else "heuristic"
            grid, swap = analyzer_table(rules, method)
            fill_params(params[seat], grid, swap)
    return policies, params
