"""The odds engine's wrapper: a :class:`DealQuery` says what the asking player knows, how the
unseen cards are dealt (conditions, and the calls heard for inference), which scenarios to
solve and which options to play out on each deal; :func:`run_query` deals a chunk of deals
and answers them all (``kernels.drivers.query.run_chunk``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from kernels.bidding.bidding import N_PARAMS
from kernels.deal.dealing import Dealing, binomial_table, layout_count
from kernels.drivers import query as Q
from kernels.drivers.forced import new_point
from kernels.slots import OPT, PT, S
from kernels.threads import deal_by_deal, num_threads

from ..game.variants import Rules
from .first_compile import engine_for
from .solver import solver_arrays

MAX_TRIES = 20000  # reshuffles per deal before --given conditions count as unmet


def no_point() -> np.ndarray:
    """A decision point with no calls heard, no upcard, no inference and no asker: scenarios
    only, solved double dummy."""
    point = np.empty(PT.LEN, dtype=np.int64)
    new_point(point, 0, -1, -1, 1)
    return point


def no_constraints() -> tuple:
    """Constraint rows that accept every deal (``kernels.deal.dealing``)."""
    return (np.zeros(0, np.int64), np.zeros(0, np.uint64), np.zeros(0, np.int64),
            np.zeros(0, np.int64))


@dataclass
class DealQuery:
    """One query's dealing and scenarios.

    ``known[4]`` are the natural masks of the cards known to be in each seat (the asker's own
    hand, cards placed by a condition); ``cards`` the unseen natural ids, dealt in groups of
    ``sizes`` to ``group_seat`` (-1: the kitty or a dead hand); ``cons`` constraint rows (see
    ``kernels.deal.dealing``); ``scenarios`` the kernel rows (slots ``kernels.slots.S``) answered
    on every deal; ``point`` the decision point (slots ``kernels.slots.PT``: the upcard, the
    calls heard, inference, solving) and ``options`` the rows played out from it (slots ``OPT``);
    ``policies``/``params`` the seats' strategies and how they play the cards (unless
    ``point[PT.SOLVE]``: double dummy)."""

    rules: Rules
    known: np.ndarray
    cards: np.ndarray
    sizes: np.ndarray
    group_seat: np.ndarray
    scenarios: list = field(default_factory=list)
    cons: tuple = field(default_factory=no_constraints)
    policies: np.ndarray = field(default_factory=lambda: np.zeros((4, 2), dtype=np.int64))
    params: np.ndarray = field(default_factory=lambda: np.zeros((4, N_PARAMS)))
    point: np.ndarray = field(default_factory=lambda: no_point())
    options: np.ndarray = field(default_factory=lambda: np.zeros((0, OPT.LEN), np.int64))

    def add(self, trump, declarer, active, decl, leader) -> int:
        """Add a scenario row (see ``kernels.drivers.query``): the declaring side's tricks on the
        hands as dealt, ``declarer``'s side (the seats of the mask ``decl``) declaring
        ``trump``, the seats of ``active`` playing, ``leader`` leading. Returns its index."""
        row = [0] * S.LEN
        row[S.TRUMP], row[S.DECLARER], row[S.ACTIVE] = trump, declarer, active
        row[S.DECL], row[S.LEADER] = decl, leader
        row[S.NUMBER] = len(self.scenarios)  # (S.OF stays 0 until some rows are left out)
        self.scenarios.append(row)
        return len(self.scenarios) - 1

    def scenario_array(self) -> np.ndarray:
        """The scenario rows as an int64 array [S, S.LEN]."""
        return np.array(self.scenarios, dtype=np.int64).reshape(-1, S.LEN)

    def layouts(self) -> int:
        """How many ways the unseen cards can be split into the groups (exact mode)."""
        return int(layout_count(self.sizes, binomial_table(len(self.cards))))

    def place(self, card: int, group: int) -> None:
        """Deal ``card`` to the seat of ``group`` for sure: it leaves the unseen cards."""
        self.cards = self.cards[self.cards != card]
        self.sizes = self.sizes.copy()
        self.sizes[group] -= 1
        self.known = self.known.copy()
        self.known[self.group_seat[group]] |= np.uint64(1 << card)


@dataclass
class QueryChunk:
    """One chunk's answers: per deal and scenario the declaring side's tricks; per deal the
    tries it took (negative when its conditions were never met), the solver nodes and each
    seat's cards as dealt; per deal and option how it ended (slots ``kernels.slots.X``); per
    deal the calls heard it kept as trembles and, in exact mode, how unlikely they are."""

    outcomes: np.ndarray
    tries: np.ndarray
    nodes: np.ndarray
    dealt: np.ndarray
    results: np.ndarray
    trembled: np.ndarray  # per deal: calls heard kept only as trembles (see kernels.drivers.query)
    unlikely: np.ndarray  # exact mode: -log2 of their chance, in steps (kernels.slots.R)

    @property
    def ok(self) -> np.ndarray:
        """Which deals met their conditions."""
        return self.tries > 0


def exact_chunk(chunk: int) -> int:
    """The chunk of an exact-mode run near ``chunk``: a whole number of the kernel's runs of
    consecutive layouts that share a table (``kernels.drivers.query.LAYOUT_RUN``) and at least one
    run per thread, so every thread has work and node counts depend neither on the chunk
    nor on the threads."""
    return max(-(-chunk // Q.LAYOUT_RUN), num_threads()) * Q.LAYOUT_RUN


def run_query(q: DealQuery, seed: int, first: int, n: int, exact: bool = False,
              max_tries: int = MAX_TRIES) -> QueryChunk:
    """Deal deals ``first .. first+n-1`` of ``q`` (random from ``seed``, or layout number
    ``first + i`` in ``exact`` mode) and answer every scenario on each."""
    rules = q.rules
    dealing = Dealing(bool(exact), q.known, q.cards, q.sizes, q.group_seat,
                      binomial_table(len(q.cards)), *q.cons,
                      np.int64(1 if exact else max_tries))
    with deal_by_deal(n if not exact else max(1, n // Q.LAYOUT_RUN)):
        return QueryChunk(*Q.run_chunk(
            Q.DealRange(np.int64(seed), np.int64(first), np.int64(n)), dealing, q.point,
            q.scenario_array(), np.asarray(q.options, dtype=np.int64).reshape(-1, OPT.LEN),
            rules.arrays, q.policies, q.params, solver_arrays(rules), engine_for(rules)))
