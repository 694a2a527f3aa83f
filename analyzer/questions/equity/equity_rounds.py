"""The match-equity table and the strategy that plays to the score, iterated together.

The table of ``analyzer.game.match_equity`` assumes that a hand ends the same way at every score.
Once the analyzer plays to the score (``analyzer.strategy.score_lens``) it does not: at 9-9 it
calls what it would pass at 0-0. So the table is solved again with each state's own
outcome chances, from hands played at that state by a strategy that reads the table before:

- round 0 is the score-blind table (every hand alike);
- round r plays, at every score state of the table (in deal order, the first unit dealing),
  the same ``hands`` deals with every seat playing to that score by the table of round r-1,
  counts each state's outcomes and solves the table again with them.

Every state plays the same deals, and so do the score-blind hands they are set against: a
state's chances are the score-blind chances (from all the self-play hands of the table)
plus the difference its deals made — zero on every deal where no call changed — so the
noise of a few thousand hands a state stays out of the states where nothing changes. The
rounds stop when no state's chance moves by more than ``TOLERANCE`` (with the same deals,
a round whose calls all repeat the round before moves nothing) or after ``MAX_ROUNDS``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.slots import R

from ...compute.engine import play_hands
from ...game import match_equity as E
from ...game.variants import Rules
from ...strategy.best_response import max_rounds as table_rounds
from ...strategy.defaults import BUILT_PLAY, DEFAULT_STRATEGY
from ...strategy.score_lens import ScoreLens, fill_lens, index_of, tell_worth
from ...strategy.seats import seat_policies

ROUND_SEED = 20261207  # the deals every state plays
MAX_ROUNDS = 6
TOLERANCE = 5e-4  # a round that moves no chance of the table by more than this is the last
MIN_HANDS = 1_000  # deals a state plays a round at least (questions.equity.build.equity_hands over
#   all the states: 4,000,000)


@dataclass(frozen=True)
class Rounds:
    """How the table and the strategy were iterated: ``delta[S, k]`` the outcome counts of
    the last round's hands at each state less those of the same deals played score-blind
    (``hands`` deals a state), ``changes`` the largest move of any chance of the table in
    each round (round 1 first)."""

    delta: np.ndarray
    hands: int
    changes: list


def state_hands(states: int, total: int) -> int:
    """Deals each of ``states`` score states plays a round: ``total`` shared out, at least
    ``MIN_HANDS`` (4,000,000: a knock table's 104 states 38,461 each, bid's 4,120 states
    1,000), or a 400th of ``total`` if that is less (the test suite's 20,000: 50 a state)."""
    return max(total // max(states, 1), min(MIN_HANDS, total // 400))


def max_rounds() -> int:
    """The most rounds: ``MAX_ROUNDS``, or fewer when ``$EUCHRE_STRATEGY_ROUNDS`` caps the
    strategy's rounds below it (the test suite: 2)."""
    return min(MAX_ROUNDS, table_rounds())


def _counts(played: Rules, policies, params, outcomes: np.ndarray, hands: int,
            units: int) -> np.ndarray:
    """The outcome counts (rows of ``outcomes``, seen from the dealer's unit) of the round's
    ``hands`` deals, N dealing every one, the seats bidding by ``policies``/``params``."""
    _, records = play_hands(played, hands, policies, params, ROUND_SEED, 0,
                            np.zeros(hands, dtype=np.int64))
    points = records[:, R.POINTS:R.POINTS + units]  # N deals: N-S (or N) first
    k = index_of(outcomes, points)
    return np.bincount(k[k >= 0], minlength=len(outcomes)).astype(np.int64)


def state_chances(base: np.ndarray, delta: np.ndarray, hands: int) -> np.ndarray:
    """``[S, k]``: each state's outcome chances, the score-blind ``base[k]`` moved by the
    state's ``delta`` (``Rounds.delta``) over ``hands``, clipped at 0 and made to add up to
    1."""
    chances = np.clip(base[None, :] + delta / hands, 0.0, None)
    return chances / chances.sum(axis=1, keepdims=True)


def iterate(played: Rules, blind: E.EquityTable, outcomes: E.HandOutcomes, lens: ScoreLens,
            total: int, progress=None) -> tuple[E.EquityTable, Rounds]:
    """Iterate the table and the strategy (see the module docstring) from the score-blind
    table ``blind`` of ``outcomes`` (one hand's outcome counted from self-play) for hands
    played under ``played``, ``total`` hands a round (``state_hands``);
    ``progress(round, change)`` after each round. Returns the last table and how the rounds
    went."""
    rules = blind.rules
    states = E.ongoing_states(rules)
    hands = state_hands(len(states), total)
    base = np.zeros(len(lens.outcomes))
    at = index_of(lens.outcomes, outcomes.points)
    np.add.at(base, at, outcomes.chance)
    policies, params = seat_policies(DEFAULT_STRATEGY, BUILT_PLAY, rules=played)
    reference = _counts(played, policies, params, lens.outcomes, hands, rules.units)
    for seat in range(4):
        fill_lens(params[seat], lens)
    scored = params.copy()
    table, changes, delta = blind, [], np.zeros((len(states), len(base)), dtype=np.int64)
    for r in range(1, max_rounds() + 1):
        for i, state in enumerate(states):
            tell_worth(scored, table, lens, state, 0)
            delta[i] = _counts(played, policies, scored, lens.outcomes, hands,
                               rules.units) - reference
        chain = E.build_chain(rules, E.HandOutcomes(lens.outcomes, base),
                              state_chances(base, delta, hands))
        solved = E.solve(chain)
        before = table.win_chance(chain.states, 0)
        table = E.EquityTable(rules, blind.players, chain.states, solved.values,
                              {**blind.about, "rounds": r})
        changes.append(float(np.abs(table.win_chance(chain.states, 0) - before).max()))
        if progress:
            progress(r, changes[-1])
        if changes[-1] < TOLERANCE:
            break
    return table, Rounds(delta.copy(), hands, changes)


def table_of_rounds(blind: E.EquityTable, outcomes: E.HandOutcomes, lens: ScoreLens,
                    rounds: Rounds) -> E.EquityTable:
    """The table the rounds ended with, solved again from their counts (as shipped)."""
    base = np.zeros(len(lens.outcomes))
    np.add.at(base, index_of(lens.outcomes, outcomes.points), outcomes.chance)
    chain = E.build_chain(blind.rules, E.HandOutcomes(lens.outcomes, base),
                          state_chances(base, rounds.delta, rounds.hands))
    solved = E.solve(chain)
    return E.EquityTable(blind.rules, blind.players, chain.states, solved.values,
                         {**blind.about, "rounds": len(rounds.changes),
                          "round_changes": rounds.changes, "state_hands": rounds.hands})
