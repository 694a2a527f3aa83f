"""The seats that play to the score, told it: for one question at a score (``tell_score``)
and for whole games (``scored_match``: the game kernel tells them before each hand). The
strategy's part is ``analyzer.strategy.score_lens`` (the lens, the worth of each outcome); the
table they read is the rule set's match-equity table (``questions.equity.build.equity_table``).
"""

from __future__ import annotations

import numpy as np

from kernels.slots import PR

from ...compute.engine import Match
from ...game.variants import Rules
from ...strategy.score_lens import fill_lens, game_lens, plays_to_score, score_lens, set_score
from .build import equity_table, hand_rules


def to_score(params: np.ndarray) -> bool:
    """Whether a seat of ``params`` (rows ``[n, PR.LEN]``) plays to the score."""
    return bool((params[:, PR.TO_SCORE] == 1.0).any())


def tell_score(rules: Rules, params: np.ndarray, score, dealer: int) -> None:
    """Tell the seats of ``params`` (``[4, PR.LEN]``, e.g. a question's
    ``others_policies``) the game's ``score`` (per unit: teams N-S, E-W, or players N, E, S)
    before the hand ``dealer`` (a seat) deals: every seat that plays to the score gets its
    lens and ``PR.WORTH`` and is marked ``PR.SCORED``; nothing changes for the others, nor
    under rules where the analyzer stays score-blind."""
    if to_score(params) and plays_to_score(hand_rules(rules)):
        set_score(params, equity_table(rules), score_lens(hand_rules(rules)), score, dealer)


def scored_match(rules: Rules, match: Match) -> Match:
    """``match`` with its game lens when a side plays to the score (its rows given the lens):
    the game kernel then tells those seats the score before each hand; otherwise
    ``match`` as it is."""
    if not to_score(match.params) or not plays_to_score(hand_rules(rules)):
        return match
    lens = score_lens(hand_rules(rules))
    params = match.params.copy()
    for side in range(len(params)):
        if params[side, PR.TO_SCORE] == 1.0:
            fill_lens(params[side], lens)
    return Match(match.policies, params, game_lens(equity_table(rules), lens))
