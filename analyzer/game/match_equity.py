"""The chance of winning the game from every score (a match-equity table), by dynamic
programming over the score states from the distribution of one hand's outcome.

**Scores by the deal.** A state is the units' scores (the two teams, or the three players)
in *deal order*: unit 0 deals the next hand, unit 1 deals the one after (left of the dealer;
with partners, the other team), unit 2 the third. After a hand the deal passes one seat to
the left, redeals included (``kernels.drivers.games.play_game``), so the state after a hand that
scored ``points`` is ``roll(scores + points, -1)``. The outcome of one hand is a
distribution over the points each unit scores, by deal order (``HandOutcomes``): a redeal
is the outcome "no points". Every seat plays the same strategy, so the distribution is the
same whichever seat deals.

**The end of a game** is the kernels' rule (``kernels.drivers.games.game_winner``, here on numpy
arrays in ``ScoreRules.winner``): a unit wins when it has reached the target with the strictly
highest score, ahead by at least ``win_by``; a tie at the top plays on. Scores are kept in a
box ``[low, high]`` per unit: ``high`` is the target less one plus the most points one hand
can give, so a state beyond it is a game that plays on at the top (a tie, or a lead under
``win_by``), where only the differences matter once the leader is past the target (it never
falls back under it: only a declaring unit loses points) — it is moved down to the box
unchanged in its differences. ``low`` is 0 where no hand loses points, else ``-FLOOR_DEPTH``
(by the number of units): a score under it counts as ``low`` — the truncation; a floor twice
as deep moves no entry at scores of 0 and up by more than 1e-7 (docs/equity.md).

**Solving.** ``V(s)[j]``, the chance that unit ``j`` (by deal order) wins from state ``s``,
is ``sum_o p(o) * W(s, o)[j]``: ``W`` is 1 for the winner when the hand ends the game, else
``V(next state)`` rolled back by one unit. States are taken highest score total first, in
blocks of equal total (the states at the top, past the target, one block before all). Where
no hand loses points (knock, cutthroat) a hand moves a state to a block already solved or,
scoring nothing (a redeal, which passes the deal), to its own rotation in the same block
(the 2x2 or 3x3 system of a score and the deal going round), so each block is one small
linear system, solved once, exactly (``solve_in_order``). Where
scores fall (bid, ghost), the blocks are swept again and again, each with the latest values
(Gauss-Seidel, ``solve_by_sweeps``): starting from 0, every value rises to its limit, and
``1 - sum_j V(s)[j]`` — the chance that a game from ``s`` has not ended within the sweeps —
bounds every entry's error, so the sweeps stop when it is under ``TOLERANCE`` everywhere.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

# where a hand can lose points, scores are kept down to minus this, by the number of units (a
# player of three declares a third of the hands, so falls more slowly; docs/equity.md)
FLOOR_DEPTH = {2: 32, 3: 16}
TOLERANCE = 1e-10  # sweeps stop when every state's games have ended but for this chance
MAX_SWEEPS = 2000


@dataclass(frozen=True)
class ScoreRules:
    """How the score ends a game: ``units`` (2 teams or 3 players), the ``target``, the lead
    a winner needs (``win_by``: 1, or 2 with the win-by-two rule), and the box of scores the
    table keeps, ``low`` to ``high`` for each unit."""

    units: int
    target: int
    win_by: int
    low: int
    high: int

    @property
    def size(self) -> int:
        """Scores a unit can have in the box (``high - low + 1``)."""
        return self.high - self.low + 1

    def winner(self, scores: np.ndarray) -> np.ndarray:
        """The unit that has won at ``scores`` (int array ``[..., units]``), or -1 where the
        game goes on: ``kernels.drivers.games.game_winner`` on every row at once."""
        return self.winner_of(_columns(scores))

    def winner_of(self, columns: list) -> np.ndarray:
        """:meth:`winner` of scores given as one array per unit."""
        best = functools.reduce(np.maximum, columns)
        at_best = [c == best for c in columns]
        alone = functools.reduce(np.add, [a.astype(np.int8) for a in at_best]) == 1
        others = functools.reduce(np.maximum, [np.where(a, _NONE, c)
                                               for a, c in zip(at_best, columns, strict=True)])
        won = (best >= self.target) & alone & (best - others >= self.win_by)
        out = np.full(best.shape, -1, dtype=np.int64)
        for u, a in enumerate(at_best):
            out[won & a] = u
        return out

    def in_box(self, columns: list) -> list:
        """Scores (one array per unit) of games that go on, moved into the box: a state above
        ``high`` moved down whole (its differences kept), then each score under ``low``
        raised to it."""
        over = np.maximum(functools.reduce(np.maximum, columns) - self.high, 0)
        return [np.maximum(c - over, self.low) for c in columns]

    def cell(self, columns: list) -> np.ndarray:
        """The flat index in the box of in-box scores (one array per unit)."""
        index = np.zeros(np.shape(columns[0]), dtype=np.int64)
        for c in columns:
            index = index * self.size + (c - self.low)
        return index


_NONE = np.iinfo(np.int64).min // 4  # a score below any: "no other unit"


def _columns(scores: np.ndarray) -> list:
    """``scores[..., units]`` as one contiguous array per unit."""
    scores = np.asarray(scores, dtype=np.int64)
    return [scores[..., u].copy() for u in range(scores.shape[-1])]


def score_rules(units: int, target: int, win_by: int, most_gained: int,
                most_lost: int) -> ScoreRules:
    """The ``ScoreRules`` of a game of ``units`` to ``target`` (lead ``win_by``) whose hands
    give a unit at most ``most_gained`` points and take at most ``most_lost`` (0: scores never
    fall)."""
    low = 0 if most_lost <= 0 else -FLOOR_DEPTH[units]
    return ScoreRules(units, target, win_by, low, target - 1 + max(most_gained, 1))


@dataclass(frozen=True)
class HandOutcomes:
    """The distribution of one hand's outcome: ``points[k, units]`` each unit scores, in deal
    order (unit 0 the dealer's), seen ``counts[k]`` times in ``hands`` hands, ``redeals`` of
    them redealt (counted in the all-zero row)."""

    points: np.ndarray
    counts: np.ndarray
    redeals: int = 0

    @property
    def hands(self) -> int:
        """Hands the distribution was counted from."""
        return int(self.counts.sum())

    @property
    def chance(self) -> np.ndarray:
        """The chance of each outcome (``counts / hands``)."""
        return self.counts / self.counts.sum()


def outcomes_of(points: np.ndarray, redealt: np.ndarray | None = None) -> HandOutcomes:
    """The ``HandOutcomes`` of played hands: ``points[n, units]`` in deal order, and which
    were redealt (``redealt[n]``, bool; their points are 0)."""
    rows, counts = np.unique(np.asarray(points, dtype=np.int64), axis=0, return_counts=True)
    redeals = 0 if redealt is None else int(np.count_nonzero(redealt))
    return HandOutcomes(rows, counts.astype(np.int64), redeals)


@dataclass
class ScoreChain:
    """The game as a chain over the states that go on, highest total first: ``states[S,
    units]`` (in the box), ``blocks`` (``(start, stop)`` of each block of equal total, the
    states past the target first), ``following[k, S]`` the state after outcome ``k`` (``S``
    when the hand ends the game), ``ending[S, units]`` the chance that the next hand ends the
    game with each unit the winner, and the outcomes' chances ``chance[k, S]`` at each state
    (the same at every state unless the hands are played to the score)."""

    rules: ScoreRules
    states: np.ndarray
    blocks: list
    following: np.ndarray
    ending: np.ndarray
    chance: np.ndarray

    @property
    def in_order(self) -> bool:
        """True when no hand leads to a block solved later (no hand loses points): each block
        can then be solved once, exactly."""
        stops = np.empty(len(self.states), dtype=np.int64)
        for start, stop in self.blocks:
            stops[start:stop] = stop
        going_on = self.following < len(self.states)
        return bool(np.all(~going_on | (self.following < stops)))


def ongoing_states(rules: ScoreRules) -> np.ndarray:
    """Every state of the box where the game goes on (``[S, units]``, in deal order), highest
    total first (the states past the target, a block of their own, before all): the order of
    a chain's states, and of the per-state chances ``build_chain`` takes."""
    axis = np.arange(rules.low, rules.high + 1)
    box = np.stack(np.meshgrid(*([axis] * rules.units), indexing="ij"), -1).reshape(
        -1, rules.units)
    states = box[rules.winner(box) < 0]
    return states[np.lexsort((-states.sum(axis=1), -_past_target(rules, states)))]


def _past_target(rules: ScoreRules, states: np.ndarray) -> np.ndarray:
    return (states.max(axis=-1) >= rules.target).astype(np.int64)


def _blocks(rules: ScoreRules, states: np.ndarray) -> list:
    key = np.where(_past_target(rules, states) == 1, np.iinfo(np.int64).max,
                   states.sum(axis=1))
    edges = np.flatnonzero(np.diff(key)) + 1
    bounds = [0, *edges.tolist(), len(states)]
    return list(itertools.pairwise(bounds))


def build_chain(rules: ScoreRules, outcomes: HandOutcomes,
                by_state: np.ndarray | None = None) -> ScoreChain:
    """The ``ScoreChain`` of a game under ``rules`` whose hands end as ``outcomes`` says, or,
    with ``by_state`` (``[S, k]``: the chances of the outcomes' rows at each state of
    ``ongoing_states``, each row adding up to 1), as each state's hands end."""
    states = ongoing_states(rules)
    n_states = len(states)
    index = np.full(rules.size ** rules.units, n_states, dtype=np.int64)
    index[rules.cell(_columns(states))] = np.arange(n_states)
    if by_state is None:
        chance = np.repeat(outcomes.chance[:, None], n_states, axis=1)
    else:
        chance = np.ascontiguousarray(np.asarray(by_state, dtype=np.float64).T)
    following = np.empty((len(chance), n_states), dtype=np.int64)
    ending = np.zeros((n_states, rules.units))
    rows = np.arange(n_states)
    columns = _columns(states)
    for k, points in enumerate(outcomes.points):
        after = [c + p for c, p in zip(columns, points, strict=True)]
        winner = rules.winner_of(after)
        ends = winner >= 0
        ending[rows[ends], winner[ends]] += chance[k, ends]
        moved = rules.in_box(after)
        moved = moved[1:] + moved[:1]  # the next unit deals
        following[k] = np.where(ends, n_states, index[rules.cell(moved)])
    return ScoreChain(rules, states, _blocks(rules, states), following, ending, chance)


@dataclass(frozen=True)
class Solved:
    """The chance of each unit winning from every state of a chain (``values[S, units]``, in
    deal order), found in ``sweeps`` sweeps (1: solved in order, exactly); ``unfinished`` is
    the largest chance that a game has not ended within them, a bound on every entry's
    error."""

    values: np.ndarray
    sweeps: int
    unfinished: float


def _roll_back(values: np.ndarray) -> np.ndarray:
    """Values of the state after a hand, in the deal order of the state before it."""
    return np.roll(values, 1, axis=-1)


def _block_update(chain: ScoreChain, values: np.ndarray, start: int, stop: int) -> np.ndarray:
    """One Jacobi update of a block's values from the latest ``values`` (which has an
    extra all-zero row for the games that ended)."""
    after = values.take(chain.following[:, start:stop], axis=0)  # [k, m, units]
    return chain.ending[start:stop] + _roll_back(_expected(chain.chance[:, start:stop], after))


def _expected(chance: np.ndarray, after: np.ndarray) -> np.ndarray:
    """``sum_k chance[k, m] * after[k, m]`` (einsum: BLAS's threads fight on a busy
    machine)."""
    return np.einsum("km,kmu->mu", chance, after)


def solve_by_sweeps(chain: ScoreChain, tolerance: float = TOLERANCE,
                    max_sweeps: int = MAX_SWEEPS) -> Solved:
    """Sweep the blocks in order, each from the latest values (Gauss-Seidel), until every
    state's games have ended but for ``tolerance`` (see the module's docstring)."""
    n_states = len(chain.states)
    values = np.zeros((n_states + 1, chain.rules.units))
    unfinished = 1.0
    sweep = 0
    while unfinished > tolerance and sweep < max_sweeps:
        sweep += 1
        for start, stop in chain.blocks:
            values[start:stop] = _block_update(chain, values, start, stop)
        unfinished = float(np.max(1.0 - values[:n_states].sum(axis=1)))
    return Solved(values[:n_states], sweep, max(unfinished, 0.0))


def solve_in_order(chain: ScoreChain) -> Solved:
    """Solve each block once, exactly, in order (only where ``chain.in_order``): the states
    of a block depend on blocks already solved and, by hands that score nothing (redeals,
    which pass the deal), on each other — one small linear system."""
    units = chain.rules.units
    values = np.zeros((len(chain.states) + 1, units))
    for start, stop in chain.blocks:
        size = (stop - start) * units
        system = np.eye(size)
        local = chain.following[:, start:stop] - start
        inside = (local >= 0) & (local < stop - start)
        outside = np.where(inside, len(chain.states), chain.following[:, start:stop])
        known = chain.ending[start:stop] + _roll_back(
            _expected(chain.chance[:, start:stop], values.take(outside, axis=0)))
        k, row = np.nonzero(inside)
        j = np.arange(units)
        np.add.at(system, ((row * units)[:, None] + j, (local[k, row] * units)[:, None]
                           + (j - 1) % units),
                  -chain.chance[k, start + row][:, None])  # V(next)[j - 1]
        values[start:stop] = np.linalg.solve(system, known.reshape(-1)).reshape(-1, units)
    unfinished = float(np.max(np.abs(1.0 - values[:-1].sum(axis=1))))
    return Solved(values[:-1], 1, unfinished)


def solve(chain: ScoreChain) -> Solved:
    """The chain solved: in order, exactly, where no hand loses points; else by sweeps."""
    return solve_in_order(chain) if chain.in_order else solve_by_sweeps(chain)


@dataclass(frozen=True)
class EquityTable:
    """The chance of winning the game from every score of a rule set: ``values[S, units]``
    of the ongoing ``states[S, units]`` (both in deal order, see the module's docstring) of
    a game by ``rules``, whose ``players`` seats deal in turn; ``about`` says how it was made
    (hands of self-play, seed, strategy, sweeps, the bound on its error)."""

    rules: ScoreRules
    players: int
    states: np.ndarray
    values: np.ndarray
    about: dict

    @functools.cached_property
    def _box(self) -> np.ndarray:
        """The values over every cell of the box (NaN where the game has ended)."""
        box = np.full((self.rules.size ** self.rules.units, self.rules.units), np.nan)
        box[self.rules.cell(_columns(self.states))] = self.values
        return box

    def unit_of(self, seat: int) -> int:
        """The unit (team 0 = N-S, 1 = E-W; or the player) a seat (0 = N, clockwise) is in."""
        return int(seat) % self.rules.units

    def win_chance(self, scores, dealer: int) -> np.ndarray:
        """The chance that each unit wins the game at ``scores`` (ints ``[..., units]``: the
        teams N-S, E-W, or the players N, E, S; any scores, past the target or under the
        floor too) when ``dealer`` (a seat, 0 = N) deals the next hand. Returns floats
        ``[..., units]`` (1 and 0 where the game is over)."""
        columns = _columns(scores)
        first = self.unit_of(dealer)
        winner = self.rules.winner_of(columns)
        deal_order = self.rules.in_box(columns[first:] + columns[:first])
        chance = np.roll(self._box[self.rules.cell(deal_order)], first, axis=-1)
        won = np.eye(self.rules.units)[np.maximum(winner, 0)]
        return np.where((winner >= 0)[..., None], won, chance)

    def after_hand(self, score, dealer: int, points) -> np.ndarray:
        """The chance that each unit wins the game after a hand dealt by ``dealer`` (a seat)
        from ``score`` (``[units]``) in which the units scored ``points`` (ints ``[...,
        units]``, e.g. one row per deal of a question): the next hand is dealt by the seat
        on the dealer's left. Returns floats ``[..., units]``."""
        after = np.asarray(score, dtype=np.int64) + np.asarray(points, dtype=np.int64)
        return self.win_chance(after, (int(dealer) + 1) % self.players)
