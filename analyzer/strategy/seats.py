"""The policy rows of the four seats from strategy names, the ``analyzer`` strategy's table
included."""

from __future__ import annotations

import numpy as np

from kernels.hand import policies as P
from kernels.slots import PR

from ..game.variants import Rules
from .best_response import analyzer_table, fill_params
from .card_player import card_network, fill_network
from .defaults import DEFAULT_STRATEGY, SCORE_BLIND
from .fitted import fill_model, fitted_model, has_model
from .named import DEFAULT_WORLDS, policy_rows
from .score_lens import plays_to_score
from .toml_files import is_strategy_file, load_strategy


def seat_policies(decide: list[str] | str, play: list[str] | str,
                  worlds: int = DEFAULT_WORLDS, rules: Rules | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``(policies[4, 2], params[4, N_PARAMS])`` for the four seats from strategy and play
    names (one name for every seat, or a list of four). The ``analyzer`` strategy needs the
    ``rules`` (its table is built for them, with heuristic play whatever the seat plays:
    the table prices calls, and heuristic play builds it in seconds; where the rules have a
    fitted model, ``fitted.has_model``, the model prices them, ``table`` keeps the table's
    cells; ``analyzer`` plays to the score where the rules let it, ``score.plays_to_score``,
    once told the score, ``analyzer-points`` never); so does a strategy
    file (``*.toml``: its values may differ by variant)."""
    policies, params = policy_rows(decide, play, worlds)
    names = [decide] * 4 if isinstance(decide, str) else list(decide)
    grid = model = network = None  # read from disk once, whatever the seats that use them
    for seat in range(4):
        if is_strategy_file(names[seat]):
            if rules is None:
                raise ValueError("a strategy file needs the rules it bids under")
            params[seat] = load_strategy(names[seat], rules.variant).params_row(worlds)
        elif policies[seat, 0] == P.D_ANALYZER:
            if rules is None:
                raise ValueError("the analyzer strategy needs the rules it bids under")
            if grid is None:
                grid = analyzer_table(rules).grid
            fill_params(params[seat], grid)
            if names[seat].lower() in (DEFAULT_STRATEGY, SCORE_BLIND) and has_model(rules):
                if model is None:
                    model = fitted_model(rules)
                fill_model(params[seat], model)
            if names[seat].lower() == DEFAULT_STRATEGY and plays_to_score(rules):
                params[seat, PR.TO_SCORE] = 1.0  # the lens comes with the score (set_score)
        if policies[seat, 1] == P.P_ANALYZER:
            if rules is None:
                raise ValueError("the analyzer card player needs the rules it plays under")
            if network is None:
                network = card_network(rules, lambda r: seat_policies("analyzer", "heuristic",
                                                                      rules=r))
            fill_network(params[seat], network)
    return policies, params


def others_policies(strategy: str, method: str, rules: Rules,
                    worlds: int = DEFAULT_WORLDS) -> tuple[np.ndarray, np.ndarray]:
    """Every seat bids by ``strategy`` and plays by ``method``; with ``dd`` no card is played
    (the play column is 0: the solver gives the tricks)."""
    policies, params = seat_policies(strategy, "heuristic" if method == "dd" else method,
                                     worlds, rules)
    if method == "dd":
        policies[:, 1] = 0
    return policies, params


def bids_by_analyzer(policies: np.ndarray) -> bool:
    """Whether some seat of ``policies`` (``[4, 2]`` rows) bids by the analyzer strategy."""
    return bool((policies[:, 0] == P.D_ANALYZER).any())
