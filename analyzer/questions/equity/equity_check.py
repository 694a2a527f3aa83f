"""Whole games played from a score, against the equity table: the check that the dynamic
programme (``analyzer.game.match_equity``) plays the game's end, the deal going round and the
redeals as the engine does. The games are the engine's hands, a round at a time for every
game still going, each scored into its game by the kernels' own rules
(``compute.engine.GameLoop.count``: ``kernels.drivers.games.add_points`` and ``game_winner``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from kernels.cards.codes import ST_PLAYED
from kernels.slots import TALLY, R

from ...compute.engine import GameLoop, play_hands
from ...game.game_score import score_rules_of
from ...game.notation import SEATS
from ...game.variants import Rules
from ...stats import wilson
from ...strategy.defaults import BUILT_PLAY, DEFAULT_STRATEGY
from ...strategy.seats import seat_policies
from .build import equity_table, hand_rules
from .to_score import tell_score, to_score


def check_states(rules: Rules) -> list[tuple[tuple[int, ...], int]]:
    """Eight ``(score, dealer seat)`` states to play from, the dealers taking turns: the
    scores of the units (teams N-S, E-W, or players N, E, S) six times a point or a few
    from the target (short games), then halfway, then the start of a game — or, where
    scores fall, one below zero in its place."""
    t = rules.target
    if score_rules_of(rules).units == 2:
        scores = [(t - 1, t - 2), (t - 2, t - 1), (t - 4, t - 1), (t - 1, t - 4),
                  (t - 3, t - 3), (t - 1, t - 1), (t // 2, t // 2), (0, 0)]
    else:
        scores = [(t - 1, t - 2, t - 3), (t - 2, t - 1, t - 1), (t - 4, t - 1, t - 2),
                  (t - 1, t - 1, t - 1), (t - 3, t - 4, t - 1), (t - 5, t - 2, t - 1),
                  (t // 2,) * 3, (0, 0, 0)]
    if score_rules_of(rules).low < 0:
        scores[-1] = (-6, *scores[-2][1:])
    return [(score, k % rules.players) for k, score in enumerate(scores)]


def games_from(rules: Rules, score, dealer: int, games: int, seed: int) -> tuple[np.ndarray,
                                                                              int]:
    """Play ``games`` whole games from ``score`` (per unit) with ``dealer`` dealing first,
    every seat bidding by the default strategy (told the score of each hand, where it plays
    to the score) and playing heuristic: ``(winner[games], hands played)``, the winner a
    unit (team or player)."""
    policies, params = seat_policies(DEFAULT_STRATEGY, BUILT_PLAY, rules=hand_rules(rules))
    loops = [GameLoop(rules, policies, params) for _ in range(games)]
    for loop in loops:
        loop.scores[:len(score)] = score
    tally = np.zeros((2, GameLoop.N_CODES, TALLY.LEN), dtype=np.int64)
    dealers = np.full(games, dealer, dtype=np.int64)
    winner = np.full(games, -1, dtype=np.int64)
    going = np.arange(games)
    hands = 0
    for _ in range(GameLoop.MAX_HANDS):
        if going.size == 0:
            break
        for group, told in _by_score(rules, loops, going, dealers, params):
            _, records = play_hands(rules, group.size, policies, told, seed, hands,
                                    dealers[group])
            hands += group.size
            for game, rec in zip(group, records, strict=True):
                if rec[R.STATUS] == ST_PLAYED:
                    winner[game] = loops[game].count(rec, 0, tally)
        dealers[going] = (dealers[going] + 1) % rules.players
        going = going[winner[going] < 0]
    return winner, hands


def _by_score(rules: Rules, loops: list, going: np.ndarray, dealers: np.ndarray,
              params: np.ndarray):
    """The games still ``going`` in groups of the same score and dealer, each with the
    seats' rows told that score (``to_score.tell_score``); one group with the rows as they
    are where no seat plays to the score."""
    if not to_score(params):
        yield going, params
        return
    units = equity_table(rules).rules.units
    keys = np.array([[*loops[g].scores[:units], dealers[g]] for g in going])
    for key in np.unique(keys, axis=0):
        told = params.copy()
        tell_score(rules, told, key[:units], int(key[units]))
        yield going[(keys == key).all(axis=1)], told


@dataclass(frozen=True)
class CheckedState:
    """One state checked: the ``score`` and the ``dealer`` seat, the table's chance that unit
    0 (team N-S, or player N) wins, and ``wins`` of ``games`` simulated (``hands`` played)."""

    score: tuple
    dealer: int
    table: float
    wins: int
    games: int
    hands: int

    @property
    def interval(self) -> tuple[float, float, float]:
        """The simulated share won and its 95% (Wilson) interval."""
        return wilson(self.wins, self.games)

    @property
    def agrees(self) -> bool:
        """Whether the table's chance lies within the simulated share's 95% interval."""
        _, low, high = self.interval
        return low <= self.table <= high


def check_table(rules: Rules, games: int, seed: int = 0, states=None,
                progress=None) -> list[CheckedState]:
    """The table's chance of winning against ``games`` whole games from each of ``states``
    (default :func:`check_states`); ``progress(done, total)`` after each state."""
    table = equity_table(rules)
    states = states or check_states(rules)
    out = []
    for i, (score, dealer) in enumerate(states):
        winner, hands = games_from(rules, score, dealer, games, seed + i)
        chance = float(table.win_chance(np.array(score), dealer)[0])
        out.append(CheckedState(tuple(score), dealer, chance, int((winner == 0).sum()),
                                games, hands))
        if progress:
            progress(i + 1, len(states))
    return out


def check_frame(checked: list[CheckedState]) -> pd.DataFrame:
    """The checked states as a frame: score, dealer, the table's chance, the simulated share
    with its interval, games, hands a game, and whether they agree."""
    rows = []
    for c in checked:
        share, low, high = c.interval
        rows.append({"score": "-".join(str(s) for s in c.score), "dealer": SEATS[c.dealer],
                     "table": c.table, "simulated": share, "low": low, "high": high,
                     "games": c.games, "hands_a_game": c.hands / c.games, "agrees": c.agrees})
    return pd.DataFrame(rows)
